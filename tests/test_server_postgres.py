"""PostgreSQL as the server's second store (issue 22), against a real PostgreSQL (tests/pg_fixture.py).

* The store interface means the same on both stores: every call of server/store.py's ``GameStore``
  is run on SQLite and on PostgreSQL and must give the same answers.
* The schema is the numbered migrations of ``server/migrations/``: both folders end at the same
  version, a fresh database gets them all, a SQLite file from before the migrations (schema 1, its
  version only in ``meta``) is brought up to date, a database newer than the server is refused.
* PostgreSQL's own rules: one server per database (the advisory lock), a lost connection is
  reconnected (not damage), a gap inside a record found on start and rows lost while running found
  at the next sweep make that game unavailable, loud, as the SQLite manifest does.
* The server on PostgreSQL: games resume exactly after a restart, ``/healthz`` is clean.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from pathlib import Path
from typing import Any, Iterator

import psycopg
import pytest
from test_server_helpers import create, play, running, snapshot, ws
from test_server_hostile import closed_with

from christianity_game.server import migrate
from christianity_game.server.storage import open_store
from christianity_game.server.store import SCHEMA_VERSION, GameStore, SeatRow, StoreError, StoreUnavailable
from christianity_game.server.store_pg import PostgresStore, describe
from christianity_game.server.store_sqlite import SqliteStore

SEED = 7


@pytest.fixture
def store(database: str | None, tmp_path: Path) -> Iterator[GameStore]:
    """Each store in turn, open on a fresh database."""
    s = open_store(database, tmp_path)
    try:
        yield s
    finally:
        s.close()


def seats(humans: int = 2, bots: int = 0, claimed: bool = False) -> list[SeatRow]:
    out = [SeatRow(i, "human", None, f"hash{i}", claimed, None) for i in range(humans)]
    out += [SeatRow(humans + i, "bot", "random", None, False, None) for i in range(bots)]
    return out


# ---------------------------------------------------------------------------- the interface, on both stores
def test_the_store_interface_means_the_same_on_both_stores(store: GameStore) -> None:
    head = {"format": 1, "mode": "coop", "lineup": "RR", "seed": 5, "nested": {"b": [1, 2.5, None], "a": "é"}}
    store.create_game("g1", head, {"name": "one", "listed": True, "open": [1]}, "spec1", seats(2), owner="ownerA")
    store.create_game("g2", head, {"listed": True, "open": []}, "spec2", seats(1, 1), owner="ownerA")
    store.create_game("g3", head, {"listed": True}, "spec3", seats(0, 2), owner="ownerB")
    g = store.game("g1")
    assert g is not None and g.head == head and g.options["name"] == "one" and g.spectator_hash == "spec1"
    assert [(s.seat, s.kind, s.token_hash, s.claimed) for s in g.seats] == [(0, "human", "hash0", False),
                                                                           (1, "human", "hash1", False)]
    assert store.game("nope") is None
    with pytest.raises(Exception):   # a game id is unique
        store.create_game("g1", head, {}, "x", seats(1))
    assert [r.id for r in store.games()] == ["g1", "g2", "g3"]
    # actions: appended in order, read back exactly; a number taken twice is refused
    acts = [{"type": "Pass", "seat": i % 2, "n": i} for i in range(25)]
    for i, a in enumerate(acts):
        store.append_action("g1", i, a)
    assert store.actions("g1") == acts and store.actions("g2") == []
    with pytest.raises(Exception):
        store.append_action("g1", 3, {"type": "Pass"})
    assert store.actions("g1") == acts
    # the lobby: open, unclaimed human seats of listed games
    assert [r.id for r in store.open_games()] == ["g1"]
    store.claim("g1", 1, "newhash", "Ann")
    assert store.open_games() == []
    g = store.game("g1")
    assert g is not None and (g.seats[1].claimed, g.seats[1].token_hash, g.seats[1].name) == (True, "newhash", "Ann")
    store.claim("g1", 0)
    assert store.game("g1").seats[0].claimed  # type: ignore[union-attr]
    # quotas and flags
    assert store.count_live() == 3 and store.count_live("ownerA") == 2 and store.count_live(bots_only=True) == 1
    store.finish("g2", {"winner": "righteous", "reason": "test", "round": 3})
    g2 = store.game("g2")
    assert g2 is not None and g2.finished and g2.result == {"winner": "righteous", "reason": "test", "round": 3}
    assert store.count_live("ownerA") == 1
    assert [r.id for r in store.games(finished=True)] == ["g2"]
    assert [r.id for r in store.games(finished=False)] == ["g1", "g3"]
    store.set_flags("g1", parked=True, touched=time.time() - 1000)
    assert [r.id for r in store.games(finished=False, resident=True)] == ["g3"]
    assert store.abandoned(time.time() - 100) == ["g1"] and store.abandoned(time.time() - 5000) == []
    store.set_flags("g1", parked=False, archived=True)
    assert store.count_live() == 1 and store.abandoned(time.time()) == []
    # meta and secrets
    assert store.get_meta("nothing") is None
    store.set_meta("k", "v1")
    store.set_meta("k", "v2")
    assert store.get_meta("k") == "v2"
    key = store.secret("digest_key")
    assert len(key) == 32 and store.secret("digest_key") == key
    assert store.store_id and store.get_meta("schema_version") == str(SCHEMA_VERSION)
    # the checks: nothing wrong with a healthy store
    assert store.check_manifest() == {} and store.check_manifest({"g1": 25}) == {}
    assert store.damaged_games() == {} and store.problems == []


def test_a_store_reopened_holds_what_was_committed(database: str | None, tmp_path: Path) -> None:
    s = open_store(database, tmp_path)
    s.create_game("g", {"mode": "solo"}, {"open": [0]}, "sp", seats(1))
    for i in range(5):
        s.append_action("g", i, {"type": "Pass", "i": i})
    store_id, key = s.store_id, s.secret("digest_key")
    s.close()
    again = open_store(database, tmp_path)
    try:
        assert again.store_id == store_id and again.secret("digest_key") == key
        assert again.actions("g") == [{"type": "Pass", "i": i} for i in range(5)]
        assert again.problems == []
    finally:
        again.close()


# ---------------------------------------------------------------------------- migrations
def test_both_migration_folders_end_at_the_schema_version_with_the_same_names() -> None:
    lite, pg = migrate.migrations("sqlite"), migrate.migrations("postgresql")
    assert len(lite) == len(pg) == SCHEMA_VERSION
    assert [m.name for m in lite] == [m.name for m in pg]
    assert all(m.statements for m in lite + pg)


def test_a_fresh_database_records_every_migration(store: GameStore) -> None:
    if isinstance(store, SqliteStore):
        rows = store.db.execute("SELECT version, name FROM schema_version ORDER BY version").fetchall()
    else:
        assert isinstance(store, PostgresStore)
        rows = store.db.execute("SELECT version, name FROM schema_version ORDER BY version").fetchall()
    assert [tuple(r) for r in rows] == [(m.version, m.name) for m in migrate.migrations(store.kind)]


def test_a_sqlite_file_from_before_the_migrations_is_brought_up_to_date(tmp_path: Path) -> None:
    """Schema 1 as an old server wrote it (its version only in meta, no schema_version table)."""
    path = tmp_path / "games.sqlite3"
    db = sqlite3.connect(path)
    for stmt in migrate.migrations("sqlite")[0].statements:
        db.execute(stmt)
    db.execute("INSERT INTO meta VALUES ('schema_version', '1')")
    db.execute("INSERT INTO games(id, created, head, options, spectator_hash) VALUES ('old', 1.0, '{}', '{}', 's')")
    db.execute("INSERT INTO seats(game_id, seat, kind, token_hash) VALUES ('old', 0, 'human', 'h')")
    db.commit()
    db.close()
    s = SqliteStore(tmp_path)
    try:
        assert s.get_meta("schema_version") == str(SCHEMA_VERSION)
        versions = [r[0] for r in s.db.execute("SELECT version FROM schema_version ORDER BY version")]
        assert versions == list(range(1, SCHEMA_VERSION + 1))
        assert s.count_live(bots_only=False) == 1 and s.count_live(bots_only=True) == 0   # people filled in
        assert s.abandoned(2.0) == ["old"]   # touched = created
    finally:
        s.close()
    SqliteStore(tmp_path).close()   # and opening it again changes nothing


def test_a_database_written_by_a_newer_server_is_refused(database: str | None, tmp_path: Path) -> None:
    open_store(database, tmp_path).close()
    newer = SCHEMA_VERSION + 1
    if database is None:
        db = sqlite3.connect(tmp_path / "games.sqlite3")
        db.execute("INSERT INTO schema_version VALUES (?, 'from_the_future', 0)", (newer,))
        db.commit()
        db.close()
    else:
        with psycopg.connect(database, autocommit=True) as db:
            db.execute("INSERT INTO schema_version VALUES (%s, 'from_the_future', 0)", (newer,))
    with pytest.raises(StoreError, match=f"newer server .schema {newer} > {SCHEMA_VERSION}"):
        open_store(database, tmp_path)


def test_database_urls_and_paths() -> None:
    from christianity_game.server.store import is_postgres, sqlite_location
    assert is_postgres("postgresql://u@h/db") and is_postgres("postgres://h/db") and not is_postgres(None)
    assert sqlite_location(None, "data") == (Path("data"), "games.sqlite3")
    assert sqlite_location("sqlite:////srv/x/g.db", "data") == (Path("/srv/x"), "g.db")
    assert sqlite_location("sqlite:///rel/g.db", "data") == (Path("rel"), "g.db")
    assert sqlite_location("/srv/y/h.sqlite3", "data") == (Path("/srv/y"), "h.sqlite3")
    with pytest.raises(StoreError):
        sqlite_location("mysql://h/db", "data")
    assert describe("postgresql://bob:secret@db.example:5433/games") == "postgresql://bob@db.example:5433/games"


# ---------------------------------------------------------------------------- PostgreSQL's own rules
def test_one_server_per_postgresql_database(pg_url: str) -> None:
    first = PostgresStore(pg_url)
    try:
        with pytest.raises(StoreError, match="another server is using the database"):
            PostgresStore(pg_url, lock_wait_s=0.3)
    finally:
        first.close()
    PostgresStore(pg_url).close()   # released when the first one closed


def test_a_lost_connection_is_reconnected_not_damage(pg_url: str, caplog: Any) -> None:
    s = PostgresStore(pg_url)
    try:
        s.create_game("g", {"mode": "solo"}, {}, "sp", seats(1))
        s.append_action("g", 0, {"type": "Pass"})
        pid = s.db.info.backend_pid
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        time.sleep(0.2)
        caplog.set_level(logging.WARNING)
        assert s.actions("g") == [{"type": "Pass"}]   # a read: retried on a new session
        assert s.db.info.backend_pid != pid and any("reconnected" in r.getMessage() for r in caplog.records)
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (s.db.info.backend_pid,))
        time.sleep(0.2)
        s.append_action("g", 1, {"type": "Pass", "again": True})   # an action cut off: looked for, then stored
        assert s.actions("g") == [{"type": "Pass"}, {"type": "Pass", "again": True}]
        assert s.problems == []
        # and the lock was taken again with the new session
        with pytest.raises(StoreError, match="another server"):
            PostgresStore(pg_url, lock_wait_s=0.2)
    finally:
        s.close()


def test_postgresql_batches_commit_together_or_not_at_all(pg_url: str) -> None:
    """``batch()``: the writer's group commit (server/writer.py) on PostgreSQL."""
    s = PostgresStore(pg_url)
    try:
        s.create_game("g", {"mode": "solo"}, {}, "sp", seats(1))
        with s.batch():
            for i in range(3):
                s.append_action("g", i, {"type": "Pass", "i": i})
            with psycopg.connect(pg_url, autocommit=True) as other:   # not visible before the commit
                assert other.execute("SELECT COUNT(*) FROM actions").fetchone() == (0,)
        assert len(s.actions("g")) == 3
        with pytest.raises(Exception):
            with s.batch():
                s.append_action("g", 3, {"type": "Pass", "i": 3})
                s.append_action("g", 0, {"type": "something else"})   # taken: the whole batch is rolled back
        assert len(s.actions("g")) == 3
        # one by one afterwards (as the writer does): the same action at the same place is stored,
        # as if a lost commit had stored it; another one is refused
        s.append_action("g", 2, {"type": "Pass", "i": 2})
        with pytest.raises(Exception):
            s.append_action("g", 2, {"type": "Pass", "i": 99})
        s.append_action("g", 3, {"type": "Pass", "i": 3})
        assert [a["i"] for a in s.actions("g")] == [0, 1, 2, 3]
    finally:
        s.close()


def test_an_unreachable_database_is_a_clear_start_failure(pg_cluster: Any) -> None:
    url = f"postgresql://postgres@127.0.0.1:{pg_cluster.port}/no_such_database"
    with pytest.raises(StoreError, match="cannot be reached"):
        PostgresStore(url, connect_timeout=2)


def test_a_closed_store_refuses_calls(pg_url: str) -> None:
    s = PostgresStore(pg_url)
    s.close()
    with pytest.raises(StoreUnavailable):
        s.count_live()


def _remove_action(url: str, game_id: str, n: int | None = None) -> None:
    with psycopg.connect(url, autocommit=True) as db:
        if n is None:
            db.execute("DELETE FROM actions WHERE game_id=%s AND n=(SELECT MAX(n) FROM actions WHERE game_id=%s)",
                       (game_id, game_id))
        else:
            db.execute("DELETE FROM actions WHERE game_id=%s AND n=%s", (game_id, n))


def test_postgresql_a_gap_inside_a_record_found_on_start_makes_that_game_unavailable(
        pg_url: str, tmp_path: Path, caplog: Any) -> None:
    with running(tmp_path, database=pg_url) as app:
        bad = create(app, mode="coop", lineup="RR", seed=SEED)
        good = create(app, mode="coop", lineup="RR", seed=SEED)
        play(app, bad, 4)
        reached = play(app, good, 3)
    _remove_action(pg_url, bad["game_id"], 1)
    caplog.set_level(logging.ERROR)
    with running(tmp_path, database=pg_url) as app:
        health = app.get("/healthz").json()
        assert health["ok"] is False and health["unavailable_games"] == 1, health
        assert any(bad["game_id"] in p for p in health["storage_problems"]), health
        assert any("STORAGE:" in r.getMessage() and bad["game_id"] in r.getMessage() for r in caplog.records)
        with ws(app, bad["game_id"]) as a:
            err = a.recv()
            assert err["code"] == "game_unavailable" and "missing" in err["message"]
            closed_with(a, 1011)
        with ws(app, good["game_id"]) as a:
            assert a.hello(good["seats"][0]["token"])["state_id"] == reached


def test_postgresql_rows_lost_while_running_are_found_at_the_next_sweep(pg_url: str, tmp_path: Path) -> None:
    with running(tmp_path, database=pg_url) as app:
        game = create(app, mode="coop", lineup="RR", seed=SEED)
        play(app, game, 4)
        srv = app.app.state.server
        app.portal.call(srv.sweep)
        assert app.get("/healthz").json()["ok"] is True
        _remove_action(pg_url, game["game_id"])   # the last acknowledged action, behind the server's back
        app.portal.call(srv.sweep)
        health = app.get("/healthz").json()
        assert health["ok"] is False and health["unavailable_games"] == 1, health
        assert any("rows were lost while it runs" in p or game["game_id"] in p for p in health["storage_problems"])
        r = app.get(f"/api/games/{game['game_id']}/view", params={"token": game["seats"][0]["token"]})
        assert (r.status_code, r.json()["code"]) == (503, "game_unavailable")


def test_postgresql_the_server_resumes_games_exactly_after_a_restart(pg_url: str, tmp_path: Path) -> None:
    with running(tmp_path / "a", database=pg_url) as app:
        coop = create(app, mode="coop", lineup="RR", seed=SEED, access={"1": "open"})
        duel = create(app, mode="duel", lineup="ER", seed=SEED)
        play(app, coop, 5)
        play(app, duel, 3)
        before = [snapshot(app, g) for g in (coop, duel)]
        lobby = {g["game_id"] for g in app.get("/api/games").json()}
        assert coop["game_id"] in lobby
        assert app.get("/healthz").json()["ok"] is True
    # another data folder (or host): the games live in the database, not beside the server
    with running(tmp_path / "b", database=pg_url) as app:
        assert [snapshot(app, g) for g in (coop, duel)] == before
        assert {g["game_id"] for g in app.get("/api/games").json()} == lobby
        health = app.get("/healthz").json()
        assert health["ok"] is True and health["storage_problems"] == [], health
        assert not (tmp_path / "b" / "games.sqlite3").exists()


def test_a_second_server_on_the_same_postgresql_database_is_refused(pg_url: str, tmp_path: Path) -> None:
    first = PostgresStore(pg_url)
    try:
        with pytest.raises(StoreError, match="another server is using the database"):
            from christianity_game.server.core import GameServer
            GameServer(tmp_path, database=pg_url)
    finally:
        first.close()


# ---------------------------------------------------------------------------- the fixture itself
def test_without_postgresql_ci_fails_and_a_local_run_skips(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import pg_fixture
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv(pg_fixture.PG_BIN_ENV, raising=False)
    monkeypatch.setattr(pg_fixture, "DEBIAN_PG", tmp_path / "nothing")
    assert pg_fixture.find_pg_bin() is None
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI runs the PostgreSQL tests: PostgreSQL is not installed"):
        pg_fixture.missing_postgres()
    for local in ("", "false"):
        monkeypatch.setenv("CI", local)
        with pytest.raises(pytest.skip.Exception, match="scripts/setup.sh dev"):
            pg_fixture.missing_postgres()
    # and the binaries are found in Debian's folders
    fake = tmp_path / "pg" / "15" / "bin"
    fake.mkdir(parents=True)
    for name in ("initdb", "postgres"):
        (fake / name).write_text("")
    monkeypatch.setattr(pg_fixture, "DEBIAN_PG", tmp_path / "pg")
    assert pg_fixture.find_pg_bin() == fake


# ---------------------------------------------------------------------------- the command line
def test_serve_database_postgresql_stores_the_games_there(pg_url: str, tmp_path: Path) -> None:
    """``christianity-game serve --database postgresql://...`` as a real process: the game it creates
    is a row of that database, and nothing is written into the data folder."""
    import os
    import subprocess
    import sys

    import httpx
    from test_server_crash import ROOT, free_port

    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    log = open(tmp_path / "serve.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "christianity_game", "serve", "--port", str(port), "--data",
                             str(tmp_path / "data"), "--database", pg_url, "--bot-delay", "0",
                             "--log-level", "warning"], stdout=log, stderr=log, env=env, cwd=tmp_path)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()
            try:
                if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            time.sleep(0.1)
        game = httpx.post(url + "/api/games", json={"mode": "solo", "lineup": "R"}, timeout=10).json()
        with psycopg.connect(pg_url) as db:
            assert db.execute("SELECT COUNT(*) FROM games WHERE id=%s", (game["game_id"],)).fetchone() == (1,)
        assert httpx.get(url + "/healthz", timeout=5).json()["ok"] is True
    finally:
        proc.terminate()
        proc.wait(20)
        log.close()
    assert not (tmp_path / "data" / "games.sqlite3").exists()


def test_serve_refuses_a_database_it_cannot_use() -> None:
    from typer.testing import CliRunner

    from christianity_game.cli import app as cli_app
    r = CliRunner().invoke(cli_app, ["serve", "--database", "mysql://db.example/games"])
    assert r.exit_code != 0 and "neither a PostgreSQL URL" in r.output


def test_the_online_backup_points_postgresql_to_pg_dump(tmp_path: Path) -> None:
    from christianity_game.server.__main__ import main as server_main
    with pytest.raises(SystemExit, match="pg_dump"):
        server_main(["--database", "postgresql://nobody@127.0.0.1:1/none", "--backup", str(tmp_path / "x")])
