"""The heuristic bot's Evil play under the round's threat allowance (the ``roundThreats`` play-test
variant, which departs from D-INT-4): Habituals, not Cost, run short there, so the bot lays
Temptations in its Cost Zone and keeps its Habituals for play. Printed rules: unchanged, it lays
its costliest cards (docs/decisions.md, "The heuristic Evil under roundThreats")."""

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
    bot, kinds = HeuristicBot(1), []
    while g.pending and g.pending[0][0] == seat and any(isinstance(a, LayCostZone) for a in g.pending[0][1]):
        action = bot.choose(g.seat_view(seat), g.pending[0][1])
        if isinstance(action, LayCostZone):
            kinds.append(g.defs[action.card].kind)
        g.apply(action)
    return kinds


def test_D_INT_4_variant_roundThreats_the_heuristic_evil_keeps_its_habituals_for_play() -> None:
    printed, budgeted = _opening_lays(0), _opening_lays(5)
    assert printed == ["evil_habitual"] * 3   # the costliest cards of this hand
    assert budgeted == ["temptation"] * 3      # the same hand, under the allowance
