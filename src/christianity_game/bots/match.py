"""The match driver: bots take their decisions in a game until a person's comes up or the game ends.

Every driver of a game with bots goes through here: :func:`play_out` (the lab, ``simulate``, the
ladder, the tests), the terminal session (:mod:`christianity_game.play_session`), the learning
environment's bot seats (:mod:`christianity_game.env`) and the server's bot turns, one move at a
time (:func:`bot_move`; a bot that ``thinks`` decides in a worker process there, and the server
applies its answer).

A bot is asked only when it has a choice: with one legal action the driver takes it
(:func:`pick`). It is asked with ``bot.decide(game, seat, actions)``; :class:`~.base.Bot`'s own
``decide`` hands the seat's view to ``choose(view, actions)``, and a search bot reads the game
through ``determinize``. Seats without a bot are people's: the driver stops at their decisions.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Callable, Mapping, Protocol

from ..engine.actions import Action

if TYPE_CHECKING:
    from ..engine.events import Event
    from ..engine.game import Game

__all__ = ["Decider", "bot_move", "pick", "play", "play_out", "to_move"]


class Decider(Protocol):
    """What the driver asks: any :class:`~.base.Bot`, or an object with the same ``decide``."""

    def decide(self, game: Game, seat: int, actions: list[Action]) -> Action: ...


#: ``watch(game, seat, actions)``: sees a bot's decision before it is taken (it must not change the game)
Watch = Callable[["Game", int, list[Action]], None]
#: ``refused(seat, why, error)``: a bot failed (raised, or chose an action not offered); the first
#: legal action is played instead
Refused = Callable[[int, str, "BaseException | None"], None]
#: ``announce(seat, action, actions)``: the move chosen, before it is applied
Announce = Callable[[int, Action, list[Action]], None]
#: ``moved(seat, action, events)``: the move applied, with the events it made
Moved = Callable[[int, Action, "list[Event]"], None]


def pick(bot: Decider, game: Game, seat: int, actions: list[Action]) -> Action:
    """``bot``'s move among ``actions`` (the seat's legal actions now): the only one when there is
    one (the bot is not asked), else ``bot.decide(game, seat, actions)``."""
    if len(actions) == 1:
        return actions[0]
    return bot.decide(game, seat, actions)


def to_move(game: Game, bots: Mapping[int, Decider]) -> tuple[int, list[Action]] | None:
    """The decision the game waits for, ``(seat, actions)``, when a bot of ``bots`` is to take it;
    None when the game is over, waits for a person, or (never expected) for nobody."""
    pending = game.pending
    if not pending:
        return None
    seat, actions = pending[0]
    return (seat, actions) if seat in bots else None


def bot_move(game: Game, seat: int, actions: list[Action], bot: Decider, refused: Refused | None = None,
             announce: Announce | None = None) -> tuple[Action, list[Event]]:
    """Pick and apply ``bot``'s move at ``seat`` (whose legal actions now are ``actions``): the move
    and the events it made.

    Without ``refused`` a bot's error goes to the caller (an action the game refuses is an
    :class:`~christianity_game.engine.actions.IllegalAction`). With it, a bot that raises, or chooses an
    action that is not one of ``actions``, or whose move the game does not take, is reported to
    ``refused(seat, why, error)`` and the first legal action is played instead (the terminal and
    the server: a bot's bug never stops a game). ``announce(seat, action, actions)`` sees the move
    before it is applied."""
    if refused is None:
        action = pick(bot, game, seat, actions)
        if announce is not None:
            announce(seat, action, actions)
        return action, game.apply(action)   # a listed action is accepted by identity, anything else checked
    try:
        action = pick(bot, game, seat, actions)
    except Exception as exc:   # noqa: BLE001 - a bot bug: report it and play the first legal action
        refused(seat, f"failed ({type(exc).__name__}: {exc})", exc)
        action = actions[0]
    else:
        if action not in actions:
            refused(seat, f"chose an action that is not legal ({action!r})", None)
            action = actions[0]
    if announce is not None:
        announce(seat, action, actions)
    try:
        return action, game.apply(action)
    except Exception as exc:   # noqa: BLE001 - the game did not take it: the first legal action instead
        if action is actions[0]:
            raise
        refused(seat, f"made a move the game did not take ({type(exc).__name__}: {exc})", exc)
        return actions[0], game.apply(actions[0])


def play(game: Game, bots: Mapping[int, Decider], max_actions: int | None = 20000, watch: Watch | None = None,
         refused: Refused | None = None, announce: Announce | None = None, moved: Moved | None = None) -> int:
    """Let ``bots`` (seat -> bot) take every decision until a person's decision comes up (a seat
    without a bot), the game ends, or ``max_actions`` moves are made (None: no cap); how many were made.

    ``watch(game, seat, actions)`` sees each decision before it is taken (the lab counts turns with
    no option but to pass with it; it must not change the game); ``refused`` and ``announce``: see
    :func:`bot_move`; ``moved(seat, action, events)`` sees each move once applied."""
    plain = refused is None and announce is None and moved is None   # the lab's loop: the move alone
    for done in range(max_actions) if max_actions is not None else itertools.count():
        pending = game.pending
        if not pending:
            return done
        seat, actions = pending[0]
        bot = bots.get(seat)
        if bot is None:
            return done
        if watch is not None:
            watch(game, seat, actions)
        if plain:   # bot_move's without its hooks, one call less a move
            game.apply(pick(bot, game, seat, actions))
            continue
        action, events = bot_move(game, seat, actions, bot, refused, announce)
        if moved is not None:
            moved(seat, action, events)
    return max_actions or 0


def play_out(game: Game, bots: Mapping[int, Decider], max_actions: int = 20000, watch: Watch | None = None) -> Game:
    """Let bots take every decision until the game ends (or ``max_actions`` run out, or a seat
    without a bot is to decide): :func:`play`, returning the game.

    ``watch(game, seat, actions)``, when given, sees every decision before it is taken (the lab
    counts turns with no option but to pass with it); it must not change the game."""
    play(game, bots, max_actions, watch)
    return game
