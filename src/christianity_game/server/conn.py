"""One WebSocket connection (:class:`Conn`): who it is, its rate bucket, its outgoing queue and
the sender task that drains it; and the JSON it sends, each view encoded once (:class:`Encoded`,
:func:`dumps`).

A slow reader never holds up the game or the other connections: it is closed with 1013 when what
is queued for it passes ``Limits.send_queue_bytes``, its queue freed and, after a moment's grace,
its TCP connection cut (it resyncs on reconnect).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any, Protocol

import orjson
from pydantic_core import to_json

from .limits import Limits
from .logs import game_log

log = logging.getLogger("christianity_game.server")


class Encoded:
    """JSON already encoded (a view of one state, shared by every message that carries it):
    :func:`dumps` puts its text in place as it is, without encoding the object again."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data


def _orjson_default(obj: Any) -> Any:
    if isinstance(obj, Encoded):
        return orjson.Fragment(obj.data)
    raise TypeError(f"{type(obj).__name__} is not JSON serialisable by orjson")


def _plain(obj: Any) -> Any:
    """pydantic's fallback for what it does not know: an :class:`Encoded` as the value it encodes."""
    if isinstance(obj, Encoded):
        return json.loads(obj.data)
    raise TypeError(f"{type(obj).__name__} is not JSON serialisable")


def dumps_bytes(obj: Any) -> bytes:
    """``obj`` as the server sends it (UTF-8 JSON, no spaces, non-string keys as strings), with
    orjson (several times faster than pydantic's encoder on views). What orjson refuses and
    pydantic takes goes to pydantic's encoder, so the output is byte for byte pydantic's: an
    integer beyond 64 bits (none is sent: a seed goes out as a decimal string, docs/protocol.md
    "Large integers"; this keeps any other such value a JSON number), a set, bytes."""
    try:
        return orjson.dumps(obj, default=_orjson_default, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:   # orjson.JSONEncodeError is a TypeError
        return to_json(obj, fallback=_plain)


def dumps(obj: Any) -> str:
    """:func:`dumps_bytes` as text (what a WebSocket text frame carries)."""
    return dumps_bytes(obj).decode("utf-8")


def canonical(obj: Any) -> bytes:
    """JSON as sent (non-string keys become strings), keys sorted: equal states, equal bytes."""
    return json.dumps(json.loads(to_json(obj)), sort_keys=True, separators=(",", ":")).encode()


RAW_SEND = "christianity_game.raw_send"   # scope key: the ASGI server's own send (see app.SecurityHeaders)


def abort_transport(ws: Any) -> bool:
    """Cut a WebSocket's TCP connection at once, dropping what is buffered (a client that stopped
    reading never drains it). Reaches uvicorn's transport through its ASGI ``send`` callable (kept
    in the scope by the app's outermost middleware); False where there is none (the test client)."""
    scope = getattr(ws, "scope", None)
    send = scope.get(RAW_SEND) if isinstance(scope, dict) else None
    proto = getattr(send or getattr(ws, "_send", None), "__self__", None)
    transport = getattr(proto, "transport", None)
    if transport is None or not hasattr(transport, "abort"):
        return False
    transport.abort()
    return True


class Seated(Protocol):
    """What a connection knows of the game it is on (a :class:`~christianity_game.server.room.Room`):
    its id, the connections joined to it (a closing connection leaves them), and the count of
    connections open on it with when it last saw one come or go (see ``Quotas.admit``)."""

    game_id: str
    conns: set[Conn]
    attached: int
    last_active: float


class Conn:
    """One WebSocket connection: who it is, its rate bucket and its outgoing queue."""

    __slots__ = ("ws", "limits", "seat", "role", "thash", "queue", "sender", "closing", "tokens", "stamp",
                 "refused", "pause", "room", "qbytes", "addr", "admitted")

    def __init__(self, ws: Any, limits: Limits, addr: str = "") -> None:
        self.ws = ws
        self.limits = limits
        self.seat: int | None = None
        self.role: str | None = None          # "player" | "spectator" once joined
        self.thash: str | None = None
        self.queue: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue()
        self.sender: asyncio.Task[None] | None = None
        self.closing = False
        self.tokens = float(limits.burst)
        self.stamp = time.monotonic()
        self.refused = 0          # refused in a row (errors go out for the first and every tenth)
        self.pause = 0.0          # seconds to stop reading after a refusal (TCP holds the rest)
        self.room: Seated | None = None
        self.qbytes = 0           # characters queued and not yet written
        self.addr = addr
        self.admitted: Seated | None = None   # counted against the connection caps (see Quotas.admit)

    def start(self) -> None:
        self.sender = asyncio.get_running_loop().create_task(self._send_loop())

    async def _send_loop(self) -> None:
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, tuple):
                    await self.ws.close(code=item[0], reason=item[1])
                    return
                await self.ws.send_text(item)
                self.qbytes -= len(item)
        except asyncio.CancelledError:
            raise
        except Exception:   # the peer went away: the receive loop sees the disconnect
            self.closing = True

    def allow(self) -> bool:
        """The rate bucket: True if this message may be handled now."""
        now = time.monotonic()
        lim = self.limits
        elapsed = now - self.stamp
        self.stamp = now
        self.tokens = min(float(lim.burst), self.tokens + elapsed * lim.rate)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.refused = 0
            return True
        self.refused += 1
        # Stop reading this connection for a moment: what it sends meanwhile waits in its own
        # TCP buffers, so a flood costs the server a few dozen messages a second, not the loop.
        self.pause = min(1.0 / lim.rate, 0.05) if lim.rate > 0 else 0.05
        return False

    def charge(self, size: int) -> None:
        """Charge a large reply (welcome, sync) against the rate bucket: the request paid for its
        first ``sync_bytes_per_message`` characters, every further such many cost one more message
        (the bucket may go below zero: later messages wait)."""
        per = self.limits.sync_bytes_per_message
        if per > 0 and size > per:
            self.tokens -= (size - per) / per

    def send(self, text: str) -> None:
        if self.closing:
            return
        lim = self.limits
        # the cap is on the backlog: one message of any size may go out to a client that keeps up
        if (self.qbytes and self.qbytes + len(text) > lim.send_queue_bytes) or self.queue.qsize() >= lim.send_queue:
            self.stopped_reading()
            return
        self.qbytes += len(text)
        self.queue.put_nowait(text)

    def stopped_reading(self, grace: float = 1.0) -> None:
        """The client stopped reading: free what is queued for it, try for ``grace`` seconds to
        send it a 1013 close, then cut the TCP connection (its unread buffers go with it)."""
        if self.closing:
            return
        self.closing = True
        if self.room is not None:
            self.room.conns.discard(self)
        while not self.queue.empty():
            self.queue.get_nowait()
        self.qbytes = 0
        (game_log(self.room.game_id) if self.room is not None else log).warning(
            "closing a connection from %s that stopped reading (send queue over %d bytes)", self.addr,
            self.limits.send_queue_bytes)
        if self.sender is not None:
            self.sender.cancel()
        self.sender = asyncio.get_running_loop().create_task(self._close_or_cut(grace))

    async def _close_or_cut(self, grace: float) -> None:
        try:
            async with asyncio.timeout(grace):
                await self.ws.close(code=1013, reason="stopped reading: reconnect to resync")
            await asyncio.sleep(grace)   # time for the peer to answer the close
        except Exception:   # noqa: BLE001 - the peer is gone or stuck: cut it
            pass
        finally:   # also when cancelled: a stuck peer must never keep its buffers
            abort_transport(self.ws)

    def close(self, code: int, reason: str, flush: bool = True) -> None:
        if self.closing:
            return
        self.closing = True
        if self.room is not None:
            self.room.conns.discard(self)
        if not flush:
            while not self.queue.empty():
                self.queue.get_nowait()
            self.qbytes = 0
        self.queue.put_nowait((code, reason))

    def error(self, code: str, message: str, ref: Any = None, state_id: int | None = None,
              reason: str | None = None) -> None:
        msg: dict[str, Any] = {"type": "error", "code": code, "message": message, "reason": reason,
                               "state_id": state_id, "ref": ref}
        self.send(dumps(msg))
