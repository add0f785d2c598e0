"""Positions for any moment (docs/design.md, "Positions"): ``Game.to_position`` and ``Game.from_position``.

The round-trip property (``from_position(game.to_position())`` is the same game, at 2,000 states
reached in play, and for every table of every mode and variant) is checked in
``tests/test_conformance.py`` with ``api_checks.rebuilt`` / ``assert_same``. Here: rule tests set
the duel's state through positions and check it is honoured: combo chains (D-COMBO-1/4), streaks
(D-MB-2), spent Habitual pairs (D-MR-1), per-seat levels rewarded (A-3), armed win clocks (D-W-E,
D-W-R); positions that give some cards uids and not others; a game rebuilt mid-duel records and
replays; and positions that are wrong are refused naming the key.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from christianity_game import Game, Settings
from christianity_game.engine.actions import ChooseReward
from christianity_game.engine.position_format import PositionError
from api_checks import rebuilt
from duel_helpers import BROAD, E_FILL, R_FILL, DuelScenario
from scenario import ANCHOR, FILLER, cost, res

# ------------------------------------------------------------------------------------------------
# The duel's state set through positions


def combo_position(chain: dict[str, Any] | None, lineup: str = "ER") -> DuelScenario:
    """Evil seat 0 in its Main phase with a roaring lion (C3) and C1 of Cost; optional chain."""
    s = DuelScenario(lineup, phase="main", turn_seat=0)
    s.hand(0, "a-roaring-lion").evil_cz(0, 1).deck(0, *[E_FILL] * 5)
    s.hand(1, ANCHOR).deck(1, *[R_FILL] * 5)
    if lineup == "EER":
        s.hand(1, "a-roaring-lion").evil_cz(1, 1).deck(1, *[E_FILL] * 5)
        s.hand(2, ANCHOR).deck(2, *[R_FILL] * 5)
    if chain is not None:
        s.set(duel={"chain": chain})
    return s


def test_D_COMBO_1_a_chain_in_a_position_carries_its_discount() -> None:
    """D-COMBO-1: a position whose chain is 2 long makes the next threat C2 cheaper: a C3 threat is
    playable with C1 of Cost, and pays C1; without the chain it is not playable."""
    lion = "a-roaring-lion"
    assert cost(lion) == 3
    s = combo_position({"count": 2, "last": 0, "target": 1, "seats": [0]})
    s.start()
    assert s.dview()["next_discount"] == {"0": 2}
    assert s.dview()["chain"] == {"count": 2, "last": 0, "target": 1, "seats": [0], "single_target": True}
    played = [e for e in s.threaten(0, lion, 1) if e.kind == "played"]
    assert played[0].data == {"to_seat": 1, "cost": 1, "chain": 2}
    assert s.tapped(0) == 1
    plain = combo_position(None)
    plain.start()
    assert plain.threat_plays(0) == []


def test_D_COMBO_4_a_position_chain_discounts_only_a_partner() -> None:
    """D-COMBO-4: with two Evil seats, a chain last extended by seat 0 discounts seat 1, not seat 0."""
    s = combo_position({"count": 2, "last": 0, "target": 2, "seats": [0]}, lineup="EER")
    s.start()
    assert s.dview()["next_discount"] == {"0": 0, "1": 2}
    assert s.threat_plays(0) == []


def streak_position(voided: bool) -> DuelScenario:
    """Righteous seat 1 answering a pending threat with 2 threats already resisted this turn."""
    s = DuelScenario("ER", phase="main", turn_seat=1)
    s.hand(0, E_FILL).deck(0, *[E_FILL] * 5)
    s.hand(1, ANCHOR).untapped(1, res(BROAD)).deck(1, *[R_FILL] * 5)
    s.set(threats=[{"card": BROAD, "target": 1, "by": 0}],
          duel={"streaks": [0, 2], "voided": [False, voided], "plays": [0, 0]})
    return s


@pytest.mark.parametrize("voided", [False, True])
def test_D_MB_2_a_streak_in_a_position_counts_toward_the_boost(voided: bool) -> None:
    """D-MB-2: a position with 2 resisted this turn: the 3rd earns the Righteous boost, unless the
    position says a failed Temptation voided the streak."""
    s = streak_position(voided)
    s.start()
    s.expect_decision(1, "answer")
    s.resist_all(1, BROAD)
    assert s.d.streak[1] == (2 if voided else 3)
    if voided:
        assert s.decision() != "reward"
    else:
        s.expect_decision(1, "reward")
        assert s.reward_kind() == "righteous"


@pytest.mark.parametrize("spent", [True, False])
def test_D_MR_1_spent_pairs_in_a_position_earn_nothing_again(spent: bool) -> None:
    """D-MR-1: two of Evil seat 0's Habituals hold seat 1 and a third takes hold: when the position
    marks the two as spent (a pair already rewarded) no reward is earned; unmarked, the pair of
    unspent ones earns one."""
    s = DuelScenario("ER", phase="main", turn_seat=1)
    s.hand(0, E_FILL).deck(0, *[E_FILL] * 5)
    s.hand(1, ANCHOR).untapped(1, 1).deck(1, *[R_FILL] * 5)   # C1: can pay toward it, so it answers
    s._add(1, "held", tuple({"id": BROAD, "by": 0, "spent": spent} for _ in range(2)))
    s.set(threats=[{"card": BROAD, "target": 1, "by": 0}])
    s.start()
    assert len(s.d.flagged) == (2 if spent else 0)
    s.take_hit(1)
    assert s.count("mr_habitual_pair") == (0 if spent else 1)
    assert len(s.d.flagged) == 2
    assert s.decision() == ("main" if spent else "reward")


@pytest.mark.parametrize("rewarded,picks", [([0, 2], False), (None, True)])
def test_A3_levels_rewarded_per_seat_in_a_position(rewarded: list[int] | None, picks: bool) -> None:
    """A-3: a seat reaching a level the position says was already rewarded gets no free ability;
    by default a position's seats have been rewarded up to their Maturity, and the next level picks."""
    mat = "faithful-in-little"
    s = DuelScenario("ER", phase="main", turn_seat=1)
    s.seat(1, maturity=1).hand(1, mat, ANCHOR).untapped(1, cost(mat)).deck(1, *[R_FILL] * 8)
    s.hand(0, E_FILL).deck(0, *[E_FILL] * 8)
    if rewarded is not None:
        s.set(duel={"levels_rewarded": rewarded})
    s.start()
    s.play(1, mat)
    s.pass_while(1, "boost")
    s.settle()
    assert s.maturity(1) == 2
    assert (s.decision() == "ability") is picks


def evil_hold_position(clock: dict[str, int] | None) -> DuelScenario:
    """ER, turn 9: 7 of Evil's Habituals hold Righteous seat 1, in its Main phase; optional clock."""
    s = DuelScenario("ER", phase="main", turn_seat=1)
    s.deck(0, *[E_FILL] * 8)
    s.hand(1, ANCHOR).deck(1, *[R_FILL] * 8)
    s._add(1, "held", tuple({"id": BROAD, "by": 0} for _ in range(7)))
    s.set(turn_no=9, round=5)
    if clock is not None:
        s.set(duel={"evil_clock": clock})
    return s


def test_D_W_E_an_armed_evil_clock_in_a_position_wins_at_the_right_moment() -> None:
    """D-W-E: 7 Evil Habituals in play, the clock armed on turn 8 and the Righteous seat's turn
    already counted: Evil wins as its next turn starts."""
    s = evil_hold_position({"armed_turn": 8, "righteous_turns_since": 1})
    s.start()
    assert s.dview()["evil_clock"] == {"armed_turn": 8, "righteous_turns_since": 1, "limit": 7, "in_play": 7}
    assert s.g.result is None
    s.end_turn(1)
    assert s.g.result is not None and s.g.result.winner == "evil"
    assert "7 Evil Habituals" in s.g.result.reason


def test_D_W_E_without_an_armed_clock_the_round_starts_now() -> None:
    """D-W-E: the same board with no clock in the position arms it now (turn 9): the Righteous
    side still gets its full round, and Evil wins only after the Righteous seat's next turn."""
    s = evil_hold_position(None)
    s.start()
    assert s.dview()["evil_clock"]["armed_turn"] == 9
    s.end_turn(1)
    assert s.g.result is None
    s.pass_turn(0)
    s.pass_while(1, "lay")
    s.expect_decision(1, "main")
    assert s.dview()["evil_clock"]["righteous_turns_since"] == 1
    s.end_turn(1)
    assert s.g.result is not None and s.g.result.winner == "evil"


def test_D_W_R_an_armed_righteous_clock_in_a_position_wins_at_the_right_moment() -> None:
    """D-W-R: every Righteous seat at L3 and nothing held, the clean round armed at seat 1's turn 8:
    the Righteous side wins as seat 1's next turn starts (turn 10 > 8)."""
    s = DuelScenario("ER", phase="main", turn_seat=0)
    s.hand(0, E_FILL).deck(0, *[E_FILL] * 8)
    s.seat(1, maturity=3, humility=5).deck(1, *[R_FILL] * 8)
    s.set(turn_no=9, round=5, duel={"righteous_clock": {"seat": 1, "armed_turn": 8}})
    s.start()
    assert s.dview()["righteous_clock"] == {"seat": 1, "armed_turn": 8}
    s.pass_turn(0)
    assert s.g.result is not None and s.g.result.winner == "righteous"


def test_reward_queue_in_a_position_waits_for_the_choice() -> None:
    """D-MR-5: a position with a special reward queued for Evil seat 0 waits for seat 0 to choose it."""
    s = DuelScenario("ER", phase="main", turn_seat=1)
    s.hand(0, E_FILL).deck(0, *[E_FILL] * 5).evil_cz(0, 2, tapped=2)
    s.hand(1, ANCHOR).deck(1, *[R_FILL] * 5)
    s.set(duel={"reward_queue": [{"seat": 0, "kind": "special"}], "rewards": 5})
    s.start()
    s.expect_decision(0, "reward")
    assert ChooseReward(0, "untap") in s.legal(0)
    s.reward(0, "untap")
    assert s.tapped(0) == 0


# ------------------------------------------------------------------------------------------------
# Hand-written positions with some uids, and refusals


def test_a_position_may_give_uids_to_the_cards_it_refers_to() -> None:
    """A hand-written open choice names its options by uid; the other cards take the free numbers."""
    position = {"phase": "main", "seats": [
        {"hand": [ANCHOR], "held": [{"id": FILLER, "uid": 0}, {"id": BROAD, "uid": 1}], "cost_zone": [FILLER] * 2},
        {"hand": [ANCHOR]}],
        "abilities": ["deliverance"], "charged": [],
        "choice": {"seat": 0, "purpose": "deliverance", "options": [0, 1], "count": 3, "minimum": 0}}
    game = Game.from_position(position, mode="coop", lineup="RR")
    assert [game.defs[u].id for u in game.state.seats[0].held] == [FILLER, BROAD]
    assert sorted(game.state.seats[0].hand + game.state.seats[1].hand + game.state.seats[0].cost_zone) == [2, 3, 4, 5]
    assert game.pending[0][0] == 0
    game.apply(game.legal_actions(0)[1])   # Choose uid 1: the broad way is broken
    assert [game.defs[u].id for u in game.state.seats[0].held] == [FILLER]
    assert [game.defs[u].id for u in game.state.resisted] == [BROAD]


@pytest.mark.parametrize("change,named", [
    ({"duel": {"chian": {}}}, "chian"),
    ({"duel": {"chain": {"cuont": 1}}}, "cuont"),
    ({"stakc": []}, "stakc"),
    ({"choice": {"seat": 0, "purpose": "discard", "options": [0], "cuont": 1}}, "cuont"),
])
def test_unknown_keys_are_refused_naming_the_key(change: dict[str, Any], named: str) -> None:
    position: dict[str, Any] = {"seats": [{"hand": [E_FILL]}, {"hand": [ANCHOR]}], **change}
    with pytest.raises(PositionError, match=named):
        Game.from_position(position, mode="duel", lineup="ER")


def test_card_tables_refuse_unknown_keys_and_bad_uids() -> None:
    base = {"seats": [{"hand": [ANCHOR]}]}
    with pytest.raises(PositionError, match="tappd"):
        Game.from_position({"seats": [{"cost_zone": [{"id": FILLER, "tappd": True}]}]}, mode="solo", lineup="R")
    with pytest.raises(PositionError, match="two cards"):
        Game.from_position({"seats": [{"hand": [{"id": ANCHOR, "uid": 0}, {"id": ANCHOR, "uid": 0}]}]},
                           mode="solo", lineup="R")
    with pytest.raises(PositionError, match="without gaps"):
        Game.from_position({"seats": [{"hand": [{"id": ANCHOR, "uid": 3}]}]}, mode="solo", lineup="R")
    with pytest.raises(PositionError, match="only a duel"):
        Game.from_position({**base, "duel": {}}, mode="solo", lineup="R")
    with pytest.raises(PositionError, match="choice options"):
        Game.from_position({**base, "choice": {"seat": 0, "purpose": "discard", "options": [7]}},
                           mode="solo", lineup="R")


def test_a_round_trip_position_carries_uids_and_a_hand_written_one_need_not() -> None:
    """The same mid-game state written with uids rebuilds them; stripped of uids it still starts."""
    game = Game.new(mode="duel", lineup="ER", seed=4)
    rnd = random.Random(4)
    for _ in range(30):
        game.apply(rnd.choice(game.pending[0][1]))
    position = game.to_position()
    again = Game.from_position(position, mode="duel", lineup="ER", seed=4)
    assert again.state.seats[1].hand == game.state.seats[1].hand

    def strip(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k != "uid"}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x

    simple = strip({k: v for k, v in position.items() if k not in ("offers", "choice", "effects", "stack")})
    simple["duel"].pop("answer_head", None)
    plain = Game.from_position(simple, mode="duel", lineup="ER", seed=4)
    for i in (0, 1):
        assert [plain.defs[u].id for u in plain.state.seats[i].hand] == [game.defs[u].id for u in game.state.seats[i].hand]
    assert plain.turn_seat == game.turn_seat and plain.phase == game.phase and plain.pending


def test_a_game_rebuilt_from_a_position_records_and_replays() -> None:
    """G-6: a game rebuilt mid-duel from ``to_position`` keeps playing, and its record (the position
    plus the actions after it) replays to the same views and result."""
    game = Game.new(mode="duel", lineup="ERR", seed=11, settings=Settings(max_turns=30))
    rnd = random.Random(11)
    for _ in range(60):
        game.apply(rnd.choice(game.pending[0][1]))
    copy = rebuilt(game)
    while copy.result is None:
        copy.apply(rnd.choice(copy.pending[0][1]))
    again = Game.from_record(json.loads(json.dumps(copy.to_record())))
    assert again.result == copy.result
    for seat in (None, 0, 1, 2):
        assert again.view(seat) == copy.view(seat)
