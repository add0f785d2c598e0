"""Storage damage is loud (issue 12): a write-ahead log lost after a crash, and a corrupted database
page, are each detected on start and reported; a client that saw a state the server no longer holds
is refused with ``state_lost``; a damaged game is ``game_unavailable`` (1011) while the others keep
working; the online backup copies a live data folder.

Most of this is SQLite's own damage, to its files, and runs on SQLite only (each test says why); the
rows-found-damaged test runs on both stores, with PostgreSQL's data_corrupted error as its store
raises it. PostgreSQL's counterparts elsewhere: a kill -9 on it in tests/test_server_crash.py, its
backup (pg_dump) and the gap and lost-row checks in tests/test_server_postgres.py, a database behind
what a client saw in tests/test_server_manifest.py."""

from __future__ import annotations

import dataclasses
import logging
import shutil
import sqlite3
import time
from pathlib import Path
from typing import Any

from test_server_helpers import ROOMY, create, play, running, ws
from test_server_hostile import closed_with

from christianity_game.server.__main__ import main as server_main
from christianity_game.server.store import DB_NAME
from christianity_game.server.store_sqlite import RUNNING_MARK

SEED = 7
PAGE = 4096
FAST_BOTS = dataclasses.replace(ROOMY, bot_share=1.0)


def test_a_lost_write_ahead_log_is_reported_and_clients_that_saw_more_are_refused(tmp_path: Path,
                                                                                 caplog: Any) -> None:
    """SQLite only: its write-ahead log file lost after a crash (PostgreSQL owns its log)."""
    live, crashed = tmp_path / "live", tmp_path / "crashed"
    with running(live) as app:
        game = create(app, mode="solo", lineup="R", seed=SEED)
        db = sqlite3.connect(live / DB_NAME)
        for _ in range(100):   # the game itself into the main file (the server may be checkpointing too)
            if db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0] == 0:
                break
            time.sleep(0.02)
        db.close()
        seen = play(app, game, 8)
        assert seen >= 4
        # what a kill -9 followed by a deleted WAL leaves: the main file, and the running mark
        crashed.mkdir()
        shutil.copy(live / DB_NAME, crashed / DB_NAME)
        (crashed / RUNNING_MARK).write_text("12345")
    caplog.set_level(logging.ERROR)
    with running(crashed) as app:
        health = app.get("/healthz").json()
        assert any("missing after an unclean stop" in p for p in health["storage_problems"]), health
        gid, t0 = game["game_id"], game["seats"][0]["token"]
        with ws(app, gid) as a:
            err = a.hello(t0, state_id=seen)
            assert (err["type"], err["code"]) == ("error", "state_lost")
            assert err["state_id"] < seen and str(seen) in err["message"]
            w = a.hello(t0)   # knowingly going on from what the server has
            assert (w["type"], w["state_id"]) == ("welcome", err["state_id"])
            a.send({"type": "action", "token": t0, "state_id": seen, "action": {"type": "Pass"}})
            assert a.recv()["code"] == "state_lost"
            a.send({"type": "sync", "state_id": seen})
            assert a.recv()["code"] == "state_lost"
        assert any("acknowledged actions were lost" in r.getMessage() for r in caplog.records)
        assert any("lost" in p for p in app.get("/healthz").json()["storage_problems"])
    # a clean stop leaves no mark: the next start finds nothing wrong
    with running(crashed) as app:
        assert app.get("/healthz").json()["storage_problems"] == []


def _corrupt_a_page_of(path: Path, victim: str, others: list[str]) -> int:
    """Overwrite the cells of one b-tree leaf page that holds only ``victim``'s rows: the middle
    one of those pages (the victim's actions were appended in order), so that no other game's
    lookup passes through it."""
    data = bytearray(path.read_bytes())
    pages = []
    for p in range(1, len(data) // PAGE):   # page 1 (index 0) holds the file header: leave it
        page = bytes(data[p * PAGE:(p + 1) * PAGE])
        if page[0] not in (0x0A, 0x0D):   # leaf pages (index or table b-tree)
            continue
        if any(o.encode() in page for o in others):
            continue
        if page.count(victim.encode()) >= 5:
            pages.append(p)
    assert len(pages) >= 3, "the victim's rows fill too few pages"
    best = pages[len(pages) // 2]
    start = best * PAGE
    data[start + 8:start + PAGE] = bytes((i * 37 + 11) % 256 for i in range(PAGE - 8))
    path.write_bytes(bytes(data))
    return best


def test_a_corrupted_page_marks_its_game_unavailable_and_the_rest_keep_working(tmp_path: Path,
                                                                               caplog: Any) -> None:
    """SQLite only: a page of its file overwritten. PostgreSQL's counterpart, a data_corrupted error
    on a game's rows, is the next test but one."""
    with running(tmp_path, limits=FAST_BOTS) as app:   # the bots-only game runs at full speed
        others = [create(app, mode="coop", lineup="RR", seed=SEED, access={"1": "open"}) for _ in range(2)]
        victim = create(app, mode="coop", lineup="RR", seed=SEED, bots={"0": "random", "1": "random"})
        gid = victim["game_id"]
        deadline = time.monotonic() + 60   # the bots play it to the end: hundreds of action rows
        while app.get(f"/api/games/{gid}").json()["result"] is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert app.get(f"/api/games/{gid}").json()["result"] is not None
        reached = play(app, others[0], 3)
    _corrupt_a_page_of(tmp_path / DB_NAME, gid, [g["game_id"] for g in others])
    caplog.set_level(logging.ERROR)
    with running(tmp_path) as app:
        health = app.get("/healthz").json()
        assert any("integrity check" in p for p in health["storage_problems"]), health
        assert health["unavailable_games"] == 1
        assert any(gid in r.getMessage() and "damaged" in r.getMessage() for r in caplog.records)
        with ws(app, gid) as a:
            err = a.recv()
            assert err["code"] == "game_unavailable" and "damaged" in err["message"]
            closed_with(a, 1011)
        r = app.get(f"/api/games/{gid}/record")
        assert (r.status_code, r.json()["code"]) == (503, "game_unavailable")
        lobby = app.get("/api/games")
        assert lobby.status_code == 200 and {g["game_id"] for g in lobby.json()} >= {o["game_id"] for o in others}
        with ws(app, others[0]["game_id"]) as a:   # the other games play on
            w = a.hello(others[0]["seats"][0]["token"], state_id=0)
            assert w["type"] == "welcome" and w["state_id"] == reached > 0
        with ws(app, others[1]["game_id"]) as a:
            view = a.hello(others[1]["seats"][0]["token"])["view"]
            upd = a.act(others[1]["seats"][0]["token"], view["state_id"], view["pending"][0])
            assert upd["type"] == "update" and upd["ack"]
        assert create(app, mode="coop", lineup="RR")["game_id"]


def test_the_online_backup_copies_a_live_data_folder(tmp_path: Path, capsys: Any) -> None:
    """SQLite only: ``--backup`` copies its file. On PostgreSQL it points to pg_dump
    (tests/test_server_postgres.py)."""
    data = tmp_path / "data"
    with running(data) as app:
        game = create(app, mode="coop", lineup="RR", seed=SEED)
        reached = play(app, game, 4)
        server_main(["--data-dir", str(data), "--backup", str(tmp_path / "copy.sqlite3")])
        assert "quick_check: ok" in capsys.readouterr().out
    restored = tmp_path / "restored"
    restored.mkdir()
    shutil.copy(tmp_path / "copy.sqlite3", restored / DB_NAME)
    with running(restored) as app:
        with ws(app, game["game_id"]) as a:
            assert a.hello(game["seats"][0]["token"], state_id=reached)["state_id"] == reached
        assert app.get("/healthz").json()["storage_problems"] == []


def test_rows_found_damaged_while_serving_mark_only_that_game_unavailable(tmp_path: Path, monkeypatch: Any,
                                                                          database: str | None) -> None:
    """On both stores: SQLite's "malformed" error, and PostgreSQL's data_corrupted (XX001) as its store
    raises it (a DatabaseError)."""
    from christianity_game.server.store import DatabaseError
    with running(tmp_path, database=database) as app:
        bad = create(app, mode="coop", lineup="RR", seed=SEED)
        good = create(app, mode="coop", lineup="RR", seed=SEED)
    with running(tmp_path, database=database) as app:
        srv = app.app.state.server
        srv.rooms.pop(bad["game_id"], None)
        real = srv.store.actions

        def actions(game_id: str) -> list[dict[str, Any]]:
            if game_id == bad["game_id"]:
                if database is None:
                    raise sqlite3.DatabaseError("database disk image is malformed")
                raise DatabaseError("DataCorrupted: invalid page in block 7 of relation base/16384/16390 (malformed)")
            return real(game_id)  # type: ignore[no-any-return]
        monkeypatch.setattr(srv.store, "actions", actions)
        with ws(app, bad["game_id"]) as a:
            err = a.recv()
            assert err["code"] == "game_unavailable" and "malformed" in err["message"]
            closed_with(a, 1011)
        r = app.get(f"/api/games/{bad['game_id']}/view", params={"token": bad["seats"][0]["token"]})
        assert (r.status_code, r.json()["code"]) == (503, "game_unavailable")
        with ws(app, good["game_id"]) as a:
            assert a.hello(good["seats"][0]["token"])["type"] == "welcome"


def test_kill_9_then_a_deleted_wal_is_noticed_by_the_real_server(tmp_path: Path) -> None:
    """The issue's case on the real server: kill -9, delete the WAL, restart: the start is loud and
    a client that saw the lost states is refused with state_lost instead of being welcomed. SQLite
    only (its WAL file); a kill -9 on PostgreSQL is in tests/test_server_crash.py."""
    import asyncio
    import json as _json

    import httpx
    from test_server_crash import Server, free_port
    from websockets.asyncio.client import connect

    async def scenario() -> None:
        server = Server(tmp_path, free_port())
        server.start()
        try:
            async with httpx.AsyncClient(timeout=10) as http:
                await server.ready(http)
                game = (await http.post(server.url + "/api/games", json={"mode": "solo", "lineup": "R",
                                                                          "seed": SEED})).json()
                token = game["seats"][0]["token"]
                await asyncio.sleep(0.5)   # the server copies a new game into the main file on a worker thread
                async with connect(game["ws"]) as ws_:
                    await ws_.send(_json.dumps({"type": "hello", "token": token}))
                    view = _json.loads(await ws_.recv())["view"]
                    for _ in range(12):
                        if not view["pending"] or view["result"] is not None:
                            break
                        passes = [p for p in view["pending"] if p["type"] == "Pass"]
                        await ws_.send(_json.dumps({"type": "action", "token": token, "state_id": view["state_id"],
                                                    "action": (passes or view["pending"])[0]}))
                        msg = _json.loads(await ws_.recv())
                        assert msg["type"] == "update" and msg["ack"], msg
                        view = msg["view"]
                seen = view["state_id"]
                assert seen >= 4
                server.kill9()
                for suffix in ("-wal", "-shm"):
                    (tmp_path / (DB_NAME + suffix)).unlink(missing_ok=True)
                server.start()
                await server.ready(http)
                health = (await http.get(server.url + "/healthz")).json()
                assert any("missing after an unclean stop" in p for p in health["storage_problems"]), health
                async with connect(game["ws"]) as ws_:
                    await ws_.send(_json.dumps({"type": "hello", "token": token, "state_id": seen}))
                    err = _json.loads(await ws_.recv())
                    assert (err["type"], err["code"]) == ("error", "state_lost") and err["state_id"] < seen
            assert "STORAGE:" in server.tail()
        finally:
            server.stop()

    asyncio.run(asyncio.wait_for(scenario(), 120))
