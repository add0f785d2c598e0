"""Property tests for duel games (docs/rules.md section D, docs/design.md, "The engine's contract").

Line-ups ER, EER, ERR, EERR, EEERR, each with ``evil_interrupt`` on and off, played by seeded
random bots (and a few games with the heuristic bot, ``make_bot("heuristic", ...)``, in every
seat). Every game is checked for:

* card conservation: ``card_zone_map()`` covers every uid ``0..len(game.defs)-1``, each in one
  zone, after every action (G-2);
* badge ranges: Righteous Humility 0..10 and Maturity 0..3 (S-1, S-7); Evil seats have neither
  (G-3: both stay 0);
* termination: every duel is played with the safety cap ``Settings(max_turns=TURN_CAP)``
  (TURN_CAP = 60 turns; a duel has no round limit, D-W-R) and must end with a result, winner
  "righteous" or "evil" with a reason, by turn TURN_CAP + 1 and within STEP_CAP actions; a game
  that reaches the cap is decided on the stalemate score (D-SCORE);
* duel turn structure: exactly one seat decides at a time, and only in the Cost Zone or Main
  phase (no Evil or Resistance phase, D-TURN-2), except, as a turn starts, a choice (an overflow
  discard after an upkeep loss) or the ability of a level-up that waited at Humility 10 (S-6);
* every listed action applies: at probes, a sample of the listed actions is applied with the
  checked ``apply`` on a copy of the game, and the original is untouched;
* unlisted actions are refused: well-typed actions that are not listed (other seats, random cards,
  rewards, amounts) raise ``IllegalAction`` and change neither the state, nor the views, nor the
  zones;
* replay: ``Game.from_record(game.to_record())`` reproduces the views of every seat, the log,
  the score and the result (G-6);
* no leaks: no view shows another seat's hand (an Evil view never shows a Righteous hand, nor the
  reverse), any deck, or another seat's face-down Cost Zone card; a face-up (flipped) Cost Zone
  card is shown to every viewer; no event shows a seat a card hidden from it before and after.

The checks of views, events, zones and badges are ``tests/api_checks.py``'s, shared with the
co-op batches and the API conformance test; clones of a duel and same-seed determinism by line-up
are checked in ``tests/test_conformance.py``.

Run time (measured, 2 cores, ``-n 2``): about 40 s for the file (30 s of CPU).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any, Callable

import pytest

from christianity_game import (
    Action, AdjustBadge, Choose, ChooseAbility, Game, IllegalAction, LayCostZone, Pass, PlayCard, Resist, Settings,
    TakeBoost, UseAbility,
)
from christianity_game.bots import make_bot
from christianity_game.engine.actions import ChooseReward
from christianity_game.engine.duel import dominance
from christianity_game.engine.duel_clocks import evil_limit
from christianity_game.engine.game import ABILITIES
from api_checks import DUEL_TURN_CAP, check_badges, check_events, check_view, check_zones, duel_settings, stable_seed
from state_helpers import snapshot

LINEUPS = ["ER", "EER", "ERR", "EERR", "EEERR"]
TURN_CAP = DUEL_TURN_CAP   # 60 turns (duel_settings)
STEP_CAP = 40_000
# random games per (line-up, evil_interrupt) batch
GAMES = {"ER": 36, "EER": 20, "ERR": 20, "EERR": 14, "EEERR": 12}
PROBE_EVERY = 60          # mean actions between probes (views, copies, unlisted actions)



def copy_of(game: Game) -> Game:
    """A copy to try actions on. ``Game.clone()`` of a duel returned a plain Game (see
    ``test_conformance.py::test_clone_of_a_duel_is_a_duel``); the class is put back so
    that the other properties are still checked while that bug stands. A no-op once it is fixed."""
    c = game.clone()
    if type(c) is not type(game):
        c.__class__ = type(game)
    return c


# ------------------------------------------------------------------------------------------------
# checks


def unlisted(game: Game, rnd: random.Random, k: int) -> list[Action]:
    st = game.state
    n = len(st.seats)
    N = len(game.defs)
    decider = game.pending[0][0]
    seats = [decider] * 4 + list(range(n)) + [-1, n]
    pools = [st.seats[decider].hand, st.seats[decider].cost_zone, [t.uid for t in st.threats],
             [u for sd in st.seats for u in sd.hand + sd.cost_zone + sd.held + sd.deck]]

    def uid() -> int:
        pool = rnd.choice(pools)
        return rnd.choice(pool) if pool and rnd.random() < 0.85 else rnd.randrange(-2, N + 2)

    def seat() -> int:
        return rnd.choice(seats)

    def opt() -> int | None:
        return None if rnd.random() < 0.4 else seat()

    makers: list[Callable[[], Action]] = [
        lambda: Pass(seat()),
        lambda: LayCostZone(seat(), uid()),
        lambda: PlayCard(seat(), uid(), None if rnd.random() < 0.6 else uid(), opt()),
        lambda: Resist(seat(), uid(), rnd.randrange(-1, 7)),
        lambda: TakeBoost(seat(), rnd.randrange(-1, 3), seat(), opt()),
        lambda: UseAbility(seat(), rnd.choice(ABILITIES + ("flight",)), opt()),
        lambda: ChooseAbility(seat(), rnd.choice(ABILITIES)),
        lambda: Choose(seat(), uid()),
        lambda: ChooseReward(seat(), rnd.choice(["draw", "untap", "flip", "destroy", "humility", "gold"]), opt()),
        lambda: AdjustBadge(seat(), "maturity", rnd.choice([-1, 4])),
    ]
    out: list[Action] = []
    for _ in range(k * 4):
        if len(out) >= k:
            break
        a = rnd.choice(makers)()
        if isinstance(a, AdjustBadge) or a not in game.legal_actions(a.seat):
            out.append(a)
    return out


def probe(game: Game, rnd: random.Random, where: str, stats: Counter[str]) -> None:
    """Views and leaks, listed actions on copies, unlisted actions refused."""
    n = len(game.state.seats)
    stats["probes"] += 1
    for viewer in [None, *range(n)]:
        check_view(game, viewer, where)
    seat, acts = game.pending[0]
    for other in range(n):
        if other != seat:
            assert game.legal_actions(other) == [], f"{where}: seat {other} has actions while {seat} decides"
    before = snapshot(game)
    for a in (acts if len(acts) <= 4 else rnd.sample(acts, 4)):
        c = copy_of(game)
        events = c.apply(a)          # a listed action must apply (IllegalAction here is a failure)
        assert c.state.state_id == game.state.state_id + 1
        assert list(c.log[len(game.log):]) == list(events)
        check_zones(c, f"{where} copy after {a!r}")
        check_badges(c, f"{where} copy after {a!r}")
        stats["copy_applies"] += 1
    assert snapshot(game) == before, f"{where}: applying actions to a copy changed the original"
    for cand in unlisted(game, rnd, 8):
        try:
            game.apply(cand)
        except IllegalAction as exc:
            assert exc.code, f"{where}: {cand!r} refused without a code"
            stats["refused"] += 1
        except Exception as exc:  # noqa: BLE001 - anything else breaks the contract
            raise AssertionError(f"{where}: {cand!r} raised {type(exc).__name__}: {exc}")
        else:
            raise AssertionError(f"{where}: unlisted action {cand!r} was accepted")
    assert snapshot(game) == before, f"{where}: a refused action changed the state"


def check_decision(game: Game, seat: int, acts: list[Action], interrupt: bool, at: str) -> None:
    """Per-decision duel rules that hold in every position."""
    st = game.state
    defs = game.defs
    laying = st.step == "lay" and (st.seats[game.turn_seat].laid > 0 or st.seats[game.turn_seat].side == "evil"
                                   or game.rules < 2)
    if laying:   # Z-5 / D-INT-1: while a Cost Zone is laid, only laying or passing ("before or after,
        # never during": rules 2 opens Evil's window in a Righteous turn before the first card is laid)
        assert seat == game.turn_seat and all(isinstance(a, (LayCostZone, Pass)) for a in acts), at
    elif st.step == "lay" and seat != game.turn_seat:   # before the laying: only Evil may act, at instant speed
        assert st.seats[seat].side == "evil" or st.duel.answering, at
    for a in acts:
        if isinstance(a, PlayCard):
            kind = defs[a.card].kind
            if kind == "resistance":   # D-INT-3: only in answer to the threat being answered
                assert st.duel.answering and st.threats and a.threat == st.threats[0].uid, f"{at}: {a!r}"
            if st.seats[seat].side == "evil":   # Evil plays only threats, aimed at a Righteous seat
                assert defs[a.card].is_threat and st.seats[a.to_seat].side == "righteous", f"{at}: {a!r}"
    if not interrupt and st.seats[seat].side == "evil":   # D-INT-6: Evil acts only on its turn
        assert seat == game.turn_seat, f"{at}: Evil seat {seat} decides on seat {game.turn_seat}'s turn"
    # D-DOM-1/2: a seat's discount is its own Habituals in hold // 3; D-W-E: 7 per Evil seat
    evil = [i for i, sd in enumerate(st.seats) if sd.side == "evil"]
    for i in evil:
        own = sum(1 for sd in st.seats for u in sd.held if game.owner[u] == i)
        assert dominance(game, i) == own // 3, at
    assert evil_limit(game) == 7 * len(evil)


def finish_checks(game: Game, where: str, stats: Counter[str]) -> None:
    res = game.result
    n = len(game.state.seats)
    assert res is not None and res.winner in ("righteous", "evil") and res.reason, f"{where}: {res!r}"
    assert game.state.turn_no <= TURN_CAP + 1, f"{where}: turn {game.state.turn_no} past the cap"
    assert game.pending == [] and game.phase == "over"
    check_zones(game, where)
    views = {v: check_view(game, v, where) for v in [None, *range(n)]}
    record = game.to_record()
    again = Game.from_record(json.loads(json.dumps(record)))
    assert again.result == res, f"{where}: replay ended {again.result!r}, not {res!r}"
    for v, view in views.items():
        assert again.view(v) == view, f"{where}: replayed view of {v} differs"
    assert again.log == game.log and again.score == game.score
    stats["games"] += 1
    stats[f"winner_{res.winner}"] += 1
    stats["capped" if "turn cap" in res.reason else "decided"] += 1
    for k, v in game.state.duel.counts.items():
        stats[k] += v


def play_random(lineup: str, interrupt: bool, seed: int, stats: Counter[str], *, every: int, eager: bool) -> Game:
    where = f"duel {lineup} interrupt={interrupt} seed={seed}"
    game = Game.new(mode="duel", lineup=lineup, seed=seed, settings=duel_settings(interrupt, seed))
    rnd = random.Random(seed)
    zones = check_zones(game, where)
    face = set(game.state.face_up)
    probe_at = rnd.randrange(1, 30)
    steps = 0
    while game.result is None:
        steps += 1
        at = f"{where} step {steps}"
        assert steps <= STEP_CAP, f"{where}: no result after {STEP_CAP} actions"
        pending = game.pending
        assert len(pending) == 1, f"{at}: pending {pending!r}"
        seat, acts = pending[0]
        assert acts, f"{at}: seat {seat} waited for with no action"
        # D-TURN-2: no Evil or Resistance phase; as a turn starts only a choice (an overflow discard
        # from an upkeep loss) or the free ability of a level that waited at Humility 10 (S-6)
        assert game.phase in ("cost_zone", "main") or game.state.choice is not None or game.state.ability_picks, \
            f"{at}: a decision in phase {game.phase}: {acts[:4]}"
        check_decision(game, seat, acts, interrupt, at)
        if steps == probe_at or rnd.random() < 1 / PROBE_EVERY:
            probe(game, rnd, at, stats)
        if eager and len(acts) > 1 and rnd.random() < 0.8:
            non_pass = [a for a in acts if not isinstance(a, Pass)]
            a = rnd.choice(non_pass or acts)
        else:
            a = rnd.choice(acts)
        mark = len(game.log)
        if steps % 10 == 0:
            events = game.apply(a)
            assert list(game.log[mark:]) == list(events)
        else:
            game.apply_unchecked(a)
        stats[type(a).__name__] += 1
        check_badges(game, at)
        if steps % every == 0:
            new_zones = check_zones(game, f"{at} after {a!r}")
            new_face = set(game.state.face_up)
            if every == 1:
                check_events(game, game.log[mark:], zones, face, new_zones, new_face, f"{at} after {a!r}")
            zones, face = new_zones, new_face
    stats["actions"] += steps
    finish_checks(game, where, stats)
    return game


# ------------------------------------------------------------------------------------------------
# the batches


@pytest.mark.parametrize("interrupt", [True, False], ids=["interrupt", "no_interrupt"])
@pytest.mark.parametrize("lineup", LINEUPS)
def test_random_duels_hold_every_property(lineup: str, interrupt: bool) -> None:
    """D-1, D-TURN-2, D-W-R, D-W-E, D-SCORE, G-2, G-3, G-6 and the engine's contract over random duels."""
    stats: Counter[str] = Counter()
    for k in range(GAMES[lineup]):
        seed = stable_seed("duel", lineup, interrupt, k)
        play_random(lineup, interrupt, seed, stats, every=1 if k % 3 == 0 else 5, eager=k % 2 == 1)
    assert stats["games"] == GAMES[lineup]
    assert stats["probes"] >= stats["games"] and stats["copy_applies"] > stats["games"]
    assert stats["refused"] > 0
    for kind in ("Pass", "LayCostZone", "PlayCard", "Resist", "ChooseReward"):
        assert stats[kind], f"no {kind} in the batch: {stats}"
    # the batch went through the duel's rules, not around them
    for what in ("threats_played", "threats_resisted", "temptations_failed", "habituals_taken", "micro_rewards",
                 "micro_boosts", "reward_flip"):
        assert stats[what], f"nothing counted as {what}: {stats}"
    if lineup.count("E") >= lineup.count("R") and interrupt:
        # with interrupts and as many Evil seats as Righteous ones, random play may reach the cap every
        # time (rules 3 refills an empty Evil deck, so the Evil side never runs dry: the stalemate the
        # lab reports, issue 10); the cap still decides
        assert stats["capped"] + stats["decided"] == stats["games"], stats
    else:
        assert stats["decided"] > 0, f"every game reached the turn cap: {stats}"
    if interrupt or lineup.count("E") == 1:
        assert stats["mr_finale"] and stats["combo_plays"], stats
    else:
        # D-COMBO-4 with D-INT-6: a seat cannot extend its own chain and its partners cannot play
        # on its turn, so with several Evil seats and no interrupts there is no combo at all
        assert stats["combo_plays"] == 0 and stats["finales"] == 0, stats


@pytest.mark.parametrize("lineup", LINEUPS)
def test_heuristic_bots_in_every_seat(lineup: str) -> None:
    """The heuristic bot in every seat (both sides): it picks listed actions only, from its view;
    the games end within the cap and replay exactly."""
    stats: Counter[str] = Counter()
    for k, interrupt in enumerate((True, False)):
        seed = stable_seed("heuristic", lineup, k)
        where = f"heuristic duel {lineup} interrupt={interrupt} seed={seed}"
        game = Game.new(mode="duel", lineup=lineup, seed=seed, settings=Settings(evil_interrupt=interrupt,
                                                                                   max_turns=TURN_CAP))
        bots = {i: make_bot("heuristic", seed + i, game.cards) for i in range(len(lineup))}
        rnd = random.Random(seed)
        steps = 0
        while game.result is None:
            steps += 1
            assert steps <= STEP_CAP, f"{where}: no result after {STEP_CAP} actions"
            seat, acts = game.pending[0]
            a = acts[0] if len(acts) == 1 else bots[seat].choose(game.view(seat), acts)
            assert a in acts, f"{where}: the bot chose an unlisted {a!r}"
            if rnd.random() < 1 / PROBE_EVERY:
                probe(game, rnd, f"{where} step {steps}", stats)
            game.apply(a)
            check_badges(game, where)
            if steps % 7 == 0:
                check_zones(game, where)
        finish_checks(game, where, stats)
    assert stats["games"] == 2


# ------------------------------------------------------------------------------------------------
# positions


def test_a_position_game_replays_from_its_record() -> None:
    """G-6: a duel started from a position (as scenarios are) replays from its record."""
    position = {"turn_seat": 1, "phase": "main", "seats": [
        {"hand": ["a-little-leaven", "idle-words", "the-broad-way"], "cost_zone": ["still-waters"] * 4,
         "deck": ["still-waters"] * 6},
        {"humility": 5, "hand": ["the-widows-mite", "shield-of-faith"], "cost_zone": ["sloth"] * 3,
         "held": [{"id": "the-broad-way", "by": 0}], "deck": ["sloth"] * 6}]}
    game = Game.from_position(position, mode="duel", lineup="ER", seed=3, settings=Settings(max_turns=12))
    rnd = random.Random(3)
    while game.result is None:
        game.apply(rnd.choice(game.pending[0][1]))
    check_zones(game, "position game")
    again = Game.from_record(json.loads(json.dumps(game.to_record())))
    assert again.result == game.result and again.log == game.log
    for v in (None, 0, 1):
        assert again.view(v) == game.view(v)
