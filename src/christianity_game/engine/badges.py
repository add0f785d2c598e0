"""Humility and Maturity (S-*), and the cards that move with them: draws, discards, overflow.

Rules: S-2..S-7 (Humility changes, overflow discards, Maturity from Maturity cards, the duel's one
level a turn, the cap of 10 and roll-over), A-2 and A-4 (shared level rewards and recharges),
CO-W-2 (the clearing round opens when the last seat reaches L3), and the DECISION that an empty deck
is remade from its discard pile.
"""

from __future__ import annotations

from ..cards.model import Effect
from .numbers import MAX_HUMILITY, MAX_MATURITY, ONCE_PER_LEVEL
from .state import Choice, Ctx
from .abilities import free_abilities
from .base import GameBase


def draw(game: GameBase, seat: int, n: int, quiet: bool = False) -> None:
    sd = game.state.seats[seat]
    for _ in range(n):
        if not sd.deck:
            reshuffle(game, seat)
            if not sd.deck:
                break
        u = sd.deck.pop()
        sd.hand.append(u)
        if not quiet:
            game._emit("drew", seat, u, private_to=seat)


def reshuffle(game: GameBase, seat: int) -> None:
    """DECISION: an empty deck that must be drawn from is remade from its discard pile."""
    sd = game.state.seats[seat]
    if sd.discard:
        sd.deck = sd.discard
        sd.discard = []
        game.state.rng.shuffle(sd.deck)
        game._emit("reshuffled", seat, data={"cards": len(sd.deck)})


def discard(game: GameBase, seat: int, uid: int, overflow: bool = False) -> None:
    st = game.state
    sd = st.seats[seat]
    if uid in sd.hand:
        sd.hand.remove(uid)
    else:
        sd.cost_zone.remove(uid)
        st.tapped.discard(uid)
        st.face_up.discard(uid)
    sd.discard.append(uid)
    game._emit("overflow_discard" if overflow else "discarded", seat, uid)


def change_humility(game: GameBase, seat: int, delta: int, source: int | None) -> None:
    """S-2, S-4 (overflow), S-7 (cap 10 and roll-over)."""
    st = game.state
    sd = st.seats[seat]
    if sd.side != "righteous" or delta == 0:
        return
    if delta > 0:
        before = sd.humility
        sd.humility = min(MAX_HUMILITY, sd.humility + delta)
        sd.gained += sd.humility - before
        game._emit("humility", seat, data={"delta": sd.humility - before, "humility": sd.humility})
        check_rollover(game, seat)
        return
    loss = -delta
    taken = min(loss, sd.humility)
    sd.humility -= taken
    game._emit("humility", seat, data={"delta": -taken, "humility": sd.humility})
    overflow = loss - taken
    if overflow:
        options = sd.hand + sd.cost_zone
        n = min(overflow, len(options))   # S-4 DECISION: nothing more once both are empty
        if n:
            if st.choice is None:
                st.choice = Choice(seat, "overflow", options, n, n)
            else:  # a choice is already open: this one waits its turn
                st.effects.insert(0, (Effect(op="overflow", count=n), Ctx(seat, None, None, 0, -1, seat)))


def check_rollover(game: GameBase, seat: int) -> None:
    sd = game.state.seats[seat]
    if not game.settings.humility_rollover or sd.humility < MAX_HUMILITY or sd.maturity >= MAX_MATURITY:
        return
    if not game.mode.may_level(game, seat):
        return   # S-6/S-7: waits at 10, taken at the start of the seat's next turn
    sd.humility -= MAX_HUMILITY
    game._emit("humility", seat, data={"delta": -MAX_HUMILITY, "humility": sd.humility, "rollover": True})
    raise_maturity(game, seat, 1, None)


def raise_maturity(game: GameBase, seat: int, n: int, source: int | None) -> None:
    st = game.state
    sd = st.seats[seat]
    if sd.maturity >= MAX_MATURITY or not game.mode.may_level(game, seat):
        return
    sd.maturity = min(MAX_MATURITY, sd.maturity + n)
    sd.levels_this_turn += 1
    game._emit("maturity", seat, data={"maturity": sd.maturity})
    game.mode.after_level(game, seat)


def after_level(game: GameBase, seat: int) -> None:
    """A-2, A-4, CO-W-2: shared level rewards and the clearing round."""
    st = game.state
    shared = min(s.maturity for s in st.seats if s.side == "righteous")
    while shared > st.team_level:
        st.team_level += 1
        if st.team_level > st.levels_rewarded:
            st.levels_rewarded = st.team_level
            if game.settings.mat_abilities:
                for a in ONCE_PER_LEVEL:
                    if a in st.abilities:
                        st.charged.add(a)
                if free_abilities(game):
                    st.ability_picks += 1
                    st.ability_chooser = game.turn_seat   # DECISION: the active seat picks for the team
            game._emit("shared_level", None, data={"level": st.team_level})
    if st.clearing is None and game._all_l3():
        st.clearing = (game.turn_seat, st.turn_no)
        game._emit("clearing_round", game.turn_seat, data={"opened": True})
