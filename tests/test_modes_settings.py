"""M-1 (the modes) and M-2 (settings by name and by URL-style alias) at the library and CLI level.

The web menu's side of M-1/M-2 is tested with the browser client; here: every mode is selectable
by name, the settings have one set of names everywhere, and bad names or values are refused.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from christianity_game import Game, Settings
from christianity_game.cli import app
from christianity_game.engine.modes import mode_by_name
from christianity_game.scenarios import all_scenarios


@pytest.mark.parametrize(("mode", "lineup"), [("coop", "RR"), ("coop", "RRRR"), ("solo", "R"), ("duel", "ER"),
                                              ("duel", "EER"), ("duel", "ERR")])
def test_M1_each_mode_is_chosen_by_name(mode: str, lineup: str) -> None:
    """M-1: co-op (any number of Righteous seats), solo, duel (both sides)."""
    game = Game.new(mode=mode, lineup=lineup, seed=3)
    assert game.mode.name == mode and game.lineup == lineup
    assert game.view(None)["mode"] == mode


def test_M1_duel_scenarios_are_a_menu_of_presets() -> None:
    """M-1: duel scenarios (preset line-ups and positions, chosen from a menu)."""
    presets = all_scenarios()
    assert len(presets) >= 5
    assert any(p.position is not None for p in presets.values())
    assert any(p.position is None for p in presets.values())


def test_M1_bad_modes_and_lineups_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown mode"):
        mode_by_name("chess")
    with pytest.raises(ValueError, match="co-op has no Evil seats"):
        Game.new(mode="coop", lineup="ER")
    with pytest.raises(ValueError, match="solo is one Righteous seat"):
        Game.new(mode="solo", lineup="RR")
    with pytest.raises(ValueError, match="at least one Evil seat"):
        Game.new(mode="duel", lineup="RR")


def test_M2_settings_have_url_aliases() -> None:
    """M-2: evilInterrupt, matAbilities, soloFee and humility_rollover by name or URL alias."""
    s = Settings().updated({"evilInterrupt": "0", "matAbilities": "0", "soloFee": "3", "humility_rollover": "false"})
    assert (s.evil_interrupt, s.mat_abilities, s.solo_fee, s.humility_rollover) == (False, False, 3, False)
    assert Settings.from_dict(s.to_dict()) == s


@pytest.mark.parametrize(("data", "message"), [({"evilInterupt": "0"}, "unknown setting"),
                                               ({"soloFee": "4"}, "solo_fee must be 1, 2 or 3"),
                                               ({"matAbilities": "maybe"}, "must be 0/1"),
                                               ({"maxRounds": "ten"}, "whole number")])
def test_M2_bad_settings_are_refused_clearly(data: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Settings().updated(data)


def test_M2_the_cli_takes_the_same_settings() -> None:
    runner = CliRunner()
    ok = runner.invoke(app, ["simulate", "--mode", "duel", "--lineup", "ER", "--games", "2", "--json",
                             "--set", "evilInterrupt=0", "--set", "matAbilities=0"])
    assert ok.exit_code == 0, ok.output
    bad = runner.invoke(app, ["simulate", "--games", "2", "--set", "soloFee=9"])
    assert bad.exit_code == 2 and "solo_fee" in bad.output
