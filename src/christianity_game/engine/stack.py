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
from .effects import EffectRules
from .state import Ctx, Offer, StackItem, Threat


class StackRules(EffectRules):
    """Playing cards, the stack, response windows, boosts and resolution (P-*), threats failing (CO-6)."""

    __slots__ = ()

    def _do_play(self, a: PlayCard) -> None:
        st = self.state
        card = self.defs[a.card]
        fee = self._target_change_fee(a.seat, card)
        from_cz = a.card in st.seats[a.seat].cost_zone
        self._pay(a.seat, card.cost + fee, prefer=a.card if from_cz else None)
        self._take_from_play_zone(a.seat, a.card)
        if st.step != "main" and card.kind in ("maturity", "righteous_habitual") and a.seat == self.turn_seat \
                and not st.window:
            st.seats[a.seat].speed_used = True   # Speed: once per turn outside Main
        item = StackItem("card", a.card, a.seat, a.to_seat, a.threat)
        self._emit("played", a.seat, a.card, data={"to_seat": a.to_seat, "threat": a.threat, "fee": fee})
        self.mode.on_card_played(self, a.seat, a.card)
        self._push(item)

    def _push(self, item: StackItem) -> None:
        """P-4, P-6: put an item on the stack and open the response window."""
        st = self.state
        st.stack.append(item)
        st.window = self._responders()

    def _responders(self) -> list[int]:
        righteous = self._righteous
        return [i for i in self._rotations[self.turn_seat] if i in righteous and self._can_respond(i)]

    def _do_resist(self, a: Resist) -> None:
        st = self.state
        threat = next((t for t in st.threats if t.uid == a.threat), None)
        self._pay(a.seat, a.amount)
        if threat is None:   # CO-7: a holding Habitual, paid in full
            self.mode.break_held(self, a.threat, by_seat=a.seat, how="paid")
            return
        threat.paid += a.amount
        self._emit("resist_paid", a.seat, data={"threat": a.threat, "amount": a.amount})
        if self._remaining(threat) == 0:
            self.mode.resist_threat(self, threat, a.seat, "paid")

    def _resist_threat(self, threat: Threat, seat: int, how: str) -> None:
        """P-1 step 2: a resisted threat never reaches the stack; it goes to the Resisted pile."""
        st = self.state
        st.threats.remove(threat)
        self._to_pile(threat.uid, "resisted", threat.by, threat.target)
        self._emit("resisted", seat, threat.uid, data={"target": threat.target, "how": how})
        card = self.defs[threat.uid]
        if card.is_ambush:
            for u in self._passive_cards(threat.target):
                n = self.defs[u].passive.ambush_reward
                if n and threat.resistance - n > 0:
                    self._change_humility(threat.target, threat.resistance - n, u)
        self._on_threat_resisted(threat, seat)

    def _on_threat_resisted(self, threat: Threat, seat: int) -> None:
        """Hook: duel combo resets, streaks."""

    def _to_pile(self, uid: int, pile: str, by: int | None, at: int | None) -> None:
        st = self.state
        if pile == "resisted":
            st.resisted.append(uid)
            st.resisted_total += 1
        else:
            st.failed.append(uid)
            st.failed_total += 1
        st.pile_info[uid] = (by, at)

    def _break_held(self, uid: int, by_seat: int, how: str) -> None:
        st = self.state
        for i, sd in enumerate(st.seats):
            if uid in sd.held:
                sd.held.remove(uid)
                self._to_pile(uid, "resisted", None, i)
                self._emit("habitual_broken", by_seat, uid, data={"held_by": i, "how": how})
                return
        if uid in st.field:
            st.field.remove(uid)
            self._to_pile(uid, "resisted", None, None)
            self._emit("habitual_broken", by_seat, uid, data={"held_by": None, "how": how})

    def _do_boost(self, a: TakeBoost) -> None:
        st = self.state
        offer = st.offers[-1]
        card = self.defs[offer.uid]
        boost = card.boosts[a.index]
        needs_mate = boost.needs_mate
        fee = self.settings.solo_fee if self.is_solo() and (boost.payer == "teammate" or needs_mate) else 0
        self._pay(a.payer, boost.cost + fee)
        offer.taken = offer.taken + (a.index,)
        self._emit("boost_taken", a.seat, offer.uid, data={"index": a.index, "payer": a.payer, "fee": fee})
        self.mode.on_card_played(self, a.seat, -1)
        self._push(StackItem("boost", offer.uid, offer.controller, a.to_seat, None, a.index))

    def _play_threat(self, uid: int, target: int, by: int | None) -> None:
        card = self.defs[uid]
        resistance = self._x_value(card, target)
        self.state.threats.append(Threat(uid, target, by, resistance))
        self._emit("threat_played", by, uid, data={"target": target, "resistance": resistance})

    def _resolve(self, item: StackItem) -> None:
        """P-1 steps 4-5: rules text first; the boost offer opens after."""
        st = self.state
        card = self.defs[item.uid]
        if item.kind == "threat":
            self._resolve_failed_threat(item)
            return
        if item.kind == "boost":
            boost = card.boosts[item.boost or 0]
            ctx = self._ctx(item, boost_to=item.to_seat)
            fast_target = next((s for s in reversed(st.stack) if s.kind == "card" and s.uid == item.uid), None)
            for e in boost.effects:
                if e.op == "amplify" and fast_target is not None:
                    fast_target.amplify += e.amount
                elif e.op == "redirect" and fast_target is not None:
                    fast_target.redirect_to = item.to_seat if item.to_seat is not None else item.controller
                else:
                    st.effects.append((e, ctx))
            self._emit("resolved", item.controller, item.uid, data={"boost": item.boost})
            return
        ctx = self._ctx(item)
        seat = item.controller
        sd = st.seats[seat]
        self._emit("resolved", seat, item.uid)
        if card.kind == "maturity":
            self._raise_maturity(ctx.me if item.redirect_to is not None else seat, 1, item.uid)   # S-5
        if card.kind == "resistance" and item.threat is not None:
            threat = next((t for t in st.threats if t.uid == item.threat), None)
            if threat is not None:
                self.mode.resist_threat(self, threat, seat, "card")
            elif item.threat in sd.held:
                self.mode.break_held(self, item.threat, seat, "card")
        attached = False
        for e in card.effects:
            if e.op == "attach":
                attached = True
                dest = ctx.mate if (e.who == "teammate" and ctx.mate is not None) else ctx.me
                st.seats[dest].in_play.append(item.uid)
                self._emit("attached", dest, item.uid)
            else:
                st.effects.append((e, ctx))
        if card.kind == "righteous_habitual" and not attached:
            sd.in_play.append(item.uid)
            self._emit("attached", seat, item.uid)
        elif card.kind != "righteous_habitual":
            self.state.seats[self.owner[item.uid]].discard.append(item.uid)
        if card.boosts and any(not b.fast for b in card.boosts):
            st.offers.append(Offer(item.uid, seat, False, len(st.stack), item.to_seat))

    def _ctx(self, item: StackItem, boost_to: int | None = None) -> Ctx:
        st = self.state
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
            mates = self._teammates(seat)
            mate = mates[0] if mates else seat   # P-7: in solo the card points at you
        return Ctx(me, mate, None, item.amplify if item.kind == "card" else 0, item.uid, seat)

    def _resolve_failed_threat(self, item: StackItem) -> None:
        """CO-6, S-3: the target loses 1 Humility; the card's text; Habituals take hold."""
        st = self.state
        target = item.threat if item.threat is not None else self.turn_seat
        card = self.defs[item.uid]
        self._change_humility(target, -1, item.uid)
        ctx = Ctx(target, None, target, 0, item.uid, target)
        for e in card.effects:
            st.effects.append((e, ctx))
        if card.kind == "evil_habitual":
            st.seats[target].held.append(item.uid)
            self._emit("took_hold", target, item.uid)
            self.mode.on_habitual_took_hold(self, item)
        else:
            self._to_pile(item.uid, "failed", item.by, target)
            self.mode.on_temptation_failed(self, item)

    def _can_respond(self, seat: int) -> bool:
        """P-6: the seat holds an Instant it can pay for (its hand or face-up Cost Zone cards)."""
        instants = self._instant_cards()
        st = self.state
        if instants.isdisjoint(st.seats[seat].hand) and instants.isdisjoint(st.face_up):
            return False   # most of the time: no Instant in hand nor face up in any Cost Zone
        free = -1
        for u in self._playable_cards(seat):
            if u in instants:
                if free < 0:   # most hands hold no Instant: count the untapped cards only when one does
                    free = self._untapped(seat)
                if self._card_play(seat, u)[1] <= free:
                    return True
        return False
