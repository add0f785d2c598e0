"""The effect interpreter: the cards' typed effect vocabulary (G-5) carried out one effect at a time.

Rules: G-5 (marks and effects: H+X / H-X, draw, discard, search, reveal, rotate, untap, flip, Cost
Zone, conditions, RX), the internal overflow effect that waits behind an open choice (S-4).

Each op is one function of the game, the effect and its context; :data:`EFFECT_RUNNERS` maps every
op of ``cards.model.EFFECT_OPS``, and the internal ``overflow``, to its function
(``tests/test_engine_structure.py`` checks it covers exactly those). ``attach``, ``amplify`` and
``redirect`` are carried out where the card or boost resolves (``stack.py``); one that reaches the
interpreter (a boost whose fast card has left the stack) does nothing.
"""

from __future__ import annotations

from typing import Callable

from ..cards.model import Effect
from .state import Choice, Ctx
from .badges import change_humility, discard, draw, reshuffle
from .base import GameBase


def seat_for(game: GameBase, who: str, ctx: Ctx) -> list[int]:
    if who == "self":
        return [ctx.me]
    if who == "teammate":
        return [ctx.mate if ctx.mate is not None else ctx.me]
    if who == "target":
        return [ctx.target if ctx.target is not None else ctx.me]
    return game.righteous_seats()


def run_effect(game: GameBase, e: Effect, ctx: Ctx) -> None:
    EFFECT_RUNNERS[e.op](game, e, ctx)


def condition_holds(game: GameBase, test: str, value: int, seat: int) -> bool:
    sd = game.state.seats[seat]
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


def run_humility(game: GameBase, e: Effect, ctx: Ctx) -> None:
    amp = ctx.amplify
    amount = e.amount + (amp if e.amount > 0 else -amp if e.amount < 0 else 0)
    for s in seat_for(game, e.who, ctx):
        change_humility(game, s, amount, ctx.source)


def run_draw(game: GameBase, e: Effect, ctx: Ctx) -> None:
    for s in seat_for(game, e.who, ctx):
        draw(game, s, e.count + ctx.amplify)


def run_discard(game: GameBase, e: Effect, ctx: Ctx) -> None:
    st = game.state
    for s in seat_for(game, e.who, ctx):
        sd = st.seats[s]
        n = min(e.count + ctx.amplify, len(sd.hand))
        if n <= 0:
            continue
        if e.random:
            for _ in range(n):
                discard(game, s, sd.hand[st.rng.randbelow(len(sd.hand))])
        elif n >= len(sd.hand):
            for u in sd.hand[:]:
                discard(game, s, u)
        else:
            st.choice = Choice(s, "discard", sd.hand[:], n, n)
            return


def run_search(game: GameBase, e: Effect, ctx: Ctx) -> None:
    st = game.state
    sd = st.seats[ctx.me]
    matches = [u for u in sd.deck if e.kind in (None, "any") or game.defs[u].kind == e.kind]
    if matches:
        st.choice = Choice(ctx.me, "search", matches, e.count + ctx.amplify, 0)
        if game.rules >= 4:
            game.reveals += 1   # G-7: the options show the searcher its deck, in deck order
    else:
        st.rng.shuffle(sd.deck)
        game._emit("searched", ctx.me, data={"found": 0})


def run_reveal(game: GameBase, e: Effect, ctx: Ctx) -> None:
    sd = game.state.seats[ctx.me]
    n = min(e.count + ctx.amplify, len(sd.deck))
    top = [sd.deck.pop() for _ in range(n)]
    game._emit("revealed", ctx.me, data={"cards": [game.defs[u].id for u in top]})
    rest = []
    for u in top:
        if e.kind in (None, "any") or game.defs[u].kind == e.kind:
            sd.hand.append(u)
        else:
            rest.append(u)
    sd.deck[0:0] = rest[::-1]   # to the bottom, in revealed order


def run_rotate(game: GameBase, e: Effect, ctx: Ctx) -> None:
    st = game.state
    for s in seat_for(game, e.who, ctx):
        untapped = [u for u in st.seats[s].cost_zone if u not in st.tapped]
        for u in untapped[::-1][: e.count + ctx.amplify]:   # DECISION: newest cards first
            st.tapped.add(u)
        game._emit("rotated", s, data={"by_effect": True})


def run_untap(game: GameBase, e: Effect, ctx: Ctx) -> None:
    st = game.state
    for s in seat_for(game, e.who, ctx):
        tapped = [u for u in st.seats[s].cost_zone if u in st.tapped]
        for u in tapped[::-1][: e.count + ctx.amplify]:
            st.tapped.discard(u)
        game._emit("untapped", s)


def run_flip(game: GameBase, e: Effect, ctx: Ctx) -> None:
    st = game.state
    for s in seat_for(game, e.who, ctx):
        down = [u for u in st.seats[s].cost_zone if u not in st.face_up]
        for u in down[::-1][: e.count + ctx.amplify]:
            st.face_up.add(u)
            game._emit("flipped", s, u)


def run_cost_zone(game: GameBase, e: Effect, ctx: Ctx) -> None:
    for s in seat_for(game, e.who, ctx):
        sd = game.state.seats[s]
        for _ in range(e.count + ctx.amplify):
            if not sd.deck:
                reshuffle(game, s)
            if sd.deck:
                sd.cost_zone.append(sd.deck.pop())
        game._emit("cost_zone_added", s)


def run_overflow(game: GameBase, e: Effect, ctx: Ctx) -> None:
    """Internal: an overflow discard that had to wait for another choice (S-4)."""
    st = game.state
    sd = st.seats[ctx.me]
    options = sd.hand + sd.cost_zone
    n = min(e.count, len(options))
    if n:
        st.choice = Choice(ctx.me, "overflow", options, n, n)


def run_if(game: GameBase, e: Effect, ctx: Ctx) -> None:
    assert e.cond is not None
    branch = e.then if condition_holds(game, e.cond.test, e.cond.value, seat_for(game, e.cond.who, ctx)[0]) else e.otherwise
    game.state.effects[0:0] = [(b, ctx) for b in branch]


def run_nothing(game: GameBase, e: Effect, ctx: Ctx) -> None:
    """``attach``, ``amplify``, ``redirect``: carried out where the card or boost resolves (stack.py)."""


#: Every effect op -> the function that carries it out.
EFFECT_RUNNERS: dict[str, Callable[[GameBase, Effect, Ctx], None]] = {
    "humility": run_humility, "draw": run_draw, "discard": run_discard, "search": run_search,
    "reveal": run_reveal, "rotate": run_rotate, "untap": run_untap, "flip": run_flip,
    "cost_zone": run_cost_zone, "overflow": run_overflow, "if": run_if,
    "attach": run_nothing, "amplify": run_nothing, "redirect": run_nothing,
}
