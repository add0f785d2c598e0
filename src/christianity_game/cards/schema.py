"""The schema of card files (TOML), checked with pydantic: unknown keys are refused.

A deck file has one ``[deck]`` table and a list of ``[[cards]]``. A card entry either defines a
card in full (``name``, ``kind``, ...) or, with only ``id`` and ``copies``, repeats a card
defined in another file of the same set.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .model import CONDITION_TESTS, X_OF


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ConditionSpec(_Strict):
    test: Literal[
        "maturity_at_least", "maturity_at_most", "humility_at_least", "humility_at_most",
        "hand_at_most", "hand_at_least", "holds_habitual", "cost_zone_at_least",
    ]
    value: int = 0
    who: Literal["self", "target"] = "self"


WhoSpec = Literal["self", "teammate", "target", "each_righteous"]


class HumilitySpec(_Strict):
    op: Literal["humility"]
    amount: int = Field(description="signed: H+X gains, H-X loses")
    who: WhoSpec = "self"


class CountSpec(_Strict):
    op: Literal["draw", "rotate", "untap", "flip", "cost_zone"]
    count: int = Field(ge=1, le=10)
    who: WhoSpec = "self"


class DiscardSpec(_Strict):
    op: Literal["discard"]
    count: int = Field(ge=1, le=10)
    who: WhoSpec = "self"
    random: bool = False


class SearchSpec(_Strict):
    op: Literal["search"]
    kind: Literal["maturity", "resistance", "righteous_habitual", "action", "instant", "any"]
    count: int = Field(default=1, ge=1, le=3)


class RevealSpec(_Strict):
    op: Literal["reveal"]
    count: int = Field(ge=1, le=10)
    kind: Literal["maturity", "resistance", "righteous_habitual", "action", "instant", "any"]


class AttachSpec(_Strict):
    op: Literal["attach"]
    who: Literal["self", "teammate"] = "self"


class AmplifySpec(_Strict):
    op: Literal["amplify"]
    amount: int = Field(ge=1, le=5)


class RedirectSpec(_Strict):
    op: Literal["redirect"]


class IfSpec(_Strict):
    op: Literal["if"]
    cond: ConditionSpec
    then: list["EffectSpec"]
    otherwise: list["EffectSpec"] = []


EffectSpec = Annotated[
    Union[HumilitySpec, CountSpec, DiscardSpec, SearchSpec, RevealSpec, AttachSpec, AmplifySpec, RedirectSpec, IfSpec],
    Field(discriminator="op"),
]
IfSpec.model_rebuild()


class BoostSpec(_Strict):
    payer: Literal["you", "teammate", "any"]
    cost: int = Field(ge=0, le=10)
    fast: bool = False
    text: str
    effects: list[EffectSpec] = Field(min_length=1)

    @model_validator(mode="after")
    def _fast_ops(self) -> "BoostSpec":
        ops = {e.op for e in self.effects}
        if ({"amplify", "redirect"} & ops) and not self.fast:
            raise ValueError("fast :: amplify / redirect change the card's own action: they need fast = true")
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
        if any(e.op == "attach" for e in self.effects) and self.kind != "righteous_habitual":
            raise ValueError("effects :: only a Righteous Habitual attaches")
        if any(e.op in ("amplify", "redirect") for e in self.effects):
            raise ValueError("effects :: amplify / redirect belong on fast boosts, not on the card's own effects")
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
