"""Per-seat views (docs/design.md, "Hidden information").

``make_view(game, seat)`` is the only thing a client or bot receives. Hidden from a viewer:
other seats' hands, every deck's order and contents, other seats' face-down Cost Zone cards,
the generator state, and search options of other seats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .flow import FlowRules as Game

HIDDEN: dict[str, Any] = {"hidden": True}


def card_json(game: "Game", uid: int) -> dict[str, Any]:
    card = game.defs[uid]
    return {"uid": uid, "id": card.id, "name": card.name, "kind": card.kind}


def make_view(game: "Game", viewer: int | None) -> dict[str, Any]:
    st = game.state
    if viewer is not None and not (isinstance(viewer, int) and 0 <= viewer < len(st.seats)):
        raise ValueError(f"there is no seat {viewer!r}")
    tapped, face_up = st.tapped, st.face_up
    seats = []
    for i, sd in enumerate(st.seats):
        mine = viewer == i
        cz = []
        for u in sd.cost_zone:
            if mine or u in face_up:
                entry = card_json(game, u)
            else:
                entry = dict(HIDDEN)
            entry["tapped"] = u in tapped
            entry["face_up"] = u in face_up
            cz.append(entry)
        seats.append({
            "seat": i,
            "side": sd.side,
            "deck": sd.deck_id,
            "humility": sd.humility,
            "maturity": sd.maturity,
            "hand": [card_json(game, u) for u in sd.hand] if mine else [dict(HIDDEN) for _ in sd.hand],
            "hand_size": len(sd.hand),
            "deck_size": len(sd.deck),
            "cost_zone": cz,
            "untapped": sum(1 for u in sd.cost_zone if u not in tapped),
            "in_play": [card_json(game, u) for u in sd.in_play],
            "held": [card_json(game, u) for u in sd.held],
            "discard": [card_json(game, u) for u in sd.discard],
            "love_to": sd.love_to,
        })
    stack = []
    for item in st.stack:
        entry = card_json(game, item.uid)
        entry.update({"item": item.kind, "controller": item.controller, "to_seat": item.to_seat})
        if item.kind == "boost":
            entry["boost"] = item.boost
        if item.kind == "threat":
            entry["target"] = item.threat
        stack.append(entry)
    threats = []
    for t in st.threats:
        entry = card_json(game, t.uid)
        entry.update({"target": t.target, "by": t.by, "resistance": t.resistance, "paid": t.paid,
                      "remaining": game._remaining(t),
                      "finale": st.duel is not None and t.uid in st.duel.finale})
        threats.append(entry)
    pending: list[dict[str, Any]] = []
    choice = None
    if viewer is not None:
        pending = [a.to_json() for a in game.legal_actions(viewer)]
        c = st.choice
        if c is not None and c.seat == viewer:
            choice = {"purpose": c.purpose, "count": c.count, "minimum": max(0, c.minimum),
                      "options": [card_json(game, u) for u in c.options]}
    decider = game._decider()
    res = game.result
    return {
        "state_id": st.state_id,
        "mode": game.mode.name,
        "lineup": game.lineup,
        "round": st.round,
        "max_rounds": game.settings.max_rounds if game.mode.has_round_limit else None,
        "turn_seat": game.turn_seat,
        "phase": game.phase,
        "viewer": viewer,
        "decider": decider,
        "seats": seats,
        "stack": stack,
        "threats": threats,
        "evil_deck_size": len(st.evil_deck),
        "foresight": [card_json(game, u) for u in st.foresight],
        "field": [card_json(game, u) for u in st.field],
        "piles": {"resisted": [card_json(game, u) for u in st.resisted],
                  "failed": [card_json(game, u) for u in st.failed]},
        "abilities": {"held": list(st.abilities), "charged": sorted(st.charged), "team_level": st.team_level,
                      "choosing": st.ability_picks > 0},
        "clearing": None if st.clearing is None else {"seat": st.clearing[0], "opened_turn": st.clearing[1]},
        "score": list(game.score),
        "score_parts": game.score_parts(),
        "result": None if res is None else {"winner": res.winner, "reason": res.reason, "round": res.round},
        "settings": game.settings.to_dict(),
        "choice": choice,
        "pending": pending,
        "duel": game.duel_view() if st.duel is not None else None,  # type: ignore[attr-defined]
    }
