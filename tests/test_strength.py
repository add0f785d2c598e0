"""``python -m christianity_game.bots.strength`` (issue 24): a bot's gain over the heuristic on the
same deals, by side; outside bots enter by import path, as on the ladder, and a run resumes only
its own games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from christianity_game.bots.strength import main, paired

OUTSIDE = "christianity_game.bots.base:RandomBot"


def run(tmp_path: Path, *args: str, out: str = "s.jsonl") -> int:
    return main(["--lineup", "ER", "--variants", "rewardCap=2,roundLimit=20", "--seed", "3",
                 "--out", str(tmp_path / out), *args])


def test_an_outside_bot_takes_each_side_on_the_same_deals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "--bot", OUTSIDE, "--games", "3") == 0
    rows = [json.loads(line) for line in (tmp_path / "s.jsonl").read_text().splitlines()]
    assert [r["cell"] for r in rows] == ["baseline", "bot_evil", "bot_righteous"] * 3
    by_cell = {r["cell"]: r for r in rows if r["seed"] == 0}
    assert by_cell["bot_evil"]["seats"] == [OUTSIDE, "heuristic"]
    assert by_cell["bot_righteous"]["seats"] == ["heuristic", OUTSIDE]
    assert len({r["game_seed"] for r in rows if r["seed"] == 0}) == 1   # one deal, three games
    assert all(r["outcome"] in ("righteous", "evil", "cap") for r in rows)
    out = capsys.readouterr().out
    assert f"bot={OUTSIDE}" in out and "paired bot_evil" in out and "paired bot_righteous" in out


def test_a_run_resumes_its_own_games_and_refuses_another_runs(tmp_path: Path) -> None:
    assert run(tmp_path, "--bot", "random", "--games", "2", "--sides", "righteous") == 0
    path = tmp_path / "s.jsonl"
    first = path.read_text()
    # a killed run leaves half a line: it is dropped and played again
    path.write_text(first + first.splitlines()[0][:25])
    assert run(tmp_path, "--bot", "random", "--games", "3", "--sides", "righteous") == 0
    lines = path.read_text().splitlines()
    assert path.read_text().startswith(first) and len(lines) == 6
    assert all(json.loads(line) for line in lines)
    # the same file for another bot, or other variants, would mix two runs
    for other in (["--bot", "heuristic"], ["--bot", "random", "--variants", "rewardCap=3"]):
        with pytest.raises(SystemExit) as ended:
            run(tmp_path, "--games", "3", "--sides", "righteous", *other)   # the last --variants counts
        assert ended.value.code == 2
    assert path.read_text().splitlines() == lines   # nothing lost


@pytest.mark.parametrize("args, message", [
    (["--bot", "genius"], "unknown bot 'genius'"),
    (["--bot", "mcts:fast"], "bad mcts budget"),
    (["--bot", "nowhere.at.all:Bot"], "cannot import 'nowhere.at.all'"),
    (["--bot", "random", "--baseline", "genius"], "unknown bot 'genius'"),
    (["--bot", "random", "--variants", "rewardCap=99"], "--variants"),
    (["--bot", "random", "--lineup", "RX"], "--lineup RX"),
    (["--bot", "random", "--games", "0"], "--games must be at least 1"),
])
def test_bad_input_is_refused_with_words(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         args: list[str], message: str) -> None:
    with pytest.raises(SystemExit) as ended:
        main([*args, "--out", str(tmp_path / "x.jsonl")])
    assert ended.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x.jsonl").exists()


def test_a_damaged_file_is_refused_not_overwritten(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text('{"seed": 0, "cell": "baseline"}\n')
    with pytest.raises(SystemExit):
        run(tmp_path, "--bot", "random", "--games", "1")
    assert "s.jsonl:1: not a game of this script" in capsys.readouterr().err
    assert path.read_text() == '{"seed": 0, "cell": "baseline"}\n'


def test_paired_difference_leaves_out_games_at_the_cap() -> None:
    base = ["evil", "righteous", "cap", "evil"]
    bot = ["righteous", "righteous", "righteous", "cap"]
    mean, half, n = paired(base, bot, "righteous")
    assert n == 2 and mean == pytest.approx(0.5) and half > 0


def test_over_all_games_a_capped_game_counts_as_no_win() -> None:
    # The printed duel: the decided games are a few Righteous wins, the rest stall at the cap.
    base = ["righteous", "cap", "cap", "cap"]
    bot = ["righteous", "righteous", "righteous", "cap"]
    assert paired(base, bot, "righteous")[2] == 1          # decided games only: one seed
    mean, half, n = paired(base, bot, "righteous", over_all=True)
    assert n == 4 and mean == pytest.approx(0.5) and half > 0


def test_a_table_that_stalls_is_also_read_over_all_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Four turns end every game at the safety cap: the shares of decided games say nothing.
    assert main(["--lineup", "ER", "--seed", "3", "--max-turns", "4", "--bot", OUTSIDE, "--games", "2",
                 "--out", str(tmp_path / "c.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "(cap 2," in out
    assert "over all games, a capped game no win: righteous wins 0/2 -> 0/2, paired +0.0 points" in out
    assert "over all games, a capped game no win: evil wins 0/2 -> 0/2" in out


def test_games_on_two_workers_are_the_games_of_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Each game has its own seeds, so the pool changes the file's order, not the games.
    assert run(tmp_path, "--bot", OUTSIDE, "--games", "3", out="one.jsonl") == 0
    one = capsys.readouterr().out
    assert run(tmp_path, "--bot", OUTSIDE, "--games", "3", "--workers", "2", out="two.jsonl") == 0
    two = capsys.readouterr().out

    def games(name: str) -> dict[tuple[int, str], tuple[str, str, int]]:
        rows = [json.loads(line) for line in (tmp_path / name).read_text().splitlines()]
        return {(r["seed"], r["cell"]): (r["outcome"], r["reason"], r["round"]) for r in rows}

    assert len(games("one.jsonl")) == 9 and games("two.jsonl") == games("one.jsonl")
    shares = [line.split("(cap")[0] for line in one.splitlines()]   # CPU seconds differ
    assert [line.split("(cap")[0] for line in two.splitlines()] == shares


def test_ctrl_c_keeps_the_games_that_ended_and_says_how_to_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from christianity_game.bots import strength

    real = strength.play
    calls: list[int] = []

    def play_then_interrupt(*args: object) -> object:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(strength, "play", play_then_interrupt)
    assert run(tmp_path, "--bot", "random", "--games", "2") == 130
    assert "stopped: " in capsys.readouterr().err
    assert len((tmp_path / "s.jsonl").read_text().splitlines()) == 2   # the two games that ended
    monkeypatch.setattr(strength, "play", real)
    assert run(tmp_path, "--bot", "random", "--games", "2") == 0       # the same command goes on
    assert len((tmp_path / "s.jsonl").read_text().splitlines()) == 6
