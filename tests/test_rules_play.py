"""Scenario tests for docs/rules.md section P: playing a card, the stack, boosts (both modes)."""

from __future__ import annotations

import pytest

from christianity_game import IllegalAction, Pass, PlayCard, Settings, TakeBoost
from scenario import ANCHOR, FILLER, Scenario, card, cost, res

H_MINUS_1 = "lust-of-the-eyes"   # a threat with a fixed R whose text is "target H-1"


def kinds_between(s: Scenario, first: str, last: str) -> list[str]:
    k = s.kinds()
    return k[k.index(first): len(k) - k[::-1].index(last)]


# --- P-1 ----------------------------------------------------------------------------------------

def test_P1_five_steps_pay_play_stack_text_then_boosts() -> None:
    """P-1: (1) pay and play, (3) on the stack, (4) its rules text resolves, (5) then its boosts.
    Beside Still Waters: H+1, draw 1; boost (teammate C1): you draw 1."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, "still-waters", ANCHOR).untapped(0, cost("still-waters")).untapped(1, 1).deck(0, "pride", "envy")
    s.start()
    s.play(0, "still-waters")
    assert s.tapped(0) == cost("still-waters")                                  # (1) paid
    assert [e.kind for e in s.events][:2] == ["rotated", "played"]
    s.expect_decision(0, "boost")                              # (5) offered after the text ...
    assert s.humility(0) == 4                                  # (4) ... which has resolved
    assert s.ids(0, "hand") == [ANCHOR, "pride"]
    s.boost(0, 0, payer=1)
    assert s.ids(0, "hand") == [ANCHOR, "pride", "envy"]       # the boost's draw, after the text
    assert s.kinds()[:9] == ["rotated", "played", "resolved", "humility", "drew",
                             "rotated", "boost_taken", "resolved", "drew"]


def test_P1_card_waits_on_the_stack_while_a_response_window_is_open() -> None:
    """P-1 steps 3-4: unresisted, the card goes on the stack; it resolves only once nothing more is
    played onto the stack."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, "loaves-and-fishes", ANCHOR).untapped(0, cost("loaves-and-fishes")).deck(0, FILLER, FILLER)
    s.hand(1, "what-of-the-night").untapped(1, cost("what-of-the-night")).deck(1, FILLER)
    s.start()
    s.play(0, "loaves-and-fishes")
    s.expect_decision(1, "respond")
    assert [i.kind for i in s.st.stack] == ["card"]
    assert s.ids(0, "hand") == [ANCHOR]                        # nothing resolved yet
    s.pass_(1)
    assert s.st.stack == []
    assert s.ids(0, "hand") == [ANCHOR, FILLER, FILLER]


def test_P1_resisted_threat_never_reaches_the_stack_and_nothing_on_it_happens() -> None:
    """P-1 step 2: a threat resisted: to the Resisted pile, no stack, no Humility loss, no resolution."""
    s = Scenario(lineup="RR", phase="resistance")
    s.seat(0, humility=5).hand(0, ANCHOR).untapped(0, res(H_MINUS_1)).threat(H_MINUS_1, target=0)
    s.start()
    assert s.st.stack == []
    s.resist(0, H_MINUS_1, res(H_MINUS_1))
    assert s.pile("resisted") == [H_MINUS_1]
    assert s.humility(0) == 5
    assert "resolved" not in s.kinds() and "failed" not in s.kinds()
    assert s.st.stack == []
    assert s.of_kind("resisted")[0].data == {"target": 0, "how": "paid"}


def test_P1_resistance_card_resists_the_threat_before_it_reaches_the_stack() -> None:
    """P-1 step 2 with a Resistance card: the threat goes to the Resisted pile, its text never runs."""
    s = Scenario(lineup="RR", phase="resistance")
    s.seat(0, humility=5).hand(0, "shield-of-faith").untapped(0, cost("shield-of-faith")).threat(H_MINUS_1, target=0)
    s.start()
    s.play(0, "shield-of-faith", threat=H_MINUS_1)
    s.settle()
    assert s.pile("resisted") == [H_MINUS_1]
    assert s.humility(0) == 5
    assert not [e for e in s.of_kind("resolved") if e.card == H_MINUS_1]


def test_P1_unresisted_threat_goes_on_the_stack_and_resolves() -> None:
    """P-1 step 3-4 for a threat: unresisted, it resolves: its text (H-1) on top of S-3."""
    s = Scenario(lineup="RR", phase="resistance")
    s.seat(0, humility=5).untapped(0, res(H_MINUS_1)).threat(H_MINUS_1, target=0)
    s.start()
    s.pass_(0)
    assert s.humility(0) == 3
    assert s.pile("failed") == [H_MINUS_1]
    assert [e.card for e in s.of_kind("resolved")] == []     # a failed threat is not "resolved" as a play
    assert s.of_kind("failed")[0].card == H_MINUS_1


# --- P-2 ----------------------------------------------------------------------------------------

def test_P2_boosts_in_any_order_the_printed_order_is_not_binding() -> None:
    """P-2: Well Done has boost 0 (teammate C1: untap 1) and boost 1 (any C1: top card into your
    Cost Zone); its player takes boost 1 first, then boost 0."""
    s = Scenario(lineup="RR", phase="main", mat_abilities=False)
    s.hand(0, "well-done", ANCHOR).untapped(0, cost("well-done") + 1).untapped(1, 2).deck(0, "pride")
    s.start()
    s.play(0, "well-done")
    s.expect_decision(0, "boost")
    assert TakeBoost(0, 1, 0) in s.legal(0) and TakeBoost(0, 0, 1) in s.legal(0)
    s.boost(0, 1, payer=0)
    assert "pride" in s.ids(0, "cost_zone")
    s.expect_decision(0, "boost")
    assert TakeBoost(0, 1, 0) not in s.legal(0)                # each boost once
    s.boost(0, 0, payer=1)
    taken = [e.data["index"] for e in s.of_kind("boost_taken")]
    assert taken == [1, 0]
    assert s.tapped(1) == 1


def test_P2_boosts_are_optional() -> None:
    """P-2: the card's player may take none: Pass closes the offer; nothing is paid."""
    s = Scenario(lineup="RR", phase="main", mat_abilities=False)
    s.hand(0, "well-done", ANCHOR).untapped(0, cost("well-done") + 1).untapped(1, 2).deck(0, "pride")
    s.start()
    s.play(0, "well-done")
    s.expect_decision(0, "boost")
    s.pass_(0)
    s.expect_decision(0, "main")
    assert s.tapped(0) == cost("well-done") and s.tapped(1) == 0
    assert not s.of_kind("boost_taken")


def test_P2_boost_only_taken_if_someone_allowed_can_pay() -> None:
    """P-2: nobody allowed by the glyph can pay (teammate with no untapped card): no offer at all."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, "still-waters", ANCHOR).untapped(0, cost("still-waters") + 2).untapped(1, 0, tapped=2).deck(0, FILLER)
    s.start()
    s.play(0, "still-waters")
    s.expect_decision(0, "main")           # the teammate boost was never offered
    assert not s.of_kind("boost_taken")


# --- P-3 ----------------------------------------------------------------------------------------

def test_P3_payer_glyphs_you_teammate_any() -> None:
    """P-3: the glyph says who may pay: Well Done boost 0 is teammate (seat 1 only), boost 1 is
    any (seat 0 or 1); Shield of Faith's boost is you (seat 0 only)."""
    s = Scenario(lineup="RR", phase="main", mat_abilities=False)
    s.hand(0, "well-done", ANCHOR).untapped(0, cost("well-done") + 1).untapped(1, 2).deck(0, "pride")
    s.start()
    s.play(0, "well-done")
    payers = {(a.index, a.payer) for a in s.legal(0) if isinstance(a, TakeBoost)}
    assert payers == {(0, 1), (1, 0), (1, 1)}

    s2 = Scenario(lineup="RR", phase="resistance")
    s2.hand(0, "shield-of-faith").untapped(0, cost("shield-of-faith") + 1).untapped(1, 2).threat("envy", target=0)
    s2.deck(0, FILLER).start()
    s2.play(0, "shield-of-faith", threat="envy")
    s2.expect_decision(0, "boost")
    assert {(a.index, a.payer) for a in s2.legal(0) if isinstance(a, TakeBoost)} == {(0, 0)}


def test_P3_the_cards_player_decides_not_the_payer() -> None:
    """P-3: the boost decision is the card's player's: the teammate who would pay cannot take it."""
    s = Scenario(lineup="RR", phase="main", mat_abilities=False)
    s.hand(0, "well-done", ANCHOR).untapped(0, cost("well-done") + 1).untapped(1, 2).deck(0, "pride")
    s.start()
    s.play(0, "well-done")
    s.expect_decision(0, "boost")
    assert s.legal(1) == []
    with pytest.raises(IllegalAction) as err:
        s.g.apply(TakeBoost(1, 0, 1))
    assert err.value.code == "not_your_decision"


def test_P3_payer_pays_from_own_cost_zone() -> None:
    """P-3: an "any" boost paid by the teammate rotates the teammate's Cost Zone, not the player's."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, "loaves-and-fishes", ANCHOR).untapped(0, cost("loaves-and-fishes")).untapped(1, 1).deck(0, *[FILLER] * 3)
    s.start()
    s.play(0, "loaves-and-fishes")
    s.boost(0, 0, payer=1)
    assert s.tapped(1) == 1 and s.tapped(0) == cost("loaves-and-fishes")
    assert s.ids(0, "hand").count(FILLER) == 3                  # the player draws, the teammate paid


# --- P-4 ----------------------------------------------------------------------------------------

def test_P4_paid_boost_goes_on_the_stack_and_opens_a_response_window() -> None:
    """P-4: a paid boost goes on the stack like a card; a window opens; a response goes on top and
    resolves first; the boost is not countered and resolves after."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, "loaves-and-fishes", ANCHOR).untapped(0, cost("loaves-and-fishes") + 1).deck(0, "pride", "envy", "idleness")
    s.hand(1, "what-of-the-night").deck(1, "gossip")
    s.start()
    s.play(0, "loaves-and-fishes")
    s.pass_(1)                                        # no response to the card itself
    s.expect_decision(0, "boost")
    s.boost(0, 0, payer=0)
    assert [(i.kind, i.boost) for i in s.st.stack] == [("boost", 0)]
    s.expect_decision(1, "respond")                   # the window on the boost
    s.play(1, "what-of-the-night")
    resolved = [(e.card, e.data.get("boost")) for e in s.of_kind("resolved")]
    assert resolved == [("loaves-and-fishes", None), ("what-of-the-night", None), ("loaves-and-fishes", 0)]
    assert s.ids(1, "hand") == ["gossip"]
    assert s.ids(0, "hand") == [ANCHOR, "pride", "envy", "idleness"]
    assert s.st.stack == []


def test_P4_boost_window_offers_only_pass_and_instants() -> None:
    """P-4: nothing in the window can take the boost off the stack: only Pass and Instants."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, "loaves-and-fishes", ANCHOR).untapped(0, cost("loaves-and-fishes") + 1).deck(0, *[FILLER] * 3)
    s.hand(1, "what-of-the-night", "still-waters", "shield-of-faith").untapped(1, 3).deck(1, FILLER)
    s.start()
    s.play(0, "loaves-and-fishes")
    s.pass_(1)
    s.boost(0, 0, payer=0)
    s.expect_decision(1, "respond")
    legal = s.legal(1)
    assert all(isinstance(a, Pass) or s.g.defs[a.card].kind == "instant" for a in legal)
    s.pass_(1)
    assert s.of_kind("resolved")[-1].data == {"boost": 0}


# --- P-5 ----------------------------------------------------------------------------------------

def test_P5_fast_boost_is_offered_before_the_cards_action() -> None:
    """P-5: Leave the Ninety and Nine (teammate H+2) has a fast boost (+1 to every number): it is
    offered while the card is still on the stack, and taken it makes the gift H+3."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, "leave-the-ninety-nine", ANCHOR).untapped(0, cost("leave-the-ninety-nine") + 1)
    s.start()
    s.play(0, "leave-the-ninety-nine", to_seat=1)
    s.expect_decision(0, "boost")
    assert [i.kind for i in s.st.stack] == ["card"]            # the card has not resolved
    assert s.humility(1) == 3
    s.boost(0, 0)
    assert s.humility(1) == 6
    k = s.kinds()
    assert k.index("boost_taken") < k.index("humility")


def test_P5_fast_boost_declined_card_resolves_plain() -> None:
    """P-5: declining the fast boost: the card does exactly its printed action."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, "leave-the-ninety-nine", ANCHOR).untapped(0, cost("leave-the-ninety-nine") + 1)
    s.start()
    s.play(0, "leave-the-ninety-nine", to_seat=1)
    s.expect_decision(0, "boost")
    s.pass_(0)
    assert s.humility(1) == 5
    s.expect_decision(0, "main")            # no second (after-action) offer: no other boost


def test_P5_fast_boost_amplifies_a_draw_count() -> None:
    """P-5: A Lamp unto My Feet reveals 4; with its fast boost it reveals 5."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, "lamp-unto-my-feet", ANCHOR).untapped(0, cost("lamp-unto-my-feet") + 1)
    s.deck(0, "watch-and-pray", FILLER, FILLER, FILLER, "stand-firm", FILLER)
    s.start()
    s.play(0, "lamp-unto-my-feet")
    s.boost(0, 0)
    assert sorted(s.ids(0, "hand")) == sorted([ANCHOR, "watch-and-pray", "stand-firm"])
    assert s.ids(0, "deck") == [FILLER, FILLER, FILLER, FILLER]


def test_P5_non_fast_boosts_come_after_the_action() -> None:
    """P-5: a boost without the bolt is offered only after the card has resolved."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, "feed-my-sheep", ANCHOR).untapped(0, cost("feed-my-sheep") + 1).deck(0, "pride")
    s.start()
    s.play(0, "feed-my-sheep")
    s.expect_decision(0, "boost")
    assert s.st.stack == []
    assert s.maturity(0) == 1 and "pride" in s.ids(0, "hand")


def test_P5_fast_redirect_sends_the_cards_effects_to_a_teammate() -> None:
    """P-5: Rejoice with Them (H+1) has a fast C0 boost sending its effects to a teammate."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, "rejoice-with-them", ANCHOR).untapped(0, cost("rejoice-with-them"))
    s.start()
    s.play(0, "rejoice-with-them")
    s.expect_decision(0, "boost")
    s.boost(0, 0, payer=0, to_seat=1)
    assert (s.humility(0), s.humility(1)) == (3, 4)


# --- P-6 ----------------------------------------------------------------------------------------

def test_P6_instants_respond_and_the_stack_resolves_last_in_first_out() -> None:
    """P-6: seat 0 plays an Action; seat 1 responds with an Instant; seat 0 answers with another
    Instant. Resolution: last in, first out."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, "loaves-and-fishes", "rejoice-with-them", ANCHOR).untapped(0, cost("loaves-and-fishes", "rejoice-with-them"))
    s.deck(0, FILLER, FILLER)
    s.hand(1, "what-of-the-night").deck(1, FILLER)
    s.start()
    s.play(0, "loaves-and-fishes")
    s.expect_decision(0, "respond")
    s.pass_(0)
    s.expect_decision(1, "respond")
    s.play(1, "what-of-the-night")
    s.expect_decision(0, "respond")            # the window reopens for everyone entitled
    s.play(0, "rejoice-with-them")
    assert [s.g.defs[i.uid].id for i in s.st.stack] == ["loaves-and-fishes", "what-of-the-night", "rejoice-with-them"]
    s.pass_while(0, "boost")                   # Rejoice's fast boost: declined
    order = [e.card for e in s.of_kind("resolved")]
    assert order == ["rejoice-with-them", "what-of-the-night", "loaves-and-fishes"]


def test_P6_only_instants_in_a_response_window() -> None:
    """P-6 / G-4: Actions, Maturity and Resistance cards are not playable in a response window."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, "loaves-and-fishes", ANCHOR).untapped(0, cost("loaves-and-fishes")).deck(0, FILLER, FILLER)
    s.hand(1, "what-of-the-night", "still-waters", "watch-and-pray", "rod-and-staff").untapped(1, 5)
    s.start()
    s.play(0, "loaves-and-fishes")
    s.expect_decision(1, "respond")
    played = {s.g.defs[a.card].id for a in s.legal(1) if isinstance(a, PlayCard)}
    assert played == {"what-of-the-night"}
    with pytest.raises(IllegalAction) as err:
        s.g.apply(PlayCard(1, s.find(1, "still-waters")))
    assert err.value.code == "wrong_timing"


def test_P6_window_closes_when_everyone_entitled_has_passed() -> None:
    """P-6 / docs/design.md, "The flow": the window closes when every seat entitled has passed with the stack unchanged."""
    s = Scenario(lineup="RRR", phase="main")
    s.hand(0, "loaves-and-fishes", ANCHOR).untapped(0, cost("loaves-and-fishes")).deck(0, FILLER, FILLER)
    s.hand(1, "what-of-the-night").hand(2, "what-of-the-night").untapped(1, 1).untapped(2, 1)
    s.start()
    s.play(0, "loaves-and-fishes")
    s.expect_decision(1, "respond")
    s.pass_(1)
    s.expect_decision(2, "respond")
    s.pass_(2)
    assert s.st.stack == []
    assert s.of_kind("resolved")[-1].card == "loaves-and-fishes"


def test_P6_instant_in_the_seats_own_main_phase_and_resistance_phase() -> None:
    """P-6: an Instant may also be played as a plain play by the active seat (Main, Resistance)."""
    s = Scenario(lineup="RR", phase="resistance")
    s.hand(0, "rejoice-with-them").untapped(0, cost("rejoice-with-them") + res("idleness")).threat("idleness", target=0)
    s.start()
    s.play(0, "rejoice-with-them")
    s.pass_while(0, "boost")
    s.expect_decision(0, "resistance")
    assert s.humility(0) == 4
    s.resist(0, "idleness", res("idleness"))
    assert s.pile("resisted") == ["idleness"]


# --- P-7 ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("fee", [1, 2, 3])
def test_P7_solo_target_change_fee(fee: int) -> None:
    """P-7: solo: Leave the Ninety and Nine (C2, a teammate gets H+2) costs C2 + fee and points at
    yourself; with one card fewer than that it is not playable."""
    s = Scenario(mode="solo", lineup="R", phase="main", solo_fee=fee)
    s.hand(0, "leave-the-ninety-nine", ANCHOR).untapped(0, cost("leave-the-ninety-nine") + fee)
    s.start()
    s.play(0, "leave-the-ninety-nine", to_seat=0)
    assert s.tapped(0) == cost("leave-the-ninety-nine") + fee
    assert s.of_kind("played")[0].data["fee"] == fee
    s.pass_while(0, "boost")
    assert s.humility(0) == 5

    short = Scenario(mode="solo", lineup="R", phase="main", solo_fee=fee)
    short.hand(0, "leave-the-ninety-nine", ANCHOR).untapped(0, cost("leave-the-ninety-nine") - 1 + fee)
    short.start()
    assert not any(isinstance(a, PlayCard) and short.g.defs[a.card].id == "leave-the-ninety-nine"
                   for a in short.legal(0))


@pytest.mark.parametrize("fee", [1, 2, 3])
def test_P7_solo_teammate_boost_paid_by_yourself_with_the_fee(fee: int) -> None:
    """P-7: a boost a teammate pays: in solo you pay it, plus the fee (Still Waters: teammate C1)."""
    s = Scenario(mode="solo", lineup="R", phase="main", solo_fee=fee)
    boost = card("still-waters").boosts[0]
    assert boost.payer == "teammate"
    s.hand(0, "still-waters", ANCHOR).untapped(0, cost("still-waters") + boost.cost + fee).deck(0, "pride", "envy")
    s.start()
    s.play(0, "still-waters")
    s.expect_decision(0, "boost")
    assert TakeBoost(0, 0, 0) in s.legal(0)
    s.boost(0, 0, payer=0)
    assert s.tapped(0) == cost("still-waters") + boost.cost + fee
    assert s.of_kind("boost_taken")[0].data["fee"] == fee
    assert s.ids(0, "hand") == [ANCHOR, "pride", "envy"]


def test_P7_solo_fee_unaffordable_boost_is_not_offered() -> None:
    """P-7: with too little left to pay boost + fee, the teammate boost is not offered."""
    s = Scenario(mode="solo", lineup="R", phase="main", solo_fee=2)
    s.hand(0, "still-waters", ANCHOR).untapped(0, cost("still-waters") + card("still-waters").boosts[0].cost + 1)
    s.deck(0, "pride")
    s.start()
    s.play(0, "still-waters")   # boost + 1 left: the boost needs boost + fee 2
    s.expect_decision(0, "main")
    assert not s.of_kind("boost_taken")


def test_P7_one_seat_coop_also_pays_the_fee_and_two_seats_do_not() -> None:
    """P-7: the fee belongs to any one-Righteous-seat game; with a teammate there is no fee."""
    one = Scenario(mode="coop", lineup="R", phase="main")
    one.hand(0, "leave-the-ninety-nine", ANCHOR).untapped(0, cost("leave-the-ninety-nine"))
    one.start()
    assert not any(isinstance(a, PlayCard) and a.to_seat is not None for a in one.legal(0))

    two = Scenario(mode="coop", lineup="RR", phase="main")
    two.hand(0, "leave-the-ninety-nine", ANCHOR).untapped(0, cost("leave-the-ninety-nine"))
    two.start()
    two.play(0, "leave-the-ninety-nine", to_seat=1)
    assert two.tapped(0) == cost("leave-the-ninety-nine")
    assert two.of_kind("played")[0].data["fee"] == 0


@pytest.mark.parametrize("fee", [1, 2, 3])
def test_P7_solo_redirect_fast_boost_is_aimed_at_a_teammate_and_costs_the_fee(fee: int) -> None:
    """P-7: Rejoice with Them's fast boost sends its effect to a teammate: in solo it points at you
    and costs the fee (its own cost C0 + fee)."""
    boost = card("rejoice-with-them").boosts[0]
    assert boost.fast and boost.payer == "any"
    s = Scenario(mode="solo", lineup="R", phase="main", solo_fee=fee)
    s.hand(0, "rejoice-with-them", ANCHOR).untapped(0, cost("rejoice-with-them") + boost.cost + fee)
    s.start()
    s.play(0, "rejoice-with-them")
    s.expect_decision(0, "boost")
    assert s.legal(0) == [Pass(0), TakeBoost(0, 0, 0, 0)]
    s.boost(0, 0, payer=0, to_seat=0)
    assert s.tapped(0) == cost("rejoice-with-them") + boost.cost + fee
    assert s.humility(0) == 4

    short = Scenario(mode="solo", lineup="R", phase="main", solo_fee=fee)
    short.hand(0, "rejoice-with-them", ANCHOR).untapped(0, cost("rejoice-with-them") + boost.cost + fee - 1)
    short.start()
    short.play(0, "rejoice-with-them")
    assert short.decision() != "boost"              # cannot pay the fee: not offered


def test_P7_solo_habitual_for_a_teammate_attaches_to_yourself_with_the_fee() -> None:
    """P-7: Bear One Another's Burdens (attach to a teammate) in solo: pay the fee, it is yours."""
    s = Scenario(mode="solo", lineup="R", phase="main", solo_fee=2)
    s.hand(0, "bear-one-anothers-burdens", ANCHOR).untapped(0, cost("bear-one-anothers-burdens") + 2)
    s.start()
    s.play(0, "bear-one-anothers-burdens", to_seat=0)
    s.settle()
    assert s.ids(0, "in_play") == ["bear-one-anothers-burdens"]
    assert s.tapped(0) == cost("bear-one-anothers-burdens") + 2


def test_P7_fee_setting_only_1_to_3() -> None:
    """P-7: the fee setting is 1, 2 or 3."""
    for bad in (0, 4):
        with pytest.raises(ValueError):
            Settings(solo_fee=bad)
    assert Settings().solo_fee == 1
    assert Settings().updated({"soloFee": "3"}).solo_fee == 3
