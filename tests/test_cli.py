"""The command line (``christianity-game``): play, simulate, cards, replay, bench, and errors.

Everything runs in-process through Typer's CliRunner, except one check of ``python -m``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import types
from pathlib import Path

import pytest
from typer.testing import CliRunner

from christianity_game import Game
from christianity_game.cli import app, main

runner = CliRunner()
ENV = {"COLUMNS": "120"}

BROKEN_DECK = """\
[deck]
id = "mine"
name = "My Deck"
side = "righteous"
description = "A deck with a broken card."

[[cards]]
id = "my-card"
name = "My Card"
kind = "maturity"
cost = "three"
copies = 2
text = "Maturity +1."
"""

GOOD_DECK = """\
[deck]
id = "mine"
name = "My Own Deck"
side = "righteous"
description = "A user's deck: one new card plus starter cards."

[[cards]]
id = "my-card"
name = "My Very Own Card"
kind = "maturity"
cost = 2
copies = 10
text = "Maturity +1. H+1."
effects = [{op = "humility", amount = 1}]

[[cards]]
id = "still-waters"
copies = 10

[[cards]]
id = "rod-and-staff"
copies = 10

[[cards]]
id = "lord-is-my-shepherd"
copies = 10
"""


def invoke(args: list[str], input: str | None = None):  # type: ignore[no-untyped-def]
    result = runner.invoke(app, args, input=input, env=ENV)
    assert "Traceback" not in result.output, result.output
    return result


# ------------------------------------------------------------------------------------ play: bots
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_all_bots_play_a_full_game_and_save_it(tmp_path: Path, bot: str) -> None:
    save = tmp_path / "game.json"
    result = invoke(["play", "--all-bots", "--bot", bot, "--seed", "3", "--save", str(save)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Game over" in out
    assert "Final score" in out
    assert f"({bot})" in out                # bot moves are shown as they happen
    assert "Humility" in out and "Maturity L" in out
    record = json.loads(save.read_text())
    game = Game.from_record(record)         # the saved record replays to the same end
    assert game.result is not None
    assert game.result.winner in out.lower()


def test_some_seats_bots_others_people(tmp_path: Path) -> None:
    # Seat 2 is a bot; seat 1 quits at once: the bot never acted, the game is saved.
    save = tmp_path / "g.json"
    result = invoke(["play", "--bots", "2", "--save", str(save)], input="q\n")
    assert result.exit_code == 0
    assert "Seat 2: The Watchman (bot heuristic)" in result.stdout
    assert "Seat 1: The Shepherd (person)" in result.stdout
    assert json.loads(save.read_text())["actions"] == []


# ------------------------------------------------------------------------------------ play: people
def test_human_turns_with_junk_and_illegal_input(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = invoke(["play", "--mode", "coop", "--lineup", "RR", "--seed", "7", "--save", str(save)],
                    input="junk\n99\n0\n\n1\n1\nq\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "'junk' is not an option" in out
    assert "There is no option 99" in out
    assert "There is no option 0" in out
    assert "Your options" in out or "your options" in out
    assert "Saved the game" in out
    record = json.loads(save.read_text())
    assert len(record["actions"]) == 2       # the two valid choices, nothing else
    assert Game.from_record(record).state_id == 2


def test_engine_refusal_is_explained_not_raised() -> None:
    # An action typed as JSON for the wrong seat: the engine's own message, and the prompt again.
    result = invoke(["play"], input='{"type": "Pass", "seat": 1}\n{"type": "Nope"}\n{bad json\nq\n')
    assert result.exit_code == 0
    out = result.stdout
    assert "Not allowed: seat 1 may not act now" in out
    assert "not_your_decision" in out
    assert "Not an action: unknown action type 'Nope'" in out
    assert "That is not valid JSON" in out


def test_manual_badge_adjustment(tmp_path: Path) -> None:  # S-8
    save = tmp_path / "g.json"
    result = invoke(["play", "--save", str(save)], input="m h 12\nm x 1\nm h five\nm h 6\nm\nm\n2\nq\n")
    assert result.exit_code == 0
    out = result.stdout
    assert "humility must be between 0 and 10" in out
    assert "'x' is not a badge" in out
    assert "'five' is not a whole number" in out
    assert "Humility 6/10" in out
    assert "Maturity L2" in out
    assert "set Humility by hand: 3 → 6 (S-8)" in out
    actions = json.loads(save.read_text())["actions"]
    assert actions == [{"type": "AdjustBadge", "seat": 0, "badge": "humility", "value": 6},
                       {"type": "AdjustBadge", "seat": 0, "badge": "maturity", "value": 2}]


def test_help_and_card_details() -> None:
    result = invoke(["play"], input="?\n? 2\n? 1\n? x\nq\n")
    assert result.exit_code == 0
    out = result.stdout
    assert "Type the number of an option" in out
    assert "Option 1 is not about a card" in out     # option 1 is "Done laying"
    assert "Write ? and an option number" in out


def test_hot_seat_hides_the_other_hand() -> None:
    game = Game.new(mode="coop", lineup="RR", seed=7)
    mine = {c["name"] for c in game.view(0)["seats"][0]["hand"]}
    theirs = {c["name"] for c in game.view(1)["seats"][1]["hand"]} - mine
    assert theirs
    result = invoke(["play", "--seed", "7"], input="q\n")
    out = result.stdout
    for name in mine:
        assert name in out
    for name in theirs:
        assert name not in out


def test_hot_seat_hand_over_between_people() -> None:
    # Pass (option 1) again and again: seat 1's turn ends and the keyboard goes to seat 2.
    result = invoke(["play", "--seed", "7", "--handoff"], input="1\ny\n" * 20 + "q\n")
    assert result.exit_code == 0
    assert "Pass the keyboard to Seat 2" in result.stdout
    assert "Seat 2 › choose" in result.stdout


def test_input_ending_stops_the_game_cleanly(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    result = invoke(["play", "--save", str(save)], input="1\n")
    assert result.exit_code == 1
    assert "Input ended" in result.stdout
    assert len(json.loads(save.read_text())["actions"]) == 1


def test_solo_game_starts() -> None:
    result = invoke(["play", "--mode", "solo", "--lineup", "R", "--set", "soloFee=2"], input="q\n")
    assert result.exit_code == 0
    assert "SOLO" in result.stdout


def test_user_deck_is_played_and_recorded(tmp_path: Path) -> None:
    deck = tmp_path / "mine.toml"
    deck.write_text(GOOD_DECK)
    save = tmp_path / "g.json"
    result = invoke(["play", "--deck", str(deck), "--save", str(save)], input="q\n")
    assert result.exit_code == 0, result.output
    assert "Seat 1: My Own Deck (person)" in result.stdout
    record = json.loads(save.read_text())
    assert record["decks"][0] == "mine"
    assert Game.from_record(record).deck_lists[0][0] == "mine"
    # --decks picks decks explicitly, the user's among them
    result = invoke(["play", "--deck", str(deck), "--decks", "watchman,mine,evil"], input="q\n")
    assert result.exit_code == 0, result.output
    assert "Seat 2: My Own Deck (person)" in result.stdout


# ------------------------------------------------------------------------------------ bad flags
@pytest.mark.parametrize("args, message", [
    (["play", "--mode", "chess"], "unknown mode 'chess'"),
    (["play", "--lineup", "RXR"], "lineup"),
    (["play", "--lineup", "RE"], "co-op has no Evil seats"),
    (["play", "--set", "matAbilities=maybe"], "mat_abilities must be 0/1 or true/false"),
    (["play", "--set", "colour=blue"], "unknown setting 'colour'"),
    (["play", "--set", "matAbilities"], "--set takes key=value"),
    (["play", "--set", "soloFee=9"], "solo_fee must be 1, 2 or 3"),
    (["play", "--decks", "shepherd,nosuch,evil"], "unknown deck 'nosuch'"),
    (["play", "--decks", "shepherd,evil"], "need 3 deck ids"),
    (["play", "--bots", "3"], "there is no seat 3"),
    (["play", "--bots", "one"], "--bots takes seat numbers"),
    (["play", "--all-bots", "--bot", "genius"], "unknown bot 'genius'"),
    (["play", "--deck", "/no/such/deck.toml"], "cannot read the file"),
    (["simulate", "--mode", "chess"], "unknown mode 'chess'"),
    (["simulate", "--lineup", "RRRRRRR"], "1 to 6 Righteous seats"),
    (["simulate", "--games", "0"], "--games must be at least 1"),
    (["simulate", "--bots", "genius"], "unknown bot 'genius'"),
    (["simulate", "--bots", "random,random,random"], "one level for every seat or one a seat"),
    (["cards", "--side", "purple"], "--side must be righteous or evil"),
    (["replay", "/no/such/record.json"], "cannot read"),
])
def test_bad_flags_exit_2_with_one_clear_line(args: list[str], message: str) -> None:
    result = invoke(args)
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert message in err
    assert err.startswith("Error: ")
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize("argv, message", [
    (["play", "--seed", "abc"], "'--seed'"),
    (["play", "--colour"], "No such option: --colour"),
    (["nosuchcommand"], "No such command"),
])
def test_console_script_usage_errors_are_one_line(argv: list[str], message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert message in err
    assert len(err.splitlines()) == 1
    assert "Traceback" not in err


def test_console_script_runs_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["cards", "--side", "evil"])
    assert exc.value.code == 0
    assert "Pride" in capsys.readouterr().out


def test_python_dash_m_runs_the_same_cli() -> None:
    proc = subprocess.run([sys.executable, "-m", "christianity_game", "--help"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0
    for command in ("play", "simulate", "cards", "replay", "bench"):
        assert command in proc.stdout


# ------------------------------------------------------------------------------------ simulate
def test_simulate_json_parses_and_has_the_fields() -> None:
    result = invoke(["simulate", "--games", "3", "--seed", "5", "--bots", "heuristic", "--set", "matAbilities=0",
                     "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)          # stdout is only JSON
    for key in ("games", "righteous_wins", "win_rate", "avg_rounds", "avg_score", "reasons"):
        assert key in data
    assert data["games"] == 3
    assert 0.0 <= data["win_rate"] <= 1.0
    assert len(data["avg_score"]) == 2
    assert sum(data["reasons"].values()) == 3


def test_simulate_table() -> None:
    result = invoke(["simulate", "--games", "2", "--bots", "random"])
    assert result.exit_code == 0, result.output
    for text in ("Win rate", "Average rounds", "Average score", "How the games ended"):
        assert text in result.stdout


# ------------------------------------------------------------------------------------ cards
def test_cards_lists_the_starter_set() -> None:
    result = invoke(["cards"])
    assert result.exit_code == 0
    for text in ("The Shepherd", "The Watchman", "The Evil Deck", "Pride", "Feed My Sheep"):
        assert text in result.stdout


def test_cards_side_filter() -> None:
    result = invoke(["cards", "--side", "evil"])
    assert result.exit_code == 0
    assert "Pride" in result.stdout
    assert "Feed My Sheep" not in result.stdout


def test_cards_broken_deck_names_file_card_and_field(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text(BROKEN_DECK)
    result = invoke(["cards", "--deck", str(broken)])
    assert result.exit_code == 2
    err = result.stderr
    assert "broken.toml" in err
    assert "'my-card'" in err
    assert "field cost" in err
    # and play refuses it the same way
    result = invoke(["play", "--deck", str(broken)])
    assert result.exit_code == 2
    assert "field cost" in result.stderr


def test_cards_good_deck_is_listed(tmp_path: Path) -> None:
    deck = tmp_path / "mine.toml"
    deck.write_text(GOOD_DECK)
    result = invoke(["cards", "--deck", str(deck)])
    assert result.exit_code == 0, result.output
    assert "valid" in result.stdout
    assert "My Very Own Card" in result.stdout
    assert "Feed My Sheep" not in result.stdout   # only the user's decks are listed


# ------------------------------------------------------------------------------------ replay
def test_replay_of_a_saved_game(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    assert invoke(["play", "--all-bots", "--bot", "random", "--seed", "11", "--save", str(save)]).exit_code == 0
    total = len(json.loads(save.read_text())["actions"])
    result = invoke(["replay", str(save)])
    assert result.exit_code == 0, result.output
    assert f"after action {total} of {total}" in result.stdout
    assert "Game over" in result.stdout
    result = invoke(["replay", str(save), "--upto", "5", "--seat", "1"])
    assert result.exit_code == 0, result.output
    assert f"after action 5 of {total}" in result.stdout
    assert "Next: Seat" in result.stdout
    assert "Your hand" in result.stdout


@pytest.mark.parametrize("content, message", [
    ("not json at all", "is not valid JSON"),
    ('{"format": "something-else"}', "not a game record"),
    ('{"format": "christianity-game-record", "version": 1, "mode": "coop", "lineup": "RR", "seed": 1, '
     '"settings": {}, "decks": ["shepherd", "watchman", "evil"], '
     '"actions": [{"type": "PlayCard", "seat": 1, "card": 3}]}', "action 1"),
])
def test_replay_of_a_broken_file(tmp_path: Path, content: str, message: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    result = invoke(["replay", str(bad)])
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


# ------------------------------------------------------------------------------------ bench
def test_bench_uses_the_bench_module(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = types.ModuleType("christianity_game.bench")
    fake.run_bench = lambda: {"actions_per_s": 123}  # type: ignore[attr-defined]
    fake.format_bench = lambda r: f"actions/s: {r['actions_per_s']}"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "christianity_game.bench", fake)
    result = invoke(["bench"])
    assert result.exit_code == 0
    assert "actions/s: 123" in result.stdout
