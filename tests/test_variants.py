"""The duel's play-test variants (engine/variants.py): each departs from one stated rule, is off
(at the printed value) by default, and is recorded in the game's settings.

One test per variant, named with the rule ID it departs from, shows the departure on a prepared
position and the printed behaviour on the same position with the variant off. Then: the registry
itself (one place, every variant a Settings field with the printed default), parsing of
``--variants``, refusals, co-op untouched, and records with variants replaying exactly.
"""

from __future__ import annotations

import pytest

from christianity_game import Game, Settings
from christianity_game.engine import variants as V
from duel_helpers import BROAD, E_FILL, IDLE, LEAVEN, R_FILL, DuelScenario
from scenario import ANCHOR, res
from test_rules_duel import finale_scenario, five_rewards, seven_held


# --------------------------------------------------------------------------- the registry
def test_V_1_every_variant_is_a_setting_whose_default_is_the_printed_rule() -> None:
    """V-1: the printed rules are the default: every variant's setting starts at its printed value."""
    s = Settings()
    assert s.variants == {}
    for v in V.VARIANTS:
        assert getattr(s, v.key) == v.printed, v
        assert Settings.ALIASES[v.alias] == v.key
        assert v.rules and all(r.startswith("D-") for r in v.rules)
        assert v.description.endswith(".") and v.title
        assert v.suggested != v.printed, f"{v.alias}: turning it on must change something"
        v.check(v.suggested)


def test_V_3_presets_are_small_sets_of_declared_variants() -> None:
    """V-3: the recommended preset is a named set of declared variants, each off its printed value."""
    assert V.PRESETS["printed"] == {}
    rec = V.PRESETS["recommended"]
    # the target is three departures at most (docs/decisions.md, "Play-test variants")
    assert 1 <= len(rec) <= 3
    for key, value in rec.items():
        assert V.BY_KEY[key].check(value) == value and value != V.BY_KEY[key].printed


def test_parse_variants_takes_presets_and_alias_pairs_and_names_what_is_wrong() -> None:
    assert V.parse_variants("rewardCap=2,evilHabituals=5") == {"reward_cap": 2, "evil_habituals": 5}
    assert V.parse_variants("recommended,rewardCap=3")["reward_cap"] == 3
    assert V.parse_variants("sameTurnBonus=off") == {"same_turn_bonus": False}
    assert V.parse_variants("") == {}
    with pytest.raises(ValueError, match="unknown variant 'rewardKap'"):
        V.parse_variants("rewardKap=2")
    with pytest.raises(ValueError, match="unknown variant preset 'best'"):
        V.parse_variants("best")
    with pytest.raises(ValueError, match="rewardCap must be a whole number from 0 to 20"):
        V.parse_variants("rewardCap=99")
    with pytest.raises(ValueError, match="evilHabituals must be a whole number from 1 to 7"):
        V.parse_variants("evilHabituals=x")


def test_V_2_table_plays_says_what_the_table_departs_from() -> None:
    """V-2: a table's variants are said in sentences, with the rule IDs they depart from."""
    assert V.table_plays(Settings()) == "This table plays the printed rules."
    s = Settings().updated({"rewardCap": 2, "roundLimit": 20})
    text = V.table_plays(s)
    assert text.startswith("This table plays: ") and "at most 2 micro-rewards" in text and "after round 20" in text
    assert V.variants_json(s)["on"] == {"rewardCap": 2, "roundLimit": 20}
    assert "D-SCORE" in V.variants_json(s)["rules"] and "D-MR-2" in V.variants_json(s)["rules"]


def test_variants_are_for_duels_only_co_op_and_solo_refuse_them() -> None:
    with pytest.raises(ValueError, match="play-test variants are for duels; a coop game cannot take reward_cap"):
        Game.new(mode="coop", lineup="RR", seed=1, settings=Settings().updated({"rewardCap": 2}))
    with pytest.raises(ValueError, match="solo"):
        Game.new(mode="solo", lineup="R", seed=1, settings=Settings().updated({"roundLimit": 5}))
    Game.new(mode="coop", lineup="RR", seed=1)   # printed values are no variant


# --------------------------------------------------------------------------- one test a variant
@pytest.mark.parametrize("cap", [0, 2])
def test_D_MR_7_variant_rewardCap_limits_rewards_per_evil_seat_per_turn(cap: int) -> None:
    """D-MR-1..4, D-MR-7 (variant rewardCap): the five-rewards turn of a lone Evil seat earns 6
    rewards as printed (4 + 2 same-turn bonuses); with rewardCap=2 it gets 2, and the rest are
    counted as capped."""
    s = five_rewards("ER", rewardCap=cap)
    s.take_rewards()
    s.answer_all(1)
    earned = [e for e in s.earned() if e.seat == 0]
    if cap == 0:
        assert len(earned) == 6 and s.count("mr_capped") == 0
    else:
        # the triggers still fire (mr_* counts); the rewards past the cap are withheld
        assert len(earned) == 2 and s.count("mr_capped") == 3 and s.count("micro_rewards") == 2


def test_D_MR_7_variant_rewardCap_counts_per_turn() -> None:
    """rewardCap counts a turn's rewards (the finale's here) and starts afresh at the next turn."""
    s = finale_scenario(rewardCap=1)
    s.start()
    s.threaten(0, LEAVEN, 1)
    s.threaten(0, IDLE, 1)
    s.pass_interrupts()
    while s.decision() == "answer":
        s.take_hit(1)
    assert s.decision() == "reward" and s.d.given == [1, 0] and s.g.turn_seat == 0
    s.take_rewards()
    s.pass_turn(0)
    assert s.g.turn_seat == 1 and s.d.given == [0, 0]


@pytest.mark.parametrize("once", [False, True])
def test_D_MR_2_variant_fourPlaysOnce_rewards_only_the_first_fourth_play(once: bool) -> None:
    """D-MR-2 (variant fourPlaysOnce): 8 plays in a turn earn the 4-plays reward twice as printed,
    once with the variant."""
    s = DuelScenario("ER", phase="main", turn_seat=0, fourPlaysOnce=once)
    s.hand(0, *[LEAVEN, IDLE] * 4).evil_cz(0, 8).deck(0, *[E_FILL] * 20)
    s.hand(1, R_FILL).untapped(1, 4 * (res(LEAVEN) + res(IDLE)))
    s.start()
    for _ in range(2):
        for c in [LEAVEN, IDLE, LEAVEN, IDLE]:
            s.threaten(0, c, 1)
            s.take_rewards()
        s.pass_interrupts()
        while s.decision() in ("answer", "reward"):
            if s.decision() == "reward":
                s.take_rewards()
            else:
                s.resist_all(1, s.g.defs[s.st.threats[0].uid].id)
    assert s.count("mr_four_plays") == (1 if once else 2)


@pytest.mark.parametrize("bonus", [True, False])
def test_D_MR_7_variant_sameTurnBonus_off_earns_no_extra(bonus: bool) -> None:
    """D-MR-7 (variant sameTurnBonus=0): the four rewards of the turn bring no extra ones."""
    s = five_rewards("ER", sameTurnBonus=bonus)
    s.take_rewards()
    s.answer_all(1)
    earned = [e for e in s.earned() if e.seat == 0]
    assert [e.data["bonus"] for e in earned].count(True) == (2 if bonus else 0)
    assert s.count("mr_same_turn_bonus") == (2 if bonus else 0)


@pytest.mark.parametrize("reward", [True, False])
def test_D_MR_4_variant_finaleReward_off_earns_nothing_for_a_finale(reward: bool) -> None:
    """D-MR-4 (variant finaleReward=0): the free finale gets through and earns nothing."""
    s = finale_scenario(finaleReward=reward)
    s.start()
    s.threaten(0, LEAVEN, 1)
    s.threaten(0, IDLE, 1)
    s.answer_all(1)
    assert s.count("mr_finale") == (1 if reward else 0)
    assert len([e for e in s.earned() if e.seat == 0]) == (1 if reward else 0)


@pytest.mark.parametrize("need,wins", [(7, False), (5, True)])
def test_D_W_E_variant_evilHabituals_lowers_the_count_for_the_evil_win(need: int, wins: bool) -> None:
    """D-W-E (variant evilHabituals): 5 Evil Habituals held for a round win with evilHabituals=5,
    not as printed (7)."""
    s = seven_held(n=5, evilHabituals=need)
    s.start()
    assert s.dview()["evil_limit"] == need
    s.pass_turn(0)
    s.pass_turn(1)
    assert (s.g.result is not None and s.g.result.winner == "evil") is wins
    if wins:
        assert s.g.result is not None and s.g.result.reason == "5 Evil Habituals in play held for a full round"


@pytest.mark.parametrize("hold", [1, 2])
def test_D_W_E_variant_evilHold_makes_the_hold_last_longer(hold: int) -> None:
    """D-W-E (variant evilHold=2): the seven must hold through two Righteous rounds, not one."""
    s = seven_held(evilHold=hold)
    s.start()
    s.pass_turn(0)
    s.pass_turn(1)
    if hold == 1:
        assert s.g.result is not None and s.g.result.winner == "evil"
        return
    assert s.g.result is None
    s.pass_turn(0)
    s.pass_turn(1)
    assert s.g.result is not None and s.g.result.winner == "evil"
    assert s.g.result.reason == "7 Evil Habituals in play held for 2 rounds"


def _humility_zero(**settings: object) -> DuelScenario:
    s = DuelScenario("ER", phase="main", turn_seat=1, **settings)
    s.hand(1, ANCHOR).deck(1, *[R_FILL] * 30).deck(0, *[E_FILL] * 30).seat(1, humility=0)
    return s


@pytest.mark.parametrize("rounds", [0, 2])
def test_D_W_E_variant_humilityWin_evil_wins_when_every_righteous_seat_stays_at_humility_0(rounds: int) -> None:
    """D-W-E (variant humilityWin=2, a new Evil win): the lone Righteous seat ends two rounds in a
    row at Humility 0: Evil wins as the third round starts. As printed, play goes on."""
    s = _humility_zero(humilityWin=rounds)
    s.start()
    for _ in range(6):
        if s.g.result is not None:
            break
        s.pass_turn(s.g.turn_seat)
    if rounds == 0:
        assert s.g.result is None
    else:
        assert s.g.result is not None and s.g.result.winner == "evil"
        assert s.g.result.reason == "every Righteous seat ended 2 rounds in a row at Humility 0"


def test_D_W_E_variant_humilityWin_the_count_restarts_when_humility_rises() -> None:
    """humilityWin counts rounds in a row: a seat back above 0 at a round's end restarts it."""
    s = _humility_zero(humilityWin=2)
    s.start()
    s.pass_turn(1)          # round 1 ends at Humility 0
    assert s.d.zero_rounds == 1
    s.st.seats[1].humility = 3   # as a boost would
    s.pass_turn(0)
    s.pass_turn(1)
    assert s.d.zero_rounds == 0 and s.g.result is None


@pytest.mark.parametrize("limit", [0, 12])
def test_D_SCORE_variant_roundLimit_decides_on_the_score_after_the_last_round(limit: int) -> None:
    """D-SCORE (variant roundLimit): as printed a duel has no round limit (round 13 is play); with
    roundLimit=12 the duel ends as round 13 would start, decided on the stalemate score."""
    s = DuelScenario("ER", phase="main", turn_seat=1, round=11, roundLimit=limit)
    s.hand(1, ANCHOR).deck(1, *[R_FILL] * 30).deck(0, *[E_FILL] * 30)
    s.start()
    for _ in range(6):
        if s.g.result is not None:
            break
        s.pass_turn(s.g.turn_seat)
    if limit == 0:
        assert s.g.result is None and s.g.round >= 13
    else:
        res_ = s.g.result
        assert res_ is not None and res_.round == 13
        assert res_.reason == "round limit 12 reached: decided on the score at the round limit"
        r, e = s.g.score
        assert res_.winner == ("righteous" if r > e else "evil")


# --------------------------------------------------------------------------- records and positions
def _bots_duel(settings: Settings, seed: int) -> Game:
    from christianity_game.sim.simulate import play_one
    return play_one("duel", "ER", seed, "heuristic", settings.updated({"maxTurns": 300}), log=True)


def test_V_2_records_with_variants_replay_exactly_and_old_records_play_the_printed_rules() -> None:
    """V-2: variants live in the game's settings: a record replays as played; one without them plays printed."""
    settings = Settings().updated(V.PRESETS["recommended"])
    game = _bots_duel(settings, 5)
    assert game.result is not None
    rec = game.to_record()
    assert {k: rec["settings"][k] for k in V.PRESETS["recommended"]} == V.PRESETS["recommended"]
    again = Game.from_record(rec)
    assert again.result == game.result and again.state_id == game.state_id
    assert again.settings.variants == settings.variants
    # a record made before variants existed names none of them: it replays under the printed rules
    printed = _bots_duel(Settings(), 6)
    old = printed.to_record()
    old["settings"] = {k: v for k, v in old["settings"].items() if k not in V.BY_KEY}
    replayed = Game.from_record(old)
    assert replayed.settings.variants == {} and replayed.result == printed.result
    assert replayed.state_id == printed.state_id


def test_positions_carry_the_variant_tallies() -> None:
    s = finale_scenario(rewardCap=2)
    s.start()
    s.threaten(0, LEAVEN, 1)
    s.threaten(0, IDLE, 1)
    s.pass_interrupts()
    while s.decision() == "answer":
        s.take_hit(1)
    pos = s.g.to_position()
    assert pos["duel"]["given"] == [1, 0]
    again = Game.from_position(pos, mode="duel", lineup="ER", settings=s.g.settings)
    assert again.state.duel.given == s.d.given


def test_the_rules_document_lists_every_variant() -> None:
    from pathlib import Path
    rules = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    for v in V.VARIANTS:
        assert f"`{v.alias}`" in rules, v.alias
        assert all(r.split("-")[0] == "D" for r in v.rules)


@pytest.mark.parametrize("limit", [0, 3])
def test_D_INT_4_variant_threatLimit_stops_an_evil_seat_after_n_threats_a_turn(limit: int) -> None:
    """D-INT-4 (variant threatLimit=3): as printed the lone Evil seat plays its eight threats in one
    turn; with the variant it plays three, then no threat is offered and one tried is refused with
    the variant's reason; the next turn it may play again."""
    from christianity_game import IllegalAction, PlayCard
    s = DuelScenario("ER", phase="main", turn_seat=0, threatLimit=limit)
    s.hand(0, *[LEAVEN, IDLE] * 4).evil_cz(0, 8).deck(0, *[E_FILL] * 20)
    s.hand(1, R_FILL).untapped(1, 4 * (res(LEAVEN) + res(IDLE))).deck(1, *[R_FILL] * 10)
    s.start()
    played = 0
    while s.threat_plays(0) and played < 8:
        a = s.threat_plays(0)[0]
        s.do(a)
        played += 1
        s.take_rewards()
    assert played == (8 if limit == 0 else 3)
    if limit:
        left = next(u for u in s.st.seats[0].hand if s.g.defs[u].is_threat)
        with pytest.raises(IllegalAction):   # Evil has nothing left to decide: the target answers
            s.g.apply(PlayCard(0, left, None, 1))
        code, words = s.g.mode.why_illegal(s.g, PlayCard(0, left, None, 1))   # the reason, asked of the rules
        assert code == "threat_limit" and "threatLimit" in words
        assert s.d.plays[0] == 3
        s.answer_all(1)
        while s.g.turn_seat == 1 and s.g.result is None:
            s.pass_(s.decider())
        assert s.g.turn_seat == 0 and s.d.plays[0] == 0   # a new turn: the seat may threaten again


@pytest.mark.parametrize("limit", [0, 1])
def test_D_INT_4_variant_roundThreats_bounds_the_evil_side_a_round_per_righteous_seat(limit: int) -> None:
    """D-INT-4 (variant roundThreats=1): as printed the lone Evil seat of ERR plays its eight
    threats in its turn; with the variant the Evil side plays one a round for each Righteous seat
    (two here), then no threat is offered, on its own turn or as an interrupt on the Righteous
    turns, and one tried is refused with the variant's reason; the next round it may play again."""
    from christianity_game import IllegalAction, PlayCard
    s = DuelScenario("ERR", phase="main", turn_seat=0, roundThreats=limit)
    s.hand(0, *[LEAVEN, IDLE] * 4).evil_cz(0, 8).deck(0, *[E_FILL] * 20)
    for r in (1, 2):
        s.hand(r, R_FILL).untapped(r, 4 * (res(LEAVEN) + res(IDLE))).deck(r, *[R_FILL] * 10)
    s.start()
    played = 0
    while s.threat_plays(0) and played < 8:
        s.do(s.threat_plays(0)[0])
        played += 1
        s.take_rewards()
    assert played == (8 if limit == 0 else 2)
    if not limit:
        return
    assert s.d.round_threats == 2 and s.d.round_threats_no == s.st.round
    left = next(u for u in s.st.seats[0].hand if s.g.defs[u].is_threat)
    with pytest.raises(IllegalAction):
        s.g.apply(PlayCard(0, left, None, 1))
    code, words = s.g.mode.why_illegal(s.g, PlayCard(0, left, None, 1))
    assert code == "threat_limit" and "roundThreats" in words and "2 threats this round" in words
    first_round = s.st.round
    pos = s.g.to_position()   # the round's tally travels with a position
    assert pos["duel"]["round_threats"] == {"round": first_round, "played": 2}
    again = Game.from_position(pos, mode="duel", lineup="ERR", settings=s.g.settings)
    assert (again.state.duel.round_threats, again.state.duel.round_threats_no) == (2, first_round)
    assert not any(isinstance(a, PlayCard) for a in again.legal_actions(0))
    while s.decision() in ("interrupt", "answer", "reward"):
        target = next(t.target for t in s.st.threats) if s.st.threats else 1
        s.answer_all(target)
    s.pass_turn(0)
    for r in (1, 2):   # the Righteous turns of the same round: Evil is offered no interrupt window
        assert s.g.turn_seat == r
        s.pass_turn(r, interrupts=False)   # fails the test at an interrupt decision
    assert s.g.turn_seat == 0 and s.st.round == first_round + 1
    while s.decision() != "main":
        s.pass_(s.decider())   # type: ignore[arg-type]
    assert s.threat_plays(0), "a new round: the Evil side may threaten again"


@pytest.mark.parametrize("times", [1, 3])
def test_D_CZ_2_and_3_variant_outnumbered_scales_the_handicap(times: int) -> None:
    """D-CZ-2, D-CZ-3 (variant outnumbered=3): the outnumbered side gets its handicap three times
    over: EER's lone Righteous seat opens with 3 + 3 Cost Zone cards and draws Maturity + 2 + 3;
    ERR's lone Evil seat opens with 3 + 3 and lays up to 4 + 2 x 3. The side with more seats, and a
    1v1 duel, are untouched."""
    from christianity_game.engine.modes import DuelMode
    settings = Settings().updated({"outnumbered": times})
    eer = Game.new(mode="duel", lineup="EER", seed=2, settings=settings)
    err = Game.new(mode="duel", lineup="ERR", seed=2, settings=settings)
    er = Game.new(mode="duel", lineup="ER", seed=2, settings=settings)
    mode = DuelMode()
    assert mode.opening_cost_zone(eer, 2) == 3 + times and mode.opening_cost_zone(eer, 0) == 3
    assert mode.draw_count(eer, 2) == eer.state.seats[2].maturity + 2 + times
    assert mode.opening_cost_zone(err, 0) == 3 + times and mode.intake_cap(err, 0) == 4 + 2 * times
    assert mode.opening_cost_zone(err, 1) == 3 and mode.intake_cap(err, 1) == 4
    assert mode.opening_cost_zone(er, 0) == 3 and mode.intake_cap(er, 0) == 4
    assert len(eer.state.seats[2].cost_zone) == 3 + times   # dealt so


@pytest.mark.parametrize("alternate", [False, True])
def test_D_TURN_1_variant_alternateTurns_gives_an_outnumbered_righteous_side_a_turn_after_each_evil_seat(
        alternate: bool) -> None:
    """D-TURN-1 (variant alternateTurns): as printed EER's round is Evil, Evil, Righteous; with the
    variant the lone Righteous seat takes a turn after each Evil seat (E, R, E, R), both in the
    same round. An outnumbered Evil side (ERR), a 1v1 duel and equal sides keep the printed order;
    with more Righteous seats than one the extra turns go to them in turn (EEERR: E, R, E, R', E, R)."""
    settings = Settings().updated({"alternateTurns": alternate})

    def order(lineup: str) -> tuple[int, ...]:
        return Game.new(mode="duel", lineup=lineup, seed=3, settings=settings).turn_order

    assert order("EER") == ((0, 2, 1, 2) if alternate else (0, 1, 2))
    assert order("EEERR") == ((0, 3, 1, 4, 2, 3) if alternate else (0, 1, 2, 3, 4))
    assert order("ERR") == (0, 1, 2) and order("ER") == (0, 1) and order("EERR") == (0, 1, 2, 3)
    s = DuelScenario("EER", phase="main", turn_seat=2, alternateTurns=alternate)
    s.hand(2, ANCHOR).deck(0, *[E_FILL] * 10).deck(1, *[E_FILL] * 10).deck(2, *[R_FILL] * 10)
    s.start()
    first = s.st.round
    assert s.g.turn_seat == 2
    s.pass_turn(2)
    if alternate:   # the Righteous turn after Evil seat 0's; seat 1 and then seat 2 again, same round
        assert (s.g.turn_seat, s.st.round) == (1, first)
        s.pass_turn(1)
        assert (s.g.turn_seat, s.st.round) == (2, first)
        assert [e.seat for e in s.of_kind("turn_started")][-2:] == [1, 2]
        s.pass_turn(2)
    else:
        assert (s.g.turn_seat, s.st.round) == (0, first + 1)
        s.pass_turn(0)
        s.pass_turn(1)
        assert (s.g.turn_seat, s.st.round) == (2, first + 1)   # once a round, after both Evil seats
        s.pass_turn(2)
    assert (s.g.turn_seat, s.st.round) == (0, first + (1 if alternate else 2))


@pytest.mark.parametrize("alternate", [False, True])
def test_D_W_R_variant_alternateTurns_the_clean_round_still_lasts_a_full_round(alternate: bool) -> None:
    """D-W-R with alternateTurns: the lone Righteous seat's next turn comes half a round later, so
    the clean round armed on its turn is judged at its turn a whole round of turns later, not at
    that next one; as printed it is judged at the seat's next turn, one round later."""
    s = DuelScenario("EER", phase="main", turn_seat=2, alternateTurns=alternate)
    s.seat(2, maturity=3).hand(2, ANCHOR).deck(2, *[R_FILL] * 10)
    s.deck(0, *[E_FILL] * 10).deck(1, *[E_FILL] * 10)
    s.start()
    assert s.dview()["righteous_clock"] == {"seat": 2, "armed_turn": 1}
    if alternate:
        s.pass_turn(2)
        s.pass_turn(1)
        assert s.g.turn_seat == 2 and s.g.result is None   # half a round: not yet
    s.pass_turn(2)
    s.pass_turn(0)
    if not alternate:
        s.pass_turn(1)
    assert s.g.result is not None and s.g.result.winner == "righteous"
    assert s.st.turn_no == (5 if alternate else 4)   # judged as seat 2's turn starts, a round of turns on


@pytest.mark.parametrize("alternate", [False, True])
def test_D_W_E_variant_alternateTurns_the_righteous_side_gets_all_its_turns_of_the_round(alternate: bool) -> None:
    """D-W-E with alternateTurns: once the count stands, the Righteous side gets one full round, which
    is now two turns of its lone seat; Evil wins as the next Evil turn starts after both."""
    s = seven_held("EER", n=4, turn_seat=0, evilHabituals=2, alternateTurns=alternate)
    s.start()
    assert s.dview()["evil_limit"] == 4
    s.pass_turn(0)
    if alternate:
        assert s.g.turn_seat == 2
        s.pass_turn(2)
        assert s.g.turn_seat == 1 and s.g.result is None   # one of the round's two Righteous turns
        s.pass_turn(1)
        s.pass_turn(2)
    else:
        s.pass_turn(1)
        s.pass_turn(2)
    assert s.g.turn_seat == 0 and s.g.result is not None and s.g.result.winner == "evil"


def test_alternateTurns_positions_say_which_turn_of_the_round_and_records_replay() -> None:
    """A position of an alternating round names the turn's place in the order (``turn_index``), so
    a game resumed at the lone seat's second turn goes on to the next round, not to Evil seat 1
    again; a wrong one is refused with the order. Records with the variant replay exactly."""
    from christianity_game.engine.position_format import PositionError
    from christianity_game.sim.simulate import play_one
    s = DuelScenario("EER", phase="main", turn_seat=2, alternateTurns=True)
    s.hand(2, ANCHOR).deck(0, *[E_FILL] * 10).deck(1, *[E_FILL] * 10).deck(2, *[R_FILL] * 10)
    s.start()
    assert s.g.to_position()["turn_index"] == 1
    s.pass_turn(2)
    s.pass_turn(1)
    pos = s.g.to_position()
    assert (pos["turn_seat"], pos["turn_index"]) == (2, 3)
    again = Game.from_position(pos, mode="duel", lineup="EER", settings=s.g.settings)
    assert again.state.turn_index == 3
    with pytest.raises(PositionError, match=r"turn_index 2 is not a turn of seat 2 in this table's turn order \[0, 2, 1, 2\]"):
        Game.from_position({**pos, "turn_index": 2}, mode="duel", lineup="EER", settings=s.g.settings)
    printed = DuelScenario("EER", phase="main", turn_seat=2)
    printed.hand(2, ANCHOR).deck(2, *[R_FILL] * 5)
    printed.start()
    assert "turn_index" not in printed.g.to_position()   # the printed order names each seat once
    game = play_one("duel", "EER", 11, "heuristic", Settings().updated(
        {"alternateTurns": True, "evilHabituals": 3, "finaleReward": False, "maxTurns": 300}), log=True)
    assert game.result is not None
    replayed = Game.from_record(game.to_record())
    assert replayed.result == game.result and replayed.state_id == game.state_id
