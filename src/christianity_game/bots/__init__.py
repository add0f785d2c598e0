"""Bots for any seat. A bot sees only its seat's view and the legal actions, and returns one
(a search bot samples worlds consistent with that view: ``engine.determinize``).

``base`` is the interface (:class:`Bot`), ``registry`` makes bots by level name (:func:`make_bot`),
``match`` lets them play a game (:func:`play_out`)."""

from .base import Bot
from .match import play_out
from .registry import BOTS, LEVELS, bot_from_path, is_bot_name, level_of, make_bot

__all__ = ["BOTS", "LEVELS", "Bot", "bot_from_path", "is_bot_name", "level_of", "make_bot", "play_out"]
