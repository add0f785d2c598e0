"""The bot interface every bot shares (:class:`Bot`), the random bot, and the parser of budgeted
bot names. It imports no bot: the levels by name are :mod:`~christianity_game.bots.registry`, the
loop that lets bots play a game :mod:`~christianity_game.bots.match`."""

from __future__ import annotations

import re
from typing import Any, Mapping

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
    thinks = False   # True: a decision takes long (search); servers run it off their event loop

    def __init__(self, seed: int = 0, cards: CardSet | None = None) -> None:
        self.rng = Rng(seed)
        self.cards = cards or starter_set()

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"

    def choose(self, view: Mapping[str, Any], actions: list[Action]) -> Action:
        """One of ``actions``, from the seat's view: ``Game.view``'s JSON dict, or the read-only
        :class:`~christianity_game.engine.seatview.SeatView` with the same content."""
        raise NotImplementedError

    def carry(self) -> Any:
        """What the bot keeps from one decision for its next one (the mcts bot: the subtree of its
        move), for a driver that runs decisions in another process (``search.think``); None: nothing."""
        return None

    def restore(self, carry: Any) -> None:
        """Take back what :meth:`carry` gave, after a decision made in another process."""

    def decide(self, game: Game, seat: int, actions: list[Action]) -> Action:
        """The entry point for drivers that hold the game (:mod:`~christianity_game.bots.match`).

        By default the bot sees only the seat's view, as ``game.seat_view(seat)`` (the content of
        ``game.view(seat)`` without building the JSON). A search bot overrides it and reads the
        game only through ``determinize`` (worlds consistent with the seat's view).
        """
        return self.choose(game.seat_view(seat), actions)


class RandomBot(Bot):
    """Picks uniformly among the legal actions."""

    name = "random"

    def choose(self, view: Mapping[str, Any], actions: list[Action]) -> Action:
        return actions[self.rng.randbelow(len(actions))]

    def decide(self, game: Game, seat: int, actions: list[Action]) -> Action:
        """The same pick as ``choose``; no view is made, since it would not be read (a subclass
        with its own ``choose`` gets its view as usual)."""
        if type(self).choose is not RandomBot.choose:
            return super().decide(game, seat, actions)
        return actions[self.rng.randbelow(len(actions))]


#: A budget after a bot family's name: ``search:50ms`` / ``search:2000it``, ``mcts:1.5s`` / ``mcts:500it``.
_BUDGET = re.compile(r"^(?:(\d+(?:\.\d+)?)(ms|s)|(\d+)it)$")


def parse_budget_name(family: str, name: str, default_ms: float) -> tuple[float | None, int | None]:
    """``family``, ``family:200ms``, ``family:1.5s`` or ``family:500it`` -> (time_ms, iterations),
    the plain name thinking ``default_ms``; a ``ValueError`` that shows the forms for anything else
    (the lab, the CLI and the server report it as an unknown bot). One parser for every budgeted bot."""
    if name == family:
        return default_ms, None
    head, sep, spec = name.partition(":")
    m = _BUDGET.match(spec) if head == family and sep else None
    if m is None:
        raise ValueError(f"bad {family} budget {name!r}: use {family}, {family}:200ms, {family}:1.5s "
                         f"or {family}:500it")
    if m.group(3) is not None:
        iterations = int(m.group(3))
        if iterations < 1:
            raise ValueError(f"bad {family} budget {name!r}: at least 1 iteration")
        return None, iterations
    ms = float(m.group(1)) * (1000.0 if m.group(2) == "s" else 1.0)
    if ms <= 0:
        raise ValueError(f"bad {family} budget {name!r}: the time must be positive")
    return ms, None
