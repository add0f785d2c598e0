"""A small asyncio client for one seat over a real WebSocket (the load script and the crash test use it).

``SeatClient(ws_url, token, bot=...)`` joins with ``hello``, keeps the latest view, and when the
seat may act lets its bot choose among the view's ``pending`` actions and sends one, timing the
round trip to the ``ack``ed update. It checks what the protocol promises as it goes (updates
arrive one state id at a time; a reconnect never goes back; events cover exactly the gap) and
notes any breach in ``problems``.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from ..bots.base import Bot
from ..engine.actions import action_from_json


class SeatClient:
    def __init__(self, ws_url: str, token: str, bot: Bot | None = None, think: float = 0.0,
                 jitter: float = 0.5, local_addr: str | None = None) -> None:
        self.ws_url = ws_url
        self.local_addr = local_addr    # the source address to connect from (loopback tests)
        self.token = token
        self.bot = bot
        self.think = think
        self.jitter = jitter
        self.seat: int | None = None
        self.state_id: int | None = None
        self.view: dict[str, Any] | None = None
        self.rtts: list[float] = []
        self.sent_at: list[float] = []    # perf_counter() when each timed action was sent
        self.acked: list[tuple[int, dict[str, Any]]] = []   # (state_id, action) of our accepted actions
        self.errors: dict[str, int] = {}
        self.problems: list[str] = []
        self.messages = 0
        self.connects = 0
        self.gate = asyncio.Event()     # cleared: read but do not act
        self.gate.set()
        self._sent: tuple[float, dict[str, Any]] | None = None
        self._asked_at: int | None = None   # the state_id the last action was sent against
        self._backoff_until = 0.0
        self._joined = False
        self._ref = 0

    @property
    def over(self) -> bool:
        return self.view is not None and self.view.get("result") is not None

    async def run(self, stop: asyncio.Event | None = None, open_timeout: float = 10.0) -> None:
        """Connect (or reconnect) and play until the game is over, ``stop`` is set, or the
        connection drops (``websockets.ConnectionClosed`` or ``OSError`` propagate)."""
        from websockets.asyncio.client import connect

        extra: dict[str, Any] = {"local_addr": (self.local_addr, 0)} if self.local_addr else {}
        async with connect(self.ws_url, compression=None, open_timeout=open_timeout, max_size=1 << 24,
                           ping_interval=None, **extra) as ws:
            self.connects += 1
            self._sent = None
            self._joined = False    # act only on the view the welcome brings
            await ws.send(json.dumps({"type": "hello", "token": self.token, "state_id": self.state_id}))
            while not (stop is not None and stop.is_set()):
                if self.over:
                    return
                if self._may_act():
                    if self.think > 0:
                        r = (hash((self.seat, self.state_id, self._ref)) % 1000) / 1000.0
                        delay = self.think * (1.0 - self.jitter + 2 * self.jitter * r)
                        try:
                            async with asyncio.timeout(delay):
                                text = await ws.recv()
                        except TimeoutError:
                            text = None
                        if text is not None:
                            self._handle(text)
                            continue
                        if not self._may_act():
                            continue
                    await self._act(ws)
                    continue
                try:
                    wait = 0.5 if stop is not None else None
                    if self._backoff_until > time.monotonic():
                        wait = self._backoff_until - time.monotonic()
                    async with asyncio.timeout(wait):
                        text = await ws.recv()
                except TimeoutError:
                    continue
                self._handle(text)

    def _may_act(self) -> bool:
        v = self.view
        return (self._joined and self._sent is None and time.monotonic() >= self._backoff_until
                and self.gate.is_set() and v is not None and bool(v.get("pending"))
                and v.get("result") is None)

    async def _act(self, ws: Any) -> None:
        v = self.view
        assert v is not None
        pending = v["pending"]
        if len(pending) == 1 or self.bot is None:
            choice = pending[0]
        else:
            actions = [action_from_json(a) for a in pending]
            choice = self.bot.choose(v, actions).to_json()
        self._ref += 1
        self._sent = (time.perf_counter(), choice)
        self._asked_at = v["state_id"]
        await ws.send(json.dumps({"type": "action", "token": self.token, "state_id": v["state_id"],
                                  "action": choice, "ref": self._ref}))

    def _handle(self, text: str | bytes) -> None:
        self.messages += 1
        msg = json.loads(text)
        kind = msg.get("type")
        if kind == "update":
            sid = msg["state_id"]
            if self.state_id is not None and sid != self.state_id + 1:
                self.problems.append(f"update {sid} after {self.state_id}: not one step")
            for e in msg["events"]:
                if e["state_id"] != sid:
                    self.problems.append(f"update {sid} carries an event of state {e['state_id']}")
            if msg["ack"]:
                if self._sent is None:
                    self.problems.append(f"ack {sid} for nothing sent")
                else:
                    self.rtts.append(time.perf_counter() - self._sent[0])
                    self.sent_at.append(self._sent[0])
                    self.acked.append((sid, self._sent[1]))
                    self._sent = None
            self.state_id, self.view = sid, msg["view"]
        elif kind in ("welcome", "sync"):
            sid = msg["state_id"]
            if self.state_id is not None:
                if sid < self.state_id:
                    self.problems.append(f"{kind} went back from {self.state_id} to {sid}")
                elif msg["since"] != self.state_id and not (
                        msg.get("reason") == "stale_state" and msg["since"] == self._asked_at):
                    # a resync after a stale action names the state that action was sent against
                    # (the protocol): updates may have come between the action and its refusal
                    self.problems.append(f"{kind} since {msg['since']}, asked {self.state_id}")
                else:
                    since = msg["since"]
                    ids = [e["state_id"] for e in msg["events"]]
                    if ids != sorted(ids) or any(not since < i <= sid for i in ids):
                        self.problems.append(f"{kind} events out of range ({since}, {sid}]")
                    if sid == self.state_id and self.view is not None and msg["view"] != self.view:
                        self.problems.append(f"{kind} at the same state {sid} with a different view")
            if kind == "welcome":
                self.seat = msg["seat"]
                self._joined = True
            self.state_id, self.view = sid, msg["view"]
            self._sent = None   # a stale action was refused; on a welcome nothing was in flight
        elif kind == "error":
            code = msg["code"]
            self.errors[code] = self.errors.get(code, 0) + 1
            if code == "rate_limited":    # dropped unread (no ref): back off, then send again
                self._sent = None
                self._backoff_until = time.monotonic() + 1.0
            elif msg.get("ref") is not None and self._sent is not None and msg["ref"] == self._ref:
                self._sent = None
        elif kind in ("pong", "adjust_request", "adjust_resolved"):
            pass
        else:
            self.problems.append(f"unknown message type {kind!r}")


# --------------------------------------------------------------------------- hostile clients (tests, load script)
def ws_frame(text: str | bytes, opcode: int = 0x1) -> bytes:
    """One masked client frame (text by default), as a browser would send it."""
    import os
    import struct

    payload = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 1 << 16:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class NonReader:
    """A WebSocket client that sends and never reads (a hostile or stuck client).

    It does the handshake by hand on a socket with a tiny receive buffer, then only writes: what
    the server sends piles up in the server's buffers until the server gives up on it."""

    def __init__(self, host: str, port: int, path: str, origin: str | None = None, source: str | None = None) -> None:
        self.host, self.port, self.path, self.origin, self.source = host, port, path, origin, source
        self.sock: Any = None

    async def open(self, timeout: float = 10.0) -> None:
        import base64
        import os
        import socket

        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        if self.source:
            sock.bind((self.source, 0))
        sock.setblocking(False)
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(timeout):
            await loop.sock_connect(sock, (self.host, self.port))
        key = base64.b64encode(os.urandom(16)).decode()
        req = (f"GET {self.path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n")
        if self.origin:
            req += f"Origin: {self.origin}\r\n"
        await loop.sock_sendall(sock, (req + "\r\n").encode())
        got = b""
        while b"\r\n\r\n" not in got:   # the 101 answer only (the server has sent nothing else yet)
            async with asyncio.timeout(timeout):
                chunk = await loop.sock_recv(sock, 1)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            got += chunk
        if b" 101 " not in got.split(b"\r\n", 1)[0]:
            raise ConnectionError(got.split(b"\r\n", 1)[0].decode(errors="replace"))
        self.sock = sock

    async def send(self, text: str) -> bool:
        """Send one text message; False once the server has cut the connection."""
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(5.0):
                await loop.sock_sendall(self.sock, ws_frame(text))
            return True
        except (OSError, TimeoutError):
            return False

    async def ended(self, timeout: float = 10.0, max_bytes: int = 64 << 20) -> bool:
        """Read (at last) until the server's end of the connection: True if it closed or cut it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        total = 0
        while loop.time() < deadline and total < max_bytes:
            try:
                async with asyncio.timeout_at(deadline):
                    chunk = await loop.sock_recv(self.sock, 1 << 16)
            except TimeoutError:
                return False
            except (ConnectionError, OSError):
                return True
            if not chunk:
                return True
            total += len(chunk)
        return False

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None
