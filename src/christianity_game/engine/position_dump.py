"""Writing any moment of a game as a position (``Game.to_position``): the inverse of building one.

``Game.from_position(game.to_position(), mode, lineup, seed, settings)`` rebuilds a game with the
same state, views and legal actions (a property test checks it over 2,000 states of every mode).
The keys are the ones :mod:`.position` reads, documented there; every card carries its ``uid``.
It holds hidden information (hands, deck orders, the generator's state): an engine and test tool,
never something to send to a client. Rules: the duel state it writes is that of D-COMBO, D-MR,
D-MB and D-W (see :mod:`.duel`).
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Any, Iterable

from ..cards.model import Condition, Effect
from .position_format import PHASE_TO_STEP
from .state import PHASE_OF_STEP

if TYPE_CHECKING:
    from .base import GameBase as Game


def effect_to_json(e: Effect) -> dict[str, Any]:
    """An effect of the card vocabulary as plain data (only the fields that differ from the defaults)."""
    out: dict[str, Any] = {"op": e.op}
    for f in fields(Effect):
        if f.name == "op":
            continue
        value = getattr(e, f.name)
        if value == f.default:
            continue
        if isinstance(value, Condition):
            out[f.name] = {"test": value.test, "value": value.value, "who": value.who}
        elif f.name in ("then", "otherwise"):
            out[f.name] = [effect_to_json(x) for x in value]
        else:
            out[f.name] = value
    return out


def none_free(pairs: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """A table of the pairs whose value is not None (a missing key reads back as None)."""
    return {k: v for k, v in pairs if v is not None}


def to_position(game: "Game") -> dict[str, Any]:
    """The position of ``game`` now: ``Game.from_position(to_position(game), mode, lineup, seed,
    settings)`` rebuilds a game with the same state, views and legal actions.

    Pure data (JSON and TOML: no ``None``, text keys, cards by card id with their ``uid``). It holds
    hidden information (every hand, every deck's order, the generator's state): an engine and test
    tool, never something to send to a client. The action list and the event log are not part of it.
    """
    st = game.state
    d = st.duel
    evil_seats = [i for i, sd in enumerate(st.seats) if sd.side == "evil"]
    flagged: set[int] = d.flagged if d is not None else set()
    replace_spent: set[int] = d.replace_spent if d is not None else set()
    finale: dict[int, tuple[int, ...]] = d.finale if d is not None else {}
    written: list[int] = []

    def flags_of(uid: int, out: dict[str, Any]) -> dict[str, Any]:
        if uid in st.tapped:
            out["tapped"] = True
        if uid in st.face_up:
            out["face_up"] = True
        if uid in flagged:
            out["spent"] = True
        if uid in replace_spent:
            out["replace_spent"] = True
        if uid in st.pile_info:
            by, at = st.pile_info[uid]
            out["pile_info"] = none_free((("by", by), ("at", at)))
        if uid in finale:
            out["finale"] = list(finale[uid])
        written.append(uid)
        return out

    def card(uid: int, default_owner: int, owner_key: str = "owner") -> dict[str, Any]:
        out: dict[str, Any] = {"id": game.defs[uid].id, "uid": uid}
        if game.owner[uid] != default_owner:
            out[owner_key] = game.owner[uid]
        return flags_of(uid, out)

    seats = []
    held_default = evil_seats[0] if evil_seats else -1
    for i, sd in enumerate(st.seats):
        spec: dict[str, Any] = {
            "deck_id": sd.deck_id, "humility": sd.humility, "maturity": sd.maturity,
            "hand": [card(u, i) for u in sd.hand],
            "cost_zone": [card(u, i) for u in sd.cost_zone],
            "in_play": [card(u, i) for u in sd.in_play],
            "held": [card(u, held_default, "by") for u in sd.held],
            "discard": [card(u, i) for u in sd.discard],
            "deck": [card(u, i) for u in sd.deck[::-1]],   # top first
            "gained": sd.gained, "levels_this_turn": sd.levels_this_turn, "speed_used": sd.speed_used,
            "laid": sd.laid,
        }
        if sd.love_to is not None:
            spec["love_to"] = sd.love_to
        seats.append(spec)

    threats = []
    for t in st.threats:
        entry = card(t.uid, t.by if t.by is not None else -1)
        entry["card"] = entry.pop("id")
        entry.update(none_free((("target", t.target), ("by", t.by), ("resistance", t.resistance), ("paid", t.paid))))
        threats.append(entry)
    stack = []
    for item in st.stack:
        if item.kind == "boost":
            stack.append(none_free((("kind", "boost"), ("card", game.defs[item.uid].id), ("uid", item.uid),
                                     ("boost", item.boost), ("controller", item.controller),
                                     ("to_seat", item.to_seat))))
            continue
        if item.kind == "threat":
            entry = card(item.uid, item.by if item.by is not None else -1)
            entry.update(none_free((("target", item.threat), ("by", item.by))))
        else:
            entry = card(item.uid, item.controller)
            entry.update(none_free((("to_seat", item.to_seat), ("threat", item.threat),
                                     ("amplify", item.amplify), ("redirect_to", item.redirect_to),
                                     ("fast_done", item.fast_done))))
        entry["card"] = entry.pop("id")
        entry.update({"kind": item.kind, "controller": item.controller})
        stack.append(entry)

    step = st.step
    position: dict[str, Any] = {"lineup": game.lineup, "round": st.round, "turn_seat": game.turn_seat}
    if len(game._order) > len(st.seats):   # a seat takes more than one turn a round (alternateTurns): which one
        position["turn_index"] = st.turn_index
    phase = PHASE_OF_STEP[step]
    if phase in PHASE_TO_STEP:
        position["phase"] = phase
    if PHASE_TO_STEP.get(phase) != step:
        position["step"] = step
    position.update({
        "turn_no": st.turn_no, "state_id": st.state_id, "rng": f"{st.rng.state:#x}",
        "seats": seats,
        "evil_deck": [card(u, -1) for u in st.evil_deck[::-1]],   # top first
        "resisted": [card(u, -1) for u in st.resisted],
        "failed": [card(u, -1) for u in st.failed],
        "resisted_total": st.resisted_total, "failed_total": st.failed_total,
        "field": [card(u, -1) for u in st.field],
        "threats": threats, "stack": stack,
        "window": list(st.window), "phase_passes": list(st.phase_passes),
        "offers": [none_free((("uid", o.uid), ("controller", o.controller), ("fast", o.fast), ("depth", o.depth),
                               ("to_seat", o.to_seat), ("taken", list(o.taken)))) for o in st.offers],
        "effects": [none_free((("effect", effect_to_json(e)), ("me", ctx.me), ("mate", ctx.mate),
                                ("target", ctx.target), ("amplify", ctx.amplify), ("source", ctx.source),
                                ("controller", ctx.controller))) for e, ctx in st.effects],
        "abilities": list(st.abilities), "charged": sorted(st.charged),
        "team_level": st.team_level, "levels_rewarded": st.levels_rewarded,
        "ability_picks": st.ability_picks, "ability_chooser": st.ability_chooser,
        "last_chance": st.last_chance,
    })
    if st.clearing is not None:
        position["clearing"] = {"seat": st.clearing[0], "turn": st.clearing[1]}
    c = st.choice
    if c is not None:
        if c.data is not None:
            raise ValueError(f"a choice carrying data ({c.data!r}) cannot be written as a position")
        position["choice"] = {"seat": c.seat, "purpose": c.purpose, "options": list(c.options), "count": c.count,
                              "minimum": c.minimum}
    if st.foresight:
        n = len(st.foresight)
        if st.foresight != st.evil_deck[len(st.evil_deck) - n:][::-1]:
            raise ValueError("the Foresight cards are not the top of the Evil deck")
        position["foresight"] = n
    res = st.result
    if res is not None:
        position["result"] = {"winner": res.winner, "reason": res.reason, "round": res.round}
    if d is not None:
        position["duel"] = _duel_to_position(d)
    if sorted(written) != list(range(len(game.defs))):
        raise ValueError("the game's cards are not each in exactly one zone; it cannot be written as a position")
    if not (st.tapped | st.face_up) <= {u for sd in st.seats for u in sd.cost_zone}:
        raise ValueError("a tapped or face-up card lies outside every Cost Zone")
    return position


def _duel_to_position(d: Any) -> dict[str, Any]:
    """The ``duel`` table of a position (card flags are written on the cards themselves)."""
    out: dict[str, Any] = {
        "chain": none_free((("count", d.chain_count), ("last", d.chain_last), ("target", d.chain_target),
                             ("seats", list(d.chain_seats)), ("mixed", d.chain_mixed))),
        "plays": list(d.plays), "failed_temptations": d.failed_temptations, "rewards": d.rewards,
        "earned": list(d.earned), "bonus_given": list(d.bonus_given),
        "reward_queue": [{"seat": s, "kind": k} for s, k in d.reward_queue],
        "phase_plays": d.phase_plays, "phase_key": {"turn": d.phase_key[0], "phase": d.phase_key[1]},
        "streaks": list(d.streak), "voided": list(d.voided), "evil_window": list(d.evil_window), "quiet": d.quiet,
        "answer": list(d.answer), "answering": d.answering,
        "levels_rewarded": list(d.seat_level_rewarded), "counts": dict(d.counts),
    }
    if any(d.given):   # the variants' tallies, written only when they hold something
        out["given"] = list(d.given)
    if d.zero_rounds:
        out["humility_zero_rounds"] = d.zero_rounds
    if d.round_threats:
        out["round_threats"] = {"round": d.round_threats_no, "played": d.round_threats}
    if d.answer_head is not None:
        out["answer_head"] = d.answer_head
    if d.r_clock is not None:
        out["righteous_clock"] = {"seat": d.r_clock[0], "armed_turn": d.r_clock[1]}
    if d.e_clock is not None or d.e_righteous_turns:
        out["evil_clock"] = none_free((("armed_turn", d.e_clock), ("righteous_turns_since", d.e_righteous_turns)))
    return out
