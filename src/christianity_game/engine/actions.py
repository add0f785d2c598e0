"""Actions: frozen, typed, JSON round-trippable values, one class per kind of move.

Every action names the seat that takes it. ``action_from_json`` checks a JSON object and raises
:class:`IllegalAction` (code ``malformed``) for anything that is not a well-formed action.
"""

from __future__ import annotations

from dataclasses import MISSING, Field, dataclass, fields
from functools import lru_cache
from typing import Any, ClassVar


class IllegalAction(ValueError):
    """An action refused by the engine; the state is unchanged. ``code`` is machine-readable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


_FIELDS: dict[type, tuple[Field[Any], ...]] = {}


def _fields_of(cls: type) -> tuple[Field[Any], ...]:
    """An action class's fields, worked out once per class (``dataclasses.fields`` is slow)."""
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = fields(cls)
    return found


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action: the seat (0-based) that takes it."""

    seat: int
    type_name: ClassVar[str] = "Action"

    def check_types(self) -> None:
        """Refuse an action whose fields have the wrong types (``IllegalAction('malformed')``):
        ``False`` or ``0.0`` compare equal to ``0`` and must not pass for a seat or a card."""
        for f in _fields_of(type(self)):
            value = getattr(self, f.name)
            if f.name in TEXT_FIELDS:
                if type(value) is not str:
                    raise IllegalAction("malformed", f"{self.type_name}.{f.name} must be text, not {value!r}")
            elif value is None:
                if f.default is not None:
                    raise IllegalAction("malformed", f"{self.type_name}.{f.name} is required")
            elif type(value) is not int:
                raise IllegalAction("malformed", f"{self.type_name}.{f.name} must be a whole number, not {value!r}")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type_name}
        for f in _fields_of(type(self)):
            value = getattr(self, f.name)
            if value is not None:
                out[f.name] = value
        return out


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Pass: end laying, decline to respond, end a phase, stop taking boosts, or finish a choice."""

    type_name: ClassVar[str] = "Pass"

    def __repr__(self) -> str:
        return f"<Pass seat={self.seat}>"


@dataclass(frozen=True, slots=True)
class LayCostZone(Action):
    """Cost Zone phase (Z-3): put a card from hand into your Cost Zone, face down."""

    card: int
    type_name: ClassVar[str] = "LayCostZone"

    def __repr__(self) -> str:
        return f"<LayCostZone seat={self.seat} card={self.card}>"


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    """Play a card from hand (or face up from the Cost Zone). ``threat``: what a Resistance card
    resists; ``to_seat``: the teammate the card is aimed at (yourself, with the fee, in solo)."""

    card: int
    threat: int | None = None
    to_seat: int | None = None
    type_name: ClassVar[str] = "PlayCard"

    def __repr__(self) -> str:
        extra = "" if self.threat is None else f" threat={self.threat}"
        extra += "" if self.to_seat is None else f" to_seat={self.to_seat}"
        return f"<PlayCard seat={self.seat} card={self.card}{extra}>"


@dataclass(frozen=True, slots=True)
class Resist(Action):
    """Rotate ``amount`` of your own Cost Zone cards toward a threat's resistance cost."""

    threat: int
    amount: int
    type_name: ClassVar[str] = "Resist"

    def __repr__(self) -> str:
        return f"<Resist seat={self.seat} threat={self.threat} amount={self.amount}>"


@dataclass(frozen=True, slots=True)
class TakeBoost(Action):
    """The card's player takes boost ``index``; ``payer`` pays it (P-2, P-3)."""

    index: int
    payer: int
    to_seat: int | None = None
    type_name: ClassVar[str] = "TakeBoost"

    def __repr__(self) -> str:
        extra = "" if self.to_seat is None else f" to_seat={self.to_seat}"
        return f"<TakeBoost seat={self.seat} index={self.index} payer={self.payer}{extra}>"


@dataclass(frozen=True, slots=True)
class UseAbility(Action):
    """Use a Maturity Ability the team holds (Deliverance, Restoration, Brotherly Love)."""

    ability: str
    to_seat: int | None = None
    type_name: ClassVar[str] = "UseAbility"

    def __repr__(self) -> str:
        extra = "" if self.to_seat is None else f" to_seat={self.to_seat}"
        return f"<UseAbility seat={self.seat} {self.ability}{extra}>"


@dataclass(frozen=True, slots=True)
class BuyAbility(Action):
    """Buy a Maturity Ability right after your Cost Zone phase (A-2: 11 or 7 Cost)."""

    ability: str
    type_name: ClassVar[str] = "BuyAbility"

    def __repr__(self) -> str:
        return f"<BuyAbility seat={self.seat} {self.ability}>"


@dataclass(frozen=True, slots=True)
class ChooseAbility(Action):
    """Pick the free ability earned at a new shared Maturity Level (A-2, A-3)."""

    ability: str
    type_name: ClassVar[str] = "ChooseAbility"

    def __repr__(self) -> str:
        return f"<ChooseAbility seat={self.seat} {self.ability}>"


@dataclass(frozen=True, slots=True)
class Choose(Action):
    """Pick one option of the open choice (a card to discard, a card to find, a Habitual to break)."""

    option: int
    type_name: ClassVar[str] = "Choose"

    def __repr__(self) -> str:
        return f"<Choose seat={self.seat} option={self.option}>"


@dataclass(frozen=True, slots=True)
class ChooseReward(Action):
    """Duel: take an earned micro-reward (Evil: draw, untap, flip, destroy) or micro-boost
    (Righteous: draw, humility); ``to_seat`` directs it to an ally where the rules allow."""

    reward: str
    to_seat: int | None = None
    type_name: ClassVar[str] = "ChooseReward"

    def __repr__(self) -> str:
        extra = "" if self.to_seat is None else f" to_seat={self.to_seat}"
        return f"<ChooseReward seat={self.seat} {self.reward}{extra}>"


@dataclass(frozen=True, slots=True)
class AdjustBadge(Action):
    """Manual adjustment (S-8): set your own Humility or Maturity by hand. Never in legal_actions."""

    badge: str
    value: int
    type_name: ClassVar[str] = "AdjustBadge"

    def __repr__(self) -> str:
        return f"<AdjustBadge seat={self.seat} {self.badge}={self.value}>"


@dataclass(frozen=True, slots=True)
class Undo(Action):
    """Take back this seat's last action (engine/table.py says when). Never in legal_actions."""

    type_name: ClassVar[str] = "Undo"

    def __repr__(self) -> str:
        return f"<Undo seat={self.seat}>"


@dataclass(frozen=True, slots=True)
class OfferEnd(Action):
    """Duel: offer to end the game now on the stalemate score (D-SCORE). Never in legal_actions."""

    type_name: ClassVar[str] = "OfferEnd"

    def __repr__(self) -> str:
        return f"<OfferEnd seat={self.seat}>"


@dataclass(frozen=True, slots=True)
class AnswerEnd(Action):
    """Duel: the other side's answer to an offer to end: ``answer`` is "accept" or "decline"."""

    answer: str
    type_name: ClassVar[str] = "AnswerEnd"

    def __repr__(self) -> str:
        return f"<AnswerEnd seat={self.seat} {self.answer}>"


#: actions about the table rather than the rules: never in legal_actions, checked by engine/table.py
TABLE_ACTIONS: tuple[type[Action], ...] = (AdjustBadge, Undo, OfferEnd, AnswerEnd)

TEXT_FIELDS = frozenset({"ability", "badge", "reward", "answer"})

ACTION_TYPES: dict[str, type[Action]] = {
    cls.type_name: cls
    for cls in (Pass, LayCostZone, PlayCard, Resist, TakeBoost, UseAbility, BuyAbility, ChooseAbility, Choose,
                ChooseReward, AdjustBadge, Undo, OfferEnd, AnswerEnd)
}


def action_from_json(data: Any) -> Action:
    """The action a JSON object describes; ``IllegalAction('malformed', ...)`` if it is not one."""
    if not isinstance(data, dict):
        raise IllegalAction("malformed", "an action must be a JSON object")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise IllegalAction("malformed", f"unknown action type {kind!r}; known: {', '.join(ACTION_TYPES)}")
    kwargs: dict[str, Any] = {}
    names = {f.name: f for f in fields(cls)}
    for key, value in data.items():
        if key == "type":
            continue
        if key not in names:
            raise IllegalAction("malformed", f"{kind} has no field {key!r}")
        kwargs[key] = value
    for name, f in names.items():
        if name not in kwargs:
            if f.default is MISSING:
                raise IllegalAction("malformed", f"{kind} needs field {name!r}")
            continue
        value = kwargs[name]
        want_str = name in TEXT_FIELDS
        if want_str:
            if not isinstance(value, str):
                raise IllegalAction("malformed", f"{kind}.{name} must be a string")
        elif value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise IllegalAction("malformed", f"{kind}.{name} must be a whole number")
    action = cls(**kwargs)
    action.check_types()
    return action


# Actions are values: the move generator reuses one object per distinct action instead of building
# thousands of frozen dataclasses per game (a constructor call costs about 1 us). Equal to a freshly
# built action in every way; only the identity is shared.
intern_pass = lru_cache(maxsize=None)(Pass)
intern_play = lru_cache(maxsize=None)(PlayCard)
intern_resist = lru_cache(maxsize=None)(Resist)
intern_boost = lru_cache(maxsize=None)(TakeBoost)
intern_use = lru_cache(maxsize=None)(UseAbility)
intern_buy = lru_cache(maxsize=None)(BuyAbility)
intern_pick = lru_cache(maxsize=None)(ChooseAbility)
intern_reward = lru_cache(maxsize=None)(ChooseReward)


@lru_cache(maxsize=None)
def intern_resists(seat: int, threat: int, most: int) -> tuple[Resist, ...]:
    """The Resist actions paying 1, 2 ... ``most`` toward ``threat`` (one shared tuple each)."""
    return tuple(intern_resist(seat, threat, k) for k in range(1, most + 1))


@lru_cache(maxsize=None)
def intern_threat_plays(seat: int, threat: int, targets: tuple[int, ...]) -> tuple[PlayCard, ...]:
    """A duel threat played at each of ``targets`` (one shared tuple per seat, card and targets)."""
    return tuple(intern_play(seat, threat, None, t) for t in targets)


class _ByOption(dict):  # type: ignore[type-arg]
    """One seat's interned actions of one kind by their one argument (a card or an option), each
    made on first ask: ``map(table.__getitem__, uids)`` lists them without a Python call per item."""

    __slots__ = ("make", "seat")

    def __init__(self, make: Any, seat: int) -> None:
        super().__init__()
        self.make = make
        self.seat = seat

    def __missing__(self, key: Any) -> Action:
        action: Action = self.make(self.seat, key)
        self[key] = action
        return action


class _BySeat(dict):  # type: ignore[type-arg]
    """Seat -> its :class:`_ByOption` table for one action kind."""

    __slots__ = ("make",)

    def __init__(self, make: Any) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, seat: int) -> _ByOption:
        table = self[seat] = _ByOption(self.make, seat)
        return table


#: seat -> {card: its LayCostZone}; seat -> {option: its Choose}: one shared object per action
LAYS = _BySeat(LayCostZone)
CHOICES = _BySeat(Choose)
