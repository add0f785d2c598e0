"""Scenario tests for docs/rules.md section S: Humility and Maturity (both modes)."""

from __future__ import annotations

import pytest

from christianity_game import AdjustBadge, Game, IllegalAction, Settings
from scenario import ANCHOR, FILLER, Scenario, cost, res


# A threat with a fixed resistance whose text is "target H-1": failing it costs 2 (S-3 + text).
H_MINUS_1 = "lust-of-the-eyes"

# --- S-1 ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode,lineup", [("coop", "RR"), ("coop", "RRR"), ("solo", "R")])
def test_S1_new_game_starts_at_humility_3_and_maturity_L0(mode: str, lineup: str) -> None:
    """S-1: each Righteous seat starts at Humility 3 of 10 and Maturity L0."""
    game = Game.new(mode=mode, lineup=lineup, seed=3)
    for seat in game.view(None)["seats"]:
        assert seat["humility"] == 3
        assert seat["maturity"] == 0


def test_S1_maturity_never_rises_above_L3() -> None:
    """S-1: Maturity goes L0 -> L3 and never higher: a Maturity card resolved at L3 does nothing."""
    s = Scenario(lineup="RR", phase="main", mat_abilities=False)
    s.seat(0, maturity=3).seat(1, maturity=3).hand(0, "watchmen-on-thy-walls", FILLER).untapped(0, cost("watchmen-on-thy-walls"))
    s.start()
    s.play(0, "watchmen-on-thy-walls")
    assert s.maturity(0) == 3
    assert not s.of_kind("maturity")
    assert s.ids(0, "discard") == ["watchmen-on-thy-walls"]


def test_S1_manual_adjustment_cannot_set_maturity_above_L3() -> None:
    """S-1 with S-8: the badge goes to L3 at most, even by hand."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, FILLER).start()
    with pytest.raises(IllegalAction) as err:
        s.g.apply(AdjustBadge(0, "maturity", 4))
    assert err.value.code == "out_of_range"
    assert s.maturity(0) == 0


# --- S-2 ----------------------------------------------------------------------------------------

def test_S2_laying_the_cost_zone_does_not_change_humility() -> None:
    """S-2: placing cards in the Cost Zone does not change Humility."""
    s = Scenario(lineup="RR", phase="cost_zone")
    s.seat(0, humility=4).hand(0, "still-waters", "pride", "envy", "sloth")
    s.start()
    s.expect_decision(0, "lay")
    s.lay(0, "still-waters", "pride", "envy", "sloth")
    assert len(s.zone(0, "cost_zone")) == 4
    assert s.humility(0) == 4
    assert not s.of_kind("humility")


def test_S2_card_effects_change_humility() -> None:
    """S-2: a card effect (H+1 on Beside Still Waters) changes Humility, with a humility event."""
    s = Scenario(lineup="RR", phase="main")
    s.seat(0, humility=4).hand(0, "still-waters", FILLER).untapped(0, cost("still-waters")).deck(0, FILLER)
    s.start()
    s.play(0, "still-waters")
    assert s.humility(0) == 5
    assert [e.data["delta"] for e in s.of_kind("humility")] == [1]


def test_S2_failed_temptation_changes_humility_and_nothing_else_does_on_its_own() -> None:
    """S-2: over a whole turn with no Humility cards, only the failed temptation moves Humility."""
    s = Scenario(lineup="RR", phase="draw", mat_abilities=False)
    s.seat(0, humility=5).deck(0, FILLER, FILLER, FILLER).evil_deck("envy")
    s.start()
    s.expect_decision(0, "lay")
    s.lay(0, FILLER, FILLER)
    s.pass_(0)   # end laying: Evil plays Envy
    s.expect_decision(0, "resistance")
    s.pass_(0)   # not resisted: it fails
    assert s.humility(0) == 4
    assert s.pile("failed") == ["envy"]


# --- S-3 ----------------------------------------------------------------------------------------

def test_S3_failed_temptation_costs_its_target_1_humility() -> None:
    """S-3: Idleness has no Humility text; failing it still costs the target 1 Humility."""
    s = Scenario(lineup="RR", phase="resistance")
    s.seat(0, humility=3).seat(1, humility=3).threat("idleness", target=0)
    s.start()
    s.pass_while(0, "resistance")   # not resisted
    assert s.humility(0) == 2
    assert s.humility(1) == 3
    assert s.pile("failed") == ["idleness"]


def test_S3_rule_loss_comes_on_top_of_the_card_text() -> None:
    """S-3: The Lust of the Eyes (text: target H-1) failing costs 1 by rule and 1 by its text."""
    s = Scenario(lineup="RR", phase="resistance")
    s.seat(0, humility=5).threat(H_MINUS_1, target=0)
    s.start()
    s.pass_while(0, "resistance")   # not resisted
    assert s.humility(0) == 3


def test_S3_resisted_temptation_costs_nothing() -> None:
    """S-3: only an unresisted temptation costs Humility."""
    s = Scenario(lineup="RR", phase="resistance")
    s.seat(0, humility=5).untapped(0, res(H_MINUS_1)).threat(H_MINUS_1, target=0)
    s.start()
    s.resist(0, H_MINUS_1, res(H_MINUS_1))
    assert s.humility(0) == 5
    assert s.pile("resisted") == [H_MINUS_1]


# --- S-4 ----------------------------------------------------------------------------------------

def test_S4_overflow_discards_per_point_from_hand_or_cost_zone_seat_choice() -> None:
    """S-4: at Humility 0, each point that cannot be taken is one discard, from hand or Cost
    Zone, the seat choosing per card. Lust of the Eyes = 2 points (rule + text)."""
    s = Scenario(lineup="RR", phase="resistance")
    s.seat(0, humility=0).hand(0, "still-waters", "pride").cost_zone(0, "envy", tapped=True)
    s.threat(H_MINUS_1, target=0)
    s.start()
    s.pass_while(0, "resistance")   # not resisted
    s.expect_decision(0, "overflow")
    options = {s.g.defs[a.option].id for a in s.legal(0)}
    assert options == {"still-waters", "pride", "envy"}       # hand and Cost Zone both offered
    s.choose(0, "envy", zone="cost_zone")                       # 1st point: from the Cost Zone
    s.expect_decision(0, "overflow")
    s.choose(0, "still-waters", zone="hand")                    # 2nd point: from the hand
    assert s.humility(0) == 0
    assert sorted(s.ids(0, "discard")) == ["envy", "still-waters"]
    assert s.ids(0, "hand") == ["pride"]
    assert s.ids(0, "cost_zone") == []
    assert len(s.of_kind("overflow_discard")) == 2


def test_S4_loss_partly_taken_then_overflow() -> None:
    """S-4: a loss of 2 at Humility 1 takes it to 0 and forces 1 discard."""
    s = Scenario(lineup="RR", phase="resistance")
    s.seat(0, humility=1).hand(0, "still-waters", "envy").threat(H_MINUS_1, target=0)
    s.start()
    s.pass_while(0, "resistance")   # not resisted
    s.expect_decision(0, "overflow")
    assert s.st.choice.count == 1
    s.choose(0, "envy")
    assert s.humility(0) == 0
    assert s.ids(0, "discard") == ["envy"]
    assert s.ids(0, "hand") == ["still-waters"]
    assert s.decision() != "overflow"


def test_S4_overflow_cannot_be_passed() -> None:
    """S-4: the discard is forced: Pass is not among the legal actions of an overflow choice."""
    s = Scenario(lineup="RR", phase="resistance")
    s.seat(0, humility=0).hand(0, "envy").threat("idleness", target=0)
    s.start()
    s.pass_while(0, "resistance")   # not resisted
    s.expect_decision(0, "overflow")
    assert all(type(a).__name__ == "Choose" for a in s.legal(0))


def test_S4_decision_nothing_more_when_hand_and_cost_zone_are_empty() -> None:
    """S-4 DECISION: a seat with neither hand nor Cost Zone cards discards nothing more."""
    s = Scenario(lineup="RR", phase="resistance")
    s.seat(0, humility=0).deck(0, "envy").threat(H_MINUS_1, target=0)
    s.start()
    s.pass_while(0, "resistance")   # not resisted
    assert s.st.choice is None
    assert s.humility(0) == 0
    assert s.ids(0, "discard") == []
    assert s.ids(0, "deck") == ["envy"]      # the deck is not touched


def test_S4_overflow_limited_to_cards_available() -> None:
    """S-4 DECISION: 2 points of overflow with only 1 card: that card goes, nothing more."""
    s = Scenario(lineup="RR", phase="resistance")
    s.seat(0, humility=0).hand(0, "envy").threat(H_MINUS_1, target=0)
    s.start()
    s.pass_while(0, "resistance")   # not resisted
    s.expect_decision(0, "overflow")
    s.choose(0, "envy")
    assert s.st.choice is None
    assert s.ids(0, "discard") == ["envy"]


# --- S-5 ----------------------------------------------------------------------------------------

def test_S5_each_resolved_maturity_card_raises_maturity_by_1() -> None:
    """S-5: Watch and Pray resolves: Maturity +1 (and its text: draw 1)."""
    s = Scenario(lineup="RR", phase="main", mat_abilities=False)
    s.seat(0, maturity=1).hand(0, "watch-and-pray", FILLER).untapped(0, cost("watch-and-pray")).deck(0, "envy")
    s.start()
    s.play(0, "watch-and-pray")
    assert s.maturity(0) == 2
    assert s.maturity(1) == 0
    assert [e.data["maturity"] for e in s.of_kind("maturity")] == [2]
    assert "envy" in s.ids(0, "hand")


def test_S5_maturity_rises_only_on_resolution() -> None:
    """S-5: while the Maturity card waits on the stack (a response window), Maturity is unchanged."""
    s = Scenario(lineup="RR", phase="main", mat_abilities=False)
    s.hand(0, "watch-and-pray", FILLER).untapped(0, cost("watch-and-pray")).hand(1, "what-of-the-night").deck(1, FILLER)
    s.start()
    s.play(0, "watch-and-pray")
    s.expect_decision(1, "respond")      # seat 1 could answer with an Instant
    assert s.maturity(0) == 0
    s.pass_(1)
    assert s.maturity(0) == 1


# --- S-6 ----------------------------------------------------------------------------------------

def test_S6_coop_has_no_one_level_per_turn_limit() -> None:
    """S-6 is duel only: in co-op two Maturity cards in one turn raise two levels."""
    s = Scenario(lineup="RR", phase="main", mat_abilities=False)
    s.hand(0, "watchmen-on-thy-walls", "watchmen-on-thy-walls", FILLER).untapped(0, 2 * cost("watchmen-on-thy-walls"))
    s.start()
    s.play(0, "watchmen-on-thy-walls")
    s.pass_while(0, "boost")
    s.play(0, "watchmen-on-thy-walls")
    s.pass_while(0, "boost")
    assert s.maturity(0) == 2


def test_S6_duel_maturity_rises_at_most_one_level_per_turn() -> None:
    """S-6: in a duel the second Maturity card of the turn does not raise Maturity again."""
    s = Scenario(mode="duel", lineup="ER", phase="main", turn_seat=1, mat_abilities=False)
    s.hand(1, "watchmen-on-thy-walls", "watchmen-on-thy-walls", FILLER).untapped(1, 2 * cost("watchmen-on-thy-walls"))
    s.start()
    s.play(1, "watchmen-on-thy-walls")
    s.pass_while(1, "boost")
    s.pass_while(0, "respond")
    assert s.maturity(1) == 1
    s.play(1, "watchmen-on-thy-walls")
    s.pass_while(1, "boost")
    s.pass_while(0, "respond")
    assert s.maturity(1) == 1


# --- S-7 ----------------------------------------------------------------------------------------

def test_S7_reaching_10_rolls_over_into_a_level() -> None:
    """S-7: Humility reaching 10 gains a level and drops by 10 (humility_rollover on by default)."""
    s = Scenario(lineup="RR", phase="main", mat_abilities=False)
    s.seat(0, humility=9, maturity=1).hand(0, "rejoice-with-them", FILLER).untapped(0, cost("rejoice-with-them"))
    s.start()
    assert s.settings.humility_rollover is True
    s.play(0, "rejoice-with-them")
    s.pass_while(0, "boost")
    assert s.humility(0) == 0
    assert s.maturity(0) == 2
    assert any(e.data.get("rollover") for e in s.of_kind("humility"))


def test_S7_humility_capped_at_10_excess_is_lost() -> None:
    """S-7: the cap is 10: Humility 9 + 2 is 10, not 11 (roll-over off: it stays there)."""
    s = Scenario(lineup="RR", phase="main", mat_abilities=False, humility_rollover=False)
    s.seat(0, humility=9).hand(0, "restoreth-my-soul", FILLER).untapped(0, cost("restoreth-my-soul")).deck(0, FILLER)
    s.start()
    s.play(0, "restoreth-my-soul")   # Maturity +1 and H+2: 9 + 2 is capped at 10
    assert s.humility(0) == 10
    assert s.maturity(0) == 1        # the card's own level, no roll-over level


def test_S7_rollover_from_the_cap_drops_to_0_not_to_the_excess() -> None:
    """S-7: 9 + 2 with roll-over on: capped at 10, rolls over to 0 (the excess point is lost)."""
    s = Scenario(lineup="RR", phase="main", mat_abilities=False)
    s.seat(0, humility=9).hand(0, "restoreth-my-soul", FILLER).untapped(0, cost("restoreth-my-soul")).deck(0, FILLER)
    s.start()
    s.play(0, "restoreth-my-soul")
    assert s.humility(0) == 0
    assert s.maturity(0) == 2        # the card's level, then the roll-over level


def test_S7_rollover_off_waits_at_10() -> None:
    """S-7: with humility_rollover off, reaching 10 gains no level and Humility stays at 10."""
    s = Scenario(lineup="RR", phase="main", mat_abilities=False, humility_rollover=False)
    s.seat(0, humility=9, maturity=1).hand(0, "rejoice-with-them", FILLER).untapped(0, cost("rejoice-with-them"))
    s.start()
    s.play(0, "rejoice-with-them")
    s.pass_while(0, "boost")
    assert s.humility(0) == 10
    assert s.maturity(0) == 1


def test_S7_rollover_at_L3_keeps_humility_at_10() -> None:
    """S-7: at L3 there is no next level: Humility stays at 10 (capped)."""
    s = Scenario(lineup="RR", phase="main", mat_abilities=False)
    s.seat(0, humility=9, maturity=3).seat(1, maturity=3).hand(0, "rejoice-with-them", FILLER).untapped(0, cost("rejoice-with-them"))
    s.start()
    s.play(0, "rejoice-with-them")
    s.pass_while(0, "boost")
    assert s.humility(0) == 10
    assert s.maturity(0) == 3


def test_S7_duel_blocked_level_up_waits_at_10_until_next_turn() -> None:
    """S-7 with S-6: a seat that already levelled this turn waits at 10; the level comes at the
    start of its next turn."""
    s = Scenario(mode="duel", lineup="ER", phase="main", turn_seat=1, mat_abilities=False)
    s.seat(1, humility=9).hand(1, "watchmen-on-thy-walls", "rejoice-with-them", FILLER).untapped(1, cost("watchmen-on-thy-walls", "rejoice-with-them"))
    s.deck(1, *[FILLER] * 8).deck(0, "still-waters", "still-waters", "still-waters")
    s.start()
    s.play(1, "watchmen-on-thy-walls")
    s.pass_while(1, "respond")       # (not in response: the Instant would resolve first)
    s.pass_while(1, "boost")
    assert s.maturity(1) == 1
    s.play(1, "rejoice-with-them")
    s.pass_while(1, "boost")
    s.pass_while(1, "respond")
    assert (s.humility(1), s.maturity(1)) == (10, 1)
    s.pass_turn(1)
    s.pass_turn(0)                   # seat 1's next turn starts: the level that waited
    assert (s.humility(1), s.maturity(1)) == (0, 2)


# --- S-8 ----------------------------------------------------------------------------------------

def test_S8_adjust_badge_is_never_a_legal_action_but_applies_and_is_logged_manual() -> None:
    """S-8: manual adjustment is not in legal_actions, yet apply() takes it, for the seat's own
    badges, even when another seat is deciding; it is logged as "manual"."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, FILLER).untapped(0, cost("still-waters")).hand(0, "still-waters").start()
    s.expect_decision(0, "main")
    for seat in (0, 1):
        assert not any(isinstance(a, AdjustBadge) for a in s.legal(seat))
    assert AdjustBadge(1, "humility", 7) in s.g.manual_actions(1)
    events = s.adjust(1, "humility", 7)          # seat 1 is not the decider
    assert s.humility(1) == 7
    manual = [e for e in events if e.kind == "manual"]
    assert manual and manual[0].data == {"badge": "humility", "from": 3, "to": 7}
    assert manual[0].seat == 1
    assert any(e.kind == "manual" for e in s.g.log)
    assert s.g.actions[-1] == AdjustBadge(1, "humility", 7)
    s.expect_decision(0, "main")                 # the flow is where it was


def test_S8_adjust_maturity_level_reward_only_once() -> None:
    """S-8: adjusting Maturity up gives the shared level's reward (A-2), but only once: down and
    up again gives nothing more."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, ANCHOR).start()
    s.adjust(0, "maturity", 1)
    assert s.st.ability_picks == 0                # seat 1 still at L0: no shared level
    s.adjust(1, "maturity", 1)
    s.expect_decision(0, "ability")               # shared L1: the team's free pick
    s.pick_ability(0, "speed")
    s.adjust(1, "maturity", 0)
    s.adjust(1, "maturity", 1)
    assert s.st.ability_picks == 0
    assert s.decision() != "ability"
    assert s.st.abilities == ["speed"]


def test_S8_manual_humility_10_does_not_turn_into_a_level_a_turn_later() -> None:
    """S-8 with S-7: in co-op nothing ever blocks a level-up (S-6 is duel only), so nothing may
    "wait at 10": a Humility set by hand to 10 either rolls over at once or stays a plain 10. It
    must not silently become a level at the seat's next turn start."""
    s = Scenario(lineup="RR", phase="main", mat_abilities=False)
    s.hand(0, ANCHOR).start()
    s.adjust(0, "humility", 10)
    after_adjust = (s.humility(0), s.maturity(0))
    s.pass_turn(0)
    s.pass_turn(1)                          # seat 0's next turn has started
    assert s.g.turn_seat == 0
    assert (s.humility(0), s.maturity(0)) == after_adjust


def test_S7_rollover_into_L3_opens_the_clearing_round() -> None:
    """S-7 with CO-W-2: a level gained by roll-over is a level like any other."""
    s = Scenario(lineup="RR", phase="main", mat_abilities=False)
    s.seat(0, humility=9, maturity=2).seat(1, maturity=3).hand(0, "rejoice-with-them", ANCHOR)
    s.untapped(0, cost("rejoice-with-them"))
    s.start()
    s.play(0, "rejoice-with-them")
    s.settle()
    assert (s.humility(0), s.maturity(0)) == (0, 3)
    assert s.st.clearing is not None


def test_S4_overflow_at_turn_start_from_an_upkeep_loss() -> None:
    """S-4: Unforgiveness (H-1 at the start of the turn) at Humility 0: one discard, hand or Cost
    Zone, chosen before the turn goes on."""
    s = Scenario(lineup="RR", phase="draw", mat_abilities=False)
    s.seat(0, humility=0).held(0, "unforgiveness").hand(0, "envy").cost_zone(0, "gossip")
    s.deck(0, FILLER, FILLER)
    s.start()
    s.expect_decision(0, "overflow")
    assert s.ids(0, "hand") == ["envy"]              # the draw waits for the choice
    s.choose(0, "gossip", zone="cost_zone")
    assert s.ids(0, "discard") == ["gossip"]
    assert s.ids(0, "hand") == ["envy", FILLER, FILLER]
    s.expect_decision(0, "lay")


def test_S8_adjust_refuses_bad_badges_and_values() -> None:
    """S-8: only humility 0..10 and maturity 0..3, only a Righteous seat; the state is unchanged."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, FILLER).start()
    before = s.g.state_id
    for bad, code in ((AdjustBadge(0, "humility", 11), "out_of_range"), (AdjustBadge(0, "power", 2), "unknown_badge"),
                      (AdjustBadge(5, "humility", 2), "no_such_seat")):
        with pytest.raises(IllegalAction) as err:
            s.g.apply(bad)
        assert err.value.code == code
    assert s.g.state_id == before
    assert s.humility(0) == 3
