"""The card data of the duel's Evil deck as declared parameters, so the lab and the tuner can vary it.

Card data is ours to tune (it is not a stated rule), but a trial that plays changed cards must say
which: each parameter has a name, ``<field>.<card id>``, the printed value of the card files and
the values it may take. Three fields:

* ``cost.<card>``: the card's Cost (C), 0 to printed + 2;
* ``resistance.<card>``: a threat's fixed Resistance (R), printed - 2 to printed + 2, at least 1
  (a threat with an RX rule has no fixed Resistance and no such parameter);
* ``copies.<card>``: copies of the card in the duel Evil deck, 0 to printed + 2.

:func:`with_card_changes` returns a copy of a card set with changes applied (the files are not
touched); the lab plays such a set when a grid axis names a parameter (``--set
copies.the-broad-way=1,2``), and ``christianity-game tune --space`` may search them beside the
play-test variants. A card the duel deck takes from the co-op Evil deck (``pride``, ``envy``, ...)
is changed in the duel deck's games only, but a change a designer adopts in the card files would
reach co-op too; :attr:`CardParam.shared` says which.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

from .loader import CardSet, starter_set
from .model import THREAT_KINDS, Deck

#: the deck whose cards are declared parameters
DUEL_DECK = "duel-evil"
FIELDS = ("cost", "resistance", "copies")


@dataclass(frozen=True)
class CardParam:
    """One tunable number of the duel Evil deck: ``field`` of card ``card``.

    It reads like a :class:`~christianity_game.engine.variants.Variant` where the tuner needs one
    (``key`` and ``alias`` are its name, ``kind`` is ``"int"``, ``printed``, ``suggested``, ``low``,
    ``high``)."""

    field: str
    card: str
    name: str        # the card's printed name, for sentences
    printed: int
    low: int
    high: int
    shared: bool     # the card is defined by the co-op Evil deck's file too

    kind = "int"

    @property
    def key(self) -> str:
        return f"{self.field}.{self.card}"

    @property
    def alias(self) -> str:
        return self.key

    @property
    def suggested(self) -> int:
        return self.printed

    def __repr__(self) -> str:
        return f"<CardParam {self.key} printed {self.printed} ({self.low}-{self.high})>"

    def check(self, value: object) -> int:
        """The value, checked; a ValueError that names the parameter and its range."""
        if isinstance(value, bool) or not isinstance(value, int) or not self.low <= value <= self.high:
            raise ValueError(f"card parameter {self.key} must be a whole number from {self.low} to {self.high} "
                             f"(printed: {self.printed}), not {value!r}")
        return value

    def parse(self, text: str) -> int:
        """``"3"`` -> 3, checked."""
        try:
            value = int(text.strip())
        except ValueError:
            raise ValueError(f"card parameter {self.key} takes a whole number, not {text!r}") from None
        return self.check(value)

    def sentence(self, value: int) -> str:
        """What the change does, for reports: "Idle Words costs 2 (printed 1)"."""
        if self.field == "copies":
            return f"{value} cop{'y' if value == 1 else 'ies'} of {self.name} in the duel Evil deck (printed {self.printed})"
        if self.field == "cost":
            return f"{self.name} costs {value} (printed {self.printed})"
        return f"{self.name} has Resistance {value} (printed {self.printed})"


def _declare(cards: CardSet) -> tuple[CardParam, ...]:
    deck = cards.decks[DUEL_DECK]
    coop_ids = {cid for d in cards.decks_of("evil") if d.id != DUEL_DECK for cid in d.cards}
    params: list[CardParam] = []
    for cid in dict.fromkeys(deck.cards):
        card = cards[cid]
        shared = cid in coop_ids
        params.append(CardParam("cost", cid, card.name, card.cost, 0, card.cost + 2, shared))
        if card.kind in THREAT_KINDS and card.x_rule is None and card.resistance is not None:
            params.append(CardParam("resistance", cid, card.name, card.resistance, max(1, card.resistance - 2),
                                    card.resistance + 2, shared))
        copies = deck.cards.count(cid)
        params.append(CardParam("copies", cid, card.name, copies, 0, copies + 2, shared))
    return tuple(params)


@lru_cache(maxsize=1)
def card_params() -> tuple[CardParam, ...]:
    """Every declared parameter of the bundled duel Evil deck, card by card in deck order."""
    return _declare(starter_set())


def find_card_param(name: str) -> CardParam | None:
    """The parameter called ``name`` (``cost.idle-words``), or None when it is not one."""
    name = name.strip()
    field_name, sep, _ = name.partition(".")
    if not sep or field_name not in FIELDS:
        return None
    return next((p for p in card_params() if p.key == name), None)


def is_card_param_name(name: str) -> bool:
    """Whether ``name`` looks like a card parameter (``<cost|resistance|copies>.<card>``), known or not:
    a misspelt one is refused as a card parameter, not as an unknown setting."""
    field_name, sep, rest = name.strip().partition(".")
    return bool(sep and rest) and field_name in FIELDS


def card_param(name: str) -> CardParam:
    """The parameter called ``name``; a ValueError that says what exists otherwise."""
    p = find_card_param(name)
    if p is None:
        field_name, _, card = name.strip().partition(".")
        known = sorted({q.card for q in card_params()})
        if card in known:
            raise ValueError(f"card {card!r} has no {field_name} parameter (its threat Resistance is an RX rule)")
        raise ValueError(f"unknown card parameter {name.strip()!r}: the duel Evil deck's cards are {', '.join(known)} "
                         f"and each has {', '.join(FIELDS)} (resistance for fixed-R threats only)")
    return p


def with_card_changes(cards: CardSet, changes: Mapping[str, int]) -> CardSet:
    """A copy of ``cards`` with ``changes`` (parameter name -> value) applied; ``cards`` is unchanged.
    An empty mapping gives ``cards`` itself."""
    if not changes:
        return cards
    defs = dict(cards.cards)
    deck = cards.decks[DUEL_DECK]
    order = list(dict.fromkeys(deck.cards))
    copies = {cid: deck.cards.count(cid) for cid in order}
    for name, value in changes.items():
        p = card_param(name)
        p.check(value)
        if p.field == "copies":
            copies[p.card] = value
        elif p.field == "cost":
            defs[p.card] = dataclasses.replace(defs[p.card], cost=value)
        else:
            defs[p.card] = dataclasses.replace(defs[p.card], resistance=value)
    if not any(copies.values()):
        raise ValueError("card changes would leave the duel Evil deck empty")
    new_deck = Deck(deck.id, deck.name, deck.side, deck.description,
                    tuple(cid for cid in order for _ in range(copies[cid])))
    return CardSet(defs, {**cards.decks, DUEL_DECK: new_deck})


def changes_text(changes: Mapping[str, int]) -> str:
    """Changes as ``--set`` items take them: ``copies.the-broad-way=2,cost.idle-words=2``."""
    return ",".join(f"{k}={v}" for k, v in changes.items())


def changes_sentence(changes: Mapping[str, int]) -> str:
    """Changes for people: "Card changes: Idle Words costs 2 (printed 1); ..." ("" for none)."""
    if not changes:
        return ""
    return "Card changes: " + "; ".join(card_param(k).sentence(v) for k, v in changes.items()) + "."
