"""Clients that never read their socket (issue 12), against the real server on loopback: each is
closed once what waits for it passes the send-queue cap, the server's memory comes back (RSS within
20 MB of where it started) and a normal client is served all along. On both stores (``database``:
SQLite, then PostgreSQL; tests/pg_fixture.py): the flood asks for resyncs of a stored game, and the
send queue a non-reader fills is fed by the store's broadcast."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from test_server_crash import ROOT, free_port

from christianity_game.server.client import NonReader

QUEUE_BYTES = 256 * 1024


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


async def wait_for(cond: Any, timeout: float, every: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await cond():
            return True
        await asyncio.sleep(every)
    return False


async def scenario(data_dir: Path, database: str | None = None) -> None:
    from websockets.asyncio.client import connect

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    log = open(data_dir / "server.log", "ab")
    proc = subprocess.Popen(
        [sys.executable, "-m", "christianity_game.server", "--host", "127.0.0.1", "--port", str(port),
         "--data-dir", str(data_dir), "--bot-delay", "0", "--log-level", "warning", "--rate", "2000",
         "--burst", "2000", "--sync-bytes-per-message", "0", "--bot-share", "1",
         "--send-queue-bytes", str(QUEUE_BYTES), *(["--database", database] if database else [])],
        stdout=log, stderr=log, env=env)
    clients: list[NonReader] = []
    try:
        async with httpx.AsyncClient(timeout=10) as http:
            async def up() -> bool:
                try:
                    return (await http.get(url + "/healthz")).status_code == 200
                except httpx.HTTPError:
                    return False
            assert await wait_for(up, 30), (data_dir / "server.log").read_text()[-2000:]
            # a finished bots-only game: a full resync of it is large
            big = (await http.post(url + "/api/games", json={"mode": "coop", "lineup": "RR",
                                                              "bots": {"0": "random", "1": "random"}})).json()

            async def finished() -> bool:
                return (await http.get(f"{url}/api/games/{big['game_id']}")).json()["result"] is not None
            assert await wait_for(finished, 60)
            calm = (await http.post(url + "/api/games", json={"mode": "coop", "lineup": "RR"})).json()
            spectator = big["spectator"]["token"]
            async with connect(calm["ws"]) as normal:
                await normal.send(json.dumps({"type": "hello", "token": calm["seats"][0]["token"]}))
                assert json.loads(await normal.recv())["type"] == "welcome"
                await normal.send(json.dumps({"type": "sync", "state_id": 0}))
                await normal.recv()
                base = rss_mb(proc.pid)
                for _ in range(20):
                    c = NonReader("127.0.0.1", port, f"/ws/{big['game_id']}")
                    await c.open()
                    clients.append(c)
                flood = json.dumps({"type": "sync", "state_id": 0})
                sent = 0

                async def push(c: NonReader) -> int:
                    n = 0
                    if not await c.send(json.dumps({"type": "hello", "token": spectator})):
                        return n
                    for _ in range(150):   # ~100 KB asked for each time: far past the cap
                        if not await c.send(flood):
                            break
                        n += 1
                    return n
                sent = sum(await asyncio.gather(*(push(c) for c in clients)))
                assert sent >= 20 * 5
                # a normal client keeps being served while the server deals with them
                for i in range(5):
                    await normal.send(json.dumps({"type": "ping", "ref": i}))
                    assert json.loads(await asyncio.wait_for(normal.recv(), 10)) == {"type": "pong", "ref": i}

                async def only_normal_left() -> bool:
                    return (await http.get(url + "/healthz")).json()["connections"] == 1
                assert await wait_for(only_normal_left, 30), (await http.get(url + "/healthz")).json()
                ended = await asyncio.gather(*(c.ended(timeout=10) for c in clients))
                assert all(ended), ended
                await asyncio.sleep(0.5)
                after = rss_mb(proc.pid)
                assert after - base < 20, (base, after)
                await normal.send(json.dumps({"type": "ping", "ref": "end"}))
                assert json.loads(await asyncio.wait_for(normal.recv(), 10))["ref"] == "end"
        text = (data_dir / "server.log").read_text(errors="replace")
        assert "stopped reading" in text
    finally:
        for c in clients:
            c.close()
        proc.kill()
        proc.wait(10)
        log.close()


def test_clients_that_never_read_are_closed_and_their_memory_freed(tmp_path: Path, database: str | None) -> None:
    asyncio.run(asyncio.wait_for(scenario(tmp_path, database), 180))
