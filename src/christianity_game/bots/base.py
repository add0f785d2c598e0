"""The bot interface, the registry of bot levels, and the loop that lets bots play a game."""

from __future__ import annotations

import re
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

    def carry(self) -> Any:
        """What the bot keeps from one decision for its next one (the mcts bot: the subtree of its
        move), for a driver that runs decisions in another process (``search.think``); None: nothing."""
        return None

    def restore(self, carry: Any) -> None:
        """Take back what :meth:`carry` gave, after a decision made in another process."""

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


def _mcts(seed: int, cards: CardSet | None) -> Bot:
    from .mcts import make_mcts_bot
    return make_mcts_bot("mcts", seed, cards)


BOTS: dict[str, Callable[[int, CardSet | None], Bot]] = {
    "random": lambda seed, cards: RandomBot(seed, cards),
    "heuristic": _heuristic,
    "search": _search,
    "mcts": _mcts,
}

#: The levels a player picks (lobby, CLI ``--bots``, the server, the ladder) and the bot each one
#: is: ``easy`` the heuristic (instant), ``normal`` ISMCTS thinking 250 ms a move, ``hard`` 1 s.
LEVELS: dict[str, str] = {
    "easy": "heuristic",
    "normal": "mcts:250ms",
    "hard": "mcts:1s",
}

#: Budgeted bot families: ``search:50ms`` / ``search:2000it`` and ``mcts:200ms`` / ``mcts:500it``.
_BUDGETED = ("search", "mcts")
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


def level_of(name: str) -> str:
    """The bot a level name stands for (``normal`` -> ``mcts:250ms``); other names unchanged."""
    return LEVELS.get(name, name)


def is_bot_name(name: object) -> bool:
    """Whether ``name`` is a bot level: a key of BOTS, a level (easy, normal, hard), or a budget
    such as ``search:50ms``, ``search:2000it``, ``mcts:200ms``, ``mcts:1.5s`` or ``mcts:500it``."""
    if not isinstance(name, str):
        return False
    name = level_of(name)
    if name in BOTS:
        return True
    head, sep, _ = name.partition(":")
    if sep and head in _BUDGETED:
        try:
            _parse(head, name)
        except ValueError:
            return False
        return True
    return False


def _parse(head: str, name: str) -> tuple[float | None, int | None]:
    if head == "search":
        from .search import parse_budget
        return parse_budget(name)
    from .mcts import parse_budget as mcts_budget
    return mcts_budget(name)


def make_bot(name: str, seed: int = 0, cards: CardSet | None = None) -> Bot:
    """A bot of the named level (``easy``, ``normal``, ``hard``, or a bot with a budget:
    ``search:50ms``, ``mcts:200ms``, ``mcts:500it``); a clear error for an unknown one."""
    if isinstance(name, str):
        name = level_of(name)
    factory = BOTS.get(name) if isinstance(name, str) else None
    if factory is not None:
        return factory(seed, cards)
    if is_bot_name(name):
        if name.startswith("mcts:"):
            from .mcts import make_mcts_bot
            return make_mcts_bot(name, seed, cards)
        from .search import make_search_bot
        return make_search_bot(name, seed, cards)
    if isinstance(name, str) and name.partition(":")[0] in _BUDGETED and ":" in name:
        _parse(name.partition(":")[0], name)   # a budgeted bot with a bad budget: say what is wrong with it
    raise ValueError(f"unknown bot {name!r}; known: {', '.join(list(LEVELS) + sorted(BOTS))} "
                     f"(search and mcts take a budget: search:50ms, mcts:200ms, mcts:500it)")


def bot_from_path(spec: str, seed: int = 0, cards: CardSet | None = None) -> Bot:
    """An outside bot by import path, ``package.module:ClassName`` (for the ladder): the class is
    made with ``(seed, cards)`` when it takes them, else with ``(seed)`` or nothing; it must be a
    :class:`Bot` (or have ``choose(view, actions)``). Never reached from the server: a name a
    client sends is only ever a level (:func:`is_bot_name`)."""
    import importlib
    import inspect
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"not an import path {spec!r}: use package.module:ClassName")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"cannot import {module_name!r} for bot {spec!r}: {exc}") from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"{module_name!r} has no {attr!r} (bot {spec!r})")
        obj = getattr(obj, part)
    try:
        params = len(inspect.signature(obj).parameters)
    except (TypeError, ValueError):
        params = 2
    bot = obj(seed, cards) if params >= 2 else obj(seed) if params == 1 else obj()
    if not callable(getattr(bot, "choose", None)):
        raise ValueError(f"{spec!r} made {bot!r}, which has no choose(view, actions)")
    if not isinstance(bot, Bot):   # a duck-typed bot: give it the driver's entry point
        inner = bot

        class _Wrapped(Bot):
            name = spec

            def choose(self, view: Mapping[str, Any], actions: list[Action]) -> Action:
                choice: Action = inner.choose(view, actions)
                return choice

        return _Wrapped(seed, cards)
    return bot


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
