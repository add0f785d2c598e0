"""The card vocabulary the engine interprets: card definitions, effects, boosts and passives.

These are plain frozen value objects (fast to read on the engine's hot path). Card files are
validated by :mod:`christianity_game.cards.schema` and turned into these objects by
:mod:`christianity_game.cards.loader`; the engine never sees raw TOML.

Vocabulary (every mark and keyword of docs/rules.md, G-5):

* ``cost`` (``C<n>``): rotations paid to play the card.
* ``resistance`` (``R<n>`` or ``RX``): what resisting a threat takes; ``RX`` is computed from
  :class:`XRule` when the threat is played.
* effects, one ``op`` each: ``humility`` (H+X / H-X), ``draw``, ``discard``, ``search``,
  ``reveal``, ``rotate``, ``untap``, ``flip``, ``cost_zone``, ``attach``, ``if`` (conditional
  effects), and for fast boosts ``amplify`` and ``redirect``; each declared once in
  :mod:`christianity_game.cards.effect_ops` (:data:`EFFECT_OPS` is their names).
* boosts with a payer glyph (``you``, ``teammate``, ``any``) and the fast mark.
* passives of Habituals in play: draw, intake, resist discount, upkeep Humility, Ambush reward.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .effect_ops import EFFECT_OP_LIST

Side = Literal["righteous", "evil"]
Kind = Literal[
    "maturity", "resistance", "righteous_habitual", "action", "instant", "temptation", "evil_habitual"
]
Who = Literal["self", "teammate", "target", "each_righteous"]
Payer = Literal["you", "teammate", "any"]

RIGHTEOUS_KINDS: tuple[str, ...] = ("maturity", "resistance", "righteous_habitual", "action", "instant")
EVIL_KINDS: tuple[str, ...] = ("temptation", "evil_habitual")
THREAT_KINDS = EVIL_KINDS
EFFECT_OPS: tuple[str, ...] = tuple(op.name for op in EFFECT_OP_LIST)
CONDITION_TESTS: tuple[str, ...] = (
    "maturity_at_least", "maturity_at_most", "humility_at_least", "humility_at_most",
    "hand_at_most", "hand_at_least", "holds_habitual", "cost_zone_at_least",
)
X_OF: tuple[str, ...] = ("target_hand", "target_cost_zone", "target_maturity", "target_humility", "held_habituals")


@dataclass(frozen=True, slots=True)
class Condition:
    """A test on a seat, used by ``if`` effects (conditional effects)."""

    test: str
    value: int = 0
    who: Who = "self"

    def __repr__(self) -> str:
        return f"<Condition {self.who}.{self.test} {self.value}>"


@dataclass(frozen=True, slots=True)
class Effect:
    """One instruction of a card's rules text, in the typed vocabulary.

    ``amount`` is signed for ``humility`` (H+X / H-X); ``count`` is used by the other ops.
    """

    op: str
    amount: int = 0
    count: int = 0
    who: Who = "self"
    kind: str | None = None          # search / reveal: the card kind looked for
    random: bool = False             # discard: at random instead of by the seat's choice
    cond: Condition | None = None    # if
    then: tuple["Effect", ...] = ()  # if
    otherwise: tuple["Effect", ...] = ()  # if

    def __repr__(self) -> str:
        if self.op == "humility":
            return f"<H{self.amount:+d} {self.who}>"
        if self.op == "if":
            return f"<if {self.cond!r} then {list(self.then)!r} else {list(self.otherwise)!r}>"
        return f"<{self.op} {self.count or self.amount} {self.who}>"

    def needs_teammate(self) -> bool:
        """True when the effect is aimed at a teammate (P-7: solo pays the target-change fee)."""
        if self.who == "teammate":
            return True
        return any(e.needs_teammate() for e in self.then + self.otherwise)


@dataclass(frozen=True, slots=True)
class Boost:
    """An optional extra on a card (P-2..P-5): ``payer`` may pay ``cost`` to add ``effects``."""

    payer: Payer
    cost: int
    effects: tuple[Effect, ...]
    fast: bool = False
    text: str = ""
    #: True when an effect aims at a teammate (P-7); worked out once, read on the hot path
    needs_mate: bool = field(init=False, default=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "needs_mate", any(e.needs_teammate() for e in self.effects))

    def __repr__(self) -> str:
        bolt = "⚡" if self.fast else ""
        return f"<Boost {bolt}{self.payer} C{self.cost} {self.text!r}>"


@dataclass(frozen=True, slots=True)
class Passive:
    """Standing effects of a Habitual in play on the seat it is attached to / holds."""

    draw: int = 0              # extra (or fewer) cards in the Draw phase
    intake: int = 0            # extra (or fewer) Cost Zone intake per turn
    resist_discount: int = 0   # resistance costs this seat pays are lower by this much
    upkeep_humility: int = 0   # Humility change at the start of the seat's turn
    ambush_reward: int = 0     # "Resist an Ambush -> gain X - n Humility": n, 0 = none

    def is_empty(self) -> bool:
        return not (self.draw or self.intake or self.resist_discount or self.upkeep_humility or self.ambush_reward)


@dataclass(frozen=True, slots=True)
class XRule:
    """How ``RX`` is worked out when a threat is played: ``of`` + ``plus``."""

    of: str
    plus: int = 0


@dataclass(frozen=True, slots=True)
class Resists:
    """What a Resistance card can resist: threats whose resistance is at most ``max`` (None: any)."""

    max: int | None = None
    kinds: tuple[str, ...] = THREAT_KINDS


@dataclass(frozen=True, slots=True)
class CardDef:
    """One card as printed: identity, marks, text, and its effects in the typed vocabulary."""

    id: str
    name: str
    side: Side
    kind: Kind
    cost: int = 0
    resistance: int | None = None    # None for non-threats; see x_rule for RX
    x_rule: XRule | None = None
    subtypes: tuple[str, ...] = ()
    text: str = ""
    scripture: str = ""
    effects: tuple[Effect, ...] = ()
    boosts: tuple[Boost, ...] = ()
    passive: Passive = field(default_factory=Passive)
    resists: Resists | None = None
    #: True when the card's own effects aim at a teammate (P-7); worked out once
    aims_at_mate: bool = field(init=False, default=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "aims_at_mate", any(e.needs_teammate() for e in self.effects))

    def __repr__(self) -> str:
        return f"<CardDef {self.id} {self.kind} C{self.cost}{self.marks_suffix()}>"

    def marks_suffix(self) -> str:
        if self.kind in THREAT_KINDS:
            return " RX" if self.x_rule is not None else f" R{self.resistance}"
        return ""

    @property
    def is_threat(self) -> bool:
        return self.kind in THREAT_KINDS

    @property
    def is_ambush(self) -> bool:
        return "ambush" in self.subtypes

    @property
    def is_habitual(self) -> bool:
        return self.kind in ("righteous_habitual", "evil_habitual")

    def needs_teammate(self) -> bool:
        """True when the card's own effects are aimed at a teammate (P-7)."""
        return self.aims_at_mate


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck file: a named list of card ids (with repeats for copies) for one side."""

    id: str
    name: str
    side: Side
    description: str
    cards: tuple[str, ...]

    def __repr__(self) -> str:
        return f"<Deck {self.id} {self.side} {len(self.cards)} cards>"
