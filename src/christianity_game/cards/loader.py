"""Loading card files: TOML -> schema check -> :class:`CardSet` of :class:`CardDef` and :class:`Deck`.

Every error names the file, the card and the field (``CardFileError``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

from pydantic import ValidationError

from .effect_ops import EFFECT_OP, Param
from .model import Boost, CardDef, Condition, Deck, Effect, Passive, Resists, XRule
from .schema import BoostSpec, CardSpec, DeckFile, EffectSpec


class CardFileError(ValueError):
    """A card file is broken: the message names the file, the card and the field."""


@dataclass(frozen=True)
class CardSet:
    """Cards by id and decks by id; the starter set or any set of deck files."""

    cards: dict[str, CardDef]
    decks: dict[str, Deck]

    def __repr__(self) -> str:
        return f"<CardSet {len(self.cards)} cards, decks {sorted(self.decks)}>"

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.cards.values())

    def __getitem__(self, card_id: str) -> CardDef:
        return self.cards[card_id]

    def decks_of(self, side: str) -> list[Deck]:
        return [d for d in self.decks.values() if d.side == side]

    def merged(self, other: "CardSet") -> "CardSet":
        """This set plus another (a user's deck file); a clash of ids is an error."""
        for cid, card in other.cards.items():
            if cid in self.cards and self.cards[cid] != card:
                raise CardFileError(f"card {cid!r} is defined differently in two files")
        for did in other.decks:
            if did in self.decks:
                raise CardFileError(f"deck {did!r} is defined twice")
        return CardSet({**self.cards, **other.cards}, {**self.decks, **other.decks})


def _value(param: Param, value: Any) -> Any:
    """A card file's checked value for ``param`` as the :class:`Effect` field holds it."""
    if param.values == "condition":
        return Condition(test=value.test, value=value.value, who=value.who)
    if param.values == "effects":
        return tuple(_effect(e) for e in value)
    return value


def _effect(spec: Any) -> Effect:
    op = EFFECT_OP[spec.op]   # the fields the op takes from the file, and those it sets itself
    values: dict[str, Any] = {p.name: _value(p, getattr(spec, p.name)) for p in op.shape.params}
    values.update(op.fixed)
    return Effect(op=spec.op, **values)


def _boost(spec: BoostSpec) -> Boost:
    return Boost(payer=spec.payer, cost=spec.cost, fast=spec.fast, text=spec.text,
                 effects=tuple(_effect(e) for e in spec.effects))


def card_from_spec(spec: CardSpec, side: str) -> CardDef:
    """The engine's card value from a checked schema entry."""
    assert spec.name is not None and spec.kind is not None
    card_side = spec.side or side
    resistance = None
    x_rule = None
    if spec.resistance == "X":
        assert spec.x is not None
        x_rule = XRule(of=spec.x.of, plus=spec.x.plus)
    elif spec.resistance is not None:
        resistance = int(spec.resistance)
    return CardDef(
        id=spec.id, name=spec.name, side=card_side, kind=spec.kind,  # type: ignore[arg-type]
        cost=spec.cost, resistance=resistance, x_rule=x_rule, subtypes=tuple(spec.subtypes),
        text=spec.text, scripture=spec.scripture,
        effects=tuple(_effect(e) for e in spec.effects),
        boosts=tuple(_boost(b) for b in spec.boosts),
        passive=Passive(**spec.passive.model_dump()),
        resists=Resists(max=spec.resists.max, kinds=tuple(spec.resists.kinds)) if spec.resists else None,
    )


def _describe(err: ValidationError, doc: dict[str, Any]) -> str:
    parts = []
    for e in err.errors():
        loc = list(e["loc"])
        where = ""
        if len(loc) >= 2 and loc[0] == "cards" and isinstance(loc[1], int):
            idx = loc[1]
            cards = doc.get("cards") or []
            cid = cards[idx].get("id", f"#{idx + 1}") if idx < len(cards) and isinstance(cards[idx], dict) else f"#{idx + 1}"
            path = [str(x) for x in loc[2:] if not str(x).endswith("Spec")]
            msg = str(e["msg"]).removeprefix("Value error, ")
            if " :: " in msg:   # a check across fields names the field it is about
                name, msg = msg.split(" :: ", 1)
                path.append(name)
            where = f"card {cid!r}, field {'.'.join(path) or '(card)'}"
            parts.append(f"{where}: {msg}")
            continue
        else:
            where = "field " + ".".join(str(x) for x in loc)
        parts.append(f"{where}: {str(e['msg']).replace(' :: ', ': ')}")
    return "; ".join(parts)


def parse_deck_text(text: str, source: str) -> tuple[DeckFile, dict[str, Any]]:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CardFileError(f"{source}: not valid TOML: {exc}") from None
    try:
        return DeckFile.model_validate(doc), doc
    except ValidationError as exc:
        raise CardFileError(f"{source}: {_describe(exc, doc)}") from None


def load_texts(texts: Iterable[tuple[str, str]], base: CardSet | None = None) -> CardSet:
    """Build a card set from (source name, TOML text) pairs, on top of ``base`` if given."""
    cards: dict[str, CardDef] = dict(base.cards) if base else {}
    decks: dict[str, Deck] = dict(base.decks) if base else {}
    pending: list[tuple[str, DeckFile]] = []
    for source, text in texts:
        deck_file, _ = parse_deck_text(text, source)
        for spec in deck_file.cards:
            if spec.is_reference:
                continue
            card = card_from_spec(spec, deck_file.deck.side)
            if spec.id in cards and cards[spec.id] != card and not (base and spec.id in base.cards):
                raise CardFileError(f"{source}: card {spec.id!r} is defined twice, differently")
            cards[spec.id] = card
        pending.append((source, deck_file))
    for source, deck_file in pending:
        ids: list[str] = []
        for spec in deck_file.cards:
            if spec.id not in cards:
                raise CardFileError(f"{source}: card {spec.id!r}, field id: no such card is defined in this set")
            if cards[spec.id].side != deck_file.deck.side:
                raise CardFileError(
                    f"{source}: card {spec.id!r}, field side: a {cards[spec.id].side} card in a {deck_file.deck.side} deck")
            ids.extend([spec.id] * spec.copies)
        if deck_file.deck.id in decks and not (base and deck_file.deck.id in base.decks):
            raise CardFileError(f"{source}: deck {deck_file.deck.id!r} is defined twice")
        decks[deck_file.deck.id] = Deck(
            id=deck_file.deck.id, name=deck_file.deck.name, side=deck_file.deck.side,
            description=deck_file.deck.description, cards=tuple(ids))
    return CardSet(cards, decks)


def load_files(paths: Iterable[str | Path], base: CardSet | None = None) -> CardSet:
    """Load deck files from disk (a user's ``--deck`` file), on top of ``base`` (the starter set)."""
    texts = []
    for p in paths:
        path = Path(p)
        try:
            texts.append((str(path), path.read_text(encoding="utf-8")))
        except OSError as exc:
            raise CardFileError(f"{path}: cannot read the file: {exc.strerror}") from None
    return load_texts(texts, base)


@lru_cache(maxsize=1)
def starter_set() -> CardSet:
    """The bundled starter set: three Righteous decks and the Evil deck."""
    folder = resources.files("christianity_game.cards") / "data"
    texts = sorted((f"cards/data/{entry.name}", entry.read_text(encoding="utf-8"))
                   for entry in folder.iterdir() if entry.name.endswith(".toml"))
    return load_texts(texts)


_ = EffectSpec  # re-exported name kept for the glossary generator
