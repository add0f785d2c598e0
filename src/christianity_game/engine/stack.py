"""Playing cards, the stack, response windows, boosts and resolution (P-*), threats failing (CO-6).

Rules: P-1 (the five steps of a play), P-2..P-5 (boosts, payers, the fast mark), P-6 (Instants in
response windows), P-7 (the solo Target-Change fee), CO-5 (resisting by payment), CO-6 and S-3
(failed threats: Humility, Habituals take hold), CO-7 (breaking a holding Habitual).
"""

from __future__ import annotations

from .actions import (
    PlayCard,
    Resist,
    TakeBoost,
)
from .state import Ctx, Offer, StackItem, Threat
from .badges import change_humility, raise_maturity
from .base import GameBase
from .costs import card_play, pay, playable_cards, remaining, take_from_play_zone, target_change_fee, x_value


def do_play(game: GameBase, a: PlayCard) -> None:
    st = game.state
    card = game.defs[a.card]
    fee = target_change_fee(game, a.seat, card)
    from_cz = a.card in st.seats[a.seat].cost_zone
    pay(game, a.seat, card.cost + fee, prefer=a.card if from_cz else None)
    take_from_play_zone(game, a.seat, a.card)
    if st.step != "main" and card.kind in ("maturity", "righteous_habitual") and a.seat == game.turn_seat \
            and not st.window:
        st.seats[a.seat].speed_used = True   # Speed: once per turn outside Main
    item = StackItem("card", a.card, a.seat, a.to_seat, a.threat)
    game._emit("played", a.seat, a.card, data={"to_seat": a.to_seat, "threat": a.threat, "fee": fee})
    game.mode.on_card_played(game, a.seat, a.card)
    push(game, item)


def push(game: GameBase, item: StackItem) -> None:
    """P-4, P-6: put an item on the stack and open the response window."""
    st = game.state
    st.stack.append(item)
    st.window = responders(game)


def responders(game: GameBase) -> list[int]:
    righteous = game._righteous
    return [i for i in game._rotations[game.turn_seat] if i in righteous and can_respond(game, i)]


def do_resist(game: GameBase, a: Resist) -> None:
    st = game.state
    threat = next((t for t in st.threats if t.uid == a.threat), None)
    pay(game, a.seat, a.amount)
    if threat is None:   # CO-7: a holding Habitual, paid in full
        game.mode.break_held(game, a.threat, by_seat=a.seat, how="paid")
        return
    threat.paid += a.amount
    game._emit("resist_paid", a.seat, data={"threat": a.threat, "amount": a.amount})
    if remaining(game, threat) == 0:
        game.mode.resist_threat(game, threat, a.seat, "paid")


def resist_threat(game: GameBase, threat: Threat, seat: int, how: str) -> None:
    """P-1 step 2: a resisted threat never reaches the stack; it goes to the Resisted pile."""
    st = game.state
    st.threats.remove(threat)
    to_pile(game, threat.uid, "resisted", threat.by, threat.target)
    game._emit("resisted", seat, threat.uid, data={"target": threat.target, "how": how})
    card = game.defs[threat.uid]
    if card.is_ambush:
        for u in game._passive_cards(threat.target):
            n = game.defs[u].passive.ambush_reward
            if n and threat.resistance - n > 0:
                change_humility(game, threat.target, threat.resistance - n, u)
    on_threat_resisted(game, threat, seat)


def on_threat_resisted(game: GameBase, threat: Threat, seat: int) -> None:
    """Hook: duel combo resets, streaks."""


def to_pile(game: GameBase, uid: int, pile: str, by: int | None, at: int | None) -> None:
    st = game.state
    if pile == "resisted":
        st.resisted.append(uid)
        st.resisted_total += 1
    else:
        st.failed.append(uid)
        st.failed_total += 1
    st.pile_info[uid] = (by, at)


def break_held(game: GameBase, uid: int, by_seat: int, how: str) -> None:
    st = game.state
    for i, sd in enumerate(st.seats):
        if uid in sd.held:
            sd.held.remove(uid)
            to_pile(game, uid, "resisted", None, i)
            game._emit("habitual_broken", by_seat, uid, data={"held_by": i, "how": how})
            return
    if uid in st.field:
        st.field.remove(uid)
        to_pile(game, uid, "resisted", None, None)
        game._emit("habitual_broken", by_seat, uid, data={"held_by": None, "how": how})


def do_boost(game: GameBase, a: TakeBoost) -> None:
    st = game.state
    offer = st.offers[-1]
    card = game.defs[offer.uid]
    boost = card.boosts[a.index]
    needs_mate = boost.needs_mate
    fee = game.settings.solo_fee if game.is_solo() and (boost.payer == "teammate" or needs_mate) else 0
    pay(game, a.payer, boost.cost + fee)
    offer.taken = offer.taken + (a.index,)
    game._emit("boost_taken", a.seat, offer.uid, data={"index": a.index, "payer": a.payer, "fee": fee})
    game.mode.on_card_played(game, a.seat, -1)
    push(game, StackItem("boost", offer.uid, offer.controller, a.to_seat, None, a.index))


def play_threat(game: GameBase, uid: int, target: int, by: int | None) -> None:
    card = game.defs[uid]
    resistance = x_value(game, card, target)
    game.state.threats.append(Threat(uid, target, by, resistance))
    game._emit("threat_played", by, uid, data={"target": target, "resistance": resistance})


def resolve(game: GameBase, item: StackItem) -> None:
    """P-1 steps 4-5: rules text first; the boost offer opens after."""
    st = game.state
    card = game.defs[item.uid]
    if item.kind == "threat":
        resolve_failed_threat(game, item)
        return
    if item.kind == "boost":
        boost = card.boosts[item.boost or 0]
        ctx = context_of(game, item, boost_to=item.to_seat)
        fast_target = next((s for s in reversed(st.stack) if s.kind == "card" and s.uid == item.uid), None)
        for e in boost.effects:
            if e.op == "amplify" and fast_target is not None:
                fast_target.amplify += e.amount
            elif e.op == "redirect" and fast_target is not None:
                fast_target.redirect_to = item.to_seat if item.to_seat is not None else item.controller
            else:
                st.effects.append((e, ctx))
        game._emit("resolved", item.controller, item.uid, data={"boost": item.boost})
        return
    ctx = context_of(game, item)
    seat = item.controller
    sd = st.seats[seat]
    game._emit("resolved", seat, item.uid)
    if card.kind == "maturity":
        raise_maturity(game, ctx.me if item.redirect_to is not None else seat, 1, item.uid)   # S-5
    if card.kind == "resistance" and item.threat is not None:
        threat = next((t for t in st.threats if t.uid == item.threat), None)
        if threat is not None:
            game.mode.resist_threat(game, threat, seat, "card")
        elif item.threat in sd.held:
            game.mode.break_held(game, item.threat, seat, "card")
    attached = False
    for e in card.effects:
        if e.op == "attach":
            attached = True
            dest = ctx.mate if (e.who == "teammate" and ctx.mate is not None) else ctx.me
            st.seats[dest].in_play.append(item.uid)
            game._emit("attached", dest, item.uid)
        else:
            st.effects.append((e, ctx))
    if card.kind == "righteous_habitual" and not attached:
        sd.in_play.append(item.uid)
        game._emit("attached", seat, item.uid)
    elif card.kind != "righteous_habitual":
        game.state.seats[game.owner[item.uid]].discard.append(item.uid)
    if card.boosts and any(not b.fast for b in card.boosts):
        st.offers.append(Offer(item.uid, seat, False, len(st.stack), item.to_seat))


def context_of(game: GameBase, item: StackItem, boost_to: int | None = None) -> Ctx:
    st = game.state
    seat = item.controller
    me = seat
    mate = item.to_seat if item.to_seat is not None else boost_to
    if item.kind == "card":
        if item.redirect_to is not None:
            me = item.redirect_to
        else:
            love_to = st.seats[seat].love_to
            if love_to is not None:
                me = love_to   # Brotherly Love: the next card's benefit
                st.seats[seat].love_to = None
    if mate is None:
        mates = game._teammates(seat)
        mate = mates[0] if mates else seat   # P-7: in solo the card points at you
    return Ctx(me, mate, None, item.amplify if item.kind == "card" else 0, item.uid, seat)


def resolve_failed_threat(game: GameBase, item: StackItem) -> None:
    """CO-6, S-3: the target loses 1 Humility; the card's text; Habituals take hold."""
    st = game.state
    target = item.threat if item.threat is not None else game.turn_seat
    card = game.defs[item.uid]
    change_humility(game, target, -1, item.uid)
    ctx = Ctx(target, None, target, 0, item.uid, target)
    for e in card.effects:
        st.effects.append((e, ctx))
    if card.kind == "evil_habitual":
        st.seats[target].held.append(item.uid)
        game._emit("took_hold", target, item.uid)
        game.mode.on_habitual_took_hold(game, item)
    else:
        to_pile(game, item.uid, "failed", item.by, target)
        game.mode.on_temptation_failed(game, item)


def can_respond(game: GameBase, seat: int) -> bool:
    """P-6: the seat holds an Instant it can pay for (its hand or face-up Cost Zone cards)."""
    instants = game._instant_cards()
    st = game.state
    if instants.isdisjoint(st.seats[seat].hand) and instants.isdisjoint(st.face_up):
        return False   # most of the time: no Instant in hand nor face up in any Cost Zone
    free = -1
    for u in playable_cards(game, seat):
        if u in instants:
            if free < 0:   # most hands hold no Instant: count the untapped cards only when one does
                free = game._untapped(seat)
            if card_play(game, seat, u)[1] <= free:
                return True
    return False
