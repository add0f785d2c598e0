"""``christianity-game ladder`` (issue 24): a round robin of bots on mirrored seeds, rated with
OpenSkill, with win matrices and a plot; outside bots enter by import path."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Mapping

import pytest
from typer.testing import CliRunner

from christianity_game.bots import bot_from_path
from christianity_game.bots.base import Bot, RandomBot
from christianity_game.bots import ladder as ladder_module
from christianity_game.bots.ladder import ELO, Match, rate, run_ladder, strengths, tables_for
from christianity_game.bots.ladder_report import markdown
from christianity_game.stats import wilson
from christianity_game.cli import app
from christianity_game.engine.actions import Action, Pass

runner = CliRunner()


class FirstBot:
    """An outside bot that is no Bot subclass: it takes the first legal action that is not a Pass."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: Mapping[str, Any], actions: list[Action]) -> Action:
        return next((a for a in actions if not isinstance(a, Pass)), actions[0])


class CrashBot(FirstBot):
    """An outside bot with a bug: it raises on its first decision of deal 1 of run seed 9."""

    def choose(self, view: Mapping[str, Any], actions: list[Action]) -> Action:
        if self.seed // 31 == ladder_module.game_seed(9, 1):
            raise RuntimeError("CrashBot's planted bug")
        return super().choose(view, actions)


class SlowBot(FirstBot):
    """An outside bot that thinks for a minute on every decision, after saying so in the file that
    ``SLOWBOT_MARKER`` names: a game certainly in the middle when the test presses Ctrl-C."""

    def choose(self, view: Mapping[str, Any], actions: list[Action]) -> Action:
        Path(os.environ["SLOWBOT_MARKER"]).write_text("thinking")
        time.sleep(60)
        return super().choose(view, actions)


def test_outside_bots_enter_by_import_path() -> None:
    assert isinstance(bot_from_path("christianity_game.bots.base:RandomBot", 3), RandomBot)
    wrapped = bot_from_path("test_ladder:FirstBot", 3)
    assert isinstance(wrapped, Bot)
    for bad in ("nowhere.at.all:Bot", "christianity_game.bots.base:Nothing", "no_colon"):
        with pytest.raises(ValueError):
            bot_from_path(bad)


def test_a_tiny_round_robin_is_mirrored_and_rated() -> None:
    tables = tables_for(["duel", "coop"], {"duel": ["ER"], "coop": ["RR"]}, {"reward_cap": 2, "round_limit": 20})
    entrants = ["easy", "random", "test_ladder:FirstBot"]
    result = run_ladder(entrants, tables, games=2, seed=5)
    duel = [m for m in result.matches if m.table == 0]
    coop = [m for m in result.matches if m.table == 1]
    # duel: every ordered pair on every seed (each entrant on each side of the same deal); co-op: each pair a seed
    assert len(duel) == 2 * 3 * 2 and len(coop) == 2 * 3
    for s in range(2):
        pairs = {(m.a, m.b) for m in duel if m.seed == s}
        assert pairs == {(a, b) for a in range(3) for b in range(3) if a != b}
    wins = result.matrix()
    for i in range(3):
        for j in range(3):
            w, l, d = wins[i][j]
            assert (w, l, d) == (wins[j][i][1], wins[j][i][0], wins[j][i][2])
    # by side: an entrant's Evil and Righteous records add up to its row of the duel table, and
    # every duel game is one entrant's Evil game and another's Righteous one
    sides = result.sides(0)
    duel_wins = result.matrix(0)
    for i in range(3):
        evil, righteous = sides[i]["evil"], sides[i]["righteous"]
        assert tuple(e + r for e, r in zip(evil, righteous)) == tuple(map(sum, zip(*duel_wins[i])))
        assert sum(evil) == sum(righteous) == 2 * 2   # two opponents, two deals, on each side
    assert sum(s["evil"][0] for s in sides) == sum(s["righteous"][1] for s in sides)
    with pytest.raises(ValueError, match="no sides"):
        result.sides(1)   # co-op: each entrant plays every seat
    # every duel game keeps its length, and each pair's deals are scored deal by deal
    assert all(m.turns is not None and m.turns > 0 for m in duel)
    for row in result.deals(0):
        assert row["deals"] == 2 and row["unknown"] == 0
        assert sum(row["outright"]) + sum(row["by_length"]) + row["even"] == 2
    by = {r["entrant"]: r for r in result.ratings}
    assert by["easy"]["mu"] > by["random"]["mu"]
    assert all(r["low"] < r["mu"] < r["high"] for r in result.ratings)
    again = run_ladder(entrants, tables, games=2, seed=5)
    assert again.ratings == result.ratings   # seeded: the same games, the same ratings


def test_a_ladder_resumes_from_its_game_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game is logged as it ends; a later run takes what the log holds (the same table, deal
    and entrants) and plays only the rest: more deals, or an added entrant's pairs."""
    tables = tables_for(["duel", "coop"], {"duel": ["ER"], "coop": ["RR"]}, {"reward_cap": 2, "round_limit": 20})
    log = tmp_path / "games.jsonl"
    played: list[tuple[int, int, tuple[int, ...]]] = []
    real = ladder_module.play_job

    def counting(entrants: list[str], tables: list[Any], seed: int, job: Any) -> Any:
        played.append(job)
        return real(entrants, tables, seed, job)

    monkeypatch.setattr(ladder_module, "play_job", counting)
    first = run_ladder(["easy", "random"], tables, games=2, seed=5, log=log)
    assert len(played) == 2 * 2 + 2 * 2 and first.resumed == 0   # duel: 2 seeds x 2 sides; co-op: 2 seeds x 2
    assert len(log.read_text().splitlines()) == len(played)
    played.clear()
    more = run_ladder(["easy", "random"], tables, games=3, seed=5, log=log)
    assert sorted({s for _, s, _ in played}) == [2] and more.resumed == 8   # only the new deal
    fresh = run_ladder(["easy", "random"], tables, games=3, seed=5)
    assert more.ratings == fresh.ratings and more.matches == fresh.matches   # lengths read back too
    assert all(m.turns for m in more.matches if m.table == 0)
    played.clear()
    added = run_ladder(["easy", "random", "test_ladder:FirstBot"], tables, games=3, seed=5, log=log)
    assert played and all(2 in seats for _, _, seats in played)   # only the pairs with the new entrant
    assert added.resumed == 12
    played.clear()
    run_ladder(["easy", "random"], tables, games=3, seed=6, log=log)   # another run seed: other deals
    assert len(played) == 12
    # a run killed mid-line: the cut line is dropped and that game played again
    text = log.read_text()
    log.write_text(text + text.splitlines()[0][:30])
    played.clear()
    run_ladder(["easy", "random"], tables, games=3, seed=6, log=log)
    assert played == [] and log.read_text() == text
    # a log from before lengths were kept: its games are taken as they are, their lengths unknown
    rows = [json.loads(line) for line in text.splitlines()]
    log.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "turns"}) + "\n" for r in rows))
    old = run_ladder(["easy", "random"], tables, games=3, seed=6, log=log)
    assert played == [] and all(m.turns is None for m in old.matches)
    [row] = old.deals(0)
    assert row["deals"] == 3 and row["by_length"] == [0, 0]
    assert sum(row["outright"]) + row["even"] + row["unknown"] == 3


def test_two_workers_log_and_rate_the_games_one_worker_plays(tmp_path: Path) -> None:
    tables = tables_for(["duel"], {"duel": ["ER"]}, {"reward_cap": 2, "round_limit": 20})
    one = run_ladder(["easy", "random"], tables, games=3, seed=9)
    two = run_ladder(["easy", "random"], tables, games=3, seed=9, workers=2, log=tmp_path / "games.jsonl")
    assert two.matches == one.matches and two.ratings == one.ratings and two.strengths == one.strengths
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == 6


def test_a_damaged_game_log_is_refused_and_kept(tmp_path: Path) -> None:
    tables = tables_for(["duel"], {"duel": ["ER"]}, {})
    log = tmp_path / "games.jsonl"
    for text, words in (('{"mode": "duel"}\n', "games.jsonl:1: not a game of the ladder"),
                        ("[1, 2]\n", "games.jsonl:1: not a line of a game log"),
                        ("\nnot json\n", "games.jsonl:2: not a line of a game log")):
        log.write_text(text)
        with pytest.raises(ValueError, match=words):
            run_ladder(["easy", "random"], tables, games=1, seed=5, log=log)
        assert log.read_text() == text


def test_deals_are_scored_as_duplicate_boards() -> None:
    """Deal by deal: an entrant that did better over a deal's two games takes it outright; where the
    same side won both, the entrant whose side won in fewer turns takes it (Evil both: the faster
    Evil win; Righteous both: the faster Righteous win); as long, or two draws: even; a length
    the log lacks: unknown."""
    from christianity_game.bots.ladder import LadderResult, Table
    from christianity_game.engine.settings import Settings

    def deal(seed: int, first: tuple[float, int | None], second: tuple[float, int | None]) -> list[Match]:
        # entrant 0 on the Evil seats, then entrant 1 on them (each score: the Evil seats won)
        return [Match(0, seed, 0, 1, first[0], first[1]), Match(0, seed, 1, 0, second[0], second[1])]

    matches = (deal(0, (1.0, 30), (0.0, 40))      # 0 won both games: outright
               + deal(1, (0.5, 200), (1.0, 50))   # 1 won one, drew one: outright for 1
               + deal(2, (1.0, 12), (1.0, 18))    # Evil won both, 0's Evil sooner: 0 by length
               + deal(3, (1.0, 20), (1.0, 9))     # Evil won both, 1's sooner: 1 by length
               + deal(4, (0.0, 33), (0.0, 21))    # Righteous won both, 0's (the second game) sooner: 0
               + deal(5, (1.0, 15), (1.0, 15))    # as long: even
               + deal(6, (0.5, 200), (0.5, 200))  # two draws: even
               + deal(7, (1.0, None), (1.0, 20))  # a length the log lacks
               + [Match(0, 8, 0, 1, 1.0, 10)])    # one game of a deal only: not a deal
    duel = Table("duel", "EER", Settings())
    result = LadderResult(["normal", "hard"], [duel], 9, 0, matches)
    [row] = result.deals(0)
    assert (row["a"], row["b"], row["deals"]) == ("normal", "hard", 8)
    assert row["outright"] == [1, 1] and row["by_length"] == [2, 1]
    assert (row["even"], row["unknown"]) == (2, 1)
    assert row["share"] == 0.6 and row["interval"][0] < 0.6 < row["interval"][1]
    assert result.to_json()["deals_by_table"]["duel EER"] == [row]
    assert "| normal - hard | 8 | 1-1 | 2-1 | 2 | 1 | 3-2-2 (60%" in markdown(result)
    coop = LadderResult(["a", "b"], [Table("coop", "RR", Settings())], 1, 0, [])
    with pytest.raises(ValueError, match="not a duel"):
        coop.deals(0)


def test_ratings_and_intervals() -> None:
    matches = [Match(0, s, 0, 1, 1.0) for s in range(40)] + [Match(0, 40, 0, 1, 0.5)]
    a, b = rate(["a", "b"], matches)
    assert a["mu"] > b["mu"] and a["low"] > b["high"]   # forty straight wins: the intervals part
    lo, hi = wilson(6, 10)
    assert 0.31 < lo < 0.32 and 0.83 < hi < 0.84


def test_strengths_narrow_as_games_add_up_where_openskill_stalls() -> None:
    """Three bots that win 70% of their games against the next one down: at 200 deals a pair the
    Bradley-Terry intervals part (and the gap's interval is above 0), while OpenSkill's sigma has
    stopped shrinking; the fitted gap is about ln(70/30) in Elo points."""
    import random
    rng = random.Random(4)
    matches = []
    for s in range(200):
        for a, b, p in ((2, 1, 0.7), (1, 0, 0.7), (2, 0, 0.845)):
            for _ in range(2):
                matches.append(Match(0, s, a, b, 1.0 if rng.random() < p else 0.0))
    names = ["easy", "normal", "hard"]
    rows = strengths(names, matches, resamples=300)
    assert [r["entrant"] for r in rows] == ["hard", "normal", "easy"]
    assert abs(sum(r["elo"] for r in rows)) < 0.5   # mean 0
    for upper, lower in zip(rows, rows[1:]):
        assert upper["low"] > lower["high"]
        assert upper["over"] == lower["entrant"] and 0 < upper["gap_low"] < upper["gap"] < upper["gap_high"]
        assert abs(upper["gap"] - ELO * math.log(0.7 / 0.3)) < 60
    assert "gap" not in rows[-1]
    # OpenSkill's sigma stops shrinking (its intervals about ± 3 mu, with levels about 5 mu apart)
    assert all(r["sigma"] > 1.3 for r in rate(names, sorted(matches, key=lambda m: (m.seed, m.a, m.b))))
    # draws are half a win each way; an unbeaten entrant stays finite; no games, no intervals
    even = strengths(["a", "b"], [Match(0, s, 0, 1, 0.5) for s in range(20)], resamples=50)
    assert all(abs(r["elo"]) < 1 for r in even)
    unbeaten = strengths(["a", "b"], [Match(0, s, 0, 1, 1.0) for s in range(20)], resamples=50)
    assert math.isfinite(unbeaten[0]["high"]) and unbeaten[0]["gap_low"] > 0
    assert strengths(["a", "b"], [], resamples=50) == [{"entrant": "a", "elo": 0.0, "over": "b", "gap": 0.0},
                                                        {"entrant": "b", "elo": 0.0}]


def test_the_ladder_command(tmp_path: Path) -> None:
    out = tmp_path / "ladder"
    result = runner.invoke(app, ["ladder", "--bots", "easy,random", "--modes", "duel,solo", "--lineups", "ER,R",
                                 "--variants", "rewardCap=2,roundLimit=20", "--games", "2", "--out", str(out)],
                           env={"COLUMNS": "140"})
    assert result.exit_code == 0, result.output
    assert "easy" in result.output and "random" in result.output
    data = json.loads((out / "ladder.json").read_text())
    assert data["entrants"] == ["easy", "random"] and data["bots"] == ["heuristic", "random"]
    assert [t["lineup"] for t in data["tables"]] == ["ER", "R"]
    assert set(data["matrix_by_table"]) == {"duel ER", "solo R"}
    assert (out / "ladder.png").stat().st_size > 1000
    assert "| rank | entrant |" in (out / "ladder.md").read_text()
    assert [r["entrant"] for r in data["strengths"]] != [] and "Bradley-Terry" in result.output
    assert "| rank | entrant | Elo |" in (out / "ladder.md").read_text()
    assert set(data["sides_by_table"]) == {"duel ER"}   # co-op and solo tables have no sides
    easy_sides = data["sides_by_table"]["duel ER"]["easy"]
    assert sum(easy_sides["evil"][k] + easy_sides["righteous"][k] for k in ("wins", "losses", "draws")) == 4
    assert "| entrant | as Evil | as Righteous |" in (out / "ladder.md").read_text()
    logged = (out / "games.jsonl").read_text().splitlines()
    assert len(logged) == 2 * 2 + 2 * 2 and json.loads(logged[0])["seats"] in (["easy", "random"], ["random", "easy"])
    again = runner.invoke(app, ["ladder", "--bots", "easy,random", "--modes", "duel,solo", "--lineups", "ER,R",
                                "--variants", "rewardCap=2,roundLimit=20", "--games", "2", "--out", str(out)],
                          env={"COLUMNS": "140"})
    assert again.exit_code == 0 and "(8 games taken from" in again.output
    assert json.loads((out / "ladder.json").read_text())["ratings"] == data["ratings"]
    fresh = runner.invoke(app, ["ladder", "--bots", "easy,random", "--modes", "duel", "--lineups", "ER",
                                "--games", "1", "--out", str(out), "--fresh"], env={"COLUMNS": "140"})
    assert fresh.exit_code == 0 and "taken from" not in fresh.output
    assert len((out / "games.jsonl").read_text().splitlines()) == 2


@pytest.mark.parametrize("args, message", [
    (["--bots", "easy"], "at least two"),
    (["--bots", "easy,nosuchbot"], "nosuchbot"),
    (["--bots", "easy,random", "--modes", "duel", "--lineups", "RR"], "no table"),
    (["--bots", "easy,random", "--games", "0"], "--games"),
    (["--bots", "easy,random", "--modes", "solo", "--lineups", "R", "--games", "1"], "not a game of the ladder"),
])
def test_the_ladder_command_refuses_bad_input(tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "games.jsonl").write_text('{"table": "solo R"}\n')   # a damaged log, kept as it is
    result = runner.invoke(app, ["ladder", *args, "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert message in result.output
    assert (tmp_path / "x" / "games.jsonl").read_text() == '{"table": "solo R"}\n'


def test_a_game_that_raises_stops_the_ladder_and_names_the_game(tmp_path: Path) -> None:
    # a worker's game that raised used to leave the pool playing every queued game (hours of a
    # long ladder) with nothing written, before the error surfaced
    tables = tables_for(["duel"], {"duel": ["ER"]}, {})
    log = tmp_path / "games.jsonl"
    with pytest.raises(ladder_module.LadderGameFailed) as failed:
        run_ladder(["easy", "test_ladder:CrashBot"], tables, games=3, seed=9, workers=2, log=log)
    assert "RuntimeError: CrashBot's planted bug" in str(failed.value)
    assert "deal 1," in str(failed.value) and f"game seed {ladder_module.game_seed(9, 1)}" in str(failed.value)
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert sorted(r["deal"] for r in rows if r["deal"] == 0) == [0, 0], "the games in play reach the log"
    assert all(r["deal"] != 1 for r in rows) and len(rows) <= 4
    out = tmp_path / "cli"
    result = runner.invoke(app, ["ladder", "--bots", "easy,test_ladder:CrashBot", "--modes", "duel", "--lineups",
                                 "ER", "--games", "3", "--seed", "9", "--out", str(out)])
    assert result.exit_code == 1
    assert "the ladder stopped: a game raised RuntimeError" in result.output and "deal 1," in result.output
    assert "Traceback" in result.output and "a rerun resumes from it" in result.output


def _group_alive(pgid: int) -> list[int]:
    """The processes of group ``pgid`` still running (zombies, exited and not yet reaped, are gone)."""
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(") ", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            alive.append(int(entry.name))
    return alive


def test_ctrl_c_stops_the_ladder_at_once_and_says_how_to_resume(tmp_path: Path) -> None:
    # a terminal's Ctrl-C reaches the whole foreground group: the workers used to die with tracebacks
    # of their own (or play their game out) and the command said nothing of the log it had kept
    marker, out = tmp_path / "thinking", tmp_path / "ladder"
    env = {**os.environ, "SLOWBOT_MARKER": str(marker),
           "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")])}

    def as_a_terminal_would() -> None:   # a child of pytest may inherit SIGINT ignored
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    cli = subprocess.Popen([sys.executable, "-m", "christianity_game", "ladder", "--bots", "easy,test_ladder:SlowBot",
                            "--modes", "duel", "--lineups", "ER", "--games", "2", "--seed", "5", "--workers", "2",
                            "--out", str(out)], env=env, start_new_session=True, preexec_fn=as_a_terminal_would,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 90
        while not marker.exists() and cli.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert marker.exists(), "no game started"
        pressed = time.monotonic()
        os.killpg(cli.pid, signal.SIGINT)
        output, _ = cli.communicate(timeout=30)
        assert time.monotonic() - pressed < 20, "the ladder waited for the games in play (a minute a move)"
        assert cli.returncode == 130, output
        assert "Stopped (interrupted)" in output and "run the same command again" in output
        assert "Traceback" not in output and "KeyboardInterrupt" not in output
        deadline = time.monotonic() + 10
        while _group_alive(cli.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _group_alive(cli.pid), "a worker outlived the stopped ladder"
    finally:
        if cli.poll() is None or _group_alive(cli.pid):
            os.killpg(cli.pid, signal.SIGKILL)
        cli.wait()
