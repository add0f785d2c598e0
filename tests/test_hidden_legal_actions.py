"""No legal action depends on a card its seat cannot see (issue 9, D-MR-5, DESIGN "Hidden
information by construction").

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
    from duel_helpers import IDLE, E_FILL, R_FILL, DuelScenario

    s = DuelScenario("ER", phase="main", turn_seat=0, rules=rules)
    s.hand(0, "idleness", IDLE, "idleness", IDLE).evil_cz(0, 4).deck(0, *[E_FILL] * 12)
    s.seat(1, humility=6).hand(1, "first-fruits", *[R_FILL] * 5).deck(1, *[R_FILL] * 8).untapped(1, 2)
    s.start()
    for c in ("idleness", IDLE, "idleness", IDLE):
        s.threaten(0, c, 1)
        s.take_rewards()
    s.pass_interrupts()
    while not (s.decision() == "reward" and s.reward_kind() == "special"):
        if s.decision() == "answer":
            s.take_hit(1)
        else:
            s.reward(0, "draw")
    game = s.g
    seat, actions = game.pending[0]
    differ = sum(game.determinize(seat, Rng(k)).legal_actions(seat) != actions for k in range(20))
    assert (differ > 0) == (rules == 1)
