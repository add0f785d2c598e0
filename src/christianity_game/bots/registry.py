"""The bot levels by name: every bot the lab, the CLI, the server and the ladder can make.

``make_bot(name, seed, cards)`` makes one: a key of :data:`BOTS` (``random``, ``heuristic``,
``search``, ``mcts``), a level a player picks (:data:`LEVELS`: ``easy``, ``normal``, ``hard``), or
a budgeted bot (``search:50ms``, ``search:2000it``, ``mcts:200ms``, ``mcts:1.5s``, ``mcts:500it``).
:func:`bot_from_path` makes an outside bot by import path (the ladder's entrants).

The registry sits above the bots it names; :mod:`~christianity_game.bots.base` (the interface they
share) imports none of them.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..cards.loader import CardSet
from ..engine.actions import Action
from .base import Bot, RandomBot
from .heuristic import HeuristicBot
from .mcts import make_mcts_bot
from .mcts import parse_budget as mcts_budget
from .search import make_search_bot
from .search import parse_budget as search_budget

BOTS: dict[str, Callable[[int, CardSet | None], Bot]] = {
    "random": lambda seed, cards: RandomBot(seed, cards),
    "heuristic": lambda seed, cards: HeuristicBot(seed, cards),
    "search": lambda seed, cards: make_search_bot("search", seed, cards),
    "mcts": lambda seed, cards: make_mcts_bot("mcts", seed, cards),
}

#: The levels a player picks (lobby, CLI ``--bots``, the server, the ladder) and the bot each one
#: is: ``easy`` the heuristic (instant), ``normal`` ISMCTS thinking 30 ms a move, ``hard`` 1 s. In the
#: duel the tree search stops gaining strength at about 100 ms a move (README, "Ladder"), so
#: ``normal`` thinks below that, where each level is measurably above the one below it.
LEVELS: dict[str, str] = {
    "easy": "heuristic",
    "normal": "mcts:30ms",
    "hard": "mcts:1s",
}

#: Budgeted bot families: the parser of each one's names (``family:200ms``, ``family:1.5s``,
#: ``family:500it``; a ``ValueError`` that shows the forms) and the maker of its bots from a name.
_BUDGETED: dict[str, tuple[Callable[[str], tuple[float | None, int | None]],
                           Callable[[str, int, CardSet | None], Bot]]] = {
    "search": (search_budget, make_search_bot),
    "mcts": (mcts_budget, make_mcts_bot),
}


def level_of(name: str) -> str:
    """The bot a level name stands for (``normal`` -> ``mcts:30ms``); other names unchanged."""
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
            _BUDGETED[head][0](name)
        except ValueError:
            return False
        return True
    return False


def make_bot(name: str, seed: int = 0, cards: CardSet | None = None) -> Bot:
    """A bot of the named level (``easy``, ``normal``, ``hard``, or a bot with a budget:
    ``search:50ms``, ``mcts:200ms``, ``mcts:500it``); a clear error for an unknown one."""
    if isinstance(name, str):
        name = level_of(name)
    factory = BOTS.get(name) if isinstance(name, str) else None
    if factory is not None:
        return factory(seed, cards)
    head, sep, _ = name.partition(":") if isinstance(name, str) else ("", "", "")
    if sep and head in _BUDGETED:
        return _BUDGETED[head][1](name, seed, cards)   # a bad budget: its parser says what is wrong
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
