"""The schema of card files (TOML), checked with pydantic: unknown keys are refused.

A deck file has one ``[deck]`` table and a list of ``[[cards]]``. A card entry either defines a
card in full (``name``, ``kind``, ...) or, with only ``id`` and ``copies``, repeats a card
defined in another file of the same set.

An effect's entry is the spec of its op's shape (:data:`SPECS`), made from the declarations of
:mod:`~christianity_game.cards.effect_ops`: the ops each spec takes, its fields with their limits
and defaults, and which ops belong on fast boosts only. Nothing here names an effect op.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias, Union

from pydantic import BaseModel, ConfigDict, Field, create_model, model_validator

from .effect_ops import EFFECT_OP_LIST, SHAPES, Param, Shape, ops_of_shape
from .model import CONDITION_TESTS, X_OF

#: ops only a fast boost may carry, and the words of the checks that say so
FAST_OPS: tuple[str, ...] = tuple(op.name for op in EFFECT_OP_LIST if op.fast_only)
_FAST_WORDS = " / ".join(FAST_OPS)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ConditionSpec(_Strict):
    test: Literal[
        "maturity_at_least", "maturity_at_most", "humility_at_least", "humility_at_most",
        "hand_at_most", "hand_at_least", "holds_habitual", "cost_zone_at_least",
    ]
    value: int = 0
    who: Literal["self", "target"] = "self"


class _EffectEntry(_Strict):
    """What every effect entry has: its ``op`` (each shape's spec takes only the ops of its shape)."""

    op: str


def _literal(values: tuple[str, ...]) -> Any:
    return Literal.__getitem__(values)


def _annotation(p: Param) -> Any:
    """The type a card file's value for ``p`` is checked against."""
    if isinstance(p.values, tuple):
        return _literal(p.values)
    return {"int": int, "bool": bool, "condition": ConditionSpec, "effects": list["EffectSpec"]}[p.values]


def _spec(shape: Shape) -> type[_EffectEntry]:
    """The schema entry of ``shape``: ``op`` (one of the shape's ops), then its fields."""
    fields: dict[str, Any] = {"op": (_literal(ops_of_shape(shape)), ...)}
    for p in shape.params:
        default: Any = ... if p.required else ([] if p.values == "effects" else p.default)
        fields[p.name] = (_annotation(p), Field(default, ge=p.low, le=p.high, description=p.note or None))
    name = "".join(word.capitalize() for word in shape.name.split("_")) + "Spec"
    return create_model(name, __base__=_EffectEntry, __module__=__name__, **fields)


#: a shape's name -> the spec a card file fills for its ops (``CountSpec``, ``DiscardSpec``, ...)
SPECS: dict[str, type[_EffectEntry]] = {shape.name: _spec(shape) for shape in SHAPES}

if TYPE_CHECKING:
    EffectSpec: TypeAlias = _EffectEntry
else:   # one of the specs, told apart by ``op``
    EffectSpec = Annotated[Union[tuple(SPECS.values())], Field(discriminator="op")]
for _entry in SPECS.values():   # the nested effects of a conditional
    _entry.model_rebuild(_types_namespace={"EffectSpec": EffectSpec})


class BoostSpec(_Strict):
    payer: Literal["you", "teammate", "any"]
    cost: int = Field(ge=0, le=10)
    fast: bool = False
    text: str
    effects: list[EffectSpec] = Field(min_length=1)

    @model_validator(mode="after")
    def _fast_ops(self) -> "BoostSpec":
        ops = {e.op for e in self.effects}
        if (set(FAST_OPS) & ops) and not self.fast:
            raise ValueError(f"fast :: {_FAST_WORDS} change the card's own action: they need fast = true")
        return self


class PassiveSpec(_Strict):
    draw: int = Field(default=0, ge=-3, le=3)
    intake: int = Field(default=0, ge=-3, le=3)
    resist_discount: int = Field(default=0, ge=0, le=3)
    upkeep_humility: int = Field(default=0, ge=-3, le=3)
    ambush_reward: int = Field(default=0, ge=0, le=10)


class XRuleSpec(_Strict):
    of: Literal["target_hand", "target_cost_zone", "target_maturity", "target_humility", "held_habituals"]
    plus: int = Field(default=0, ge=-5, le=10)


class ResistsSpec(_Strict):
    max: int | None = Field(default=None, ge=0)
    kinds: list[Literal["temptation", "evil_habitual"]] = ["temptation", "evil_habitual"]


class CardSpec(_Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    copies: int = Field(default=1, ge=1, le=10)
    name: str | None = None
    side: Literal["righteous", "evil"] | None = None
    kind: Literal[
        "maturity", "resistance", "righteous_habitual", "action", "instant", "temptation", "evil_habitual"
    ] | None = None
    cost: int = Field(default=0, ge=0, le=12)
    resistance: int | Literal["X"] | None = None
    x: XRuleSpec | None = None
    subtypes: list[Literal["ambush"]] = []
    text: str = ""
    scripture: str = ""
    effects: list[EffectSpec] = []
    boosts: list[BoostSpec] = []
    passive: PassiveSpec = PassiveSpec()
    resists: ResistsSpec | None = None

    @property
    def is_reference(self) -> bool:
        return self.name is None and self.kind is None

    @model_validator(mode="after")
    def _consistent(self) -> "CardSpec":
        if self.is_reference:
            return self
        if self.name is None or self.kind is None:
            raise ValueError("name :: a card needs both name and kind (or neither, to repeat a card defined elsewhere)")
        if not self.text:
            raise ValueError("text :: a card needs its printed rules text")
        threat = self.kind in ("temptation", "evil_habitual")
        if threat and self.resistance is None:
            raise ValueError("resistance :: a Temptation or Evil Habitual needs a resistance (a number or \"X\")")
        if not threat and self.resistance is not None:
            raise ValueError("resistance :: only Temptations and Evil Habituals have a resistance")
        if self.resistance == "X" and self.x is None:
            raise ValueError('x :: resistance = "X" needs an x table saying what X is')
        if self.x is not None and self.resistance != "X":
            raise ValueError('x :: an x table needs resistance = "X"')
        if self.kind == "resistance" and self.resists is None:
            raise ValueError("resists :: a Resistance card needs a resists table")
        if self.kind != "resistance" and self.resists is not None:
            raise ValueError("resists :: only Resistance cards have a resists table")
        if self.subtypes and self.kind != "temptation":
            raise ValueError("subtypes :: only Temptations can be an Ambush")
        for op in EFFECT_OP_LIST:
            if op.only_on is not None and self.kind != op.only_on[0] and any(e.op == op.name for e in self.effects):
                raise ValueError(f"effects :: {op.only_on[1]}")
        if any(e.op in FAST_OPS for e in self.effects):
            raise ValueError(f"effects :: {_FAST_WORDS} belong on fast boosts, not on the card's own effects")
        if not self.passive.model_dump(exclude_defaults=True) == {} and self.kind not in ("righteous_habitual", "evil_habitual"):
            raise ValueError("passive :: only Habituals have passives")
        return self


class DeckHeader(_Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str
    side: Literal["righteous", "evil"]
    description: str = ""


class DeckFile(_Strict):
    deck: DeckHeader
    cards: list[CardSpec] = Field(min_length=1)


# Kept in step with the model's tuples (checked by a test).
SCHEMA_CONDITION_TESTS = CONDITION_TESTS
SCHEMA_X_OF = X_OF
