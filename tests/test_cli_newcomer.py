"""A newcomer's first minutes in the terminal: solo without --lineup, scenario names that can be
typed at 80 columns, and no typed-ahead number landing on a prompt it was not meant for."""

from __future__ import annotations

import io
import re
import sys
import types
from typing import Any

from rich.console import Console
from typer.testing import CliRunner

from christianity_game import Game
from christianity_game.cli import app
from christianity_game.play_session import PlaySession
from christianity_game.engine.actions import PlayCard
from christianity_game.render.terminal import END_TURN, describe_actions, describe_event, render_board
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


# ------------------------------------------------------------------ a new deal each time
SEED_LINE = re.compile(r"Seed (\d+) — replay or deal again with --seed (\d+)")


def _play_without_seed() -> tuple[int, str]:
    """`play --mode solo` without --seed, quit at once: the seed it printed, and what it printed."""
    r = runner.invoke(app, ["play", "--mode", "solo"], input="q\n", env={"COLUMNS": "100"})
    assert r.exit_code == 0, r.output
    found = SEED_LINE.search(r.output)
    assert found, f"no seed printed:\n{r.output}"
    assert found.group(1) == found.group(2)
    return int(found.group(1)), r.output


def _deal(seed: int) -> list[list[str]]:
    """The cards of a solo deal in order: each seat's hand and deck, and the Evil deck."""
    game = Game.new("solo", "R", seed=seed)
    st = game.state
    piles = [list(sd.hand) + list(sd.deck) for sd in st.seats] + [list(st.evil_deck)]
    return [[game.defs[u].id for u in pile] for pile in piles]


def test_play_without_seed_deals_a_new_game_each_time_and_prints_its_seed() -> None:
    seeds = [_play_without_seed()[0] for _ in range(3)]
    assert len(set(seeds)) > 1, f"three runs without --seed dealt the same seed {seeds[0]}"
    a, b = sorted(set(seeds))[:2]
    assert _deal(a) != _deal(b), "two different printed seeds dealt the same game"


def test_the_printed_seed_replays_the_same_game() -> None:
    seed, first = _play_without_seed()
    again = runner.invoke(app, ["play", "--mode", "solo", "--seed", str(seed)], input="q\n", env={"COLUMNS": "100"})
    assert again.exit_code == 0, again.output
    assert not SEED_LINE.search(again.output), "a seed given with --seed is not announced again"
    shown = [line for line in first.splitlines() if not SEED_LINE.search(line)]
    assert shown == again.output.splitlines(), "--seed with the printed seed dealt another game"
    assert f"seed {seed}" in again.output


# ------------------------------------------------------------------ End your turn by reflex
def _menu(game: Game, seat: int) -> list[str]:
    """The options as the session lists them (copies of one action once), in order."""
    texts: list[str] = []
    for text in describe_actions(game, game.pending[0][1]):
        if text not in texts:
            texts.append(text)
    return texts


def _main_phase_with_a_card_to_play(answer_to_question: str) -> tuple[Game, list[str], dict[str, Any]]:
    """A solo game played to its first Main phase where a card can be played; there the person
    takes End your turn and answers the question with ``answer_to_question``, then quits."""
    game = Game.new("solo", "R", seed=3)
    console = Console(file=io.StringIO(), width=100)
    session = PlaySession(game, console, {}, {})
    prompts: list[str] = []
    seen: dict[str, Any] = {}

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        assert len(prompts) < 300, "never reached a Main phase with a card to play"
        if "End your turn anyway?" in prompt:
            seen["asked_in_turn"] = game.state.turn_no
            return answer_to_question
        if "asked_in_turn" in seen:   # the first prompt after the answer: see where the game is, then quit
            seen["turn_after"] = game.state.turn_no
            seen["pending_after"] = _menu(game, 0)
            return "q"
        texts = _menu(game, 0)
        playable = any(isinstance(a, PlayCard) for a in game.pending[0][1])
        if playable and END_TURN in texts:
            seen["options"] = texts
            return str(texts.index(END_TURN) + 1)
        return "1"

    session.ask = ask
    assert session.run() == 0
    return game, prompts, seen


def test_ending_the_turn_with_a_card_to_play_asks_first_and_no_keeps_the_turn() -> None:
    _game, prompts, seen = _main_phase_with_a_card_to_play("n")
    assert "asked_in_turn" in seen, "End your turn with a playable card in hand was taken without a question"
    question = next(p for p in prompts if "End your turn anyway?" in p)
    assert "you can still play" in question
    assert seen["turn_after"] == seen["asked_in_turn"], "answering no ended the turn anyway"
    assert seen["pending_after"] == seen["options"], "answering no did not give the same options back"


def test_ending_the_turn_with_a_card_to_play_and_yes_ends_it() -> None:
    _game, _prompts, seen = _main_phase_with_a_card_to_play("y")
    assert "asked_in_turn" in seen
    assert seen["turn_after"] != seen["asked_in_turn"], "answering yes did not end the turn"


# ------------------------------------------------------------------ one Righteous seat, no team
def test_a_solo_game_in_the_terminal_never_speaks_of_a_team() -> None:
    """Solo has one Righteous seat: reaching the shared level, gaining an ability and the status
    line name that seat ("Seat 1 has reached L1"), never "the team" or a teammate."""
    r = runner.invoke(app, ["play", "--mode", "solo", "--all-bots", "--seed", "2"], env={"COLUMNS": "100"})
    assert r.exit_code == 0, r.output
    assert "reached L" in r.output, "the game never reached a shared level: pick another seed"
    teamy = [line for line in r.output.splitlines() if "team" in line.lower()]
    assert not teamy, teamy[:5]
    assert "Seat 1 has reached L" in r.output and "Seat 1 gains" in r.output


def test_texts_follow_the_number_of_righteous_seats() -> None:
    level = {"kind": "shared_level", "seat": None, "level": 1}
    gained = {"kind": "ability_gained", "seat": 1, "ability": "speed", "how": "chosen"}
    assert describe_event(level, righteous=[1]) == "★ Seat 2 has reached L1"
    assert describe_event(gained, righteous=[1]) == "Seat 2 gains Speed (chosen free)"
    assert describe_event(level, righteous=[0, 1]) == "★ The whole team has reached L1"
    assert "team" in (describe_event(gained, righteous=[0, 1]) or "")
    duel = Game.new("duel", "ER", seed=1)   # one Righteous seat in a duel: no team on its board
    out = io.StringIO()
    Console(file=out, width=100).print(render_board(duel.view(1), duel.cards))
    status = [line for line in out.getvalue().splitlines() if "Abilities" in line]
    assert status and not any("team" in line for line in status), status
