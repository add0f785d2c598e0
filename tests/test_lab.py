"""The balance lab (sim/lab.py, sim/report.py, the ``lab`` command and ``replay --db``).

Same seed, same rows on every backend; an interrupted or killed run resumes without losing or
duplicating a game; bad grids fail before any game starts; reports name every cell; a stored
game replays to its stored result. The Ray backend's check is in test_lab_ray.py.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from christianity_game.cli import app
from christianity_game.engine.replay import replay as replay_record
from christianity_game.engine.settings import Settings
from christianity_game.sim.lab import (
    DUEL_TURN_CAP, LabError, LabInterrupted, ROW_COLUMNS, RunOptions, build_grid, connect, default_workers,
    fetch_rows, game_row, parse_axes, play_cell_game, replay_game, run_lab,
)
from christianity_game.sim.report import load_stats, wilson, write_report

runner = CliRunner()
ENV = {"COLUMNS": "160"}


def small_grid(games: int = 6, turns: int = 30):
    return build_grid("duel", "ER,EER", parse_axes(["evilInterrupt=0,1", f"maxTurns={turns}"]), "heuristic",
                      games=games, seed=5)


def rows_of(db: Path) -> list[tuple]:
    conn = connect(db)
    try:
        return fetch_rows(conn)
    finally:
        conn.close()


@pytest.fixture(scope="module")
def serial_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small grid, played in this process: the reference for the other backends."""
    db = tmp_path_factory.mktemp("lab") / "serial.sqlite"
    run_lab(small_grid(), db, backend="serial", chunk=2)
    return db


# ---------------------------------------------------------------------------------------- grids
def test_grid_cells_and_seeds() -> None:
    grid = small_grid()
    assert [c.label for c in grid.cells] == [
        "ER · evilInterrupt=0 · maxTurns=30 · heuristic", "ER · evilInterrupt=1 · maxTurns=30 · heuristic",
        "EER · evilInterrupt=0 · maxTurns=30 · heuristic", "EER · evilInterrupt=1 · maxTurns=30 · heuristic"]
    assert [c.settings["evil_interrupt"] for c in grid.cells] == [False, True, False, True]
    assert all(c.settings["max_turns"] == 30 and c.seed == 5 for c in grid.cells)
    assert grid.total == 24
    assert grid.notes == []   # the grid set maxTurns: no default cap


def test_duel_cells_get_the_default_turn_cap() -> None:
    grid = build_grid("duel", "ER", parse_axes(["evilInterrupt=0,1"]), "heuristic", games=3)
    assert all(c.settings["max_turns"] == DUEL_TURN_CAP for c in grid.cells)
    assert grid.notes and f"maxTurns={DUEL_TURN_CAP}" in grid.notes[0]
    coop = build_grid("coop", "RR", {}, "heuristic", games=3)
    assert coop.cells[0].settings["max_turns"] == 0 and coop.notes == []


@pytest.mark.parametrize("kwargs, message", [
    ({"axes": {"evilInterupt": ["0"]}}, "unknown setting 'evilInterupt'"),
    ({"axes": {"evilInterrupt": ["0", "maybe"]}}, "bad setting evilInterrupt=maybe"),
    ({"axes": {"soloFee": ["1", "4"]}}, "solo_fee must be 1, 2 or 3"),
    ({"axes": {"maxTurns": ["-1"]}}, "max_turns must be between"),
    ({"mode": "chess"}, "unknown mode 'chess'"),
    ({"lineups": "ER,EX"}, "line-up EX"),
    ({"lineups": "RR"}, "line-up RR"),
    ({"lineups": "ER,ER"}, "listed twice"),
    ({"bots": ["heuristic", "genius"]}, "unknown bot 'genius'"),
    ({"bots": ["heuristic,random,random"]}, "one level for every seat or one a seat"),
    ({"bots": ["evil=heuristic,random"]}, "a pairing by side names each side once"),
    ({"bots": ["evil=heuristic,evil=random"]}, "the evil side is named twice"),
    ({"bots": ["chaos=heuristic"]}, "a pairing by side"),
    ({"bots": ["evil=genius"]}, "unknown bot 'genius'"),
    ({"games": 0}, "games must be at least 1"),
])
def test_bad_grids_are_refused(kwargs: dict, message: str) -> None:
    args = {"mode": "duel", "lineups": "ER", "axes": {}, "bots": ["heuristic"], "games": 5, **kwargs}
    with pytest.raises(LabError, match=message.replace("(", r"\(")):
        build_grid(**args)


def test_a_bot_pairing_by_side_fits_every_line_up() -> None:
    """``evil=X,righteous=Y`` gives each seat its side's bot, whatever the line-up (the tuner and the
    strength runs compare one pairing over ER, EER and ERR)."""
    grid = build_grid("duel", "ER,EER,ERR", {}, ["evil=random,righteous=heuristic", "evil=heuristic"], games=2)
    assert [(c.lineup, c.bots) for c in grid.cells] == [
        ("ER", ("random", "heuristic")), ("ER", ("heuristic", "heuristic")),
        ("EER", ("random", "random", "heuristic")), ("EER", ("heuristic", "heuristic", "heuristic")),
        ("ERR", ("random", "heuristic", "heuristic")), ("ERR", ("heuristic", "heuristic", "heuristic"))]
    assert grid.cells[2].label.endswith("random,random,heuristic")


def test_set_parsing() -> None:
    assert parse_axes(["evilInterrupt=0,1", "soloFee = 1, 2,3"]) == {"evilInterrupt": ["0", "1"],
                                                                     "soloFee": ["1", "2", "3"]}
    for bad, message in ((["evilInterrupt"], "key=value"), (["soloFee="], "at least one value"),
                         (["soloFee=1,1"], "listed twice"), (["soloFee=1", "solo_fee=2"], "given twice")):
        with pytest.raises(LabError, match=message):
            parse_axes(bad)


@pytest.mark.parametrize("args, message", [
    (["--set", "evilInterupt=0,1"], "unknown setting 'evilInterupt'"),
    (["--set", "soloFee=1,2,9"], "bad setting soloFee=9"),
    (["--set", "evilInterrupt"], "--set takes key=value"),
    (["--lineup", "ER,EQR"], "line-up EQR"),
    (["--mode", "pvp"], "unknown mode 'pvp'"),
    (["--bots", "heuristic", "--bots", "clever"], "unknown bot 'clever'"),
    (["--games", "0"], "--games must be at least 1"),
    (["--backend", "spark"], "--backend must be one of"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--chunk", "0"], "--chunk must be at least 1"),
    (["--address", "10.0.0.1:6379"], "--address is for --backend ray"),
])
def test_cli_refuses_bad_variants_before_any_game(tmp_path: Path, args: list[str], message: str) -> None:
    db = tmp_path / "lab.sqlite"
    result = runner.invoke(app, ["lab", "--out", str(db), "--games", "3", *args], env=ENV)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert not db.exists()   # nothing was started, not even the database


# ---------------------------------------------------------------------------------------- backends
@pytest.mark.parametrize("kwargs, message", [
    ({"backend": "spark"}, "--backend must be one of process, serial, ray, not 'spark'"),
    ({"backend": "process", "address": "10.0.0.1:6379"}, "--address is for --backend ray"),
    ({"workers": 0}, "--workers must be at least 1, not 0"),
    ({"chunk": 0}, "--chunk must be at least 1, not 0"),
])
def test_run_options_are_checked_in_one_place(kwargs: dict, message: str, tmp_path: Path) -> None:
    """The backend, workers, address and chunk of a run are checked by RunOptions, the one check of
    run_lab, the lab command and the tuner (tests/test_tune.py asks the tuner's command the same)."""
    with pytest.raises(LabError, match=message.replace("(", r"\(")):
        RunOptions(**kwargs)
    with pytest.raises(LabError, match=message.replace("(", r"\(")):
        run_lab(small_grid(), tmp_path / "never-made.sqlite", **kwargs)
    assert not (tmp_path / "never-made.sqlite").exists()


def test_run_options_resolve_the_workers_and_name_the_backend(tmp_path: Path) -> None:
    assert RunOptions("serial", workers=8).pool == 1 and RunOptions("process", workers=3).pool == 3
    assert RunOptions().pool == default_workers() and RunOptions().where == "process"
    assert RunOptions("ray").where == "ray" and RunOptions("ray", address="10.0.0.1:6379").where == "ray at 10.0.0.1:6379"
    with RunOptions("process").session(), RunOptions("serial").session():   # nothing to hold: no Ray started
        pass
    with pytest.raises(LabError, match="give options or backend"):
        run_lab(small_grid(), tmp_path / "never-made.sqlite", backend="serial", options=RunOptions("serial"))


def test_rows_are_complete_and_deterministic(serial_db: Path) -> None:
    rows = rows_of(serial_db)
    assert len(rows) == 24 and len({(r[0], r[1]) for r in rows}) == 24
    assert sorted({r[0] for r in rows}) == [1, 2, 3, 4]
    col = {c: i for i, c in enumerate(ROW_COLUMNS)}
    for r in rows:
        assert r[col["winner"]] in ("righteous", "evil")
        assert r[col["turns"]] <= 31 and r[col["threats_played"]] >= r[col["threats_resisted"]]
    again = rows_of_run(small_grid(), serial_db.parent / "serial-again.sqlite", backend="serial", chunk=5)
    assert again == rows   # the chunk size changes nothing


def rows_of_run(grid, db: Path, **kwargs) -> list[tuple]:
    run_lab(grid, db, **kwargs)
    return rows_of(db)


def test_process_pool_gives_the_serial_rows(serial_db: Path, tmp_path: Path) -> None:
    progress: list[tuple[int, int]] = []
    run = run_lab(small_grid(), tmp_path / "pool.sqlite", backend="process", workers=2, chunk=2,
                  progress=lambda done, total: progress.append((done, total)))
    assert run.played == 24 and run.skipped == 0 and run.workers == 2
    assert rows_of(tmp_path / "pool.sqlite") == rows_of(serial_db)
    assert progress[0] == (0, 24) and progress[-1] == (24, 24)


def test_game_row_counts_match_the_duel_counters() -> None:
    spec = small_grid().cells[2].to_json()
    game = play_cell_game(spec, 0)
    row = dict(zip(ROW_COLUMNS, game_row(3, 0, 0, game)))
    counts = game.state.duel.counts
    assert row["threats_played"] == counts.get("threats_played", 0)
    assert row["habituals_taken"] == counts.get("habituals_taken", 0)
    assert row["micro_rewards"] == counts.get("micro_rewards", 0)
    assert not game.log   # lab games keep no event log: the row counts come from event_counts
    assert row["overflow_discards"] == game.event_counts.get("overflow_discard", 0)
    assert json.loads(row["extra"]) == {k: v for k, v in counts.items() if k not in ROW_COLUMNS}


# ---------------------------------------------------------------------------------------- resume
def test_interrupted_run_resumes_without_losing_or_duplicating(serial_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "resume.sqlite"
    with pytest.raises(LabInterrupted):
        run_lab(small_grid(), db, backend="process", workers=2, chunk=2, stop_after_chunks=3)
    assert len(rows_of(db)) == 6   # three chunks of two, each written whole
    with pytest.raises(LabInterrupted):
        run_lab(small_grid(), db, backend="serial", chunk=4, stop_after_chunks=2)
    assert len(rows_of(db)) == 14   # the cells in turn: a chunk of 4 from cell 1, then one from cell 2
    run = run_lab(small_grid(), db, backend="process", workers=2, chunk=3)
    assert (run.played, run.skipped) == (10, 14)
    assert rows_of(db) == rows_of(serial_db)
    again = run_lab(small_grid(), db, backend="serial")
    assert (again.played, again.skipped) == (0, 24)
    conn = sqlite3.connect(db)
    runs = conn.execute("SELECT games_played, complete FROM runs ORDER BY id").fetchall()
    conn.close()
    assert runs == [(6, 0), (8, 0), (10, 1), (0, 1)]


def test_more_games_extend_the_cells(serial_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "grow.sqlite"
    run_lab(small_grid(games=3), db, backend="serial")
    run = run_lab(small_grid(games=6), db, backend="serial")
    assert run.played == 12 and rows_of(db) == rows_of(serial_db)


def test_killed_run_resumes(tmp_path: Path) -> None:
    """SIGKILL the lab (process pool and all) in the middle, then run the same command again."""
    db = tmp_path / "killed.sqlite"
    args = ["--mode", "duel", "--lineup", "ER", "--set", "maxTurns=40", "--games", "60", "--seed", "3",
            "--chunk", "2", "--workers", "2"]
    proc = subprocess.Popen([sys.executable, "-m", "christianity_game", "lab", "--out", str(db), *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    stored = 0
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
            if db.exists():
                try:
                    conn = sqlite3.connect(db, timeout=5)
                    stored = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
                    conn.close()
                except sqlite3.OperationalError:
                    continue
                if stored >= 6:
                    break
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL, "the run ended before it could be killed"
    killed_at = len(rows_of(db))
    assert 6 <= killed_at < 60 and killed_at % 2 == 0   # whole chunks only
    result = runner.invoke(app, ["lab", "--out", str(db), *args, "--backend", "serial"], env=ENV)
    assert result.exit_code == 0, result.output
    assert f"{60 - killed_at} games played" in result.output
    fresh = tmp_path / "fresh.sqlite"
    grid = build_grid("duel", "ER", parse_axes(["maxTurns=40"]), "heuristic", games=60, seed=3)
    assert rows_of_run(grid, fresh, backend="serial") == rows_of(db)


# ---------------------------------------------------------------------------------------- report
def test_wilson_interval() -> None:
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(0, 20)
    assert lo == 0.0 and hi == pytest.approx(0.1611, abs=1e-4)
    assert wilson(20, 20)[1] == 1.0


def test_report_has_every_cell(serial_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    rep = write_report(serial_db, out)
    page = (out / "index.html").read_text(encoding="utf-8")
    md = (out / "summary.md").read_text(encoding="utf-8")
    assert rep.html == out / "index.html" and rep.markdown == out / "summary.md"
    for name in ("win_rate.png", "endings.png", "turns_box.png", "turns_hist.png", "scores.png", "firing.png"):
        assert (out / name).stat().st_size > 1000
        assert name in page and name in md
    for cell in small_grid().cells:
        assert cell.label in page and cell.label in md
    assert ("Played with: christianity-game lab --mode duel --lineup ER,EER --set evilInterrupt=0,1 "
            "--set maxTurns=30 --bots heuristic --games 6 --seed 5") in md
    assert f"replay --db {serial_db.name} --cell N --game I" in md
    for text in ("95 % CI", "Wilson", "What fired", "threats played", "Variant effects", "evilInterrupt: 0 → 1"):
        assert text in md
    stats = load_stats(serial_db)
    assert [c.games for c in stats] == [6, 6, 6, 6]
    assert all(c.ci[0] <= c.win_rate <= c.ci[1] for c in stats)


def test_report_says_when_the_lab_capped_duels(tmp_path: Path) -> None:
    db = tmp_path / "cap.sqlite"
    grid = build_grid("duel", "ER", {}, "heuristic", games=2, seed=1)
    run_lab(grid, db, backend="serial")
    rep = write_report(db, tmp_path / "r")
    assert f"turn cap of {DUEL_TURN_CAP}" in rep.summary and f"maxTurns={DUEL_TURN_CAP}" in rep.summary


def test_cli_lab_runs_resumes_and_reports(tmp_path: Path) -> None:
    db, out = tmp_path / "lab.sqlite", tmp_path / "balance"
    args = ["lab", "--lineup", "ER,ERR", "--set", "evilInterrupt=0,1", "--set", "maxTurns=20", "--games", "3",
            "--seed", "2", "--backend", "serial", "--out", str(db), "--report", str(out)]
    result = runner.invoke(app, args, env=ENV)
    assert result.exit_code == 0, result.output
    assert "12 games played" in result.output and "ERR · evilInterrupt=1" in result.output
    assert (out / "index.html").exists() and (out / "summary.md").exists()
    again = runner.invoke(app, [*args[:-2], "--json"], env=ENV)   # no --report this time
    assert again.exit_code == 0 and "12 were already stored" in again.output
    data = json.loads(again.output[again.output.index("["):again.output.rindex("]") + 1])
    assert [c["cell"] for c in data] == [1, 2, 3, 4] and all(c["games"] == 3 for c in data)


# ---------------------------------------------------------------------------------------- replay
def test_replay_reproduces_the_stored_game(serial_db: Path) -> None:
    for cell, index in ((1, 0), (4, 5), (3, 2)):
        again = replay_game(serial_db, cell, index)
        assert again.matches, again.differences()
        record = again.game.to_record()
        assert replay_record(record).result.winner == again.stored["winner"]
        assert record["seed"] == again.stored["seed"]
    with pytest.raises(LabError, match="no cell 9"):
        replay_game(serial_db, 9, 0)
    with pytest.raises(LabError, match="game 99 of cell 1 is not stored"):
        replay_game(serial_db, 1, 99)


def test_replay_notices_a_row_that_does_not_match(serial_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "tampered.sqlite"
    db.write_bytes(serial_db.read_bytes())
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("UPDATE games SET turns = turns + 1 WHERE cell = 2 AND idx = 1")
    conn.close()
    again = replay_game(db, 2, 1)
    assert not again.matches and again.differences()[0].startswith("turns:")


def test_cli_replay_from_the_database(serial_db: Path) -> None:
    result = runner.invoke(app, ["replay", "--db", str(serial_db), "--cell", "3", "--game", "4"], env=ENV)
    assert result.exit_code == 0, result.output
    assert "same result as stored" in result.output and "cell 3 game 4" in result.output
    partial = runner.invoke(app, ["replay", "--db", str(serial_db), "--cell", "3", "--game", "4", "--upto", "10"],
                            env=ENV)
    assert partial.exit_code == 0 and "after action 10" in partial.output
    for args, message in ((["--cell", "3"], "--db needs --cell N and --game I"),
                          (["--cell", "7", "--game", "0"], "no cell 7"),
                          (["--cell", "1", "--game", "50"], "not stored")):
        bad = runner.invoke(app, ["replay", "--db", str(serial_db), *args], env=ENV)
        assert bad.exit_code == 2 and message in bad.output, bad.output
    none = runner.invoke(app, ["replay"], env=ENV)
    assert none.exit_code == 2 and "--db" in none.output


def test_lab_bench_reports_throughput() -> None:
    from christianity_game.sim.lab_bench import bench_lab, format_bench
    result = bench_lab(games=2, workers=(1,), chunk=1, lineups=("ER",), axes=("maxTurns=10",), backend="serial",
                       repeat=2, ceiling=False)
    run = result["runs"][0]
    assert run["games"] == 2 and run["same_rows"] and run["best_speedup"] == 1.0 and len(run["tries"]) == 2
    assert "games/s" in format_bench(result)


# ---------------------------------------------------------------------------------------- locked, real wins, strength
class _FakeSeat:
    def __init__(self, side: str) -> None:
        self.side = side


class _FakeState:
    def __init__(self) -> None:
        self.turn_no = 0
        self.seats = [_FakeSeat("evil"), _FakeSeat("righteous")]


class _FakeGame:
    """Just what LockWatch reads: the turn, the seat whose turn it is and its side, the turn order,
    how many turns began (two seats taking turns in order, the Evil seat first) and the result."""

    def __init__(self) -> None:
        self.state = _FakeState()
        self.turn_seat = 0
        self.turn_order = (0, 1)
        self.event_counts: dict[str, int] = {}
        self.result: object | None = None

    def start(self, seat: int) -> None:
        self.state.turn_no += 1
        self.turn_seat = seat
        assert seat == self.turn_order[(self.state.turn_no - 1) % 2]
        self.event_counts["turn_started"] = self.event_counts.get("turn_started", 0) + 1


def test_locked_measure_counts_own_turns_with_no_option_but_to_pass() -> None:
    from christianity_game.engine.actions import Pass, LayCostZone
    from christianity_game.sim.lab import LOCK_TURNS, LockWatch

    watch = LockWatch()
    game = _FakeGame()
    # seat 0 has an option in its first own turn, then only passes (or no decision) for 5 own turns;
    # seat 1 always has an option in its own turns, and only passes in seat 0's turns (not its own)
    for k in range(12):
        seat = k % 2
        game.start(seat)
        if seat == 0:
            watch(game, 0, [Pass(0), LayCostZone(0, 7)] if k == 0 else [Pass(0)])
            watch(game, 1, [Pass(1)])
        else:
            watch(game, 1, [Pass(1), LayCostZone(1, 8)])
    assert watch.longest(game) == LOCK_TURNS
    assert watch.pass_turns(game) == LOCK_TURNS   # seat 1's own turns all had an option
    assert watch.first_evil_decisions == 2        # turn 1: seat 0's decision and seat 1's answer
    game.start(0)   # a sixth such turn, with no decision at all
    assert watch.longest(game) == LOCK_TURNS + 1 and watch.pass_turns(game) == LOCK_TURNS + 1
    game.result = object()   # ...but the game ended as that turn started: it was never played
    assert watch.pass_turns(game) == LOCK_TURNS


def _locked_from_log(game: Any, watch: Any) -> int:
    """The locked measure read from a game's event log (how the lab measured it when it kept logs)."""
    runs: dict[int, int] = {}
    best = 0
    for ev in game.log:
        if ev.kind == "turn_started":
            if (ev.seat, ev.data["turn"]) in watch.options:
                runs[ev.seat] = 0
            else:
                runs[ev.seat] = runs.get(ev.seat, 0) + 1
                best = max(best, runs[ev.seat])
    return best


@pytest.mark.parametrize("mode,lineup,interrupt", [("duel", "EER", 1), ("duel", "ER", 0), ("coop", "RR", 1)])
def test_lab_games_without_a_log_give_the_rows_a_logged_game_gives(mode: str, lineup: str, interrupt: int) -> None:
    """Lab games keep no event log: their counts and locked measure equal those read from a log."""
    from christianity_game.sim.lab import LockWatch
    from christianity_game.sim.simulate import play_one

    settings = Settings(evil_interrupt=bool(interrupt), max_turns=60 if mode == "duel" else 0)
    for seed in (3, 4):
        watches = [LockWatch(), LockWatch()]
        logged = play_one(mode, lineup, seed, "heuristic", settings, watch=watches[0])
        quiet = play_one(mode, lineup, seed, "heuristic", settings, watch=watches[1], log=False)
        assert logged.log and not quiet.log
        assert quiet.actions == logged.actions
        assert game_row(1, 0, seed, quiet, watches[1].longest(quiet)) == \
            game_row(1, 0, seed, logged, _locked_from_log(logged, watches[0]))
        assert watches[1].longest(quiet) == _locked_from_log(logged, watches[0])


def test_rows_carry_the_locked_measure_and_the_report_shows_real_wins(serial_db: Path, tmp_path: Path) -> None:
    col = {c: i for i, c in enumerate(ROW_COLUMNS)}
    rows = rows_of(serial_db)
    assert all(r[col["locked"]] >= 0 for r in rows)
    stats = load_stats(serial_db)
    for c in stats:
        assert c.locked_games is not None and 0 <= c.locked_games <= c.games
        rw, ew = c.real_wins
        capped = c.ended.get("turn_cap_righteous", 0) + c.ended.get("turn_cap_evil", 0)
        assert rw + ew + capped + c.ended.get("unfinished", 0) == c.games
    md = write_report(serial_db, tmp_path / "r").summary
    for text in ("Real wins, turn caps and locked seats", "Evil wins (Habituals)", "locked (5+ own turns)",
                 "ended by the turn cap"):
        assert text in md


def test_a_database_from_before_the_locked_measure_is_brought_up_to_date(serial_db: Path, tmp_path: Path) -> None:
    old = tmp_path / "old.sqlite"
    src = sqlite3.connect(serial_db)
    src.backup(dst := sqlite3.connect(old))
    src.close()
    # the table as it was: no locked column
    dst.executescript("CREATE TABLE g2 AS SELECT * FROM games; ALTER TABLE g2 DROP COLUMN locked; DROP TABLE games; "
                      "ALTER TABLE g2 RENAME TO games;")
    dst.close()
    stats = load_stats(old)
    assert all(c.locked_games is None for c in stats)
    assert "not measured" in write_report(old, tmp_path / "r").summary


def test_report_plots_win_rate_against_search_budget(tmp_path: Path) -> None:
    db = tmp_path / "strength.sqlite"
    grid = build_grid("duel", "ER", parse_axes(["maxTurns=12"]),
                      ["heuristic", "search:3it,heuristic", "heuristic,search:3it"], games=2, seed=3)
    run_lab(grid, db, backend="serial")
    rep = write_report(db, tmp_path / "r")
    assert (tmp_path / "r" / "strength.png").stat().st_size > 1000
    assert "Win rate against bot strength" in rep.summary and "strength.png" in rep.summary
    from christianity_game.sim.report import strength_points
    points = strength_points(rep.stats)
    assert {(p.side, p.budget) for p in points} == {("Evil", 3.0), ("Righteous", 3.0), ("Evil", 0.0),
                                                     ("Righteous", 0.0)}


def test_the_terminal_table_shows_a_duels_pace(tmp_path: Path) -> None:
    """``lab`` without --json prints, per duel cell, the round-limit share, rounds (median / p90) and
    Evil's first-turn decisions beside the win rate (issue 21's length targets); co-op has no Evil."""
    db = tmp_path / "pace.sqlite"
    result = runner.invoke(app, ["lab", "--out", str(db), "--games", "3", "--lineup", "ER", "--set", "roundLimit=4",
                                 "--backend", "serial", "--seed", "4"], env={"COLUMNS": "240"})
    assert result.exit_code == 0, result.output
    for column in ("round limit", "rounds med/p90", "Evil's 1st turn"):
        assert column in result.output
    stats = load_stats(db)[0].to_json()
    assert f"{stats['rounds']['median']:.0f}/{stats['rounds']['p90']:.0f}" in result.output
    assert f"{stats['first_evil_turn_decisions']['median']:.0f} decisions" in result.output
    coop = runner.invoke(app, ["lab", "--mode", "coop", "--lineup", "RR", "--out", str(tmp_path / "coop.sqlite"),
                               "--games", "2", "--backend", "serial"], env={"COLUMNS": "240"})
    assert coop.exit_code == 0, coop.output
    assert "rounds med/p90" not in coop.output and "R win rate" in coop.output
