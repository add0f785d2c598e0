"""Scenario tests for docs/rules.md section G: the table and the pieces."""

from __future__ import annotations

import json

import pytest

from christianity_game import Game, PlayCard, Settings
from christianity_game.cards import starter_set
from christianity_game.cards.model import EVIL_KINDS, RIGHTEOUS_KINDS
from scenario import ANCHOR, FILLER, Scenario, card, cost, res


# --- G-1 ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("lineup", ["R", "RR", "RRR", "RRRRRR"])
def test_G1_coop_is_righteous_seats_against_the_evil_deck(lineup: str) -> None:
    """G-1: co-op: one or more Righteous seats; every seat is Righteous; the Evil deck is not a seat."""
    game = Game.new(mode="coop", lineup=lineup, seed=1)
    seats = game.view(None)["seats"]
    assert len(seats) == len(lineup)
    assert {s["side"] for s in seats} == {"righteous"}
    assert game.view(None)["evil_deck_size"] > 0


@pytest.mark.parametrize("mode,lineup", [("coop", "RE"), ("coop", "E"), ("coop", ""), ("solo", "RR"),
                                          ("solo", "E")])
def test_G1_bad_lineups_are_refused(mode: str, lineup: str) -> None:
    """G-1: co-op has no Evil seats (the deck runs itself); solo is exactly one Righteous seat."""
    with pytest.raises(ValueError):
        Game.new(mode=mode, lineup=lineup, seed=1)


def test_G1_the_evil_deck_runs_itself() -> None:
    """G-1: in co-op nobody plays Evil: through whole turns every decision is a Righteous seat's."""
    game = Game.new(mode="coop", lineup="RR", seed=4)
    for i in range(200):
        if game.result is not None:
            break
        for seat, _ in game.pending:
            assert game.state.seats[seat].side == "righteous"
        seat, acts = game.pending[0]
        game.apply(acts[0])
    assert any(e.kind == "threat_played" for e in game.log)


def test_G1_duel_needs_at_least_one_seat_of_each_side() -> None:
    """G-1: a duel has at least one Righteous and at least one Evil seat."""
    for bad in ("RR", "EE", "R"):
        with pytest.raises(ValueError):
            Game.new(mode="duel", lineup=bad, seed=1)
    game = Game.new(mode="duel", lineup="EERR", seed=1)
    assert [s["side"] for s in game.view(None)["seats"]] == ["evil", "evil", "righteous", "righteous"]


# --- G-2 ----------------------------------------------------------------------------------------

def test_G2_every_seat_has_deck_hand_cost_zone_discard_and_cards_in_play() -> None:
    """G-2: each seat's zones, in the view of every viewer."""
    game = Game.new(mode="coop", lineup="RRR", seed=2)
    for viewer in (None, 0, 1, 2):
        for seat in game.view(viewer)["seats"]:
            for key in ("deck_size", "hand", "hand_size", "cost_zone", "discard", "in_play"):
                assert key in seat
    for sd in game.state.seats:
        assert len(sd.deck) > 0 and len(sd.cost_zone) == 3 and sd.hand


def test_G2_one_resisted_and_one_failed_pile_for_the_whole_table() -> None:
    """G-2 DECISION: one Resisted pile and one Failed pile for the table; each card in them
    remembers who played it (the co-op Evil deck: None) and at whom."""
    s = Scenario(lineup="RR", phase="resistance", turn_seat=0)
    s.hand(0, ANCHOR).untapped(0, res("envy")).threat("envy", target=0).threat("idleness", target=0)
    s.start()
    s.resist(0, "envy", res("envy"))
    s.pass_(0)                                           # idleness fails
    view = s.g.view(None)
    assert [c["id"] for c in view["piles"]["resisted"]] == ["envy"]
    assert [c["id"] for c in view["piles"]["failed"]] == ["idleness"]
    assert s.st.pile_info[s.st.resisted[0]] == (None, 0)
    assert s.st.pile_info[s.st.failed[0]] == (None, 0)
    # seat 1's threats go to the very same piles
    s.pass_turn(0)
    assert s.g.turn_seat == 1
    assert set(view["piles"]) == {"resisted", "failed"}


def test_G2_piles_remember_the_target_seat() -> None:
    """G-2: a threat at seat 1 resisted in seat 1's turn is remembered as aimed at seat 1."""
    s = Scenario(lineup="RR", phase="resistance", turn_seat=1)
    s.hand(1, ANCHOR).untapped(1, res("envy")).threat("envy", target=1)
    s.start()
    s.resist(1, "envy", res("envy"))
    assert s.st.pile_info[s.st.resisted[0]] == (None, 1)
    assert s.of_kind("resisted")[0].data["target"] == 1


# --- G-3 ----------------------------------------------------------------------------------------

def test_G3_righteous_seats_have_humility_and_maturity() -> None:
    """G-3: Humility (Power) and Maturity on every Righteous seat, in every view."""
    game = Game.new(mode="coop", lineup="RR", seed=2)
    for seat in game.view(1)["seats"]:
        assert seat["side"] == "righteous"
        assert isinstance(seat["humility"], int) and isinstance(seat["maturity"], int)


def test_G3_humility_changes_only_righteous_seats() -> None:
    """G-3: the Evil side has no Humility: only Righteous seats' badges move."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, "my-cup-runneth-over", ANCHOR).untapped(0, cost("my-cup-runneth-over"))
    s.start()
    s.play(0, "my-cup-runneth-over")
    s.settle()
    assert (s.humility(0), s.humility(1)) == (4, 4)
    assert all(e.seat in (0, 1) for e in s.of_kind("humility"))


def test_G3_duel_evil_seats_have_no_badges_and_never_level() -> None:
    """G-3: Evil seats have neither Humility nor Maturity and never level up."""
    game = Game.new(mode="duel", lineup="ER", seed=3)
    evil = game.view(None)["seats"][0]
    assert evil["side"] == "evil"
    assert evil.get("humility") in (None, 0) and evil.get("maturity") in (None, 0)
    from christianity_game import AdjustBadge, IllegalAction
    with pytest.raises(IllegalAction):
        game.apply(AdjustBadge(0, "maturity", 1))


# --- G-4 ----------------------------------------------------------------------------------------

def test_G4_card_kinds_of_each_side() -> None:
    """G-4 DECISION: Righteous: Maturity, Resistance, Righteous Habitual, Action, Instant; Evil:
    Temptation, Evil Habitual; Ambush is a Temptation subtype."""
    cards = starter_set()
    righteous = {c.kind for c in cards if c.side == "righteous"}
    evil = {c.kind for c in cards if c.side == "evil"}
    assert righteous == set(RIGHTEOUS_KINDS)
    assert evil == set(EVIL_KINDS)
    ambushes = [c for c in cards if c.is_ambush]
    assert ambushes and all(c.kind == "temptation" for c in ambushes)


def test_G4_actions_on_your_turn_instants_also_in_response() -> None:
    """G-4: an Action is played on your turn (Main); an Instant may also go onto the stack in
    response, on another seat's play."""
    s = Scenario(lineup="RR", phase="main")
    s.hand(0, "loaves-and-fishes", ANCHOR).untapped(0, cost("loaves-and-fishes")).deck(0, FILLER, FILLER)
    s.hand(1, "still-waters", "what-of-the-night").untapped(1, 2).deck(1, FILLER)
    s.start()
    assert s.legal(1) == []                     # not seat 1's turn: nothing to play
    s.play(0, "loaves-and-fishes")
    s.expect_decision(1, "respond")
    kinds = {s.g.defs[a.card].kind for a in s.legal(1) if isinstance(a, PlayCard)}
    assert kinds == {"instant"}


def test_G4_ambush_is_rewarded_by_righteous_cards() -> None:
    """G-4: an Ambush is a Temptation some Righteous cards reward resisting: Upon the Watchtower
    gives X-2 Humility for resisting an Ambush (X its resistance); a plain Temptation gives nothing."""
    ambush = "snare-of-the-fowler"
    x = res(ambush)
    assert card(ambush).is_ambush and x > 2
    s = Scenario(lineup="RR", phase="resistance")
    s.hand(0, ANCHOR).in_play(0, "upon-the-watchtower").untapped(0, x).threat(ambush)
    s.start()
    s.resist(0, ambush, x)
    assert s.humility(0) == 3 + x - 2

    plain = Scenario(lineup="RR", phase="resistance")
    plain.hand(0, ANCHOR).in_play(0, "upon-the-watchtower").untapped(0, res("envy")).threat("envy")
    plain.start()
    plain.resist(0, "envy", res("envy"))
    assert plain.humility(0) == 3


# --- G-5 ----------------------------------------------------------------------------------------

def test_G5_cards_carry_their_marks() -> None:
    """G-5: cost C<n>, resistance R<n> or RX, Humility change, boosts with a payer glyph and the fast
    mark, and the keywords, all as data on the cards."""
    cards = list(starter_set())
    assert all(c.cost >= 0 for c in cards)
    threats = [c for c in cards if c.is_threat]
    assert any(c.resistance is not None for c in threats)
    assert any(c.x_rule is not None and c.resistance is None for c in threats)
    assert all(c.marks_suffix() in (" RX", f" R{c.resistance}") for c in threats)
    glyphs = {b.payer for c in cards for b in c.boosts}
    assert glyphs == {"you", "teammate", "any"}
    assert any(b.fast for c in cards for b in c.boosts)
    ops = {e.op for c in cards for e in c.effects}
    assert {"humility", "draw", "discard", "search", "reveal", "attach", "if"} <= ops


@pytest.mark.parametrize("threat_id", [c.id for c in starter_set() if c.is_threat and c.x_rule is not None])
def test_G5_RX_is_worked_out_when_the_threat_is_played(threat_id: str) -> None:
    """G-5: RX: X is defined by the card's text and computed against the target as it is played."""
    rule = card(threat_id).x_rule
    s = Scenario(lineup="RR", phase="cost_zone", mat_abilities=False)
    s.seat(0, humility=7).hand(0, *[FILLER] * 5).untapped(0, 6).held(0, "besetting-sin").evil_deck(threat_id)
    s.start()
    sd = s.st.seats[0]
    base = {"target_hand": len(sd.hand), "target_cost_zone": len(sd.cost_zone), "target_maturity": sd.maturity,
            "target_humility": sd.humility, "held_habituals": len(sd.held)}[rule.of]
    s.pass_(0)
    played = s.of_kind("threat_played")[0]
    assert played.card == threat_id
    assert played.data["resistance"] == max(0, base + rule.plus)


def test_G5_fixed_resistance_is_the_printed_R() -> None:
    """G-5: R<n>: the printed number, whatever the target."""
    s = Scenario(lineup="RR", phase="cost_zone", mat_abilities=False)
    s.hand(0, *[FILLER] * 5).untapped(0, 6).evil_deck("a-roaring-lion")
    s.start()
    s.pass_(0)
    assert s.of_kind("threat_played")[0].data["resistance"] == res("a-roaring-lion")


# --- G-6 ----------------------------------------------------------------------------------------

def _play(seed: int, steps: int = 400, mode: str = "coop", lineup: str = "RR",
          settings: Settings | None = None) -> Game:
    game = Game.new(mode=mode, lineup=lineup, seed=seed, settings=settings)
    for i in range(steps):
        if game.result is not None:
            break
        seat, acts = game.pending[0]
        game.apply(acts[(i * 7 + 3) % len(acts)])
    return game


def _fingerprint(game: Game) -> str:
    return json.dumps({"view": game.view(None), "log": [repr(e) for e in game.log],
                       "actions": [a.to_json() for a in game.actions],
                       "hands": [game.view(i)["seats"][i]["hand"] for i in range(len(game.lineup))]},
                      sort_keys=True)


@pytest.mark.parametrize("mode,lineup", [("coop", "RR"), ("solo", "R"), ("coop", "RRR")])
def test_G6_same_seed_and_actions_give_the_same_game(mode: str, lineup: str) -> None:
    """G-6: the same seed, settings and decisions reproduce the game exactly."""
    a = _play(17, mode=mode, lineup=lineup)
    b = _play(17, mode=mode, lineup=lineup)
    assert _fingerprint(a) == _fingerprint(b)


def test_G6_a_different_seed_gives_a_different_deal() -> None:
    """G-6: the seed matters: another seed deals other cards."""
    hands = {json.dumps(Game.new(mode="coop", lineup="RR", seed=s).view(0)["seats"][0]["hand"]) for s in range(6)}
    assert len(hands) > 1


def test_G6_a_record_replays_to_the_same_game() -> None:
    """G-6: settings + seed + decks + actions (the record) rebuild the very same game."""
    game = _play(23, settings=Settings(solo_fee=2))
    again = Game.from_record(json.loads(json.dumps(game.to_record())))
    assert _fingerprint(again) == _fingerprint(game)


def test_G6_positions_with_randomness_replay_too() -> None:
    """G-6: a game from a position (random discards, Vibrancy flips) replays from its record."""
    s = Scenario(lineup="RR", phase="cost_zone", seed=99).abilities("vibrancy")
    s.hand(0, *["gossip"] * 4, "pride", "envy").untapped(0, 6).evil_deck("gossip", "wolf-in-sheeps-clothing")
    s.start()
    s.pass_(0)
    while s.g.result is None and s.g.round < 3:
        seat, acts = s.g.pending[0]
        s.g.apply(acts[0])
    again = Game.from_record(s.g.to_record())
    assert _fingerprint(again) == _fingerprint(s.g)
