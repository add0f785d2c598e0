"""Issue 24's crash: a card whose boost is on offer, reshuffled into its owner's deck by a draw.

A card whose own effect draws resolves into its owner's discard; the draw reshuffles the discard
into the deck; then the card's boost is offered. Before the fix ``determinize`` re-dealt the card's
uid like any other hidden deck card, so a world offered a boost the card did not have and the
search bot, applying the real game's ``TakeBoost`` in it, raised ``IndexError`` in ``_do_boost``.
Now the card is pinned: it stays the card it is, in the same zone, at a random place of it.
"""

from __future__ import annotations

from typing import Iterator

import pytest

from christianity_game import Game
from christianity_game.bots.base import RandomBot
from christianity_game.bots.search import SearchBot
from christianity_game.engine.actions import TakeBoost
from christianity_game.engine.determinize import determinize, hidden_places, pinned_uids
from christianity_game.engine.rng import Rng


def _reshuffled_offers(limit: int = 3) -> Iterator[tuple[Game, int]]:
    """States of seeded random duel games where an open offer's card sits in a hidden deck (of 3+ cards)."""
    found = 0
    for seed in range(60, 400):
        for lineup in ("ER", "EER", "ERR"):
            game = Game.new(mode="duel", lineup=lineup, seed=seed, log=False)
            bots = {i: RandomBot(seed * 10 + i) for i in range(len(lineup))}
            for _ in range(6000):
                pending = game.pending
                if not pending:
                    break
                seat, actions = pending[0]
                st = game.state
                if st.offers and any(isinstance(a, TakeBoost) for a in actions):
                    decks = {u for sd in st.seats if len(sd.deck) >= 3 for u in sd.deck}
                    if st.offers[-1].uid in decks:
                        yield game.clone(), seat
                        found += 1
                        if found >= limit:
                            return
                        break
                game.apply(actions[0] if len(actions) == 1 else bots[seat].decide(game, seat, actions))
    raise AssertionError("no state with a reshuffled offer card found")   # pragma: no cover


@pytest.fixture(scope="module")
def positions() -> list[tuple[Game, int]]:
    return list(_reshuffled_offers())


def test_an_offer_card_in_a_deck_keeps_its_card_in_every_world(positions: list[tuple[Game, int]]) -> None:
    for game, seat in positions:
        uid = game.state.offers[-1].uid
        hidden = {z[k] for z, k in hidden_places(game, seat)}
        assert uid in hidden and uid in pinned_uids(game)
        deck = next(sd.deck for sd in game.state.seats if uid in sd.deck)
        spots = set()
        real = game.legal_actions(seat)
        for n in range(60):
            world = determinize(game, seat, Rng(n))
            assert world.defs[uid] is game.defs[uid], "the offer must name the same card"
            wdeck = next(sd.deck for sd in world.state.seats if uid in sd.deck)
            assert len(wdeck) == len(deck)
            spots.add(wdeck.index(uid))
            assert world.legal_actions(seat) == real
            assert world.view(seat) == game.view(seat)
            for action in real:            # the search applies the real game's actions to worlds
                world.clone().apply(action)
        assert len(spots) > 1, "the pinned card's place in the deck is re-dealt, not the real one"


def test_a_world_with_a_pinned_card_depends_only_on_the_view(positions: list[tuple[Game, int]]) -> None:
    for game, seat in positions:
        other = determinize(game, seat, Rng(99))   # the same view, other hidden cards and places
        for n in range(10):
            a, b = determinize(game, seat, Rng(n)), determinize(other, seat, Rng(n))
            for sa, sb in zip(a.state.seats, b.state.seats):
                for zone in ("hand", "deck", "cost_zone"):
                    assert [a.defs[u].id for u in getattr(sa, zone)] == [b.defs[u].id for u in getattr(sb, zone)]


def test_the_search_bot_decides_at_a_reshuffled_offer(positions: list[tuple[Game, int]]) -> None:
    for game, seat in positions:
        actions = game.legal_actions(seat)
        for seed in range(3):
            bot = SearchBot(seed, iterations=24, horizon=8)
            action = bot.decide(game, seat, actions)
            assert action in actions
