"""Observations of the learning environment: a seat's view as a ``Dict`` of fixed-size arrays.

Two readers produce the same arrays:

* :func:`observation_of`, the environment's: the engine's observer (``engine/observer.py``), which
  decides what a seat may see for every view, writes it into this module's array sink: the seat's
  own hand and Cost Zone, face-up cards, public zones and counts, and nothing else;
* :func:`observation_from_view` reads a view dict, ``Game.view(seat)`` (through
  :func:`facts_from_view` and :func:`encode_facts`): the reference the tests hold the first to.
  The tests check that both agree, state after state, and that swapping cards the seat cannot see
  never changes its observation.

Field by field documentation: ``docs/env.md``.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from gymnasium import spaces

from ..engine.observer import StackRow, ThreatRow, observe
from .actions import ABILITIES, ACTION_COUNT, CARD_INDEX, CHOICE_SLOTS, MAX_SEATS, encode_legal, uid_cards

if TYPE_CHECKING:
    from ..engine.game import Game

CARDS = len(CARD_INDEX)
PHASES: tuple[str, ...] = ("draw", "cost_zone", "evil", "resistance", "main", "end", "over")
CHOICE_PURPOSES: tuple[str, ...] = ("overflow", "discard", "search", "deliverance", "destroy")
STACK_KINDS: tuple[str, ...] = ("card", "boost", "threat")
#: Pending threats and stack items shown (the first ones; ``table`` counts them all).
THREAT_ROWS = 16
STACK_ROWS = 16
SEAT_FIELDS: tuple[str, ...] = (
    "present", "viewer", "righteous", "evil", "humility", "maturity", "hand_size", "deck_size",
    "cost_zone_size", "untapped", "face_up", "habituals_in_play", "habituals_held", "discard_size",
    "turn_seat", "decider",
)
THREAT_FIELDS: tuple[str, ...] = ("present", "card", "target", "by", "resistance", "paid", "remaining")
STACK_FIELDS: tuple[str, ...] = ("present", "card", "kind", "controller", "to_seat", "boost", "target")
TABLE_FIELDS: tuple[str, ...] = (
    "round", "max_rounds", "turn_seat", "score_righteous", "score_evil", "resisted_pile", "failed_pile",
    "evil_deck_size", "team_level", "choosing_ability", "clearing_open", "threats", "stack", "field",
)
CHOICE_FIELDS: tuple[str, ...] = ("open", "count", "minimum") + CHOICE_PURPOSES
DUEL_FIELDS: tuple[str, ...] = (
    "duel", "chain_count", "chain_target", "chain_last", "chain_single_target", "failed_temptations",
    "rewards", "phase_plays", "boost_every", "answering", "righteous_clock", "evil_clock",
    "evil_clock_righteous_turns", "evil_limit", "evil_habituals_in_play", "rewards_pending", "my_reward_pending",
)
DUEL_SEAT_FIELDS: tuple[str, ...] = ("plays_this_turn", "streak", "dominance", "next_discount")
HIGH = 10_000   # a bound no count of a game reaches


@dataclass
class SeatFacts:
    """What one seat sees, as plain Python values (card ids, never uids of hidden cards)."""

    viewer: int
    phase: str
    round: int
    max_rounds: int
    turn_seat: int
    decider: int
    score: tuple[int, int]
    seats: list[tuple[int, ...]]          #: per seat: the numbers of SEAT_FIELDS[2:] minus turn/decider
    hand: list[str]                       #: the viewer's hand
    cost_zone: list[tuple[str, bool, bool]]   #: the viewer's Cost Zone: (id, tapped, face up)
    face_up: list[list[str]]              #: per seat: its face-up Cost Zone cards
    habituals: list[list[str]]            #: per seat: Righteous Habituals in play and Evil ones held
    field: list[str]
    threats: list[tuple[int, ...]]        #: (card, target, by, resistance, paid, remaining)
    stack: list[tuple[int, ...]]          #: (card, kind, controller, to_seat, boost, target)
    piles: tuple[int, int]
    evil_deck_size: int
    abilities_held: list[str]
    abilities_charged: list[str]
    team_level: int
    choosing: bool
    clearing: bool
    choice: tuple[str, int, int, list[str]] | None   #: purpose, count, minimum, option ids
    duel: dict[str, Any] | None


def _plus1(x: int | None) -> int:
    return 0 if x is None else x + 1


def facts_from_view(view: dict[str, Any]) -> SeatFacts:
    """The facts of ``Game.view(seat)`` (the reference reader)."""
    viewer = view["viewer"]
    seats: list[tuple[int, ...]] = []
    face_up: list[list[str]] = []
    habituals: list[list[str]] = []
    for s in view["seats"]:
        seats.append((int(s["side"] == "righteous"), int(s["side"] == "evil"), s["humility"], s["maturity"],
                      s["hand_size"], s["deck_size"], len(s["cost_zone"]), s["untapped"],
                      sum(1 for c in s["cost_zone"] if c["face_up"]), len(s["in_play"]), len(s["held"]),
                      len(s["discard"])))
        face_up.append([c["id"] for c in s["cost_zone"] if c["face_up"]])
        habituals.append([c["id"] for c in s["in_play"]] + [c["id"] for c in s["held"]])
    me = view["seats"][viewer]
    threats: list[tuple[int, ...]] = [(CARD_INDEX[t["id"]], t["target"], _plus1(t["by"]), t["resistance"], t["paid"], t["remaining"])
               for t in view["threats"]]
    stack: list[tuple[int, ...]] = [(CARD_INDEX[i["id"]], STACK_KINDS.index(i["item"]), i["controller"], _plus1(i["to_seat"]),
              _plus1(i.get("boost")), _plus1(i.get("target"))) for i in view["stack"]]
    c = view["choice"]
    ab = view["abilities"]
    return SeatFacts(
        viewer=viewer, phase=view["phase"], round=view["round"], max_rounds=view["max_rounds"] or 0,
        turn_seat=view["turn_seat"], decider=-1 if view["decider"] is None else view["decider"],
        score=(view["score"][0], view["score"][1]), seats=seats,
        hand=[x["id"] for x in me["hand"]],
        cost_zone=[(x["id"], x["tapped"], x["face_up"]) for x in me["cost_zone"]],
        face_up=face_up, habituals=habituals, field=[x["id"] for x in view["field"]],
        threats=threats, stack=stack,
        piles=(len(view["piles"]["resisted"]), len(view["piles"]["failed"])),
        evil_deck_size=view["evil_deck_size"], abilities_held=list(ab["held"]), abilities_charged=list(ab["charged"]),
        team_level=ab["team_level"], choosing=bool(ab["choosing"]), clearing=view["clearing"] is not None,
        choice=None if c is None else (c["purpose"], c["count"], c["minimum"], [o["id"] for o in c["options"]]),
        duel=view["duel"],
    )


_COUNT_ROWS = 17          # hand, cost zone x3, face up x6, habituals x6, field
_TAIL = _COUNT_ROWS * CARDS
_I8_SIZE = _TAIL + len(PHASES) + 2 * len(ABILITIES)
_I16_SHAPES: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("table", (len(TABLE_FIELDS),)), ("seats", (MAX_SEATS, len(SEAT_FIELDS))),
    ("threats", (THREAT_ROWS, len(THREAT_FIELDS))), ("stack", (STACK_ROWS, len(STACK_FIELDS))),
    ("choice", (len(CHOICE_FIELDS),)), ("choice_options", (CHOICE_SLOTS,)), ("duel", (len(DUEL_FIELDS),)),
    ("duel_seats", (MAX_SEATS, len(DUEL_SEAT_FIELDS))),
)
_I16_SLICES: list[tuple[str, int, int, tuple[int, ...]]] = []
for _name, _shape in _I16_SHAPES:
    _at = _I16_SLICES[-1][2] if _I16_SLICES else 0
    _I16_SLICES.append((_name, _at, _at + int(np.prod(_shape)), _shape))
_PHASE_AT = {p: _TAIL + i for i, p in enumerate(PHASES)}
_HELD_AT = {a: _TAIL + len(PHASES) + i for i, a in enumerate(ABILITIES)}
_CHARGED_AT = {a: _TAIL + len(PHASES) + len(ABILITIES) + i for i, a in enumerate(ABILITIES)}
_STACK_KIND = {k: i + 1 for i, k in enumerate(STACK_KINDS)}
_I16_AT = _I8_SIZE + (_I8_SIZE & 1)   # the int16 block follows the int8 counts, on an even byte
_I16_SIZE = _I16_SLICES[-1][2]
_BUF_SIZE = _I16_AT + 2 * _I16_SIZE
_SHAPE = {name: shape for name, _start, _stop, shape in _I16_SLICES}
#: byte offset of each int16 array in an observation's buffer
_AT = {name: _I16_AT + 2 * start for name, start, _stop, _shape in _I16_SLICES}
_TABLE_ROW = struct.Struct(f"={len(TABLE_FIELDS)}h")
_SEAT_ROW = struct.Struct(f"={len(SEAT_FIELDS)}h")
_THREAT_ROW = struct.Struct(f"={len(THREAT_FIELDS)}h")
_STACK_ROW = struct.Struct(f"={len(STACK_FIELDS)}h")
_CHOICE_HEAD = struct.Struct("=3h")
_DUEL_ROW = struct.Struct(f"={len(DUEL_FIELDS)}h")
_DUEL_SEAT_ROW = struct.Struct(f"={len(DUEL_SEAT_FIELDS)}h")
_ONE_I16 = struct.Struct("=h")
_SEATS_AT, _TABLE_AT = _AT["seats"], _AT["table"]
_SEAT_ROW_SIZE = _SEAT_ROW.size
_UNTAPPED_AT, _UP_AT, _FIELD_AT = 2 * CARDS, 3 * CARDS, 16 * CARDS
_CHOICE_PURPOSE_AT = {p: _AT["choice"] + 2 * (3 + i) for i, p in enumerate(CHOICE_PURPOSES)}


#: the parts of a view an observation is made of (``engine/observer.py`` walks them)
OBSERVED_KEYS: tuple[str, ...] = (
    "round", "max_rounds", "turn_seat", "phase", "seats", "stack", "threats", "evil_deck_size", "field", "piles",
    "abilities", "clearing", "score", "choice", "duel")
#: the keys of a duel's bookkeeping an observation holds
OBSERVED_DUEL_KEYS: tuple[str, ...] = (
    "chain", "dominance", "next_discount", "plays_this_turn", "failed_temptations_this_turn", "rewards_this_turn",
    "reward_pending", "phase_plays", "boost_every", "streaks", "answering", "righteous_clock", "evil_clock",
    "evil_limit")


def observation_of(game: "Game", seat: int, mask: np.ndarray | None = None,
                   decider: int | None = None) -> dict[str, np.ndarray]:
    """The observation ``seat`` gets in ``game`` (what :meth:`ChristianityEnv.observe` returns).

    The observer (``engine/observer.py``) writes what ``seat`` may see into an array sink: other
    seats' hands and face-down Cost Zone cards only as counts, no deck but its size, never the
    generator. Equal to ``observation_from_view(game.view(seat), mask)`` (the tests check it, state
    after state) without building the view. Every array but the mask (used as it is) lies in one
    new buffer of its own. ``decider``: the seat the game waits for (-1: none), when the caller
    knows it."""
    if mask is None:
        mask = action_mask_of(game, seat)
    sink = _ArraySink(uid_cards(game), seat)
    parts = observe(game, seat, sink, OBSERVED_KEYS if decider is not None else _WITH_DECIDER, OBSERVED_DUEL_KEYS)
    if decider is None:
        found = parts["decider"]
        decider = -1 if found is None else found
    buf = sink.buf
    turn_seat = parts["turn_seat"]
    pack_one = _ONE_I16.pack_into
    if 0 <= turn_seat < sink.n_seats:
        pack_one(buf, _SEATS_AT + turn_seat * _SEAT_ROW_SIZE + _TURN_FLAG, 1)
    if 0 <= decider < sink.n_seats:
        pack_one(buf, _SEATS_AT + decider * _SEAT_ROW_SIZE + _DECIDER_FLAG, 1)
    buf[_PHASE_AT[parts["phase"]]] = 1
    resisted, failed = parts["piles"]
    abilities = parts["abilities"]
    for x in abilities["held"]:
        buf[_HELD_AT[x]] += 1
    for x in abilities["charged"]:
        buf[_CHARGED_AT[x]] += 1
    score = parts["score"]
    _TABLE_ROW.pack_into(buf, _TABLE_AT, parts["round"], parts["max_rounds"] or 0, turn_seat, score[0], score[1],
                         resisted, failed, parts["evil_deck_size"], abilities["team_level"], abilities["choosing"],
                         parts["clearing"] is not None, parts["threats"], parts["stack"], parts["field"])
    out = {"action_mask": mask}
    array = np.ndarray
    for name, shape, dtype, at in _ARRAYS:
        out[name] = array(shape, dtype, buf, at)
    return out


#: each array of an observation but the mask: (name, shape, dtype, byte offset in the buffer)
_ARRAYS: tuple[tuple[str, tuple[int, ...], Any, int], ...] = tuple(
    [("phase", (len(PHASES),), np.dtype(np.int8), _TAIL),
     ("table", _SHAPE["table"], np.dtype(np.int16), _AT["table"]),
     ("seats", _SHAPE["seats"], np.dtype(np.int16), _AT["seats"]),
     ("hand", (CARDS,), np.dtype(np.int8), 0),
     ("cost_zone", (3, CARDS), np.dtype(np.int8), CARDS),
     ("face_up", (MAX_SEATS, CARDS), np.dtype(np.int8), 4 * CARDS),
     ("habituals", (MAX_SEATS, CARDS), np.dtype(np.int8), 10 * CARDS),
     ("field", (CARDS,), np.dtype(np.int8), 16 * CARDS)]
    + [(name, _SHAPE[name], np.dtype(np.int16), _AT[name]) for name in ("threats", "stack")]
    + [("abilities", (2, len(ABILITIES)), np.dtype(np.int8), _TAIL + len(PHASES))]
    + [(name, _SHAPE[name], np.dtype(np.int16), _AT[name]) for name in ("choice", "choice_options", "duel", "duel_seats")])


_WITH_DECIDER = OBSERVED_KEYS + ("decider",)
_TURN_FLAG = 2 * SEAT_FIELDS.index("turn_seat")
_DECIDER_FLAG = 2 * SEAT_FIELDS.index("decider")


class _ArraySink:
    """The observer's sink for an observation: writes what the viewer sees into one buffer (int8
    card counts, then the int16 block) and hands back counts where the view would hold cards."""

    __slots__ = ("buf", "card", "viewer", "n_seats")

    def __init__(self, card: list[int], viewer: int) -> None:
        self.buf = bytearray(_BUF_SIZE)
        self.card = card         # uid -> card index
        self.viewer = viewer
        self.n_seats = 0         # seats written so far

    def seat(self, seat: int, side: str, deck: str, humility: int, maturity: int, hand: Sequence[int] | None,
             hand_size: int, deck_size: int, cost_zone: Sequence[int], tapped: Sequence[bool],
             face_up: Sequence[bool], untapped: int, in_play: Sequence[int], held: Sequence[int],
             discard: Sequence[int], love_to: int | None) -> None:
        buf, card = self.buf, self.card
        if hand is not None:   # the viewer's own
            for u in hand:
                buf[card[u]] += 1
        n_up = 0
        if seat == self.viewer:
            for u, is_tapped, up in zip(cost_zone, tapped, face_up):
                k = card[u]
                buf[CARDS + k] += 1
                if not is_tapped:
                    buf[_UNTAPPED_AT + k] += 1
                if up:
                    buf[_UP_AT + k] += 1
        if True in face_up:
            row = (4 + seat) * CARDS
            for u, up in zip(cost_zone, face_up):
                if up:
                    buf[row + card[u]] += 1
                    n_up += 1
        row = (10 + seat) * CARDS
        for u in in_play:
            buf[row + card[u]] += 1
        for u in held:
            buf[row + card[u]] += 1
        righteous = side == "righteous"
        _SEAT_ROW.pack_into(buf, _SEATS_AT + seat * _SEAT_ROW_SIZE, 1, seat == self.viewer, righteous, not righteous,
                            humility, maturity, hand_size, deck_size, len(cost_zone), untapped, n_up, len(in_play),
                            len(held), len(discard), 0, 0)
        self.n_seats = seat + 1

    def seats(self, seats: list[Any]) -> None:
        return None

    def cards(self, where: str, seat: int, uids: Sequence[int]) -> int:
        if where == "field":
            buf, card = self.buf, self.card
            for u in uids:
                buf[_FIELD_AT + card[u]] += 1
        return len(uids)

    def hidden(self, where: str, seat: int, count: int) -> int:
        return count

    def cost_zone(self, seat: int, uids: Sequence[int], tapped: Sequence[bool], face_up: Sequence[bool]) -> int:
        return len(uids)

    def stack(self, rows: list[StackRow]) -> int:
        pack_row = _STACK_ROW.pack_into
        at = _AT["stack"]
        card = self.card
        for uid, kind, controller, to_seat, boost, target in rows[:STACK_ROWS]:
            pack_row(self.buf, at, 1, card[uid] + 1, _STACK_KIND[kind], controller, _plus1(to_seat), _plus1(boost),
                     _plus1(target))
            at += _STACK_ROW.size
        return len(rows)

    def threats(self, rows: list[ThreatRow]) -> int:
        pack_row = _THREAT_ROW.pack_into
        at = _AT["threats"]
        card = self.card
        for uid, target, by, resistance, paid, remaining, _finale in rows[:THREAT_ROWS]:
            pack_row(self.buf, at, 1, card[uid] + 1, target, _plus1(by), resistance, paid, remaining)
            at += _THREAT_ROW.size
        return len(rows)

    def piles(self, resisted: Sequence[int], failed: Sequence[int]) -> tuple[int, int]:
        return len(resisted), len(failed)

    def choice(self, purpose: str, count: int, minimum: int, options: Sequence[int]) -> None:
        buf, card = self.buf, self.card
        _CHOICE_HEAD.pack_into(buf, _AT["choice"], 1, count, minimum)
        pack_one = _ONE_I16.pack_into
        purpose_at = _CHOICE_PURPOSE_AT.get(purpose)
        if purpose_at is not None:
            pack_one(buf, purpose_at, 1)
        at = _AT["choice_options"]
        for u in options[:CHOICE_SLOTS]:
            pack_one(buf, at, card[u] + 1)
            at += 2

    def record(self, key: str, values: dict[str, Any]) -> Any:
        return values

    def plain(self, key: str, value: Any) -> Any:
        return value

    def settings(self, settings: Any) -> None:
        return None

    def pending(self, actions: Sequence[Any]) -> None:
        return None

    def duel(self, d: dict[str, Any]) -> None:
        """The duel's public bookkeeping (the view's ``duel`` object) into the buffer."""
        chain = d["chain"]
        rc, ec = d["righteous_clock"], d["evil_clock"]
        pending = d["reward_pending"]
        buf = self.buf
        _DUEL_ROW.pack_into(buf, _AT["duel"], 1, chain["count"], _plus1(chain["target"]), _plus1(chain["last"]),
                            chain["single_target"], d["failed_temptations_this_turn"], d["rewards_this_turn"],
                            d["phase_plays"], d["boost_every"], d["answering"], rc is not None, ec is not None,
                            0 if ec is None else ec["righteous_turns_since"], d["evil_limit"],
                            0 if ec is None else ec["in_play"], len(pending),
                            bool(pending) and pending[0]["seat"] == self.viewer)
        at = _AT["duel_seats"]
        pack_row = _DUEL_SEAT_ROW.pack_into
        plays, streaks, dominance, discount = d["plays_this_turn"], d["streaks"], d["dominance"], d["next_discount"]
        for i in range(len(plays)):
            key = str(i)
            pack_row(buf, at, plays[i], streaks[i], dominance.get(key, 0), discount.get(key, 0))
            at += _DUEL_SEAT_ROW.size


def action_mask_of(game: "Game", seat: int) -> np.ndarray:
    """The action mask of ``seat`` now: 1 at the index of each of its legal actions."""
    mask = np.zeros(ACTION_COUNT, np.int8)
    actions = game.legal_actions(seat)
    if actions:
        mask[encode_legal(game, seat, actions)] = 1
    return mask


def observation_space(action_count: int = ACTION_COUNT) -> spaces.Dict:
    """The observation space of every agent."""
    def box(shape: tuple[int, ...], low: int = 0, high: int = HIGH, dtype: Any = np.int16) -> spaces.Box:
        return spaces.Box(low=low, high=high, shape=shape, dtype=dtype)

    return spaces.Dict({
        "action_mask": box((action_count,), 0, 1, np.int8),
        "phase": box((len(PHASES),), 0, 1, np.int8),
        "table": box((len(TABLE_FIELDS),), -1),
        "seats": box((MAX_SEATS, len(SEAT_FIELDS))),
        "hand": box((CARDS,), 0, 127, np.int8),
        "cost_zone": box((3, CARDS), 0, 127, np.int8),
        "face_up": box((MAX_SEATS, CARDS), 0, 127, np.int8),
        "habituals": box((MAX_SEATS, CARDS), 0, 127, np.int8),
        "field": box((CARDS,), 0, 127, np.int8),
        "threats": box((THREAT_ROWS, len(THREAT_FIELDS))),
        "stack": box((STACK_ROWS, len(STACK_FIELDS))),
        "abilities": box((2, len(ABILITIES)), 0, 1, np.int8),
        "choice": box((len(CHOICE_FIELDS),)),
        "choice_options": box((CHOICE_SLOTS,), 0, CARDS),
        "duel": box((len(DUEL_FIELDS),), -1),
        "duel_seats": box((MAX_SEATS, len(DUEL_SEAT_FIELDS))),
    })


def _counts(out: np.ndarray, ids: list[str]) -> None:
    for cid in ids:
        out[CARD_INDEX[cid]] += 1


def observation_from_view(view: dict[str, Any], mask: np.ndarray) -> dict[str, np.ndarray]:
    """The observation of the viewer of ``view`` (the reference for :func:`observation_of`)."""
    return encode_facts(facts_from_view(view), mask)


def encode_facts(f: SeatFacts, mask: np.ndarray) -> dict[str, np.ndarray]:
    """The observation arrays of ``f`` (``mask``: the action mask, used as it is)."""
    i16 = np.int16
    phase = np.zeros(len(PHASES), np.int8)
    phase[PHASES.index(f.phase)] = 1
    n_threats, n_stack = len(f.threats), len(f.stack)
    table = np.array([f.round, f.max_rounds, f.turn_seat, f.score[0], f.score[1], f.piles[0], f.piles[1],
                      f.evil_deck_size, f.team_level, int(f.choosing), int(f.clearing), n_threats, n_stack,
                      len(f.field)], i16)
    seats = np.zeros((MAX_SEATS, len(SEAT_FIELDS)), i16)
    for i, row in enumerate(f.seats):
        seats[i, 0] = 1
        seats[i, 1] = int(i == f.viewer)
        seats[i, 2:14] = row
        seats[i, 14] = int(i == f.turn_seat)
        seats[i, 15] = int(i == f.decider)
    hand = np.zeros(CARDS, np.int8)
    _counts(hand, f.hand)
    cost_zone = np.zeros((3, CARDS), np.int8)
    for cid, is_tapped, is_up in f.cost_zone:
        k = CARD_INDEX[cid]
        cost_zone[0, k] += 1
        if not is_tapped:
            cost_zone[1, k] += 1
        if is_up:
            cost_zone[2, k] += 1
    face_up = np.zeros((MAX_SEATS, CARDS), np.int8)
    habituals = np.zeros((MAX_SEATS, CARDS), np.int8)
    for i in range(len(f.seats)):
        _counts(face_up[i], f.face_up[i])
        _counts(habituals[i], f.habituals[i])
    field = np.zeros(CARDS, np.int8)
    _counts(field, f.field)
    threats = np.zeros((THREAT_ROWS, len(THREAT_FIELDS)), i16)
    for i, t in enumerate(f.threats[:THREAT_ROWS]):
        threats[i, 0] = 1
        threats[i, 1] = t[0] + 1
        threats[i, 2:] = t[1:]
    stack = np.zeros((STACK_ROWS, len(STACK_FIELDS)), i16)
    for i, s in enumerate(f.stack[:STACK_ROWS]):
        stack[i, 0] = 1
        stack[i, 1] = s[0] + 1
        stack[i, 2] = s[1] + 1
        stack[i, 3:] = s[2:]
    abilities = np.zeros((2, len(ABILITIES)), np.int8)
    for a in f.abilities_held:
        abilities[0, ABILITIES.index(a)] = 1
    for a in f.abilities_charged:
        abilities[1, ABILITIES.index(a)] = 1
    choice = np.zeros(len(CHOICE_FIELDS), i16)
    options = np.zeros(CHOICE_SLOTS, i16)
    if f.choice is not None:
        purpose, count, minimum, ids = f.choice
        choice[0:3] = (1, count, minimum)
        if purpose in CHOICE_PURPOSES:
            choice[3 + CHOICE_PURPOSES.index(purpose)] = 1
        for i, cid in enumerate(ids[:CHOICE_SLOTS]):
            options[i] = CARD_INDEX[cid] + 1
    duel = np.zeros(len(DUEL_FIELDS), i16)
    duel_seats = np.zeros((MAX_SEATS, len(DUEL_SEAT_FIELDS)), i16)
    d = f.duel
    if d is not None:
        chain = d["chain"]
        rc, ec = d["righteous_clock"], d["evil_clock"]
        pending = d["reward_pending"]
        duel[:] = (1, chain["count"], _plus1(chain["target"]), _plus1(chain["last"]), int(chain["single_target"]),
                   d["failed_temptations_this_turn"], d["rewards_this_turn"], d["phase_plays"], d["boost_every"],
                   int(d["answering"]), int(rc is not None), int(ec is not None),
                   0 if ec is None else ec["righteous_turns_since"], d["evil_limit"],
                   0 if ec is None else ec["in_play"], len(pending),
                   int(bool(pending) and pending[0]["seat"] == f.viewer))
        for i in range(len(f.seats)):
            duel_seats[i] = (d["plays_this_turn"][i], d["streaks"][i], d["dominance"].get(str(i), 0),
                             d["next_discount"].get(str(i), 0))
    return {"action_mask": mask, "phase": phase, "table": table, "seats": seats, "hand": hand,
            "cost_zone": cost_zone, "face_up": face_up, "habituals": habituals, "field": field,
            "threats": threats, "stack": stack, "abilities": abilities, "choice": choice,
            "choice_options": options, "duel": duel, "duel_seats": duel_seats}
