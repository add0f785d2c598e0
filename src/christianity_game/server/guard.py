"""The HTTP connection guard: uvicorn's h11 protocol with deadlines and a per-address cap.

uvicorn (0.54) times out only an idle keep-alive connection: a connection that sends nothing, or a
request head sent one byte at a time (slowloris), or a body that never ends, holds its socket and
file descriptor for as long as the client likes. :class:`GuardedH11Protocol` adds, per connection:

* a **head deadline** (``Limits.header_timeout_s``): from the connection (or the first byte of the
  next request on a kept-alive one) to the end of the request's headers; past it the connection
  gets ``408 request_timeout`` and is closed;
* a **body deadline** (``Limits.body_timeout_s``): from the end of the headers to the end of the
  body; past it the connection is closed (the app sees the client go);
* the **idle keep-alive** time (``Limits.keep_alive_s``, uvicorn's own timer, here as a float);
* a **cap per client address** on open HTTP connections (``Limits.http_conns_per_address``; a
  connection leaves the count when it closes or becomes a WebSocket, which the app's own caps
  count): one over it is answered ``429 too_many_http_connections`` as soon as its head is in (or
  within a second) and closed, so a refused connection holds its descriptor for a second at most.

:class:`BoundedReadsWebSocketProtocol` is uvicorn's WebSocket protocol reading at most
``WS_READ_BYTES`` a time: asyncio reads up to 256 KiB at once, and the protocol parses every frame
of a read in one go, so a client that floods small frames (3,000 to a read) would hold the event
loop for tens of milliseconds a read; in 16 KiB reads the longest run is about a millisecond, and the
frames beyond wait in the kernel, where the client's own flow control holds them.

Refusals are written straight to the socket, as the JSON ``{"code", "message"}`` of every other
refusal of the server. The address is the TCP peer's: behind a reverse proxy every connection
comes from the proxy, so raise the cap there (or set it to 0: no cap) and let the proxy guard.
"""

from __future__ import annotations

import asyncio
import collections
import json
from typing import TYPE_CHECKING, Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .logs import log

if TYPE_CHECKING:
    from .limits import Limits

#: The largest request head (request line and headers) h11 buffers before it answers 400: twice the
#: longest address the app accepts (``app.MAX_TARGET``) is far below it, and so is any browser's.
MAX_HEAD_BYTES = 16 * 1024
#: The most a WebSocket connection's socket is read at once (the largest client message is 16 KiB).
WS_READ_BYTES = 16 * 1024
#: How long a refused connection may take to send its head before it is answered and closed.
REFUSED_GRACE_S = 1.0


def raw_json_response(status: int, reason: str, body: dict[str, Any]) -> bytes:
    """A complete HTTP/1.1 answer with a JSON body and ``Connection: close``, as bytes."""
    data = json.dumps(body).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(data)}\r\n"
            "connection: close\r\nx-content-type-options: nosniff\r\n\r\n")
    return head.encode("ascii") + data


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the deadlines and the per-address cap above. Made per server
    by :func:`guarded_protocol`, which sets the two class attributes."""

    limits: ClassVar["Limits"]
    #: open HTTP connections per client address, shared by every connection of one server
    open_by_addr: ClassVar[collections.Counter[str]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # uvicorn's keep-alive setting is whole seconds; the timer itself takes any float
        self.timeout_keep_alive = self.limits.keep_alive_s  # type: ignore[assignment]
        self._addr = ""
        self._counted = False
        self._refused = False
        self._upgraded = False
        self._phase: str | None = None          # "head" | "body" while a deadline runs
        self._deadline: asyncio.TimerHandle | None = None
        self._held = b""                         # what a refused connection sent (its head, bounded)

    # ------------------------------------------------------------------ the connection's life
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._addr = self.client[0] if self.client else ""
        cap = self.limits.http_conns_per_address
        if cap > 0 and self.open_by_addr[self._addr] >= cap:
            self._refused = True
            self._arm(min(REFUSED_GRACE_S, self.limits.header_timeout_s), "head")
            return
        self._counted = True
        self.open_by_addr[self._addr] += 1
        self._arm(self.limits.header_timeout_s, "head")

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._uncount()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:   # never parsed: answered once its head is in
            self._held = (self._held + data)[-MAX_HEAD_BYTES:]
            if b"\r\n\r\n" in self._held or len(self._held) >= MAX_HEAD_BYTES:
                self._refuse()
            return
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()   # a pipelined next request may already be half in

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        # a WebSocket: the app's caps count it from now on (conns_per_address, join timeout, pings)
        self._upgraded = True
        self._disarm()
        self._uncount()
        super().handle_websocket_upgrade(event)

    # ------------------------------------------------------------------ deadlines
    def _watch(self) -> None:
        """Arm or drop the deadline for where the current request stands (h11's view of the client)."""
        if self._upgraded or self.transport is None or self.transport.is_closing():
            self._disarm()
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            # bytes of a next request are in (the idle keep-alive timer was dropped when they came)
            if self._phase != "head" and self.conn.trailing_data[0]:
                self._arm(self.limits.header_timeout_s, "head")
        elif state is h11.SEND_BODY:
            if self._phase != "body":
                self._arm(self.limits.body_timeout_s, "body")
        else:   # the request is in (DONE), or the connection is closing
            self._disarm()

    def _arm(self, seconds: float, phase: str) -> None:
        self._disarm()
        self._phase = phase
        self._deadline = self.loop.call_later(max(0.0, seconds), self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._phase = None

    def _expired(self) -> None:
        phase, self._phase, self._deadline = self._phase, None, None
        if self.transport is None or self.transport.is_closing():
            return
        if self._refused:
            self._refuse()
            return
        lim = self.limits
        log.debug("closing an HTTP connection from %s: its request %s did not arrive in time", self._addr,
                  "head" if phase == "head" else "body")
        if phase == "head":   # nothing of this request has been answered: say why before closing
            self.transport.write(raw_json_response(408, "Request Timeout", {
                "code": "request_timeout",
                "message": f"the request's headers did not arrive within {lim.header_timeout_s:g} s"}))
        self.transport.close()

    def _refuse(self) -> None:
        cap = self.limits.http_conns_per_address
        self._disarm()
        self.transport.write(raw_json_response(429, "Too Many Requests", {
            "code": "too_many_http_connections",
            "message": f"at most {cap} HTTP connections at a time from one address; finish or close some, "
                       "then try again"}))
        self.transport.close()

    def _uncount(self) -> None:
        if self._counted:
            self._counted = False
            self.open_by_addr[self._addr] -= 1
            if self.open_by_addr[self._addr] <= 0:
                del self.open_by_addr[self._addr]


def guarded_protocol(limits: "Limits") -> type[GuardedH11Protocol]:
    """The protocol class for one server (``uvicorn.Config(http=...)``): its limits and its own
    per-address count."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,),
                {"limits": limits, "open_by_addr": collections.Counter()})


class BoundedReadsWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (``ws="websockets-sansio"``) whose socket is read
    ``WS_READ_BYTES`` at a time (see the module docstring)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        # asyncio's selector transport reads ``max_size`` bytes a call (a class attribute, 256 KiB)
        if hasattr(transport, "max_size"):
            transport.max_size = WS_READ_BYTES
        super().connection_made(transport)
