"""Game records and replay (G-6): settings + seed + decks (+ position) + the list of actions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import action_from_json
from .settings import Settings

if TYPE_CHECKING:
    from .game import Game

RECORD_FORMAT = "christianity-game-record"
RECORD_VERSION = 1


class RecordError(ValueError):
    """A saved game that cannot be replayed: the message says which part is wrong."""


def make_record(game: "Game") -> dict[str, Any]:
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "mode": game.mode.name,
        "lineup": game.lineup,
        "seed": game.seed,
        "settings": game.settings.to_dict(),
        "decks": [deck_id for deck_id, _ in game.deck_lists],
        "deck_files": [list(pair) for pair in game.extra_deck_texts],
        "position": getattr(game, "_position", None),
        "actions": [a.to_json() for a in game.actions],
    }


def replay(record: Any, upto: int | None = None) -> "Game":
    """The game a record describes, every action re-applied and checked."""
    from .game import Game

    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError("not a game record (format must be 'christianity-game-record')")
    if record.get("version") != RECORD_VERSION:
        raise RecordError(f"record version {record.get('version')!r} is not supported (expected {RECORD_VERSION})")
    for key in ("mode", "lineup", "seed", "settings", "decks", "actions"):
        if key not in record:
            raise RecordError(f"record has no {key!r}")
    try:
        settings = Settings.from_dict(record["settings"])
        deck_files = [tuple(p) for p in record.get("deck_files") or []]
        if record.get("position") is not None:
            game = Game.from_position(record["position"], mode=record["mode"], lineup=record["lineup"],
                                      seed=record["seed"], settings=settings)
        else:
            game = Game.new(mode=record["mode"], lineup=record["lineup"], seed=record["seed"], settings=settings,
                            decks=record["decks"], extra_deck_texts=deck_files)
    except (TypeError, ValueError) as exc:
        raise RecordError(f"record cannot start its game: {exc}") from None
    actions = record["actions"]
    if not isinstance(actions, list):
        raise RecordError("record actions must be a list")
    for n, data in enumerate(actions[:upto] if upto is not None else actions):
        try:
            game.apply(action_from_json(data))
        except ValueError as exc:
            raise RecordError(f"action {n + 1} ({data!r}) does not apply: {exc}") from None
    return game
