"""Duel scenarios (issue 3): named presets, chosen by name, built by the position mechanism."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from christianity_game import Settings
from christianity_game.bots import make_bot, play_out
from christianity_game.cli import app
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
    assert game.dominance(0) == 2   # D-DOM-1: 6 own Habituals in play, C2 less
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
