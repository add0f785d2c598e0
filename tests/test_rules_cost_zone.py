"""Scenario tests for docs/rules.md section Z: the Cost Zone."""

from __future__ import annotations

import pytest

from christianity_game import Game, IllegalAction, LayCostZone, PlayCard
from scenario import ANCHOR, FILLER, Scenario, cost, res


# --- Z-1 ----------------------------------------------------------------------------------------

def test_Z1_each_rotated_card_gives_exactly_1_cost() -> None:
    """Z-1: a C<n> card rotates exactly n untapped Cost Zone cards; one more stays untapped."""
    n = cost("loaves-and-fishes")
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, "loaves-and-fishes", ANCHOR).untapped(0, n + 1).deck(0, FILLER, FILLER)
    s.start()
    s.play(0, "loaves-and-fishes")
    assert s.tapped(0) == n
    assert s.untapped_count(0) == 1


def test_Z1_cost_needs_that_many_untapped_cards() -> None:
    """Z-1: with n-1 untapped (and 2 tapped) cards a C<n> card is not playable; tapped cards give nothing."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, "my-cup-runneth-over", ANCHOR).untapped(0, cost("my-cup-runneth-over") - 1, tapped=2)
    s.start()
    action = s.play_action(0, "my-cup-runneth-over")
    assert action not in s.legal(0)
    with pytest.raises(IllegalAction) as err:
        s.g.apply(action)
    assert err.value.code == "cannot_afford"


def test_Z1_resistance_is_paid_by_rotating() -> None:
    """Z-1: resisting an R<n> threat rotates n Cost Zone cards, paid in parts if the seat likes."""
    n = res("envy")
    s = Scenario(lineup="RR", phase="resistance")
    s.hand(0, ANCHOR).untapped(0, n + 1).threat("envy", target=0)
    s.start()
    s.resist(0, "envy", 1)
    assert s.tapped(0) == 1
    assert s.threats() == ["envy"]
    s.resist(0, "envy", n - 1)
    assert s.tapped(0) == n
    assert s.pile("resisted") == ["envy"]


def test_Z1_cost_zone_cards_lie_face_down() -> None:
    """Z-1: other seats and spectators see a face-down Cost Zone card as hidden; its owner sees it."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, ANCHOR).cost_zone(0, "pride").cost_zone(0, "envy", face_up=True)
    s.start()
    for viewer in (1, None):
        cz = s.g.view(viewer)["seats"][0]["cost_zone"]
        assert "id" not in cz[0] and cz[0]["face_up"] is False
        assert cz[1]["id"] == "envy" and cz[1]["face_up"] is True
    assert s.g.view(0)["seats"][0]["cost_zone"][0]["id"] == "pride"


# --- Z-2 ----------------------------------------------------------------------------------------

def test_Z2_cost_zone_untaps_at_the_start_of_own_turn_only() -> None:
    """Z-2 DECISION: a seat untaps its whole Cost Zone at the start of its own turn, not others'."""
    s = Scenario(lineup="RR", phase="main", mat_abilities=False)
    s.hand(0, ANCHOR).untapped(0, 0, tapped=3).untapped(1, 0, tapped=2)
    s.start()
    s.end_turn(0)
    # seat 1's turn has started: its Cost Zone is untapped, seat 0's is still tapped
    assert s.g.turn_seat == 1
    assert s.tapped(1) == 0
    assert s.tapped(0) == 3
    s.expect_decision(1, "lay")
    s.pass_(1)
    s.pass_while(1, "after_lay")
    s.pass_while(1, "main")
    assert s.g.turn_seat == 0 and s.g.round == 2
    assert s.tapped(0) == 0


# --- Z-3 ----------------------------------------------------------------------------------------

def test_Z3_intake_cap_is_4_per_turn_face_down() -> None:
    """Z-3: in the Cost Zone phase a Righteous seat lays up to 4 hand cards, face down."""
    s = Scenario(lineup="RR", phase="cost_zone")
    s.hand(0, "pride", "envy", "idleness", "gossip", "sloth", "worry")
    s.start()
    s.expect_decision(0, "lay")
    s.lay(0, "pride", "envy", "idleness", "gossip")
    assert len(s.zone(0, "cost_zone")) == 4
    assert not any(isinstance(a, LayCostZone) for a in s.legal(0))
    with pytest.raises(IllegalAction) as err:
        s.g.apply(LayCostZone(0, s.find(0, "sloth")))
    assert err.value.code == "intake_full"
    assert not (set(s.zone(0, "cost_zone")) & s.st.face_up)
    assert s.ids(0, "hand") == ["sloth", "worry"]


def test_Z3_laying_fewer_than_the_cap_is_allowed() -> None:
    """Z-3: "up to": the seat may stop laying at any time by passing."""
    s = Scenario(lineup="RR", phase="cost_zone")
    s.hand(0, "pride", "envy")
    s.start()
    s.lay(0, "pride")
    s.pass_(0)
    assert s.ids(0, "cost_zone") == ["pride"]
    assert s.ids(0, "hand") == ["envy"]
    assert not (s.g.turn_seat == 0 and s.decision() == "lay")   # the laying is over


def test_Z3_intake_count_resets_each_turn() -> None:
    """Z-3: the cap is per turn: 4 laid this turn, 4 again on the seat's next turn."""
    s = Scenario(lineup="RR", phase="cost_zone", mat_abilities=False)
    s.hand(0, *["pride"] * 8)
    s.start()
    s.lay(0, *["pride"] * 4)
    s.pass_(0)
    s.pass_while(0, "main")
    s.pass_while(1, "lay")
    s.pass_while(1, "main")
    s.expect_decision(0, "lay")
    s.lay(0, *["pride"] * 4)
    assert len(s.zone(0, "cost_zone")) == 8


def test_Z3_duel_evil_intake_is_4_plus_2_per_extra_opponent() -> None:
    """Z-3: Evil intake cap 4 + 2 x extra opponents (000): ERR gives the Evil seat 6."""
    s = Scenario(mode="duel", lineup="ERR", phase="cost_zone", turn_seat=0)
    s.hand(0, *["pride"] * 8)
    s.start()
    s.lay(0, *["pride"] * 6)
    assert not any(isinstance(a, LayCostZone) for a in s.legal(0))


# --- Z-4 ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode,lineup", [("coop", "RR"), ("coop", "RRR"), ("solo", "R")])
def test_Z4_opening_cost_zone_is_3_from_the_top_of_the_deck(mode: str, lineup: str) -> None:
    """Z-4: once at game start each seat's Cost Zone gets 3 cards from its deck (co-op: 3)."""
    game = Game.new(mode=mode, lineup=lineup, seed=11)
    for sd in game.state.seats:
        assert len(sd.cost_zone) == 3
        assert len(sd.deck) + len(sd.hand) + len(sd.cost_zone) == 40
        assert not (set(sd.cost_zone) & game.state.face_up)


def test_Z4_opening_cost_zone_taken_before_the_hand_and_only_once() -> None:
    """Z-4: the opening Cost Zone is the top 3 of the shuffled deck, then the hand is drawn; later
    turns add nothing to the Cost Zone by themselves."""
    game = Game.new(mode="coop", lineup="RR", seed=5)
    for seat in game.state.seats[1:]:          # seat 1 has not had a turn yet
        assert len(seat.cost_zone) == 3
        assert len(seat.hand) == game.settings.opening_hand
        assert not (set(seat.cost_zone) & game.state.tapped)


def test_Z4_duel_opening_cost_zone_is_3_plus_extra_opponents() -> None:
    """Z-4: duel ERR: the lone Evil seat is outnumbered by 1 and opens with 4; Righteous with 3."""
    game = Game.new(mode="duel", lineup="ERR", seed=5)
    sizes = [len(sd.cost_zone) for sd in game.state.seats]
    assert sizes[1:] == [3, 3]
    assert sizes[0] == 4


# --- Z-5 ----------------------------------------------------------------------------------------

def test_Z5_nothing_is_played_while_a_cost_zone_is_being_laid() -> None:
    """Z-5: during laying only LayCostZone and Pass are legal; a play is refused."""
    s = Scenario(lineup="RR", phase="cost_zone")
    s.hand(0, "still-waters", "what-of-the-night", "watch-and-pray").untapped(0, 4)
    s.hand(1, "what-of-the-night").untapped(1, 2)
    s.start()
    s.expect_decision(0, "lay")
    assert {type(a).__name__ for a in s.legal(0)} == {"Pass", "LayCostZone"}
    assert s.legal(1) == []
    before = (s.g.state_id, s.ids(0, "hand"), s.tapped(0))
    for card in ("still-waters", "what-of-the-night"):
        with pytest.raises(IllegalAction) as err:
            s.g.apply(PlayCard(0, s.find(0, card)))
        assert err.value.code == "cost_zone_being_laid"
    assert (s.g.state_id, s.ids(0, "hand"), s.tapped(0)) == before      # refused: nothing changed
    with pytest.raises(IllegalAction):
        s.g.apply(PlayCard(1, s.find(1, "what-of-the-night")))
    s.lay(0, "watch-and-pray")
    s.pass_(0)
    assert s.decision() != "lay"


def test_Z5_plays_may_happen_after_laying() -> None:
    """Z-5: before or after, never during: after the Cost Zone phase, in Main, the seat plays."""
    s = Scenario(lineup="RR", phase="cost_zone", mat_abilities=False)
    s.hand(0, "still-waters", FILLER).untapped(0, cost("still-waters")).deck(0, FILLER)
    s.start()
    s.lay(0, FILLER)
    s.pass_(0)
    s.expect_decision(0, "main")
    s.play(0, "still-waters")
    assert "still-waters" in s.ids(0, "discard")


# --- Z-6 ----------------------------------------------------------------------------------------

def test_Z6_face_up_cost_zone_card_can_be_played_from_the_cost_zone() -> None:
    """Z-6: a face-up Cost Zone card is playable from the Cost Zone; it leaves the Cost Zone."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, ANCHOR).cost_zone(0, "still-waters", face_up=True).untapped(0, cost("still-waters")).deck(0, FILLER)
    s.start()
    uid = s.find(0, "still-waters", "cost_zone")
    assert PlayCard(0, uid) in s.legal(0)
    s.play(0, "still-waters")
    assert "still-waters" not in s.ids(0, "cost_zone")
    assert "still-waters" in s.ids(0, "discard")
    assert s.humility(0) == 4


def test_Z6_face_up_card_pays_for_itself_by_rotating() -> None:
    """Z-6: a face-up card can still be rotated for Cost: it is the only untapped card and pays
    own Cost as it is played (with the rest of its Cost from other cards)."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, ANCHOR).cost_zone(0, "still-waters", face_up=True).untapped(0, cost("still-waters") - 1, tapped=2)
    s.deck(0, FILLER)
    s.start()
    s.play(0, "still-waters")
    assert s.humility(0) == 4


def test_Z6_face_up_card_can_be_rotated_to_pay_for_another_card() -> None:
    """Z-6: a face-up Cost Zone card gives Cost like any other (and stays in the Cost Zone)."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, "still-waters", ANCHOR).cost_zone(0, "rejoice-with-them", face_up=True)
    s.untapped(0, cost("still-waters") - 1).deck(0, FILLER)
    s.start()
    s.play(0, "still-waters")
    uid = s.find(0, "rejoice-with-them", "cost_zone")
    assert uid in s.st.tapped
    assert uid in s.st.face_up


def test_Z6_tapped_face_up_card_is_still_playable_if_paid_otherwise() -> None:
    """Z-6: a tapped face-up card can be played when other cards pay its cost."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, ANCHOR).cost_zone(0, "still-waters", face_up=True, tapped=True).untapped(0, cost("still-waters"))
    s.deck(0, FILLER)
    s.start()
    s.play(0, "still-waters")
    assert s.humility(0) == 4
    assert s.tapped(0) == cost("still-waters")
