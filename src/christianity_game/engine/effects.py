"""The effect interpreter: the cards' typed effect vocabulary (G-5) carried out one effect at a time.

Rules: G-5 (marks and effects: H+X / H-X, draw, discard, search, reveal, rotate, untap, flip, Cost
Zone, conditions, RX), the internal overflow effect that waits behind an open choice (S-4).
"""

from __future__ import annotations

from ..cards.model import Effect
from .badges import BadgeRules
from .state import Choice, Ctx


class EffectRules(BadgeRules):
    """The effect interpreter: the cards' typed effect vocabulary (G-5) carried out one effect at a time."""

    __slots__ = ()

    def _seat_for(self, who: str, ctx: Ctx) -> list[int]:
        if who == "self":
            return [ctx.me]
        if who == "teammate":
            return [ctx.mate if ctx.mate is not None else ctx.me]
        if who == "target":
            return [ctx.target if ctx.target is not None else ctx.me]
        return self.righteous_seats()

    def _run_effect(self, e: Effect, ctx: Ctx) -> None:
        st = self.state
        op = e.op
        amp = ctx.amplify
        if op == "humility":
            amount = e.amount + (amp if e.amount > 0 else -amp if e.amount < 0 else 0)
            for s in self._seat_for(e.who, ctx):
                self._change_humility(s, amount, ctx.source)
        elif op == "draw":
            for s in self._seat_for(e.who, ctx):
                self._draw(s, e.count + amp)
        elif op == "discard":
            for s in self._seat_for(e.who, ctx):
                sd = st.seats[s]
                n = min(e.count + amp, len(sd.hand))
                if n <= 0:
                    continue
                if e.random:
                    for _ in range(n):
                        self._discard(s, sd.hand[st.rng.randbelow(len(sd.hand))])
                elif n >= len(sd.hand):
                    for u in sd.hand[:]:
                        self._discard(s, u)
                else:
                    st.choice = Choice(s, "discard", sd.hand[:], n, n)
                    return
        elif op == "search":
            sd = st.seats[ctx.me]
            matches = [u for u in sd.deck if e.kind in (None, "any") or self.defs[u].kind == e.kind]
            if matches:
                st.choice = Choice(ctx.me, "search", matches, e.count + amp, 0)
                if self.rules >= 4:
                    self.reveals += 1   # G-7: the options show the searcher its deck, in deck order
            else:
                st.rng.shuffle(sd.deck)
                self._emit("searched", ctx.me, data={"found": 0})
        elif op == "reveal":
            sd = st.seats[ctx.me]
            n = min(e.count + amp, len(sd.deck))
            top = [sd.deck.pop() for _ in range(n)]
            self._emit("revealed", ctx.me, data={"cards": [self.defs[u].id for u in top]})
            rest = []
            for u in top:
                if e.kind in (None, "any") or self.defs[u].kind == e.kind:
                    sd.hand.append(u)
                else:
                    rest.append(u)
            sd.deck[0:0] = rest[::-1]   # to the bottom, in revealed order
        elif op == "rotate":
            for s in self._seat_for(e.who, ctx):
                untapped = [u for u in st.seats[s].cost_zone if u not in st.tapped]
                for u in untapped[::-1][: e.count + amp]:   # DECISION: newest cards first
                    st.tapped.add(u)
                self._emit("rotated", s, data={"by_effect": True})
        elif op == "untap":
            for s in self._seat_for(e.who, ctx):
                tapped = [u for u in st.seats[s].cost_zone if u in st.tapped]
                for u in tapped[::-1][: e.count + amp]:
                    st.tapped.discard(u)
                self._emit("untapped", s)
        elif op == "flip":
            for s in self._seat_for(e.who, ctx):
                down = [u for u in st.seats[s].cost_zone if u not in st.face_up]
                for u in down[::-1][: e.count + amp]:
                    st.face_up.add(u)
                    self._emit("flipped", s, u)
        elif op == "cost_zone":
            for s in self._seat_for(e.who, ctx):
                sd = st.seats[s]
                for _ in range(e.count + amp):
                    if not sd.deck:
                        self._reshuffle(s)
                    if sd.deck:
                        sd.cost_zone.append(sd.deck.pop())
                self._emit("cost_zone_added", s)
        elif op == "overflow":   # internal: an overflow discard that had to wait for another choice
            sd = st.seats[ctx.me]
            options = sd.hand + sd.cost_zone
            n = min(e.count, len(options))
            if n:
                st.choice = Choice(ctx.me, "overflow", options, n, n)
        elif op == "if":
            assert e.cond is not None
            branch = e.then if self._test(e.cond.test, e.cond.value, self._seat_for(e.cond.who, ctx)[0]) else e.otherwise
            st.effects[0:0] = [(b, ctx) for b in branch]

    def _test(self, test: str, value: int, seat: int) -> bool:
        sd = self.state.seats[seat]
        if test == "maturity_at_least":
            return sd.maturity >= value
        if test == "maturity_at_most":
            return sd.maturity <= value
        if test == "humility_at_least":
            return sd.humility >= value
        if test == "humility_at_most":
            return sd.humility <= value
        if test == "hand_at_most":
            return len(sd.hand) <= value
        if test == "hand_at_least":
            return len(sd.hand) >= value
        if test == "holds_habitual":
            return bool(sd.held)
        if test == "cost_zone_at_least":
            return len(sd.cost_zone) >= value
        raise ValueError(f"unknown condition {test!r}")  # pragma: no cover - the schema refuses it

