"""The turn and phase machine and the decision queue: what happens next, and who decides.

``_advance`` runs every automatic step until a decision waits; seats whose only option is to pass
are passed for them. Rules: CO-1 (seat order, rounds), CO-2 and D-TURN-2 (the phases of a turn),
CO-3 (draws), Z-2 (DECISION: untap at the start of your turn), Z-3 (the Cost Zone phase), P-4 and
P-6 (response windows close when all entitled have passed), A-1 (Cost Zone Power, Foresight).
"""

from __future__ import annotations

from .actions import (
    Action,
    BuyAbility,
    Choose,
    ChooseAbility,
    IllegalAction,
    LayCostZone,
    Pass,
    PlayCard,
    Resist,
    TakeBoost,
    UseAbility,
)
from .numbers import ABILITY_PRICE
from .coop import CoopRules
from .state import Offer, StackItem, Threat


class FlowRules(CoopRules):
    """The turn and phase machine and the decision queue: what happens next, and who decides."""

    __slots__ = ()

    def _do(self, a: Action) -> None:
        st = self.state
        kind = type(a)   # action classes are final: the common kinds by type first
        if kind is Pass:
            self._do_pass(a.seat)
        elif kind is LayCostZone:
            assert isinstance(a, LayCostZone)
            sd = st.seats[a.seat]
            sd.hand.remove(a.card)
            sd.cost_zone.append(a.card)
            sd.laid += 1
            self._emit("laid", a.seat)
        elif isinstance(a, Choose):
            self.mode.do_choose(self, a.seat, a.option)
        elif isinstance(a, PlayCard):
            self.mode.do_play(self, a)
            self._reset_phase_passes()
        elif isinstance(a, Resist):
            self._do_resist(a)
            self._reset_phase_passes()
        elif isinstance(a, TakeBoost):
            self._do_boost(a)
        elif isinstance(a, ChooseAbility):
            st.ability_picks -= 1
            self._gain_ability(a.ability, a.seat, "chosen")
        elif isinstance(a, BuyAbility):
            self._pay(a.seat, ABILITY_PRICE[a.ability])
            self._gain_ability(a.ability, a.seat, "bought")
        elif isinstance(a, UseAbility):
            self._use_ability(a)
            self._reset_phase_passes()
        else:  # pragma: no cover - every listed action type is handled above
            raise IllegalAction("not_legal", f"unhandled action {a!r}")

    def _reset_phase_passes(self) -> None:
        st = self.state
        if st.step in ("resistance", "main"):
            st.phase_passes = self.mode.phase_order(self)

    def _phase_order(self) -> list[int]:
        st = self.state
        active = self.turn_seat
        order = [active]
        if st.step == "resistance" and st.threats:
            for i in self._turn_order_from(active):
                if i != active and self._may_help(i, active) and self._untapped(i) > 0:
                    order.append(i)
        return order

    def _do_pass(self, seat: int) -> None:
        st = self.state
        if st.choice is not None:
            self._finish_choice()
            return
        if st.window:
            st.window.pop(0)
            return
        offer = self._active_offer()
        if offer is not None:
            st.offers.pop()
            if offer.fast and st.stack and st.stack[-1].uid == offer.uid:
                st.stack[-1].fast_done = True
            return
        if self.mode.late_pass(self, seat):
            return
        if st.step == "lay":
            st.step = "after_lay"
            if self.settings.mat_abilities and "vibrancy" in st.abilities:
                self._flip_random(seat, 2)   # Vibrancy: DECISION random face-down cards
            return
        if st.step == "after_lay":
            self._enter_step(self._next_step("after_lay"))
            return
        if st.phase_passes:
            st.phase_passes.pop(0)

    def _enter_step(self, step: str) -> None:
        st = self.state
        st.step = step
        if step == "main":
            st.phase_passes = [self.turn_seat]
            self._emit("phase", self.turn_seat, data={"phase": "main"})
        self._on_phase_change()

    def _on_phase_change(self) -> None:
        """Hook: duel micro-boost tallies reset each phase (D-MB-1)."""

    def _next_step(self, step: str) -> str:
        steps = self.mode.steps
        return steps[steps.index(step) + 1]

    def _do_choose(self, seat: int, option: int) -> None:
        st = self.state
        c = st.choice
        assert c is not None
        c.options.remove(option)
        c.count -= 1
        c.minimum -= 1
        if c.purpose in ("overflow", "discard"):
            self._discard(seat, option, overflow=c.purpose == "overflow")
        elif c.purpose == "search":
            sd = st.seats[seat]
            sd.deck.remove(option)
            sd.hand.append(option)
            self._emit("found", seat, option, private_to=seat)
        elif c.purpose == "deliverance":
            self.mode.break_held(self, option, seat, "deliverance")
        if c.count <= 0 or not c.options:
            self._finish_choice()

    def _finish_choice(self) -> None:
        st = self.state
        c = st.choice
        st.choice = None
        if c is not None and c.purpose == "search":
            st.rng.shuffle(st.seats[c.seat].deck)

    def _advance(self) -> None:
        """Run automatic steps until a decision is needed or the game is over."""
        st = self.state
        guard = 0
        while st.result is None:
            guard += 1
            if guard > 100000:  # pragma: no cover - a flow bug, never a game state
                raise RuntimeError("the game flow did not reach a decision")
            if st.choice is not None:
                return
            if st.effects:
                effect, ctx = st.effects.pop(0)
                self._run_effect(effect, ctx)
                continue
            if st.ability_picks:
                if self.settings.mat_abilities and self._free_abilities():
                    return
                st.ability_picks = 0
                continue
            if self.mode.early_decider(self) is not None:
                return
            if st.window:
                return
            offers = st.offers
            if offers and offers[-1].depth == len(st.stack):   # the active offer (no effect waits here)
                offer = offers[-1]
                if len(self._boost_actions(offer)) > 1:
                    return
                self._do_pass(offer.controller)
                continue
            if not st.stack:
                flow = self.mode.mode_flow(self)
                if flow == "wait":
                    return
                if flow == "again":
                    continue
            if st.stack:
                top = st.stack[-1]
                if top.kind == "card" and not top.fast_done:
                    top.fast_done = True
                    if any(b.fast for b in self.defs[top.uid].boosts):
                        st.offers.append(Offer(top.uid, top.controller, True, len(st.stack), top.to_seat))
                    continue
                st.stack.pop()
                self._resolve(top)
                continue
            if self._flow_step():
                return

    def _flow_step(self) -> bool:
        """Advance the turn's steps. True when a decision is now waiting."""
        st = self.state
        step = st.step
        seat = self.turn_seat
        if step == "turn_start":
            self._start_turn()
            if st.result is None and st.step == "turn_start":
                st.step = "draw"
            return False
        if step == "draw":
            self._draw(seat, max(0, self.mode.draw_count(self, seat)
                                  + self._passive_total(seat, "draw")))
            st.step = "lay"
            self._on_cost_zone_phase(seat)
            return False
        if step == "lay":   # Z-3: the turn seat lays its Cost Zone (its only decision until it passes)
            self._open_decision(seat, self._options(seat))
            return True
        if step == "after_lay":
            legal = self._options(seat)
            if len(legal) > 1:
                self._open_decision(seat, legal)
                return True
            self._enter_step(self._next_step("after_lay"))   # nothing to do but pass: move on
            return False
        if step == "evil":
            self._evil_phase(seat)
            st.step = "resistance"
            st.phase_passes = self.mode.phase_order(self)
            self._emit("phase", seat, data={"phase": "resistance"})
            return False
        if step == "resistance":
            if self._phase_decision_waits():
                return True
            st.step = "fail"
            return False
        if step == "fail":
            if st.threats:   # CO-6: unresisted threats fail, in the order they were played
                self._fail_threat(st.threats.pop(0), seat)
                return False
            self._enter_step("main")
            return False
        if step == "main":
            if self._phase_decision_waits():
                return True
            st.step = "end"
            return False
        if step == "end":
            self._end_turn(seat)
            return False
        return True  # pragma: no cover

    def _phase_decision_waits(self) -> bool:
        """Skip seats whose only choice in the phase is to pass; True when someone must decide."""
        return self._decision_in(self.state.phase_passes)

    def _decision_in(self, queue: list[int]) -> bool:
        """Pass for the seats at the head of ``queue`` whose only option is to pass; True when the
        seat now at its head must decide (its options kept with the decision)."""
        while queue:
            seat = queue[0]
            legal = self._options(seat)
            if len(legal) > 1:
                self._open_decision(seat, legal)
                return True
            queue.pop(0)
        return False

    def _fail_threat(self, t: Threat, controller: int) -> None:
        """CO-6, D-INT-5: an unresisted threat fails: it goes on the stack to take its effect."""
        item = StackItem("threat", t.uid, controller, None, t.target)
        item.by = t.by
        self._emit("failed", t.target, t.uid)
        self._push(item)

    def _on_cost_zone_phase(self, seat: int) -> None:
        st = self.state
        self._emit("phase", seat, data={"phase": "cost_zone"})
        if self.settings.mat_abilities and "foresight" in st.abilities:
            n = self.mode.evil_plays(self, seat)
            st.foresight = st.evil_deck[-n:][::-1]
            self._emit("revealed", seat, data={"foresight": [self.defs[u].id for u in st.foresight]})

    def _start_turn(self) -> None:
        st = self.state
        seat = self.turn_seat
        st.turn_no += 1
        sd = st.seats[seat]
        self.mode.judge_at_turn_start(self, seat)
        if st.result is not None:
            return
        self._emit("turn_started", seat, data={"round": st.round, "turn": st.turn_no})
        for other in st.seats:
            other.gained = 0
        sd.levels_this_turn = 0
        sd.speed_used = False
        sd.laid = 0
        for u in sd.cost_zone:   # Z-2 (DECISION): untap the whole Cost Zone
            st.tapped.discard(u)
        self.mode.on_turn_start(self, seat)
        for u in self._passive_cards(seat):
            up = self.defs[u].passive.upkeep_humility
            if up:
                self._change_humility(seat, up, u)

    def _end_turn(self, seat: int) -> None:
        st = self.state
        sd = st.seats[seat]
        if self.settings.mat_abilities and "cost_zone_power" in st.abilities and sd.gained >= 3 and sd.deck:
            sd.cost_zone.append(sd.deck.pop())   # Cost Zone Power
            self._emit("cost_zone_power", seat)
        st.foresight = []
        sd.love_to = sd.love_to  # Brotherly Love lasts until the next card
        self._next_turn()

    def _next_turn(self) -> None:
        st = self.state
        st.turn_index += 1
        if st.turn_index >= len(self._order):
            st.turn_index = 0
            st.round += 1
        st.step = "turn_start"

