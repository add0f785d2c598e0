"""Games started from a described position (docs/design.md, "Positions"): ``Game.from_position``
builds the game a position describes; the format itself, every key and what it means, is
described in :mod:`.position_format`, and :mod:`.position_dump` writes any state reached in play
as a position.
Rules: S-8 (levels already rewarded), D-MR-1 (spent Habitual pairs), Z-6 (flip replacements), A-3
(levels rewarded per duel seat), as a position may set them.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, TypeVar

from ..cards.loader import CardSet, starter_set
from ..cards.model import CardDef
from .position_format import (
    CARD_FLAGS,
    CARD_KEYS,
    CHAIN_KEYS,
    CHOICE_KEYS,
    CHOICE_PURPOSES,
    DUEL_KEYS,
    OFFER_KEYS,
    PENDING_EFFECT_KEYS,
    PHASE_TO_STEP,
    REWARD_KINDS,
    SEAT_KEYS,
    SEAT_ZONES,
    STACK_KEYS,
    TABLE_ZONES,
    THREAT_KEYS,
    TOP_KEYS,
    PositionError,
    as_bool,
    as_int,
    as_list,
    as_seats,
    as_table,
    effect_from_json,
    opt_seat,
)
from .rng import game_rng_from_state
from .settings import Settings
from .state import PHASE_OF_STEP, Choice, Ctx, Offer, StackItem, Threat
from .costs import x_value
from .flow import advance, phase_order

if TYPE_CHECKING:
    from .base import GameBase as Game

G = TypeVar("G", bound="Game")


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
            uid = as_int(entry["uid"], f"{where} uid", 0)
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
    return as_table(raw, where, keys)


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
            if key in entry and as_bool(entry[key], f"{where} {key}"):
                into.add(uid)
        if "pile_info" in entry:
            info = as_table(entry["pile_info"], f"{where} pile_info", {"by", "at"})
            self.pile_info[uid] = (opt_seat(info, "by", f"{where} pile_info", seats),
                                   opt_seat(info, "at", f"{where} pile_info", seats))
        if "finale" in entry:
            self.finale[uid] = tuple(as_seats(entry["finale"], f"{where} finale", seats))


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
            owner = as_int(entry[owner_key], f"{where} {owner_key}", -1, n_seats - 1)
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
            getattr(sd, zone).extend(place(c, i, f"seat {i} {zone}") for c in as_list(spec.get(zone, []), f"seat {i} {zone}"))
        for c in as_list(spec.get("held", []), f"seat {i} held"):
            # an Evil Habitual belongs to the Evil seat that played it ({id, by}); by default the
            # first Evil seat in a duel, the Evil deck in co-op
            entry = _entry(c, f"seat {i} held", (CARD_KEYS - {"owner"}) | {"by"})
            by = entry.get("by", evil_seats[0] if evil_seats else -1)
            if by != -1 and by not in evil_seats:
                raise PositionError(f"seat {i} held: 'by' must be an Evil seat, not {by!r}")
            sd.held.append(place(entry, by, f"seat {i} held", (CARD_KEYS - {"owner"}) | {"by"}, owner_key="by"))
        deck_entries = list(as_list(spec.get("deck", []), f"seat {i} deck"))
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
        sd.cost_zone.extend(place(c, i, f"seat {i} cost_zone") for c in as_list(spec.get("cost_zone", []),
                                                                                f"seat {i} cost_zone"))
        sd.gained = as_int(spec.get("gained", 0), f"seat {i} gained", 0)
        sd.levels_this_turn = as_int(spec.get("levels_this_turn", 0), f"seat {i} levels_this_turn", 0)
        sd.speed_used = as_bool(spec.get("speed_used", False), f"seat {i} speed_used")
        sd.love_to = opt_seat(spec, "love_to", f"seat {i}", n_seats)
        sd.laid = as_int(spec.get("laid", 0), f"seat {i} laid", 0)
    st.evil_deck = [place(c, -1, "evil_deck") for c in as_list(position.get("evil_deck", []), "evil_deck")][::-1]
    st.resisted = [place(c, -1, "resisted") for c in as_list(position.get("resisted", []), "resisted")]
    st.failed = [place(c, -1, "failed") for c in as_list(position.get("failed", []), "failed")]
    st.resisted_total = as_int(position.get("resisted_total", len(st.resisted)), "resisted_total", len(st.resisted))
    st.failed_total = as_int(position.get("failed_total", len(st.failed)), "failed_total", len(st.failed))
    st.field = [place(c, -1, "field") for c in as_list(position.get("field", []), "field")]
    st.round = as_int(position.get("round", 1), "round", 1)
    turn_seat = as_int(position.get("turn_seat", game._order[0] if game._order else 0), "turn_seat")
    if turn_seat not in game._order:
        raise PositionError(f"turn_seat {turn_seat} does not take turns in this mode")
    st.turn_index = game._order.index(turn_seat)
    if "turn_index" in position:   # a round that gives a seat more than one turn (alternateTurns)
        index = as_int(position["turn_index"], "turn_index", 0)
        if index >= len(game._order) or game._order[index] != turn_seat:
            raise PositionError(f"turn_index {index} is not a turn of seat {turn_seat} in this table's turn order "
                                f"{list(game._order)}")
        st.turn_index = index
    st.turn_no = as_int(position.get("turn_no", 1), "turn_no", 0)
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
    for n, raw in enumerate(as_list(position.get("threats", []), "threats")):
        where = f"threats {n}"
        if phase != "resistance" and not is_duel:
            raise PositionError("threats are pending only in the resistance phase")
        t = as_table(raw, where, THREAT_KEYS)
        target = as_int(t.get("target", turn_seat), f"{where} target", 0, n_seats - 1)
        by = opt_seat(t, "by", where, n_seats)
        uid = place({"id": t.get("card"), **{k: v for k, v in t.items() if k in CARD_FLAGS}},
                    by if by is not None else -1, where)
        resistance = t["resistance"] if "resistance" in t else x_value(game, cards.card(uid), target)
        st.threats.append(Threat(uid, target, by, as_int(resistance, f"{where} resistance", 0),
                                 as_int(t.get("paid", 0), f"{where} paid", 0)))
    for n, raw in enumerate(as_list(position.get("stack", []), "stack")):
        st.stack.append(_stack_item(raw, f"stack {n}", place, n_seats))
    for a in as_list(position.get("abilities", []), "abilities"):
        if a not in ABILITIES:
            raise PositionError(f"unknown ability {a!r}")
        st.abilities.append(a)
    charged = as_list(position.get("charged", [a for a in st.abilities if a in ("restoration", "deliverance")]), "charged")
    for a in charged:
        if a not in ABILITIES:
            raise PositionError(f"charged: unknown ability {a!r}")
    st.charged = set(charged)
    righteous = [s.maturity for s in st.seats if s.side == "righteous"]
    st.team_level = as_int(position.get("team_level", min(righteous)), "team_level", 0, 3)
    st.levels_rewarded = as_int(position.get("levels_rewarded", st.team_level), "levels_rewarded", 0, 3)
    st.ability_picks = as_int(position.get("ability_picks", 0), "ability_picks", 0)
    st.ability_chooser = as_int(position.get("ability_chooser", 0), "ability_chooser", 0, n_seats - 1)
    clearing = position.get("clearing")
    if isinstance(clearing, dict):
        c = as_table(clearing, "clearing", {"seat", "turn"})
        st.clearing = (as_int(c.get("seat"), "clearing seat", 0, n_seats - 1), as_int(c.get("turn"), "clearing turn", 0))
    elif clearing is not None:
        st.clearing = (as_int(clearing, "clearing", 0, n_seats - 1), st.turn_no)
    st.last_chance = as_bool(position.get("last_chance", False), "last_chance")
    st.state_id = as_int(position.get("state_id", 0), "state_id", 0)
    if "result" in position:
        r = as_table(position["result"], "result", {"winner", "reason", "round"})
        if r.get("winner") not in ("righteous", "evil", "draw") or not isinstance(r.get("reason"), str):
            raise PositionError("result: needs winner (righteous, evil or draw) and reason (text)")
        st.result = Result(r["winner"], r["reason"], as_int(r.get("round", st.round), "result round", 1))
    elif st.step == "over":
        raise PositionError("step 'over' needs a result")

    defs, game.owner = cards.finish()
    game._set_card_table(defs)
    n_cards = len(game.defs)

    def ref(value: Any, where: str) -> int:
        return as_int(value, where, 0, n_cards - 1) if n_cards else as_int(value, where, 0, -1)

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
    st.window = as_seats(position.get("window", []), "window", n_seats)
    for n, raw in enumerate(as_list(position.get("offers", []), "offers")):
        o = as_table(raw, f"offers {n}", OFFER_KEYS)
        where = f"offers {n}"
        st.offers.append(Offer(ref(o.get("uid"), f"{where} uid"), as_int(o.get("controller"), f"{where} controller", 0,
                                                                       n_seats - 1),
                               as_bool(o.get("fast", False), f"{where} fast"),
                               as_int(o.get("depth", len(st.stack)), f"{where} depth", 0),
                               opt_seat(o, "to_seat", where, n_seats),
                               tuple(as_int(k, f"{where} taken", 0) for k in as_list(o.get("taken", []), f"{where} taken"))))
    if "choice" in position:
        c = as_table(position["choice"], "choice", CHOICE_KEYS)
        if c.get("purpose") not in CHOICE_PURPOSES:
            raise PositionError(f"choice purpose must be one of {', '.join(CHOICE_PURPOSES)}, not {c.get('purpose')!r}")
        options = [ref(u, "choice options") for u in as_list(c.get("options", []), "choice options")]
        count = as_int(c.get("count", 1), "choice count")
        st.choice = Choice(as_int(c.get("seat"), "choice seat", 0, n_seats - 1), c["purpose"], options, count,
                           as_int(c.get("minimum", count), "choice minimum"))
    for n, raw in enumerate(as_list(position.get("effects", []), "effects")):
        where = f"effects {n}"
        e = as_table(raw, where, PENDING_EFFECT_KEYS)
        src = as_int(e.get("source", -1), f"{where} source", -1, n_cards - 1)
        me = as_int(e.get("me", turn_seat), f"{where} me", 0, n_seats - 1)
        st.effects.append((effect_from_json(e.get("effect"), f"{where} effect"),
                           Ctx(me, opt_seat(e, "mate", where, n_seats), opt_seat(e, "target", where, n_seats),
                               as_int(e.get("amplify", 0), f"{where} amplify"), src,
                               as_int(e.get("controller", me), f"{where} controller", 0, n_seats - 1))))
    if "foresight" in position:
        n = as_int(position["foresight"], "foresight", 0, len(st.evil_deck))
        st.foresight = st.evil_deck[len(st.evil_deck) - n:][::-1]
    if "phase_passes" in position:
        st.phase_passes = as_seats(position["phase_passes"], "phase_passes", n_seats)
    elif st.step in ("resistance", "main"):
        st.phase_passes = phase_order(game)
    game.mode.after_position(game)
    if st.duel is not None:
        _build_duel(game, position.get("duel", {}), flags, ref)
    elif "duel" in position:
        raise PositionError("duel: only a duel has duel state")
    elif flags.spent or flags.replace_spent or flags.finale:
        raise PositionError("spent, replace_spent and finale are duel flags")
    if "rng" in position:   # the generator as play resumes (after any deck_from shuffles)
        value = position["rng"]
        try:
            st.rng = game_rng_from_state(int(value, 0) if isinstance(value, str) else as_int(value, "rng", 0),
                                         game.rules)
        except ValueError:
            raise PositionError(f"rng: must be a whole number or a '0x...' string, not {value!r}") from None
    advance(game)
    game.log.extend(game._events)
    game._events = []
    return game


def _stack_item(raw: Any, where: str, place: Any, n_seats: int) -> StackItem:
    """One stack item of a position (cards on it are placed, a boost item refers to its card)."""
    s = as_table(raw, where, STACK_KEYS)
    kind = s.get("kind", "card")
    if kind not in ("card", "threat", "boost"):
        raise PositionError(f"{where}: kind must be card, threat or boost, not {kind!r}")
    card_flags = {k: v for k, v in s.items() if k in CARD_FLAGS}
    if kind == "boost":
        if set(card_flags) - {"uid"} or "uid" not in s:
            raise PositionError(f"{where}: a boost item names its card by uid (and carries no card flags)")
        item = StackItem("boost", as_int(s["uid"], f"{where} uid", 0), as_int(s.get("controller"), f"{where} controller",
                                                                           0, n_seats - 1),
                         opt_seat(s, "to_seat", where, n_seats), None, as_int(s.get("boost", 0), f"{where} boost", 0))
    elif kind == "threat":
        by = opt_seat(s, "by", where, n_seats)
        uid = place({"id": s.get("card"), **card_flags}, by if by is not None else -1, where)
        target = as_int(s.get("target"), f"{where} target", 0, n_seats - 1)
        item = StackItem("threat", uid, as_int(s.get("controller"), f"{where} controller", 0, n_seats - 1), None, target)
        item.by = by
    else:
        controller = as_int(s.get("controller"), f"{where} controller", 0, n_seats - 1)
        uid = place({"id": s.get("card"), **card_flags}, controller, where)
        threat = as_int(s["threat"], f"{where} threat", 0) if "threat" in s else None
        item = StackItem("card", uid, controller, opt_seat(s, "to_seat", where, n_seats), threat)
        item.amplify = as_int(s.get("amplify", 0), f"{where} amplify")
        item.redirect_to = opt_seat(s, "redirect_to", where, n_seats)
        item.fast_done = as_bool(s.get("fast_done", False), f"{where} fast_done")
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
    spec = as_table(raw, "duel", DUEL_KEYS)

    def per_seat(key: str, default: list[Any], kind: str = "int") -> list[Any]:
        if key not in spec:
            return default
        values = as_list(spec[key], f"duel {key}")
        if len(values) != n:
            raise PositionError(f"duel {key}: needs one value a seat ({n}), not {len(values)}")
        if kind == "bool":
            return [as_bool(v, f"duel {key}") for v in values]
        return [as_int(v, f"duel {key}", 0) for v in values]

    chain = as_table(spec.get("chain", {}), "duel chain", CHAIN_KEYS)
    d.chain_count = as_int(chain.get("count", 0), "duel chain count", 0)
    d.chain_last = opt_seat(chain, "last", "duel chain", n)
    d.chain_target = opt_seat(chain, "target", "duel chain", n)
    d.chain_seats = tuple(as_seats(chain.get("seats", []), "duel chain seats", n))
    d.chain_mixed = as_bool(chain.get("mixed", False), "duel chain mixed")
    d.plays = per_seat("plays", [0] * n)
    d.failed_temptations = as_int(spec.get("failed_temptations", 0), "duel failed_temptations", 0)
    d.rewards = as_int(spec.get("rewards", 0), "duel rewards", 0)
    d.earned = per_seat("earned", [0] * n)
    d.bonus_given = per_seat("bonus_given", [0] * n)
    d.given = per_seat("given", [0] * n)
    d.zero_rounds = as_int(spec.get("humility_zero_rounds", 0), "duel humility_zero_rounds", 0)
    if "round_threats" in spec:
        rt = as_table(spec["round_threats"], "duel round_threats", {"round", "played"})
        d.round_threats_no = as_int(rt.get("round", 0), "duel round_threats round", 0)
        d.round_threats = as_int(rt.get("played", 0), "duel round_threats played", 0)
    queue = []
    for k, r in enumerate(as_list(spec.get("reward_queue", []), "duel reward_queue")):
        q = as_table(r, f"duel reward_queue {k}", {"seat", "kind"})
        if q.get("kind") not in REWARD_KINDS:
            raise PositionError(f"duel reward_queue {k}: kind must be one of {', '.join(REWARD_KINDS)}")
        queue.append((as_int(q.get("seat"), f"duel reward_queue {k} seat", 0, n - 1), str(q["kind"])))
    d.reward_queue = queue
    d.flagged = set(flags.spent)
    d.phase_plays = as_int(spec.get("phase_plays", 0), "duel phase_plays", 0)
    key = as_table(spec.get("phase_key", {}), "duel phase_key", {"turn", "phase"})
    phase = key.get("phase", "")
    if not isinstance(phase, str):
        raise PositionError("duel phase_key phase: must be text")
    d.phase_key = (as_int(key.get("turn", 0), "duel phase_key turn", 0), phase)
    d.streak = per_seat("streaks", [0] * n)
    d.voided = per_seat("voided", [False] * n, "bool")
    d.evil_window = as_seats(spec.get("evil_window", []), "duel evil_window", n)
    d.quiet = as_bool(spec.get("quiet", False), "duel quiet")
    d.answer = as_seats(spec.get("answer", []), "duel answer", n)
    d.answer_head = ref(spec["answer_head"], "duel answer_head") if "answer_head" in spec else None
    d.answering = as_bool(spec.get("answering", False), "duel answering")
    if "righteous_clock" in spec:
        c = as_table(spec["righteous_clock"], "duel righteous_clock", {"seat", "armed_turn"})
        d.r_clock = (as_int(c.get("seat"), "duel righteous_clock seat", 0, n - 1),
                     as_int(c.get("armed_turn", st.turn_no), "duel righteous_clock armed_turn", 0))
    if "evil_clock" in spec:
        c = as_table(spec["evil_clock"], "duel evil_clock", {"armed_turn", "righteous_turns_since"})
        # no armed_turn: not armed (the count of Righteous turns is kept from an earlier arming)
        d.e_clock = as_int(c["armed_turn"], "duel evil_clock armed_turn", 0) if "armed_turn" in c else None
        d.e_righteous_turns = as_int(c.get("righteous_turns_since", 0), "duel evil_clock righteous_turns_since", 0)
    d.replace_spent = set(flags.replace_spent)
    d.finale = dict(flags.finale)
    # A-3, S-8: from rules 2 a seat's starting Maturity counts as already rewarded (as in co-op)
    d.seat_level_rewarded = per_seat("levels_rewarded", [sd.maturity if game.rules >= 2 else 0 for sd in st.seats])
    counts = spec.get("counts", {})
    if not isinstance(counts, dict):
        raise PositionError(f"duel counts: must be a table, not {counts!r}")
    d.counts = {str(k): as_int(v, f"duel counts {k}", 0) for k, v in counts.items()}


# ---------------------------------------------------------------------------------------- reading back
