"""Duel scenarios (issue 3): named presets, chosen by name, built by the position mechanism."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from christianity_game import Settings
from christianity_game.bots import make_bot, play_out
from christianity_game.cli import app
from christianity_game.engine.duel import dominance
from christianity_game.engine.duel_clocks import evil_limit
from christianity_game.scenarios import ScenarioError, all_scenarios, scenario

NAMES = list(all_scenarios())


def test_the_bundled_scenarios_include_the_named_presets() -> None:
    assert {"duel-1v1", "evil-at-6-habituals", "righteous-at-l3-one-habitual", "combo-finale"} <= set(NAMES)
    for sc in all_scenarios().values():
        assert sc.mode == "duel" and "E" in sc.lineup and "R" in sc.lineup
        assert sc.title and sc.description


@pytest.mark.parametrize("name", NAMES)
def test_each_scenario_starts_a_consistent_game_that_plays_to_an_end(name: str) -> None:
    game = scenario(name).new_game(seed=5, settings=Settings(max_turns=120))
    zones = game.card_zone_map()
    assert sorted(zones) == list(range(len(game.defs)))   # every card in exactly one zone
    assert game.pending, "a scenario starts with a decision waiting"
    bots = {i: make_bot("heuristic", 11 + i, game.cards) for i in range(len(game.lineup))}
    play_out(game, bots)
    assert game.result is not None and game.result.winner in ("righteous", "evil")
    replayed = type(game).from_record(json.loads(json.dumps(game.to_record())))
    assert replayed.view(None) == game.view(None)


def test_evil_at_6_habituals_is_what_it_says() -> None:
    game = scenario("evil-at-6-habituals").new_game(seed=1)
    held = game.state.seats[1].held
    assert len(held) == 6 and all(game.owner[u] == 0 for u in held)
    assert dominance(game, 0) == 2   # D-DOM-1: 6 own Habituals in play, C2 less
    assert game.view(0)["duel"]["dominance"]["0"] == 2


def test_righteous_at_l3_with_one_habitual_left() -> None:
    game = scenario("righteous-at-l3-one-habitual").new_game(seed=1)
    r = game.state.seats[1]
    assert r.maturity == 3 and len(r.held) == 1 and game.turn_seat == 1 and game.phase == "main"


def test_an_unknown_scenario_is_refused_with_the_known_names() -> None:
    with pytest.raises(ScenarioError, match="known: duel-1v1"):
        scenario("no-such-thing")


def test_cli_lists_plays_and_simulates_scenarios() -> None:
    runner = CliRunner()
    listed = runner.invoke(app, ["scenarios"])
    assert listed.exit_code == 0 and "combo-finale" in listed.output
    played = runner.invoke(app, ["play", "--scenario", "combo-finale", "--all-bots", "--seed", "2",
                                 "--set", "maxTurns=80"])
    assert played.exit_code == 0, played.output
    assert "Game over" in played.output
    sim = runner.invoke(app, ["simulate", "--scenario", "duel-1v1", "--games", "3", "--json"])
    assert sim.exit_code == 0, sim.output
    data = json.loads(sim.output)
    assert data["mode"] == "duel" and data["lineup"] == "ER" and data["games"] == 3
    bad = runner.invoke(app, ["play", "--scenario", "nope"])
    assert bad.exit_code == 2 and "unknown scenario" in bad.output


# --------------------------------------------------------------------------- goals at a variant table
def test_the_goals_name_the_printed_evil_win_at_a_printed_table() -> None:
    assert scenario("duel-1v1").goal.endswith("Evil: 7 Evil Habituals in play, held through the Righteous turn.")
    assert "Evil: 7 Evil Habituals in play, held through both Righteous turns." in scenario("duel-evil-outnumbered").goal
    assert "Evil: 14 Evil Habituals in play (7 per Evil seat), held through the Righteous turn." in \
        scenario("duel-righteous-outnumbered").goal
    six = scenario("evil-at-6-habituals")
    assert "keep Evil below 7" in six.goal and "the Evil win needs 7" in six.description
    for sc in all_scenarios().values():   # the lobby's and the board's words are the same
        assert sc.to_json()["goal"] == (sc.goal or sc.description) and "{" not in sc.to_json()["goal"]
        assert sc.to_json()["description"] == sc.description


@pytest.mark.parametrize("name", NAMES)
def test_a_goal_follows_the_tables_variants(name: str) -> None:
    """evilHabituals=2 (the recommended preset's), evilHold=2, humilityWin=3 and roundLimit=20: the goal
    names this table's Evil win, never the printed 7 Habituals, and the count the engine plays by."""
    from christianity_game.engine.variants import parse_variants
    from christianity_game.render.table_words import evil_win, evil_win_count

    sc = scenario(name)
    table = Settings().updated(parse_variants("recommended,evilHold=2,humilityWin=3,roundLimit=20"))
    goal, description = sc.goal_for(table), sc.description_for(table)
    game = sc.new_game(seed=1, settings=table)
    assert evil_win_count(game.settings, sc.lineup) == evil_limit(game) == 2 * sc.lineup.count("E")
    for text in (goal, description):
        assert "7 Evil Habituals" not in text and "14 Evil Habituals" not in text and "{" not in text
    assert goal.endswith("After round 20 the stalemate score decides.")
    if "{evil_win}" in (sc.goal_text or sc.description_text):
        assert evil_win(game.settings, sc.lineup) in goal
        assert f"{evil_limit(game)} Evil Habituals in play" in goal and "2 rounds of Righteous turns" in goal
        assert "at Humility 0 at the end of 3 rounds in a row" in goal
    assert sc.goal_for() == (sc.goal or sc.description)   # no table: the scenario's own settings


def test_the_evil_win_is_worded_for_each_line_up_and_setting() -> None:
    from christianity_game.render.table_words import evil_win

    printed = Settings()
    assert evil_win(printed, "ER") == "7 Evil Habituals in play, held through the Righteous turn"
    assert evil_win(printed, "ERR") == "7 Evil Habituals in play, held through both Righteous turns"
    assert evil_win(printed, "ERRR") == "7 Evil Habituals in play, held through all 3 Righteous turns"
    assert evil_win(printed, "EER") == "14 Evil Habituals in play (7 per Evil seat), held through the Righteous turn"
    assert evil_win(Settings(evil_habituals=1), "ER") == "1 Evil Habitual in play, held through the Righteous turn"
    assert evil_win(Settings(evil_hold=3), "ER").endswith("held through 3 rounds of Righteous turns")
    assert evil_win(Settings(humility_win=1), "ER").endswith("; or the Righteous seat at Humility 0 at the end of a round")
    assert evil_win(Settings(humility_win=2), "ERR").endswith(
        "; or every Righteous seat at Humility 0 at the end of 2 rounds in a row")


def test_a_scenario_file_that_names_an_unknown_word_is_refused() -> None:
    from christianity_game.scenarios import _parse

    text = '[scenario]\ntitle = "T"\ndescription = "D"\nmode = "duel"\nlineup = "ER"\ngoal = "Evil: {evil_wins}."\n'
    with pytest.raises(ScenarioError, match=r"scenario x: \[scenario\] goal names 'evil_wins'"):
        _parse("x", text)
    assert _parse("x", text.replace("{evil_wins}", "{evil_count} {{or}}")).goal == "Evil: 7 {or}."


def test_play_says_the_scenario_goal_at_the_tables_variants() -> None:
    runner = CliRunner()
    played = runner.invoke(app, ["play", "--scenario", "duel-righteous-outnumbered", "--all-bots", "--seed", "2",
                                 "--variants", "evilHabituals=3", "--set", "maxTurns=6"], env={"COLUMNS": "400"})
    assert played.exit_code == 0, played.output
    assert "Scenario: Righteous outnumbered (2v1). Goal:" in played.output
    assert "Evil: 6 Evil Habituals in play (3 per Evil seat), held through the Righteous turn." in played.output
    listed = runner.invoke(app, ["scenarios"], env={"COLUMNS": "400"})
    assert "Goal: Righteous: reach L3" in listed.output
