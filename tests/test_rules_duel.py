"""Scenario tests for docs/rules.md section D (duel), with S-6 and A-3 as they apply in a duel.

Positions are built with ``DuelScenario`` (tests/duel_helpers.py), which knows the duel's own
decisions: "interrupt" (an Evil seat may play a threat or pass), "answer" (a Righteous seat
answers the threat at the head of the burst) and "reward" (an Evil micro-reward or a Righteous
micro-boost waits to be chosen). How the engine runs a burst (its reading of D-INT and D-COMBO,
module docstring of ``engine/duel.py``): Evil seats play threats one after the other while the
window is theirs; when all have passed, the targets answer the pending threats one by one, in the
order they were played; that answer is "the Righteous side responds" and the chain resets.

Costs and resistances are read from the card data (``cost``, ``res``), never written by hand.
"""

from __future__ import annotations

import pytest

from christianity_game import AdjustBadge, Game, IllegalAction, LayCostZone, Pass, PlayCard, Resist, Settings, UseAbility
from christianity_game.engine.actions import BuyAbility, ChooseAbility, ChooseReward
from christianity_game.engine.base import GameBase
from christianity_game.engine.duel import dominance, on_turn_start
from christianity_game.engine.duel_mode import DuelMode
from christianity_game.engine.costs import remaining
from duel_helpers import BROAD, E_FILL, IDLE, LEAVEN, R_FILL, SECRET, DuelScenario, special_reward_with_habitual_in_hand
from scenario import ANCHOR, Scenario, card, cost, res

MAT = "watchmen-on-thy-walls"    # a Maturity card
ZERO = "what-of-the-night"       # a C0 Instant (draw 1): a free played card for D-MB-1
SNARE = "snare-of-the-fowler"    # a Temptation costing C2 (rotate)
LION = "a-roaring-lion"          # the dearest Temptation of the duel deck


def threats_by_cost(n: int) -> list[str]:
    """Temptations of the duel Evil deck with a fixed resistance costing exactly ``n``."""
    from christianity_game.cards import starter_set
    cs = starter_set()
    ids = dict.fromkeys(cs.decks["duel-evil"].cards)
    return [c for c in ids if cs[c].kind == "temptation" and cs[c].cost == n and cs[c].resistance is not None]


def played_costs(events: list) -> list[int]:
    return [e.data["cost"] for e in events if e.kind == "played" and "cost" in e.data]


# =============================================================================================
# D-1 seats


@pytest.mark.parametrize("lineup", ["ER", "EER", "ERR", "EERR", "EEERR", "ERRRR", "RE", "RERE"])
def test_D1_any_number_of_seats_with_at_least_one_of_each_side(lineup: str) -> None:
    """D-1: any line-up with at least one Evil and one Righteous seat; each seat has its side."""
    game = Game.new(mode="duel", lineup=lineup, seed=1)
    sides = [s["side"] for s in game.view(None)["seats"]]
    assert sides == ["evil" if ch == "E" else "righteous" for ch in lineup]
    for i, sd in enumerate(game.state.seats):
        deck = game.cards.decks[sd.deck_id]
        assert deck.side == sides[i]        # Evil seats play an Evil deck (duel-evil by default)
    assert {game.state.seats[i].deck_id for i, ch in enumerate(lineup) if ch == "E"} == {"duel-evil"}


@pytest.mark.parametrize("lineup", ["RR", "EE", "R", "E", "", "EXR"])
def test_D1_a_duel_needs_a_seat_of_each_side(lineup: str) -> None:
    """D-1: no duel without both sides (and only letters E and R)."""
    with pytest.raises(ValueError):
        Game.new(mode="duel", lineup=lineup, seed=1)


# =============================================================================================
# D-TURN


def all_pass_turns(lineup: str, turns: int) -> list[int]:
    """Play a new duel where every seat always passes (nothing is ever played); the seats whose
    turns started, in order."""
    game = Game.new(mode="duel", lineup=lineup, seed=5)
    seen = [game.turn_seat]
    while len(seen) < turns:
        seat, acts = game.pending[0]
        assert Pass(seat) in acts
        for e in game.apply(Pass(seat)):
            if e.kind == "turn_started":
                seen.append(e.seat)
    return seen


@pytest.mark.parametrize("lineup,order", [("ER", [0, 1]), ("RE", [1, 0]), ("RERE", [1, 3, 0, 2]),
                                          ("EERR", [0, 1, 2, 3]), ("RREEE", [2, 3, 4, 0, 1]),
                                          ("EERRR", [0, 1, 2, 3, 4])])
def test_D_TURN_1_evil_goes_first_then_every_righteous_seat(lineup: str, order: list[int]) -> None:
    """D-TURN-1: Evil opens; every Evil seat takes its turn, then every Righteous seat, then every
    Evil seat again (the sides do not alternate seat by seat)."""
    assert all_pass_turns(lineup, 3 * len(lineup)) == order * 3


def test_D_TURN_2_every_turn_is_draw_cost_zone_main_end_without_evil_or_resistance_phase() -> None:
    """D-TURN-2: both sides' turns are Draw -> Cost Zone -> Main -> End; there is no Evil phase
    and no Resistance phase in a duel."""
    assert DuelMode.steps == ("draw", "lay", "after_lay", "main", "end")
    game = Game.new(mode="duel", lineup="ERR", seed=2)
    phases: dict[int, list[str]] = {}
    turn = 0
    seen = set()
    while turn < 9:
        seat, acts = game.pending[0]
        seen.add(game.phase)
        for e in game.apply(Pass(seat)):
            if e.kind == "turn_started":
                turn += 1
            if e.kind == "phase":
                phases.setdefault(turn, []).append(e.data["phase"])
    assert seen <= {"cost_zone", "main"}
    for t in range(1, 9):
        assert phases[t] == ["cost_zone", "main"], (t, phases[t])
    kinds = [e.kind for e in game.log]
    # each turn draws before its Cost Zone phase
    first_turn = kinds[kinds.index("turn_started", 1):]
    assert first_turn.index("drew") < first_turn.index("phase")


def test_D_TURN_2_an_evil_turn_has_the_same_phases() -> None:
    """D-TURN-2: an Evil seat draws, lays its Cost Zone, then plays in its Main phase."""
    s = DuelScenario("ER", phase="draw", turn_seat=0)
    s.deck(0, LEAVEN, LEAVEN, IDLE, E_FILL, E_FILL).evil_cz(0, 3).hand(1, R_FILL).untapped(1, 3)
    s.start()
    assert [e.seat for e in s.of_kind("drew")] == [0, 0]       # highest Righteous Maturity (0) + 2
    s.expect_decision(0, "lay")
    s.lay(0, LEAVEN)
    s.pass_(0)
    s.expect_decision(0, "main")
    assert [a for a in s.legal(0) if isinstance(a, PlayCard)] == [s.threat_action(0, LEAVEN, 1)]


# =============================================================================================
# D-INT


def test_D_INT_1_evil_interrupts_during_a_righteous_turn_at_any_righteous_seat() -> None:
    """D-INT-1: during a Righteous seat's Main phase, after its play resolves, an Evil seat gets a
    window and may aim a threat at whichever Righteous seat it picks (ERR: seat 1 or seat 2)."""
    s = DuelScenario("ERR", phase="main", turn_seat=1)
    s.hand(0, LEAVEN).evil_cz(0, cost(LEAVEN))
    s.hand(1, ANCHOR, R_FILL).untapped(1, 3).hand(2, R_FILL).untapped(2, 3)
    s.start()
    s.expect_decision(0, "interrupt")                     # at the start of seat 1's Main phase
    assert {a.to_seat for a in s.threat_plays(0)} == {1, 2}
    s.pass_(0)
    s.expect_decision(1, "main")
    s.play(1, ANCHOR)                                     # seat 1 plays; it resolves
    s.expect_decision(0, "interrupt")                     # a new moment: Evil may interrupt
    s.threaten(0, LEAVEN, 2)                              # at seat 2, who is not the active seat
    s.expect_decision(2, "answer")
    assert s.g.turn_seat == 1


def test_D_INT_1_no_interrupt_while_a_cost_zone_is_being_laid() -> None:
    """D-INT-1 / Z-5: while a Righteous seat lays its Cost Zone, Evil has no decision and a threat
    is refused with nothing changed; right after the laying it may interrupt. (Rules 2: "before or
    after, never during": Evil's window before the first card is laid comes first.)"""
    s = DuelScenario("ER", phase="cost_zone", turn_seat=1)
    s.hand(0, LEAVEN).evil_cz(0, 3)
    s.hand(1, R_FILL, R_FILL, ANCHOR).untapped(1, 3)
    s.start()
    s.expect_decision(0, "interrupt")                     # before the laying (rules 2)
    s.pass_(0)
    s.expect_decision(1, "lay")
    assert s.legal(0) == []
    threat = s.threat_action(0, LEAVEN, 1)
    before = (s.g.state_id, s.ids(0, "hand"), s.tapped(0), s.g.view(None))
    with pytest.raises(IllegalAction):
        s.g.apply(threat)
    assert (s.g.state_id, s.ids(0, "hand"), s.tapped(0), s.g.view(None)) == before
    s.lay(1, R_FILL)
    s.expect_decision(1, "lay")                           # still laying: still no window
    assert s.legal(0) == []
    s.pass_(1)                                            # laying is over
    s.expect_decision(0, "interrupt")
    assert threat in s.legal(0)


def test_D_INT_1_no_play_by_anyone_while_an_evil_seat_lays() -> None:
    """D-INT-1 / Z-5: an Evil seat laying its own Cost Zone may only lay or pass; its partner gets
    no window either (EER)."""
    s = DuelScenario("EER", phase="cost_zone", turn_seat=0)
    s.hand(0, LEAVEN, IDLE).evil_cz(0, 3).hand(1, LEAVEN).evil_cz(1, 3).hand(2, R_FILL).untapped(2, 3)
    s.start()
    s.expect_decision(0, "lay")
    assert {type(a) for a in s.legal(0)} == {Pass, LayCostZone}
    assert s.legal(1) == [] and s.legal(2) == []
    with pytest.raises(IllegalAction) as err:
        s.g.apply(s.threat_action(0, LEAVEN, 2))
    assert err.value.code == "cost_zone_being_laid"
    s.pass_(0)
    s.expect_decision(1, "interrupt")                     # the partner, after the laying


def test_D_INT_2_target_resists_at_once_by_rotating_even_on_the_evil_turn() -> None:
    """D-INT-2: on the Evil seat's own turn the target gets a window at once and resists by
    rotating its Cost Zone: the threat goes to the Resisted pile and costs no Humility."""
    r = res(LEAVEN)
    s = DuelScenario("ER", phase="main", turn_seat=0)
    s.hand(0, LEAVEN, SNARE).evil_cz(0, cost(LEAVEN) + cost(SNARE)).hand(1, R_FILL).untapped(1, r + 1)
    s.start()                                             # (SNARE, unplayed, keeps Evil's Main open)
    s.threaten(0, LEAVEN, 1)
    s.pass_(0)
    s.expect_decision(1, "answer")
    assert Resist(1, s.threat_uid(LEAVEN), r) in s.legal(1)
    s.resist(1, LEAVEN, r)
    assert s.pile("resisted") == [LEAVEN] and s.pile("failed") == []
    assert s.humility(1) == 3 and s.tapped(1) == r
    assert s.g.turn_seat == 0


def test_D_INT_2_resist_with_a_resistance_card_or_cost_and_card_together() -> None:
    """D-INT-2: the target may pay part by rotating and finish with a Resistance card."""
    r = res(SNARE)
    s = DuelScenario("ER", phase="main", turn_seat=0)
    s.hand(0, SNARE).evil_cz(0, cost(SNARE)).hand(1, "fear-not-little-flock", R_FILL)
    s.untapped(1, 1 + cost("fear-not-little-flock"))
    s.start()
    s.threaten(0, SNARE, 1)
    s.expect_decision(1, "answer")
    s.resist(1, SNARE, 1)                                 # part paid; still seat 1's answer
    s.expect_decision(1, "answer")
    assert s.st.threats[0].paid == 1 and r > 1
    s.play(1, "fear-not-little-flock", threat=SNARE)     # a card that resists any threat
    s.settle()
    assert s.pile("resisted") == [SNARE]
    assert s.humility(1) == 3 + sum(e.amount for e in card("fear-not-little-flock").effects if e.op == "humility")


def test_D_INT_3_resistance_cards_only_in_response() -> None:
    """D-INT-3: with no threat aimed at it a Righteous seat cannot play a Resistance card, even in
    its own Main phase; in answer to a threat it can (within the card's limit)."""
    s = DuelScenario("ER", phase="main", turn_seat=1)
    s.hand(0, LEAVEN).evil_cz(0, cost(LEAVEN))
    s.hand(1, "shield-of-faith", "a-soft-answer", ANCHOR).untapped(1, 3)
    s.start()
    s.pass_(0)                                            # Evil declines the window
    s.expect_decision(1, "main")
    assert not [a for a in s.legal(1) if isinstance(a, PlayCard) and s.g.defs[a.card].kind == "resistance"]
    with pytest.raises(IllegalAction):
        s.g.apply(PlayCard(1, s.find(1, "shield-of-faith")))
    s.play(1, ANCHOR)
    s.threaten(0, LEAVEN, 1)
    s.pass_interrupts()
    s.expect_decision(1, "answer")
    resist_cards = {s.g.defs[a.card].id for a in s.legal(1) if isinstance(a, PlayCard)}
    # shield-of-faith resists R3 or less; a-soft-answer only R1 or less
    assert "shield-of-faith" in resist_cards
    assert ("a-soft-answer" in resist_cards) == (res(LEAVEN) <= 1)
    assert all(a.threat == s.threat_uid(LEAVEN) for a in s.legal(1) if isinstance(a, PlayCard))


def test_D_INT_3_no_resistance_card_against_a_held_habitual_in_main_but_paying_breaks_it() -> None:
    """D-INT-3 (engine reading): a Resistance card is never played "on its own", so in a duel it
    does not break a Habitual that already holds you (co-op's CO-7 use); paying the Habitual's
    resistance in your Main phase still resists it (D-INT-5 "until it is resisted")."""
    r = res(SECRET)
    s = DuelScenario("ER", phase="main", turn_seat=1)
    s.held(1, SECRET).hand(1, "fear-not-little-flock", ANCHOR).untapped(1, r + cost("fear-not-little-flock"))
    s.start()
    s.expect_decision(1, "main")
    assert not [a for a in s.legal(1) if isinstance(a, PlayCard) and s.g.defs[a.card].kind == "resistance"]
    s.resist(1, SECRET, r)
    assert s.ids(1, "held") == [] and s.pile("resisted") == [SECRET]


def test_D_INT_4_evil_keeps_playing_while_it_can_pay_and_each_threat_is_answered_on_its_own() -> None:
    """D-INT-4: Evil plays threat after threat while it can pay; the threats are then answered one
    at a time, in the order played: only the head can be resisted, and resisting one does not
    touch the next."""
    a, b = LEAVEN, SNARE
    s = DuelScenario("ER", phase="main", turn_seat=0)
    s.hand(0, a, b, LION).evil_cz(0, cost(a) + cost(b) - 1)   # chain discount: b costs C1 less
    s.hand(1, R_FILL, R_FILL).untapped(1, res(a) + 1).seat(1, humility=5)
    s.start()
    s.threaten(0, a, 1)
    s.threaten(0, b, 1)
    # nothing left to pay with: the lion is not offered, and the window has closed by itself
    assert s.untapped_count(0) == 0 and s.threat_plays(0) == []
    s.expect_decision(1, "answer")
    assert {x.threat for x in s.legal(1) if isinstance(x, Resist)} == {s.threat_uid(a)}
    s.resist(1, a, res(a))
    s.expect_decision(1, "answer")
    assert s.threats() == [b]
    assert {x.threat for x in s.legal(1) if isinstance(x, Resist)} == {s.threat_uid(b)}
    s.take_hit(1)
    assert s.pile("resisted") == [a] and s.pile("failed") == [b]
    assert s.humility(1) == 4


def test_D_INT_5_unresisted_temptation_costs_1_humility_and_goes_to_failed() -> None:
    """D-INT-5 / S-3: a Temptation not resisted costs its target 1 Humility (plus its own text)."""
    s = DuelScenario("ER", phase="main", turn_seat=0)
    s.hand(0, IDLE, SNARE).evil_cz(0, cost(IDLE, SNARE)).hand(1, R_FILL).untapped(1, 2).seat(1, humility=4)
    s.start()
    s.threaten(0, IDLE, 1)
    s.pass_interrupts()
    s.take_hit(1)
    assert s.humility(1) == 3
    assert s.pile("failed") == [IDLE]
    assert s.st.pile_info[s.st.failed[0]] == (0, 1)          # played by seat 0 at seat 1
    assert s.tapped(1) == 1                                   # its text: rotate 1


def test_D_INT_5_overflow_at_humility_0_discards_from_hand_or_cost_zone() -> None:
    """D-INT-5 / S-4: at Humility 0 the loss overflows: the target discards a card of its choice."""
    s = DuelScenario("ER", phase="main", turn_seat=0)
    s.hand(0, IDLE).evil_cz(0, cost(IDLE)).hand(1, "pride").untapped(1, 2).seat(1, humility=0)
    s.deck(1, *[R_FILL] * 6)
    s.start()
    s.threaten(0, IDLE, 1)
    s.pass_interrupts()
    s.take_hit(1)
    s.expect_decision(1, "overflow")
    assert set(s.st.choice.options) == set(s.zone(1, "hand")) | set(s.zone(1, "cost_zone"))
    s.choose(1, "pride", zone="hand")
    assert s.ids(1, "discard") == ["pride"] and s.humility(1) == 0


def test_D_INT_5_a_habitual_takes_hold_and_blocks_the_win_until_resisted() -> None:
    """D-INT-5: an unresisted Evil Habitual costs 1 Humility and takes hold; at L3 it keeps the
    clean round from arming (D-W-R) until the seat resists it (paying in its own Main phase)."""
    r = res(BROAD)
    s = DuelScenario("ER", phase="main", turn_seat=0)
    s.hand(0, BROAD).evil_cz(0, cost(BROAD)).deck(0, *[E_FILL] * 6)
    s.seat(1, maturity=3, humility=5).hand(1, R_FILL, ANCHOR).untapped(1, r).deck(1, *[R_FILL] * 8)
    s.start()
    assert s.dview()["righteous_clock"] is not None        # L3 and a clear board: armed
    s.threaten(0, BROAD, 1)
    s.pass_interrupts()
    s.take_hit(1)
    assert s.ids(1, "held") == [BROAD] and s.humility(1) == 4
    assert s.pile("failed") == []                           # a Habitual stays in play
    assert s.dview()["righteous_clock"] is None
    s.to_main_of(1)
    assert s.g.result is None
    s.resist(1, BROAD, r)
    assert s.ids(1, "held") == [] and s.pile("resisted") == [BROAD]
    assert s.dview()["righteous_clock"] is not None        # armed again


def test_D_INT_6_evil_interrupt_off_evil_acts_only_on_its_own_turn() -> None:
    """D-INT-6: with evil_interrupt off the Evil seat gets no window in a Righteous turn (whatever
    it holds), and plays in its own Main phase."""
    s = DuelScenario("ER", phase="main", turn_seat=1, evil_interrupt=False)
    s.hand(0, LEAVEN, IDLE).evil_cz(0, 4).deck(0, *[E_FILL] * 4)
    s.hand(1, ANCHOR, ZERO, R_FILL).untapped(1, 4).deck(1, *[R_FILL] * 6)
    s.start()
    s.expect_decision(1, "main")
    s.play(1, ANCHOR)
    s.settle()
    s.expect_decision(1, "main")
    assert s.legal(0) == []
    events = s.pass_turn(1, interrupts=False)              # fails the test on any Evil decision
    assert not [e for e in events if e.kind == "threat_played"]
    assert s.g.turn_seat == 0
    s.pass_(0)                                             # Evil's lay
    s.expect_decision(0, "main")
    assert s.threat_plays(0)


def test_D_INT_6_evil_interrupt_off_a_partner_cannot_play_on_the_other_evil_turn() -> None:
    """D-INT-6: off, in EER seat 1 never decides during seat 0's turn; seat 0 plays on its own."""
    s = DuelScenario("EER", phase="main", turn_seat=0, evil_interrupt=False)
    s.hand(0, LEAVEN, IDLE).evil_cz(0, 4).hand(1, LEAVEN, IDLE).evil_cz(1, 4).hand(2, R_FILL).untapped(2, 4)
    s.start()
    s.expect_decision(0, "main")
    s.threaten(0, LEAVEN, 2)
    s.expect_decision(0, "interrupt")                       # only the seat whose turn it is
    assert s.d.evil_window == [0]
    s.pass_(0)
    deciders = set()
    while s.g.turn_seat == 0:
        deciders.add(s.decider())
        if s.decision() == "answer":
            s.take_hit(2)
        else:
            s.pass_(s.decider())
    assert deciders == {0, 2}                               # seat 1 never decided


def test_D_INT_6_interrupt_on_is_the_default_and_a_setting() -> None:
    """D-INT-6: the setting is evil_interrupt (URL alias evilInterrupt), on by default."""
    assert Settings().evil_interrupt is True
    assert Settings().updated({"evilInterrupt": "0"}).evil_interrupt is False
    game = Game.new(mode="duel", lineup="ER", seed=1, settings=Settings(evil_interrupt=False))
    assert game.view(None)["settings"]["evil_interrupt"] is False


# =============================================================================================
# D-CZ


@pytest.mark.parametrize("lineup,righteous,evil", [("ER", 0, 0), ("EER", 1, 0), ("ERR", 0, 1), ("EERR", 0, 0),
                                                   ("EEERR", 1, 0), ("ERRRR", 0, 3), ("EEEER", 3, 0)])
def test_D_CZ_1_extra_opponents_only_for_the_smaller_side(lineup: str, righteous: int, evil: int) -> None:
    """D-CZ-1: extra opponents = the other side's seats minus your own, never below 0."""
    assert DuelMode.extra_opponents(lineup, "righteous") == righteous
    assert DuelMode.extra_opponents(lineup, "evil") == evil


@pytest.mark.parametrize("lineup", ["ER", "EER", "ERR", "EERR", "EEERR", "ERRR"])
def test_D_CZ_2_and_3_opening_cost_zone_is_3_plus_extra_opponents(lineup: str) -> None:
    """D-CZ-2, D-CZ-3: each seat's opening Cost Zone is 3 + its side's extra opponents, from the
    top of its deck, face down and untapped."""
    game = Game.new(mode="duel", lineup=lineup, seed=4)
    for i, sd in enumerate(game.state.seats):
        side = "evil" if lineup[i] == "E" else "righteous"
        assert len(sd.cost_zone) == 3 + DuelMode.extra_opponents(lineup, side), (i, lineup)
        assert not set(sd.cost_zone) & (game.state.face_up | game.state.tapped)
        assert len(sd.deck) + len(sd.hand) + len(sd.cost_zone) == 40


def drawn_at_turn_start(lineup: str, seat: int, maturities: dict[int, int]) -> int:
    s = DuelScenario(lineup, phase="draw", turn_seat=seat, mat_abilities=False)
    for i, ch in enumerate(lineup):
        s.deck(i, *([E_FILL] * 12 if ch == "E" else [R_FILL] * 12))
        if ch == "R":
            s.seat(i, maturity=maturities.get(i, 0))
    s.start()
    return len(s.zone(seat, "hand"))


@pytest.mark.parametrize("lineup,seat,mats,expected", [
    ("ER", 1, {1: 0}, 2), ("ER", 1, {1: 2}, 4),
    ("EER", 2, {2: 1}, 1 + 2 + 1),                          # outnumbered by one: +1
    ("EEER", 3, {3: 0}, 0 + 2 + 2),
    ("ERR", 1, {1: 1, 2: 0}, 3),                            # not outnumbered: no bonus
    ("EERR", 2, {2: 3, 3: 0}, 5),
])
def test_D_CZ_2_righteous_draw_is_own_maturity_plus_2_plus_extra_opponents(lineup: str, seat: int,
                                                                           mats: dict[int, int],
                                                                           expected: int) -> None:
    """D-CZ-2: a Righteous seat draws its own Maturity + 2 + extra opponents each turn."""
    assert drawn_at_turn_start(lineup, seat, mats) == expected


@pytest.mark.parametrize("lineup,mats,expected", [
    ("ERR", {1: 1, 2: 0}, (1 + 2) + (0 + 2)),              # outnumbered: the sum, 5 (000's example)
    ("ERRR", {1: 0, 2: 2, 3: 1}, 2 + 4 + 3),
    ("ER", {1: 2}, 2 + 2),                                  # not outnumbered: top Maturity + 2
    ("EERR", {2: 0, 3: 2}, 2 + 2),
    ("EER", {2: 1}, 1 + 2),
])
def test_D_CZ_3_evil_draw_tracks_righteous_maturity(lineup: str, mats: dict[int, int], expected: int) -> None:
    """D-CZ-3: outnumbered Evil draws the sum over Righteous seats of (Maturity + 2); otherwise the
    highest Righteous Maturity + 2."""
    assert drawn_at_turn_start(lineup, 0, mats) == expected


@pytest.mark.parametrize("lineup,seat,cap", [("ER", 0, 4), ("ER", 1, 4), ("ERR", 0, 6), ("ERRR", 0, 8),
                                             ("EER", 0, 4), ("EER", 2, 4), ("EERR", 1, 4), ("EERR", 3, 4)])
def test_D_CZ_2_and_3_cost_zone_intake_caps(lineup: str, seat: int, cap: int) -> None:
    """D-CZ-2: Righteous intake at most 4 a turn (even outnumbered); D-CZ-3: Evil 4 + 2 x extra
    opponents."""
    filler = E_FILL if lineup[seat] == "E" else R_FILL
    s = DuelScenario(lineup, phase="cost_zone", turn_seat=seat)
    s.hand(seat, *[filler] * 10)
    s.start()
    for _ in range(cap):
        s.expect_decision(seat, "lay")
        s.lay(seat, filler)
    assert not any(isinstance(a, LayCostZone) for a in s.legal(seat))
    assert len(s.zone(seat, "cost_zone")) == cap


# =============================================================================================
# D-COMBO


def test_D_COMBO_1_each_next_play_of_a_chain_costs_one_less() -> None:
    """D-COMBO-1: first play full price, the next C1 less, the next C2 less (a lone Evil seat)."""
    chain = [LION, SNARE, SNARE]
    s = DuelScenario("ER", phase="main", turn_seat=0)
    expected = [max(0, cost(c) - i) for i, c in enumerate(chain)]
    s.hand(0, *chain).evil_cz(0, sum(expected) + 2).hand(1, R_FILL).untapped(1, 2)
    s.start()
    paid = []
    for c in chain:
        before = s.tapped(0)
        ev = s.threaten(0, c, 1)
        paid.extend(played_costs(ev))
        assert s.tapped(0) - before == paid[-1]
    assert paid == expected


def test_D_COMBO_1_never_below_C0() -> None:
    """D-COMBO-1: the discount does not go below C0: a C1 card third in a chain is free, not -1."""
    c1 = threats_by_cost(1)[0]
    s = DuelScenario("ER", phase="main", turn_seat=0)
    s.hand(0, LION, SNARE, c1).evil_cz(0, cost(LION) + cost(SNARE) - 1).hand(1, R_FILL).untapped(1, 2)
    s.start()
    paid = []
    for c in (LION, SNARE, c1):
        paid += played_costs(s.threaten(0, c, 1))
    assert paid == [cost(LION), cost(SNARE) - 1, 0]
    assert s.untapped_count(0) == 0


def test_D_COMBO_2_a_free_play_restarts_the_chain() -> None:
    """D-COMBO-2: a play that lands free (C0) restarts the chain: the next one pays full price."""
    s = DuelScenario("ER", phase="main", turn_seat=0)
    s.hand(0, LEAVEN, IDLE, SNARE).evil_cz(0, cost(LEAVEN) + cost(SNARE)).hand(1, R_FILL).untapped(1, 2)
    s.start()
    paid = []
    for c in (LEAVEN, IDLE, SNARE):
        paid += played_costs(s.threaten(0, c, 1))
    assert paid == [cost(LEAVEN), max(0, cost(IDLE) - 1), cost(SNARE)]
    assert paid[1] == 0
    assert s.dview()["chain"]["count"] == 1


def test_D_COMBO_2_a_lone_play_made_free_by_dominance_is_no_finale() -> None:
    """D-COMBO-2 with D-DOM-1 and D-MR-4: with C1 of dominance a C1 card lands free on its own: it
    restarts the chain but is no finale (nothing was chained into it); the next card pays its
    price less dominance only."""
    s = DuelScenario("ER", phase="main", turn_seat=0)
    s.held_by(1, 0, BROAD, BROAD, BROAD).hand(0, IDLE, SNARE).evil_cz(0, cost(SNARE))
    s.seat(1, humility=6).hand(1, R_FILL).untapped(1, 1).deck(1, *[R_FILL] * 4)
    s.start()
    assert s.dview()["dominance"] == {"0": 1}
    assert played_costs(s.threaten(0, IDLE, 1)) == [max(0, cost(IDLE) - 1)] == [0]
    assert s.d.finale == {} and s.dview()["chain"]["count"] == 0
    assert played_costs(s.threaten(0, SNARE, 1)) == [cost(SNARE) - 1]


def test_D_COMBO_3_the_chain_resets_when_the_righteous_side_responds() -> None:
    """D-COMBO-3 (engine reading: a burst is answered when Evil passes): after the target answers
    (resists one, takes the other) the next threat pays full price again."""
    s = DuelScenario("ER", phase="main", turn_seat=0)
    s.hand(0, LION, SNARE, SNARE).evil_cz(0, cost(LION) + cost(SNARE) - 1 + cost(SNARE))
    s.hand(1, R_FILL, R_FILL).untapped(1, res(LION) + 1).seat(1, humility=5)
    s.start()
    s.threaten(0, LION, 1)
    assert s.dview()["next_discount"] == {"0": 1}
    s.threaten(0, SNARE, 1)
    s.pass_(0)
    s.resist(1, LION, res(LION))
    s.take_hit(1)
    assert s.dview()["chain"]["count"] == 0 and s.dview()["next_discount"] == {"0": 0}
    s.expect_decision(0, "main")
    assert played_costs(s.threaten(0, SNARE, 1)) == [cost(SNARE)]


def test_D_COMBO_3_the_chain_resets_at_the_next_turn() -> None:
    """D-COMBO-3: the chain resets when a turn starts. (A burst is always answered before a turn
    can end, so the test puts a chain on the duel state by hand and starts the next turn.)"""
    s = DuelScenario("ER", phase="main", turn_seat=1)
    s.hand(0, SNARE).evil_cz(0, cost(SNARE)).hand(1, ANCHOR).untapped(1, 2)
    s.start()
    s.pass_(0)
    s.expect_decision(1, "main")
    d = s.d
    d.chain_count, d.chain_last, d.chain_target, d.chain_seats = 2, 0, 1, (0,)
    assert s.dview()["next_discount"] == {"0": 2}
    s.pass_turn(1, interrupts=True)
    assert s.g.turn_seat == 0
    assert s.dview()["chain"]["count"] == 0
    s.pass_(0)                                              # lay
    assert played_costs(s.threaten(0, SNARE, 1)) == [cost(SNARE)]


def test_D_COMBO_4_with_two_evil_seats_a_partner_must_extend_the_chain() -> None:
    """D-COMBO-4: EER: seat 0 playing twice pays full price both times (it cannot extend its own
    chain); seat 1 playing next extends it and pays C1 less."""
    s = DuelScenario("EER", phase="main", turn_seat=0)
    s.hand(0, SNARE, SNARE).evil_cz(0, 2 * cost(SNARE)).hand(1, SNARE).evil_cz(1, cost(SNARE))
    s.hand(2, R_FILL).untapped(2, 2).seat(2, humility=6)
    s.start()
    s.pass_interrupts()                                    # seat 1's window at seat 0's Main
    s.expect_decision(0, "main")
    first = played_costs(s.threaten(0, SNARE, 2))
    s.expect_decision(1, "interrupt")                      # the partner first, to extend the chain
    assert s.dview()["next_discount"] == {"0": 0, "1": 1}
    s.pass_(1)
    s.expect_decision(0, "interrupt")
    second = played_costs(s.threaten(0, SNARE, 2))         # itself again: full price
    assert first == second == [cost(SNARE)]
    s.expect_decision(1, "interrupt")
    third = played_costs(s.threaten(1, SNARE, 2))          # the partner: C1 less
    assert third == [cost(SNARE) - 1]


def test_D_COMBO_4_a_lone_evil_seat_may_chain_solo() -> None:
    """D-COMBO-4: with one Evil seat (ERR) the same seat extends its own chain."""
    s = DuelScenario("ERR", phase="main", turn_seat=0)
    s.hand(0, SNARE, SNARE).evil_cz(0, 2 * cost(SNARE) - 1).hand(1, R_FILL).untapped(1, 2).hand(2, R_FILL)
    s.start()
    paid = played_costs(s.threaten(0, SNARE, 1)) + played_costs(s.threaten(0, SNARE, 1))
    assert paid == [cost(SNARE), cost(SNARE) - 1]


# =============================================================================================
# D-DOM


def test_D_DOM_1_three_own_habituals_that_took_hold_give_C1_off_every_card() -> None:
    """D-DOM-1: after 3 of its own Evil Habituals took hold, the seat pays C1 less for its cards."""
    s = DuelScenario("ER", phase="main", turn_seat=0)
    s.hand(0, BROAD, BROAD, BROAD, LION).evil_cz(0, 12).deck(0, *[E_FILL] * 20)
    s.seat(1, humility=8).hand(1, *[R_FILL] * 3).untapped(1, 1).deck(1, *[R_FILL] * 10)
    s.start()
    s.land(0, 1, BROAD, BROAD)
    assert dominance(s.g, 0) == 0
    s.land(0, 1, BROAD)
    assert len(s.zone(1, "held")) == 3
    assert dominance(s.g, 0) == 1 and s.dview()["dominance"] == {"0": 1}
    s.expect_decision(0, "main")
    assert played_costs(s.threaten(0, LION, 1)) == [cost(LION) - 1]


def test_D_DOM_1_six_give_C2_off() -> None:
    """D-DOM-1: 6 of its own Habituals in hold: C2 less."""
    s = DuelScenario("ER", phase="main", turn_seat=0)
    s.hand(0, *[BROAD] * 6, LION).evil_cz(0, 20).deck(0, *[E_FILL] * 30)
    s.seat(1, humility=10, maturity=3).hand(1, *[R_FILL] * 3).untapped(1, 1).deck(1, *[R_FILL] * 10)
    s.start()
    for _ in range(3):
        s.land(0, 1, BROAD, BROAD)
    assert len(s.zone(1, "held")) == 6
    assert dominance(s.g, 0) == 2
    assert played_costs(s.threaten(0, LION, 1)) == [max(0, cost(LION) - 2)]


def test_D_DOM_2_only_the_seats_own_habituals_count() -> None:
    """D-DOM-2: EER: three Habituals seat 1 landed discount seat 1's cards, not seat 0's; and
    Habituals that were in hold from the start (nobody's own) count for nobody."""
    s = DuelScenario("EER", phase="main", turn_seat=2)     # both Evil seats get windows
    s.hand(0, SNARE).evil_cz(0, cost(SNARE)).hand(1, BROAD, BROAD, BROAD, SNARE).evil_cz(1, 10)
    s.deck(0, *[E_FILL] * 10).deck(1, *[E_FILL] * 10)
    s.seat(2, humility=8).held_by(2, -1, "sloth", "sloth", "sloth").hand(2, ANCHOR, *[R_FILL] * 3)
    s.deck(2, *[R_FILL] * 10)
    s.start()
    assert s.dview()["dominance"] == {"0": 0, "1": 0}
    s.land(1, 2, BROAD)
    s.land(1, 2, BROAD)
    s.land(1, 2, BROAD)
    assert s.dview()["dominance"] == {"0": 0, "1": 1}
    while s.decision() == "interrupt" and s.decider() != 0:
        s.pass_(s.decider())
    assert played_costs(s.threaten(0, SNARE, 2)) == [cost(SNARE)]


def test_D_DOM_2_the_discount_falls_as_habituals_leave_play() -> None:
    """D-DOM-2: when the target resists one of the three (in its Main phase) the discount is gone."""
    r = res(BROAD)
    s = DuelScenario("ER", phase="main", turn_seat=0)
    s.hand(0, BROAD, BROAD, BROAD, LION, LION).evil_cz(0, 12).deck(0, *[E_FILL] * 20)
    s.seat(1, humility=8).hand(1, *[R_FILL] * 3).untapped(1, r).deck(1, *[R_FILL] * 20)
    s.start()
    s.land(0, 1, BROAD, BROAD, BROAD)
    assert dominance(s.g, 0) == 1
    s.to_main_of(1)
    assert Resist(1, s.find(1, BROAD, "held"), r) in s.legal(1)
    s.resist(1, BROAD, r)
    assert dominance(s.g, 0) == 0 and s.dview()["next_discount"] == {"0": 0}
    s.expect_decision(0, "interrupt")
    assert played_costs(s.threaten(0, LION, 1)) == [cost(LION)]


def test_D_DOM_3_resistance_costs_untouched_by_discounts() -> None:
    """D-DOM-3: dominance and the chain lower what Evil pays, never what resisting takes: the
    threats are resisted at their printed R."""
    s = DuelScenario("ER", phase="main", turn_seat=0)
    s.hand(0, BROAD, BROAD, BROAD, LION, SNARE).evil_cz(0, 14).deck(0, *[E_FILL] * 20)
    s.seat(1, humility=8).hand(1, *[R_FILL] * 3).untapped(1, 12).deck(1, *[R_FILL] * 10)
    s.start()
    s.land(0, 1, BROAD, BROAD, BROAD)
    assert dominance(s.g, 0) == 1
    s.threaten(0, LION, 1)
    s.take_rewards()                                      # (the 4th play of the turn earns one)
    paid = played_costs(s.threaten(0, SNARE, 1))          # chained and dominated: C2 less
    assert paid == [max(0, cost(SNARE) - 2)]
    pending = s.g.view(1)["threats"]
    assert [(t["id"], t["resistance"], t["remaining"]) for t in pending] == [
        (LION, res(LION), res(LION)), (SNARE, res(SNARE), res(SNARE))]
    s.pass_interrupts()
    s.expect_decision(1, "answer")
    assert max(a.amount for a in s.legal(1) if isinstance(a, Resist)) == res(LION)


# =============================================================================================
# D-MR (Evil micro-rewards)


def test_D_MR_1_a_pair_of_own_habituals_in_play_earns_a_reward_and_is_then_spent() -> None:
    """D-MR-1: the second own Habitual in hold earns a reward; the pair is flagged: a third earns
    nothing, a fourth pairs with the third and earns the next."""
    s = DuelScenario("ER", phase="main", turn_seat=0, evil_interrupt=True)
    s.hand(0, BROAD, SECRET, BROAD, SECRET).evil_cz(0, 12).deck(0, *[E_FILL] * 20)
    s.seat(1, humility=8).hand(1, *[R_FILL] * 4).deck(1, *[R_FILL] * 10)
    s.start()
    assert not s.earned(s.land(0, 1, BROAD))
    assert s.count("mr_habitual_pair") == 0
    assert [e.seat for e in s.earned(s.land(0, 1, SECRET))] == [0]
    assert s.count("mr_habitual_pair") == 1
    assert s.d.flagged == set(s.zone(1, "held"))
    assert not s.earned(s.land(0, 1, BROAD))                 # one unflagged: no pair
    assert s.count("mr_habitual_pair") == 1
    s.land(0, 1, SECRET)
    assert s.count("mr_habitual_pair") == 2
    assert s.d.flagged == set(s.zone(1, "held")) and len(s.d.flagged) == 4


def test_D_MR_1_a_habitual_resisted_before_it_pairs_never_counts() -> None:
    """D-MR-1: a Habitual that took hold and was resisted before a second one came never pairs:
    the next Habitual finds no partner; only the one after that makes a pair. (All during the
    Righteous seat's turn: Evil interrupts, the seat resists the first by paying in its Main.)"""
    r = res(BROAD)
    s = DuelScenario("ER", phase="main", turn_seat=1)
    s.hand(0, BROAD, BROAD, BROAD).evil_cz(0, 3 * cost(BROAD)).deck(0, *[E_FILL] * 20)
    s.seat(1, humility=8).hand(1, ANCHOR, *[R_FILL] * 4).untapped(1, r).deck(1, *[R_FILL] * 20)
    s.start()
    first = s.land(0, 1, BROAD)
    assert s.ids(1, "held") == [BROAD] and not s.earned(first)
    s.pass_interrupts()
    s.expect_decision(1, "main")
    s.resist(1, BROAD, r)                                  # resisted before it paired
    assert s.ids(1, "held") == [] and s.pile("resisted") == [BROAD]
    second = s.land(0, 1, BROAD)
    assert s.ids(1, "held") == [BROAD]
    assert s.count("mr_habitual_pair") == 0 and not s.earned(second)
    third = s.land(0, 1, BROAD)
    assert s.count("mr_habitual_pair") == 1
    assert [e.seat for e in s.earned(third)] == [0]


def test_D_MR_1_pairs_count_only_the_seats_own_habituals() -> None:
    """D-MR-1: EER: seat 0's Habitual in hold and seat 1's Habitual taking hold make no pair (each
    seat's own Habituals only); seat 1's second one does."""
    s = DuelScenario("EER", phase="main", turn_seat=2)
    s.hand(0, BROAD).evil_cz(0, cost(BROAD)).hand(1, BROAD, BROAD).evil_cz(1, 2 * cost(BROAD))
    s.deck(0, *[E_FILL] * 8).deck(1, *[E_FILL] * 8)
    s.seat(2, humility=8).hand(2, ANCHOR, *[R_FILL] * 3).deck(2, *[R_FILL] * 8)
    s.start()
    s.land(0, 2, BROAD)
    s.land(1, 2, BROAD)
    assert len(s.zone(2, "held")) == 2 and s.count("mr_habitual_pair") == 0
    ev = s.land(1, 2, BROAD)
    assert s.count("mr_habitual_pair") == 1
    assert [e.seat for e in s.earned(ev)] == [1]


def test_D_MR_2_every_fourth_play_of_a_seat_in_a_turn_earns_resisted_or_not() -> None:
    """D-MR-2: the 4th card a seat plays in a turn earns a reward at once, though every one of
    them is then resisted; the 8th earns the next (and, a lone Evil seat, the same-turn bonus)."""
    s = DuelScenario("ER", phase="main", turn_seat=0)
    s.hand(0, *[LEAVEN, IDLE] * 4).evil_cz(0, 8).deck(0, *[E_FILL] * 20)
    s.hand(1, R_FILL).untapped(1, 4 * (res(LEAVEN) + res(IDLE)))
    s.start()
    for burst in range(2):
        for k, c in enumerate([LEAVEN, IDLE, LEAVEN, IDLE]):
            ev = s.threaten(0, c, 1)
            assert bool(s.earned(ev)) == (k == 3), (burst, k)
            s.take_rewards()
        s.pass_interrupts()
        while s.decision() in ("answer", "reward"):
            if s.decision() == "reward":
                s.take_rewards()
            else:
                t = s.st.threats[0]
                s.do(Resist(1, t.uid, remaining(s.g, t)))
    assert s.pile("failed") == [] and len(s.pile("resisted")) == 8
    assert s.count("mr_four_plays") == 2
    evil = [e for e in s.earned() if e.seat == 0]
    assert [e.data["bonus"] for e in evil] == [False, False, True]


def test_D_MR_3_three_failed_temptations_in_a_turn_reward_the_seat_that_played_the_third() -> None:
    """D-MR-3: EER: seat 0 plays two Temptations and seat 1 a third; all three fail: seat 1, whose
    Temptation was the third to fail, earns the reward (the seats counted together)."""
    s = DuelScenario("EER", phase="main", turn_seat=0)
    s.hand(0, LEAVEN, IDLE).evil_cz(0, cost(LEAVEN, IDLE)).hand(1, SNARE).evil_cz(1, cost(SNARE))
    s.deck(0, *[E_FILL] * 8).deck(1, *[E_FILL] * 8)
    s.seat(2, humility=6).hand(2, *[R_FILL] * 4).untapped(2, 1).deck(2, *[R_FILL] * 8)
    s.start()
    s.pass_interrupts()
    s.threaten(0, LEAVEN, 2)
    s.pass_(1)
    s.threaten(0, IDLE, 2)                                # seat 0 again: full price, no finale
    assert s.d.finale == {}
    s.threaten(1, SNARE, 2)                               # the partner extends: C1 less, not free
    assert s.d.finale == {}
    ev = s.answer_all(2)
    assert s.pile("failed") == [LEAVEN, IDLE, SNARE]
    assert s.count("mr_three_failed") == 1
    assert [(e.seat, e.data["bonus"]) for e in s.earned(ev)] == [(1, False)]   # one earner: no bonus


def test_D_MR_3_every_third_failed_temptation_of_the_turn_earns_again() -> None:
    """D-MR-3: six Temptations fail in one turn: the 3rd and the 6th earn (ERR, aimed at the two
    seats in turn, so that no chain finale gets in the way)."""
    s = DuelScenario("ERR", phase="main", turn_seat=0)
    s.hand(0, *[LEAVEN, IDLE] * 3).evil_cz(0, 3 * cost(LEAVEN)).deck(0, *[E_FILL] * 12)
    for r in (1, 2):
        s.seat(r, humility=6).hand(r, *[R_FILL] * 5).deck(r, *[R_FILL] * 8)
    s.start()
    for k, c in enumerate([LEAVEN, IDLE] * 3):
        s.threaten(0, c, 1 + k % 2)
        s.take_rewards()
    assert s.d.finale == {}
    s.answer_all(1)
    assert len(s.pile("failed")) == 6
    assert s.count("mr_three_failed") == 2 and s.count("mr_four_plays") == 1


def test_D_MR_3_a_habitual_taking_hold_is_not_a_failed_temptation() -> None:
    """D-MR-3: two Temptations and a Habitual get through: no reward (Habituals are not counted)."""
    s = DuelScenario("ER", phase="main", turn_seat=0)
    s.hand(0, SNARE, BROAD, SNARE).evil_cz(0, 6).deck(0, *[E_FILL] * 8)
    s.seat(1, humility=6).hand(1, *[R_FILL] * 4).deck(1, *[R_FILL] * 8)
    s.start()
    s.land(0, 1, SNARE)
    s.land(0, 1, BROAD)
    s.land(0, 1, SNARE)
    assert s.pile("failed") == [SNARE, SNARE] and s.ids(1, "held") == [BROAD]
    assert s.count("mr_three_failed") == 0 and not s.earned()


def finale_scenario(lineup: str = "ER", **settings: object) -> DuelScenario:
    s = DuelScenario(lineup, phase="main", turn_seat=0, **settings)
    for i, ch in enumerate(lineup):
        if ch == "E":
            s.hand(i, LEAVEN, IDLE).evil_cz(i, 2).deck(i, *[E_FILL] * 8)
        else:
            s.seat(i, humility=6).hand(i, *[R_FILL] * 4).untapped(i, 3).deck(i, *[R_FILL] * 8)
    return s


def test_D_MR_4_a_chain_carried_down_to_a_free_finale_that_gets_through_earns_a_reward() -> None:
    """D-MR-4: a lone Evil seat chains a C1 card into another C1 card, which lands free: that is the
    finale; the target lets it through and the seat earns a reward."""
    s = finale_scenario()
    s.start()
    s.threaten(0, LEAVEN, 1)
    ev = s.threaten(0, IDLE, 1)
    assert played_costs(ev) == [0]
    assert [t["finale"] for t in s.g.view(1)["threats"]] == [False, True]
    s.answer_all(1)
    assert s.count("mr_finale") == 1
    assert [e.seat for e in s.earned()] == [0]


def test_D_MR_4_a_resisted_finale_earns_nothing() -> None:
    """D-MR-4: the target resists the free finale (and takes the other): no reward."""
    s = finale_scenario()
    s.start()
    s.threaten(0, LEAVEN, 1)
    s.threaten(0, IDLE, 1)
    s.pass_interrupts()
    s.take_hit(1)
    s.resist(1, IDLE, res(IDLE))
    assert s.pile("resisted") == [IDLE] and s.pile("failed") == [LEAVEN]
    assert s.count("mr_finale") == 0 and not s.earned()


def test_D_MR_4_a_chain_aimed_at_two_targets_earns_no_finale() -> None:
    """D-MR-4: ERR: the chain's first card at seat 1 and its free last card at seat 2: not a
    finale (a chain must stay on one target), though both get through."""
    s = finale_scenario("ERR")
    s.start()
    s.threaten(0, LEAVEN, 1)
    ev = s.threaten(0, IDLE, 2)
    assert played_costs(ev) == [0]                       # still the chain's discount
    assert s.d.finale == {} and not any(t["finale"] for t in s.g.view(None)["threats"])
    s.pass_interrupts()
    s.take_hit(1)
    s.take_hit(2)
    assert s.pile("failed") == [LEAVEN, IDLE]
    assert s.count("mr_finale") == 0 and not s.earned()


def test_D_MR_4_every_evil_seat_that_played_into_the_chain_earns() -> None:
    """D-MR-4 with D-MR-7: EER: seat 0 starts the chain, its partner lands the free finale; both
    earn a reward, and as two seats earned this turn each gets one extra."""
    s = finale_scenario("EER")
    s.start()
    s.pass_interrupts()
    s.threaten(0, LEAVEN, 2)
    s.expect_decision(1, "interrupt")
    assert played_costs(s.threaten(1, IDLE, 2)) == [0]
    s.answer_all(2)
    assert s.count("mr_finale") == 1
    assert [(e.seat, e.data["bonus"]) for e in s.earned()] == [(0, False), (1, False), (0, True), (1, True)]


def five_rewards(lineup: str, habitual: bool = True, rules: int | None = None, **settings: object) -> DuelScenario:
    """A turn that earns five micro-rewards or more: (ER) seat 0 plays L, I, L, I at the Righteous
    seat; (EER) seats 0 and 1 alternate. The rewards up to the 5th are taken as "draw"."""
    s = DuelScenario(lineup, phase="main", turn_seat=0, rules=rules, **settings)
    r = lineup.index("R")
    for i, ch in enumerate(lineup):
        if ch == "E":
            s.hand(i, LEAVEN, IDLE, LEAVEN, IDLE).evil_cz(i, 4).deck(i, *[E_FILL] * 12)
    s.seat(r, humility=6).hand(r, *[R_FILL] * 6).deck(r, *[R_FILL] * 8)
    if habitual:
        s.in_play(r, "upon-the-watchtower")
    s.untapped(r, 2)                                      # so that the target answers each one itself
    s.start()
    order = [0, 0, 0, 0] if lineup == "ER" else [0, 1, 0, 1]
    for seat, c in zip(order, [LEAVEN, IDLE, LEAVEN, IDLE]):
        while s.decision() == "interrupt" and s.decider() != seat:
            s.pass_(s.decider())
        s.threaten(seat, c, r)
        while s.decision() == "reward":
            assert s.reward_kind() == "evil"
            s.reward(s.decider(), "draw")
    s.pass_interrupts()
    while s.d.rewards < 5 or s.reward_kind() not in ("special", None):
        if s.decision() == "answer":
            s.take_hit(r)
        elif s.decision() == "reward" and s.reward_kind() == "evil":
            assert "destroy" not in {a.reward for a in s.rewards(s.decider())}
            s.reward(s.decider(), "draw")
        else:
            break
    return s


def test_D_MR_5_the_fifth_reward_of_a_turn_offers_destroy() -> None:
    """D-MR-5: rewards 1-4 of the turn offer draw / untap / flip; the 5th (counting bonuses) also
    offers Destroy a Righteous Habitual; Destroy removes the chosen one from play (DECISION: to
    its owner's discard pile)."""
    s = five_rewards("ER")
    assert s.d.rewards >= 5
    s.expect_decision(0, "reward")
    assert s.reward_kind() == "special"
    assert {a.reward for a in s.rewards(0)} == {"draw", "untap", "flip", "destroy"}
    s.reward(0, "destroy")
    s.expect_decision(0, "destroy")
    s.choose(0, "upon-the-watchtower")
    assert s.ids(1, "in_play") == [] and "upon-the-watchtower" in s.ids(1, "discard")
    assert [e.card for e in s.of_kind("destroyed")] == ["upon-the-watchtower"]


def test_D_MR_5_destroy_takes_a_habitual_from_a_righteous_hand_when_none_is_in_play() -> None:
    """D-MR-5: with no Righteous Habitual in play, Destroy takes one from a Righteous hand
    (DECISION: at random, without a choice)."""
    s = special_reward_with_habitual_in_hand()
    assert "first-fruits" in s.ids(1, "hand")
    assert "destroy" in {a.reward for a in s.rewards(0)}
    s.reward(0, "destroy")
    assert "first-fruits" not in s.ids(1, "hand") and "first-fruits" in s.ids(1, "discard")
    assert s.decision() != "destroy"


def test_D_MR_5_rules_1_offered_no_destroy_without_a_righteous_habitual() -> None:
    """D-MR-5 under rules 1 (kept for old records): with no Righteous Habitual in play or in hand
    the 5th reward offered no Destroy."""
    s = five_rewards("ER", habitual=False, rules=1)
    s.expect_decision(0, "reward")
    assert s.reward_kind() == "special"
    assert {a.reward for a in s.rewards(0)} == {"draw", "untap", "flip"}


def test_D_MR_5_destroy_is_offered_on_every_fifth_reward_and_may_do_nothing() -> None:
    """D-MR-5 (rules 2): Destroy is offered on every 5th reward, whatever the Righteous hands hold,
    so the offer tells the Evil player nothing about them; with nothing to destroy anywhere it
    does nothing and an event says so."""
    s = five_rewards("ER", habitual=False)
    s.expect_decision(0, "reward")
    assert s.reward_kind() == "special"
    assert {a.reward for a in s.rewards(0)} == {"draw", "untap", "flip", "destroy"}
    before = (s.ids(1, "hand"), s.ids(1, "discard"), s.ids(1, "in_play"))
    s.reward(0, "destroy")
    assert (s.ids(1, "hand"), s.ids(1, "discard"), s.ids(1, "in_play")) == before
    assert [e.seat for e in s.of_kind("destroyed_nothing")] == [0] and not s.of_kind("destroyed")


@pytest.mark.parametrize("reward", ["draw", "untap", "flip"])
def test_D_MR_5_draw_untap_and_flip(reward: str) -> None:
    """D-MR-5: draw 2 cards; untap 2 Cost Zone cards; flip 2 random Cost Zone cards face up (they
    carry the play-replace-spent flag and every seat sees them)."""
    s = finale_scenario()
    s.evil_cz(0, 0, tapped=3)
    s.start()
    s.threaten(0, LEAVEN, 1)
    s.threaten(0, IDLE, 1)
    s.pass_interrupts()
    s.take_hit(1)
    s.take_hit(1)
    s.expect_decision(0, "reward")
    hand, tapped = len(s.zone(0, "hand")), s.tapped(0)
    s.reward(0, reward)
    if reward == "draw":
        assert len(s.zone(0, "hand")) == hand + 2
    elif reward == "untap":
        assert s.tapped(0) == tapped - 2
    else:
        up = [u for u in s.zone(0, "cost_zone") if u in s.st.face_up]
        assert len(up) == 2
        assert sorted(s.dview()["replace_spent"]) == sorted(up)
        for viewer in (None, 0, 1):
            shown = [c for c in s.g.view(viewer)["seats"][0]["cost_zone"] if c["face_up"]]
            assert sorted(c["uid"] for c in shown) == sorted(up)
        assert sorted(e.uid for e in s.of_kind("flipped")) == sorted(up)


def test_D_MR_5_and_Z6_a_flipped_card_played_draws_a_spent_replacement() -> None:
    """D-MR-5 / Z-6 play-replace-spent: a Cost Zone card flipped by a reward can be played from the
    Cost Zone; when it is, the top card of its owner's deck goes into the Cost Zone, tapped."""
    s = DuelScenario("ER", phase="main", turn_seat=0)
    s.hand(0, LEAVEN, IDLE, SNARE).cost_zone(0, LEAVEN, LEAVEN, LEAVEN, LEAVEN).deck(0, IDLE, *[E_FILL] * 6)
    s.seat(1, humility=6).hand(1, *[R_FILL] * 4).untapped(1, 3).deck(1, *[R_FILL] * 8)
    s.start()
    s.threaten(0, LEAVEN, 1)
    s.threaten(0, IDLE, 1)
    s.answer_all(1, pick="flip")
    up = [u for u in s.zone(0, "cost_zone") if u in s.st.face_up]
    assert len(up) == 2 and set(up) == set(s.d.replace_spent)
    s.expect_decision(0, "main")
    card_uid = up[0]
    assert PlayCard(0, card_uid, None, 1) in s.legal(0)     # playable from the Cost Zone
    cz_before = len(s.zone(0, "cost_zone"))
    ev = s.do(PlayCard(0, card_uid, None, 1))
    assert card_uid not in s.zone(0, "cost_zone")
    assert [e.kind for e in ev].count("replaced") == 1
    new = s.zone(0, "cost_zone")[-1]
    assert s.g.defs[new].id == IDLE                          # the top of the deck
    assert new in s.st.tapped and new not in s.st.face_up   # spent: tapped, face down
    assert len(s.zone(0, "cost_zone")) == cz_before
    assert card_uid not in s.d.replace_spent


def test_Z6_face_up_cost_zone_cards_still_pay_cost() -> None:
    """Z-6: a face-up Cost Zone card can still be rotated for Cost (DECISION: face-down cards are
    rotated first, then face-up ones)."""
    s = DuelScenario("ER", phase="main", turn_seat=0)
    s.hand(0, SNARE).cost_zone(0, LEAVEN, LEAVEN, face_up=True).cost_zone(0, E_FILL)
    s.hand(1, R_FILL).untapped(1, 1)
    s.start()
    assert s.threat_action(0, SNARE, 1) in s.legal(0)
    s.threaten(0, SNARE, 1)
    assert s.tapped(0) == cost(SNARE)
    assert s.zone(0, "cost_zone")[-1] in s.st.tapped       # the face-down one went first


def test_D_MR_6_the_special_reward_may_go_to_an_allied_evil_seat() -> None:
    """D-MR-6: on the 5th reward of the turn the seat may direct Draw / Untap / Flip to its
    partner (engine reading: that reward itself); ordinary rewards have no such option."""
    s = five_rewards("EER")
    s.expect_decision(0, "reward")
    assert s.reward_kind() == "special"
    directed = {(a.reward, a.to_seat) for a in s.rewards(0) if a.to_seat is not None}
    assert directed == {("draw", 1), ("untap", 1), ("flip", 1)}
    mine, partner = len(s.zone(0, "hand")), len(s.zone(1, "hand"))
    s.reward(0, "draw", to_seat=1)
    assert (len(s.zone(0, "hand")), len(s.zone(1, "hand"))) == (mine, partner + 2)
    # the next ones are ordinary again
    while s.decision() == "reward":
        assert all(a.to_seat is None for a in s.rewards(s.decider()))
        s.reward(s.decider(), "draw")


def test_D_MR_7_lone_evil_seat_one_extra_reward_per_two_earned() -> None:
    """D-MR-7: a lone Evil seat that earns 4 rewards in a turn gets 2 extra (one per 2 earned)."""
    s = five_rewards("ER")
    s.take_rewards()
    s.answer_all(1)
    earned = [e for e in s.earned() if e.seat == 0]
    assert [e.data["bonus"] for e in earned].count(False) == 4
    assert [e.data["bonus"] for e in earned].count(True) == 2
    assert s.count("mr_same_turn_bonus") == 2 and len(earned) == 6


def test_D_MR_7_several_evil_seats_each_earner_gets_one_extra() -> None:
    """D-MR-7: EER: once 2 seats have each earned a reward this turn, every earner gets 1 extra
    (engine reading: once per seat per turn, however many it then earns)."""
    s = five_rewards("EER")
    s.take_rewards()
    s.answer_all(2)
    by_seat = {seat: [e.data["bonus"] for e in s.earned() if e.seat == seat] for seat in (0, 1)}
    assert by_seat[0].count(True) == 1 and by_seat[1].count(True) == 1
    assert by_seat[0].count(False) == 3 and by_seat[1].count(False) == 2
    assert len(s.earned()) == 7


def test_D_MR_7_same_turn_bonus_counts_per_turn() -> None:
    """D-MR-7: a reward earned on one turn and another on the next make no pair for the bonus."""
    s = finale_scenario()
    s.hand(0, LEAVEN, IDLE).evil_cz(0, 2).hand(1, ANCHOR)
    s.start()
    s.threaten(0, LEAVEN, 1)
    s.threaten(0, IDLE, 1)
    s.answer_all(1)
    assert [e.data["bonus"] for e in s.earned()] == [False]
    s.to_turn_of(1)
    s.to_turn_of(0)
    s.pass_(0)
    s.threaten(0, LEAVEN, 1)
    s.threaten(0, IDLE, 1)
    s.answer_all(1)
    assert [e.data["bonus"] for e in s.earned()] == [False, False]


# =============================================================================================
# D-MB (Righteous micro-boosts)


def play_zero(s: DuelScenario, seat: int) -> list:
    ev = s.play(seat, ZERO)
    while s.decision() == "respond":
        ev += s.pass_(s.decider())
    return ev


def test_D_MB_1_every_3_plus_righteous_seats_cards_in_a_phase_earn_a_boost() -> None:
    """D-MB-1: ER: the 4th card the Righteous side plays in one phase earns a boost."""
    s = DuelScenario("ER", phase="main", turn_seat=1)
    s.hand(1, *[ZERO] * 5, ANCHOR).untapped(1, 2).deck(1, *[R_FILL] * 10)
    s.start()
    assert s.dview()["boost_every"] == 4
    for k in range(4):
        ev = play_zero(s, 1)
        assert bool([e for e in ev if e.kind == "boost_earned"]) == (k == 3)
    s.expect_decision(1, "reward")
    assert s.reward_kind() == "righteous"
    assert s.dview()["phase_plays"] == 4


def test_D_MB_1_all_righteous_seats_count_together() -> None:
    """D-MB-1: ERR: 3 + 2 = 5 cards: seat 1 plays 4 in its Main phase and seat 2 a 5th in response
    (the same phase): seat 2's card earns the boost."""
    s = DuelScenario("ERR", phase="main", turn_seat=1)
    s.hand(1, *[ZERO] * 4, ANCHOR).untapped(1, 2).deck(1, *[R_FILL] * 10)
    s.hand(2, ZERO).untapped(2, 1).deck(2, *[R_FILL] * 4)
    s.start()
    assert s.dview()["boost_every"] == 5
    for _ in range(3):
        s.play(1, ZERO)
        s.pass_while(1, "respond")
        s.expect_decision(2, "respond")
        s.pass_(2)
    s.play(1, ZERO)                                        # seat 1's 4th: seat 1 has no Instant left
    s.expect_decision(2, "respond")
    ev = s.play(2, ZERO)
    assert [e.seat for e in ev if e.kind == "boost_earned"] == [2]
    s.expect_decision(2, "reward")


def test_D_MB_1_only_played_cards_count() -> None:
    """D-MB-1: using a Maturity Ability or paying a boost is not a played card."""
    s = DuelScenario("ERR", phase="main", turn_seat=1).abilities("brotherly_love")
    s.hand(1, "loaves-and-fishes", ANCHOR).untapped(1, cost("loaves-and-fishes") + 1).deck(1, *[R_FILL] * 10)
    s.hand(2, R_FILL)
    s.start()
    s.use(1, "brotherly_love", to_seat=2)
    assert s.dview()["phase_plays"] == 0
    s.play(1, "loaves-and-fishes")
    s.expect_decision(1, "boost")
    s.boost(1, 0)
    s.settle()
    assert s.of_kind("boost_taken")
    assert s.dview()["phase_plays"] == 1


def test_D_MB_1_the_tally_resets_at_the_start_of_each_phase() -> None:
    """D-MB-1: a card played after the Cost Zone phase (Speed) and three in Main: no boost, the
    Main phase counts 3; its 4th earns it."""
    s = DuelScenario("ER", phase="cost_zone", turn_seat=1).abilities("speed")
    s.hand(1, "first-fruits", *[ZERO] * 4).untapped(1, cost("first-fruits")).deck(1, *[R_FILL] * 10)
    s.start()
    s.pass_(1)                                             # lay nothing
    s.expect_decision(1, "after_lay")
    s.play(1, "first-fruits")                              # Speed: a Habitual outside Main
    s.settle()
    assert s.dview()["phase_plays"] == 1
    s.expect_decision(1, "main")                           # (nothing else to do after laying)
    for k in range(4):
        ev = play_zero(s, 1)
        assert bool([e for e in ev if e.kind == "boost_earned"]) == (k == 3), k
    assert s.dview()["phase_plays"] == 4


def streak_scenario(*threats: str, humility: int = 6) -> DuelScenario:
    s = DuelScenario("ER", phase="main", turn_seat=0)
    s.hand(0, *threats).evil_cz(0, sum(cost(t) for t in threats)).deck(0, *[E_FILL] * 10)
    s.seat(1, humility=humility).hand(1, *[R_FILL] * 4).untapped(1, sum(res(t) for t in threats) + 1)
    s.deck(1, *[R_FILL] * 10)
    s.start()
    for t in threats:
        s.threaten(0, t, 1)
        s.take_rewards()
    s.pass_interrupts()
    return s


def answer(s: DuelScenario, resist: bool) -> None:
    s.expect_decision(1, "answer")
    t = s.st.threats[0]
    if resist:
        s.do(Resist(1, t.uid, remaining(s.g, t)))
    else:
        s.pass_(1)


def test_D_MB_2_three_resisted_in_a_turn_with_none_failed_earn_a_boost() -> None:
    """D-MB-2: the target resists 3 threats in one turn (by rotating): a boost."""
    s = streak_scenario(LEAVEN, IDLE, LEAVEN)
    answer(s, True)
    answer(s, True)
    assert not s.of_kind("boost_earned")
    answer(s, True)
    assert [e.seat for e in s.of_kind("boost_earned")] == [1]
    s.expect_decision(1, "reward")


def test_D_MB_2_a_failed_temptation_voids_the_streak_for_the_rest_of_the_turn() -> None:
    """D-MB-2: a Temptation failed first, then 3 resisted: no boost this turn."""
    s = streak_scenario(LEAVEN, IDLE, LEAVEN, IDLE)
    answer(s, False)
    for _ in range(3):
        answer(s, True)
    assert not s.of_kind("boost_earned") and s.count("mb_clean_streak") == 0


def test_D_MB_2_a_habitual_taking_hold_does_not_void_the_streak() -> None:
    """D-MB-2: only a failed Temptation voids it: an Evil Habitual that takes hold does not."""
    s = streak_scenario(BROAD, LEAVEN, IDLE, LEAVEN)
    answer(s, False)
    assert s.ids(1, "held") == [BROAD]
    for _ in range(3):
        answer(s, True)
    assert [e.seat for e in s.of_kind("boost_earned")] == [1]


def test_D_MB_2_a_resistance_card_and_deliverance_count() -> None:
    """D-MB-2: by any means: a Resistance card, rotating, and breaking a Habitual with an ability
    (Deliverance) all count: 3 in the Righteous seat's own turn earn the boost."""
    s = DuelScenario("ER", phase="main", turn_seat=1).abilities("deliverance")
    s.hand(0, LEAVEN, LEAVEN).evil_cz(0, 2).deck(0, *[E_FILL] * 6)
    s.seat(1, humility=6).held_by(1, 0, BROAD).hand(1, "shield-of-faith", R_FILL)
    s.untapped(1, res(LEAVEN) + cost("shield-of-faith")).deck(1, *[R_FILL] * 10)
    s.start()
    s.threaten(0, LEAVEN, 1)
    s.pass_interrupts()
    s.play(1, "shield-of-faith", threat=LEAVEN)            # 1: a Resistance card
    s.settle()
    s.threaten(0, LEAVEN, 1)
    s.pass_interrupts()
    s.resist(1, LEAVEN, res(LEAVEN))                       # 2: rotating
    s.pass_interrupts()
    assert not s.of_kind("boost_earned")
    s.expect_decision(1, "main")
    s.use(1, "deliverance")
    s.choose(1, BROAD)                                     # 3: Deliverance
    assert s.pile("resisted") == [LEAVEN, LEAVEN, BROAD]
    assert [e.seat for e in s.of_kind("boost_earned")] == [1]


def test_D_MB_2_paying_to_resist_a_held_habitual_counts() -> None:
    """D-MB-2: "by any means": resisting an Evil Habitual that holds you by paying its resistance
    (tapping Cost) in your Main phase is resisting it; with 2 threats resisted before, it is the
    3rd of the turn and earns the boost."""
    s = DuelScenario("ER", phase="main", turn_seat=1)
    s.hand(0, LEAVEN, LEAVEN).evil_cz(0, 2).deck(0, *[E_FILL] * 6)
    s.seat(1, humility=6).held_by(1, 0, BROAD).hand(1, ANCHOR, R_FILL)
    s.untapped(1, 2 * res(LEAVEN) + res(BROAD)).deck(1, *[R_FILL] * 10)
    s.start()
    for _ in range(2):
        s.threaten(0, LEAVEN, 1)
        s.pass_interrupts()
        s.resist(1, LEAVEN, res(LEAVEN))
    s.pass_interrupts()
    s.expect_decision(1, "main")
    s.resist(1, BROAD, res(BROAD))
    assert s.pile("resisted") == [LEAVEN, LEAVEN, BROAD]
    assert [e.seat for e in s.of_kind("boost_earned")] == [1]


def test_D_MB_2_the_streak_is_counted_per_turn() -> None:
    """D-MB-2: two resisted on the Evil turn and one on the next turn make no streak."""
    s = streak_scenario(LEAVEN, IDLE)
    s.hand(1, ANCHOR)
    answer(s, True)
    answer(s, True)
    s.to_turn_of(1)
    s.pass_(1)
    s.pass_interrupts()
    assert s.dview()["streaks"] == [0, 0]


@pytest.mark.parametrize("boost,to_seat", [("draw", 1), ("draw", 2), ("humility", 1), ("humility", 2)])
def test_D_MB_3_a_boost_is_draw_2_or_humility_1_for_any_righteous_seat(boost: str, to_seat: int) -> None:
    """D-MB-3: each boost is Draw 2 or +1 Humility, and may go to any Righteous seat (ERR)."""
    s = DuelScenario("ERR", phase="main", turn_seat=1)
    s.hand(1, *[ZERO] * 6, ANCHOR).untapped(1, 2).deck(1, *[R_FILL] * 10).deck(2, *[R_FILL] * 4)
    s.start()
    for _ in range(5):
        play_zero(s, 1)
    s.expect_decision(1, "reward")
    assert set(s.rewards(1)) == {ChooseReward(1, r, t) for r in ("draw", "humility") for t in (1, 2)}
    before = (s.humility(to_seat), len(s.zone(to_seat, "hand")))
    other = 3 - to_seat
    other_before = (s.humility(other), len(s.zone(other, "hand")))
    s.reward(1, boost, to_seat)
    after = (s.humility(to_seat), len(s.zone(to_seat, "hand")))
    assert after == ((before[0] + 1, before[1]) if boost == "humility" else (before[0], before[1] + 2))
    assert (s.humility(other), len(s.zone(other, "hand"))) == other_before


def test_D_MB_3_evil_seats_cannot_take_a_boost() -> None:
    """D-MB-3: a boost goes to Righteous seats only (never an Evil seat, never an Evil reward)."""
    s = DuelScenario("EER", phase="main", turn_seat=2)
    s.hand(2, *[ZERO] * 4, ANCHOR).untapped(2, 2).deck(2, *[R_FILL] * 10)
    s.start()
    for _ in range(4):
        play_zero(s, 2)
    s.expect_decision(2, "reward")
    assert {(a.reward, a.to_seat) for a in s.rewards(2)} == {("draw", 2), ("humility", 2)}
    with pytest.raises(IllegalAction):
        s.g.apply(ChooseReward(2, "draw", 0))
    with pytest.raises(IllegalAction):
        s.g.apply(ChooseReward(2, "untap", 2))


# =============================================================================================
# D-W-R, D-W-E


def turn_starts(s: DuelScenario) -> list[tuple[int, int]]:
    return [(e.seat, e.data["turn"]) for e in s.of_kind("turn_started")]


def test_D_W_R_every_seat_at_L3_with_no_habitual_for_a_full_round_wins() -> None:
    """D-W-R: L3 and a clear board arm the win; it is won when the seat's next turn starts with the
    board still clean (not before: the Evil turn in between is the rest of the round)."""
    s = DuelScenario("ER", phase="main", turn_seat=1)
    s.seat(1, maturity=3).hand(1, ANCHOR).deck(1, *[R_FILL] * 8)
    s.start()
    assert s.dview()["righteous_clock"] == {"seat": 1, "armed_turn": 1}
    assert [e for e in s.of_kind("clean_round")]
    s.pass_turn(1)
    assert s.g.turn_seat == 0 and s.g.result is None       # the Evil turn is played
    s.pass_turn(0)
    assert s.g.result is not None and s.g.result.winner == "righteous"
    assert s.g.view(None)["result"]["winner"] == "righteous"


def test_D_W_R_not_armed_unless_every_righteous_seat_is_at_L3() -> None:
    """D-W-R: ERR with one seat at L3 and one at L2: no clock, no win, however long."""
    s = DuelScenario("ERR", phase="main", turn_seat=1)
    s.seat(1, maturity=3).seat(2, maturity=2).hand(1, ANCHOR)
    s.deck(1, *[R_FILL] * 8).deck(2, *[R_FILL] * 8).deck(0, *[E_FILL] * 8)
    s.start()
    assert s.dview()["righteous_clock"] is None
    for seat in (1, 2, 0, 1, 2):
        s.pass_turn(seat)
    assert s.g.result is None


def test_D_W_R_a_habitual_entering_play_during_the_round_restarts_it() -> None:
    """D-W-R: armed on seat 1's turn; on the Evil turn a Habitual takes hold; so at seat 1's next
    turn there is no win; it resists the Habitual in its Main phase, which arms a fresh round,
    and the win comes one full round later."""
    r = res(BROAD)
    s = DuelScenario("ER", phase="main", turn_seat=1)
    s.hand(0, E_FILL).deck(0, BROAD, *[E_FILL] * 8).evil_cz(0, cost(BROAD))
    s.seat(1, maturity=3, humility=5).hand(1, ANCHOR).untapped(1, r).deck(1, *[R_FILL] * 8)
    s.start()
    s.pass_turn(1)
    assert s.g.turn_seat == 0
    s.pass_(0)                                             # lay nothing; BROAD was drawn
    s.expect_decision(0, "main")
    s.threaten(0, BROAD, 1)
    s.pass_interrupts()
    s.take_hit(1)
    assert s.dview()["righteous_clock"] is None
    s.pass_turn(0)
    assert s.g.result is None and s.g.turn_seat == 1       # no win: the round was not clean
    s.pass_(1)
    s.expect_decision(1, "main")
    s.resist(1, BROAD, r)
    assert s.dview()["righteous_clock"]["armed_turn"] == s.st.turn_no
    s.pass_turn(1)
    s.pass_turn(0)
    assert s.g.result is not None and s.g.result.winner == "righteous"
    # judged as seat 1's third turn starts (one full round after the fresh count)
    assert [seat for seat, _ in turn_starts(s)] == [0, 1, 0] and s.g.turn_seat == 1


def test_D_W_R_a_habitual_that_enters_and_leaves_within_the_round_still_restarts_it() -> None:
    """D-W-R: ERR: armed on seat 1's turn; on seat 2's turn Evil lands a Habitual on seat 1 and seat
    2 breaks it at once (Deliverance), so the board is clean again before the round is over; yet
    the count restarted: no win at seat 1's next turn, the win comes at seat 2's (a full round
    after the Habitual left)."""
    s = DuelScenario("ERR", phase="main", turn_seat=1).abilities("deliverance")
    s.hand(0, BROAD).evil_cz(0, cost(BROAD)).deck(0, *[E_FILL] * 8)
    s.seat(1, maturity=3, humility=5).hand(1, ANCHOR).deck(1, *[R_FILL] * 8)
    s.seat(2, maturity=3, humility=5).hand(2, ANCHOR).deck(2, *[R_FILL] * 8)
    s.start()
    s.pass_interrupts()
    assert s.dview()["righteous_clock"]["seat"] == 1
    s.pass_turn(1, interrupts=True)
    assert s.g.turn_seat == 2
    s.pass_interrupts()                                    # (rules 2) Evil declines before the laying
    s.pass_(2)                                             # lay nothing
    s.expect_decision(0, "interrupt")
    s.threaten(0, BROAD, 1)
    s.pass_interrupts()
    assert s.decision() != "answer" or s.take_hit(1) is not None
    assert s.ids(1, "held") == [BROAD]
    assert s.dview()["righteous_clock"] is None
    s.expect_decision(2, "after_lay")                      # (seat 2 may use it right away)
    s.use(2, "deliverance")
    s.choose(2, BROAD)
    s.pass_while(2, "deliverance")
    assert s.g.evil_habituals_in_play() == 0
    assert s.dview()["righteous_clock"]["seat"] == 2       # a fresh count, from seat 2's turn
    s.pass_turn(2)
    s.pass_turn(0)
    assert s.g.result is None and s.g.turn_seat == 1       # seat 1's turn: not yet a full round
    s.pass_turn(1)
    assert s.g.result is not None and s.g.result.winner == "righteous"


def test_D_W_R_has_no_round_limit() -> None:
    """D-W-R: "take as long as you need": a duel has no round limit; round 12 is still play."""
    s = DuelScenario("ER", phase="main", turn_seat=1, round=11)
    s.hand(1, ANCHOR).deck(1, *[R_FILL] * 30).deck(0, *[E_FILL] * 30)
    s.start()
    assert s.g.view(None)["max_rounds"] is None
    for _ in range(6):
        s.pass_turn(s.g.turn_seat)
    assert s.g.result is None and s.g.round >= 13


def seven_held(lineup: str = "ER", n: int = 7, field: int = 0, r_cost: int = 0, seat: int | None = None,
               turn_seat: int = 0, **settings: object) -> DuelScenario:
    s = DuelScenario(lineup, phase="main", turn_seat=turn_seat, **settings)
    target = lineup.index("R") if seat is None else seat
    s.held_by(target, 0, *[BROAD] * (n - field)).set(field=[BROAD] * field)
    for i, ch in enumerate(lineup):
        if ch == "E":
            s.deck(i, *[E_FILL] * 10)
        else:
            s.hand(i, ANCHOR).deck(i, *[R_FILL] * 10)
    s.untapped(target, r_cost)
    s.seat(target, humility=8)
    return s


def test_D_W_E_seven_habituals_held_for_a_full_round_win() -> None:
    """D-W-E: ER: 7 Evil Habituals in play arm Evil's count; the Righteous side gets its next turn
    to bring them below 7; it does not, and Evil wins as its next turn starts."""
    s = seven_held()
    s.start()
    assert s.dview()["evil_clock"]["limit"] == 7 and s.dview()["evil_clock"]["in_play"] == 7
    s.pass_turn(0)
    assert s.g.result is None and s.g.turn_seat == 1       # the Righteous turn is played
    s.pass_turn(1)
    assert s.g.result is not None and s.g.result.winner == "evil"


def test_D_W_E_averted_when_the_righteous_side_brings_it_below_the_limit() -> None:
    """D-W-E: in its turn the Righteous seat resists one of the 7 (6 < 7): the count is off and
    Evil does not win at its next turn."""
    s = seven_held(r_cost=res(BROAD))
    s.start()
    s.pass_turn(0)
    s.pass_(1)
    s.expect_decision(1, "main")
    s.resist(1, BROAD, res(BROAD))
    assert s.g.evil_habituals_in_play() == 6 and s.dview()["evil_clock"] is None
    s.pass_turn(1)
    assert s.g.result is None and s.g.turn_seat == 0


def test_D_W_E_habituals_on_the_field_count_too() -> None:
    """D-W-E: Habituals in hold and Habituals on the field count together (4 + 3)."""
    s = seven_held(field=3)
    s.start()
    assert len(s.st.field) == 3 and s.dview()["evil_clock"] is not None
    s.pass_turn(0)
    s.pass_turn(1)
    assert s.g.result is not None and s.g.result.winner == "evil"


@pytest.mark.parametrize("n,armed", [(13, False), (14, True)])
def test_D_W_E_the_limit_is_7_per_evil_seat(n: int, armed: bool) -> None:
    """D-W-E: two Evil seats need 14."""
    s = seven_held("EER", n=n)
    s.start()
    assert s.dview()["evil_limit"] == 14
    assert (s.dview()["evil_clock"] is not None) is armed
    s.pass_turn(0)
    s.pass_turn(1)
    s.pass_turn(2)
    assert (s.g.result is not None and s.g.result.winner == "evil") is armed


def test_D_W_E_every_righteous_seat_gets_its_turn_first() -> None:
    """D-W-E: ERR: armed on the Evil turn; both Righteous seats take their turns; the win is judged
    when the Evil turn comes round again."""
    s = seven_held("ERR")
    s.start()
    s.pass_turn(0)
    s.pass_turn(1)
    assert s.g.result is None and s.g.turn_seat == 2
    s.pass_turn(2)
    assert s.g.result is not None and s.g.result.winner == "evil"


def test_D_W_E_reached_during_a_righteous_turn_the_side_still_gets_a_full_next_turn() -> None:
    """D-W-E (engine reading): the 7th Habitual lands by interrupt in the Righteous turn; the
    Evil turn that follows does not win yet: the Righteous side first gets its next turn."""
    s = seven_held(n=6, turn_seat=1)
    s.hand(0, BROAD).evil_cz(0, cost(BROAD))
    s.start()
    s.threaten(0, BROAD, 1)
    s.pass_interrupts()
    if s.decision() == "answer":
        s.take_hit(1)
    s.take_rewards()                                       # (the 7th pairs with one in hold)
    assert s.g.evil_habituals_in_play() == 7 and s.dview()["evil_clock"] is not None
    s.pass_turn(1)
    assert s.g.result is None and s.g.turn_seat == 0
    s.pass_turn(0)
    assert s.g.result is None and s.g.turn_seat == 1
    s.pass_turn(1)
    assert s.g.result is not None and s.g.result.winner == "evil"


class _LooksEveryTime(DuelMode):
    """The duel, with its win clocks looked at on every pass of the flow, changed or not. A Python
    subclass of the mode: the test below runs it under the Python engine and counts the looks."""

    looks = 0

    def mode_flow(self, game: GameBase) -> str | None:
        _LooksEveryTime.looks += 1
        game._clock_inputs = -1
        return super().mode_flow(game)


@pytest.mark.parametrize("lineup", ["ER", "EER", "ERR"])
def test_D_W_R_D_W_E_clocks_looked_at_only_after_a_change_they_read_are_as_if_looked_at_always(lineup: str) -> None:
    """D-W-R, D-W-E: the win clocks are looked at again only after an event that changes what they
    read (Maturity, Evil Habituals held or in the field: duel_clocks.CLOCK_EVENTS). Random games, with
    Maturity also set by hand now and then (S-8), played side by side with a copy that looks every
    time: the same clocks at every decision, the same decisions, the same result. A property of the
    rules' source, checked on the Python engine (a child process when this one runs the native
    build, which test_native.py shows plays the same games)."""
    import os
    import subprocess
    import sys

    import christianity_game.engine as engine

    if engine.BUILD != "python":
        env = dict(os.environ, CHRISTIANITY_GAME_ENGINE="python")
        test = f"{__file__}::test_D_W_R_D_W_E_clocks_looked_at_only_after_a_change_they_read_are_as_if_looked_at_always[{lineup}]"
        done = subprocess.run([sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:randomly", "-p", "no:xdist", test],
                              env=env, capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]
        return
    import random

    armed = 0
    _LooksEveryTime.looks = 0
    for seed in range(6):
        rnd = random.Random(seed)
        g = Game.new(mode="duel", lineup=lineup, seed=seed, settings=Settings(max_turns=80), log=False)
        always = Game.new(mode="duel", lineup=lineup, seed=seed, settings=Settings(max_turns=80), log=False)
        always.mode = _LooksEveryTime()
        righteous = g.righteous_seats()
        while g.pending:
            assert g.pending == always.pending
            d, d2 = g.state.duel, always.state.duel
            assert (d.r_clock, d.e_clock, d.e_righteous_turns) == (d2.r_clock, d2.e_clock, d2.e_righteous_turns)
            armed += d.r_clock is not None or d.e_clock is not None
            action = (AdjustBadge(rnd.choice(righteous), "maturity", rnd.randrange(4)) if rnd.random() < 0.02
                      else rnd.choice(g.pending[0][1]))
            g.apply(action)
            always.apply(action)
        assert g.result == always.result and g.result is not None
    assert armed > 0   # some clock was armed along the way: the comparison saw both states
    assert _LooksEveryTime.looks > 1000   # the copy did look every time (its override ran)


# =============================================================================================
# D-SCORE


def test_D_SCORE_is_computed_and_shown_to_every_viewer() -> None:
    """D-SCORE: Righteous = sum of Maturity x 5 + Resisted pile; Evil = Failed pile + Evil
    Habituals in play x 5; every view shows it."""
    s = DuelScenario("ERR", phase="main", turn_seat=1)
    s.seat(1, maturity=2).seat(2, maturity=1).hand(1, ANCHOR).held_by(1, 0, BROAD).set(
        resisted=[LEAVEN, IDLE, SNARE], failed=[LEAVEN, LEAVEN], field=[BROAD])
    s.start()
    expected = (2 * 5 + 1 * 5 + 3, 2 + 2 * 5)
    assert s.g.score == expected
    for viewer in (None, 0, 1, 2):
        assert s.g.view(viewer)["score"] == list(expected)


def test_D_SCORE_follows_the_play() -> None:
    """D-SCORE: a resisted threat adds 1 for the Righteous side, a failed Temptation 1 for Evil, a
    Habitual that takes hold 5 for Evil."""
    s = DuelScenario("ER", phase="main", turn_seat=0)
    s.hand(0, LEAVEN, SNARE, BROAD).evil_cz(0, 6).deck(0, *[E_FILL] * 6)
    s.seat(1, humility=6).hand(1, *[R_FILL] * 3).untapped(1, res(LEAVEN) + 1).deck(1, *[R_FILL] * 6)
    s.start()
    assert s.g.score == (0, 0)
    s.threaten(0, LEAVEN, 1)
    s.pass_interrupts()
    s.resist(1, LEAVEN, res(LEAVEN))
    assert s.g.score == (1, 0)
    s.land(0, 1, SNARE)
    assert s.g.score == (1, 1)
    s.land(0, 1, BROAD)
    assert s.g.score == (1, 1 + 5)


def test_D_SCORE_a_turn_cap_ends_a_test_game_on_the_score() -> None:
    """D-SCORE: neither side is forced to end the game (no cap by default); the max_turns safety
    cap of simulations ends it on the stalemate score (engine DECISION; a tie goes to Evil)."""
    assert Settings().max_turns == 0
    s = DuelScenario("ER", phase="main", turn_seat=1, max_turns=3)
    s.seat(1, maturity=1).hand(1, ANCHOR).deck(1, *[R_FILL] * 10).deck(0, *[E_FILL] * 10)
    s.start()
    while s.g.result is None:
        s.pass_turn(s.g.turn_seat)
    assert s.g.result.winner == "righteous" and "score" in s.g.result.reason
    assert s.g.score == (5, 0)


# =============================================================================================
# S-6, A-3 in a duel


def test_S6_duel_one_level_per_turn_whatever_the_source() -> None:
    """S-6: a Maturity card raises L0 to L1; the micro-boost's +1 Humility then brings Humility to
    10, but the roll-over level waits; it comes at the start of the seat's next turn."""
    s = DuelScenario("ER", phase="main", turn_seat=1, mat_abilities=False)
    s.seat(1, humility=9).hand(1, MAT, ZERO, ZERO, ZERO).untapped(1, cost(MAT)).deck(1, *[R_FILL] * 10)
    s.deck(0, *[E_FILL] * 10)
    s.start()
    s.play(1, MAT)
    s.settle()
    assert s.maturity(1) == 1
    for _ in range(3):
        play_zero(s, 1)
    s.expect_decision(1, "reward")
    s.reward(1, "humility", 1)
    assert (s.humility(1), s.maturity(1)) == (10, 1)
    s.pass_turn(1)
    s.pass_turn(0)
    assert (s.humility(1), s.maturity(1)) == (0, 2)


@pytest.mark.parametrize("mode", ["coop", "duel"])
def test_S6_duel_only_two_maturity_cards_give_one_level(mode: str) -> None:
    """S-6: duel only: two Maturity cards in one turn give one level in a duel, two in co-op."""
    if mode == "coop":
        s: Scenario = Scenario(mode="coop", lineup="RR", phase="main", turn_seat=0, mat_abilities=False)
        seat = 0
    else:
        s = DuelScenario("ER", phase="main", turn_seat=1, mat_abilities=False)
        seat = 1
    s.hand(seat, MAT, MAT, ANCHOR).untapped(seat, 2 * cost(MAT))
    s.start()
    for _ in range(2):
        s.play(seat, MAT)
        s.settle()
    assert s.maturity(seat) == (2 if mode == "coop" else 1)
    assert s.ids(seat, "discard") == [MAT, MAT]


def test_A3_duel_each_seat_picks_an_ability_at_its_own_new_level() -> None:
    """A-3: ERR: seat 1 reaches L1 while seat 2 is at L0: seat 1 picks a free ability (co-op would
    wait for a shared level); Foresight (co-op only) is not offered; seat 2 gets its own pick
    when it reaches L1; a level given back and taken again by hand (S-8) gives no second pick."""
    s = DuelScenario("ERR", phase="main", turn_seat=1)
    s.hand(1, MAT, ANCHOR).untapped(1, cost(MAT)).deck(1, *[R_FILL] * 8)
    s.hand(2, MAT, ANCHOR).untapped(2, cost(MAT)).deck(2, *[R_FILL] * 8).deck(0, *[E_FILL] * 8)
    s.start()
    s.play(1, MAT)
    s.pass_while(1, "boost")
    s.expect_decision(1, "ability")
    offered = {a.ability for a in s.legal(1) if isinstance(a, ChooseAbility)}
    assert "foresight" not in offered and {"deliverance", "speed", "benevolence"} <= offered
    s.pick_ability(1, "deliverance")
    assert "deliverance" in s.st.abilities and "deliverance" in s.st.charged
    s.adjust(1, "maturity", 0)
    s.adjust(1, "maturity", 1)
    assert s.decision() != "ability"
    s.settle()
    s.pass_turn(1)
    s.pass_(2)
    s.pass_interrupts()
    s.play(2, MAT)
    s.pass_while(2, "boost")
    s.expect_decision(2, "ability")
    assert "deliverance" not in {a.ability for a in s.legal(2) if isinstance(a, ChooseAbility)}


def test_A3_duel_no_buying_abilities_with_cost() -> None:
    """A-3: a duel seat cannot buy an ability after its Cost Zone phase, however much Cost."""
    s = DuelScenario("ER", phase="cost_zone", turn_seat=1)
    s.hand(1, R_FILL, ANCHOR).untapped(1, 12)
    s.start()
    s.pass_(1)
    s.pass_interrupts()
    assert not any(isinstance(a, BuyAbility) for a in s.legal(1))
    with pytest.raises(IllegalAction):
        s.g.apply(BuyAbility(1, "speed"))


def test_A3_A4_deliverance_recharges_at_the_seats_next_level() -> None:
    """A-3 / A-4 in a duel: Deliverance used is spent; the seat's own next level recharges it."""
    s = DuelScenario("ERR", phase="main", turn_seat=1).abilities("deliverance")
    s.seat(1, maturity=1).held_by(1, 0, BROAD, BROAD).hand(1, MAT, ANCHOR).untapped(1, cost(MAT))
    s.deck(1, *[R_FILL] * 6)
    s.start()
    s.pass_interrupts()
    s.use(1, "deliverance")
    s.choose(1, BROAD)
    s.pass_(1)
    assert "deliverance" not in s.st.charged
    assert UseAbility(1, "deliverance") not in s.legal(1)
    s.play(1, MAT)
    s.pass_while(1, "boost")
    if s.decision() == "ability":
        s.pick_ability(1, "speed")
    assert "deliverance" in s.st.charged


@pytest.mark.parametrize("maturity,helps", [(1, False), (2, True)])
def test_D_INT_2_a_benevolence_helper_answers_after_the_target_at_L2(maturity: int, helps: bool) -> None:
    """D-INT-2 with A-1: ERR: when the target passes, a teammate holding Double Resistance at L2 or
    higher gets the answer too and may pay toward it; at L1 it is not asked."""
    r = res(SNARE)
    s = DuelScenario("ERR", phase="main", turn_seat=0).abilities("benevolence")
    s.hand(0, SNARE, LEAVEN).evil_cz(0, cost(SNARE, LEAVEN)).deck(0, *[E_FILL] * 4)
    s.seat(1, humility=5).hand(1, R_FILL).untapped(1, 1).deck(1, *[R_FILL] * 4)
    s.seat(2, maturity=maturity).hand(2, R_FILL).untapped(2, r).deck(2, *[R_FILL] * 4)
    s.start()
    s.threaten(0, SNARE, 1)
    s.pass_interrupts()
    s.expect_decision(1, "answer")
    s.resist(1, SNARE, 1)                                  # all it has: its answer is over
    if helps:
        s.expect_decision(2, "answer")
        assert Resist(2, s.threat_uid(SNARE), r - 1) in s.legal(2)
        s.resist(2, SNARE, r - 1)
        assert s.pile("resisted") == [SNARE] and s.tapped(2) == r - 1
    else:
        assert s.pile("failed") == [SNARE] and s.tapped(2) == 0


# ------------------------------------------------------------------------------------------------
# rules version 2: where the duel rules page reads wider than rules 1 did


def test_D_MB_2_a_failed_temptation_voids_every_righteous_seats_streak() -> None:
    """D-MB-2 (rules 2): "If a Temptation is failed that turn, the streak is voided for the rest of
    the turn": a Temptation failed at one Righteous seat voids the other seat's streak too; under
    rules 1 only the seat whose Temptation failed lost it."""
    def run(rules: int | None) -> DuelScenario:
        s = DuelScenario("ERR", phase="main", turn_seat=0, rules=rules)   # Evil's turn: both targeted
        s.hand(0, LEAVEN, IDLE, LEAVEN, IDLE).evil_cz(0, 6).deck(0, *[E_FILL] * 10)
        for r in (1, 2):
            s.seat(r, humility=6).hand(r, *[R_FILL] * 4).deck(r, *[R_FILL] * 10)
        s.untapped(1, 1).untapped(2, 3 * res(IDLE) + 3)
        s.start()
        s.threaten(0, LEAVEN, 1)                              # fails at seat 1
        s.take_rewards()
        for t in (IDLE, LEAVEN, IDLE):                        # resisted by seat 2
            s.threaten(0, t, 2)
            s.take_rewards()
        s.pass_interrupts()
        while s.decision() in ("answer", "reward"):
            if s.decision() == "reward":
                s.take_rewards()
                continue
            seat = s.decider()
            t = s.st.threats[0]
            if seat == 1:
                s.pass_(1)
            else:
                s.do(Resist(2, t.uid, remaining(s.g, t)))
        return s
    now = run(None)
    assert now.count("mb_clean_streak") == 0 and not now.of_kind("boost_earned")
    old = run(1)
    assert old.count("mb_clean_streak") == 1 and [e.seat for e in old.of_kind("boost_earned")] == [2]


def test_D_INT_1_evil_may_interrupt_in_a_righteous_draw_phase_before_the_cost_zone_is_laid() -> None:
    """Z-5, D-INT-1 (rules 2): "no plays while a player is laying their Cost Zone. Before or after,
    never during": once a Righteous seat has drawn and before it lays, Evil (interrupt on) gets a
    window; once laying has begun it gets none until the laying is done. Rules 1 opened Evil's
    first window only after the laying."""
    def start(rules: int | None) -> DuelScenario:
        s = DuelScenario("ER", phase="draw", turn_seat=1, rules=rules)
        s.hand(0, LEAVEN).evil_cz(0, 2).deck(0, *[E_FILL] * 6)
        s.seat(1, humility=6).hand(1, *[R_FILL] * 3).deck(1, *[R_FILL] * 10)
        s.start()
        return s
    s = start(None)
    assert s.st.step == "lay" and s.decision() == "interrupt" and s.decider() == 0
    s.threaten(0, LEAVEN, 1)                                   # before the laying
    assert s.st.seats[1].laid == 0 and [e.seat for e in s.of_kind("threat_played")] == [0]
    while s.decision() in ("interrupt", "answer", "reward"):
        if s.decision() == "reward":
            s.take_rewards()
        else:
            s.pass_(s.decider())
    assert s.of_kind("failed")                                 # answered (taken) before any laying
    s.expect_decision(1, "lay")
    lay = next(a for a in s.g.legal_actions(1) if type(a).__name__ == "LayCostZone")
    s.do(lay)                                                  # laying has begun: no window now
    assert s.decision() == "lay" and s.decider() == 1
    old = start(1)
    assert old.st.step == "lay" and old.decision() == "lay" and old.decider() == 1


def test_A_3_a_positions_starting_maturity_counts_as_rewarded_in_a_duel() -> None:
    """A-3, S-8 (rules 2): a duel started from a position at L2: lowering the level by hand and
    raising it again gives no second free ability pick (as in co-op); rules 1 gave one."""
    def run(rules: int | None) -> int:
        s = DuelScenario("ER", phase="main", turn_seat=1, rules=rules)
        s.hand(0, *[E_FILL] * 2).deck(0, *[E_FILL] * 6)
        s.seat(1, humility=6, maturity=2).hand(1, *[R_FILL] * 3).deck(1, *[R_FILL] * 10)
        s.start()
        s.g.apply(AdjustBadge(1, "maturity", 1))
        s.g.apply(AdjustBadge(1, "maturity", 2))
        return s.st.ability_picks
    assert run(None) == 0
    assert run(1) == 1


def test_rules3_empty_evil_deck_is_refilled_from_its_own_piled_cards_at_its_turn_start() -> None:
    """DECISION (rules 3, docs/decisions.md): an Evil seat starting its turn with an empty deck
    shuffles its own cards from the Resisted and Failed piles into a new deck; rules 2 never did."""
    from christianity_game import Game

    for rules, refilled in ((3, True), (2, False)):
        game = Game.new(mode="duel", lineup="ER", seed=11, rules=rules)
        st = game.state
        evil = st.seats[0]
        half = len(evil.deck) // 2
        st.resisted.extend(evil.deck[:half])
        st.failed.extend(evil.deck[half:])
        mine = set(evil.deck)
        righteous_card = st.seats[1].deck[0]
        st.failed.append(righteous_card)   # not the Evil seat's: it stays
        evil.deck = []
        before = game.score
        on_turn_start(game, 0)
        if refilled:
            assert set(evil.deck) == mine and not (set(st.resisted) | set(st.failed)) & mine
            assert st.failed == [righteous_card]
            assert game.score == before   # the score counts every card that ever entered a pile
        else:
            assert evil.deck == [] and mine <= set(st.resisted) | set(st.failed)
