"""Co-op and solo rules (CO-*): the Evil deck that runs itself, and how the game is won.

Rules: CO-4 (the Evil phase; DECISION: an empty Evil deck is remade from both piles), CO-W-1..4
(the clearing round, round 10, the Righteous and Evil wins), with A-1 Foresight's reveal.
"""

from __future__ import annotations
from .base import GameBase
from .stack import play_threat


def judge_at_turn_start(game: GameBase, seat: int) -> None:
    """CO-W-2..4, judged at the start of each turn."""
    st = game.state
    max_rounds = game.settings.max_rounds
    if st.clearing is not None and st.clearing[0] == seat and st.turn_no > st.clearing[1]:
        if game._all_l3() and game.evil_habituals_in_play() == 0:
            game._finish("righteous", "every seat at L3 with no Evil Habitual for a full round")
            return
        game._emit("clearing_round", seat, data={"closed": "unclean"})
        st.clearing = None
        if st.round > max_rounds:
            game._finish("evil", "the clearing round closed unclean after round 10")
            return
        st.last_chance = True   # CO-W-3: play goes on to the end of round 10
        if game._all_l3() and st.round < max_rounds:
            # DECISION: a fresh clearing round, so a later clean close wins; only while it can
            # still close by the end of round 10 (only a first one may run past it)
            st.clearing = (seat, st.turn_no)
            game._emit("clearing_round", seat, data={"opened": True})
    if st.round > max_rounds and st.clearing is None:
        if st.last_chance and game._all_l3() and game.evil_habituals_in_play() == 0:
            game._finish("righteous", f"every seat at L3 with no Evil Habitual at the end of round {max_rounds}")
        else:
            game._finish("evil", f"round {max_rounds} ended without a Righteous win")


def evil_phase(game: GameBase, seat: int) -> None:
    """CO-4: the Evil deck turns over its top cards and plays each at the active seat."""
    st = game.state
    game._emit("phase", seat, data={"phase": "evil"})
    for _ in range(game.mode.evil_plays(game, seat)):
        if not st.evil_deck:
            refill_evil_deck(game)
            if not st.evil_deck:
                break
        uid = st.evil_deck.pop()
        play_threat(game, uid, seat, None)
    st.foresight = []


def refill_evil_deck(game: GameBase) -> None:
    """DECISION: an empty Evil deck is remade from the Evil cards of both piles, shuffled."""
    st = game.state
    cards = st.resisted + st.failed
    st.resisted = []
    st.failed = []
    for u in cards:
        st.pile_info.pop(u, None)
    st.rng.shuffle(cards)
    st.evil_deck = cards
    game._emit("evil_deck_refilled", None, data={"cards": len(cards)})
