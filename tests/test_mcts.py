"""The ``mcts`` bot (ISMCTS, issue 24): budgets and levels by name, legal play in every mode,
decisions that depend only on the deciding seat's view, subtree reuse, time budgets, and the fitted
evaluation it scores positions with."""

from __future__ import annotations

import json
import pickle
import time
from typing import Any

import pytest

from christianity_game import Game, Settings
from christianity_game.bots import LEVELS, is_bot_name, level_of, make_bot, play_out
from christianity_game.bots.evaluation import COOP_FEATURES, DATA, DUEL_FEATURES, features, win_chance
from christianity_game.bots.heuristic import HeuristicBot
from christianity_game.bots.mcts import MctsBot, edge_key, parse_budget
from christianity_game.bots.search import think, worker_copy
from christianity_game.engine.actions import LayCostZone, PlayCard
from christianity_game.engine.determinize import Determinizer, determinize
from christianity_game.engine.rng import Rng
from christianity_game.engine.variants import parse_variants


@pytest.mark.parametrize("name, budget", [
    ("mcts", (200.0, None)), ("mcts:50ms", (50.0, None)), ("mcts:1.5s", (1500.0, None)), ("mcts:500it", (None, 500)),
])
def test_budget_names(name: str, budget: tuple[float | None, int | None]) -> None:
    assert parse_budget(name) == budget
    assert is_bot_name(name)
    bot = make_bot(name, 1)
    assert isinstance(bot, MctsBot) and (bot.time_ms, bot.iterations) == budget


@pytest.mark.parametrize("name", ["mcts:", "mcts:0it", "mcts:fast", "mcts:-5ms", "mctsy", "mcts:10", "hardest"])
def test_bad_names_are_refused(name: str) -> None:
    assert not is_bot_name(name)
    with pytest.raises(ValueError, match="unknown bot|mcts budget"):
        make_bot(name)


def test_levels_name_the_bots_with_their_budgets() -> None:
    assert LEVELS == {"easy": "heuristic", "normal": "mcts:30ms", "hard": "mcts:1s"}
    assert isinstance(make_bot("easy"), HeuristicBot)
    normal, hard = make_bot("normal"), make_bot("hard")
    assert isinstance(normal, MctsBot) and normal.time_ms == 30.0
    assert isinstance(hard, MctsBot) and hard.time_ms == 1000.0
    assert all(is_bot_name(level) for level in LEVELS) and level_of("normal") == "mcts:30ms"
    assert level_of("search:8it") == "search:8it"


TABLES = [("coop", "RR", ""), ("coop", "RRR", ""), ("solo", "R", ""), ("duel", "ER", ""), ("duel", "EER", ""),
          ("duel", "ERR", ""), ("duel", "ER", "recommended"), ("duel", "EER", "recommended")]


@pytest.mark.parametrize("mode, lineup, variants", TABLES)
def test_mcts_bots_never_choose_an_illegal_action(mode: str, lineup: str, variants: str) -> None:
    """Every seat an mcts bot for 40 real decisions (or to the end); ``apply`` (checked) raises
    IllegalAction on any illegal choice."""
    seed = len(lineup) * 7 + len(variants)
    settings = Settings().updated(parse_variants(variants)) if variants else None
    game = Game.new(mode=mode, lineup=lineup, seed=seed, settings=settings)
    bots = {i: MctsBot(seed * 10 + i, time_ms=None, iterations=6, horizon=10) for i in range(len(lineup))}
    searched = 0
    while searched < 40 and game.pending:
        seat, actions = game.pending[0]
        action = bots[seat].decide(game, seat, actions)
        assert action in actions
        searched += len(actions) > 1
        game.apply(action)
    assert searched == 40 or game.state.result is not None


def test_a_decision_depends_only_on_the_seat_view() -> None:
    """Two games that differ only in cards the deciding seat cannot see: same bot, same seed, same
    decision (the bot reaches hidden cards only through the Determinizer)."""
    checked = 0
    for mode, lineup, seed in (("duel", "ER", 11), ("duel", "EER", 12), ("coop", "RR", 13)):
        game = Game.new(mode=mode, lineup=lineup, seed=seed)
        rng = Rng(5)
        found = 0
        for _ in range(600):
            pending = game.pending
            if not pending or found == 3:
                break
            seat, actions = pending[0]
            if len({edge_key(game.defs, a, seat) for a in actions}) > 2:
                other = determinize(game, seat, Rng(1000 + checked))   # other hidden cards, same view
                assert other.view(seat) == game.view(seat)
                first = MctsBot(7, time_ms=None, iterations=25, horizon=16).decide(game, seat, actions)
                second = MctsBot(7, time_ms=None, iterations=25, horizon=16).decide(other, seat, actions)
                assert first == second
                found += 1
                checked += 1
            game.apply_unchecked(actions[rng.randbelow(len(actions))])
    assert checked == 9


def test_the_determinizer_gives_determinize_s_worlds() -> None:
    game = Game.new(mode="duel", lineup="EER", seed=3)
    bots = {i: HeuristicBot(i) for i in range(3)}
    for _ in range(150):
        seat, actions = game.pending[0]
        game.apply(actions[0] if len(actions) == 1 else bots[seat].choose(game.seat_view(seat), actions))
    seat = game.pending[0][0]
    sampler = Determinizer(game, seat)
    for n in range(5):
        a, b = sampler.sample(Rng(n)), determinize(game, seat, Rng(n))
        assert [c.id for c in a.defs] == [c.id for c in b.defs]
        assert a.to_position() == b.to_position()


def test_the_subtree_is_kept_between_decisions_of_the_same_seat() -> None:
    """In its own Cost Zone phase a seat decides several times in a row: each new decision starts
    from the subtree of the move made before (the moves since are followed with the same keys)."""
    game = Game.new(mode="duel", lineup="ER", seed=4, log=False)
    bot = MctsBot(1, time_ms=None, iterations=40)
    other = HeuristicBot(2)
    reused = decisions = 0
    while game.pending and decisions < 30:
        seat, actions = game.pending[0]
        if len(actions) == 1:
            game.apply(actions[0])
            continue
        if seat == 1:
            action = bot.decide(game, seat, actions)
            decisions += 1
            reused += bot.last_reused > 0
            assert bot.last_iterations == 40
        else:
            action = other.choose(game.seat_view(seat), actions)
        game.apply(action)
    assert decisions == 30 and reused >= 5


def test_a_time_budget_is_kept_and_counts_from_when_the_move_was_asked() -> None:
    game = Game.new(mode="duel", lineup="ER", seed=8)
    seat, actions = game.pending[0]
    while len(actions) < 3:
        game.apply(actions[0])
        seat, actions = game.pending[0]
    bot = MctsBot(1, time_ms=60)
    started = time.perf_counter()
    assert bot.decide(game, seat, actions) in actions
    assert time.perf_counter() - started < 0.06 + 0.1 and bot.last_iterations >= 2
    action, _, carry = think(bot, game, seat, actions, time.time())
    assert carry is not None and carry[2] == action   # the subtree of the move goes back with it
    # asked 10 s ago (it waited in a queue): no time left, the heuristic's move at once
    action, _, carry = think(bot, game, seat, actions, time.time() - 10)
    assert bot.last_iterations == 0 and bot.started_at is None and carry is None
    assert action == HeuristicBot(0).choose(game.seat_view(seat), actions)
    worker = pickle.loads(pickle.dumps(bot))   # what a worker gets: the policy and the cards made again
    assert isinstance(worker.policy, HeuristicBot) and worker.cards is bot.cards and worker.last_root is None


def test_a_long_game_goes_to_a_worker_whole_but_its_history() -> None:
    """A duel thousands of actions long pickles for the worker pool (its full action chain did not:
    a RecursionError, and the server fell back to the heuristic) and thinks the same there."""
    game = Game.new(mode="duel", lineup="ER", seed=3)   # a deal that is still going at 2,500 actions
    bots = {i: HeuristicBot(i) for i in range(2)}
    while game.action_count < 2500 and game.pending:
        seat, actions = game.pending[0]
        game.apply(actions[0] if len(actions) == 1 else bots[seat].choose(game.seat_view(seat), actions))
    assert game.action_count == 2500 and game.state.result is None
    copy = pickle.loads(pickle.dumps(worker_copy(game)))
    assert copy.view(0) == game.view(0) and copy.view(1) == game.view(1)
    assert copy.action_count == game.action_count and len(pickle.dumps(worker_copy(game))) < 200_000
    seat, actions = game.pending[0]
    a = think(MctsBot(4, time_ms=None, iterations=10), copy, seat, actions)[0]
    assert a == MctsBot(4, time_ms=None, iterations=10).decide(game, seat, actions)


def test_play_out_hands_the_game_to_the_mcts_bot() -> None:
    game = Game.new(mode="solo", lineup="R", seed=5)
    bot = make_bot("mcts:3it", 2)
    play_out(game, {0: bot}, max_actions=30)
    assert isinstance(bot, MctsBot) and bot.last_iterations == 3 and len(game.actions) == 30


def test_copies_of_a_card_are_one_move() -> None:
    game = Game.new(mode="coop", lineup="RR", seed=3)
    seat, actions = game.pending[0]
    lays = [a for a in actions if isinstance(a, LayCostZone)]
    keys = {edge_key(game.defs, a, seat) for a in lays}
    assert len(keys) == len({game.defs[a.card].id for a in lays}) <= len(lays)
    # another seat's lay shows no card: one move whatever it lays
    assert len({edge_key(game.defs, a, 1 - seat) for a in lays}) == 1
    play = PlayCard(seat, lays[0].card)
    assert edge_key(game.defs, play, 1 - seat) == ("P", seat, game.defs[lays[0].card].id, None, None)


# --------------------------------------------------------------------------- the fitted evaluation
def test_the_fitted_evaluation_is_data_with_its_command_and_beats_the_hand_set_one() -> None:
    data = json.loads(DATA.read_text())
    assert data["command"].startswith("python -m christianity_game.bots.fit_eval")
    for family, names in (("duel", DUEL_FEATURES), ("coop", COOP_FEATURES)):
        model = data["models"][family]
        assert tuple(model["features"]) == names and len(model["weights"]) == len(names)
        assert model["games"] >= 1000
        held = model["held_out"]
        assert held["fitted"]["log_loss"] < held["hand_set"]["log_loss"]
        assert held["fitted"]["log_loss"] < held["constant"]["log_loss"]


def test_the_evaluation_counts_humility_and_knows_both_win_conditions() -> None:
    game = Game.new(mode="duel", lineup="ER", seed=1, log=False)
    assert len(features(game)) == len(DUEL_FEATURES)
    base = win_chance(game)
    assert 0 < base < 1
    humble = game.clone(log=False)
    humble.state.seats[1].humility = 8
    proud = game.clone(log=False)
    proud.state.seats[1].humility = 0
    assert win_chance(humble) > base > win_chance(proud)
    grown = game.clone(log=False)
    grown.state.seats[1].maturity = 3
    held = game.clone(log=False)
    held.state.field.extend(held.state.seats[0].deck[:6])   # six Evil Habituals in play
    assert win_chance(grown) > base > win_chance(held)
    coop = Game.new(mode="coop", lineup="RR", seed=1, log=False)
    assert len(features(coop)) == len(COOP_FEATURES)
    up = coop.clone(log=False)
    up.state.seats[0].humility = 9
    assert win_chance(up) > win_chance(coop)


@pytest.mark.parametrize("mode, lineup, variants", [("solo", "R", ""), ("coop", "RR", ""),
                                                    ("duel", "ER", "recommended"), ("duel", "EER", "recommended"),
                                                    ("duel", "ERR", "recommended")])
def test_whole_seeded_games_end_with_every_seat_an_mcts_bot(mode: str, lineup: str, variants: str) -> None:
    """To the end of the game, every move checked by ``apply`` (IllegalAction on any illegal one)."""
    settings = Settings().updated({**parse_variants(variants), "max_turns": 200}) if variants else None
    game = Game.new(mode=mode, lineup=lineup, seed=77, settings=settings, log=False)
    bots = {i: MctsBot(i, time_ms=None, iterations=2, horizon=6) for i in range(len(lineup))}
    play_out(game, bots)
    assert game.state.result is not None


def test_the_final_choice_keeps_the_heuristic_s_move_within_the_noise() -> None:
    from christianity_game.bots.mcts import Node
    bot = MctsBot(0, time_ms=None, iterations=1)
    root = Node(False)

    def child(values: list[float]) -> Node:
        c = Node(True)
        c.n, c.w, c.w2 = len(values), sum(values), sum(v * v for v in values)
        return c

    prior, other = "prior", "other"
    reps: dict[Any, Any] = {prior: None, other: None}
    root.children = {prior: child([0.0, 1.0] * 10), other: child([0.0, 1.0] * 12 + [1.0] * 2)}
    assert bot._best(root, prior, reps) == prior      # a little better, on noisy outcomes: kept
    root.children[other] = child([0.9] * 30)
    root.children[prior] = child([0.4, 0.5] * 10)
    assert bot._best(root, prior, reps) == other      # clearly better and tried more: taken


def test_the_evaluation_fit_collects_the_same_rows_on_two_workers() -> None:
    # the rows come back from the pool as they finish and are put back in the jobs' order
    from christianity_game.bots.fit_eval import collect
    one = collect("duel", 4, 3, 0, 1)
    assert one and collect("duel", 4, 3, 0, 2) == one


def test_the_iterations_tool_reports_a_rate_and_the_same_moves_twice(capsys: pytest.CaptureFixture[str]) -> None:
    """``bots.speed iters``: what a build comparison reads (a rate a CPU-second, and a digest of the
    moves that two builds playing alike share), the same digest on a second run."""
    from christianity_game.bots import speed

    digests = []
    for _ in range(2):
        assert speed.main(["iters", "--positions", "1", "--iterations", "3"]) == 0
        out = capsys.readouterr().out
        assert "3 mcts iterations each" in out
        last = out.strip().splitlines()[-1]
        assert last.startswith("all") and "iterations a CPU-second; moves " in last
        assert float(last.split()[1]) > 0
        digests.append(last.rsplit(" ", 1)[1])
        assert sum("iterations a CPU-second" in line for line in out.splitlines()) == len(speed.TABLES) + 1
    assert digests[0] == digests[1] and len(digests[0]) == 16
