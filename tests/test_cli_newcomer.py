"""A newcomer's first minutes in the terminal: solo without --lineup, scenario names that can be
typed at 80 columns, and no typed-ahead number landing on a prompt it was not meant for."""

from __future__ import annotations

import sys
import types
from typing import Any

from rich.console import Console
from typer.testing import CliRunner

from christianity_game import Game
from christianity_game.cli import PlaySession, app
from christianity_game.scenarios import all_scenarios

runner = CliRunner()


def test_play_solo_needs_no_lineup() -> None:
    r = runner.invoke(app, ["play", "--mode", "solo"], input="q\n", env={"COLUMNS": "100"})
    assert r.exit_code == 0, r.output
    assert "solo is one Righteous seat" not in r.output
    assert "Seat 1" in r.output and "You left the game" in r.output


def test_simulate_solo_needs_no_lineup() -> None:
    r = runner.invoke(app, ["simulate", "--mode", "solo", "--games", "2", "--json"])
    assert r.exit_code == 0, r.output


def test_scenario_names_are_whole_at_80_columns() -> None:
    r = runner.invoke(app, ["scenarios"], env={"COLUMNS": "80"})
    assert r.exit_code == 0
    lines = r.output.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    for name in all_scenarios():
        assert any(line.strip().split(" ")[0] == name for line in lines), f"{name} is not printed whole"


class _Bot:
    def decide(self, game: Game, seat: int, actions: list[Any]) -> Any:
        return actions[0]


def test_keys_typed_while_bots_move_are_dropped_before_the_next_prompt(monkeypatch: Any) -> None:
    """Keys typed while the game moved on by itself are flushed from the terminal before the next
    prompt (termios.tcflush), so a number meant for an earlier prompt does not answer this one."""
    flushed: list[int] = []
    fake = types.SimpleNamespace(TCIFLUSH=0, tcflush=lambda fd, how: flushed.append(fd))
    monkeypatch.setitem(sys.modules, "termios", fake)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stdin, "fileno", lambda: 0, raising=False)
    game = Game.new("duel", "ER", seed=1)
    console = Console(file=open("/dev/null", "w"), width=100)
    session = PlaySession(game, console, {0: _Bot()}, {0: "first"})
    prompts: list[str] = []
    session.ask = lambda prompt: (prompts.append(prompt), "q")[1]   # answers as if typed at the terminal
    assert session.run() == 0
    assert prompts, "the person was never asked"
    assert flushed == [0], "typed-ahead keys were not dropped before the person's prompt"


def test_readme_and_docs_stand_alone_in_a_fresh_clone() -> None:
    """The README and docs point at nothing outside the repository, and every file they link exists."""
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    docs = [root / "README.md", *sorted((root / "docs").rglob("*.md"))]
    for doc in docs:
        text = doc.read_text(encoding="utf-8")
        assert "../shared" not in text, f"{doc.name} points outside the repository"
        for target in re.findall(r"\]\(([^)#\s]+)[^)]*\)", text):
            if "://" in target or target.startswith("mailto:"):
                continue
            assert (doc.parent / target).exists(), f"{doc.name} links to a missing {target}"
    rules = (root / "docs" / "rules.md").read_text(encoding="utf-8")
    for rule_id in ("G-1", "S-4", "Z-5", "P-7", "A-2", "CO-W-3", "D-COMBO-1", "D-W-E", "D-SCORE", "M-4"):
        assert f"**{rule_id}" in rules or f"{rule_id} " in rules, rule_id
