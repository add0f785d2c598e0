"""kill -9 the real server mid-game, again and again: every game resumes exactly where it was.

The server runs as a subprocess (``python -m christianity_game.server``) on a free loopback port
with a temporary data folder. People's seats are played over real WebSockets by bots in this
process (which reconnect with their links whenever the server is down); other seats are bots on
the server. The server is killed with SIGKILL while actions are in flight, and also while every
game waits for a person (then the keyed digest of each whole game must be the same after the
restart). Clients check as they go that a reconnect never goes back and resends exactly the
missed events; at the end every game is over, and every action a client saw acknowledged is in
the game's record at its place. On both stores (``database``: the data folder's SQLite file, then a
PostgreSQL database of tests/pg_fixture.py's cluster, which keeps running while the server is killed).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from christianity_game import Game
from christianity_game.bots import make_bot
from christianity_game.server.client import SeatClient

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, data_dir: Path, port: int, database: str | None = None) -> None:
        self.data_dir = data_dir
        self.port = port
        self.database = database   # None: the data folder's SQLite file; else a PostgreSQL URL
        self.url = f"http://127.0.0.1:{port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = open(data_dir / "server.log", "ab")

    def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "christianity_game.server", "--host", "127.0.0.1", "--port", str(self.port),
             "--data-dir", str(self.data_dir), "--bot-delay", "0", "--log-level", "warning",
             *(["--database", self.database] if self.database else [])],
            stdout=self.log, stderr=self.log, env=env)

    async def ready(self, http: httpx.AsyncClient, timeout: float = 30.0) -> None:
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            assert self.proc is not None and self.proc.poll() is None, self.tail()
            try:
                if (await http.get(self.url + "/healthz")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.05)
        raise AssertionError("the server did not come up\n" + self.tail())

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        assert self.proc.returncode == -signal.SIGKILL

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.log.close()

    def tail(self) -> str:
        self.log.flush()
        return (self.data_dir / "server.log").read_text(errors="replace")[-3000:]


GAMES: list[dict[str, Any]] = [
    {"mode": "coop", "lineup": "RR", "seed": 31},
    {"mode": "coop", "lineup": "RR", "seed": 32, "bots": {"1": "heuristic"}},
    {"mode": "solo", "lineup": "R", "seed": 33},
    {"mode": "coop", "lineup": "RRR", "seed": 34, "bots": {"2": "random"}},
    {"mode": "coop", "lineup": "RR", "seed": 35},
]
try:   # duel comes on the same API: when the engine has it, a duel game is killed too
    Game.new(mode="duel", lineup="ER", seed=37)
    GAMES.append({"mode": "duel", "lineup": "ER", "seed": 37, "bots": {"0": "random"}})
except ValueError:
    pass


async def keep_playing(client: SeatClient, done: asyncio.Event) -> None:
    """Play; whenever the connection drops (the server was killed), reconnect with the link."""
    while not client.over and not done.is_set():
        try:
            await client.run(done, open_timeout=2.0)
        except (OSError, asyncio.TimeoutError, Exception) as exc:   # noqa: BLE001 - server down
            if client.over or done.is_set():
                return
            if not _is_disconnect(exc):
                raise
            await asyncio.sleep(0.05)


def _is_disconnect(exc: BaseException) -> bool:
    from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidMessage
    return isinstance(exc, (ConnectionClosed, InvalidHandshake, InvalidMessage, OSError, asyncio.TimeoutError,
                            EOFError))


async def digests(http: httpx.AsyncClient, url: str, games: list[dict[str, Any]]) -> dict[str, Any]:
    out = {}
    for g in games:
        r = await http.get(f"{url}/api/games/{g['game_id']}/digest")
        r.raise_for_status()
        out[g["game_id"]] = r.json()
    return out


async def scenario(tmp_path: Path, database: str | None = None) -> None:
    server = Server(tmp_path, free_port(), database)
    server.start()
    clients: list[SeatClient] = []
    done = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    try:
        async with httpx.AsyncClient(timeout=10.0) as http:
            await server.ready(http)
            games = []
            for n, body in enumerate(GAMES):
                r = await http.post(server.url + "/api/games", json=body)
                assert r.status_code == 201, r.text
                games.append(r.json())
            for g in games:
                for s in g["seats"]:
                    if s["kind"] == "human":
                        level = "heuristic" if s["seat"] % 2 else "random"
                        clients.append(SeatClient(g["ws"], s["token"], make_bot(level, seed=s["seat"]), think=0.02))
            tasks = [asyncio.create_task(keep_playing(c, done)) for c in clients]
            kills = quiet_kills = 0
            plan = ["busy", "busy", "quiet", "busy", "busy", "quiet"]
            for step in plan:
                await asyncio.sleep(0.6)
                if sum(not c.over for c in clients) < 2:
                    break
                if step == "quiet":
                    for c in clients:
                        c.gate.clear()
                    # every game waits for a person, who holds still: the state is at rest
                    await asyncio.sleep(0.4)
                    before = await digests(http, server.url, games)
                    await asyncio.sleep(0.2)
                    assert await digests(http, server.url, games) == before, "the games did not hold still"
                    server.kill9()
                    server.start()
                    await server.ready(http)
                    after = await digests(http, server.url, games)
                    assert after == before, "a game is not where it was before the kill"
                    quiet_kills += 1
                    for c in clients:
                        c.gate.set()
                else:
                    server.kill9()   # actions in flight, bots moving, clients mid-send
                    server.start()
                    await server.ready(http)
                kills += 1
            assert kills >= 4 and quiet_kills >= 1, "the games ended before the server was killed enough"
            # play continues to the end
            try:
                await asyncio.wait_for(asyncio.gather(*tasks), timeout=90)
            except asyncio.TimeoutError:
                state = [(c.ws_url[-8:], c.seat, c.state_id, c.over, c.errors, c._sent is not None) for c in clients]
                raise AssertionError(f"the games did not finish: {state}\n{server.tail()}") from None
            problems = [p for c in clients for p in c.problems]
            assert not problems, problems
            assert sum(c.connects for c in clients) >= len(clients) * 3, "the clients were not cut off mid-game"
            for g in games:
                record = (await http.get(f"{server.url}/api/games/{g['game_id']}/record")).json()
                replayed = Game.from_record(record)
                assert replayed.result is not None
                for c in clients:
                    if c.ws_url != g["ws"]:
                        continue
                    for sid, action in c.acked:
                        assert record["actions"][sid - 1] == action, "an acknowledged action was lost or moved"
                    view = (await http.get(f"{server.url}/api/games/{g['game_id']}/view",
                                           params={"token": c.token})).json()
                    assert view == c.view == json.loads(json.dumps(replayed.view(c.seat)))
            assert sum(len(c.acked) for c in clients) > 100
    finally:
        done.set()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        server.stop()


def test_kill_9_mid_game_resumes_every_game_exactly(tmp_path: Path, database: str | None) -> None:
    asyncio.run(asyncio.wait_for(scenario(tmp_path, database), timeout=150))
    if database is not None:   # the games lived in PostgreSQL, not beside the server
        assert not (tmp_path / "games.sqlite3").exists()
