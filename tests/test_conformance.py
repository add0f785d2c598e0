"""The engine's API contract, for every mode, line-up and variant (issue 23, item 6).

As OpenSpiel's ``random_sim_test`` runs one battery over every game it has, this module runs one
over every table of ``tests/tables.py`` (solo, co-op RR-RRRR, duels ER-EERR, with and without Evil
Interrupt, with play-test variants): seeded random games, and along them, at every decision,

* **the decision** is well-formed: one seat decides, with a non-empty list of distinct actions;
  no other seat has any; a twin game (same seed, same choices) lists the same;
* **after every action**: every card in one zone (G-2), badges in range (S-1, S-7, G-3), and no
  event shows a card hidden from a seat both before and after it (``api_checks.check_events``);

and at probes (about one decision in ``PROBE_EVERY``, and at least one a game):

* **views**: no seat's view, nor the spectator's, shows a hidden card (``api_checks.check_view``,
  the one leak check, also the property batches'); ``seat_view(s).to_json()`` is ``view(s)``;
* **clone**: equals the original and diverges independently (``api_checks.check_clone``);
* **apply then undo**: restores the game exactly where the engine allows undo (G-7), and is refused
  with ``undo_refusal``'s code, changing nothing, where it does not (every duel action, rules 4)
  (``api_checks.check_undo``);
* **determinize** for the decider, another seat or a spectator keeps that seat's view and legal
  actions, and re-deals only hidden cards (``api_checks.check_world``);
* **to_position round trip**: ``from_position(to_position())`` is the same game and stays so
  (``api_checks.check_round_trip``);

and at the end: a result with a reason, nothing pending, actions refused as ``game_over``, the
record replays to the same views, log, score and result (G-6), and the twin ended the same.

Below that battery are the denser checks of the same contract that were scattered before (moved
here, their assertions unchanged, from ``test_position_roundtrip.py``, ``test_determinize.py``,
``test_properties.py`` and ``test_properties_duel.py``): the position round trip at 2,004 states
of six modes, determinize at 1,000 states, clone independence and same-seed determinism by line-up.

Run time (measured on the shared 2-core machine, one process): about 20 s for the module, 13 s of
it the battery (native engine; about the same on the Python engine, the checks being Python).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any, Iterator

import pytest

from christianity_game import Game, IllegalAction, Pass, Settings
from christianity_game.engine.determinize import determinize, hidden_places
from christianity_game.engine.rng import Rng
from api_checks import (
    assert_same, check_badges, check_clone, check_events, check_round_trip, check_undo, check_view, check_world,
    check_zones, choose, duel_settings, make_settings, places, rebuilt, stable_seed,
)
from state_helpers import snapshot
from tables import TABLES

GAMES_PER_TABLE = 3
PROBE_EVERY = 12          # mean decisions between probes
STEP_CAP = 20_000



def table_game(table: str, seed: int) -> Game:
    """A new game of ``table`` (tests/tables.py)."""
    mode, lineup, settings = TABLES[table]
    return Game.new(mode=mode, lineup=lineup, seed=seed, settings=Settings().updated(settings) if settings else None)


def probe(game: Game, rnd: random.Random, at: str, stats: Counter[str]) -> None:
    """Views, clone, apply/undo, determinize and the position round trip at one decision."""
    n = len(game.lineup)
    seat = game.pending[0][0]
    stats["probes"] += 1
    for viewer in [None, *range(n)]:
        view = check_view(game, viewer, at)
        assert game.seat_view(viewer).to_json() == view, f"{at}: seat_view({viewer}) is not view({viewer})"
    check_clone(game, rnd, at)
    for _ in range(2):
        stats[check_undo(game, rnd, at)] += 1
    viewer = rnd.choice([seat, seat, None, rnd.randrange(n)])
    stats["redealt"] += check_world(game, viewer, Rng(stable_seed(at)), play=20 if stats["probes"] % 5 == 1 else 0)
    check_round_trip(game, rnd, at)
    assert game.to_position() == rebuilt(game).to_position()


@pytest.mark.parametrize("table", list(TABLES))
def test_api_conformance(table: str) -> None:
    """The battery of the module docstring over GAMES_PER_TABLE seeded random games of ``table``."""
    mode, lineup, _ = TABLES[table]
    n = len(lineup)
    stats: Counter[str] = Counter()
    for k in range(GAMES_PER_TABLE):
        seed = stable_seed("conformance", table, k)
        where = f"{table} seed {seed}"
        game, twin = table_game(table, seed), table_game(table, seed)
        rnd = random.Random(seed)
        probe_at = rnd.randrange(1, 40)
        zones, face = check_zones(game, where), set(game.state.face_up)
        steps = 0
        while game.result is None:
            steps += 1
            at = f"{where} step {steps}"
            assert steps <= STEP_CAP, f"{where}: no result after {STEP_CAP} actions"
            pending = game.pending
            assert len(pending) == 1, f"{at}: pending {pending!r}"
            seat, acts = pending[0]
            assert acts and len(set(acts)) == len(acts), f"{at}: seat {seat} lists {acts!r}"
            assert all(a.seat == seat for a in acts), f"{at}: another seat's action in seat {seat}'s list"
            for other in range(n):
                if other != seat:
                    assert game.legal_actions(other) == [], f"{at}: seat {other} has actions while {seat} decides"
            assert twin.pending == pending, f"{at}: the twin (same seed, same choices) lists otherwise"
            if steps == probe_at or rnd.random() < 1 / PROBE_EVERY:
                probe(game, rnd, at, stats)
            a = choose(rnd, acts, eager=k % 2 == 1)
            mark = len(game.log)
            events = game.apply(a)
            assert list(game.log[mark:]) == list(events), f"{at}: apply's events are not the log's"
            twin.apply_unchecked(a)
            stats[type(a).__name__] += 1
            check_badges(game, at)
            new_zones, new_face = check_zones(game, f"{at} after {a!r}"), set(game.state.face_up)
            check_events(game, events, zones, face, new_zones, new_face, f"{at} after {a!r}")
            zones, face = new_zones, new_face
        res = game.result
        assert res.winner in ("righteous", "evil", "draw") and isinstance(res.reason, str) and res.reason, where
        assert game.pending == [] and game.phase == "over" and all(game.legal_actions(s) == [] for s in range(n))
        with pytest.raises(IllegalAction) as exc:
            game.apply(Pass(0))
        assert exc.value.code == "game_over"
        views = {v: check_view(game, v, where) for v in [None, *range(n)]}
        record = game.to_record()
        again = Game.from_record(json.loads(json.dumps(record)))
        assert again.result == res and again.to_record() == record, f"{where}: the replay differs"
        for v, view in views.items():
            assert again.view(v) == view and twin.view(v) == view, f"{where}: view of {v} differs"
        assert again.log == game.log and again.score == game.score
        assert twin.to_record() == record and twin.result == res
        check_round_trip(game, rnd, f"{where} (over)")
        stats["games"] += 1
        stats["actions"] += steps
    assert stats["games"] == GAMES_PER_TABLE and stats["probes"] >= GAMES_PER_TABLE
    assert stats["redealt"] > 0, f"{table}: determinize never re-dealt a card: {stats}"
    for kind in ("Pass", "PlayCard"):
        assert stats[kind], f"{table}: no {kind} played: {stats}"
    if mode == "duel":
        # rules 4: no duel action can be taken back (the other side sees it at once)
        assert stats["undone"] == 0 and stats["seen_by_opponent"] > 0, stats
    else:
        assert stats["undone"] > 0, f"{table}: no undo was ever allowed: {stats}"


# ------------------------------------------------------------------------------------------------
# Positions: the round trip at many states (moved from test_position_roundtrip.py)
#
# For 2,000 states reached in play (random legal play from seeded games of co-op RR / RRR, solo R
# and duel ER / EER / ERR, stopped at random points: mid-stack, mid-choice, mid-burst, at reward
# decisions, after the game ended), ``from_position(game.to_position())`` gives a game whose views
# are equal for every seat and the spectator, ``state_id`` included; legal actions are equal for
# every seat; whole mutable state is equal (``state_helpers.fingerprint`` without the action list
# and the log, which a position does not carry); and stays equal after a few more random actions,
# the same on both. Each position also passes through JSON and is checked to be TOML-able.

ROUND_TRIP_MODES = [("coop", "RR"), ("coop", "RRR"), ("solo", "R"), ("duel", "ER"), ("duel", "EER"), ("duel", "ERR")]
STATES_PER_MODE = 334          # 6 modes: 2,004 states
STOP_CHANCE = 0.04             # each action, the chance to stop and check the state reached
FOLLOW_UP = 4                  # random actions applied to both games after each check


def position_settings(mode: str, seed: int) -> Settings:
    """Settings varied by seed, so positions are checked with each rule switch on and off."""
    return Settings(evil_interrupt=seed % 3 != 2, mat_abilities=seed % 4 != 3, humility_rollover=seed % 5 != 4,
                    max_turns=40 if mode == "duel" else 0)


def kinds_of_moment(game: Game) -> set[str]:
    """What is open in a state, to show the random states cover the moments that matter."""
    st = game.state
    out = set()
    if st.result is not None:
        out.add("over")
    if st.stack:
        out.add("stack")
    if st.choice is not None:
        out.add("choice")
    if st.offers:
        out.add("offer")
    if st.window:
        out.add("window")
    if st.threats:
        out.add("threats")
    if st.effects:
        out.add("effects")
    d = st.duel
    if d is not None:
        if d.reward_queue:
            out.add("reward")
        if d.chain_count:
            out.add("chain")
        if d.evil_window:
            out.add("evil_window")
        if d.answering:
            out.add("answering")
        if d.flagged:
            out.add("spent")
        if d.e_clock is not None or d.r_clock is not None:
            out.add("clock")
    return out


@pytest.mark.parametrize("mode,lineup", ROUND_TRIP_MODES)
def test_to_position_round_trip(mode: str, lineup: str) -> None:
    """``from_position(to_position())`` equals the original at STATES_PER_MODE random states of the mode."""
    seen: Counter[str] = Counter()
    checked = 0
    seed = 0
    while checked < STATES_PER_MODE:
        seed += 1
        rnd = random.Random(f"{mode}{lineup}{seed}")
        game = Game.new(mode=mode, lineup=lineup, seed=seed, settings=position_settings(mode, seed))
        while checked < STATES_PER_MODE:
            if game.result is not None or rnd.random() < STOP_CHANCE:
                checked += 1
                where = f"{mode} {lineup} seed {seed} after {len(game.actions)} actions"
                seen.update(kinds_of_moment(game))
                # the copy accepts (checked apply) what the original does, FOLLOW_UP actions on
                check_round_trip(game, rnd, where, FOLLOW_UP)
                if game.result is not None:
                    break
            game.apply(rnd.choice(game.pending[0][1]))
    # the random states reach the moments the positions must carry
    expected = ({"reward", "chain", "evil_window", "answering", "threats", "spent", "over"} if mode == "duel"
                else {"stack", "offer", "window", "threats", "choice", "over"})
    assert expected <= set(seen), f"never met: {expected - set(seen)} ({dict(seen)})"


def test_round_trip_covers_choices_and_pending_effects() -> None:
    """Mid-choice states with effects still waiting (a card's later effects after a discard or a
    search) round-trip too: play co-op until such states are met, and check each."""
    met = 0
    for seed in range(200):
        rnd = random.Random(seed)
        game = Game.new(mode="coop", lineup="RR", seed=seed)
        while game.result is None and met < 40:
            if game.state.choice is not None:
                met += 1
                assert_same(game, rebuilt(game), f"coop seed {seed} at a {game.state.choice.purpose} choice")
            game.apply(rnd.choice(game.pending[0][1]))
        if met >= 40:
            break
    assert met >= 40


def test_a_scenario_file_position_round_trips() -> None:
    """A position written by hand (scenario 04, deck_from shuffles, no uids) round-trips after it starts."""
    from christianity_game.scenarios import scenario

    game = scenario("evil-at-6-habituals").new_game(seed=5)
    assert_same(game, rebuilt(game), "scenario 04")


# ------------------------------------------------------------------------------------------------
# Determinize at many states (moved from test_determinize.py)
#
# ``engine.determinize``: worlds re-dealt consistently with one seat's view (docs/design.md,
# "Hidden information"; the search bot's only way to the hidden cards). Over 1,000 states
# from co-op, solo and duel games: the seat's view of the world equals its view of the real game
# (every visible card where the view shows it, same legal actions), only hidden places change card,
# each owner's hidden cards stay the same multiset, the generator is re-seeded, the world plays on
# with every card in one place, and a world is a function of the view and the rng alone.

DETERMINIZE_GAMES = (("coop", "RR"), ("coop", "RRR"), ("solo", "R"), ("duel", "ER"), ("duel", "EER"), ("duel", "ERR"))
DETERMINIZE_STATES = 1000


def _states() -> Iterator[tuple[Game, int | None]]:
    """(game, seat) pairs along random games: the decider, sometimes another seat or a spectator."""
    rng = Rng(2024)
    made = 0
    seed = 0
    while True:
        mode, lineup = DETERMINIZE_GAMES[seed % len(DETERMINIZE_GAMES)]
        game = Game.new(mode=mode, lineup=lineup, seed=seed)
        seed += 1
        for step in range(400):
            pending = game.pending
            if not pending:
                break
            seat, actions = pending[0]
            if step % 3 == 0:
                pick = rng.randbelow(4)
                viewer: int | None = seat if pick < 2 else (None if pick == 2 else rng.randbelow(len(lineup)))
                yield game, viewer
                made += 1
                if made >= DETERMINIZE_STATES:
                    return
            game.apply_unchecked(actions[rng.randbelow(len(actions))])


def test_determinize_keeps_the_view_and_changes_only_hidden_cards() -> None:
    changed = 0
    checked = 0
    for n, (game, seat) in enumerate(_states()):
        changed += check_world(game, seat, Rng(n), play=40 if n % 25 == 0 else 0)
        checked += 1
    assert checked == DETERMINIZE_STATES
    assert changed > DETERMINIZE_STATES, "re-dealing should move many hidden cards"


def _world_key(world: Game) -> Any:
    """A world's cards at every place, and its generator."""
    return {place: world.defs[u].id for place, u in places(world).items()}, world.state.rng.state


def test_a_world_depends_only_on_the_view() -> None:
    """Two games that differ only in cards the seat cannot see give the same world."""
    for n, (game, seat) in enumerate(_states()):
        if n % 10:
            continue
        other = determinize(game, seat, Rng(10_000 + n))   # the same view, other hidden cards
        assert other.view(seat) == game.view(seat)
        assert _world_key(determinize(game, seat, Rng(n))) == _world_key(determinize(other, seat, Rng(n)))


def test_a_seat_sees_its_own_hand_and_not_the_others() -> None:
    game = Game.new(mode="duel", lineup="ER", seed=3)
    places_ = hidden_places(game, 1)
    zones = {id(z) for z, _ in places_}
    st = game.state
    assert id(st.seats[1].hand) not in zones and id(st.seats[0].hand) in zones
    assert id(st.seats[1].deck) in zones and id(st.seats[0].deck) in zones
    assert id(st.seats[1].cost_zone) not in zones   # its own Cost Zone, face down or not
    # over a few worlds the other seat's hand is dealt differently; the own hand never is
    hands = {tuple(determinize(game, 1, Rng(k)).defs[u].id for u in st.seats[0].hand) for k in range(20)}
    own = {tuple(determinize(game, 1, Rng(k)).defs[u].id for u in st.seats[1].hand) for k in range(20)}
    assert len(hands) > 1 and len(own) == 1


# ------------------------------------------------------------------------------------------------
# Clones and determinism by line-up (moved from test_properties.py and test_properties_duel.py)

COOP_MODES = {"R": "solo", "RR": "coop", "RRR": "coop", "RRRR": "coop"}


@pytest.mark.parametrize("lineup", list(COOP_MODES))
def test_same_seed_same_choices_same_game(lineup: str) -> None:
    """G-6 / docs/design.md, "Determinism: the generator and chance": two games with one seed and one chooser agree at every step."""
    mode = COOP_MODES[lineup]
    for seed in range(6):
        settings = make_settings(seed % 2 == 0, seed % 3 != 0, seed)
        games = [Game.new(mode=mode, lineup=lineup, seed=seed, settings=settings) for _ in range(2)]
        rnds = [random.Random(seed), random.Random(seed)]
        steps = 0
        while games[0].result is None:
            steps += 1
            picks = [choose(r, g.pending[0][1], eager=seed % 2 == 1) for g, r in zip(games, rnds)]
            assert picks[0] == picks[1]
            assert games[0].pending == games[1].pending
            for g, a in zip(games, picks):
                g.apply(a) if steps % 5 == 0 else g.apply_unchecked(a)
            if steps % 25 == 0:
                for v in [None, *range(len(lineup))]:
                    assert games[0].view(v) == games[1].view(v)
        assert games[1].result == games[0].result
        assert games[0].to_record() == games[1].to_record()
        assert games[0].log == games[1].log
        for v in [None, *range(len(lineup))]:
            assert games[0].view(v) == games[1].view(v)
    # a different seed deals a different game
    one, two = Game.new(mode=mode, lineup=lineup, seed=1), Game.new(mode=mode, lineup=lineup, seed=2)
    assert one.view(0) != two.view(0)


@pytest.mark.parametrize("lineup", ["R", "RRR"])
def test_clone_and_original_are_independent(lineup: str) -> None:
    """docs/design.md, "Cheap to copy": a clone shares nothing mutable with its original, in both directions."""
    mode = COOP_MODES[lineup]
    for seed in range(5):
        game = Game.new(mode=mode, lineup=lineup, seed=seed)
        rnd = random.Random(seed)
        snaps = []
        while game.result is None:
            if rnd.random() < 0.02:
                snaps.append((game.clone(), snapshot(game)))
            game.apply_unchecked(choose(rnd, game.pending[0][1], eager=True))
        # the original ran to the end: every clone still holds the state it was taken in
        for clone, snap in snaps:
            assert snapshot(clone) == snap
        # and driving the clones to their own ends leaves the finished original alone
        final = snapshot(game)
        for clone, _ in snaps:
            while clone.result is None:
                clone.apply_unchecked(choose(rnd, clone.pending[0][1], eager=False))
            check_zones(clone)
        assert snapshot(game) == final


def duel_midgame(lineup: str, seed: int, steps: int, interrupt: bool = True) -> Game:
    """A duel after ``steps`` random moves (uniform, from ``random.Random(seed)``)."""
    game = Game.new(mode="duel", lineup=lineup, seed=seed, settings=duel_settings(interrupt, seed))
    rnd = random.Random(seed)
    for _ in range(steps):
        if game.result is not None:
            break
        game.apply_unchecked(rnd.choice(game.pending[0][1]))
    return game


@pytest.mark.parametrize("lineup", ["ER", "EERR"])
def test_clone_of_a_duel_is_a_duel(lineup: str) -> None:
    """docs/design.md, "Cheap to copy": ``clone()`` of a duel is a duel: same class, same decisions, and
    driven by the same actions it ends in the same game as the original."""
    for seed in range(4):
        game = duel_midgame(lineup, seed, 40 + 30 * seed)
        clone = game.clone()
        assert type(clone) is type(game), f"clone of a {type(game).__name__} is a {type(clone).__name__}"
        assert clone.pending == game.pending
        rnd = random.Random(seed)
        while game.result is None:
            a = rnd.choice(game.pending[0][1])
            assert clone.legal_actions(a.seat) == game.legal_actions(a.seat)
            game.apply(a)
            clone.apply(a)
        assert clone.to_record() == game.to_record() and clone.view(None) == game.view(None)


@pytest.mark.parametrize("lineup", ["ER", "ERR", "EEERR"])
def test_same_seed_same_choices_same_duel(lineup: str) -> None:
    """G-6: two duels with one seed and one chooser agree at every step, in every view."""
    for seed in range(3):
        games = [Game.new(mode="duel", lineup=lineup, seed=seed, settings=duel_settings(seed % 2 == 0, seed))
                 for _ in range(2)]
        rnds = [random.Random(seed), random.Random(seed)]
        steps = 0
        while games[0].result is None:
            steps += 1
            picks = [r.choice(g.pending[0][1]) for g, r in zip(games, rnds)]
            assert picks[0] == picks[1]
            for g, a in zip(games, picks):
                g.apply_unchecked(a)
            if steps % 40 == 0:
                for v in [None, *range(len(lineup))]:
                    assert games[0].view(v) == games[1].view(v)
        assert games[0].to_record() == games[1].to_record() and games[0].result == games[1].result


def test_every_table_is_a_valid_table() -> None:
    """Every table of tests/tables.py starts (its settings are valid for its mode), and together they
    cover every mode, one to four Righteous seats, one and two Evil seats, Evil Interrupt off and
    at least three play-test variants."""
    from christianity_game.engine.variants import VARIANTS

    modes, lineups, variants = set(), set(), set()
    interrupt_off = False
    for name in TABLES:
        game = table_game(name, 1)
        assert game.pending, name
        modes.add(game.mode.name)
        lineups.add(game.lineup)
        variants.update(game.settings.variants)
        interrupt_off |= not game.settings.evil_interrupt
    assert modes == {"coop", "solo", "duel"}
    assert {"R", "RR", "RRR", "RRRR", "ER", "EER", "ERR", "EERR"} <= lineups
    assert interrupt_off and len(variants) >= 3 and variants <= {v.key for v in VARIANTS}
