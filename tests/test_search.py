"""The ``search`` bot level: budgets by name, legal play in every mode, decisions that depend only
on the deciding seat's view (docs/design.md, "A bot", "Hidden information")."""

from __future__ import annotations

import pytest

from christianity_game import Game
from christianity_game.bots import is_bot_name, make_bot, play_out
from christianity_game.bots.search import SearchBot, evaluate, group_actions, parse_budget
from christianity_game.engine.actions import LayCostZone
from christianity_game.engine.determinize import determinize
from christianity_game.engine.rng import Rng


@pytest.mark.parametrize("name, budget", [
    ("search", (200.0, None)), ("search:50ms", (50.0, None)), ("search:1.5s", (1500.0, None)),
    ("search:2000it", (None, 2000)),
])
def test_budget_names(name: str, budget: tuple[float | None, int | None]) -> None:
    assert parse_budget(name) == budget
    assert is_bot_name(name)
    bot = make_bot(name, 1)
    assert isinstance(bot, SearchBot) and (bot.time_ms, bot.iterations) == budget


@pytest.mark.parametrize("name", ["search:", "search:0it", "search:fast", "search:-5ms", "searchy", "search:10"])
def test_bad_budget_names_are_refused(name: str) -> None:
    assert not is_bot_name(name)
    with pytest.raises(ValueError, match="search"):
        make_bot(name)


@pytest.mark.parametrize("mode, lineup, seed", [("coop", "RR", 1), ("solo", "R", 2), ("duel", "ER", 3),
                                                ("duel", "EER", 4)])
def test_search_bots_never_choose_an_illegal_action(mode: str, lineup: str, seed: int) -> None:
    """Every seat a search bot for 40 real decisions (or to the end of the game);
    ``apply`` (checked) raises IllegalAction on any illegal choice."""
    game = Game.new(mode=mode, lineup=lineup, seed=seed)
    bots = {i: SearchBot(seed * 10 + i, time_ms=None, iterations=4, horizon=8) for i in range(len(lineup))}
    searched = 0
    while searched < 40 and game.pending:
        seat, actions = game.pending[0]
        action = bots[seat].decide(game, seat, actions)
        assert action in actions
        searched += len(actions) > 1
        game.apply(action)
    assert searched == 40 or game.state.result is not None


def test_a_decision_depends_only_on_the_seat_view() -> None:
    """Two games that differ only in cards the deciding seat cannot see: same bot, same seed,
    same decision (the bot reaches hidden cards only through determinize)."""
    game = Game.new(mode="duel", lineup="ER", seed=11)
    rng = Rng(5)
    checked = 0
    for _ in range(400):
        pending = game.pending
        if not pending or checked == 4:
            break
        seat, actions = pending[0]
        if len(group_actions(game, actions)) > 2:
            other = determinize(game, seat, Rng(1000 + checked))   # other hidden cards, same view
            assert other.view(seat) == game.view(seat)
            assert other.legal_actions(seat) == actions
            first = SearchBot(7, time_ms=None, iterations=20, horizon=12).decide(game, seat, actions)
            second = SearchBot(7, time_ms=None, iterations=20, horizon=12).decide(other, seat, actions)
            assert first == second
            checked += 1
        game.apply_unchecked(actions[rng.randbelow(len(actions))])
    assert checked == 4


def test_copies_of_a_card_are_one_choice() -> None:
    game = Game.new(mode="coop", lineup="RR", seed=3)
    seat, actions = game.pending[0]
    lays = [a for a in actions if isinstance(a, LayCostZone)]
    ids = {game.defs[a.card].id for a in lays}
    groups = group_actions(game, lays)
    assert len(groups) == len(ids) <= len(lays)


def test_evaluation_knows_both_win_conditions() -> None:
    game = Game.new(mode="duel", lineup="ER", seed=1)
    base = evaluate(game)
    assert 0 < base < 1
    grown = game.clone()
    grown.state.seats[1].maturity = 3
    held = game.clone()
    held.state.field.extend(held.state.seats[0].deck[:6])   # six Evil Habituals in play
    assert evaluate(grown) > base > evaluate(held)


def test_play_out_hands_the_game_to_the_search_bot() -> None:
    game = Game.new(mode="solo", lineup="R", seed=5)
    bot = make_bot("search:3it", 2)
    play_out(game, {0: bot}, max_actions=30)
    assert isinstance(bot, SearchBot) and bot.last_iterations == 3 and len(game.actions) == 30
