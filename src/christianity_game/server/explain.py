"""What the board tells a player before they try: why a card cannot be played, what a play costs.

``explain(game, seat)`` asks the engine, never re-implements a rule:

* for each card the seat could play (its hand and its face-up Cost Zone cards) with no legal play
  now, the engine's refusal of a plain ``PlayCard`` (``IllegalAction``'s code and message), on a
  clone, so the real game is never touched;
* for each legal ``PlayCard``, the Cost it really takes (applied on a clone: the number of the
  seat's Cost Zone cards it rotates), which already counts the duel's combo and dominance
  discounts and the solo target-change fee;
* the Maturity Abilities the seat may buy now, with their prices and the seat's untapped Cost.

A card aimed at a teammate is asked about as played at one (at a table with one Righteous seat:
at the seat itself, P-7), so the refusal names the real reason, not a missing target; and with
one Righteous seat the engine's words about "the team" read as "you" (render/table_words.py).

A clone and one ``apply`` cost well under a millisecond each, and the board asks once per state.
"""

from __future__ import annotations

from typing import Any

from ..engine.actions import Action, IllegalAction, LayCostZone, PlayCard, action_from_json
from ..render.table_words import engine_message


def _untapped(game: Any, seat: int) -> int:
    st = game.state
    return sum(1 for u in st.seats[seat].cost_zone if u not in st.tapped)


def _price(game: Any, action: Action) -> int | None:
    """The Cost Zone cards ``action`` rotates, measured on a clone (None if it cannot be applied)."""
    g = game.clone()
    st0 = game.state
    was_untapped = [u for u in st0.seats[action.seat].cost_zone if u not in st0.tapped]
    try:
        g.apply(action)
    except Exception:   # noqa: BLE001 - a price is a hint; never fail the page
        return None
    st = g.state
    now = set(st.seats[action.seat].cost_zone)
    return sum(1 for u in was_untapped if u in now and u in st.tapped)


def _righteous(game: Any) -> int:
    return len(game.righteous_seats())


def refusal(game: Any, seat: int, uid: int) -> dict[str, str]:
    """The engine's reason a plain play of card ``uid`` by ``seat`` is refused now (a card aimed at
    a teammate: played at the first other Righteous seat, or at ``seat`` when it has none, P-7)."""
    st = game.state
    action: Action
    if st.step == "lay" and uid in st.seats[seat].hand:
        action = LayCostZone(seat, uid)
    elif game.defs[uid].aims_at_mate:
        mates = [s for s in game.righteous_seats() if s != seat]
        action = PlayCard(seat, uid, to_seat=mates[0] if mates else seat)
    else:
        action = PlayCard(seat, uid)
    g = game.clone()
    try:
        g.apply(action)
    except IllegalAction as exc:
        return {"code": exc.code, "message": engine_message(exc.message, _righteous(game))}
    return {"code": "ok", "message": "it can be played"}


def explain(game: Any, seat: int | None) -> dict[str, Any]:
    """Refusal reasons, play prices and ability prices for ``seat`` (None: a spectator: nothing)."""
    out: dict[str, Any] = {"state_id": game.state_id, "seat": seat, "cards": {}, "plays": [], "buy": [],
                           "untapped": None}
    if seat is None or game.result is not None:
        return out
    st = game.state
    sd = st.seats[seat]
    out["untapped"] = _untapped(game, seat)
    legal = game.legal_actions(seat)
    playable = {a.card for a in legal if isinstance(a, (PlayCard, LayCostZone))}
    candidates = list(sd.hand) + [u for u in sd.cost_zone if u in st.face_up]
    for uid in candidates:
        if uid not in playable:
            out["cards"][str(uid)] = refusal(game, seat, uid)
    from ..engine.game import ABILITY_PRICE
    for a in legal:
        j = a.to_json()
        if isinstance(a, PlayCard):
            j["price"] = _price(game, a)
            out["plays"].append(j)
        elif j["type"] == "BuyAbility":
            j["price"] = ABILITY_PRICE.get(j.get("ability", ""), None)
            out["buy"].append(j)
    return out


def explain_action(game: Any, data: dict[str, Any]) -> dict[str, str]:
    """Whether one action (JSON) would be accepted now, and if not, the engine's code and words."""
    try:
        action = action_from_json(data)
    except IllegalAction as exc:
        return {"code": exc.code, "message": exc.message}
    g = game.clone()
    try:
        g.apply(action)
    except IllegalAction as exc:
        return {"code": exc.code, "message": engine_message(exc.message, _righteous(game))}
    return {"code": "ok", "message": "it would be accepted"}
