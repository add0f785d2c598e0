"""The position format (docs/design.md, "Positions"): what a position holds, its keys, and its
values read checked (:class:`PositionError` names the part that is wrong).

What positions are for: scenario tests and duel scenarios start from one (``Game.from_position``),
and ``Game.to_position`` writes any state reached in play as one, so that a test or a scenario can
be cut from a real game and started again exactly where it was.

A position is a dict (or TOML table). Cards are named by card id. A missing key means "the
default" (for a seat or card reference: none), so a position needs no ``null`` and loads from TOML.

Top level
    ``seats`` (required, one table a seat, see below), ``lineup``, ``round``, ``turn_seat``,
    ``turn_index`` (where in the round's turn order, for a table whose round gives a seat more than
    one turn, the duel's alternateTurns variant; default the seat's first turn),
    ``phase`` (draw, cost_zone, evil, resistance, main, end), ``evil_deck`` (top first), ``threats``
    (pending threats), ``abilities`` (the team's), ``charged``, ``team_level``, ``resisted``,
    ``failed``, ``field`` (Evil Habituals held by no seat), ``clearing`` (a seat: the clearing round
    opened at this seat now; or ``{seat, turn}``).

    Mid-turn state, for "any state reached in play" (each optional, defaults as a fresh position):
    ``step`` (the engine's step when it is not the phase's first: ``after_lay``, ``fail``, ``over``...),
    ``turn_no`` (turns started so far, default 1), ``state_id``, ``rng`` (the generator's state as
    play resumes, a ``"0x..."`` string or an integer), ``result`` (``{winner, reason, round}``),
    ``stack`` (bottom first), ``window`` (seats still to pass in the response window),
    ``phase_passes``, ``offers`` (open boost offers), ``choice`` (an open choice), ``effects``
    (effects waiting to be carried out), ``ability_picks``, ``ability_chooser``,
    ``levels_rewarded`` (co-op shared levels already rewarded, S-8; default ``team_level``),
    ``resisted_total``, ``failed_total``, ``foresight`` (how many top Evil deck cards Foresight
    shows), ``last_chance`` (CO-W-3), and ``duel`` (the duel's own state, below).

Seats
    ``humility``, ``maturity``, ``hand``, ``cost_zone``, ``in_play`` (Righteous Habituals),
    ``held`` (Evil Habituals holding the seat; ``by`` names the Evil seat that played one, -1 the
    co-op Evil deck), ``discard``, ``deck`` (top first) or ``deck_from`` (the rest of a named deck,
    shuffled), ``deck_id``; this turn: ``gained`` (Humility gained), ``levels_this_turn`` (S-6),
    ``speed_used``, ``love_to`` (Brotherly Love's next card goes to this seat), ``laid``.

Cards
    A card in a zone is its id, or a table ``{id, ...}`` with any of: ``uid`` (this card's number in
    the game: positions written by ``to_position`` carry every card's uid so the rebuilt game's
    views and legal actions are the original's; a position may give uids to some cards only: the
    others take the lowest free numbers in the order they are built, and the numbers must end up
    0..N-1 without gaps), ``owner`` (the seat whose card it is, -1 the co-op Evil deck; default:
    the seat of the zone, -1 for the table's zones), ``tapped`` / ``face_up`` (Cost Zone), ``spent``
    (an Evil Habitual already counted in a pair, D-MR-1), ``replace_spent`` (a card flipped by the
    flip reward: playing it from the Cost Zone draws a replacement, Z-6), ``pile_info`` (``{by, at}``
    of a card in a pile), ``finale`` (Evil seats owed the free-finale reward if this threat gets
    through, D-MR-4).

    A pending threat is ``{card, target, by, resistance, paid, ...}`` (``resistance`` defaults to the
    card's, worked out now for RX). A stack item is ``{kind = "card" | "threat" | "boost", ...}``:
    card items carry ``card``, ``controller``, ``to_seat``, ``threat`` (the uid of the threat a
    Resistance card answers), ``amplify``, ``redirect_to``, ``fast_done``; threat items (a failed
    threat resolving) ``card``, ``target``, ``by``; boost items ``uid`` (the boosted card, which
    lies elsewhere), ``boost`` (its index), ``controller``, ``to_seat``. Offers, choices, effect
    sources and the duel's ``answer_head`` refer to cards by uid, so a position that has them gives
    those cards a ``uid``.

Duel (``duel`` table; docs/rules.md, section D)
    ``chain = {count, last, target, seats, mixed}`` (D-COMBO-*: the next partner's discount is
    ``count``), ``plays`` (cards each seat played this turn, D-MR-2, D-MB-1), ``failed_temptations``
    (D-MR-3), ``rewards`` (D-MR-5), ``earned`` and ``bonus_given`` (D-MR-7), ``reward_queue``
    (``[{seat, kind}]``, kind evil / special / righteous), ``phase_plays`` and ``phase_key``
    (``{turn, phase}``, D-MB-1), ``streaks`` and ``voided`` (D-MB-2), ``evil_window``, ``quiet``,
    ``answer``, ``answer_head``, ``answering`` (D-INT), ``righteous_clock = {seat, armed_turn}``
    (D-W-R), ``evil_clock = {armed_turn, righteous_turns_since}`` (D-W-E; armed only with an
    ``armed_turn``), ``levels_rewarded`` (per
    seat, A-3; default each seat's Maturity), ``counts`` (what fired, for reports); for the play-test
    variants (variants.py): ``given`` (rewards each seat got this turn, bonuses included: rewardCap)
    ``humility_zero_rounds`` (rounds in a row every Righteous seat ended at Humility 0: humilityWin)
    and ``round_threats = {round, played}`` (threats the Evil side played in that round: roundThreats).

``to_position(game)`` writes all of that: the generator's state and every deck's order are hidden
information, so a position is an engine and test tool, never something a client is shown.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from ..cards.model import CONDITION_TESTS, EFFECT_OPS, Condition, Effect

PHASE_TO_STEP = {"draw": "turn_start", "cost_zone": "lay", "evil": "evil", "resistance": "resistance",
                 "main": "main", "end": "end"}
SEAT_KEYS = {"humility", "maturity", "hand", "cost_zone", "in_play", "held", "discard", "deck", "deck_id", "deck_from",
             "gained", "levels_this_turn", "speed_used", "love_to", "laid"}
TOP_KEYS = {"round", "turn_seat", "phase", "seats", "evil_deck", "threats", "abilities", "charged", "team_level",
            "resisted", "failed", "field", "clearing", "lineup", "turn_index",
            "step", "turn_no", "state_id", "rng", "result", "stack", "window", "phase_passes", "offers", "choice",
            "effects", "ability_picks", "ability_chooser", "levels_rewarded", "resisted_total", "failed_total",
            "foresight", "last_chance", "duel"}
#: flags any card table may carry (see the module docstring)
CARD_FLAGS = {"uid", "owner", "tapped", "face_up", "spent", "replace_spent", "pile_info", "finale"}
CARD_KEYS = {"id"} | CARD_FLAGS
THREAT_KEYS = {"card", "target", "by", "resistance", "paid"} | CARD_FLAGS
STACK_KEYS = {"kind", "card", "controller", "to_seat", "threat", "boost", "amplify", "redirect_to", "fast_done", "by",
              "target"} | CARD_FLAGS
OFFER_KEYS = {"uid", "controller", "fast", "depth", "to_seat", "taken"}
CHOICE_KEYS = {"seat", "purpose", "options", "count", "minimum"}
CHOICE_PURPOSES = ("overflow", "discard", "search", "deliverance", "destroy")
PENDING_EFFECT_KEYS = {"effect", "me", "mate", "target", "amplify", "source", "controller"}
EFFECT_OPS_PENDING = EFFECT_OPS + ("overflow",)   # "overflow": an overflow discard waiting for another choice
WHO = ("self", "teammate", "target", "each_righteous")
DUEL_KEYS = {"chain", "plays", "failed_temptations", "rewards", "earned", "bonus_given", "reward_queue",
             "phase_plays", "phase_key", "streaks", "voided", "evil_window", "quiet", "answer", "answer_head",
             "answering", "righteous_clock", "evil_clock", "levels_rewarded", "counts", "given",
             "humility_zero_rounds", "round_threats"}
CHAIN_KEYS = {"count", "last", "target", "seats", "mixed"}
REWARD_KINDS = ("evil", "special", "righteous")
SEAT_ZONES = ("hand", "deck", "cost_zone", "in_play", "held", "discard")
TABLE_ZONES = ("evil_deck", "resisted", "failed", "field")


class PositionError(ValueError):
    """A position that cannot be set up: the message names the part that is wrong."""


def as_int(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` when it is a whole number within ``low``..``high``; else a PositionError naming ``where``."""
    if type(value) is not int:
        raise PositionError(f"{where}: must be a whole number, not {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise PositionError(f"{where}: must be {low if low is not None else '...'}..{high if high is not None else '...'}, "
                            f"not {value}")
    return value


def as_bool(value: Any, where: str) -> bool:
    """``value`` when it is true or false."""
    if not isinstance(value, bool):
        raise PositionError(f"{where}: must be true or false, not {value!r}")
    return value


def as_table(value: Any, where: str, keys: set[str]) -> dict[str, Any]:
    """``value`` when it is a table whose keys are all among ``keys``."""
    if not isinstance(value, dict):
        raise PositionError(f"{where}: must be a table, not {value!r}")
    bad = set(value) - keys
    if bad:
        raise PositionError(f"{where}: unknown keys {', '.join(sorted(map(str, bad)))}")
    return value


def as_list(value: Any, where: str) -> list[Any]:
    """``value`` when it is a list."""
    if not isinstance(value, list):
        raise PositionError(f"{where}: must be a list, not {value!r}")
    return value


def opt_seat(spec: dict[str, Any], key: str, where: str, seats: int, low: int = 0) -> int | None:
    """An optional seat number (a missing key is None)."""
    if key not in spec:
        return None
    return as_int(spec[key], f"{where} {key}", low, seats - 1)


def as_seats(value: Any, where: str, seats: int) -> list[int]:
    """A list of seat numbers below ``seats``."""
    return [as_int(s, where, 0, seats - 1) for s in as_list(value, where)]


# ---------------------------------------------------------------------------------------- effects


def effect_from_json(data: Any, where: str) -> Effect:
    """The inverse of :func:`.position_dump.effect_to_json`, checked."""
    spec = as_table(data, where, {f.name for f in fields(Effect)})
    op = spec.get("op")
    if op not in EFFECT_OPS_PENDING:
        raise PositionError(f"{where}: op must be one of {', '.join(EFFECT_OPS_PENDING)}, not {op!r}")
    who = spec.get("who", "self")
    if who not in WHO:
        raise PositionError(f"{where}: who must be one of {', '.join(WHO)}, not {who!r}")
    kind = spec.get("kind")
    if kind is not None and not isinstance(kind, str):
        raise PositionError(f"{where}: kind must be text, not {kind!r}")
    cond = None
    if "cond" in spec:
        c = as_table(spec["cond"], f"{where} cond", {"test", "value", "who"})
        if c.get("test") not in CONDITION_TESTS:
            raise PositionError(f"{where} cond: unknown test {c.get('test')!r}")
        if c.get("who", "self") not in WHO:
            raise PositionError(f"{where} cond: who must be one of {', '.join(WHO)}")
        cond = Condition(c["test"], as_int(c.get("value", 0), f"{where} cond value"), c.get("who", "self"))
    return Effect(op=op, amount=as_int(spec.get("amount", 0), f"{where} amount"),
                  count=as_int(spec.get("count", 0), f"{where} count"), who=who, kind=kind,
                  random=as_bool(spec.get("random", False), f"{where} random"), cond=cond,
                  then=tuple(effect_from_json(x, f"{where} then") for x in as_list(spec.get("then", []), f"{where} then")),
                  otherwise=tuple(effect_from_json(x, f"{where} otherwise")
                                  for x in as_list(spec.get("otherwise", []), f"{where} otherwise")))
