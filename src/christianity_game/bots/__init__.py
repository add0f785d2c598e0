"""Bots for any seat. A bot sees only its seat's view and the legal actions, and returns one
(a search bot samples worlds consistent with that view: ``engine.determinize``)."""

from .base import BOTS, LEVELS, Bot, bot_from_path, is_bot_name, level_of, make_bot, play_out

__all__ = ["BOTS", "LEVELS", "Bot", "bot_from_path", "is_bot_name", "level_of", "make_bot", "play_out"]
