"""Actions: frozen, typed, JSON round-trippable values, one class per kind of move.

Every action names the seat that takes it. ``action_from_json`` checks a JSON object and raises
:class:`IllegalAction` (code ``malformed``) for anything that is not a well-formed action.

Each action class declares, in one place, as class-level data: ``type_name`` (its JSON kind; its
JSON fields are its dataclass fields, ``seat`` first, and ``text_fields`` names those that are
text), ``description`` (one sentence for players), ``undone`` (what it was, in the words of
the log line that says it was taken back), ``refusals`` (the refusal codes ``Game.apply``
may raise for it beyond :data:`RULE_REFUSALS` or :data:`TABLE_REFUSALS`, each with its meaning:
:func:`refusal_codes`) and ``env_block`` / ``env_fields`` (the learning environment's index block
and the fields, in the block's key order, that name it there; empty for a table action, which
has no index).
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
    #: one sentence for players: what taking this action does
    description: ClassVar[str] = ""
    #: what it was, in the log line of an undone one ("playing a card"; "": the log does not say)
    undone: ClassVar[str] = ""
    #: the fields whose value is text (the others are whole numbers, or None where optional)
    text_fields: ClassVar[tuple[str, ...]] = ()
    #: (code, meaning) of each refusal ``Game.apply`` may raise for this kind of action, beyond
    #: the ones every rules action (RULE_REFUSALS) or table action (TABLE_REFUSALS) may get
    refusals: ClassVar[tuple[tuple[str, str], ...]] = ()
    #: the learning environment's index block for this kind ("" : none, a table action) and the
    #: fields, in its key order, that name the action there (uids become slots, see env/actions.py)
    env_block: ClassVar[str] = ""
    env_fields: ClassVar[tuple[str, ...]] = ()

    def check_types(self) -> None:
        """Refuse an action whose fields have the wrong types (``IllegalAction('malformed')``):
        ``False`` or ``0.0`` compare equal to ``0`` and must not pass for a seat or a card."""
        for f in _fields_of(type(self)):
            value = getattr(self, f.name)
            if f.name in self.text_fields:
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
    description: ClassVar[str] = "Pass: end laying, decline to respond, end a phase, stop taking boosts or finish a choice."
    undone: ClassVar[str] = "a pass"
    refusals: ClassVar[tuple[tuple[str, str], ...]] = (("must_choose", "a choice or the team's free Maturity Ability must be taken first"),)
    env_block: ClassVar[str] = "pass"

    def __repr__(self) -> str:
        return f"<Pass seat={self.seat}>"


@dataclass(frozen=True, slots=True)
class LayCostZone(Action):
    """Cost Zone phase (Z-3): put a card from hand into your Cost Zone, face down."""

    card: int
    type_name: ClassVar[str] = "LayCostZone"
    description: ClassVar[str] = "Put a card from your hand into your Cost Zone, face down."
    undone: ClassVar[str] = "laying a card in the Cost Zone"
    refusals: ClassVar[tuple[tuple[str, str], ...]] = (
        ("choice_open", "a choice is open: finish it first"),
        ("must_choose", "the team's free Maturity Ability must be chosen first"),
        ("no_such_card", "there is no card with that number"),
        ("not_in_hand", "the card is not in your hand"),
        ("wrong_phase", "cards go into the Cost Zone only in the Cost Zone phase"),
        ("intake_full", "the Cost Zone takes no more cards this turn"),
    )
    env_block: ClassVar[str] = "lay"
    env_fields: ClassVar[tuple[str, ...]] = ("card",)

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
    description: ClassVar[str] = "Play a card from your hand, or face up from your Cost Zone, paying its cost."
    undone: ClassVar[str] = "playing a card"
    refusals: ClassVar[tuple[tuple[str, str], ...]] = (
        ("choice_open", "a choice is open: finish it first"),
        ("must_choose", "the team's free Maturity Ability must be chosen first"),
        ("no_such_card", "there is no card with that number"),
        ("not_in_hand", "the card is neither in your hand nor face up in your Cost Zone"),
        ("cost_zone_being_laid", "nothing is played while a Cost Zone is being laid"),
        ("wrong_timing", "the card cannot be played at this moment"),
        ("cannot_afford", "you have too few untapped Cost Zone cards to pay for it"),
        ("needs_target", "the card is aimed at a teammate: say which"),
        ("cannot_resist", "the Resistance card cannot resist that card"),
        ("threat_limit", "duel: you have played as many threats as a play-test variant allows (threatLimit: a turn; roundThreats: a round)"),
    )
    env_block: ClassVar[str] = "play"
    env_fields: ClassVar[tuple[str, ...]] = ("card", "threat", "to_seat")

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
    description: ClassVar[str] = "Rotate some of your untapped Cost Zone cards toward a threat's resistance cost."
    undone: ClassVar[str] = "paying toward a resistance"
    refusals: ClassVar[tuple[tuple[str, str], ...]] = (
        ("choice_open", "a choice is open: finish it first"),
        ("must_choose", "the team's free Maturity Ability must be chosen first"),
        ("no_such_threat", "that card is not a threat you can resist now"),
        ("not_your_threat", "only the threat's target resists it (others need Benevolence)"),
        ("cannot_afford", "you have too few untapped Cost Zone cards"),
        ("wrong_amount", "that amount cannot be paid toward the threat now"),
    )
    env_block: ClassVar[str] = "resist"
    env_fields: ClassVar[tuple[str, ...]] = ("threat", "amount")

    def __repr__(self) -> str:
        return f"<Resist seat={self.seat} threat={self.threat} amount={self.amount}>"


@dataclass(frozen=True, slots=True)
class TakeBoost(Action):
    """The card's player takes boost ``index``; ``payer`` pays it (P-2, P-3)."""

    index: int
    payer: int
    to_seat: int | None = None
    type_name: ClassVar[str] = "TakeBoost"
    description: ClassVar[str] = "Take one of the boosts on the card just played, paid by the seat named."
    undone: ClassVar[str] = "taking a boost"
    refusals: ClassVar[tuple[tuple[str, str], ...]] = (
        ("choice_open", "a choice is open: finish it first"),
        ("must_choose", "the team's free Maturity Ability must be chosen first"),
        ("no_boosts", "no boosts are on offer now"),
        ("boost_not_allowed", "that boost is taken, has another payer or cannot be paid"),
    )
    env_block: ClassVar[str] = "boost"
    env_fields: ClassVar[tuple[str, ...]] = ("index", "payer", "to_seat")

    def __repr__(self) -> str:
        extra = "" if self.to_seat is None else f" to_seat={self.to_seat}"
        return f"<TakeBoost seat={self.seat} index={self.index} payer={self.payer}{extra}>"


@dataclass(frozen=True, slots=True)
class UseAbility(Action):
    """Use a Maturity Ability the team holds (Deliverance, Restoration, Brotherly Love)."""

    ability: str
    to_seat: int | None = None
    type_name: ClassVar[str] = "UseAbility"
    description: ClassVar[str] = "Use a Maturity Ability your team holds."
    undone: ClassVar[str] = "using a Maturity Ability"
    text_fields: ClassVar[tuple[str, ...]] = ("ability",)
    refusals: ClassVar[tuple[tuple[str, str], ...]] = (
        ("choice_open", "a choice is open: finish it first"),
        ("must_choose", "the team's free Maturity Ability must be chosen first"),
        ("abilities_off", "Maturity Abilities are turned off"),
        ("ability_not_held", "the team does not hold that ability"),
        ("ability_not_ready", "the ability cannot be used now"),
    )
    env_block: ClassVar[str] = "use"
    env_fields: ClassVar[tuple[str, ...]] = ("ability", "to_seat")

    def __repr__(self) -> str:
        extra = "" if self.to_seat is None else f" to_seat={self.to_seat}"
        return f"<UseAbility seat={self.seat} {self.ability}{extra}>"


@dataclass(frozen=True, slots=True)
class BuyAbility(Action):
    """Buy a Maturity Ability right after your Cost Zone phase (A-2: 11 or 7 Cost)."""

    ability: str
    type_name: ClassVar[str] = "BuyAbility"
    description: ClassVar[str] = "Buy a Maturity Ability for your team right after your Cost Zone phase."
    undone: ClassVar[str] = "buying a Maturity Ability"
    text_fields: ClassVar[tuple[str, ...]] = ("ability",)
    refusals: ClassVar[tuple[tuple[str, str], ...]] = (
        ("choice_open", "a choice is open: finish it first"),
        ("must_choose", "the team's free Maturity Ability must be chosen first"),
        ("wrong_timing", "abilities are bought right after your Cost Zone phase"),
        ("abilities_off", "Maturity Abilities are turned off"),
        ("unknown_ability", "there is no ability by that name"),
        ("already_held", "the team already holds that ability"),
        ("cannot_afford", "the team cannot pay the ability's price"),
    )
    env_block: ClassVar[str] = "buy"
    env_fields: ClassVar[tuple[str, ...]] = ("ability",)

    def __repr__(self) -> str:
        return f"<BuyAbility seat={self.seat} {self.ability}>"


@dataclass(frozen=True, slots=True)
class ChooseAbility(Action):
    """Pick the free ability earned at a new shared Maturity Level (A-2, A-3)."""

    ability: str
    type_name: ClassVar[str] = "ChooseAbility"
    description: ClassVar[str] = "Pick the free Maturity Ability your team earned at a new shared Maturity Level."
    undone: ClassVar[str] = "choosing a Maturity Ability"
    text_fields: ClassVar[tuple[str, ...]] = ("ability",)
    refusals: ClassVar[tuple[tuple[str, str], ...]] = (
        ("choice_open", "a choice is open: finish it first"),
        ("no_choice", "no free ability is waiting to be chosen"),
        ("unknown_ability", "that is not an ability the team can still choose"),
    )
    env_block: ClassVar[str] = "pick"
    env_fields: ClassVar[tuple[str, ...]] = ("ability",)

    def __repr__(self) -> str:
        return f"<ChooseAbility seat={self.seat} {self.ability}>"


@dataclass(frozen=True, slots=True)
class Choose(Action):
    """Pick one option of the open choice (a card to discard, a card to find, a Habitual to break)."""

    option: int
    type_name: ClassVar[str] = "Choose"
    description: ClassVar[str] = "Pick one option of the open choice."
    undone: ClassVar[str] = "a choice"
    refusals: ClassVar[tuple[tuple[str, str], ...]] = (
        ("no_choice", "there is nothing to choose now"),
        ("not_an_option", "that is not one of the options"),
    )
    env_block: ClassVar[str] = "choose"
    env_fields: ClassVar[tuple[str, ...]] = ("option",)

    def __repr__(self) -> str:
        return f"<Choose seat={self.seat} option={self.option}>"


@dataclass(frozen=True, slots=True)
class ChooseReward(Action):
    """Duel: take an earned micro-reward (Evil: draw, untap, flip, destroy) or micro-boost
    (Righteous: draw, humility); ``to_seat`` directs it to an ally where the rules allow."""

    reward: str
    to_seat: int | None = None
    type_name: ClassVar[str] = "ChooseReward"
    description: ClassVar[str] = "Duel: take an earned micro-reward or micro-boost."
    undone: ClassVar[str] = "choosing a reward"
    text_fields: ClassVar[tuple[str, ...]] = ("reward",)
    refusals: ClassVar[tuple[tuple[str, str], ...]] = (
        ("choice_open", "a choice is open: finish it first"),
        ("must_choose", "the team's free Maturity Ability must be chosen first"),
    )
    env_block: ClassVar[str] = "reward"
    env_fields: ClassVar[tuple[str, ...]] = ("reward", "to_seat")

    def __repr__(self) -> str:
        extra = "" if self.to_seat is None else f" to_seat={self.to_seat}"
        return f"<ChooseReward seat={self.seat} {self.reward}{extra}>"


@dataclass(frozen=True, slots=True)
class AdjustBadge(Action):
    """Manual adjustment (S-8): set your own Humility or Maturity by hand. Never in legal_actions."""

    badge: str
    value: int
    type_name: ClassVar[str] = "AdjustBadge"
    description: ClassVar[str] = "Set your own Humility or Maturity by hand."
    undone: ClassVar[str] = "a badge set by hand"
    text_fields: ClassVar[tuple[str, ...]] = ("badge",)
    refusals: ClassVar[tuple[tuple[str, str], ...]] = (
        ("unknown_badge", "the badge must be humility or maturity"),
        ("out_of_range", "the value is outside the badge's range"),
    )

    def __repr__(self) -> str:
        return f"<AdjustBadge seat={self.seat} {self.badge}={self.value}>"


@dataclass(frozen=True, slots=True)
class Undo(Action):
    """Take back this seat's last action (engine/table.py says when). Never in legal_actions."""

    type_name: ClassVar[str] = "Undo"
    description: ClassVar[str] = "Take back your own last action, within your turn."
    refusals: ClassVar[tuple[tuple[str, str], ...]] = (
        ("nothing_to_undo", "no action has been taken yet"),
        ("not_your_action", "the last action was another seat's"),
        ("cannot_undo", "an offer to end the game, or its answer, cannot be taken back"),
        ("turn_over", "only actions of your own turn can be taken back, within that turn"),
        ("hidden_revealed", "a hidden card was shown since that action"),
        ("seen_by_opponent", "in a duel the other side has seen the action"),
    )

    def __repr__(self) -> str:
        return f"<Undo seat={self.seat}>"


@dataclass(frozen=True, slots=True)
class OfferEnd(Action):
    """Duel: offer to end the game now on the stalemate score (D-SCORE). Never in legal_actions."""

    type_name: ClassVar[str] = "OfferEnd"
    description: ClassVar[str] = "Duel: offer to end the game now on the stalemate score."
    refusals: ClassVar[tuple[tuple[str, str], ...]] = (
        ("not_a_duel", "only a duel can be ended by agreement"),
        ("offer_open", "an offer to end is already waiting for an answer"),
    )

    def __repr__(self) -> str:
        return f"<OfferEnd seat={self.seat}>"


@dataclass(frozen=True, slots=True)
class AnswerEnd(Action):
    """Duel: the other side's answer to an offer to end: ``answer`` is "accept" or "decline"."""

    answer: str
    type_name: ClassVar[str] = "AnswerEnd"
    description: ClassVar[str] = "Duel: accept or decline the other side's offer to end the game."
    text_fields: ClassVar[tuple[str, ...]] = ("answer",)
    refusals: ClassVar[tuple[tuple[str, str], ...]] = (
        ("no_offer", "nobody has offered to end the game"),
        ("own_offer", "an offer to end is answered by the other side"),
        ("already_answered", "you accepted this offer already; it waits for your teammates"),
    )

    def __repr__(self) -> str:
        return f"<AnswerEnd seat={self.seat} {self.answer}>"


#: actions about the table rather than the rules: never in legal_actions, checked by engine/table.py
TABLE_ACTIONS: tuple[type[Action], ...] = (AdjustBadge, Undo, OfferEnd, AnswerEnd)

ACTION_TYPES: dict[str, type[Action]] = {
    cls.type_name: cls
    for cls in (Pass, LayCostZone, PlayCard, Resist, TakeBoost, UseAbility, BuyAbility, ChooseAbility, Choose,
                ChooseReward, AdjustBadge, Undo, OfferEnd, AnswerEnd)
}

#: every field, of any action type, that holds text
TEXT_FIELDS = frozenset(name for cls in ACTION_TYPES.values() for name in cls.text_fields)

#: refusals any rules action may get from ``Game.apply`` (``engine/game.py``, ``engine/legal.py``)
RULE_REFUSALS: tuple[tuple[str, str], ...] = (
    ("malformed", "not a well-formed action (unknown type, missing or mistyped field)"),
    ("game_over", "the game is over"),
    ("no_such_seat", "there is no such seat"),
    ("not_your_decision", "the game waits for another seat"),
    ("not_legal", "not legal now, for no more specific reason"),
)
#: refusals any table action may get (``engine/table.py``)
TABLE_REFUSALS: tuple[tuple[str, str], ...] = (
    ("malformed", "not a well-formed action (unknown type, missing or mistyped field)"),
    ("game_over", "the game is over"),
    ("no_such_seat", "there is no such seat"),
)


def refusal_codes(cls: type[Action]) -> dict[str, str]:
    """Every refusal code ``Game.apply`` may raise for an action of ``cls``, with its meaning."""
    common = TABLE_REFUSALS if cls in TABLE_ACTIONS else RULE_REFUSALS
    return dict(common + cls.refusals)


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
        want_str = name in cls.text_fields
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
