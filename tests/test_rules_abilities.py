"""Scenario tests for docs/rules.md section A: the Maturity Abilities ("Mature Together")."""

from __future__ import annotations

import pytest

from christianity_game import BuyAbility, ChooseAbility, Game, IllegalAction, PlayCard, Resist, UseAbility
from christianity_game.engine import abilities
from scenario import ANCHOR, FILLER, Scenario, cost, res


MAT = "watchmen-on-thy-walls"
THREAT = "envy"   # a threat with a fixed resistance of at least 2


ALL = {"benevolence", "brotherly_love", "restoration", "deliverance", "vibrancy", "cost_zone_power", "speed",
       "foresight"}
HIGH = {"deliverance", "restoration", "benevolence", "foresight"}
LOW = ALL - HIGH


def test_A1_there_are_eight_abilities() -> None:
    """A-1: the eight abilities are what the team may choose from at a shared level (co-op)."""
    s = Scenario(lineup="RR", phase="main")
    s.seat(1, maturity=1).hand(0, MAT, ANCHOR).untapped(0, cost(MAT))
    s.start()
    s.play(0, MAT)
    s.expect_decision(0, "ability")
    assert {a.ability for a in s.legal(0) if isinstance(a, ChooseAbility)} == ALL


# --- A-1 Benevolence / Double Resistance ---------------------------------------------------------

def test_A1_benevolence_teammate_helps_resist_a_threat_aimed_at_another_seat() -> None:
    """A-1 Benevolence: seat 1 rotates its own Cost Zone to help resist a threat aimed at seat 0."""
    n = res(THREAT)
    s = Scenario(lineup="RR", phase="resistance").abilities("benevolence")
    s.seat(0, humility=5).hand(0, ANCHOR).untapped(0, 1).untapped(1, n).threat(THREAT, target=0)
    s.start()
    s.expect_decision(0, "resistance")
    s.resist(0, THREAT, 1)
    s.expect_decision(1, "resistance")
    assert Resist(1, s.threat_uid(THREAT), n - 1) in s.legal(1)
    assert Resist(1, s.threat_uid(THREAT), n) not in s.legal(1)       # only what is still owed
    s.resist(1, THREAT, n - 1)
    assert s.pile("resisted") == [THREAT]
    assert (s.tapped(0), s.tapped(1)) == (1, n - 1)
    assert s.humility(0) == 5


def test_A1_without_benevolence_only_the_target_resists() -> None:
    """A-1 Benevolence: without it, a teammate gets no say and the threat fails."""
    s = Scenario(lineup="RR", phase="resistance")
    s.seat(0, humility=5).untapped(0, 1).untapped(1, res(THREAT)).threat(THREAT, target=0)
    s.start()
    s.resist(0, THREAT, 1)
    assert s.pile("failed") == [THREAT]
    assert s.tapped(1) == 0
    assert s.humility(0) == 4
    assert not [e for e in s.events if e.seat == 1 and e.kind == "resist_paid"]


@pytest.mark.parametrize("maturity,may_help", [(1, False), (2, True), (3, True)])
def test_A1_duel_benevolence_only_at_maturity_L2_or_higher(maturity: int, may_help: bool) -> None:
    """A-1: in a duel Double Resistance needs Maturity L2 or higher (seat 2 helping seat 1)."""
    s = Scenario(mode="duel", lineup="ERR", phase="main", turn_seat=1).abilities("benevolence")
    s.seat(2, maturity=maturity).hand(1, ANCHOR)
    s.start()
    assert abilities.may_help(s.g, 2, 1) is may_help


# --- A-1 Brotherly Love -------------------------------------------------------------------------

def test_A1_brotherly_love_redirects_the_next_cards_benefit_to_a_teammate() -> None:
    """A-1 Brotherly Love: Still Waters (H+1, draw 1) after Brotherly Love on seat 1 benefits seat 1;
    the card after that benefits its player again."""
    s = Scenario(lineup="RR", phase="main").abilities("brotherly_love")
    s.hand(0, "still-waters", "rejoice-with-them", ANCHOR).untapped(0, cost("still-waters", "rejoice-with-them")).deck(0, "envy").deck(1, "pride")
    s.start()
    s.use(0, "brotherly_love", to_seat=1)
    s.play(0, "still-waters")
    s.settle()
    assert (s.humility(0), s.humility(1)) == (3, 4)
    assert "pride" in s.ids(1, "hand") and "envy" not in s.ids(0, "hand")
    s.play(0, "rejoice-with-them")
    s.settle()
    assert (s.humility(0), s.humility(1)) == (4, 4)


def test_A1_brotherly_love_in_one_seat_game_is_yourself() -> None:
    """A-1 Brotherly Love: in a one-seat game it points at yourself."""
    s = Scenario(mode="solo", lineup="R", phase="main").abilities("brotherly_love")
    s.hand(0, ANCHOR).start()
    assert UseAbility(0, "brotherly_love", 0) in s.legal(0)


# --- A-1 Restoration ----------------------------------------------------------------------------

def test_A1_restoration_every_seat_shuffles_up_to_15_discards_into_its_deck() -> None:
    """A-1 Restoration: seat 0 (20 discards) gets 15 back, seat 1 (3) gets all 3; once per level."""
    s = Scenario(lineup="RR", phase="main").abilities("restoration")
    s.hand(0, ANCHOR).discard(0, *["pride"] * 20).discard(1, "envy", "envy", "envy").deck(1, "sloth")
    s.start()
    s.use(0, "restoration")
    assert (len(s.zone(0, "deck")), len(s.zone(0, "discard"))) == (15, 5)
    assert (len(s.zone(1, "deck")), len(s.zone(1, "discard"))) == (4, 0)
    assert UseAbility(0, "restoration") not in s.legal(0)       # spent until the next level
    assert {e.data["cards"] for e in s.of_kind("restored")} == {15, 3}


# --- A-1 Deliverance ----------------------------------------------------------------------------

def test_A1_deliverance_breaks_up_to_3_evil_habituals_to_the_resisted_pile() -> None:
    """A-1 Deliverance: four Habituals in play; three broken (seat's choice), one stays."""
    s = Scenario(lineup="RR", phase="main").abilities("deliverance")
    s.hand(0, ANCHOR).held(0, "sloth", "unforgiveness").held(1, "covetousness", "love-of-the-world")
    s.start()
    s.use(0, "deliverance")
    s.expect_decision(0, "deliverance")
    s.choose(0, "sloth")
    s.choose(0, "covetousness")
    s.choose(0, "love-of-the-world")
    assert s.st.choice is None
    assert sorted(s.pile("resisted")) == ["covetousness", "love-of-the-world", "sloth"]
    assert s.ids(0, "held") == ["unforgiveness"] and s.ids(1, "held") == []
    assert UseAbility(0, "deliverance") not in s.legal(0)


def test_A1_deliverance_may_stop_early() -> None:
    """A-1 Deliverance: "up to 3": the seat may stop after one."""
    s = Scenario(lineup="RR", phase="main").abilities("deliverance")
    s.hand(0, ANCHOR).held(0, "sloth", "unforgiveness")
    s.start()
    s.use(0, "deliverance")
    s.choose(0, "unforgiveness")
    s.pass_(0)
    assert s.ids(0, "held") == ["sloth"]
    assert s.pile("resisted") == ["unforgiveness"]


# --- A-1 Vibrancy -------------------------------------------------------------------------------

def test_A1_vibrancy_flips_2_cost_zone_cards_after_the_cost_zone_phase() -> None:
    """A-1 Vibrancy: when the seat ends laying, 2 of its face-down Cost Zone cards turn face up."""
    s = Scenario(lineup="RR", phase="cost_zone").abilities("vibrancy")
    s.hand(0, "pride", "envy").untapped(0, 3)
    s.start()
    s.lay(0, "pride")
    assert not s.st.face_up
    s.pass_(0)
    up = [u for u in s.zone(0, "cost_zone") if u in s.st.face_up]
    assert len(up) == 2
    assert len(s.of_kind("flipped")) == 2


def test_A1_without_vibrancy_nothing_is_flipped() -> None:
    """A-1 Vibrancy: without the ability the Cost Zone stays face down."""
    s = Scenario(lineup="RR", phase="cost_zone")
    s.hand(0, "pride").untapped(0, 3)
    s.start()
    s.pass_(0)
    assert not s.st.face_up


# --- A-1 Cost Zone Power ------------------------------------------------------------------------

def _cost_zone_power(gain_cards: tuple[str, ...], humility: int) -> Scenario:
    s = Scenario(lineup="RR", phase="main").abilities("cost_zone_power")
    s.seat(0, humility=humility).hand(0, *gain_cards, ANCHOR).untapped(0, cost(*gain_cards)).deck(0, "pride", "envy")
    s.start()
    for c in gain_cards:
        s.play(0, c)
        s.settle()
    return s


def test_A1_cost_zone_power_after_gaining_3_humility_top_card_into_cost_zone() -> None:
    """A-1 Cost Zone Power: Humble Yourselves (H+2 at 2 or less) + Rejoice (H+1) = 3 gained: at end
    of turn the top card of the deck goes straight into the Cost Zone."""
    s = _cost_zone_power(("humble-yourselves", "rejoice-with-them"), humility=2)
    assert s.humility(0) == 5
    before = len(s.zone(0, "cost_zone"))
    s.end_turn(0)
    assert len(s.zone(0, "cost_zone")) == before + 1
    assert s.ids(0, "cost_zone")[-1] == "pride"
    assert s.ids(0, "deck") == ["envy"]
    assert s.of_kind("cost_zone_power")


def test_A1_cost_zone_power_needs_3_gained() -> None:
    """A-1 Cost Zone Power: 2 gained this turn: nothing at end of turn."""
    s = _cost_zone_power(("humble-yourselves",), humility=2)
    before = len(s.zone(0, "cost_zone"))
    s.end_turn(0)
    assert len(s.zone(0, "cost_zone")) == before
    assert not s.of_kind("cost_zone_power")


# --- A-1 Speed ----------------------------------------------------------------------------------

def test_A1_speed_plays_a_maturity_card_outside_main_once_per_turn() -> None:
    """A-1 Speed: right after the Cost Zone phase (not Main) a Maturity card is playable, once."""
    s = Scenario(lineup="RR", phase="cost_zone", mat_abilities=True).abilities("speed")
    s.hand(0, MAT, "watch-and-pray").untapped(0, cost(MAT) + 9).deck(0, FILLER)
    s.start()
    s.pass_(0)
    s.expect_decision(0, "after_lay")
    s.play(0, MAT)
    s.settle()
    assert s.maturity(0) == 1
    s.expect_decision(0, "after_lay")       # still right after the Cost Zone phase (9 Cost left to buy)
    assert not any(isinstance(a, PlayCard) for a in s.legal(0))   # once per turn


def test_A1_speed_plays_a_habitual_in_the_resistance_phase() -> None:
    """A-1 Speed: a Righteous Habitual in the Resistance phase."""
    s = Scenario(lineup="RR", phase="resistance").abilities("speed")
    s.hand(0, "new-every-morning").untapped(0, cost("new-every-morning")).threat("idleness", target=0)
    s.start()
    s.play(0, "new-every-morning")
    assert s.ids(0, "in_play") == ["new-every-morning"]


def test_A1_without_speed_maturity_cards_wait_for_main() -> None:
    """A-1 Speed: without it, no Maturity card outside Main."""
    s = Scenario(lineup="RR", phase="resistance")
    s.hand(0, "watch-and-pray").untapped(0, cost("watch-and-pray")).threat("idleness", target=0)
    s.start()
    s.expect_decision(0, "resistance")
    assert not any(isinstance(a, PlayCard) for a in s.legal(0))


# --- A-1 Foresight ------------------------------------------------------------------------------

def test_A1_foresight_reveals_the_evil_decks_next_draws_at_the_start_of_the_cost_zone_phase() -> None:
    """A-1 Foresight (DECISION: as many as it will play this turn): seat 0 at L1 -> 2 cards."""
    s = Scenario(lineup="RR", phase="draw").abilities("foresight")
    s.seat(0, maturity=1).evil_deck("pride", "sloth", "envy")
    s.start()
    s.expect_decision(0, "lay")
    assert [c["id"] for c in s.g.view(0)["foresight"]] == ["pride", "sloth"]
    assert [c["id"] for c in s.g.view(1)["foresight"]] == ["pride", "sloth"]
    assert s.of_kind("revealed")[0].data["foresight"] == ["pride", "sloth"]
    s.pass_(0)
    assert [e.card for e in s.of_kind("threat_played")] == ["pride", "sloth"]   # the very cards it showed


def test_A1_without_foresight_nothing_is_revealed() -> None:
    """A-1 Foresight: without it the Evil deck's next cards stay hidden."""
    s = Scenario(lineup="RR", phase="draw")
    s.evil_deck("pride", "sloth")
    s.start()
    assert s.g.view(0)["foresight"] == []


# --- A-2 ----------------------------------------------------------------------------------------

def test_A2_team_chooses_a_free_ability_when_all_seats_reach_the_next_level() -> None:
    """A-2: seat 0 reaching L1 alone gives nothing; seat 1 reaching L1 too gives one free pick."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, MAT, ANCHOR).untapped(0, cost(MAT))
    s.start()
    s.play(0, MAT)
    assert s.decision() != "ability"
    s.adjust(1, "maturity", 1)
    s.expect_decision(0, "ability")
    s.pick_ability(0, "deliverance")
    assert s.st.abilities == ["deliverance"]
    assert s.of_kind("ability_gained")[0].data == {"ability": "deliverance", "how": "chosen"}
    assert "shared_level" in s.kinds()


def test_A2_one_pick_per_shared_level_L1_L2_L3() -> None:
    """A-2: each shared level L1, L2, L3 gives one pick."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, ANCHOR).start()
    for level, pick in ((1, "speed"), (2, "vibrancy"), (3, "foresight")):
        s.adjust(0, "maturity", level)
        s.adjust(1, "maturity", level)
        s.expect_decision(0, "ability")
        s.pick_ability(0, pick)
        assert s.decision() != "ability"
    assert s.st.abilities == ["speed", "vibrancy", "foresight"]


@pytest.mark.parametrize("cost_zone,buyable", [(6, set()), (7, LOW), (10, LOW), (11, ALL)])
def test_A2_buy_right_after_own_cost_zone_phase_7_low_11_high(cost_zone: int, buyable: set[str]) -> None:
    """A-2: after its own Cost Zone phase a seat may buy an ability: 7 (low tier) or 11 (high tier:
    Deliverance, Restoration, Benevolence, Foresight)."""
    s = Scenario(lineup="RR", phase="cost_zone")
    s.hand(0, FILLER).untapped(0, cost_zone)
    s.start()
    assert not any(isinstance(a, BuyAbility) for a in s.legal(0))      # not while laying
    s.pass_(0)
    if buyable:
        s.expect_decision(0, "after_lay")
    assert {a.ability for a in s.legal(0) if isinstance(a, BuyAbility)} == buyable


@pytest.mark.parametrize("ability,price", [("speed", 7), ("foresight", 11)])
def test_A2_buying_rotates_the_price(ability: str, price: int) -> None:
    """A-2: the price is paid by rotating Cost Zone cards; the team then holds the ability."""
    s = Scenario(lineup="RR", phase="cost_zone")
    s.hand(0, FILLER).untapped(0, 12)
    s.start()
    s.pass_(0)
    s.buy(0, ability)
    assert s.tapped(0) == price
    assert ability in s.st.abilities
    assert s.of_kind("ability_gained")[0].data == {"ability": ability, "how": "bought"}
    assert not any(isinstance(a, BuyAbility) and a.ability == ability for a in s.legal(0))


def test_A2_no_buying_in_main() -> None:
    """A-2: "right after its own Cost Zone phase": not in Main."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, ANCHOR).untapped(0, 12)
    s.start()
    assert not any(isinstance(a, BuyAbility) for a in s.legal(0))
    with pytest.raises(IllegalAction) as err:
        s.g.apply(BuyAbility(0, "speed"))
    assert err.value.code == "wrong_timing"


# --- A-3 ----------------------------------------------------------------------------------------

def test_A3_duel_no_buying_with_cost() -> None:
    """A-3: a duel has no buying: after the Cost Zone phase no BuyAbility, however much Cost."""
    s = Scenario(mode="duel", lineup="ER", phase="cost_zone", turn_seat=1)
    s.hand(1, FILLER).untapped(1, 12)
    s.start()
    s.pass_(1)
    assert not any(isinstance(a, BuyAbility) for a in s.legal(1))


def test_A3_coop_can_buy_which_a_duel_may_not() -> None:
    """A-3 contrast: buying is a co-op feature (the mode says so)."""
    assert Game.new(mode="coop", lineup="RR", seed=1).mode.can_buy_abilities is True
    duel = Game.new(mode="duel", lineup="ER", seed=1)
    assert duel.mode.can_buy_abilities is False
    duel_buys = [a for _, acts in duel.pending for a in acts if type(a).__name__ == "BuyAbility"]
    assert duel_buys == []


# --- A-4 ----------------------------------------------------------------------------------------

def test_A4_once_per_level_abilities_recharge_at_each_new_shared_level() -> None:
    """A-4: Deliverance used at L1 is spent; the team's new level L2 recharges it."""
    s = Scenario(lineup="RR", phase="main").abilities("deliverance")
    s.seat(0, maturity=1).seat(1, maturity=2).hand(0, MAT, ANCHOR).untapped(0, cost(MAT))
    s.held(0, "sloth", "unforgiveness")
    s.start()
    s.use(0, "deliverance")
    s.choose(0, "sloth")
    s.pass_(0)
    assert "deliverance" not in s.st.charged
    assert UseAbility(0, "deliverance") not in s.legal(0)
    s.play(0, MAT)                     # shared level L2
    s.pass_while(0, "boost")
    s.expect_decision(0, "ability")
    s.pick_ability(0, "speed")
    assert "deliverance" in s.st.charged
    s.use(0, "deliverance")
    s.choose(0, "unforgiveness")
    assert s.ids(0, "held") == []


def test_A4_restoration_recharges_too_but_not_on_a_single_seats_level() -> None:
    """A-4 (co-op): only a new shared level recharges; one seat levelling alone does not."""
    s = Scenario(lineup="RR", phase="main").abilities("restoration")
    s.hand(0, MAT, ANCHOR).untapped(0, cost(MAT)).discard(0, "pride").discard(1, "envy")
    s.start()
    s.use(0, "restoration")
    s.play(0, MAT)                     # seat 0 L1, seat 1 still L0
    s.pass_while(0, "boost")
    assert "restoration" not in s.st.charged


# --- A-5 ----------------------------------------------------------------------------------------

def test_A5_mat_abilities_off_no_free_pick_no_buying() -> None:
    """A-5: with mat_abilities off there is no free pick at a shared level and nothing to buy."""
    s = Scenario(lineup="RR", phase="main", mat_abilities=False)
    s.seat(1, maturity=1).hand(0, MAT, ANCHOR).untapped(0, cost(MAT))
    s.start()
    s.play(0, MAT)
    s.pass_while(0, "boost")
    assert s.decision() != "ability"
    assert s.st.abilities == []

    buy = Scenario(lineup="RR", phase="cost_zone", mat_abilities=False)
    buy.hand(0, FILLER).untapped(0, 12)
    buy.start()
    buy.pass_(0)
    assert not any(isinstance(a, BuyAbility) for a in buy.legal(0))


def test_A5_mat_abilities_off_held_abilities_do_nothing() -> None:
    """A-5: the whole system is off: held Deliverance cannot be used, Vibrancy flips nothing,
    Benevolence lets no teammate help."""
    s = Scenario(lineup="RR", phase="main", mat_abilities=False).abilities("deliverance", "brotherly_love")
    s.hand(0, ANCHOR).held(0, "sloth")
    s.start()
    assert not any(isinstance(a, UseAbility) for a in s.legal(0))
    with pytest.raises(IllegalAction) as err:
        s.g.apply(UseAbility(0, "deliverance"))
    assert err.value.code == "abilities_off"

    v = Scenario(lineup="RR", phase="cost_zone", mat_abilities=False).abilities("vibrancy")
    v.hand(0, FILLER).untapped(0, 3)
    v.start()
    v.pass_(0)
    assert not v.st.face_up

    b = Scenario(lineup="RR", phase="resistance", mat_abilities=False).abilities("benevolence")
    b.untapped(0, 1).untapped(1, res(THREAT)).threat(THREAT, target=0)
    b.start()
    b.resist(0, THREAT, 1)
    assert b.pile("failed") == [THREAT] and b.tapped(1) == 0


def test_A5_setting_has_a_url_alias() -> None:
    """A-5: ?matAbilities=0 turns the system off."""
    from christianity_game import Settings
    assert Settings().updated({"matAbilities": "0"}).mat_abilities is False
    assert Settings().mat_abilities is True
