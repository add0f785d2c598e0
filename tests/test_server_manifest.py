"""No silent loss on damaged storage (issue 22, item 5): the manifest beside the database.

The server keeps ``games.manifest.json`` (the database's identity and every game's acknowledged
action count; written at each sweep and on stop, atomically) and checks the database against it on
start and at each sweep. A mismatch is loud: logged at ERROR (``STORAGE:``), ``/healthz`` unhealthy
(``ok: false``, ``storage_problems``, ``unavailable_games``), and the games concerned answer
``game_unavailable`` (HTTP 503, WebSocket close 1011), not 404, with their rows left as they are:

* a database truncated to 0 bytes: the start is loud and every game it held is unavailable, across
  restarts, while new games work;
* the last action row of a game deleted while the server was stopped: that game is unavailable (it
  was served one state behind with no sign), the others play on;
* a row deleted while the server runs: noticed at the next sweep;
* the write-ahead log deleted while the server runs: noticed at the next sweep, loud, and what it
  held is saved into the database file, so a crash afterwards loses no acknowledged action.

The manifest is SQLite's, and so is most of this damage (a truncated file, a deleted log): those
tests run on SQLite only. PostgreSQL has no manifest; the database is the authority (docs/decisions.md,
"PostgreSQL as a second store"). On it: a row deleted while the server runs is noticed at the next
sweep all the same (that test runs on both stores, ``database``); the last row deleted while it was
stopped is served as the database holds it, and a seat that saw more gets ``state_lost`` (the
PostgreSQL test here); a gap inside a record found on start is in tests/test_server_postgres.py.
"""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from test_server_helpers import create, play, running, stored_exec, stored_rows, ws
from test_server_hostile import closed_with

from christianity_game.server.store import DB_NAME
from christianity_game.server.store_sqlite import MANIFEST_NAME, RUNNING_MARK

SEED = 7


def stored_actions(data: Path, game_id: str) -> int:
    db = sqlite3.connect(data / DB_NAME)
    try:
        return int(db.execute("SELECT COUNT(*) FROM actions WHERE game_id=?", (game_id,)).fetchone()[0])
    finally:
        db.close()


def manifest(data: Path) -> dict[str, Any]:
    return json.loads((data / MANIFEST_NAME).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def unavailable(app: Any, game: dict[str, Any], words: str) -> None:
    """The game answers game_unavailable everywhere (not 404), saying ``words``."""
    gid = game["game_id"]
    r = app.get(f"/api/games/{gid}")
    assert (r.status_code, r.json()["code"]) == (503, "game_unavailable"), r.text
    assert words in r.json()["message"]
    r = app.get(f"/api/games/{gid}/view", params={"token": game["seats"][0]["token"]})
    assert (r.status_code, r.json()["code"]) == (503, "game_unavailable")
    with ws(app, gid) as a:
        err = a.recv()
        assert err["code"] == "game_unavailable" and words in err["message"]
        closed_with(a, 1011)


def storage_errors(caplog: Any) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR and "STORAGE" in r.getMessage()]


def test_a_database_truncated_to_nothing_is_loud_and_its_games_stay_unavailable(tmp_path: Path, caplog: Any) -> None:
    """SQLite only: its file truncated, found by the manifest beside it."""
    with running(tmp_path) as app:
        games = [create(app, mode="solo", lineup="R", seed=SEED) for _ in range(2)]
        reached = play(app, games[0], 5)
        assert app.get("/healthz").json()["ok"] is True
    written = manifest(tmp_path)["games"]
    assert written[games[0]["game_id"]] == reached and games[1]["game_id"] in written   # the clean stop wrote it
    (tmp_path / DB_NAME).write_bytes(b"")   # truncated to 0 bytes
    caplog.set_level(logging.ERROR)
    with running(tmp_path) as app:
        health = app.get("/healthz").json()
        assert health["ok"] is False and health["unavailable_games"] == 2, health
        assert any("emptied or replaced" in p for p in health["storage_problems"]), health
        assert any("does not match" in p for p in health["storage_problems"]), health
        errors = storage_errors(caplog)
        assert any("emptied or replaced" in m for m in errors)
        assert all(any(g["game_id"] in m and "missing from the database" in m for m in errors) for g in games)
        for g in games:
            unavailable(app, g, "missing from the database")
        fresh = create(app, mode="solo", lineup="R", seed=SEED)   # the server still serves new games
        assert play(app, fresh, 2) > 0
    # the alarm holds across restarts: the manifest kept the lost games' counts
    assert manifest(tmp_path)["games"][games[0]["game_id"]] == reached
    caplog.clear()
    with running(tmp_path) as app:
        health = app.get("/healthz").json()
        assert health["ok"] is False and health["unavailable_games"] == 2
        unavailable(app, games[0], "missing from the database")
        assert app.get(f"/api/games/{fresh['game_id']}").status_code == 200


def test_a_deleted_last_action_row_makes_its_game_unavailable(tmp_path: Path, caplog: Any) -> None:
    """SQLite only: the manifest knows the count (PostgreSQL's case is the last test here)."""
    with running(tmp_path) as app:
        victim = create(app, mode="solo", lineup="R", seed=SEED)
        other = create(app, mode="solo", lineup="R", seed=SEED)
        reached = play(app, victim, 6)
        other_reached = play(app, other, 3)
    n = stored_actions(tmp_path, victim["game_id"])
    assert n == reached == manifest(tmp_path)["games"][victim["game_id"]]
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute("DELETE FROM actions WHERE game_id=? AND n=?", (victim["game_id"], n - 1))
    db.commit()
    db.close()
    caplog.set_level(logging.ERROR)
    with running(tmp_path) as app:
        health = app.get("/healthz").json()
        assert health["ok"] is False and health["unavailable_games"] == 1, health
        words = f"holds {n - 1} of its {n} acknowledged actions"
        assert any(victim["game_id"] in m and words in m for m in storage_errors(caplog))
        unavailable(app, victim, words)
        with ws(app, other["game_id"]) as a:   # the other game plays on
            w = a.hello(other["seats"][0]["token"])
            assert w["type"] == "welcome" and w["state_id"] == other_reached
            assert a.act(other["seats"][0]["token"], other_reached, w["view"]["pending"][0])["ack"]
    assert stored_actions(tmp_path, victim["game_id"]) == n - 1   # its rows are left as they were


def test_a_row_deleted_while_the_server_runs_is_noticed_at_the_next_sweep(tmp_path: Path, database: str | None,
                                                                          caplog: Any) -> None:
    """On both stores: the server knows what it acknowledged since it started."""
    caplog.set_level(logging.ERROR)
    with running(tmp_path, database=database) as app:
        srv = app.app.state.server
        victim = create(app, mode="solo", lineup="R", seed=SEED)
        reached = play(app, victim, 5)
        app.portal.call(srv.sweep)
        assert app.get("/healthz").json()["ok"] is True
        stored_exec(tmp_path, database, "DELETE FROM actions WHERE game_id=? AND n=?", (victim["game_id"], reached - 1))
        app.portal.call(srv.sweep)
        health = app.get("/healthz").json()
        assert health["ok"] is False and health["unavailable_games"] == 1, health
        assert any(victim["game_id"] in m for m in storage_errors(caplog))
        unavailable(app, victim, f"holds {reached - 1} of")


def test_a_wal_deleted_while_the_server_runs_is_noticed_and_nothing_acknowledged_is_lost(tmp_path: Path,
                                                                                        caplog: Any) -> None:
    """SQLite only: its write-ahead log file (PostgreSQL owns its log)."""
    live, crashed = tmp_path / "live", tmp_path / "crashed"
    caplog.set_level(logging.ERROR)
    with running(live) as app:
        srv = app.app.state.server
        game = create(app, mode="solo", lineup="R", seed=SEED)
        play(app, game, 3)
        for suffix in ("-wal", "-shm"):
            (live / (DB_NAME + suffix)).unlink()
        reached = play(app, game, 6)   # acknowledged into the deleted log
        app.portal.call(srv.sweep)
        health = app.get("/healthz").json()
        assert health["ok"] is False and any("deleted while the server runs" in p for p in health["storage_problems"])
        assert any("deleted while the server runs" in m for m in storage_errors(caplog))
        assert (live / (DB_NAME + "-wal")).exists()   # the store reopened on a new log
        reached = max(reached, play(app, game, 4))
        # what a kill -9 now would leave: the files as they are, and the running mark
        crashed.mkdir()
        for name in (DB_NAME, DB_NAME + "-wal", MANIFEST_NAME):
            shutil.copy(live / name, crashed / name)
        (crashed / RUNNING_MARK).write_text("12345")
    with running(crashed) as app:
        with ws(app, game["game_id"]) as a:
            w = a.hello(game["seats"][0]["token"], state_id=reached)
            assert (w["type"], w["state_id"]) == ("welcome", reached), w
        assert app.get("/healthz").json()["ok"] is True


def test_postgresql_the_last_row_deleted_while_stopped_is_served_as_stored_and_a_seat_that_saw_more_is_refused(
        tmp_path: Path, pg_url: str, caplog: Any) -> None:
    """PostgreSQL's counterpart of the deleted last action row: no manifest counts it, so the game is
    served as the database holds it (as a database restored from an older dump is), not marked
    unavailable; a seat that saw the lost state gets ``state_lost`` and goes on from the stored one."""
    with running(tmp_path, database=pg_url) as app:
        victim = create(app, mode="solo", lineup="R", seed=SEED)
        reached = play(app, victim, 6)
    gid, t0 = victim["game_id"], victim["seats"][0]["token"]
    stored_exec(tmp_path, pg_url, "DELETE FROM actions WHERE game_id=? AND n=?", (gid, reached - 1))
    caplog.set_level(logging.ERROR)
    with running(tmp_path, database=pg_url) as app:
        health = app.get("/healthz").json()
        assert health["unavailable_games"] == 0 and health["storage_problems"] == [], health
        with ws(app, gid) as a:
            err = a.hello(t0, state_id=reached)
            assert (err["type"], err["code"], err["state_id"]) == ("error", "state_lost", reached - 1), err
            w = a.hello(t0)   # knowingly going on from what the database holds
            assert (w["type"], w["state_id"]) == ("welcome", reached - 1)
            assert a.act(t0, reached - 1, w["view"]["pending"][0])["ack"]
    assert [n for (n,) in stored_rows(tmp_path, pg_url, "SELECT n FROM actions WHERE game_id=? ORDER BY n",
                                      (gid,))] == list(range(reached))
