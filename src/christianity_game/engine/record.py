"""Game records and replay (G-6): settings + seed + decks (+ position) + the list of actions.

A record pins what it was played with, so that it replays as it was played after any upgrade:

* ``rules``: the rules version (:mod:`.versions`); a record made under rules this engine no longer
  plays, or newer ones, is refused before any action is replayed, with both versions named;
* ``cards``: the definitions of every card and deck the game used, with their SHA-256
  (:mod:`christianity_game.cards.pinning`); replay builds its cards from these, never from
  today's data files.

Format 1 records (before pinning) carry neither: they were played under rules 1 with the starter
set of that time, which is kept frozen for them (``cards/history/starter-2026-11.json``).
"""

from __future__ import annotations

import pickle
import re
from typing import TYPE_CHECKING, Any, Mapping

from ..cards.loader import CardFileError, CardSet, load_texts
from ..cards.pinning import historic_starter_set, pin_cards, unpin_cards
from .versions import RECORD_FORMAT_VERSION, rules_support

if TYPE_CHECKING:
    from .base import GameBase

RECORD_FORMAT = "christianity-game-record"
RECORD_VERSION = RECORD_FORMAT_VERSION
#: The starter set that format-1 records were played with.
FORMAT1_STARTER = "starter-2026-11"
#: A seed written as text: decimal digits (an optional minus sign). 128 random bits are 39 digits;
#: the cap keeps a hostile upload from costing a long parse.
_SEED_TEXT = re.compile(r"-?[0-9]{1,100}")


class RecordError(ValueError):
    """A saved game that cannot be replayed: the message says which part is wrong."""


class UnsupportedRules(RecordError):
    """A record played under rules this engine does not play; the message names both versions."""

    def __init__(self, message: str, record_rules: Any) -> None:
        super().__init__(message)
        self.record_rules = record_rules


def pinned_cards(game: "GameBase") -> dict[str, Any]:
    """The pinned card definitions of ``game``: its decks and every card it holds."""
    deck_ids = {deck_id for deck_id, _ in game.deck_lists}
    deck_ids.update(sd.deck_id for sd in game.state.seats if sd.deck_id)
    position = game._position
    if position is not None:
        for spec in position.get("seats", []):
            if isinstance(spec, dict) and isinstance(spec.get("deck_from"), str):
                deck_ids.add(spec["deck_from"])
    return pin_cards(game.cards, {card.id for card in game.defs}, deck_ids)


def make_record(game: "GameBase") -> dict[str, Any]:
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "rules": game.rules,
        "mode": game.mode.name,
        "lineup": game.lineup,
        "seed": game.seed,
        "settings": game.settings.to_dict(),
        "decks": [deck_id for deck_id, _ in game.deck_lists],
        "deck_files": [list(pair) for pair in game.extra_deck_texts],
        "position": game._position,
        # the record is the caller's to change: a copy (a pickle round trip is 7x faster than deepcopy)
        "cards": pickle.loads(pickle.dumps(game.pinned_cards(), pickle.HIGHEST_PROTOCOL)),
        "actions": [a.to_json() for a in game.actions],
    }


def check_record(record: Any) -> int:
    """Check a record's head before replaying anything; returns the rules version it was played under.

    Raises :class:`UnsupportedRules` for rules this engine does not play, :class:`RecordError` for
    anything else wrong with the head (format, version, missing keys)."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError("not a game record (format must be 'christianity-game-record')")
    version = record.get("version")
    if type(version) is not int or version not in (1, RECORD_VERSION):
        raise RecordError(f"record version {version!r} is not supported (this program reads versions 1 to "
                          f"{RECORD_VERSION})")
    for key in ("mode", "lineup", "seed", "settings", "decks", "actions") + (("rules", "cards") if version >= 2 else ()):
        if key not in record:
            raise RecordError(f"record has no {key!r}")
    rules = record.get("rules", 1)
    why = rules_support(rules)
    if why is not None:
        raise UnsupportedRules(f"record cannot be replayed: {why}", rules)
    assert isinstance(rules, int)
    return rules


def record_seed(value: Any) -> int:
    """A record's ``seed`` as the whole number it is: an integer (every record before the server
    wrote seeds as text, and every record ``Game.to_record`` makes), or a decimal string of one
    (the server's records: a JavaScript client reads JSON numbers as doubles, which keep 53 bits
    of a 128-bit seed). Anything else raises :class:`RecordError` naming the field."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and _SEED_TEXT.fullmatch(value):
        return int(value)
    why = ""
    if isinstance(value, float):   # what a 128-bit seed becomes after JSON.parse + JSON.stringify
        why = (": a seed written as a floating-point number has lost its digits (a program that reads JSON "
               "numbers as doubles, such as a browser, rewrote the record); download the record again")
    raise RecordError(f"record seed must be a whole number, or a decimal string of one such as "
                      f"\"12345\", not {value!r}{why}")


def record_cards(record: Mapping[str, Any]) -> tuple[CardSet, tuple[tuple[str, str], ...]]:
    """The card set a record was played with, and its user deck files (name, TOML)."""
    raw_files = record.get("deck_files") or []
    if not isinstance(raw_files, list) or not all(isinstance(p, (list, tuple)) and len(p) == 2 for p in raw_files):
        raise RecordError("record deck_files must be a list of [name, TOML text] pairs")
    deck_files = tuple((str(p[0]), str(p[1])) for p in raw_files)
    try:
        if record.get("version") == 1:
            base = historic_starter_set(FORMAT1_STARTER)
            return (load_texts(deck_files, base) if deck_files else base), deck_files
        return unpin_cards(record["cards"]), deck_files
    except CardFileError as exc:
        raise RecordError(f"record cards: {exc}") from None

