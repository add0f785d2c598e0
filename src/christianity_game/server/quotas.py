"""The caps of :class:`~christianity_game.server.limits.Limits`, enforced (:class:`Quotas`):
connections per client address and in total (each seat's and a game's spectators' caps are met on
joining, server/handlers.py), HTTP requests per address, and new games per creator: a rate, live
games per creator and in total, bots-only games per creator and in total. A creator is known by a
keyed hash of its address, so quotas are kept without keeping addresses."""

from __future__ import annotations

import collections
import hashlib
import hmac
import time

from .conn import Conn
from .errors import LobbyError
from .limits import Buckets, Limits
from .room import Room
from .store import GameStore


class Quotas:
    """The counts behind the caps: connections open (``conns_total``, ``conns_by_addr``), and the
    HTTP and creation buckets; live games are counted by ``store``."""

    def __init__(self, limits: Limits, store: GameStore, digest_key: bytes) -> None:
        self.limits = limits
        self.store = store
        self.digest_key = digest_key
        self.conns_total = 0
        self.conns_by_addr: collections.Counter[str] = collections.Counter()
        self.http = Buckets()
        self.creates = Buckets()

    # ------------------------------------------------------------------ connections
    def admit(self, conn: Conn, room: Room) -> str | None:
        """Count a new connection on ``room``; the refusal's words if a cap is reached."""
        lim = self.limits
        if self.conns_total >= lim.conns_total:
            return f"the server holds its maximum of {lim.conns_total} connections; try again later"
        if self.conns_by_addr[conn.addr] >= lim.conns_per_address:
            return f"at most {lim.conns_per_address} connections from one address"
        self.conns_total += 1
        self.conns_by_addr[conn.addr] += 1
        room.attached += 1
        room.last_active = time.time()
        conn.admitted = room
        return None

    def release(self, conn: Conn) -> None:
        """Undo ``admit`` (once)."""
        room, conn.admitted = conn.admitted, None
        if room is None:
            return
        self.conns_total -= 1
        self.conns_by_addr[conn.addr] -= 1
        if self.conns_by_addr[conn.addr] <= 0:
            del self.conns_by_addr[conn.addr]
        room.attached -= 1
        room.last_active = time.time()

    # ------------------------------------------------------------------ HTTP requests
    def allow_http(self, addr: str) -> bool:
        """The per-address token bucket of HTTP requests: True if this request may be served."""
        lim = self.limits
        return self.http.take(addr, lim.http_rate, lim.http_burst)

    # ------------------------------------------------------------------ new games
    def owner_key(self, addr: str) -> str:
        """The creator's address as stored: a keyed hash (quotas without keeping addresses)."""
        return hmac.new(self.digest_key, b"owner:" + addr.encode("utf-8", "replace"), hashlib.sha256).hexdigest()[:20]

    def check_create(self, owner: str, bots_only: bool) -> None:
        """Refuse a new game over its creator's rate or quota, or the server's (a refused request
        takes no token of the creator's rate)."""
        lim = self.limits
        now = time.monotonic()
        tokens = self.creates.level(owner, lim.create_rate, lim.create_burst, now)
        if tokens < 1.0:
            self.creates.keep(owner, tokens, lim.create_rate, lim.create_burst, now)
            raise LobbyError(429, "create_rate_limited", f"at most {lim.create_rate:g} new games a second from one "
                                                         f"address (bursts of {lim.create_burst}); try again later")
        if self.store.count_live(owner) >= lim.games_per_address:
            raise LobbyError(429, "too_many_games", f"at most {lim.games_per_address} unfinished games created "
                                                    "from one address; finish or abandon some first")
        if self.store.count_live() >= lim.games_total:
            raise LobbyError(503, "server_full", f"the server holds its maximum of {lim.games_total} unfinished "
                                                 "games; try again later")
        if bots_only:
            self.check_bots_only(owner)
        self.creates.keep(owner, tokens - 1.0, lim.create_rate, lim.create_burst, now)

    def check_bots_only(self, owner: str) -> None:
        """Refuse a new bots-only game over its creator's cap or the server's."""
        lim = self.limits
        if self.store.count_live(owner, bots_only=True) >= lim.bot_games_per_address:
            raise LobbyError(429, "too_many_bot_games", f"at most {lim.bot_games_per_address} bots-only games "
                                                        "running from one address")
        if self.store.count_live(bots_only=True) >= lim.bot_games_total:
            raise LobbyError(503, "too_many_bot_games", f"the server runs at most {lim.bot_games_total} "
                                                        "bots-only games; try again later")
