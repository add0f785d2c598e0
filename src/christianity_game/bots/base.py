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

    def decide(self, game: Game, seat: int, actions: list[Action]) -> Action:
        """The entry point for drivers that hold the game (play_out, the CLI, the lab, the server).

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


def _heuristic(seed: int, cards: CardSet | None) -> Bot:
    from .heuristic import HeuristicBot
    return HeuristicBot(seed, cards)


def _search(seed: int, cards: CardSet | None) -> Bot:
    from .search import make_search_bot
    return make_search_bot("search", seed, cards)


BOTS: dict[str, Callable[[int, CardSet | None], Bot]] = {
    "random": lambda seed, cards: RandomBot(seed, cards),
    "heuristic": _heuristic,
    "search": _search,
}


def is_bot_name(name: object) -> bool:
    """Whether ``name`` is a bot level: a key of BOTS, or a search budget such as ``search:50ms``,
    ``search:1.5s`` or ``search:2000it``."""
    if not isinstance(name, str):
        return False
    if name in BOTS:
        return True
    if name.startswith("search:"):
        from .search import parse_budget
        try:
            parse_budget(name)
        except ValueError:
            return False
        return True
    return False


def make_bot(name: str, seed: int = 0, cards: CardSet | None = None) -> Bot:
    """A bot of the named level (``search`` takes a budget: ``search:50ms``, ``search:2000it``);
    a clear error for an unknown one."""
    factory = BOTS.get(name) if isinstance(name, str) else None
    if factory is not None:
        return factory(seed, cards)
    if is_bot_name(name):
        from .search import make_search_bot
        return make_search_bot(name, seed, cards)
    raise ValueError(f"unknown bot {name!r}; known: {', '.join(sorted(BOTS))} "
                     f"(search takes a budget: search:50ms, search:2000it)")


def play_out(game: Game, bots: Mapping[int, Bot], max_actions: int = 20000,
             watch: Callable[[Game, int, list[Action]], None] | None = None) -> Game:
    """Let bots take every decision until the game ends (or ``max_actions`` run out).

    ``watch(game, seat, actions)``, when given, sees every decision before it is taken (the lab
    counts turns with no option but to pass with it); it must not change the game."""
    for _ in range(max_actions):
        pending = game.pending
        if not pending:
            break
        seat, actions = pending[0]
        if watch is not None:
            watch(game, seat, actions)
        bot = bots[seat]
        if len(actions) == 1:
            action = actions[0]
        else:
            action = bot.decide(game, seat, actions)
        game.apply(action)   # one of the listed actions is accepted by identity, anything else checked
    return game
