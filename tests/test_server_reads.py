"""What keeps one connection's flood from holding the event loop (issue 22, item 8): WebSocket
sockets read 16 KiB at a time (server/guard.py, ``BoundedReadsWebSocketProtocol``), a serving
process's short interpreter-lock switch interval (core ``SWITCH_INTERVAL_S``), and a ``/healthz``
that does not walk the frozen objects. Their effect on latency is measured by ``scripts/load.py``
(docs/developers.md, "Load"), not asserted here; these tests check that they are in place and that
the protocol still works through them: a message at the size cap arrives whole across several
reads, and a flood of small frames sent in one write is refused while another connection is served."""

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

from christianity_game.server import guard
from christianity_game.server.health import SWITCH_INTERVAL_S


class FakeTransport:
    """What ``connection_made`` needs of a transport: asyncio's selector transport reads
    ``max_size`` bytes a call."""

    max_size = 256 * 1024

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def is_closing(self) -> bool:
        return False


def test_a_websocket_socket_is_read_16_kib_at_a_time() -> None:
    from uvicorn.config import Config
    from uvicorn.server import ServerState

    async def made() -> FakeTransport:
        proto = guard.BoundedReadsWebSocketProtocol(Config(app=None), ServerState(), {})
        transport = FakeTransport()
        proto.connection_made(transport)  # type: ignore[arg-type]
        proto.transport = None  # type: ignore[assignment]   # nothing to close
        return transport

    transport = asyncio.run(made())
    assert transport.max_size == guard.WS_READ_BYTES == 16 * 1024
    assert FakeTransport.max_size == 256 * 1024   # the instance's reads, not every transport's


def test_a_serving_process_switches_threads_every_half_millisecond(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from christianity_game.server.app import create_app

    before = sys.getswitchinterval()
    try:
        with TestClient(create_app(tmp_path / "plain")) as client:   # a test's app: the process is not its own
            assert client.get("/healthz").status_code == 200
            assert sys.getswitchinterval() == before
        with TestClient(create_app(tmp_path / "own", freeze_gc=True)) as client:
            health = client.get("/healthz").json()
            assert sys.getswitchinterval() == SWITCH_INTERVAL_S == 0.0005
            assert health["gc"]["frozen"] > 0   # counted when frozen, not walked per request
    finally:
        sys.setswitchinterval(before)


async def _flood_and_cap(port: int) -> None:
    from websockets.asyncio.client import connect

    url = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(timeout=10) as http:
        game = (await http.post(url + "/api/games", json={"mode": "coop", "lineup": "RR"})).json()
    spectator = game["spectator"]["token"]
    async with connect(game["ws"], compression=None, max_size=1 << 22) as calm, \
            connect(game["ws"], compression=None, max_size=1 << 22) as flood:
        for ws in (calm, flood):
            await ws.send(json.dumps({"type": "hello", "token": spectator}))
            assert json.loads(await ws.recv())["type"] == "welcome"
        # a message at the 16 KiB cap, over several reads: parsed whole, then refused for its
        # unknown field (not for its size)
        big = json.dumps({"type": "ping", "ref": "r1"})
        big = big[:-1] + ", " + json.dumps({"pad": "x" * (16 * 1024 - len(big) - 16)})[1:]
        assert 16 * 1024 - 64 < len(big) <= 16 * 1024
        await calm.send(big)
        answer = json.loads(await asyncio.wait_for(calm.recv(), 10))
        assert answer["type"] == "error" and answer["code"] != "too_large", answer   # whole, then judged
        # 5,000 small frames in one write: refused past the burst, while the other connection is served
        frames = [json.dumps({"type": "ping", "ref": f"f{i}"}) for i in range(5000)]
        for f in frames:   # written back to back: the kernel hands them over in large reads
            await flood.send(f)
        t = time.monotonic()
        await calm.send(json.dumps({"type": "ping", "ref": "calm"}))
        pong = json.loads(await asyncio.wait_for(calm.recv(), 10))
        assert pong == {"type": "pong", "ref": "calm"}
        assert time.monotonic() - t < 5.0
        codes: list[str] = []
        while "rate_limited" not in codes:
            msg = json.loads(await asyncio.wait_for(flood.recv(), 10))
            codes.append(msg.get("code", msg["type"]))
        assert codes.count("pong") <= 40 + 5   # the burst (40) and what the rate refilled meanwhile


def test_a_flood_of_small_frames_is_refused_and_a_message_at_the_cap_arrives_whole(tmp_path: Path) -> None:
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    log = open(tmp_path / "server.log", "ab")
    proc = subprocess.Popen(
        [sys.executable, "-m", "christianity_game.server", "--host", "127.0.0.1", "--port", str(port),
         "--data-dir", str(tmp_path), "--log-level", "warning"], stdout=log, stderr=log, env=env)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz").status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, (tmp_path / "server.log").read_text()[-2000:]
            time.sleep(0.1)
        asyncio.run(_flood_and_cap(port))
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()
