"""Paying and the Cost Zone (Z-*): rotating cards to pay, intake, face-up plays, resistance costs.

Rules: Z-1 (paying by rotation; DECISION: face-down cards first, in order), Z-3 (intake), Z-6
(face-up Cost Zone cards can be played), the passive resist discount of Habituals, CO-7's full
resistance of a holding Habitual, Vibrancy's random flip (A-1), and what each card needs to be
played (its Cost, plus P-7's solo Target-Change fee when it aims at a missing teammate), worked out
once per card table for the move generator (``_card_play``).
"""

from __future__ import annotations

from ..cards.model import CardDef
from .actions import Action, intern_play
from .state import Threat
from .base import GameBase


def card_play(game: GameBase, seat: int, uid: int, threat: int | None = None) -> tuple[str, int, tuple[Action, ...]]:
    """What the move generator needs of one card played by ``seat`` (at ``threat``): its kind,
    the untapped Cost Zone cards it needs (its Cost, plus the solo Target-Change fee when it
    aims at a teammate and there is none: P-7) and its PlayCard actions (one per teammate when
    it aims at one). Worked out once per game and card table and kept in ``_card_plays``, which
    the move generator's loops read first."""
    key = uid if threat is None else (uid, threat)
    plays = game._card_plays[seat]
    known = plays.get(key)
    if known is None:
        card = game.defs[uid]
        need = card.cost + target_change_fee(game, seat, card)
        if card.aims_at_mate:
            mates = game._teammates(seat) or (seat,)   # P-7: in solo the card points at you
            known = (card.kind, need, tuple(intern_play(seat, uid, threat, m) for m in mates))
        else:
            known = (card.kind, need, (intern_play(seat, uid, threat),))
        plays[key] = known
    return known


def target_change_fee(game: GameBase, seat: int, card: CardDef) -> int:
    """P-7: what a card aimed at a teammate costs more when ``seat`` has none (solo)."""
    return game.settings.solo_fee if card.aims_at_mate and not game._teammates(seat) else 0


def intake(game: GameBase, seat: int) -> int:
    return max(0, game.mode.intake_cap(game, seat) + game._passive_total(seat, "intake"))


def pay(game: GameBase, seat: int, n: int, prefer: int | None = None) -> None:
    """Rotate ``n`` untapped Cost Zone cards (Z-1). DECISION: face-down cards first, in order."""
    if n <= 0:
        return
    st = game.state
    tapped = st.tapped
    cz = st.seats[seat].cost_zone
    if prefer is not None and prefer in cz and prefer not in tapped:
        tapped.add(prefer)
        n -= 1
    if n > 0:
        face_up = st.face_up
        for u in cz:
            if u not in tapped and u not in face_up:
                tapped.add(u)
                n -= 1
                if n == 0:
                    break
    if n > 0:
        for u in cz:
            if u not in tapped:
                tapped.add(u)
                n -= 1
                if n == 0:
                    break
    if n > 0:
        raise AssertionError("paid more than the seat had: legality check missed it")
    game._emit("rotated", seat)


def take_from_play_zone(game: GameBase, seat: int, uid: int) -> None:
    sd = game.state.seats[seat]
    if uid in sd.hand:
        sd.hand.remove(uid)
    else:
        sd.cost_zone.remove(uid)
        game.state.tapped.discard(uid)
        game.state.face_up.discard(uid)
        game.mode.on_left_cost_zone(game, seat, uid)


def flip_random(game: GameBase, seat: int, n: int) -> None:
    st = game.state
    down = [u for u in st.seats[seat].cost_zone if u not in st.face_up]
    for _ in range(min(n, len(down))):
        u = down.pop(st.rng.randbelow(len(down)))
        st.face_up.add(u)
        game._emit("flipped", seat, u)


def resist_discount(game: GameBase, seat: int) -> int:
    return game._passive_total(seat, "resist_discount")


def remaining(game: GameBase, t: Threat) -> int:
    return max(0, t.resistance - resist_discount(game, t.target) - t.paid)


def card_resists(game: GameBase, card_uid: int, threat_uid: int, resistance: int) -> bool:
    spec = game.defs[card_uid].resists
    if spec is None:
        return False
    if game.defs[threat_uid].kind not in spec.kinds:
        return False
    return spec.max is None or resistance <= spec.max


def held_resistance(game: GameBase, seat: int, uid: int) -> int:
    card = game.defs[uid]
    base = card.resistance if card.resistance is not None else x_value(game, card, seat)
    return max(0, base - resist_discount(game, seat))


def x_value(game: GameBase, card: CardDef, target: int) -> int:
    rule = card.x_rule
    if rule is None:
        return card.resistance or 0
    sd = game.state.seats[target]
    of = rule.of
    if of == "target_cost_zone":
        base = len(sd.cost_zone)
    elif of == "target_hand":
        base = len(sd.hand)
    elif of == "target_maturity":
        base = sd.maturity
    elif of == "target_humility":
        base = sd.humility
    else:   # "held_habituals"
        base = len(sd.held)
    return max(0, base + rule.plus)


def playable_cards(game: GameBase, seat: int) -> list[int]:
    """Cards the seat could play: its hand and its face-up Cost Zone cards (Z-6)."""
    sd = game.state.seats[seat]
    face_up = game.state.face_up
    if not face_up:
        return sd.hand
    return sd.hand + list(filter(face_up.__contains__, sd.cost_zone))
