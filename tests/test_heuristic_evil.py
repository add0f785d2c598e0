"""The heuristic bot's Evil lays: Temptations go to its Cost Zone before Habituals, under the printed
rules (a Habitual laid there is one fewer toward the Evil win, D-W-E; docs/decisions.md, "The
heuristic Evil keeps its Habituals") and under the round's threat allowance (the ``roundThreats``
play-test variant, which departs from D-INT-4; "The heuristic Evil under roundThreats")."""

from __future__ import annotations

from christianity_game import Game
from christianity_game.bots.heuristic import HeuristicBot
from christianity_game.engine.actions import LayCostZone
from christianity_game.engine.settings import Settings


def _opening_lays(round_threats: int, seed: int = 14) -> list[str]:
    """The kinds of the cards the Evil seat of a seeded ER duel lays in its opening Cost Zone."""
    g = Game.new(mode="duel", lineup="ER", seed=seed, settings=Settings.from_dict({"round_threats": round_threats}))
    seat = g.pending[0][0]
    assert g.state.seats[seat].side == "evil"
    bot = HeuristicBot(1)
    kinds: list[str] = []
    while g.pending and g.pending[0][0] == seat and any(isinstance(a, LayCostZone) for a in g.pending[0][1]):
        action = bot.choose(g.seat_view(seat), g.pending[0][1])
        if isinstance(action, LayCostZone):
            kinds.append(g.defs[action.card].kind)
        g.apply(action)
    return kinds


def test_D_W_E_the_heuristic_evil_lays_temptations_and_keeps_its_habituals_for_play() -> None:
    g = Game.new(mode="duel", lineup="ER", seed=14)
    seat = g.pending[0][0]
    hand = [g.defs[u].kind for u in g.state.seats[seat].hand]
    assert hand.count("evil_habitual") >= 3   # the hand's costliest cards are Habituals ...
    assert _opening_lays(0) == ["temptation"] * 3   # ... and it lays Temptations


def test_D_INT_4_variant_roundThreats_the_heuristic_evil_keeps_its_habituals_for_play() -> None:
    assert _opening_lays(5) == ["temptation"] * 3      # the same hand, under the allowance
