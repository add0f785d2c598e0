"""The bot interface, the registry of bot levels, and the loop that lets bots play a game."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..cards.loader import CardSet, starter_set
from ..engine.actions import Action
from ..engine.game import Game
from ..engine.rng import Rng


class Bot:
    """A player for one seat: ``choose(view, actions)`` returns one of ``actions``.

    Bots get the seat's view (never the state) and the legal actions, and reuse the real engine
    for everything else. ``cards`` lets a bot read the printed card behind an id.
    """

    name = "bot"

    def __init__(self, seed: int = 0, cards: CardSet | None = None) -> None:
        self.rng = Rng(seed)
        self.cards = cards or starter_set()

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"

    def choose(self, view: dict[str, Any], actions: list[Action]) -> Action:
        raise NotImplementedError


class RandomBot(Bot):
    """Picks uniformly among the legal actions."""

    name = "random"

    def choose(self, view: dict[str, Any], actions: list[Action]) -> Action:
        return actions[self.rng.randbelow(len(actions))]


def _heuristic(seed: int, cards: CardSet | None) -> Bot:
    from .heuristic import HeuristicBot
    return HeuristicBot(seed, cards)


BOTS: dict[str, Callable[[int, CardSet | None], Bot]] = {
    "random": lambda seed, cards: RandomBot(seed, cards),
    "heuristic": _heuristic,
}


def make_bot(name: str, seed: int = 0, cards: CardSet | None = None) -> Bot:
    """A bot of the named level; a clear error for an unknown one."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(sorted(BOTS))}") from None
    return factory(seed, cards)


def play_out(game: Game, bots: Mapping[int, Bot], max_actions: int = 20000) -> Game:
    """Let bots take every decision until the game ends (or ``max_actions`` run out)."""
    for _ in range(max_actions):
        pending = game.pending
        if not pending:
            break
        seat, actions = pending[0]
        bot = bots[seat]
        if len(actions) == 1:
            action = actions[0]
        else:
            action = bot.choose(game.view(seat), actions)
        game.apply_unchecked(action) if action in actions else game.apply(action)
    return game
