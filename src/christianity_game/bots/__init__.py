"""Bots for any seat. A bot sees only its seat's view and the legal actions, and returns one."""

from .base import BOTS, Bot, make_bot, play_out

__all__ = ["BOTS", "Bot", "make_bot", "play_out"]
