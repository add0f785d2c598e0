"""Card definitions pinned into a game record, so a record stands alone.

A record names decks by id; the cards behind an id may change in a later version of this project
(balance work changes card data). So a record also carries the definitions it was played with:
every card of every deck it used, every card its game held, and a SHA-256 of that content. Replay
builds its card set from the pinned definitions, never from today's data files, so a record
replays with the cards it was played with whatever the bundled files say now.

The JSON shape (``"cards"`` in a record)::

    {"sha256": "<hex of the canonical JSON of the two tables below>",
     "cards": {card_id: {...every field of CardDef...}},
     "decks": {deck_id: {"name", "side", "description", "cards": [card ids, repeats for copies]}}}
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from typing import Any, Iterable

from pydantic import TypeAdapter, ValidationError

from .loader import CardFileError, CardSet
from .model import CardDef, Deck

_CARD = TypeAdapter(CardDef)


def card_to_json(card: CardDef) -> dict[str, Any]:
    """One card definition as plain JSON data (every field, nested effects included)."""
    data: dict[str, Any] = _CARD.dump_python(card, mode="json")
    return data


def card_from_json(data: Any) -> CardDef:
    """The card definition :func:`card_to_json` wrote."""
    return _CARD.validate_python(data)


def content_hash(cards: dict[str, Any], decks: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of pinned cards and decks: equal iff the content is equal."""
    text = json.dumps({"cards": cards, "decks": decks}, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


_PINNED: dict[tuple[int, frozenset[str], frozenset[str]], tuple[CardSet, dict[str, Any]]] = {}


def pin_cards(card_set: CardSet, card_ids: Iterable[str], deck_ids: Iterable[str]) -> dict[str, Any]:
    """The pinned form of the named decks and cards (each deck's cards are pinned with it).

    The same card set, cards and decks give the same (shared, never to be changed) table: most games
    use the starter set's decks, so their pins are worked out once a process."""
    ids, deck_set = frozenset(card_ids), frozenset(deck_ids)
    key = (id(card_set), ids, deck_set)
    hit = _PINNED.get(key)
    if hit is not None and hit[0] is card_set:
        return hit[1]
    pinned = _pin(card_set, ids, deck_set)
    if len(_PINNED) > 256:
        _PINNED.clear()
    _PINNED[key] = (card_set, pinned)
    return pinned


def _pin(card_set: CardSet, card_ids: Iterable[str], deck_ids: Iterable[str]) -> dict[str, Any]:
    decks: dict[str, Any] = {}
    wanted = set(card_ids)
    for deck_id in sorted(set(deck_ids)):
        deck = card_set.decks.get(deck_id)
        if deck is None:
            continue
        decks[deck_id] = {"name": deck.name, "side": deck.side, "description": deck.description,
                          "cards": list(deck.cards)}
        wanted.update(deck.cards)
    cards = {cid: card_to_json(card_set.cards[cid]) for cid in sorted(wanted)}
    return {"sha256": content_hash(cards, decks), "cards": cards, "decks": decks}


def unpin_cards(pinned: Any) -> CardSet:
    """The card set a record pinned; :class:`CardFileError` says what is wrong with a damaged one."""
    if not isinstance(pinned, dict) or not isinstance(pinned.get("cards"), dict) \
            or not isinstance(pinned.get("decks"), dict) or not isinstance(pinned.get("sha256"), str):
        raise CardFileError("pinned cards must be a table with 'sha256', 'cards' and 'decks'")
    cards_json, decks_json = pinned["cards"], pinned["decks"]
    if content_hash(cards_json, decks_json) != pinned["sha256"]:
        raise CardFileError("pinned cards do not match their sha256: the record was changed or damaged")
    cards: dict[str, CardDef] = {}
    for cid, data in cards_json.items():
        try:
            card = card_from_json(data)
        except ValidationError as exc:
            raise CardFileError(f"pinned card {cid!r}: {exc.errors()[0]['msg']} "
                                f"at {'.'.join(str(p) for p in exc.errors()[0]['loc'])}") from None
        if card.id != cid:
            raise CardFileError(f"pinned card {cid!r} says it is {card.id!r}")
        cards[cid] = card
    decks: dict[str, Deck] = {}
    for did, d in decks_json.items():
        try:
            ids = tuple(d["cards"])
            decks[did] = Deck(id=did, name=str(d["name"]), side=d["side"], description=str(d["description"]),
                              cards=ids)
        except (KeyError, TypeError) as exc:
            raise CardFileError(f"pinned deck {did!r} is incomplete: {exc}") from None
        missing = sorted(set(ids) - set(cards))
        if missing:
            raise CardFileError(f"pinned deck {did!r} names cards that are not pinned: {', '.join(missing)}")
    return CardSet(cards, decks)


def historic_starter_set(name: str) -> CardSet:
    """A frozen copy of the bundled starter set as it was at one point of the project's history.

    Records written before cards were pinned (record format 1) name decks only; they were played
    with the starter set of that time, kept here as ``cards/history/<name>.json``.
    """
    folder = resources.files("christianity_game.cards") / "history"
    data = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
    return unpin_cards(data)
