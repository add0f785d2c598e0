"""Slow and silent clients on the real server (issue 22, item 6): half-open HTTP requests time out
(408 ``request_timeout``), one address holds a bounded number of HTTP connections (429
``too_many_http_connections`` past it) while other addresses are served at once, a body that never
ends is cut, and a joined WebSocket that goes silent is pinged and closed. The server runs as a
subprocess (uvicorn, as deployed) on a free loopback port with its timeouts shortened by flags;
the attack comes over raw sockets, from 127.0.0.1, the bystander from 127.0.0.2. On SQLite only:
these are uvicorn's and the WebSocket's timeouts, before and beside any store call (the silent
socket's game is created and welcomed as in every other test), and each takes some 5 s of waiting;
the stores' paths run on both stores in the other server tests."""

from __future__ import annotations

import base64
import json
import os
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``python -m christianity_game.server`` (or any command) on a free loopback port, its output in
    a file; ``stop`` ends it with SIGTERM (a clean stop), SIGKILL if it does not go."""

    def __init__(self, data_dir: Path, *flags: str, command: list[str] | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = data_dir.parent / f"server-{self.port}.log"
        base = command or [sys.executable, "-m", "christianity_game.server", "--data-dir", str(data_dir)]
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
        with open(self.log_path, "wb") as out:
            self.proc = subprocess.Popen([*base, "--host", "127.0.0.1", "--port", str(self.port), *flags],
                                         stdout=out, stderr=subprocess.STDOUT, env=env)

    def ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.output()
            try:
                if httpx.get(self.url + "/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError("the server did not come up\n" + self.output())

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def __enter__(self) -> "ServerProcess":
        try:
            self.ready()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((source, 0))   # every 127.x.y.z is this machine: a second client address on loopback
    s.settimeout(10)
    s.connect(("127.0.0.1", port))
    return s


def read_until_closed(s: socket.socket, timeout: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and when it did (seconds from
    now; ``inf`` if it did not within ``timeout``)."""
    t0 = time.monotonic()
    data = b""
    while time.monotonic() - t0 < timeout:
        ready, _, _ = select.select([s], [], [], max(0.0, timeout - (time.monotonic() - t0)))
        if not ready:
            break
        try:
            chunk = s.recv(65536)
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            return data, time.monotonic() - t0
        data += chunk
    return data, float("inf")


def json_answer(raw: bytes) -> tuple[int, dict[str, Any]]:
    head, _, body = raw.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


SLOW = ["--header-timeout-s", "1", "--body-timeout-s", "1", "--keep-alive-s", "1", "--http-conns-per-address", "8",
        "--http-rate", "10000", "--http-burst", "10000", "--bot-delay", "0", "--log-level", "warning"]


def test_half_open_requests_time_out_and_one_address_cannot_hold_more_than_its_share(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "data", *SLOW) as server:
        # 30 half-open requests from one address: the head never ends
        socks = [connect(server.port) for _ in range(30)]
        for s in socks:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n")
        # another address is served at once meanwhile
        t = time.monotonic()
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"), timeout=5) as bystander:
            other = bystander.get(server.url + "/healthz")
        assert other.status_code == 200 and time.monotonic() - t < 1.0
        answers = [read_until_closed(s, 6.0) for s in socks]
        for s in socks:
            s.close()
        assert all(when < 6.0 for _, when in answers), [when for _, when in answers]   # every one closed
        codes = sorted(json_answer(raw)[1]["code"] for raw, _ in answers)
        assert codes == ["request_timeout"] * 8 + ["too_many_http_connections"] * 22, codes
        refused = next(json_answer(raw) for raw, _ in answers if b" 429 " in raw.split(b"\r\n")[0])
        assert refused[0] == 429 and "at most 8 HTTP connections" in refused[1]["message"]
        timed_out = next(json_answer(raw) for raw, _ in answers if b" 408 " in raw.split(b"\r\n")[0])
        assert "did not arrive within 1 s" in timed_out[1]["message"]
        # the address is served again once its connections are gone
        assert httpx.get(server.url + "/healthz", timeout=5).status_code == 200
        # a connection that never sends a byte is closed too
        silent = connect(server.port)
        _, when = read_until_closed(silent, 6.0)
        silent.close()
        assert 0.5 < when < 3.0, when
        # a body that never ends is cut
        body = connect(server.port)
        body.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 1000\r\n\r\n{\"mode\": ")
        _, when = read_until_closed(body, 6.0)
        body.close()
        assert when < 3.0, when
        # an idle kept-alive connection is closed after its keep-alive time
        idle = connect(server.port)
        idle.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        raw, when = read_until_closed(idle, 6.0)
        idle.close()
        assert raw.startswith(b"HTTP/1.1 200") and when < 3.0, (raw[:40], when)
        assert server.proc.poll() is None


# --------------------------------------------------------------------------- a silent WebSocket
def ws_frame(text: str) -> bytes:
    """A masked text frame (a client's)."""
    data = text.encode()
    mask = os.urandom(4)
    n = len(data)
    head = bytes([0x81, 0x80 | n]) if n < 126 else bytes([0x81, 0x80 | 126]) + n.to_bytes(2, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def ws_opcodes(stream: bytes) -> list[int]:
    """The opcodes of the (unmasked) server frames in ``stream``."""
    out: list[int] = []
    i = 0
    while i + 2 <= len(stream):
        op, n = stream[i] & 0x0F, stream[i + 1] & 0x7F
        i += 2
        if n == 126:
            n, i = int.from_bytes(stream[i:i + 2], "big"), i + 2
        elif n == 127:
            n, i = int.from_bytes(stream[i:i + 8], "big"), i + 8
        out.append(op)
        i += n
    return out


def test_a_joined_websocket_that_goes_silent_is_pinged_and_closed(tmp_path: Path) -> None:
    import asyncio

    from websockets.asyncio.client import connect as ws_connect

    flags = ["--ws-ping-s", "0.5", "--ws-ping-timeout-s", "0.5", "--bot-delay", "0", "--log-level", "warning"]
    with ServerProcess(tmp_path / "data", *flags) as server:
        game = httpx.post(server.url + "/api/games", json={"mode": "coop", "lineup": "RR"}, timeout=10).json()
        token = game["seats"][0]["token"]
        s = connect(server.port)
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall(f"GET /ws/{game['game_id']} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += s.recv(4096)
        assert head.startswith(b"HTTP/1.1 101"), head
        rest = head.partition(b"\r\n\r\n")[2]
        s.sendall(ws_frame(json.dumps({"type": "hello", "token": token})))
        t = time.monotonic()
        data, when = read_until_closed(s, 10.0)   # reads everything, answers nothing: no pong
        s.close()
        assert when < 4.0, when
        ops = ws_opcodes(rest + data)
        assert ops[0] == 0x1 and 0x9 in ops, ops   # the welcome, then a ping it never answered
        assert time.monotonic() - t > 0.5

        async def answering_client() -> bool:
            """A client that answers pings (as every WebSocket library does) stays connected."""
            async with ws_connect(game["ws"], ping_interval=None) as c:
                await c.send(json.dumps({"type": "hello", "token": token}))
                assert json.loads(await c.recv())["type"] == "welcome"
                await asyncio.sleep(3.0)
                await c.send(json.dumps({"type": "ping", "ref": 1}))
                return bool(json.loads(await c.recv())["type"] == "pong")

        assert asyncio.run(asyncio.wait_for(answering_client(), 20))
