"""Replaying a game record (G-6): the functions callers use, over ``Game.from_record``.

Kept apart from :mod:`.record` (what a record holds and how its head is checked) so that no engine
module imports the one above it: this one sits on top of :mod:`.game`.
"""

from __future__ import annotations

from typing import Any

from .game import Game


def replay(record: Any, upto: int | None = None) -> Game:
    """The game a record describes, every action (or the first ``upto``) re-applied and checked.

    A bad record raises :class:`~.record.RecordError` saying what is wrong; a record under rules
    this engine does not play raises :class:`~.record.UnsupportedRules` before anything is replayed."""
    return Game.from_record(record, upto)


def start_game(record: Any) -> Game:
    """The game a record describes, before any of its actions."""
    return Game.start_from_record(record)
