"""Humility and Maturity (S-*), and the cards that move with them: draws, discards, overflow.

Rules: S-2..S-7 (Humility changes, overflow discards, Maturity from Maturity cards, the duel's one
level a turn, the cap of 10 and roll-over), A-2 and A-4 (shared level rewards and recharges),
CO-W-2 (the clearing round opens when the last seat reaches L3), and the DECISION that an empty deck
is remade from its discard pile.
"""

from __future__ import annotations

from ..cards.model import Effect
from .abilities import AbilityRules
from .numbers import MAX_HUMILITY, MAX_MATURITY, ONCE_PER_LEVEL
from .state import Choice, Ctx


class BadgeRules(AbilityRules):
    """Humility and Maturity (S-*), and the cards that move with them: draws, discards, overflow."""

    __slots__ = ()

    def _draw(self, seat: int, n: int, quiet: bool = False) -> None:
        sd = self.state.seats[seat]
        for _ in range(n):
            if not sd.deck:
                self._reshuffle(seat)
                if not sd.deck:
                    break
            u = sd.deck.pop()
            sd.hand.append(u)
            if not quiet:
                self._emit("drew", seat, u, private_to=seat)

    def _reshuffle(self, seat: int) -> None:
        """DECISION: an empty deck that must be drawn from is remade from its discard pile."""
        sd = self.state.seats[seat]
        if sd.discard:
            sd.deck = sd.discard
            sd.discard = []
            self.state.rng.shuffle(sd.deck)
            self._emit("reshuffled", seat, data={"cards": len(sd.deck)})

    def _discard(self, seat: int, uid: int, overflow: bool = False) -> None:
        st = self.state
        sd = st.seats[seat]
        if uid in sd.hand:
            sd.hand.remove(uid)
        else:
            sd.cost_zone.remove(uid)
            st.tapped.discard(uid)
            st.face_up.discard(uid)
        sd.discard.append(uid)
        self._emit("overflow_discard" if overflow else "discarded", seat, uid)

    def _change_humility(self, seat: int, delta: int, source: int | None) -> None:
        """S-2, S-4 (overflow), S-7 (cap 10 and roll-over)."""
        st = self.state
        sd = st.seats[seat]
        if sd.side != "righteous" or delta == 0:
            return
        if delta > 0:
            before = sd.humility
            sd.humility = min(MAX_HUMILITY, sd.humility + delta)
            sd.gained += sd.humility - before
            self._emit("humility", seat, data={"delta": sd.humility - before, "humility": sd.humility})
            self._check_rollover(seat)
            return
        loss = -delta
        taken = min(loss, sd.humility)
        sd.humility -= taken
        self._emit("humility", seat, data={"delta": -taken, "humility": sd.humility})
        overflow = loss - taken
        if overflow:
            options = sd.hand + sd.cost_zone
            n = min(overflow, len(options))   # S-4 DECISION: nothing more once both are empty
            if n:
                if st.choice is None:
                    st.choice = Choice(seat, "overflow", options, n, n)
                else:  # a choice is already open: this one waits its turn
                    st.effects.insert(0, (Effect(op="overflow", count=n), Ctx(seat, None, None, 0, -1, seat)))

    def _check_rollover(self, seat: int) -> None:
        sd = self.state.seats[seat]
        if not self.settings.humility_rollover or sd.humility < MAX_HUMILITY or sd.maturity >= MAX_MATURITY:
            return
        if not self.mode.may_level(self, seat):
            return   # S-6/S-7: waits at 10, taken at the start of the seat's next turn
        sd.humility -= MAX_HUMILITY
        self._emit("humility", seat, data={"delta": -MAX_HUMILITY, "humility": sd.humility, "rollover": True})
        self._raise_maturity(seat, 1, None)

    def _raise_maturity(self, seat: int, n: int, source: int | None) -> None:
        st = self.state
        sd = st.seats[seat]
        if sd.maturity >= MAX_MATURITY or not self.mode.may_level(self, seat):
            return
        sd.maturity = min(MAX_MATURITY, sd.maturity + n)
        sd.levels_this_turn += 1
        self._emit("maturity", seat, data={"maturity": sd.maturity})
        self.mode.after_level(self, seat)

    def _after_level(self, seat: int) -> None:
        """A-2, A-4, CO-W-2: shared level rewards and the clearing round."""
        st = self.state
        shared = min(s.maturity for s in st.seats if s.side == "righteous")
        while shared > st.team_level:
            st.team_level += 1
            if st.team_level > st.levels_rewarded:
                st.levels_rewarded = st.team_level
                if self.settings.mat_abilities:
                    for a in ONCE_PER_LEVEL:
                        if a in st.abilities:
                            st.charged.add(a)
                    if self._free_abilities():
                        st.ability_picks += 1
                        st.ability_chooser = self.turn_seat   # DECISION: the active seat picks for the team
                self._emit("shared_level", None, data={"level": st.team_level})
        if st.clearing is None and self._all_l3():
            st.clearing = (self.turn_seat, st.turn_no)
            self._emit("clearing_round", self.turn_seat, data={"opened": True})
