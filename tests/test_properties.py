"""Property tests over thousands of seeded random-bot games (docs/design.md, "The engine's contract").

Every game of every batch is checked for:

* card conservation: every uid ``0..len(game.defs)-1`` is in exactly one zone after every action
  (``card_zone_map``, G-2);
* badge ranges: Humility 0..10 (S-7), Maturity 0..3 (S-1) for every Righteous seat;
* an end: a result, winner "righteous" or "evil" with a reason, within a step cap (CO-W-1..4);
* listed actions apply: a sample of each probed position's legal actions is applied, checked, on
  a ``clone()``, and the original is untouched (clone independence);
* unlisted actions are refused: candidates of every action class (other seats, random uids and
  amounts) that are not in ``legal_actions`` raise ``IllegalAction`` and leave the state, the
  spectator view and the zone map unchanged;
* replay: ``Game.from_record(game.to_record())`` gives the same record, views, log and result (G-6);
* no leaks: no seat's view (nor the spectator's) shows a card of another seat's hand, any deck, or
  another seat's face-down Cost Zone; no event filtered with ``for_seat`` shows a card that was
  hidden from that seat both before and after the action (docs/design.md, "Hidden information");
* clone fidelity: a clone taken mid-game and driven by the same choices ends in the same record.

The checks of views, events, zones and badges are ``tests/api_checks.py``'s, shared with the API
conformance test; clone independence and same-seed determinism by line-up are checked there too
(``tests/test_conformance.py``), for every mode and variant.

Batches are parametrized by line-up (R solo, RR, RRR, RRRR co-op) and by the settings
``mat_abilities`` and ``humility_rollover``; ``solo_fee`` cycles 1..3 with the seed. The bulk of the
moves go through ``apply_unchecked``; a sample goes through the checked ``apply``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, example, given, settings as hsettings, strategies as st

from christianity_game import (
    Action, AdjustBadge, BuyAbility, Choose, ChooseAbility, Game, IllegalAction, LayCostZone, Pass, PlayCard,
    Resist, Settings, TakeBoost, UseAbility, action_from_json,
)
from christianity_game.engine.actions import ACTION_TYPES
from christianity_game.engine.game import ABILITIES
from api_checks import check_badges, check_events, check_view, check_zones, choose, make_settings, stable_seed
from state_helpers import snapshot

MODES = {"R": "solo", "RR": "coop", "RRR": "coop", "RRRR": "coop"}
# Games per (line-up, settings) batch; 4 settings combinations per line-up.
# 4 x (320 + 120 + 40 + 25) = 2,020 games in the batch tests alone.
GAMES = {"R": 320, "RR": 120, "RRR": 40, "RRRR": 25}
STEP_CAP = 20_000          # far above the longest game seen (~1,500 actions for RRRR)
PROBE_EVERY = 120          # mean actions between probes (views, clones, unlisted actions)
CHECKED_SHARE = 0.05       # share of moves applied through the checked ``apply`` (and replay
                           # re-applies every move of every game through it)
SETTING_COMBOS = [(m, r) for m in (True, False) for r in (True, False)]


# ------------------------------------------------------------------------------------------------
# helpers



def quick_snapshot(game: Game) -> tuple[Any, Any, Any]:
    """What a refused action must leave alone, cheaper than ``fingerprint``: counters, the
    generator, tapped / face-up sets, the spectator view and the zones."""
    st_ = game.state
    light = (st_.state_id, len(game.actions), len(game.log), st_.rng.state, st_.step, frozenset(st_.tapped),
             frozenset(st_.face_up), st_.choice and tuple(st_.choice.options), tuple(st_.window),
             tuple(st_.phase_passes), len(st_.offers), len(st_.effects), tuple(st_.abilities))
    return light, game.view(None), game.card_zone_map()


# --- unlisted actions ---------------------------------------------------------------------------

def unlisted_candidates(game: Game, rnd: random.Random, k: int) -> list[Action]:
    """Up to ``k`` well-typed actions of every class that are not legal now (nor valid S-8 moves)."""
    st_ = game.state
    n = len(st_.seats)
    N = len(game.defs)
    decider = game.pending[0][0]
    seat_pool = [decider] * 4 + list(range(n)) + [-1, n, n + 5]
    dsd = st_.seats[decider]
    other_cards = [u for i, sd in enumerate(st_.seats) if i != decider for u in sd.hand + sd.cost_zone]
    pools = [dsd.hand, dsd.cost_zone, dsd.deck, dsd.discard, [t.uid for t in st_.threats], st_.evil_deck,
             other_cards, [u for sd in st_.seats for u in sd.held], st_.resisted + st_.failed]

    def uid() -> int:
        pool = rnd.choice(pools)
        if pool and rnd.random() < 0.8:
            return rnd.choice(pool)
        return rnd.randrange(-3, N + 3)

    def seat() -> int:
        return rnd.choice(seat_pool)

    def opt_seat() -> int | None:
        return None if rnd.random() < 0.4 else seat()

    def ability() -> str:
        return rnd.choice(ABILITIES + ("flight", "", "Deliverance"))

    makers: list[Callable[[], Action]] = [
        lambda: Pass(seat()),
        lambda: LayCostZone(seat(), uid()),
        lambda: PlayCard(seat(), uid(), None if rnd.random() < 0.6 else uid(), opt_seat()),
        lambda: Resist(seat(), uid(), rnd.randrange(-2, 9)),
        lambda: TakeBoost(seat(), rnd.randrange(-1, 5), seat(), opt_seat()),
        lambda: UseAbility(seat(), ability(), opt_seat()),
        lambda: BuyAbility(seat(), ability()),
        lambda: ChooseAbility(seat(), ability()),
        lambda: Choose(seat(), uid()),
        lambda: AdjustBadge(rnd.choice([-1, n, n + 3]), "humility", rnd.randrange(0, 11)),
        lambda: AdjustBadge(seat(), rnd.choice(["karma", "Humility", "", "power"]), rnd.randrange(0, 4)),
        lambda: AdjustBadge(seat(), "humility", rnd.choice([-5, -1, 11, 12, 99])),
        lambda: AdjustBadge(seat(), "maturity", rnd.choice([-1, 4, 5, 10])),
    ]
    out: list[Action] = []
    for _ in range(k * 4):
        if len(out) >= k:
            break
        a = rnd.choice(makers)()
        if isinstance(a, AdjustBadge):
            if a in game.manual_actions(a.seat) if 0 <= a.seat < n else False:
                continue
        elif a in game.legal_actions(a.seat):
            continue
        out.append(a)
    return out


def assert_refused(game: Game, action: Any, where: str, before: Any = None, snap: Any = snapshot) -> str:
    """``action`` raises IllegalAction and changes nothing (as ``snap`` sees it); returns the code."""
    before = before if before is not None else snap(game)
    try:
        game.apply(action)
    except IllegalAction as exc:
        code = exc.code
        assert isinstance(code, str) and code, f"{where}: {action!r} refused without a code"
    except Exception as exc:  # noqa: BLE001 - anything else is a contract breach
        raise AssertionError(f"{where}: {action!r} raised {type(exc).__name__}: {exc} (expected IllegalAction)")
    else:
        raise AssertionError(f"{where}: unlisted action {action!r} was accepted")
    after = snap(game)
    assert after[0] == before[0], f"{where}: refused {action!r} changed the state"
    assert after[1] == before[1], f"{where}: refused {action!r} changed the spectator view"
    assert after[2] == before[2], f"{where}: refused {action!r} changed the zones"
    return code


# --- the checked game ---------------------------------------------------------------------------

class Stats:
    def __init__(self) -> None:
        self.games = 0
        self.actions = 0
        self.winners: Counter[str] = Counter()
        self.played: Counter[str] = Counter()
        self.events: Counter[str] = Counter()
        self.codes: Counter[str] = Counter()
        self.probes = 0
        self.clone_applies = 0


def probe(game: Game, rnd: random.Random, stats: Stats, where: str) -> None:
    """Views of every seat and the spectator, listed actions on clones, unlisted actions refused."""
    n = len(game.state.seats)
    stats.probes += 1
    for viewer in [None, *range(n)]:
        check_view(game, viewer, where)
    seat, acts = game.pending[0]
    for other in range(n):
        if other != seat:
            assert game.legal_actions(other) == [], f"{where}: seat {other} has actions but {seat} decides"
    before = snapshot(game)
    sample = acts if len(acts) <= 4 else rnd.sample(acts, 4)
    for a in sample:
        c = game.clone()
        events = c.apply(a)   # IllegalAction here is a failure: a listed action must apply
        assert c.state.state_id == game.state.state_id + 1
        assert list(c.log[len(game.log):]) == list(events)
        check_zones(c, f"{where} clone after {a!r}")
        check_badges(c, f"{where} clone after {a!r}")
        stats.clone_applies += 1
    after = snapshot(game)
    assert after == before, f"{where}: applying actions to clones changed the original"
    quick = quick_snapshot(game)
    for cand in unlisted_candidates(game, rnd, 8):
        stats.codes[assert_refused(game, cand, where, quick, quick_snapshot)] += 1
    assert snapshot(game) == before, f"{where}: a refused action changed the state"
    # every seat's manual adjustment (S-8) is applied on a clone, never listed as legal
    for s in range(n):
        manual = game.manual_actions(s)
        assert manual and not set(manual) & set(game.legal_actions(s))
        c = game.clone()
        c.apply(rnd.choice(manual))
        check_zones(c, where)
        check_badges(c, where)
    assert snapshot(game) == before


def play_checked(mode: str, lineup: str, seed: int, settings: Settings, stats: Stats, *, eager: bool,
                 manual: bool = False, clone_check: bool = False, every: int = 1) -> Game:
    """One random-bot game with the per-step properties checked; returns the finished game.

    ``every``: zones and events are checked after every action (1), or, for speed, the zones after
    one action in ``every`` and the events not at all (the end of the game is always checked)."""
    where = f"{mode} {lineup} seed={seed} {settings}"
    game = Game.new(mode=mode, lineup=lineup, seed=seed, settings=settings)
    rnd = random.Random(stable_seed(lineup, seed, settings.mat_abilities, settings.humility_rollover, eager))
    n = len(game.state.seats)
    zones = check_zones(game, where)
    face = set(game.state.face_up)
    check_badges(game, where)
    clone_at = rnd.randrange(5, 150) if clone_check else -1
    probe_at = rnd.randrange(1, 40)   # at least one probe a game, then one every PROBE_EVERY on average
    fork: Game | None = None
    steps = 0
    while game.result is None:
        steps += 1
        at = f"{where} step {steps}"
        assert steps <= STEP_CAP, f"{where}: no result after {STEP_CAP} actions"
        pending = game.pending
        assert len(pending) == 1, f"{at}: pending {pending!r}"
        seat, acts = pending[0]
        assert acts, f"{at}: seat {seat} is waited for but has no legal action"
        if steps == clone_at:
            fork = game.clone()
        if steps == probe_at or rnd.random() < 1 / PROBE_EVERY:
            probe(game, rnd, stats, at)
        if manual and rnd.random() < 0.01:
            s = rnd.randrange(n)
            a: Action = rnd.choice(game.manual_actions(s))
        else:
            a = choose(rnd, acts, eager)
        mark = len(game.log)
        if isinstance(a, AdjustBadge) or rnd.random() < CHECKED_SHARE:   # S-8 is never "unchecked"
            events = game.apply(a)
            assert list(game.log[mark:]) == list(events), f"{at}: apply's events are not the log's"
        else:
            game.apply_unchecked(a)
        stats.played[type(a).__name__] += 1
        check_badges(game, at)
        if every == 1:
            new_zones = check_zones(game, f"{at} after {a!r}")
            new_face = set(game.state.face_up)
            check_events(game, game.log[mark:], zones, face, new_zones, new_face, f"{at} after {a!r}")
            zones, face = new_zones, new_face
        elif steps % every == 0:
            check_zones(game, f"{at} after {a!r}")
    res = game.result
    assert res.winner in ("righteous", "evil"), f"{where}: winner {res.winner!r}"
    assert isinstance(res.reason, str) and res.reason, f"{where}: result without a reason"
    assert game.pending == [] and all(game.legal_actions(s) == [] for s in range(n))
    assert game.phase == "over"
    assert all(type(u) is int for u in check_zones(game, where)), f"{where}: a zone holds a non-int uid"
    with pytest.raises(IllegalAction) as exc:
        game.apply(Pass(0))
    assert exc.value.code == "game_over"
    for e in game.log:   # the whole log: a private card is shown to its seat alone
        if e.kind in ("drew", "found"):
            assert e.private_to == e.seat, f"{where}: {e!r} is not private to its seat"
        if e.private_to is not None:
            for v in [None, *range(n)]:
                out = e.for_seat(v)
                shown = "uid" in out or "card" in out
                assert shown == (v == e.private_to and e.uid is not None), f"{where}: {e!r} for {v}: {out}"
    views = {v: check_view(game, v, where) for v in [None, *range(n)]}
    for view in views.values():
        assert view["result"]["winner"] == res.winner
    # replay (G-6): the record reproduces the same game
    record = game.to_record()
    again = Game.from_record(record)
    assert again.result == res, f"{where}: replay ended {again.result!r}, not {res!r}"
    assert again.to_record() == record, f"{where}: replay gave another record"
    for v, view in views.items():
        assert again.view(v) == view, f"{where}: replayed view of {v} differs"
    assert again.log == game.log, f"{where}: replayed log differs"
    assert again.score == game.score
    # clone fidelity: a clone taken mid-game and given the original's later moves ends the same
    if fork is not None:
        assert fork.state.state_id < game.state.state_id
        for a in game.actions[len(fork.actions):]:
            fork.apply(a) if isinstance(a, AdjustBadge) else fork.apply_unchecked(a)
        assert fork.to_record() == record and fork.result == res
        assert fork.view(None) == views[None] and fork.log == game.log
    stats.games += 1
    stats.actions += steps
    stats.winners[res.winner] += 1
    for e in game.log:
        stats.events[e.kind] += 1
    return game


# ------------------------------------------------------------------------------------------------
# the batches


@pytest.mark.parametrize("mat,rollover", SETTING_COMBOS, ids=lambda v: str(v))
@pytest.mark.parametrize("lineup", list(GAMES))
def test_random_games_hold_every_property(lineup: str, mat: bool, rollover: bool) -> None:
    """G-2, S-1, S-7, CO-W-1..4, G-6, the engine's contract (docs/design.md): the properties above, over a batch of games."""
    mode = MODES[lineup]
    stats = Stats()
    for k in range(GAMES[lineup]):
        seed = stable_seed("batch", lineup, mat, rollover, k) % 1_000_000
        play_checked(mode, lineup, seed, make_settings(mat, rollover, seed), stats, eager=k % 2 == 1,
                     manual=k % 10 == 3, clone_check=k % 8 == 5, every=1 if k % 3 == 0 else 4)
    assert stats.games == GAMES[lineup]
    # the batch went through the rules, not around them
    # (random bots rarely win for the Righteous: the winners are not asserted, only that they are valid)
    assert set(stats.winners) <= {"righteous", "evil"}
    for kind in ("Pass", "LayCostZone", "PlayCard", "Resist"):
        assert stats.played[kind], f"no {kind} in the batch: {stats.played}"
    for kind in ("drew", "laid", "played", "threat_played", "resisted", "failed", "humility"):
        assert stats.events[kind], f"no {kind} event in the batch: {sorted(stats.events)}"
    if mat:
        assert stats.played["ChooseAbility"] + stats.played["BuyAbility"], stats.played
    else:
        assert not (stats.played["ChooseAbility"] or stats.played["BuyAbility"] or stats.played["UseAbility"])
    assert stats.probes >= stats.games and stats.clone_applies > stats.games
    assert len(stats.codes) >= 5, stats.codes


# ------------------------------------------------------------------------------------------------
# actions that are not legal


def _midgame(mode: str, lineup: str, seed: int, steps: int) -> Game:
    game = Game.new(mode=mode, lineup=lineup, seed=seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if game.result is not None:
            break
        game.apply_unchecked(choose(rnd, game.pending[0][1], eager=True))
    return game


MALFORMED: list[Any] = [
    None, 3, "Pass", [], ["Pass", 0], {}, {"seat": 0}, {"type": "Fly", "seat": 0}, {"type": None, "seat": 0},
    {"type": "pass", "seat": 0}, {"type": "Pass"}, {"type": "Pass", "seat": "0"}, {"type": "Pass", "seat": 0.0},
    {"type": "Pass", "seat": True}, {"type": "Pass", "seat": 0, "card": 3}, {"type": "LayCostZone", "seat": 0},
    {"type": "LayCostZone", "seat": 0, "card": "3"}, {"type": "LayCostZone", "seat": 0, "card": [3]},
    {"type": "PlayCard", "seat": 0, "card": 1, "threat": "x"}, {"type": "PlayCard", "seat": 0, "card": 1.5},
    {"type": "Resist", "seat": 0, "threat": 1}, {"type": "Resist", "seat": 0, "threat": 1, "amount": "all"},
    {"type": "TakeBoost", "seat": 0, "index": 0}, {"type": "TakeBoost", "seat": 0, "index": 0, "payer": False},
    {"type": "UseAbility", "seat": 0, "ability": 3}, {"type": "UseAbility", "seat": 0},
    {"type": "BuyAbility", "seat": 0, "ability": None}, {"type": "ChooseAbility", "seat": 0, "ability": ["speed"]},
    {"type": "Choose", "seat": 0}, {"type": "Choose", "seat": 0, "option": {"uid": 1}},
    {"type": "AdjustBadge", "seat": 0, "badge": "humility"}, {"type": "AdjustBadge", "seat": 0, "badge": 1, "value": 2},
    {"type": "AdjustBadge", "seat": 0, "badge": "humility", "value": "5"},
]


@pytest.mark.parametrize("lineup", ["R", "RR", "RRRR"])
def test_malformed_json_actions_refused(lineup: str) -> None:
    """docs/design.md, "Actions": a malformed action is refused with IllegalAction('malformed') and changes nothing."""
    game = _midgame(MODES[lineup], lineup, 3, 60)
    before = snapshot(game)
    for data in MALFORMED:
        with pytest.raises(IllegalAction) as exc:
            action_from_json(data)
        assert exc.value.code == "malformed", (data, exc.value)
        assert str(exc.value)
        assert assert_refused(game, data, f"json {data!r}", before) == "malformed"
    assert snapshot(game) == before


@pytest.mark.parametrize("lineup", ["R", "RR", "RRR", "RRRR"])
def test_ill_typed_actions_refused(lineup: str) -> None:
    """An action whose fields are not whole numbers (None, bool, float, str) is refused with
    IllegalAction, even when it compares equal to a listed action (``Pass(True) == Pass(1)``,
    ``LayCostZone(0, 5.0) == LayCostZone(0, 5)``): accepting one puts a non-int uid in a zone and a
    record that cannot be replayed; ``Resist(amount=None)`` (JSON ``null`` passes ``action_from_json``)
    must not crash with a TypeError. Each candidate is tried on a clone; every breach is listed."""
    mode = MODES[lineup]
    breaches: dict[tuple[str, str, str, str], str] = {}
    tried = 0
    for seed in range(3):
        game = Game.new(mode=mode, lineup=lineup, seed=seed)
        rnd = random.Random(seed)
        steps = 0
        while game.result is None and steps < 300:
            steps += 1
            acts = game.pending[0][1]
            if steps % 9 == 0:
                before = snapshot(game)
                for a in rnd.sample(acts, min(3, len(acts))):
                    data = a.to_json()
                    cls = ACTION_TYPES[data.pop("type")]
                    for key, value in data.items():
                        if not isinstance(value, int):
                            continue
                        bads: list[Any] = [None, float(value), str(value)]
                        if value in (0, 1):
                            bads.append(bool(value))
                        for bad in bads:
                            cand = cls(**dict(data, **{key: bad}))
                            if bad is None and cand in acts:
                                continue   # an optional field left out: another listed action
                            tried += 1
                            clone = game.clone()
                            try:
                                assert_refused(clone, cand, "", before)
                            except AssertionError as exc:
                                sig = (cls.__name__, key, type(bad).__name__,
                                       "accepted" if "accepted" in str(exc) else "crashed")
                                breaches.setdefault(sig, f"seed {seed} step {steps}:{exc}")
            game.apply_unchecked(choose(rnd, acts, eager=True))
    assert tried > 50
    assert not breaches, "\n".join(f"{k}: {v}" for k, v in sorted(breaches.items()))


def test_apply_unchecked_never_half_applies_a_manual_adjustment() -> None:
    """S-8 adjustments are not in ``legal_actions``, so a bot never sends one down the unchecked
    path, but a fast replay of a record holding one does: ``apply_unchecked`` must either apply it
    as ``apply`` does, or refuse it leaving the state (state_id, actions) unchanged."""
    game = _midgame("coop", "RR", 4, 30)
    twin = game.clone()
    a = AdjustBadge(0, "humility", 7)
    before = snapshot(game)
    try:
        game.apply_unchecked(a)
    except IllegalAction:
        assert snapshot(game) == before, "a refused apply_unchecked changed state_id / actions"
    else:
        twin.apply(a)
        assert game.to_record() == twin.to_record() and game.view(None) == twin.view(None)


# ------------------------------------------------------------------------------------------------
# hypothesis: JSON actions


json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 300), st.floats(allow_nan=False),
                         st.text(max_size=6), st.sampled_from(list(ABILITIES) + ["humility", "maturity"]))
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.text(max_size=5), inner, max_size=3), max_leaves=6)
field_names = st.sampled_from(["seat", "card", "threat", "to_seat", "amount", "index", "payer", "ability",
                               "option", "badge", "value", "uid", "Seat"])
action_objects = st.builds(
    lambda kind, fields: dict(fields, type=kind) if kind is not None else fields,
    st.one_of(st.none(), st.sampled_from(list(ACTION_TYPES)), st.text(max_size=8)),
    st.dictionaries(field_names, json_values, max_size=5),
)


@hsettings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.one_of(action_objects, json_values))
@example(data={"type": "Pass", "seat": None})
@example(data={"type": "Resist", "seat": 0, "threat": 5, "amount": None})
@example(data={"type": "PlayCard", "seat": 0, "card": 3, "threat": None, "to_seat": None})
def test_action_from_json_total(data: Any) -> None:
    """``action_from_json`` returns a well-formed action or raises IllegalAction('malformed'); an
    action it returns survives ``to_json`` -> JSON text -> ``action_from_json`` (a required field
    given as ``null`` is malformed: ``Pass(seat=None).to_json()`` would lose the field)."""
    try:
        a = action_from_json(data)
    except IllegalAction as exc:
        assert exc.code == "malformed"
        return
    assert isinstance(a, Action)
    assert action_from_json(json.loads(json.dumps(a.to_json()))) == a


_HYPO_GAMES: dict[tuple[str, int], Game] = {}


def _hypo_game(lineup: str, steps: int) -> Game:
    key = (lineup, steps)
    if key not in _HYPO_GAMES:
        _HYPO_GAMES[key] = _midgame(MODES[lineup], lineup, steps, steps)
    return _HYPO_GAMES[key]


@hsettings(max_examples=100, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(lineup=st.sampled_from(list(GAMES)), steps=st.sampled_from([0, 15, 40, 90, 160]), data=action_objects)
def test_json_actions_refused_or_legal(lineup: str, steps: int, data: dict[str, Any]) -> None:
    """Any JSON object applied to a game is either a legal (or S-8) action, or refused with no change."""
    game = _hypo_game(lineup, steps).clone()
    try:
        a = action_from_json(data)
    except IllegalAction:
        assert_refused(game, data, f"json {data!r}", snap=quick_snapshot)
        return
    n = len(game.state.seats)
    if a in game.legal_actions(a.seat) or (isinstance(a.seat, int) and 0 <= a.seat < n
                                           and a in game.manual_actions(a.seat)):
        if all(type(v) is int or v is None or isinstance(v, str) for v in a.to_json().values()):
            game.apply(a)
            check_zones(game)
            return
    assert_refused(game, data, f"json {data!r}", snap=quick_snapshot)
