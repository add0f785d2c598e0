"""Co-op and solo rules (CO-*): the Evil deck that runs itself, and how the game is won.

Rules: CO-4 (the Evil phase; DECISION: an empty Evil deck is remade from both piles), CO-W-1..4
(the clearing round, round 10, the Righteous and Evil wins), with A-1 Foresight's reveal.
"""

from __future__ import annotations

from .legal import LegalRules


class CoopRules(LegalRules):
    """Co-op and solo rules (CO-*): the Evil deck that runs itself, and how the game is won."""

    __slots__ = ()

    def _judge_at_turn_start(self, seat: int) -> None:
        """CO-W-2..4, judged at the start of each turn."""
        st = self.state
        max_rounds = self.settings.max_rounds
        if st.clearing is not None and st.clearing[0] == seat and st.turn_no > st.clearing[1]:
            if self._all_l3() and self.evil_habituals_in_play() == 0:
                self._finish("righteous", "every seat at L3 with no Evil Habitual for a full round")
                return
            self._emit("clearing_round", seat, data={"closed": "unclean"})
            st.clearing = None
            if st.round > max_rounds:
                self._finish("evil", "the clearing round closed unclean after round 10")
                return
            st.last_chance = True   # CO-W-3: play goes on to the end of round 10
            if self._all_l3() and st.round < max_rounds:
                # DECISION: a fresh clearing round, so a later clean close wins; only while it can
                # still close by the end of round 10 (only a first one may run past it)
                st.clearing = (seat, st.turn_no)
                self._emit("clearing_round", seat, data={"opened": True})
        if st.round > max_rounds and st.clearing is None:
            if st.last_chance and self._all_l3() and self.evil_habituals_in_play() == 0:
                self._finish("righteous", f"every seat at L3 with no Evil Habitual at the end of round {max_rounds}")
            else:
                self._finish("evil", f"round {max_rounds} ended without a Righteous win")

    def _evil_phase(self, seat: int) -> None:
        """CO-4: the Evil deck turns over its top cards and plays each at the active seat."""
        st = self.state
        self._emit("phase", seat, data={"phase": "evil"})
        for _ in range(self.mode.evil_plays(self, seat)):
            if not st.evil_deck:
                self._refill_evil_deck()
                if not st.evil_deck:
                    break
            uid = st.evil_deck.pop()
            self._play_threat(uid, seat, None)
        st.foresight = []

    def _refill_evil_deck(self) -> None:
        """DECISION: an empty Evil deck is remade from the Evil cards of both piles, shuffled."""
        st = self.state
        cards = st.resisted + st.failed
        st.resisted = []
        st.failed = []
        for u in cards:
            st.pile_info.pop(u, None)
        st.rng.shuffle(cards)
        st.evil_deck = cards
        self._emit("evil_deck_refilled", None, data={"cards": len(cards)})
