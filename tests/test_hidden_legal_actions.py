"""No legal action depends on a card its seat cannot see (D-MR-5, docs/design.md, "Hidden
information").

Over 500 seeded duel games, at every decision the deciding seat's legal actions are compared with
those of worlds in which everything that seat cannot see is dealt again (``Game.determinize``:
other hands, deck orders, face-down Cost Zone cards of others, the generator): they must be the
same, or the list of options would tell the player something about hidden cards (as rules 1's
"destroy" did, offered only when a Righteous hand held a Habitual).
"""

from __future__ import annotations

import pytest

from christianity_game import Game, Settings
from christianity_game.engine.rng import Rng

LINEUPS = ("ER", "EER", "ERR")


@pytest.mark.parametrize("lineup", LINEUPS)
def test_legal_actions_never_depend_on_hidden_cards(lineup: str) -> None:
    games = 500 // len(LINEUPS) + (1 if lineup == "ER" else 0)
    checked = 0
    for g_no in range(games):
        game = Game.new(mode="duel", lineup=lineup, seed=50_000 + g_no, log=False,
                        settings=Settings(max_turns=6, evil_interrupt=g_no % 2 == 0))
        chooser = Rng(g_no)
        while game.pending:
            seat, actions = game.pending[0]
            if len(actions) > 1:
                world = game.determinize(seat, Rng(chooser.next64()))
                assert world.legal_actions(seat) == actions, (
                    f"{lineup} game {g_no}, state {game.state_id}: seat {seat}'s options depend on hidden cards")
                checked += 1
            game.apply(actions[chooser.randbelow(len(actions))])
    assert checked > 1000


@pytest.mark.parametrize("rules", [1, 2])
def test_D_MR_5_the_scan_catches_an_offer_that_depends_on_a_hidden_hand(rules: int) -> None:
    """The check above has teeth: at a 5th (special) reward with a Righteous Habitual only in a
    Righteous hand, rules 1 offered "destroy" only in worlds where the hand holds one, so some
    re-dealt world differs; rules 2 offers it always, so none does."""
    from duel_helpers import special_reward_with_habitual_in_hand

    s = special_reward_with_habitual_in_hand(rules)
    game = s.g
    seat, actions = game.pending[0]
    differ = sum(game.determinize(seat, Rng(k)).legal_actions(seat) != actions for k in range(20))
    assert (differ > 0) == (rules == 1)
