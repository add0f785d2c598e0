"""The caps a deployment sets (:class:`Limits`) and the token buckets that count requests against
them (:class:`Buckets`: HTTP requests and new games per client address). What enforces the caps on
connections and games is server/quotas.py; a connection's own message bucket is its
:class:`~christianity_game.server.conn.Conn`'s."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Limits:
    """The caps a deployment can set (``python -m christianity_game.server --help``); every one
    that refuses answers with a code (docs/protocol.md, "Limits").

    Per connection: ``rate``/``burst``, a token bucket of messages; a message over it is refused,
    and the server stops reading that connection for a moment (``1/rate`` seconds, at most 50 ms),
    so a flood waits in the flooder's own TCP buffers instead of costing the server. A ``welcome``
    or ``sync`` reply costs one more message per ``sync_bytes_per_message`` bytes, so resync storms
    are paid by their size. ``send_queue_bytes``/``send_queue``: what may wait for a client that
    does not read before it is closed (1013) and its queue freed. ``max_depth``: JSON nesting.

    Connections: ``conns_per_address`` and ``conns_total`` when a connection opens;
    ``conns_per_seat`` (each seat's links) and ``conns_per_game`` (its spectators) when it joins, so
    strangers cannot fill a game's places; 4429 over any. A connection that has not joined within
    ``join_timeout_s`` is closed (4408).
    Games: ``create_rate``/``create_burst`` per address (games a second), live (unfinished,
    unarchived) ``games_per_address`` and ``games_total``; bots-only games ``bot_games_per_address``
    and ``bot_games_total``; ``bot_share``: the share of the loop bots-only games may use.
    Memory: a game without connections or a bot to move leaves memory after ``idle_evict_s``; one
    with a person's seat untouched for ``abandon_s`` is archived (not listed or loaded at start;
    its links still work). ``sweep_s``: how often that is looked at.
    HTTP: ``http_rate``/``http_burst``, requests a second per client address (pages, lobby, API).
    Slow clients (served by uvicorn; server/guard.py): a request's head must arrive within
    ``header_timeout_s`` of the connection (or of its first byte on a kept-alive one; 408 then), its
    body within ``body_timeout_s`` of the head; an idle kept-alive connection closes after
    ``keep_alive_s``; ``http_conns_per_address``: open HTTP connections from one address (0: no cap;
    429 over it). A joined WebSocket is pinged every ``ws_ping_s`` and closed when no pong comes
    within ``ws_ping_timeout_s`` (0: no pings).
    Replays (``POST /api/replays``, server/replays.py): a record of at most ``replay_bytes`` bytes
    and ``replay_actions`` actions (413 over either), replayed in a worker process within
    ``replay_timeout_s`` (503 past it). Any other request body (``POST /api/games``, a join) is at
    most ``body_bytes`` (``413 body_too_large``, refused before it is all read).
    """

    max_message_bytes: int = 16 * 1024
    rate: float = 20.0
    burst: int = 40
    send_queue: int = 512
    send_queue_bytes: int = 1 << 20
    sync_bytes_per_message: int = 8 * 1024
    max_depth: int = 32
    conns_per_game: int = 32
    conns_per_seat: int = 4
    join_timeout_s: float = 10.0
    conns_per_address: int = 64
    conns_total: int = 4000
    create_rate: float = 0.2
    create_burst: int = 20
    games_per_address: int = 100
    games_total: int = 50_000
    bot_games_per_address: int = 2
    bot_games_total: int = 32
    bot_share: float = 0.25
    idle_evict_s: float = 600.0
    abandon_s: float = 14 * 86400.0
    sweep_s: float = 30.0
    http_rate: float = 50.0
    http_burst: int = 200
    header_timeout_s: float = 10.0
    body_timeout_s: float = 30.0
    keep_alive_s: float = 5.0
    http_conns_per_address: int = 32
    ws_ping_s: float = 20.0
    ws_ping_timeout_s: float = 20.0
    replay_bytes: int = 8 << 20
    replay_actions: int = 50_000
    replay_timeout_s: float = 10.0
    body_bytes: int = 256 << 10

    def public(self) -> dict[str, Any]:
        return {"max_message_bytes": self.max_message_bytes, "rate_per_s": self.rate, "burst": self.burst,
                "sync_bytes_per_message": self.sync_bytes_per_message, "send_queue_bytes": self.send_queue_bytes}


class Buckets:
    """Token buckets by key (a client address, a creator's key): each holds up to ``burst`` tokens
    and gains ``rate`` tokens a second; a request that is let through takes one. The rate and
    burst are given at each call (a process of a cluster changes its share of them while it runs).
    Once more than ``most`` keys are held, those whose bucket is full again are forgotten."""

    def __init__(self, most: int = 10_000) -> None:
        self.held: dict[str, tuple[float, float]] = {}
        self.most = most

    def level(self, key: str, rate: float, burst: int, now: float) -> float:
        """The tokens ``key``'s bucket holds at ``now`` (a full bucket for a key not held)."""
        tokens, stamp = self.held.get(key, (float(burst), now))
        return min(float(burst), tokens + (now - stamp) * rate)

    def keep(self, key: str, tokens: float, rate: float, burst: int, now: float) -> None:
        """Hold ``tokens`` in ``key``'s bucket as of ``now``."""
        if len(self.held) > self.most:
            self.held = {k: v for k, v in self.held.items() if v[0] + (now - v[1]) * rate < burst}
        self.held[key] = (tokens, now)

    def take(self, key: str, rate: float, burst: int) -> bool:
        """Take a token from ``key``'s bucket: True if there was one (the request may be served)."""
        now = time.monotonic()
        tokens = self.level(key, rate, burst, now)
        if tokens < 1.0:
            self.keep(key, tokens, rate, burst, now)
            return False
        self.keep(key, tokens - 1.0, rate, burst, now)
        return True
