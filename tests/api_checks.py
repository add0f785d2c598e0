"""The engine's API contract, checked: one implementation of each check, shared by the tests.

``tests/test_conformance.py`` runs these for every mode, line-up and variant; the property batches
(``test_properties.py``, ``test_properties_duel.py``) run the leak, zone and badge checks after
their actions, and ``test_position_roundtrip.py`` its rule tests through :func:`rebuilt`.

* **Hidden information** (docs/design.md, "Hidden information"): :func:`check_view` (no view shows a card
  its viewer may not see) and :func:`check_events` (no event shows one either), judged by
  :func:`hidden_from`.
* **Cards and badges**: :func:`check_zones` (G-2: every uid in exactly one zone),
  :func:`check_badges` (S-1, S-7, G-3).
* **Positions** (docs/design.md, "Positions"): :func:`rebuilt` (``from_position(to_position())`` through
  JSON, checked to be TOML data) and :func:`assert_same` (views, legal actions and whole state).
* **Determinize**: :func:`check_world` (a world re-dealt for a seat keeps that seat's view and
  changes only hidden cards).
* **Clones, undo**: :func:`check_clone`, :func:`check_undo`.
* The random bot of the batches, :func:`choose`, and their settings: :func:`make_settings`,
  :func:`duel_settings`.
"""

from __future__ import annotations

import json
import random
import zlib
from collections import Counter
from typing import Any, Iterator

from christianity_game import Action, Game, IllegalAction, Pass, Settings
from christianity_game.engine.actions import Undo
from christianity_game.engine.determinize import determinize, hidden_places, pinned_uids
from christianity_game.engine.rng import Rng
from state_helpers import fingerprint, snapshot


def stable_seed(*parts: Any) -> int:
    """A seed from the parts' text (the same on every run and machine)."""
    return zlib.crc32(repr(parts).encode()) % 1_000_000

MAX_HUMILITY, MAX_MATURITY = 10, 3
INT64 = range(-(2 ** 63), 2 ** 63)


# ------------------------------------------------------------------------------------------------
# hidden information


def hidden_from(viewer: int | None, uid: int, zones: dict[int, str], face_up: set[int],
                foresight: set[int] = frozenset()) -> bool:  # type: ignore[assignment]
    """True when ``viewer`` may not know where ``uid`` is or what it is (docs/design.md, "Hidden information")."""
    zone = zones[uid]
    if zone == "evil_deck":
        return uid not in foresight   # Foresight reveals the Evil deck's next draws
    head, _, kind = zone.partition(".")
    if kind == "deck":
        return True
    if kind == "hand":
        return viewer is None or int(head) != viewer
    if kind == "cost_zone":
        return (viewer is None or int(head) != viewer) and uid not in face_up
    return False


def card_objects(obj: Any) -> Iterator[dict[str, Any]]:
    """Every dict inside a JSON value (iterative: views are walked thousands of times)."""
    stack = [obj]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            yield node
            stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, (dict, list)))


def check_view(game: Game, viewer: int | None, where: str = "") -> dict[str, Any]:
    """A view shows no card the viewer may not see, and hidden cards carry neither uid nor id.

    Every seat's hand is hidden from every other seat (an Evil view never shows a Righteous hand,
    nor the reverse), no deck's cards are shown, another seat's face-down Cost Zone card is hidden
    and a face-up (flipped) one is shown to every viewer; the generator's state is not in the view;
    the score is always shown, and a spectator is offered nothing."""
    st_ = game.state
    view = game.view(viewer)
    text = json.dumps(view)   # JSON-able
    if st_.rng.state > 1 << 24:
        assert str(st_.rng.state) not in text, f"{where}: viewer {viewer} sees the generator state"
    zones = game.card_zone_map()
    face_up = st_.face_up
    foresight = set(st_.foresight)
    allowed: set[int] = set()
    c = st_.choice
    if viewer is not None and c is not None and c.seat == viewer and c.purpose == "search":
        allowed = set(c.options)   # searching your own deck shows you its matching cards
    forbidden = {u for u in zones if hidden_from(viewer, u, zones, face_up, foresight)} - allowed
    for node in card_objects(view):
        if node.get("hidden") is True:
            assert "uid" not in node and "id" not in node, f"{where}: viewer {viewer}: hidden card {node}"
        uid = node.get("uid")
        if uid is not None and node.get("item") != "boost":
            # (a boost on the stack names the card it came from, whose identity went public when
            # it was played, even if the card has since been reshuffled into a hidden zone)
            assert uid not in forbidden, f"{where}: viewer {viewer} sees card {uid} ({zones[uid]}): {node}"
    for a in view["pending"]:
        for key in ("card", "option", "threat"):
            u = a.get(key)
            if u is not None:
                assert u not in forbidden, f"{where}: viewer {viewer} pending action names hidden card {u}: {a}"
    for i, sv in enumerate(view["seats"]):
        sd = st_.seats[i]
        assert sv["side"] == sd.side and sv["hand_size"] == len(sd.hand) and sv["deck_size"] == len(sd.deck)
        if viewer != i:
            assert all(h == {"hidden": True} for h in sv["hand"]), f"{where}: viewer {viewer} sees hand of {i}"
        for entry, u in zip(sv["cost_zone"], sd.cost_zone):
            if u in face_up or viewer == i:
                assert entry.get("uid") == u, f"{where}: viewer {viewer}: face-up card {u} of seat {i} not shown"
            else:
                assert "uid" not in entry and "id" not in entry, f"{where}: viewer {viewer} sees face-down {u} of {i}"
        assert "deck_order" not in sv
        assert "deck" not in sv or isinstance(sv["deck"], str)   # the deck's name, never its cards
    assert view["score"] == list(game.score)                       # D-SCORE: always shown
    assert (view["duel"] is not None) == (game.mode.name == "duel")
    if viewer is None:
        assert view["pending"] == [] and view["choice"] is None
    return view


def check_events(game: Game, events: list[Any], before: dict[int, str], face_before: set[int],
                 after: dict[int, str], face_after: set[int], where: str = "") -> None:
    """No event shows a seat a card that was hidden from it both before and after the action."""
    n = len(game.state.seats)
    # A card can pass through a public zone within one action and end hidden again: played, to the
    # discard pile, reshuffled into the deck (and perhaps drawn). Such cards are not judged here.
    remade = {f"{e.seat}." for e in events if e.kind in ("reshuffled", "restored")}
    if any(e.kind == "evil_deck_refilled" for e in events):
        remade.add("evil_deck")
    for e in events:
        if e.kind in ("drew", "found"):
            assert e.private_to == e.seat, f"{where}: {e!r} is not private to its seat"
        if e.uid is None or e.uid < 0 or e.kind == "boost_taken" or (e.kind == "resolved" and "boost" in e.data):
            continue   # a boost names its (public, already played) source card, not a card that moves
        u = e.uid
        za = after.get(u, "")
        if not za.endswith(("hand", "deck", "cost_zone")) or u not in before:
            continue   # the card ends in a public zone (or left the game's zones): nothing stays hidden
        if any(za.startswith(r) for r in remade):
            continue
        for viewer in [None, *range(n)]:
            out = e.for_seat(viewer)
            if "uid" not in out and "card" not in out:
                continue
            if hidden_from(viewer, u, before, face_before) and hidden_from(viewer, u, after, face_after):
                raise AssertionError(f"{where}: event {out} shows viewer {viewer} card {u} "
                                     f"({before[u]} -> {after[u]})")


# ------------------------------------------------------------------------------------------------
# cards and badges


_UIDS: dict[int, frozenset[int]] = {}


def _all_uids(n: int) -> frozenset[int]:
    if n not in _UIDS:
        _UIDS[n] = frozenset(range(n))
    return _UIDS[n]


def check_zones(game: Game, where: str = "") -> dict[int, str]:
    """G-2: each uid in exactly one zone (``card_zone_map`` raises if one is in two), all covered."""
    zones = game.card_zone_map()
    n = len(game.defs)
    if zones.keys() != _all_uids(n):
        missing = sorted(set(range(n)) - set(zones))
        extra = sorted(set(zones) - set(range(n)), key=repr)
        raise AssertionError(f"{where}: cards missing from every zone {missing}, unknown cards {extra}")
    return zones


def check_badges(game: Game, where: str = "") -> None:
    """S-1, S-7: Humility 0..10, Maturity 0..3 for every Righteous seat; G-3: Evil seats have neither."""
    for i, sd in enumerate(game.state.seats):
        if sd.side == "righteous":
            assert 0 <= sd.humility <= MAX_HUMILITY, f"{where}: seat {i} Humility {sd.humility}"
            assert 0 <= sd.maturity <= MAX_MATURITY, f"{where}: seat {i} Maturity {sd.maturity}"
        else:
            assert sd.humility == 0 and sd.maturity == 0, f"{where}: Evil seat {i} has badges"


def make_settings(mat: bool, rollover: bool, seed: int) -> Settings:
    """The co-op and solo batches' settings: abilities and rollover as given, the solo fee by seed."""
    return Settings(mat_abilities=mat, humility_rollover=rollover, solo_fee=1 + seed % 3)


DUEL_TURN_CAP = 60


def duel_settings(interrupt: bool, seed: int) -> Settings:
    """The duel batches' settings: Evil Interrupt as given, the turn cap, abilities and rollover by seed."""
    return Settings(evil_interrupt=interrupt, max_turns=DUEL_TURN_CAP, mat_abilities=seed % 4 != 3,
                    humility_rollover=seed % 5 != 4)


def choose(rnd: random.Random, acts: list[Action], eager: bool) -> Action:
    """The random bot: uniform, or (eager) avoiding Pass most of the time to go deeper into the rules."""
    if eager and len(acts) > 1 and rnd.random() < 0.85:
        non_pass = [a for a in acts if not isinstance(a, Pass)]
        if non_pass:
            return rnd.choice(non_pass)
    return rnd.choice(acts)


# ------------------------------------------------------------------------------------------------
# positions


def assert_toml_able(x: Any, path: str = "position") -> None:
    """Pure data a TOML file can hold: tables with text keys, lists, text, bools, 64-bit integers."""
    if isinstance(x, dict):
        for k, v in x.items():
            assert isinstance(k, str), f"{path}: key {k!r} is not text"
            assert_toml_able(v, f"{path}.{k}")
    elif isinstance(x, list):
        for i, v in enumerate(x):
            assert_toml_able(v, f"{path}[{i}]")
    elif isinstance(x, bool) or isinstance(x, str):
        pass
    elif isinstance(x, int):
        assert x in INT64, f"{path}: {x} does not fit a TOML integer"
    else:
        raise AssertionError(f"{path}: {x!r} ({type(x).__name__}) is not TOML data")


def rebuilt(game: Game) -> Game:
    """``from_position(game.to_position())`` after a JSON round trip of the position."""
    position = game.to_position()
    assert_toml_able(position)
    data = json.loads(json.dumps(position))
    assert data == position
    return Game.from_position(data, mode=game.mode.name, lineup=game.lineup, seed=game.seed, settings=game.settings,
                              card_set=game.cards, rules=game.rules)


def state_print(game: Game) -> Any:
    """The fingerprint of the game's state, its generator reduced to the generator's ``state`` (a
    generator may keep a cache of output it has worked out, which is not part of its state)."""
    copy = game.clone()
    copy.state.rng = copy.state.rng.state   # type: ignore[assignment]
    return fingerprint(copy)[0]


def assert_same(a: Game, b: Game, where: str) -> None:
    """Equal views (every seat and the spectator), legal actions and state."""
    for seat in [None, *range(len(a.lineup))]:
        assert b.view(seat) == a.view(seat), f"{where}: view of {seat} differs"
        if seat is not None:
            assert b.legal_actions(seat) == a.legal_actions(seat), f"{where}: legal actions of {seat} differ"
    assert state_print(b) == state_print(a), f"{where}: states differ"


def check_round_trip(game: Game, rnd: random.Random, where: str, follow_up: int = 4) -> None:
    """``from_position(to_position())`` is the same game, and stays so: ``follow_up`` more random
    actions, the same on both (checked ``apply`` on the copy), keep views, legal actions and state
    equal (the position carries deck order and the generator's state)."""
    copy = rebuilt(game)
    assert copy.log == [], f"{where}: the rebuilt game ran automatic steps"
    assert_same(game, copy, where)
    trial = game.clone()
    for _ in range(follow_up):
        if trial.result is not None:
            break
        action = rnd.choice(trial.pending[0][1])
        trial.apply(action)
        copy.apply(action)
    assert_same(trial, copy, f"{where}, then {follow_up} more")


# ------------------------------------------------------------------------------------------------
# determinize


def places(game: Game) -> dict[tuple[str, int], int]:
    """Every card's place: (zone, index) -> uid."""
    st = game.state
    out: dict[tuple[str, int], int] = {}
    for i, sd in enumerate(st.seats):
        for zone in ("hand", "deck", "cost_zone", "in_play", "held", "discard"):
            for k, u in enumerate(getattr(sd, zone)):
                out[(f"{i}.{zone}", k)] = u
    for name in ("evil_deck", "resisted", "failed", "field"):
        for k, u in enumerate(getattr(st, name)):
            out[(name, k)] = u
    return out


def hidden_cards(game: Game, seat: int | None) -> Counter[tuple[int, str]]:
    """The (owner, card id) of every card in a place hidden from ``seat``."""
    return Counter((game.owner[z[k]], game.defs[z[k]].id) for z, k in hidden_places(game, seat))


def zone_keys(game: Game, seat: int | None) -> set[tuple[str, int]]:
    """The hidden places as (zone name, index), matching :func:`places`."""
    st = game.state
    names: dict[int, str] = {id(st.evil_deck): "evil_deck"}
    for i, sd in enumerate(st.seats):
        for zone in ("hand", "deck", "cost_zone"):
            names[id(getattr(sd, zone))] = f"{i}.{zone}"
    return {(names[id(z)], k) for z, k in hidden_places(game, seat)}


def play_on(world: Game, steps: int) -> None:
    """A world is a consistent game: it plays on, and every card stays in exactly one zone."""
    rng = Rng(7)
    cards = set(world.card_zone_map())
    for _ in range(steps):
        pending = world.pending
        if not pending:
            break
        _, actions = pending[0]
        world.apply(actions[rng.randbelow(len(actions))])
        assert set(world.card_zone_map()) == cards


def check_world(game: Game, seat: int | None, rng: Rng, play: int = 0) -> int:
    """A world re-dealt for ``seat`` (``determinize``): the seat's view and legal actions are the
    real game's, uids keep their places and only hidden places change card, each owner's hidden
    cards stay the same multiset, the card table of the original is untouched, the generator is
    re-seeded, and (``play``) the world plays on that many moves. The number of cards re-dealt."""
    before_defs = list(game.defs)
    world = determinize(game, seat, rng)
    assert game.defs == before_defs, "the original card table must not change"
    assert world.view(seat) == game.view(seat)
    assert world.legal_actions(seat) == game.legal_actions(seat) if seat is not None else True
    hidden = zone_keys(game, seat)
    real, dealt = places(game), places(world)
    assert set(real) == set(dealt), "every place keeps its card count"
    # uids keep their places, except a pinned uid (a public card the pending state names, sitting in
    # a hidden place: an offered boost's card reshuffled into its deck), which swaps with another
    # hidden uid of the same zone (engine/determinize.py, "Cards the pending state refers to")
    pins = set(pinned_uids(game))
    moved = [p for p in real if real[p] != dealt[p]]
    for p in moved:
        assert p in hidden and (real[p] in pins or dealt[p] in pins), \
            f"uid {real[p]} left its place {p}; only which card a hidden uid is may change"
    assert Counter(real[p] for p in moved) == Counter(dealt[p] for p in moved), "moved uids swap places"
    now_at = {uid: p for p, uid in dealt.items()}
    for p in moved:   # a swap stays in its zone, and each pinned uid moves at most one other uid
        assert now_at[real[p]][0] == p[0], f"uid {real[p]} moved from zone {p[0]} to {now_at[real[p]][0]}"
    assert len(moved) <= 2 * len({real[p] for p in moved} & pins), "each swap moves one pinned uid"
    changed = 0
    for place, uid in real.items():
        if place not in hidden:
            assert world.defs[uid] is game.defs[uid], f"visible card at {place} changed"
        elif world.defs[uid] is not game.defs[uid]:
            changed += 1
            assert world.owner[uid] == game.owner[uid]
    assert hidden_cards(world, seat) == hidden_cards(game, seat)
    assert Counter(c.id for c in world.defs) == Counter(c.id for c in game.defs)
    assert world.state.rng.state != game.state.rng.state
    assert world.actions == [] and world.log == []
    if play:
        play_on(world, play)
    return changed


# ------------------------------------------------------------------------------------------------
# clones and undo


def check_clone(game: Game, rnd: random.Random, where: str) -> None:
    """A clone equals its original (state, views, legal lists, class) and diverges independently: a
    listed action applied to one clone leaves the original and a second clone as they were, the
    same action on the second gives the same game, and another action on it leaves the first alone."""
    before = snapshot(game)
    one = game.clone()
    assert type(one) is type(game), f"{where}: the clone of a {type(game).__name__} is a {type(one).__name__}"
    assert snapshot(one) == before and one.pending == game.pending, f"{where}: the clone differs"
    acts = game.pending[0][1]
    a = rnd.choice(acts)
    two = game.clone()
    one.apply(a)
    assert snapshot(game) == before, f"{where}: an action on a clone changed the original"
    assert snapshot(two) == before, f"{where}: an action on a clone changed another clone"
    two.apply(a)
    assert snapshot(two) == snapshot(one), f"{where}: the same action on two clones gave two games"
    others = [b for b in acts if b != a]
    if others:
        after_one = snapshot(one)
        three = game.clone()
        three.apply(rnd.choice(others))
        assert snapshot(one) == after_one and snapshot(game) == before, f"{where}: clones are not independent"


def _without_state_id(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "state_id"}


def check_undo(game: Game, rnd: random.Random, where: str) -> str:
    """Apply a listed action on a clone, then ``Undo`` it: where the engine allows it
    (``undo_refusal`` is None) the game is exactly as before (views but for ``state_id``, legal
    actions, the whole state, the generator's), else the undo is refused with that reason's code
    and changes nothing. Returns "undone" or the refusal's code."""
    seat, acts = game.pending[0]
    before_views = {v: _without_state_id(game.view(v)) for v in [None, *range(len(game.lineup))]}
    before_legal = {s: game.legal_actions(s) for s in range(len(game.lineup))}
    before_state = state_print(game)
    trial = game.clone()
    trial.apply(rnd.choice(acts))
    why = trial.undo_refusal(seat)
    if why is not None:
        snap = snapshot(trial)
        try:
            trial.apply(Undo(seat))
        except IllegalAction as exc:
            assert exc.code == why[0], f"{where}: undo refused with {exc.code}, undo_refusal says {why}"
        else:
            raise AssertionError(f"{where}: undo accepted although undo_refusal says {why}")
        assert snapshot(trial) == snap, f"{where}: a refused undo changed the game"
        return why[0]
    state_id = trial.state_id
    trial.apply(Undo(seat))
    assert trial.state_id == state_id + 1
    for v, view in before_views.items():
        assert _without_state_id(trial.view(v)) == view, f"{where}: after undo the view of {v} differs"
    for s, legal in before_legal.items():
        assert trial.legal_actions(s) == legal, f"{where}: after undo the legal actions of {s} differ"
    after = trial.clone()
    after.state.state_id = game.state.state_id
    assert state_print(after) == before_state, f"{where}: after undo the state differs"
    return "undone"
