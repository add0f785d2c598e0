"""Length and pace in the balance lab's rows and reports (issue 21, item 2).

Every game row carries how many decisions the first Evil turn took and how many own turns a seat
could only pass; every report shows, per cell, rounds and decisions per duel (median, p90), Evil's
first turn, the pass-only turns, the cell's play-test variants, and games ended by the safety turn
cap and by the round limit apart from real wins. Old databases stay readable ("not measured").
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from christianity_game.engine.game import Game
from christianity_game.engine.settings import Settings
from christianity_game.sim.lab import (
    MEASURE_COLUMNS, ROW_COLUMNS, LockWatch, build_grid, connect, fetch_rows, parse_axes, replay_game, run_lab,
)
from christianity_game.sim.report import load_stats, write_report
from christianity_game.sim.simulate import play_one

COL = {c: i for i, c in enumerate(ROW_COLUMNS)}


@pytest.fixture(scope="module")
def pace_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ER with the printed rules and with a round limit of 3 (every game ends there or before)."""
    db = tmp_path_factory.mktemp("pace") / "pace.sqlite"
    grid = build_grid("duel", "ER", parse_axes(["roundLimit=0,3", "maxTurns=40"]), "heuristic", games=5, seed=2)
    run_lab(grid, db, backend="serial")
    return db


def _first_evil_decisions_by_replay(lineup: str, seed: int, settings: Settings) -> int:
    """The first Evil turn's decisions counted by replaying the game's actions one by one."""
    played = play_one("duel", lineup, seed, "heuristic", settings)
    game = Game.new(mode="duel", lineup=lineup, seed=seed, settings=settings)
    first, n = 0, 0
    for action in played.actions:
        turn = game.state.turn_no
        if not first and turn >= 1 and game.state.seats[game.turn_seat].side == "evil":
            first = turn
        n += turn == first
        game.apply(action)
    return n


@pytest.mark.parametrize("lineup", ["ER", "EER"])
def test_rows_count_the_first_evil_turn_and_the_pass_only_turns(lineup: str) -> None:
    settings = Settings(max_turns=40)
    for seed in (1, 2):
        watch = LockWatch()
        game = play_one("duel", lineup, seed, "heuristic", settings, watch=watch, log=False)
        assert watch.first_evil_decisions == _first_evil_decisions_by_replay(lineup, seed, settings)
        assert 1 <= watch.first_evil_decisions <= game.action_count
        passes = watch.pass_turns(game)
        assert watch.longest(game) <= passes < game.event_counts["turn_started"]


def test_co_op_rows_have_no_evil_turn() -> None:
    watch = LockWatch()
    game = play_one("coop", "RR", 3, "heuristic", Settings(), watch=watch, log=False)
    assert watch.first_evil_decisions == -1 and watch.pass_turns(game) >= 0


def test_rows_carry_the_pace_measures(pace_db: Path) -> None:
    conn = connect(pace_db)
    rows = fetch_rows(conn)
    conn.close()
    assert rows and all(r[COL["first_evil_decisions"]] >= 1 and r[COL["pass_turns"]] >= 0 for r in rows)
    # a stored game replays to the same measures
    again = replay_game(pace_db, 1, 0)
    assert again.matches, again.differences()


def test_report_shows_length_pace_variants_and_the_round_limit_apart(pace_db: Path, tmp_path: Path) -> None:
    stats = load_stats(pace_db)
    printed, limited = stats
    assert printed.variants["text"] == "This table plays the printed rules."
    assert limited.variants["on"] == {"roundLimit": 3} and "after round 3" in limited.variants["text"]
    # the round limit ends games on the score: not a real win, not the safety cap
    assert limited.round_limit_share > 0 and limited.capped_share == 0
    assert sum(limited.ended.get(k, 0) for k in ("round_limit_righteous", "round_limit_evil")) \
        == round(limited.round_limit_share * limited.games)
    # a game the round limit ended played its 3 rounds (round 4 never started)
    assert max(limited.rounds) == 3 and printed.round_limit_share == 0
    for c in stats:
        data = c.to_json()
        assert set(data["rounds"]) >= {"median", "p90"} and set(data["actions"]) >= {"median", "p90"}
        assert data["first_evil_turn_decisions"]["median"] >= 1
        assert 0 <= data["pass_only_turns"]["share"] <= 1 and data["pass_only_turns"]["mean"] >= 0
        assert data["variants"]["text"] == c.variants["text"]
        assert {"turn_cap_share", "round_limit_share"} <= set(data)
    rep = write_report(pace_db, tmp_path / "r")
    md = rep.summary
    for text in ("## Length and pace", "Evil's first turn: median decisions", "pass-only turns a game",
                 "rounds: median", "decisions: median", "## Play-test variants", "This table plays the printed rules.",
                 "after round 3 the stalemate score decides", "by round limit", "ended by the round limit",
                 "round limit, Evil ahead or tied" if limited.ended.get("round_limit_evil") else "round limit"):
        assert text in md, text
    page = rep.html.read_text(encoding="utf-8")
    assert "Length and pace" in page and "first_evil_turn_decisions" in page


def test_a_database_from_before_the_pace_measures_reads_not_measured(pace_db: Path, tmp_path: Path) -> None:
    old = tmp_path / "old.sqlite"
    src = sqlite3.connect(pace_db)
    src.backup(dst := sqlite3.connect(old))
    src.close()
    dst.executescript("CREATE TABLE g2 AS SELECT * FROM games; ALTER TABLE g2 DROP COLUMN first_evil_decisions; "
                      "ALTER TABLE g2 DROP COLUMN pass_turns; DROP TABLE games; ALTER TABLE g2 RENAME TO games;")
    dst.close()
    stats = load_stats(old)
    assert all(c.first_evil_summary is None and c.pass_turn_figures is None for c in stats)
    assert stats[0].to_json()["pass_only_turns"] is None
    md = write_report(old, tmp_path / "r").summary
    assert "not measured" in md
    conn = sqlite3.connect(old)
    cols = {r[1] for r in conn.execute("PRAGMA table_info(games)")}
    conn.close()
    assert set(MEASURE_COLUMNS) <= cols
    # a game stored before the measures replays as matching: what was not measured cannot differ
    again = replay_game(old, 1, 0)
    assert again.stored["pass_turns"] == -1 and again.replayed["pass_turns"] >= 0 and again.matches
    json.dumps(stats[0].to_json())
