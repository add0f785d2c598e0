"""Scenario tests for docs/rules.md section CO: co-op and solo (turns, the Evil deck, the clearing round)."""

from __future__ import annotations

import pytest

from christianity_game import Game, PlayCard, Resist, Settings
from scenario import ANCHOR, FILLER, Scenario, cost, res

THREAT = "envy"          # Temptations with a fixed resistance (R2 in the starter set)
THREAT2 = "idleness"
HAB = "secret-sin"       # an Evil Habitual with a fixed resistance (R3)
MAT = "watchmen-on-thy-walls"


def phases_seen(s: Scenario, seat: int) -> list[str]:
    return [e.data["phase"] for e in s.of_kind("phase") if e.seat == seat]


# --- CO-1 ---------------------------------------------------------------------------------------

def test_CO1_seats_take_turns_in_seat_order_and_a_round_is_one_turn_each() -> None:
    """CO-1: RRR: seat 0, 1, 2, then round 2 starts with seat 0 again."""
    s = Scenario(lineup="RRR", phase="main", mat_abilities=False)
    s.hand(0, ANCHOR).start()
    seen = []
    for seat in (0, 1, 2):
        assert (s.g.turn_seat, s.g.round) == (seat, 1)
        seen.append(seat)
        s.pass_turn(seat)
    assert (s.g.turn_seat, s.g.round) == (0, 2)
    starts = [(e.seat, e.data["round"]) for e in s.of_kind("turn_started")]
    assert starts == [(1, 1), (2, 1), (0, 2)]


def test_CO1_the_game_has_10_rounds() -> None:
    """CO-1: the round limit is 10 (a setting: max_rounds); nothing ends the game before it."""
    assert Settings().max_rounds == 10
    s = Scenario(lineup="RR", phase="main", round=9, turn_seat=1, mat_abilities=False)
    s.hand(1, ANCHOR).start()
    s.pass_turn(1)
    assert s.g.result is None and s.g.round == 10
    s.pass_turn(0)
    s.pass_turn(1)
    assert s.g.result is not None and s.g.result.winner == "evil"


# --- CO-2 ---------------------------------------------------------------------------------------

def test_CO2_turn_is_draw_cost_zone_evil_resistance_main_end() -> None:
    """CO-2 DECISION: Draw -> Cost Zone -> Evil -> Resistance -> Main -> End."""
    s = Scenario(lineup="RR", phase="draw", mat_abilities=False)
    s.hand(0, ANCHOR).deck(0, "pride", "envy").untapped(0, res("idleness")).evil_deck("idleness")
    s.start()
    assert s.of_kind("drew") and s.kinds().index("drew") < s.kinds().index("phase")   # Draw first
    s.expect_decision(0, "lay")
    assert s.g.phase == "cost_zone"
    s.pass_(0)
    s.expect_decision(0, "resistance")              # Evil has played Idleness; now Resistance
    assert s.g.phase == "resistance" and s.threats() == ["idleness"]
    s.pass_(0)
    s.expect_decision(0, "main")
    assert s.g.phase == "main"
    s.pass_(0)
    assert s.g.turn_seat == 1
    assert phases_seen(s, 0) == ["cost_zone", "evil", "resistance", "main"]
    k = s.kinds()
    assert k.index("threat_played") < k.index("failed")


# --- CO-3 ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("maturity", [0, 1, 2, 3])
def test_CO3_draw_phase_draws_maturity_plus_2(maturity: int) -> None:
    """CO-3: the seat draws Maturity + 2 cards."""
    s = Scenario(lineup="RR", phase="draw", mat_abilities=False)
    s.seat(0, maturity=maturity).deck(0, *[FILLER] * 8)
    s.start()
    assert len(s.zone(0, "hand")) == maturity + 2
    assert len(s.of_kind("drew")) == maturity + 2


def test_CO3_a_held_sloth_draws_one_fewer() -> None:
    """CO-3 with a passive: Sloth held (draw -1): Maturity 1 + 2 - 1 = 2."""
    s = Scenario(lineup="RR", phase="draw", mat_abilities=False)
    s.seat(0, maturity=1).held(0, "sloth").deck(0, *[FILLER] * 8)
    s.start()
    assert len(s.zone(0, "hand")) == 2


# --- CO-4 ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("maturity,plays", [(0, 1), (1, 2), (2, 4), (3, 5)])
def test_CO4_evil_deck_plays_1_2_4_5_by_the_active_seats_maturity(maturity: int, plays: int) -> None:
    """CO-4 DECISION: L0: 1, L1: 2, L2: 4, L3: 5, top card first, each at the active seat."""
    deck = ["pride", "envy", "idleness", "gossip", "worry", "lukewarm", "sloth"]
    s = Scenario(lineup="RR", phase="cost_zone", mat_abilities=False)
    s.seat(0, maturity=maturity).seat(1, maturity=3).untapped(0, 1).evil_deck(*deck)
    s.start()
    s.pass_(0)
    played = s.of_kind("threat_played")
    assert [e.card for e in played] == deck[:plays]
    assert all(e.data["target"] == 0 for e in played)
    assert s.pile("evil_deck") == deck[plays:]


def test_CO4_by_the_active_seats_maturity_not_the_teams() -> None:
    """CO-4: seat 1 at L2 while seat 0 is L0: in seat 1's turn the Evil deck plays 4."""
    s = Scenario(lineup="RR", phase="cost_zone", turn_seat=1, mat_abilities=False)
    s.seat(1, maturity=2).untapped(1, 1).evil_deck(*["idleness"] * 6)
    s.start()
    s.pass_(1)
    assert len(s.of_kind("threat_played")) == 4
    assert all(e.data["target"] == 1 for e in s.of_kind("threat_played"))


def test_CO4_the_evil_deck_makes_no_choices() -> None:
    """CO-4: no seat decides for Evil: every decision of the turn belongs to a Righteous seat and
    the threats come without any action."""
    s = Scenario(lineup="RR", phase="cost_zone", mat_abilities=False)
    s.untapped(0, res(THREAT)).evil_deck(THREAT)
    s.start()
    events = s.pass_(0)
    assert [e.card for e in events if e.kind == "threat_played"] == [THREAT]
    assert all(e.seat is None for e in events if e.kind == "threat_played")     # played by the deck
    assert s.st.threats[0].by is None
    assert s.decider() == 0


# --- CO-5 ---------------------------------------------------------------------------------------

def test_CO5_target_resists_each_threat_on_its_own_by_rotating() -> None:
    """CO-5: two threats; each is resisted on its own, paying its own resistance cost."""
    s = Scenario(lineup="RR", phase="resistance")
    s.hand(0, ANCHOR).untapped(0, res(THREAT) + res(THREAT2)).threat(THREAT2).threat(THREAT)
    s.start()
    s.resist(0, THREAT, res(THREAT))
    assert s.threats() == [THREAT2] and s.pile("resisted") == [THREAT]
    s.resist(0, THREAT2, res(THREAT2))
    assert s.threats() == [] and s.pile("resisted") == [THREAT, THREAT2]
    assert s.tapped(0) == res(THREAT) + res(THREAT2)


def test_CO5_resistance_card_resists_a_threat() -> None:
    """CO-5: playing a Resistance card on a threat (Thy Rod and Thy Staff: R3 or less)."""
    s = Scenario(lineup="RR", phase="resistance")
    s.hand(0, "rod-and-staff", ANCHOR).untapped(0, cost("rod-and-staff")).threat(THREAT)
    s.start()
    s.play(0, "rod-and-staff", threat=THREAT)
    s.settle()
    assert s.pile("resisted") == [THREAT]
    assert s.ids(0, "discard") == ["rod-and-staff"]


def test_CO5_resistance_card_respects_its_limit() -> None:
    """CO-5: Thy Rod and Thy Staff (R3 or less) resists an R2 threat, not an R5 one."""
    big = "a-roaring-lion"
    assert res(THREAT) <= 3 < res(big)
    s = Scenario(lineup="RR", phase="resistance")
    s.hand(0, "rod-and-staff").untapped(0, cost("rod-and-staff")).threat(big).threat(THREAT)
    s.start()
    assert s.play_action(0, "rod-and-staff", threat=big) not in s.legal(0)
    assert s.play_action(0, "rod-and-staff", threat=THREAT) in s.legal(0)


def test_CO5_cost_and_a_card_combine_on_different_threats() -> None:
    """CO-5: "and/or": rotate for one threat, a Resistance card for another."""
    s = Scenario(lineup="RR", phase="resistance")
    s.seat(0, humility=5).hand(0, "rod-and-staff", ANCHOR).untapped(0, cost("rod-and-staff") + res(THREAT))
    s.threat(THREAT).threat(THREAT2)
    s.start()
    s.play(0, "rod-and-staff", threat=THREAT2)
    s.settle()
    s.resist(0, THREAT, res(THREAT))
    assert sorted(s.pile("resisted")) == sorted([THREAT, THREAT2])
    assert s.humility(0) == 5


def test_CO5_resistance_card_with_nothing_to_resist_for_its_other_effects() -> None:
    """CO-5: a Resistance card may be played in the Resistance phase with nothing to resist:
    Shelter of the Most High (draw 1) with no threat named."""
    s = Scenario(lineup="RR", phase="resistance")
    s.hand(0, "shelter-of-the-most-high", ANCHOR).untapped(0, cost("shelter-of-the-most-high") + res("gossip"))
    s.deck(0, "pride").threat("gossip")
    s.start()
    s.play(0, "shelter-of-the-most-high")
    s.settle()
    assert "pride" in s.ids(0, "hand")
    assert s.threats() == ["gossip"]                         # nothing was resisted by it


def test_CO5_benevolence_helpers_take_part_in_the_resistance_phase() -> None:
    """CO-5: others with Benevolence may resist a threat aimed at the active seat."""
    s = Scenario(lineup="RRR", phase="resistance").abilities("benevolence")
    s.hand(0, ANCHOR).untapped(1, 1).untapped(2, res(THREAT) - 1).threat(THREAT, target=0)
    s.start()
    s.expect_decision(1, "resistance")         # seat 0 has no Cost Zone: the helpers decide
    s.resist(1, THREAT, 1)
    s.expect_decision(2, "resistance")
    s.resist(2, THREAT, res(THREAT) - 1)
    assert s.pile("resisted") == [THREAT]


def test_CO5_only_the_target_and_helpers_can_resist() -> None:
    """CO-5: without Benevolence a teammate has no Resist action and is not asked."""
    s = Scenario(lineup="RR", phase="resistance")
    s.hand(0, ANCHOR).untapped(0, res(THREAT)).untapped(1, res(THREAT)).threat(THREAT, target=0)
    s.start()
    s.expect_decision(0, "resistance")
    assert s.legal(1) == []
    s.pass_(0)
    assert s.pile("failed") == [THREAT]
    assert s.tapped(1) == 0


# --- CO-6 ---------------------------------------------------------------------------------------

def test_CO6_unresisted_temptation_fails_to_the_failed_pile_with_S3() -> None:
    """CO-6: a Temptation not resisted by the end of the phase fails: S-3, then the Failed pile,
    remembering whom it was aimed at."""
    s = Scenario(lineup="RR", phase="resistance")
    s.seat(0, humility=4).hand(0, ANCHOR).untapped(0, res("idleness")).threat("idleness")
    s.start()
    s.pass_(0)
    assert s.humility(0) == 3
    assert s.pile("failed") == ["idleness"]
    uid = s.st.failed[0]
    assert s.st.pile_info[uid] == (None, 0)
    assert s.tapped(0) == 1                                  # its text: rotate 1 of target's cards


def test_CO6_failed_evil_habitual_takes_hold_and_stays_in_play() -> None:
    """CO-6: a failed Evil Habitual takes hold on its target and stays in play (not a pile)."""
    s = Scenario(lineup="RR", phase="resistance", mat_abilities=False)
    s.seat(0, humility=4).hand(0, ANCHOR).untapped(0, 2).threat("unforgiveness")
    s.start()
    s.pass_(0)
    assert s.humility(0) == 3
    assert s.ids(0, "held") == ["unforgiveness"]
    assert s.pile("failed") == [] and "took_hold" in s.kinds()
    assert s.g.evil_habituals_in_play() == 1
    s.pass_turn(0)
    s.pass_turn(1)
    assert s.ids(0, "held") == ["unforgiveness"]            # still there next turn
    assert s.humility(0) == 2                                # and its upkeep H-1 applied


def test_CO6_threats_fail_in_the_order_they_were_played() -> None:
    """CO-6: several unresisted threats fail one after the other, each costing 1 Humility."""
    s = Scenario(lineup="RR", phase="resistance", mat_abilities=False)
    s.seat(0, humility=5).hand(0, ANCHOR).threat("idleness").threat(HAB).threat("envy")
    s.start()
    assert [e.card for e in s.of_kind("failed")] == ["idleness", HAB, "envy"]
    assert s.humility(0) == 2
    assert s.pile("failed") == ["idleness", "envy"] and s.ids(0, "held") == [HAB]


# --- CO-7 ---------------------------------------------------------------------------------------

def test_CO7_resist_a_held_habitual_in_own_main_by_paying_its_resistance() -> None:
    """CO-7 DECISION: in its own Main a seat pays a holding Habitual's full resistance to break it."""
    s = Scenario(lineup="RR", phase="main")
    n = res(HAB)
    s.hand(0, ANCHOR).held(0, HAB).untapped(0, n)
    s.start()
    uid = s.threat_uid(HAB)
    assert Resist(0, uid, n) in s.legal(0)
    assert Resist(0, uid, n - 1) not in s.legal(0)           # the full cost, not in parts
    s.resist(0, HAB, n)
    assert s.ids(0, "held") == []
    assert s.pile("resisted") == [HAB]
    assert s.tapped(0) == n
    assert s.of_kind("habitual_broken")[0].data["how"] == "paid"


def test_CO7_cannot_afford_no_resist() -> None:
    """CO-7: with fewer untapped cards than the resistance there is no Resist action."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, ANCHOR).held(0, HAB).untapped(0, res(HAB) - 1)
    s.start()
    assert not any(isinstance(a, Resist) for a in s.legal(0))


def test_CO7_resistance_card_breaks_a_held_habitual_in_main() -> None:
    """CO-7 DECISION: a Resistance card may break a Habitual holding you, in your Main phase."""
    s = Scenario(lineup="RR", phase="main")
    assert res(HAB) <= 3                                     # Break Every Yoke: R3 or less
    s.hand(0, "break-every-yoke", ANCHOR).held(0, HAB).untapped(0, cost("break-every-yoke"))
    s.start()
    s.play(0, "break-every-yoke", threat=HAB)
    s.settle()
    assert s.ids(0, "held") == []
    assert s.pile("resisted") == [HAB]
    assert s.humility(0) == 4                               # its text: H+1


def test_CO7_only_the_held_seat_in_its_own_main() -> None:
    """CO-7: a seat cannot pay off a Habitual holding a teammate, nor its own outside its Main."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, ANCHOR).held(1, HAB).untapped(0, res(HAB))
    s.start()
    assert not any(isinstance(a, Resist) for a in s.legal(0))

    r = Scenario(lineup="RR", phase="resistance")
    r.hand(0, ANCHOR).held(0, HAB).untapped(0, res(HAB)).threat("idleness")
    r.start()
    held_uid = r.threat_uid(HAB)
    assert not any(isinstance(a, Resist) and a.threat == held_uid for a in r.legal(0))


def test_CO7_break_with_an_ability() -> None:
    """CO-7: "or break it with an ability": Deliverance in Main."""
    s = Scenario(lineup="RR", phase="main").abilities("deliverance")
    s.hand(0, ANCHOR).held(0, HAB)
    s.start()
    s.use(0, "deliverance")
    s.choose(0, HAB)
    assert s.ids(0, "held") == [] and s.pile("resisted") == [HAB]


# --- CO-W-1 .. CO-W-4: the clearing round ---------------------------------------------------------

def clearing(round: int, turn_seat: int = 0, held: dict[int, tuple[str, ...]] | None = None,
             evil: tuple[str, ...] = (), lineup: str = "RR") -> Scenario:
    """Seat ``turn_seat`` in Main at L2 with a Maturity card; every other seat at L3; ``held``:
    Evil Habituals holding seats (each seat gets 3 untapped Cost Zone cards); ``evil``: the Evil
    deck (top first), the piles empty. Playing the card opens the clearing round."""
    s = Scenario(lineup=lineup, phase="main", round=round, turn_seat=turn_seat, mat_abilities=False)
    for i in range(len(lineup)):
        s.seat(i, maturity=3).untapped(i, res(HAB) if i != turn_seat else 0)
    s.seat(turn_seat, maturity=2).hand(turn_seat, MAT).untapped(turn_seat, cost(MAT))
    for seat, cards in (held or {}).items():
        s.held(seat, *cards)
    s.evil_deck(*evil)
    s.start()
    s.play(turn_seat, MAT)
    s.settle()
    assert s.maturity(turn_seat) == 3
    return s


def test_COW1_all_L3_no_habitual_for_a_full_round_is_a_righteous_win() -> None:
    """CO-W-1: every seat at L3 and no Evil Habitual, held for the clearing round: Righteous win."""
    s = clearing(round=3)
    assert s.st.clearing is not None and s.g.result is None
    s.pass_turn(0)
    assert s.g.result is None                       # not at once: the round must be held
    s.pass_turn(1)
    assert s.g.result is not None and s.g.result.winner == "righteous"
    assert s.g.round == 4


def test_COW1_reaching_L3_is_not_the_win() -> None:
    """CO-W-1: the last seat reaching L3 opens the clearing round; the game is not won yet."""
    s = clearing(round=3)
    assert s.g.result is None
    assert [e.data for e in s.of_kind("clearing_round")] == [{"opened": True}]


def test_COW1_an_evil_habitual_in_play_blocks_the_win() -> None:
    """CO-W-1: a Habitual still in play at the close: no Righteous win."""
    s = clearing(round=3, held={1: (HAB,)})
    s.pass_turn(0)
    s.pass_turn(1)
    assert s.g.result is None
    assert {"closed": "unclean"} in [e.data for e in s.of_kind("clearing_round")]


def test_COW2_clearing_round_runs_from_the_start_of_that_seats_turn_to_its_next() -> None:
    """CO-W-2: opened in seat 0's turn, it is judged when seat 0's next turn begins: the win comes
    at that boundary, before that turn starts (no turn_started, no draw for round 4)."""
    s = clearing(round=3)
    s.pass_turn(0)
    s.pass_turn(1)
    k = s.kinds()
    assert k[-1] == "game_over"
    assert s.of_kind("turn_started")[-1].data["round"] == 3
    assert s.g.result is not None and s.g.result.winner == "righteous" and s.g.round == 4


def test_COW2_opened_by_a_later_seat_closes_at_that_seats_next_turn() -> None:
    """CO-W-2: seat 1 reaching L3 last: the round runs through seat 0's next turn and closes at
    the start of seat 1's next turn."""
    s = clearing(round=3, turn_seat=1)
    s.pass_turn(1)
    assert s.g.turn_seat == 0 and s.g.result is None
    s.pass_turn(0)
    assert s.g.result is not None and s.g.result.winner == "righteous"
    assert s.g.turn_seat == 1 and s.g.round == 4


def test_COW2_losing_L3_during_it_does_not_end_it_early() -> None:
    """CO-W-2: seat 1 drops to L2 during the clearing round and regains L3 before it closes: the
    round goes on and is won at its close."""
    s = clearing(round=3)
    s.pass_turn(0)
    s.adjust(1, "maturity", 2)
    assert s.g.result is None and s.st.clearing is not None
    s.adjust(1, "maturity", 3)
    s.pass_turn(1)
    assert s.g.result is not None and s.g.result.winner == "righteous"


def test_COW2_not_at_L3_at_the_close_is_no_win() -> None:
    """CO-W-2: judged at the close: seat 1 still at L2 then: no win (and play goes on, CO-W-3)."""
    s = clearing(round=3)
    s.pass_turn(0)
    s.adjust(1, "maturity", 2)
    s.pass_turn(1)
    assert s.g.result is None
    assert s.st.clearing is None                   # closed unclean; not all at L3, none reopens


def test_COW2_new_habitual_during_it_does_not_end_it_early() -> None:
    """CO-W-2: a Habitual takes hold during the clearing round: nothing ends; resisted before the
    close (CO-7), the round is still won (co-op judges at the close only)."""
    s = clearing(round=3, evil=(HAB,))
    s.pass_turn(0)
    # seat 1's turn: Sloth is played at seat 1 in the Evil phase; seat 1 lets it take hold
    assert s.g.turn_seat == 1
    s.pass_while(1, "lay")
    s.pass_while(1, "after_lay")
    s.pass_while(1, "resistance")
    assert s.ids(1, "held") == [HAB]
    assert s.g.result is None and s.st.clearing is not None
    s.expect_decision(1, "main")
    s.resist(1, HAB, res(HAB))
    s.pass_turn(1)
    assert s.g.result is not None and s.g.result.winner == "righteous"


def test_COW3_unclean_close_before_round_10_play_goes_on_and_a_later_clean_close_wins() -> None:
    """CO-W-3: closed unclean in round 4: the game goes on; seat 1 breaks its Habitual in round 4;
    the next clean close (round 5) wins."""
    s = clearing(round=3, held={1: (HAB,)})
    s.pass_turn(0)
    s.pass_turn(1)                                   # round 4 starts: the close is unclean
    assert s.g.result is None and s.g.round == 4
    s.pass_turn(0)
    s.expect_decision(1, "lay")
    s.pass_while(1, "lay")
    s.pass_while(1, "after_lay")
    s.expect_decision(1, "main")
    s.resist(1, HAB, res(HAB))
    s.pass_turn(1)
    assert s.g.result is not None and s.g.result.winner == "righteous"
    assert s.g.round == 5


def test_COW3_L3_in_round_9_unclean_in_round_10_plays_to_the_end_of_round_10_then_evil() -> None:
    """CO-W-3 (001: "L3 reached in round 9"): the close in round 10 is unclean; the table keeps
    going to the end of round 10; then, still unclean, Evil wins (CO-W-4)."""
    s = clearing(round=9, held={1: (HAB,)})
    s.pass_turn(0)
    s.pass_turn(1)
    assert s.g.result is None and s.g.round == 10      # closed unclean, round 10 still to play
    s.pass_turn(0)
    assert s.g.result is None
    s.pass_turn(1)
    assert s.g.result is not None and s.g.result.winner == "evil"


def test_COW3_L3_in_round_9_cleared_during_round_10_wins() -> None:
    """CO-W-3: the same, but seat 1 breaks the Habitual during round 10: a later clean close wins."""
    s = clearing(round=9, held={1: (HAB,)})
    s.pass_turn(0)
    s.pass_turn(1)
    s.pass_turn(0)
    s.pass_while(1, "lay")
    s.pass_while(1, "after_lay")
    s.resist(1, HAB, res(HAB))
    s.pass_turn(1)
    assert s.g.result is not None and s.g.result.winner == "righteous"


def test_COW3_unclean_close_in_round_10_at_the_last_seat_ends_the_game_at_the_end_of_round_10() -> None:
    """CO-W-3 / CO-W-4 (001: "L3 reached in round 9 ... If an Evil Habitual is still standing then,
    the table keeps going to the end of round 10"): here the last seat in turn order (seat 1)
    reaches L3 in round 9, so the close is at the start of seat 1's round-10 turn; unclean, play
    goes on to the end of round 10 (seat 1's turn) and then Evil wins. Seat 0 gets no round-11
    turn: only a clearing round *opened* by the last seat reaching L3 late in round 10 runs past it."""
    s = clearing(round=9, turn_seat=1, held={0: (HAB,)})
    s.pass_turn(1)
    s.pass_turn(0)                                   # round 10, seat 1's turn: the close is unclean
    assert s.g.result is None and (s.g.round, s.g.turn_seat) == (10, 1)
    s.pass_turn(1)                                   # round 10 is over
    assert s.g.result is not None and s.g.result.winner == "evil"
    assert not [e for e in s.of_kind("turn_started") if e.data["round"] == 11]


def test_COW3_L3_mid_round_10_runs_its_full_length_past_round_10() -> None:
    """CO-W-3: the last seat (seat 1) reaches L3 in round 10: the clearing round runs into round
    11 (seat 0 plays a turn there) and is won at the start of seat 1's next turn."""
    s = clearing(round=10, turn_seat=1)
    s.pass_turn(1)
    assert s.g.result is None                       # round 10 is over, but the clearing round is open
    assert s.g.round == 11 and s.g.turn_seat == 0
    s.pass_turn(0)
    assert s.g.result is not None and s.g.result.winner == "righteous"


def test_COW3_L3_mid_round_10_unclean_close_is_an_evil_win() -> None:
    """CO-W-3 with CO-W-4: the same late clearing round closing unclean (a Habitual on seat 1):
    Evil wins when it closes."""
    s = Scenario(lineup="RR", phase="main", round=10, turn_seat=1, mat_abilities=False)
    s.seat(0, maturity=3).held(0, HAB).seat(1, maturity=2).hand(1, MAT).untapped(1, cost(MAT))
    s.start()
    s.play(1, MAT)
    s.settle()
    s.pass_turn(1)
    assert s.g.result is None and s.g.round == 11
    s.pass_turn(0)
    assert s.g.result is not None and s.g.result.winner == "evil"


def test_COW4_evil_wins_when_round_10_is_over_without_a_righteous_win() -> None:
    """CO-W-4: the last seat ends its round-10 turn: Evil wins."""
    s = Scenario(lineup="RR", phase="main", round=10, turn_seat=0, mat_abilities=False)
    s.hand(0, ANCHOR).start()
    s.pass_turn(0)
    assert s.g.result is None                      # round 10 is not over yet
    s.pass_turn(1)
    assert s.g.result is not None
    assert s.g.result.winner == "evil"
    assert "10" in s.g.result.reason
    assert s.g.legal_actions(0) == [] and s.g.pending == []


def test_COW4_round_limit_is_the_max_rounds_setting() -> None:
    """CO-W-4: with max_rounds 3 the Evil win comes after round 3."""
    s = Scenario(lineup="R", mode="solo", phase="main", round=3, max_rounds=3, mat_abilities=False)
    s.hand(0, ANCHOR).start()
    s.pass_turn(0)
    assert s.g.result is not None and s.g.result.winner == "evil"


def test_COW4_evil_wins_after_an_open_clearing_round_closes_unclean() -> None:
    """CO-W-4: "(and any open clearing round has closed)": no Evil win while it is open."""
    s = clearing(round=10, turn_seat=1, held={0: (HAB,)})
    s.pass_turn(1)
    assert s.g.result is None
    s.pass_turn(0)
    assert s.g.result is not None and s.g.result.winner == "evil"
