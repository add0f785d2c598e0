"""Log lines a person and a log collector can use (issue 22, item 7): every line of the server has
a timestamp, a level and its logger, a line about a game names it, and the storage alarm is at
ERROR; ``christianity-game serve --log-format json`` writes one JSON object a line. The real
server runs as a subprocess, started on a data folder that a crashed server left behind (its
running mark, no write-ahead log), so that it raises a storage alarm on start. That damage is
SQLite's (PostgreSQL owns its log): on PostgreSQL the start's alarm comes from a game whose record
lost a row from its middle, and the JSON lines name that game and the one whose seat claims a state
the server never had."""

from __future__ import annotations

import io
import json
import logging
import re
import sys
from pathlib import Path
from typing import Any

import httpx
from test_server_helpers import create, play, running
from test_server_hostile2_slow import ServerProcess

from christianity_game.server import logs
from christianity_game.server.store_sqlite import RUNNING_MARK, Store

TEXT_LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (DEBUG|INFO|WARNING|ERROR|CRITICAL) [\w.]+ ")


def crashed_data(folder: Path) -> Path:
    """A data folder as a killed server whose write-ahead log was then deleted leaves it."""
    Store(folder).close()
    (folder / RUNNING_MARK).write_text("12345")
    return folder


def claim_a_lost_state(url: str) -> str:
    """Create a game and claim, from its seat, a state the server never had (after the storage
    alarm on start, that is evidence: an ERROR line naming the game); the game id."""
    import asyncio

    from websockets.asyncio.client import connect

    game = httpx.post(url + "/api/games", json={"mode": "coop", "lineup": "RR"}, timeout=10).json()

    async def claim() -> None:
        async with connect(game["ws"]) as ws:
            await ws.send(json.dumps({"type": "hello", "token": game["seats"][0]["token"], "state_id": 99}))
            assert json.loads(await ws.recv())["code"] == "state_lost"

    asyncio.run(asyncio.wait_for(claim(), 20))
    return str(game["game_id"])


def test_json_log_format_one_object_a_line(tmp_path: Path) -> None:
    data = crashed_data(tmp_path / "data")
    cli = [sys.executable, "-m", "christianity_game", "serve", "--data", str(data), "--log-format", "json",
           "--bot-delay", "0"]
    with ServerProcess(data, command=cli) as server:
        gid = claim_a_lost_state(server.url)
    lines = [ln for ln in server.output().splitlines() if ln.strip()]
    assert lines
    records = [json.loads(ln) for ln in lines]   # every line is one JSON object
    for rec in records:
        assert {"ts", "level", "logger", "message"} <= set(rec) and re.match(r"\d{4}-\d\d-\d\dT.*Z$", rec["ts"]), rec
    alarms = [r for r in records if r["message"].startswith("STORAGE:")]
    assert alarms and all(r["level"] == "ERROR" for r in alarms), alarms
    assert any("missing after an unclean stop" in r["message"] for r in alarms)
    ours = [r for r in alarms if r.get("game_id") == gid]
    assert len(ours) == 1 and "acknowledged actions were lost" in ours[0]["message"], alarms
    assert any(r["logger"].startswith("uvicorn") for r in records)   # uvicorn's own lines too
    assert any(r["message"].startswith("rules engine: ") for r in records)


def test_json_log_format_on_postgresql_names_the_damaged_game(tmp_path: Path, pg_url: str) -> None:
    """PostgreSQL's counterpart of the crashed data folder: a row deleted from the middle of a game's
    record while no server ran. The start's alarm is an ERROR line naming that game; a seat's claim
    on another game is then evidence, one ERROR line naming it."""
    import psycopg
    with running(tmp_path / "first", database=pg_url) as app:
        damaged = create(app, mode="coop", lineup="RR", seed=7)   # seat 0 opens: it plays 4
        assert play(app, damaged, 4) == 4
    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute("DELETE FROM actions WHERE game_id=%s AND n=1", (damaged["game_id"],))
    cli = [sys.executable, "-m", "christianity_game", "serve", "--data", str(tmp_path / "data"), "--database", pg_url,
           "--log-format", "json", "--bot-delay", "0"]
    with ServerProcess(tmp_path / "data", command=cli) as server:
        gid = claim_a_lost_state(server.url)
        health = httpx.get(server.url + "/healthz", timeout=10).json()
        assert health["unavailable_games"] == 1, health
    records = [json.loads(ln) for ln in server.output().splitlines() if ln.strip()]   # every line is JSON
    alarms = [r for r in records if r["message"].startswith("STORAGE:")]
    assert alarms and all(r["level"] == "ERROR" for r in alarms), alarms
    start = [r for r in alarms if r.get("game_id") == damaged["game_id"]]
    assert len(start) == 1 and "missing from inside its record" in start[0]["message"], alarms
    ours = [r for r in alarms if r.get("game_id") == gid]
    assert len(ours) == 1 and "acknowledged actions were lost" in ours[0]["message"], alarms


def test_text_log_format_has_timestamp_level_and_game(tmp_path: Path) -> None:
    data = crashed_data(tmp_path / "data")
    with ServerProcess(data, "--bot-delay", "0") as server:
        gid = claim_a_lost_state(server.url)
    lines = [ln for ln in server.output().splitlines() if ln.strip()]
    starts = [ln for ln in lines if not ln.startswith((" ", "Traceback"))]   # a traceback's lines follow its line
    assert starts and all(TEXT_LINE.match(ln) for ln in starts), [ln for ln in starts if not TEXT_LINE.match(ln)]
    alarms = [ln for ln in starts if " STORAGE: " in ln]
    assert alarms and all(" ERROR " in ln for ln in alarms), alarms
    assert any(f"[game {gid}] STORAGE: " in ln and "acknowledged actions were lost" in ln for ln in alarms), alarms


def test_the_formatters_carry_extras_and_tracebacks() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logger = logging.getLogger("christianity_game.server.test_logs")
    logger.propagate = False
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        handler.setFormatter(logs.JsonFormatter())
        glog = logs.game_log("Ab3x", logger)
        glog.error("STORAGE: lost %d actions\nsecond line", 3, extra={"addr": "127.0.0.9"})
        try:
            raise ValueError("boom")
        except ValueError:
            glog.exception("failed")
        first, second = (json.loads(ln) for ln in stream.getvalue().splitlines())
        assert (first["level"], first["game_id"], first["addr"]) == ("ERROR", "Ab3x", "127.0.0.9")
        assert first["message"] == "STORAGE: lost 3 actions\nsecond line"
        assert "ValueError: boom" in second["exc"]
        stream.seek(0)
        stream.truncate()
        handler.setFormatter(logs.TextFormatter())
        logger.warning("no game here")
        glog.info("with a game")
        plain, gamed = stream.getvalue().splitlines()
        assert TEXT_LINE.match(plain) and plain.endswith(" WARNING christianity_game.server.test_logs no game here")
        assert gamed.endswith(" INFO christianity_game.server.test_logs [game Ab3x] with a game")
    finally:
        logger.removeHandler(handler)


def test_the_config_refuses_unknown_formats_and_levels() -> None:
    import pytest
    with pytest.raises(ValueError, match="log format"):
        logs.config("info", "xml")
    with pytest.raises(ValueError, match="log level"):
        logs.config("loud", "text")
    cfg: dict[str, Any] = logs.config("warning", "json")
    assert cfg["loggers"]["christianity_game.server"]["level"] == logging.WARNING
