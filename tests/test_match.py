"""The match driver (bots/match.py): the one loop every driver of a game with bots goes through.

It asks a bot only when it has a choice, stops at a person's decision, and (for the terminal and
the server) plays the first legal action when a bot fails; the terminal session runs on it."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console

from christianity_game import Game, IllegalAction
from christianity_game.bots import make_bot, play_out
from christianity_game.bots.match import bot_move, pick, play, to_move
from christianity_game.engine.actions import Action, Pass
from christianity_game.play_session import PlaySession


class _Counting:
    """Takes the last legal action, counting how often it was asked."""

    def __init__(self) -> None:
        self.asked = 0

    def decide(self, game: Game, seat: int, actions: list[Action]) -> Action:
        self.asked += 1
        return actions[-1]


class _Broken:
    def __init__(self, kind: str) -> None:
        self.kind = kind

    def decide(self, game: Game, seat: int, actions: list[Action]) -> Action:
        if self.kind == "raises":
            raise RuntimeError("a bot bug")
        return Pass(seat + 7)   # no seat of the game: never legal


def test_a_bot_is_asked_only_when_it_has_a_choice() -> None:
    game = Game.new("coop", "RR", seed=4, log=False)
    bot = _Counting()
    decisions: list[int] = []
    moves = play(game, {0: bot, 1: bot}, watch=lambda g, s, actions: decisions.append(len(actions)))
    assert game.result is not None and moves == len(decisions) == len(game.actions)
    assert bot.asked == sum(1 for n in decisions if n > 1) < moves


def test_play_stops_at_a_persons_decision_and_goes_on_from_there() -> None:
    game = Game.new("duel", "ER", seed=2, log=False)
    bots = {0: make_bot("random", 1)}
    for _ in range(5):
        play(game, bots)
        if game.result is not None:
            break
        assert to_move(game, bots) is None
        seat, actions = game.pending[0]
        assert seat == 1
        game.apply(actions[0])   # the person's move
    assert len(game.actions) > 5


def test_play_out_plays_as_the_seeded_bots_always_did() -> None:
    """The same seed and the same bots give the same game, whichever driver entry is used."""
    def game_by(run: Any) -> list[Any]:
        game = Game.new("duel", "ER", seed=9, log=False)
        run(game, {s: make_bot("heuristic", 9 * 31 + s, game.cards) for s in range(2)})
        return [a.to_json() for a in game.actions]

    assert game_by(play_out) == game_by(play)


def test_max_actions_caps_the_moves() -> None:
    game = Game.new("coop", "RR", seed=4, log=False)
    assert play(game, {0: make_bot("random"), 1: make_bot("random")}, max_actions=7) == 7
    assert len(game.actions) == 7 and game.result is None


@pytest.mark.parametrize("kind", ["raises", "illegal"])
def test_a_failing_bot_plays_the_first_legal_action_when_its_driver_says_so(kind: str) -> None:
    game = Game.new("coop", "RR", seed=4, log=False)
    while len(game.pending[0][1]) < 2:
        game.apply(game.pending[0][1][0])
    seat, actions = game.pending[0]
    first = actions[0]
    with pytest.raises((RuntimeError, IllegalAction)):   # no ``refused``: the error is the caller's
        bot_move(game.clone(), seat, actions, _Broken(kind))
    seen: list[tuple[int, str]] = []
    action, events = bot_move(game, seat, actions, _Broken(kind), refused=lambda s, why, exc: seen.append((s, why)))
    assert action is first and game.actions[-1] == first
    assert [s for s, _ in seen] == [seat]
    assert ("failed" if kind == "raises" else "not legal") in seen[0][1]


def test_pick_takes_the_only_action_without_asking() -> None:
    game = Game.new("coop", "RR", seed=4, log=False)
    seat, actions = game.pending[0]
    bot = _Counting()
    assert pick(bot, game, seat, actions[:1]) is actions[0] and bot.asked == 0


def test_the_terminal_session_plays_its_bots_through_the_driver() -> None:
    """A bots-only table in the terminal plays the same game as play_out with the same bots; a bot
    that chooses an illegal action is told about and passes."""
    game = Game.new("coop", "RR", seed=5)
    out = io.StringIO()
    session = PlaySession(game, Console(file=out, width=100), {s: make_bot("heuristic", 5 * 31 + s) for s in range(2)},
                          {0: "heuristic", 1: "heuristic"})
    assert session.run() == 0
    again = play_out(Game.new("coop", "RR", seed=5), {s: make_bot("heuristic", 5 * 31 + s) for s in range(2)})
    assert [a.to_json() for a in game.actions] == [a.to_json() for a in again.actions]
    assert "Game over" in out.getvalue()

    game = Game.new("coop", "RR", seed=5)
    out = io.StringIO()
    session = PlaySession(game, Console(file=out, width=100), {0: _Broken("illegal"), 1: make_bot("random", 2)},
                          {0: "broken", 1: "random"})
    assert session.run() == 0 and game.result is not None
    assert "Seat 1's bot chose an action that is not legal" in out.getvalue()
