"""Games started from a described position, and positions read back from games (DESIGN "Positions").

What positions are for: scenario tests and duel scenarios start from one (``Game.from_position``),
and ``Game.to_position`` writes any state reached in play as one, so that a test or a scenario can
be cut from a real game and started again exactly where it was.

A position is a dict (or TOML table). Cards are named by card id. A missing key means "the
default" (for a seat or card reference: none), so a position needs no ``null`` and loads from TOML.

Top level
    ``seats`` (required, one table a seat, see below), ``lineup``, ``round``, ``turn_seat``,
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
    seat, A-3; default each seat's Maturity), ``counts`` (what fired, for reports).

``to_position(game)`` writes all of that: the generator's state and every deck's order are hidden
information, so a position is an engine and test tool, never something a client is shown.
"""

from __future__ import annotations

import copy
import tomllib
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..cards.loader import CardSet, starter_set
from ..cards.model import CONDITION_TESTS, EFFECT_OPS, CardDef, Condition, Effect
from .rng import game_rng_from_state
from .settings import Settings
from .state import PHASE_OF_STEP, Choice, Ctx, Offer, StackItem, Threat

if TYPE_CHECKING:
    from .table import TableRules as Game

PHASE_TO_STEP = {"draw": "turn_start", "cost_zone": "lay", "evil": "evil", "resistance": "resistance",
                 "main": "main", "end": "end"}
SEAT_KEYS = {"humility", "maturity", "hand", "cost_zone", "in_play", "held", "discard", "deck", "deck_id", "deck_from",
             "gained", "levels_this_turn", "speed_used", "love_to", "laid"}
TOP_KEYS = {"round", "turn_seat", "phase", "seats", "evil_deck", "threats", "abilities", "charged", "team_level",
            "resisted", "failed", "field", "clearing", "lineup",
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
             "answering", "righteous_clock", "evil_clock", "levels_rewarded", "counts"}
CHAIN_KEYS = {"count", "last", "target", "seats", "mixed"}
REWARD_KINDS = ("evil", "special", "righteous")
SEAT_ZONES = ("hand", "deck", "cost_zone", "in_play", "held", "discard")
TABLE_ZONES = ("evil_deck", "resisted", "failed", "field")


G = TypeVar("G", bound="Game")


class PositionError(ValueError):
    """A position that cannot be set up: the message names the part that is wrong."""


def load_position_file(path: str | Path) -> dict[str, Any]:
    """A position from a TOML file (its top-level table)."""
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise PositionError(f"{path}: {exc}") from None


# ---------------------------------------------------------------------------------------- checking values
def _int(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    if type(value) is not int:
        raise PositionError(f"{where}: must be a whole number, not {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise PositionError(f"{where}: must be {low if low is not None else '...'}..{high if high is not None else '...'}, "
                            f"not {value}")
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise PositionError(f"{where}: must be true or false, not {value!r}")
    return value


def _table(value: Any, where: str, keys: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise PositionError(f"{where}: must be a table, not {value!r}")
    bad = set(value) - keys
    if bad:
        raise PositionError(f"{where}: unknown keys {', '.join(sorted(map(str, bad)))}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise PositionError(f"{where}: must be a list, not {value!r}")
    return value


def _opt_seat(spec: dict[str, Any], key: str, where: str, seats: int, low: int = 0) -> int | None:
    """An optional seat number (a missing key is None)."""
    if key not in spec:
        return None
    return _int(spec[key], f"{where} {key}", low, seats - 1)


def _seat_list(value: Any, where: str, seats: int) -> list[int]:
    return [_int(s, where, 0, seats - 1) for s in _list(value, where)]


# ---------------------------------------------------------------------------------------- card numbers
class _CardTable:
    """Hands out uids while a position is built.

    A card takes its own ``uid`` when the position gives one, else the lowest number that no card of
    the position names, so a position without uids numbers its cards 0, 1, 2... in the order they
    are built (as positions always did: records of scenario games depend on it)."""

    def __init__(self, cards: CardSet, claimed: set[int]) -> None:
        self.cards = cards
        self.claimed = claimed
        self.table: dict[int, tuple[CardDef, int]] = {}
        self._next = 0

    def new(self, card_id: Any, owner: int, where: str, uid: int | None = None) -> int:
        if not isinstance(card_id, str) or card_id not in self.cards.cards:
            raise PositionError(f"{where}: unknown card {card_id!r}")
        if uid is None:
            while self._next in self.claimed or self._next in self.table:
                self._next += 1
            uid = self._next
        self.table[uid] = (self.cards.cards[card_id], owner)
        return uid

    def card(self, uid: int) -> CardDef:
        return self.table[uid][0]

    def finish(self) -> tuple[list[CardDef], list[int]]:
        """The game's card table (uid -> card) and owners; refuses gaps in the numbering."""
        n = max(self.table, default=-1) + 1
        missing = [u for u in range(n) if u not in self.table]
        if missing:
            raise PositionError(f"card uids must run 0..{len(self.table) - 1} without gaps: no card has uid "
                                f"{', '.join(map(str, missing[:5]))}{'...' if len(missing) > 5 else ''}")
        return [self.table[u][0] for u in range(n)], [self.table[u][1] for u in range(n)]


def _claimed_uids(position: dict[str, Any]) -> set[int]:
    """Every explicit uid of a card the position places (not references); refuses duplicates."""
    seen: set[int] = set()

    def take(entry: Any, where: str) -> None:
        if isinstance(entry, dict) and "uid" in entry:
            uid = _int(entry["uid"], f"{where} uid", 0)
            if uid in seen:
                raise PositionError(f"{where}: uid {uid} is given to two cards")
            seen.add(uid)

    for i, spec in enumerate(position.get("seats") or []):
        if isinstance(spec, dict):
            for zone in SEAT_ZONES:
                for c in spec.get(zone) or []:
                    take(c, f"seat {i} {zone}")
    for zone in TABLE_ZONES + ("threats",):
        for c in position.get(zone) or []:
            take(c, zone)
    for item in position.get("stack") or []:
        if isinstance(item, dict) and item.get("kind") != "boost":
            take(item, "stack")
    return seen


def _entry(raw: Any, where: str, keys: set[str] = CARD_KEYS) -> dict[str, Any]:
    """A card of a zone as a table (a bare id becomes ``{id}``); unknown keys refused."""
    if isinstance(raw, str):
        return {"id": raw}
    return _table(raw, where, keys)


class _Flags:
    """Card flags read while building, applied to the state once every card has its uid."""

    def __init__(self) -> None:
        self.tapped: set[int] = set()
        self.face_up: set[int] = set()
        self.spent: set[int] = set()
        self.replace_spent: set[int] = set()
        self.pile_info: dict[int, tuple[int | None, int | None]] = {}
        self.finale: dict[int, tuple[int, ...]] = {}

    def read(self, uid: int, entry: dict[str, Any], where: str, seats: int) -> None:
        for key, into in (("tapped", self.tapped), ("face_up", self.face_up), ("spent", self.spent),
                          ("replace_spent", self.replace_spent)):
            if key in entry and _bool(entry[key], f"{where} {key}"):
                into.add(uid)
        if "pile_info" in entry:
            info = _table(entry["pile_info"], f"{where} pile_info", {"by", "at"})
            self.pile_info[uid] = (_opt_seat(info, "by", f"{where} pile_info", seats),
                                   _opt_seat(info, "at", f"{where} pile_info", seats))
        if "finale" in entry:
            self.finale[uid] = tuple(_seat_list(entry["finale"], f"{where} finale", seats))


# ---------------------------------------------------------------------------------------- effects


def effect_from_json(data: Any, where: str) -> Effect:
    """The inverse of :func:`.position_dump.effect_to_json`, checked."""
    spec = _table(data, where, {f.name for f in fields(Effect)})
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
        c = _table(spec["cond"], f"{where} cond", {"test", "value", "who"})
        if c.get("test") not in CONDITION_TESTS:
            raise PositionError(f"{where} cond: unknown test {c.get('test')!r}")
        if c.get("who", "self") not in WHO:
            raise PositionError(f"{where} cond: who must be one of {', '.join(WHO)}")
        cond = Condition(c["test"], _int(c.get("value", 0), f"{where} cond value"), c.get("who", "self"))
    return Effect(op=op, amount=_int(spec.get("amount", 0), f"{where} amount"),
                  count=_int(spec.get("count", 0), f"{where} count"), who=who, kind=kind,
                  random=_bool(spec.get("random", False), f"{where} random"), cond=cond,
                  then=tuple(effect_from_json(x, f"{where} then") for x in _list(spec.get("then", []), f"{where} then")),
                  otherwise=tuple(effect_from_json(x, f"{where} otherwise")
                                  for x in _list(spec.get("otherwise", []), f"{where} otherwise")))




# ---------------------------------------------------------------------------------------- building
def build_from_position(cls: type[G], position: dict[str, Any], mode: str, lineup: str | None, seed: int,
                        settings: Settings | None, card_set: CardSet | None, rules: int | None = None) -> G:
    """The game ``position`` describes (see the module docstring), automatic steps run up to the next
    decision. Raises :class:`PositionError` naming the part of the position that is wrong."""
    from .base import Result
    from .numbers import ABILITIES

    if not isinstance(position, dict):
        raise PositionError("a position must be a table")
    unknown = set(position) - TOP_KEYS
    if unknown:
        raise PositionError(f"unknown position keys: {', '.join(sorted(map(str, unknown)))}")
    seats_spec = position.get("seats")
    if not isinstance(seats_spec, list) or not seats_spec:
        raise PositionError("a position needs a list of seats")
    lineup = lineup or position.get("lineup") or "R" * len(seats_spec)
    if len(lineup) != len(seats_spec):
        raise PositionError(f"lineup {lineup!r} has {len(lineup)} seats but the position describes {len(seats_spec)}")
    game = cls._blank(mode, lineup, seed, settings, card_set or starter_set(), (), rules)
    game._position = copy.deepcopy(position)   # kept for the record (construction only, not the hot path)
    game.deck_lists = []
    st = game.state
    n_seats = len(seats_spec)
    cards = _CardTable(game.cards, _claimed_uids(position))
    flags = _Flags()

    def place(raw: Any, owner: int, where: str, keys: set[str] = CARD_KEYS, owner_key: str = "owner") -> int:
        entry = _entry(raw, where, keys)
        if owner_key in entry:
            owner = _int(entry[owner_key], f"{where} {owner_key}", -1, n_seats - 1)
        uid = cards.new(entry.get("id"), owner, where, entry.get("uid"))
        flags.read(uid, entry, where, n_seats)
        return uid

    evil_seats = [k for k, ch in enumerate(lineup) if ch == "E"]
    for i, spec in enumerate(seats_spec):
        if not isinstance(spec, dict):
            raise PositionError(f"seat {i}: must be a table")
        bad = set(spec) - SEAT_KEYS
        if bad:
            raise PositionError(f"seat {i}: unknown keys {', '.join(sorted(map(str, bad)))}")
        sd = st.seats[i]
        sd.deck_id = spec.get("deck_id", "")
        sd.humility = int(spec.get("humility", sd.humility))
        sd.maturity = int(spec.get("maturity", 0))
        if not 0 <= sd.humility <= 10 or not 0 <= sd.maturity <= 3:
            raise PositionError(f"seat {i}: humility must be 0..10 and maturity 0..3")
        for zone in ("hand", "in_play", "discard"):
            getattr(sd, zone).extend(place(c, i, f"seat {i} {zone}") for c in _list(spec.get(zone, []), f"seat {i} {zone}"))
        for c in _list(spec.get("held", []), f"seat {i} held"):
            # an Evil Habitual belongs to the Evil seat that played it ({id, by}); by default the
            # first Evil seat in a duel, the Evil deck in co-op
            entry = _entry(c, f"seat {i} held", (CARD_KEYS - {"owner"}) | {"by"})
            by = entry.get("by", evil_seats[0] if evil_seats else -1)
            if by != -1 and by not in evil_seats:
                raise PositionError(f"seat {i} held: 'by' must be an Evil seat, not {by!r}")
            sd.held.append(place(entry, by, f"seat {i} held", (CARD_KEYS - {"owner"}) | {"by"}, owner_key="by"))
        deck_entries = list(_list(spec.get("deck", []), f"seat {i} deck"))
        if "deck_from" in spec:   # the rest of a named deck, shuffled: what the seat's other zones do not hold
            source = game.cards.decks.get(spec["deck_from"])
            if source is None:
                raise PositionError(f"seat {i} deck_from: unknown deck {spec['deck_from']!r}")
            rest = list(source.cards)
            placed = [c["id"] if isinstance(c, dict) else c
                      for zone in ("hand", "in_play", "discard", "cost_zone") for c in spec.get(zone, [])]
            for c in placed:
                if c in rest:
                    rest.remove(c)
            st.rng.shuffle(rest)
            deck_entries.extend(rest)
            sd.deck_id = sd.deck_id or spec["deck_from"]
        sd.deck = [place(c, i, f"seat {i} deck") for c in deck_entries][::-1]   # top first -> end of list
        sd.cost_zone.extend(place(c, i, f"seat {i} cost_zone") for c in _list(spec.get("cost_zone", []),
                                                                                f"seat {i} cost_zone"))
        sd.gained = _int(spec.get("gained", 0), f"seat {i} gained", 0)
        sd.levels_this_turn = _int(spec.get("levels_this_turn", 0), f"seat {i} levels_this_turn", 0)
        sd.speed_used = _bool(spec.get("speed_used", False), f"seat {i} speed_used")
        sd.love_to = _opt_seat(spec, "love_to", f"seat {i}", n_seats)
        sd.laid = _int(spec.get("laid", 0), f"seat {i} laid", 0)
    st.evil_deck = [place(c, -1, "evil_deck") for c in _list(position.get("evil_deck", []), "evil_deck")][::-1]
    st.resisted = [place(c, -1, "resisted") for c in _list(position.get("resisted", []), "resisted")]
    st.failed = [place(c, -1, "failed") for c in _list(position.get("failed", []), "failed")]
    st.resisted_total = _int(position.get("resisted_total", len(st.resisted)), "resisted_total", len(st.resisted))
    st.failed_total = _int(position.get("failed_total", len(st.failed)), "failed_total", len(st.failed))
    st.field = [place(c, -1, "field") for c in _list(position.get("field", []), "field")]
    st.round = _int(position.get("round", 1), "round", 1)
    turn_seat = _int(position.get("turn_seat", game._order[0] if game._order else 0), "turn_seat")
    if turn_seat not in game._order:
        raise PositionError(f"turn_seat {turn_seat} does not take turns in this mode")
    st.turn_index = game._order.index(turn_seat)
    st.turn_no = _int(position.get("turn_no", 1), "turn_no", 0)
    phase = position.get("phase", "main")
    if "step" in position:
        step = position["step"]
        if step not in PHASE_OF_STEP:
            raise PositionError(f"step must be one of {', '.join(PHASE_OF_STEP)}, not {step!r}")
        if "phase" in position and PHASE_OF_STEP[step] != phase:
            raise PositionError(f"step {step!r} is in the {PHASE_OF_STEP[step]} phase, not {phase!r}")
        st.step = step
    else:
        if phase not in PHASE_TO_STEP:
            raise PositionError(f"phase must be one of {', '.join(PHASE_TO_STEP)}, not {phase!r}")
        st.step = PHASE_TO_STEP[phase]
    phase = PHASE_OF_STEP[st.step]
    is_duel = game.mode.name == "duel"
    for n, raw in enumerate(_list(position.get("threats", []), "threats")):
        where = f"threats {n}"
        if phase != "resistance" and not is_duel:
            raise PositionError("threats are pending only in the resistance phase")
        t = _table(raw, where, THREAT_KEYS)
        target = _int(t.get("target", turn_seat), f"{where} target", 0, n_seats - 1)
        by = _opt_seat(t, "by", where, n_seats)
        uid = place({"id": t.get("card"), **{k: v for k, v in t.items() if k in CARD_FLAGS}},
                    by if by is not None else -1, where)
        resistance = t["resistance"] if "resistance" in t else game._x_value(cards.card(uid), target)
        st.threats.append(Threat(uid, target, by, _int(resistance, f"{where} resistance", 0),
                                 _int(t.get("paid", 0), f"{where} paid", 0)))
    for n, raw in enumerate(_list(position.get("stack", []), "stack")):
        st.stack.append(_stack_item(raw, f"stack {n}", place, n_seats))
    for a in _list(position.get("abilities", []), "abilities"):
        if a not in ABILITIES:
            raise PositionError(f"unknown ability {a!r}")
        st.abilities.append(a)
    charged = _list(position.get("charged", [a for a in st.abilities if a in ("restoration", "deliverance")]), "charged")
    for a in charged:
        if a not in ABILITIES:
            raise PositionError(f"charged: unknown ability {a!r}")
    st.charged = set(charged)
    righteous = [s.maturity for s in st.seats if s.side == "righteous"]
    st.team_level = _int(position.get("team_level", min(righteous)), "team_level", 0, 3)
    st.levels_rewarded = _int(position.get("levels_rewarded", st.team_level), "levels_rewarded", 0, 3)
    st.ability_picks = _int(position.get("ability_picks", 0), "ability_picks", 0)
    st.ability_chooser = _int(position.get("ability_chooser", 0), "ability_chooser", 0, n_seats - 1)
    clearing = position.get("clearing")
    if isinstance(clearing, dict):
        c = _table(clearing, "clearing", {"seat", "turn"})
        st.clearing = (_int(c.get("seat"), "clearing seat", 0, n_seats - 1), _int(c.get("turn"), "clearing turn", 0))
    elif clearing is not None:
        st.clearing = (_int(clearing, "clearing", 0, n_seats - 1), st.turn_no)
    st.last_chance = _bool(position.get("last_chance", False), "last_chance")
    st.state_id = _int(position.get("state_id", 0), "state_id", 0)
    if "result" in position:
        r = _table(position["result"], "result", {"winner", "reason", "round"})
        if r.get("winner") not in ("righteous", "evil") or not isinstance(r.get("reason"), str):
            raise PositionError("result: needs winner (righteous or evil) and reason (text)")
        st.result = Result(r["winner"], r["reason"], _int(r.get("round", st.round), "result round", 1))
    elif st.step == "over":
        raise PositionError("step 'over' needs a result")

    defs, game.owner = cards.finish()
    game._set_card_table(defs)
    n_cards = len(game.defs)

    def ref(value: Any, where: str) -> int:
        return _int(value, where, 0, n_cards - 1) if n_cards else _int(value, where, 0, -1)

    for item, raw in zip(st.stack, position.get("stack", [])):
        if item.kind == "boost":
            ref(item.uid, "stack boost uid")
            if isinstance(raw, dict) and "card" in raw and raw["card"] != game.defs[item.uid].id:
                raise PositionError(f"stack boost: uid {item.uid} is {game.defs[item.uid].id!r}, not {raw['card']!r}")
            if not 0 <= (item.boost or 0) < len(game.defs[item.uid].boosts):
                raise PositionError(f"stack boost: {game.defs[item.uid].id!r} has no boost {item.boost}")
        elif item.kind == "card" and item.threat is not None:
            ref(item.threat, "stack threat")
    st.tapped = flags.tapped
    st.face_up = flags.face_up
    st.pile_info = flags.pile_info
    st.window = _seat_list(position.get("window", []), "window", n_seats)
    for n, raw in enumerate(_list(position.get("offers", []), "offers")):
        o = _table(raw, f"offers {n}", OFFER_KEYS)
        where = f"offers {n}"
        st.offers.append(Offer(ref(o.get("uid"), f"{where} uid"), _int(o.get("controller"), f"{where} controller", 0,
                                                                       n_seats - 1),
                               _bool(o.get("fast", False), f"{where} fast"),
                               _int(o.get("depth", len(st.stack)), f"{where} depth", 0),
                               _opt_seat(o, "to_seat", where, n_seats),
                               tuple(_int(k, f"{where} taken", 0) for k in _list(o.get("taken", []), f"{where} taken"))))
    if "choice" in position:
        c = _table(position["choice"], "choice", CHOICE_KEYS)
        if c.get("purpose") not in CHOICE_PURPOSES:
            raise PositionError(f"choice purpose must be one of {', '.join(CHOICE_PURPOSES)}, not {c.get('purpose')!r}")
        options = [ref(u, "choice options") for u in _list(c.get("options", []), "choice options")]
        count = _int(c.get("count", 1), "choice count")
        st.choice = Choice(_int(c.get("seat"), "choice seat", 0, n_seats - 1), c["purpose"], options, count,
                           _int(c.get("minimum", count), "choice minimum"))
    for n, raw in enumerate(_list(position.get("effects", []), "effects")):
        where = f"effects {n}"
        e = _table(raw, where, PENDING_EFFECT_KEYS)
        src = _int(e.get("source", -1), f"{where} source", -1, n_cards - 1)
        me = _int(e.get("me", turn_seat), f"{where} me", 0, n_seats - 1)
        st.effects.append((effect_from_json(e.get("effect"), f"{where} effect"),
                           Ctx(me, _opt_seat(e, "mate", where, n_seats), _opt_seat(e, "target", where, n_seats),
                               _int(e.get("amplify", 0), f"{where} amplify"), src,
                               _int(e.get("controller", me), f"{where} controller", 0, n_seats - 1))))
    if "foresight" in position:
        n = _int(position["foresight"], "foresight", 0, len(st.evil_deck))
        st.foresight = st.evil_deck[len(st.evil_deck) - n:][::-1]
    if "phase_passes" in position:
        st.phase_passes = _seat_list(position["phase_passes"], "phase_passes", n_seats)
    elif st.step in ("resistance", "main"):
        st.phase_passes = game._phase_order()
    game._after_position()
    if st.duel is not None:
        _build_duel(game, position.get("duel", {}), flags, ref)
    elif "duel" in position:
        raise PositionError("duel: only a duel has duel state")
    elif flags.spent or flags.replace_spent or flags.finale:
        raise PositionError("spent, replace_spent and finale are duel flags")
    if "rng" in position:   # the generator as play resumes (after any deck_from shuffles)
        value = position["rng"]
        try:
            st.rng = game_rng_from_state(int(value, 0) if isinstance(value, str) else _int(value, "rng", 0),
                                         game.rules)
        except ValueError:
            raise PositionError(f"rng: must be a whole number or a '0x...' string, not {value!r}") from None
    game._advance()
    game.log.extend(game._events)
    game._events = []
    return game


def _stack_item(raw: Any, where: str, place: Any, n_seats: int) -> StackItem:
    """One stack item of a position (cards on it are placed, a boost item refers to its card)."""
    s = _table(raw, where, STACK_KEYS)
    kind = s.get("kind", "card")
    if kind not in ("card", "threat", "boost"):
        raise PositionError(f"{where}: kind must be card, threat or boost, not {kind!r}")
    card_flags = {k: v for k, v in s.items() if k in CARD_FLAGS}
    if kind == "boost":
        if set(card_flags) - {"uid"} or "uid" not in s:
            raise PositionError(f"{where}: a boost item names its card by uid (and carries no card flags)")
        item = StackItem("boost", _int(s["uid"], f"{where} uid", 0), _int(s.get("controller"), f"{where} controller",
                                                                           0, n_seats - 1),
                         _opt_seat(s, "to_seat", where, n_seats), None, _int(s.get("boost", 0), f"{where} boost", 0))
    elif kind == "threat":
        by = _opt_seat(s, "by", where, n_seats)
        uid = place({"id": s.get("card"), **card_flags}, by if by is not None else -1, where)
        target = _int(s.get("target"), f"{where} target", 0, n_seats - 1)
        item = StackItem("threat", uid, _int(s.get("controller"), f"{where} controller", 0, n_seats - 1), None, target)
        item.by = by
    else:
        controller = _int(s.get("controller"), f"{where} controller", 0, n_seats - 1)
        uid = place({"id": s.get("card"), **card_flags}, controller, where)
        threat = _int(s["threat"], f"{where} threat", 0) if "threat" in s else None
        item = StackItem("card", uid, controller, _opt_seat(s, "to_seat", where, n_seats), threat)
        item.amplify = _int(s.get("amplify", 0), f"{where} amplify")
        item.redirect_to = _opt_seat(s, "redirect_to", where, n_seats)
        item.fast_done = _bool(s.get("fast_done", False), f"{where} fast_done")
    if kind != "card" and set(s) & {"threat", "amplify", "redirect_to", "fast_done"}:
        raise PositionError(f"{where}: threat, amplify, redirect_to and fast_done belong to card items")
    if kind != "threat" and set(s) & {"target", "by"}:
        raise PositionError(f"{where}: target and by belong to threat items")
    return item


def _build_duel(game: "Game", raw: Any, flags: _Flags, ref: Any) -> None:
    """Set the duel's own state (DuelState) from a position's ``duel`` table and card flags."""
    st = game.state
    d = st.duel
    n = len(st.seats)
    spec = _table(raw, "duel", DUEL_KEYS)

    def per_seat(key: str, default: list[Any], kind: str = "int") -> list[Any]:
        if key not in spec:
            return default
        values = _list(spec[key], f"duel {key}")
        if len(values) != n:
            raise PositionError(f"duel {key}: needs one value a seat ({n}), not {len(values)}")
        if kind == "bool":
            return [_bool(v, f"duel {key}") for v in values]
        return [_int(v, f"duel {key}", 0) for v in values]

    chain = _table(spec.get("chain", {}), "duel chain", CHAIN_KEYS)
    d.chain_count = _int(chain.get("count", 0), "duel chain count", 0)
    d.chain_last = _opt_seat(chain, "last", "duel chain", n)
    d.chain_target = _opt_seat(chain, "target", "duel chain", n)
    d.chain_seats = tuple(_seat_list(chain.get("seats", []), "duel chain seats", n))
    d.chain_mixed = _bool(chain.get("mixed", False), "duel chain mixed")
    d.plays = per_seat("plays", [0] * n)
    d.failed_temptations = _int(spec.get("failed_temptations", 0), "duel failed_temptations", 0)
    d.rewards = _int(spec.get("rewards", 0), "duel rewards", 0)
    d.earned = per_seat("earned", [0] * n)
    d.bonus_given = per_seat("bonus_given", [0] * n)
    queue = []
    for k, r in enumerate(_list(spec.get("reward_queue", []), "duel reward_queue")):
        q = _table(r, f"duel reward_queue {k}", {"seat", "kind"})
        if q.get("kind") not in REWARD_KINDS:
            raise PositionError(f"duel reward_queue {k}: kind must be one of {', '.join(REWARD_KINDS)}")
        queue.append((_int(q.get("seat"), f"duel reward_queue {k} seat", 0, n - 1), str(q["kind"])))
    d.reward_queue = queue
    d.flagged = set(flags.spent)
    d.phase_plays = _int(spec.get("phase_plays", 0), "duel phase_plays", 0)
    key = _table(spec.get("phase_key", {}), "duel phase_key", {"turn", "phase"})
    phase = key.get("phase", "")
    if not isinstance(phase, str):
        raise PositionError("duel phase_key phase: must be text")
    d.phase_key = (_int(key.get("turn", 0), "duel phase_key turn", 0), phase)
    d.streak = per_seat("streaks", [0] * n)
    d.voided = per_seat("voided", [False] * n, "bool")
    d.evil_window = _seat_list(spec.get("evil_window", []), "duel evil_window", n)
    d.quiet = _bool(spec.get("quiet", False), "duel quiet")
    d.answer = _seat_list(spec.get("answer", []), "duel answer", n)
    d.answer_head = ref(spec["answer_head"], "duel answer_head") if "answer_head" in spec else None
    d.answering = _bool(spec.get("answering", False), "duel answering")
    if "righteous_clock" in spec:
        c = _table(spec["righteous_clock"], "duel righteous_clock", {"seat", "armed_turn"})
        d.r_clock = (_int(c.get("seat"), "duel righteous_clock seat", 0, n - 1),
                     _int(c.get("armed_turn", st.turn_no), "duel righteous_clock armed_turn", 0))
    if "evil_clock" in spec:
        c = _table(spec["evil_clock"], "duel evil_clock", {"armed_turn", "righteous_turns_since"})
        # no armed_turn: not armed (the count of Righteous turns is kept from an earlier arming)
        d.e_clock = _int(c["armed_turn"], "duel evil_clock armed_turn", 0) if "armed_turn" in c else None
        d.e_righteous_turns = _int(c.get("righteous_turns_since", 0), "duel evil_clock righteous_turns_since", 0)
    d.replace_spent = set(flags.replace_spent)
    d.finale = dict(flags.finale)
    # A-3, S-8: from rules 2 a seat's starting Maturity counts as already rewarded (as in co-op)
    d.seat_level_rewarded = per_seat("levels_rewarded", [sd.maturity if game.rules >= 2 else 0 for sd in st.seats])
    counts = spec.get("counts", {})
    if not isinstance(counts, dict):
        raise PositionError(f"duel counts: must be a table, not {counts!r}")
    d.counts = {str(k): _int(v, f"duel counts {k}", 0) for k, v in counts.items()}


# ---------------------------------------------------------------------------------------- reading back
