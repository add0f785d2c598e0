"""The authoritative game server: rooms, seats and tokens, the WebSocket protocol, bots, storage.

Everything here runs on the event loop's thread, except the commits: an accepted action goes to a
writer thread (server/writer.py, group commit), and its updates and acknowledgement go out once it
is durable. Handling a client message is synchronous from validation to applying the action; while
an action of a game is being committed, whatever else comes for that game waits for it, in
arrival order (``Room.waiting``), so no two actions of a game can interleave, nobody sees a state
that is not stored yet, and no lock is needed on game state. Each connection has its own outgoing
queue and sender task: a slow reader never holds up the game or the other connections (it is
closed with 1013 when what is queued for it passes ``Limits.send_queue_bytes``, and resyncs on
reconnect).

Hostile traffic meets the caps of :class:`Limits`: games created and bots-only games per client
address and in total, connections per game, per address and in total, a rate limit per connection
where a resync costs by its size, and a bot scheduler that shares the bots' thinking time fairly
(games with people first; bots-only games round-robin by creator, within a share of the loop).
Idle games leave memory (kept in storage, loaded again on demand); abandoned ones are archived.
"""

from __future__ import annotations

import asyncio
import bisect
import collections
import gc
import hashlib
import hmac
import json
import logging
import os
import secrets
import sys
import threading
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import orjson
from pydantic import ValidationError
from pydantic_core import to_json

from ..bots import BOTS, LEVELS, is_bot_name, make_bot
from ..bots.base import Bot
from ..bots.match import bot_move, to_move
from ..engine.actions import TABLE_ACTIONS, AdjustBadge, AnswerEnd, IllegalAction, action_from_json
from ..engine.events import Event
from ..engine import versions
from ..engine.game import Game
from ..engine.record import RecordError, UnsupportedRules, check_record
from ..engine.settings import Settings
from . import protocol as P
from .logs import game_log
from .store import DATABASE_ERRORS, GameRow, GameStore, SeatRow, StoreError, open_store
from .writer import StoreWriter, locked, run_deferred

if TYPE_CHECKING:
    from .cluster import Cluster

log = logging.getLogger("christianity_game.server")


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


class LobbyError(Exception):
    """A lobby request that cannot be served: HTTP status, code and message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(18)


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


def _too_deep(obj: Any, limit: int) -> bool:
    """True if ``obj`` (parsed JSON) nests deeper than ``limit`` (checked without recursion)."""
    stack: list[tuple[Any, int]] = [(obj, 1)]
    while stack:
        cur, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(cur, dict):
            stack.extend((v, depth + 1) for v in cur.values() if isinstance(v, (dict, list)))
        elif isinstance(cur, list):
            stack.extend((v, depth + 1) for v in cur if isinstance(v, (dict, list)))
    return False


RAW_SEND = "christianity_game.raw_send"   # scope key: the ASGI server's own send (see app.SecurityHeaders)


def _abort_transport(ws: Any) -> bool:
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


# --------------------------------------------------------------------------- connections
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
        self.room: Room | None = None
        self.qbytes = 0           # characters queued and not yet written
        self.addr = addr
        self.admitted: Room | None = None   # counted against the connection caps (see GameServer.admit)

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
            await asyncio.wait_for(self.ws.close(code=1013, reason="stopped reading: reconnect to resync"), grace)
            await asyncio.sleep(grace)   # time for the peer to answer the close
        except (asyncio.TimeoutError, Exception):   # noqa: BLE001 - the peer is gone or stuck: cut it
            pass
        finally:   # also when cancelled: a stuck peer must never keep its buffers
            _abort_transport(self.ws)

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


# --------------------------------------------------------------------------- rooms
class Room:
    """One game in memory: the engine's Game, its seats, its connections and its bot driver."""

    def __init__(self, game_id: str, game: Game, row: GameRow) -> None:
        self.game_id = game_id
        self.game = game
        self.row = row
        self.seats: list[SeatRow] = row.seats
        self.conns: set[Conn] = set()
        self.bots: dict[int, Bot] = {}
        for s in self.seats:
            if s.kind == "bot":
                self.bots[s.seat] = make_bot(s.bot or "random", seed=game.seed * 31 + s.seat + len(game.actions))
        self.bot_task: asyncio.Task[None] | None = None   # unused: bots run on the server's BotScheduler
        self.bot_pending = False      # a bot move is scheduled
        self.attached = 0             # connections open on this game (admitted, joined or not)
        self.last_active = time.time()
        opts = row.options
        self.owner: str = str(opts.get("owner") or "")
        self.people = sum(1 for s in self.seats if s.kind == "human")
        self.open_seats: set[int] = {int(x) for x in opts.get("open") or ()}
        self.manual_adjust: str = str(opts.get("manualAdjust") or default_manual_adjust(self.seats, game.lineup))
        self.requests: dict[int, AdjustReq] = {}
        # (state id, seat, since, reason) -> a sync message without its ref: a resync storm of one
        # state costs one serialisation (cleared whenever the game changes)
        self.sync_cache: dict[tuple[int, int | None, int | None, str], str] = {}
        self.next_request = 1
        # The views of the current state, encoded once each (seat, or None: every spectator) and
        # put as they are into every update, welcome and sync of that state.
        self.views: dict[int | None, Encoded] = {}
        self.views_state = -1
        # An action of this game is being committed (server/writer.py): until it is durable and
        # its updates are out, nothing else of this game is handled; what comes meanwhile waits
        # in ``waiting``, in arrival order, so the game in memory is never read ahead of storage.
        self.writing = False
        self.waiting: collections.deque[Callable[[], None]] = collections.deque()

    def view(self, seat: int | None) -> Encoded:
        """``seat``'s view of the current state (None: a spectator's), built and encoded once per state."""
        g = self.game
        if self.views_state != g.state_id:
            self.views.clear()
            self.views_state = g.state_id
        enc = self.views.get(seat)
        if enc is None:
            enc = self.views[seat] = Encoded(dumps_bytes(g.view(seat)))
        return enc

    def forget_views(self) -> None:
        """The game object was replaced (reloaded): its state id alone no longer says which views hold."""
        self.views.clear()
        self.views_state = -1

    def busy(self) -> bool:
        """An action is being committed, or work waits for one: new work must queue behind it."""
        return self.writing or bool(self.waiting)

    def identify(self, token: str) -> tuple[str, int | None] | None:
        h = token_hash(token)
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return "player", s.seat
        if hmac.compare_digest(self.row.spectator_hash, h):
            return "spectator", None
        return None

    def bot_to_move(self) -> int | None:
        turn = to_move(self.game, self.bots)
        return None if turn is None else turn[0]

    def events_since(self, state_id: int | None) -> tuple[int | None, list[Event]]:
        """(since, events after ``state_id``); since None when the id is missing or unknown."""
        if state_id is None or state_id < 0 or state_id > self.game.state_id:
            return None, []
        log_ = self.game.log
        i = bisect.bisect_right(log_, state_id, key=lambda e: e.state_id)
        return state_id, log_[i:]

    def seat_info(self) -> list[dict[str, Any]]:
        counts: dict[int | None, int] = {}
        for c in self.conns:
            if c.role == "player":
                counts[c.seat] = counts.get(c.seat, 0) + 1
        sides = _sides(self.game.lineup)
        return [{"seat": s.seat, "side": sides[s.seat], "kind": s.kind, "bot": s.bot, "claimed": s.claimed,
                 "name": s.name, "connected": counts.get(s.seat, 0),
                 "access": _access(s, self.open_seats)} for s in self.seats]

    def answerers(self, seat: int) -> list[int]:
        """Who may answer ``seat``'s adjustment request: people on the other side, else other people."""
        sides = _sides(self.game.lineup)
        people = [s.seat for s in self.seats if s.kind == "human" and s.seat != seat]
        other = [s for s in people if sides[s] != sides[seat]]
        return other or people


@dataclass(slots=True)
class AdjustReq:
    """A manual adjustment waiting for the other side's answer (``manualAdjust: ask``)."""

    id: int
    seat: int
    action: AdjustBadge
    answerers: list[int] = field(default_factory=list)


def table_fields(game: Game, seat: int | None) -> dict[str, Any]:
    """What a seat's messages carry beside its view for the table actions: ``undo`` (may this seat
    undo now, else the engine's reason; null for a spectator), ``end_offer`` (the side whose
    offer to end a duel waits for an answer) and ``end_waiting`` (the seats it still waits for, G-8)."""
    undo: dict[str, Any] | None = None
    if seat is not None:
        why = game.undo_refusal(seat)
        undo = {"allowed": True, "reason": None, "message": None} if why is None else \
            {"allowed": False, "reason": why[0], "message": why[1]}
    return {"undo": undo, "end_offer": game.end_offer, "end_waiting": game.end_waiting()}


def _sides(lineup: str) -> list[str]:
    return ["evil" if ch == "E" else "righteous" for ch in lineup]


def _access(seat: SeatRow, open_seats: set[int]) -> str | None:
    if seat.kind != "human":
        return None
    return "open" if seat.seat in open_seats else "invited"


def people_on_both_sides(kinds: list[str], lineup: str) -> bool:
    """A human seat on each side (a duel between people)."""
    sides = _sides(lineup)
    return len({sides[i] for i, k in enumerate(kinds) if k == "human"}) > 1


def default_manual_adjust(seats: list[SeatRow], lineup: str) -> str:
    """``ask`` with people on both sides, else ``free``."""
    return "ask" if people_on_both_sides([s.kind for s in seats], lineup) else "free"


class BotScheduler:
    """Shares the bots' thinking time: one task makes every bot move of the server.

    Games with a person's seat are served first, in arrival order (a person waits on them).
    Bots-only games take turns by creator (round-robin over client addresses, then over each
    creator's games), and together use at most ``share`` of the event loop: after a move that took
    ``t`` seconds, the next bots-only move waits ``t * (1 - share) / share``. So one client's bot
    games cannot starve people's games, nor another client's bot games.
    """

    def __init__(self, server: GameServer, share: float) -> None:
        self.server = server
        self.share = min(1.0, max(0.01, share))
        self.people: collections.deque[Room] = collections.deque()
        self.bots_only: dict[str, collections.deque[Room]] = {}
        self.wake = asyncio.Event()
        self.not_before = 0.0
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    def ready(self, room: Room) -> None:
        """``room`` has a bot move to make now."""
        if room.people:
            self.people.append(room)
        else:
            self.bots_only.setdefault(room.owner, collections.deque()).append(room)
        self.wake.set()

    def _next_bots_only(self) -> Room | None:
        if not self.bots_only:
            return None
        owner = next(iter(self.bots_only))
        q = self.bots_only.pop(owner)
        room = q.popleft()
        if q:
            self.bots_only[owner] = q   # to the back of the round
        return room

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            room: Room | None
            if self.people:
                room = self.people.popleft()
            elif self.bots_only:
                wait = self.not_before - loop.time()
                if wait > 0:
                    self.wake.clear()
                    try:
                        await asyncio.wait_for(self.wake.wait(), wait)
                    except asyncio.TimeoutError:
                        pass
                    continue
                room = self._next_bots_only()
                if room is None:
                    continue
            else:
                self.wake.clear()
                await self.wake.wait()
                continue
            t = time.perf_counter()
            try:
                self.server._bot_move(room)
            except Exception:   # noqa: BLE001 - logged; the scheduler must keep serving
                game_log(room.game_id).exception("bot move in game %s failed", room.game_id)
                room.bot_pending = False
            spent = time.perf_counter() - t
            if not room.people:
                self.not_before = loop.time() + spent * (1.0 - self.share) / self.share
            await asyncio.sleep(0)


#: A serving process's garbage-collector threshold for its youngest generation
#: ($CHRISTIANITY_GAME_GC_GEN0; 0, the default, keeps Python's 700). Measured under 200 games
#: (docs/developers.md, Load): 20,000 cut the collections from about 270 to 5 in 50 s and their
#: total time by 60-75 %, but under the hostile mix (connections churning) its largest
#: pause grew from about 25 ms to 100-120 ms, so Python's threshold stays the default; the freezing
#: of ``_keep_gc`` is what keeps full collections short.
GC_GEN0 = int(os.environ.get("CHRISTIANITY_GAME_GC_GEN0", "0") or 0)

#: How long a serving process's thread may hold the interpreter lock while another waits for it
#: ($CHRISTIANITY_GAME_SWITCH_S; Python's default is 5 ms). Every accepted action crosses threads
#: twice (the loop hands it to the writer thread, which hands the commit back), and while the loop
#: is busy each crossing waited up to the whole interval: in one quiet round the normal games' p99
#: fell from 53 to 36 ms under the hostile mix with 0.5 ms, and from 16 to 10 ms without the mix
#: (docs/developers.md, "What the hostile mix costs").
SWITCH_INTERVAL_S = float(os.environ.get("CHRISTIANITY_GAME_SWITCH_S", "0.0005") or 0.0005)


# --------------------------------------------------------------------------- the server
class GameServer:
    """All games of one data folder, or of the database ``database`` names (server/store.py:
    a PostgreSQL URL, or a SQLite file; none: the SQLite file of ``data_dir``)."""

    def __init__(self, data_dir: str | Path, bot_delay: float = 0.3, limits: Limits | None = None,
                 synchronous: str = "NORMAL", freeze_gc: bool = False, allow_chosen_seeds: bool = False,
                 default_variants: str = "", database: str | None = None, cluster: bool = False) -> None:
        self.data_dir = Path(data_dir)
        self.default_variants = default_variants   # serve --variants: a new duel's variants unless it names its own
        self.bot_delay = float(bot_delay)
        self.freeze_gc = freeze_gc
        self.allow_chosen_seeds = allow_chosen_seeds
        self.limits = limits or Limits()
        # cluster: one of several servers on one PostgreSQL database (server/cluster.py, set by the app)
        self.store: GameStore = open_store(database, self.data_dir, synchronous, shared=cluster)
        self.cluster: Cluster | None = None
        self.rooms: dict[str, Room] = {}
        self.broken: dict[str, str] = {}
        if self.store.problems:   # a failed integrity check: find the games whose rows are damaged
            for gid, why in self.store.damaged_games().items():
                game_log(gid).error("STORAGE: %s; it is marked unavailable", why)
                self.broken[gid] = why
        for gid, why in self.store.check_manifest().items():   # the manifest beside the database
            self.broken[gid] = why
        self.store.write_manifest()
        self.storage_problems: list[str] = list(self.store.problems)
        # Actions are committed by a writer thread, in groups (server/writer.py); from here on the
        # loop's own store calls take the same lock, so the two never share the connection at once.
        store_lock = threading.RLock()
        self.writer = StoreWriter(self.store, store_lock)
        self.store = locked(self.store, store_lock)
        # game -> seat -> the latest state id sent to a connection of that seat by this process: a
        # client's claim to have seen a later state than the server holds is evidence of lost
        # actions only up to what its seat was sent (anyone can claim any number)
        self.sent_states: dict[str, dict[int, int]] = {}
        # alarms from clients' claims, one per game (kept apart: a claim never evicts a real alarm)
        self.lost_states: dict[str, str] = {}
        self.unverified_claims = 0                   # claims that were not evidence (counted, not listed)
        # (game, level) -> (last logged, claims not logged since): alarms and other claims apart, so
        # that a flood of worthless claims never silences an alarm
        self._claims_logged: dict[tuple[str, int], tuple[float, int]] = {}
        self.conns_total = 0
        self.conns_by_addr: collections.Counter[str] = collections.Counter()
        self._create_buckets: dict[str, tuple[float, float]] = {}
        self._http_buckets: dict[str, tuple[float, float]] = {}
        self._checkpointing = False
        self.bots = BotScheduler(self, self.limits.bot_share)
        self._sweeper: asyncio.Task[None] | None = None
        # games stored under rules this engine no longer (or not yet) plays: kept, listed as such,
        # their records still served; game id -> why, naming both rules versions
        self.not_resumable: dict[str, str] = {}
        self._digest_key = self.store.secret("digest_key")
        self._loader: asyncio.Task[None] | None = None
        self._lagger: asyncio.Task[None] | None = None
        self._gc_keeper: asyncio.Task[None] | None = None
        self.lags: collections.deque[float] = collections.deque(maxlen=1200)
        self.gc_stats: list[list[float]] = [[0, 0.0, 0.0] for _ in range(3)]
        #: objects frozen at the start or the last full collection (``gc.get_freeze_count()`` walks
        #: them all, 10 ms for a few hundred thousand: too dear for each ``/healthz``)
        self.frozen = 0
        self._gc_started = 0.0
        self.closing = False

    # ------------------------------------------------------------------ start and stop
    def start(self) -> None:
        """Start loading every unfinished game in the background (bots resume as each loads)."""
        loop = asyncio.get_running_loop()
        self._loader = loop.create_task(self._load_all())
        self._lagger = loop.create_task(self._measure_lag())
        self._gc_keeper = loop.create_task(self._keep_gc()) if self.freeze_gc else None
        if self.freeze_gc and GC_GEN0 > 0:
            gc.set_threshold(GC_GEN0, *gc.get_threshold()[1:])
        if self.freeze_gc:   # a process of its own (as with the garbage collector): see SWITCH_INTERVAL_S
            sys.setswitchinterval(SWITCH_INTERVAL_S)
        self._sweeper = loop.create_task(self._sweep_forever())
        self.writer.start(loop)
        self.bots.start()
        gc.callbacks.append(self._gc_callback)

    def _gc_callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
            return
        pause = time.perf_counter() - self._gc_started
        st = self.gc_stats[min(2, int(info.get("generation", 2)))]
        st[0] += 1
        st[1] = max(st[1], pause)
        st[2] += pause

    def gc_report(self) -> dict[str, Any]:
        """Garbage-collector pauses since the last reset, by generation: count, max and total."""
        return {f"gen{g}": {"count": int(c), "max_ms": round(m * 1e3, 2), "total_ms": round(t * 1e3, 1)}
                for g, (c, m, t) in enumerate(self.gc_stats)} | {"frozen": self.frozen}

    def reset_stats(self) -> None:
        self.lags.clear()
        self.gc_stats = [[0, 0.0, 0.0] for _ in range(3)]

    async def _measure_lag(self, every: float = 0.05) -> None:
        """How late the event loop wakes up (the last minute): the server's own latency floor."""
        loop = asyncio.get_running_loop()
        while True:
            t = loop.time()
            await asyncio.sleep(every)
            self.lags.append(max(0.0, loop.time() - t - every))

    def loop_lag_ms(self) -> dict[str, float]:
        xs = sorted(self.lags)
        if not xs:
            return {"p50": 0.0, "p99": 0.0, "max": 0.0}
        return {"p50": round(xs[len(xs) // 2] * 1e3, 2), "p99": round(xs[int(0.99 * (len(xs) - 1))] * 1e3, 2),
                "max": round(xs[-1] * 1e3, 2)}

    async def _load_all(self) -> None:
        """Load every unfinished game, sorting them into those resumed and those that cannot be
        (stored under rules this engine does not play, or damaged); the log says which."""
        self._freeze()
        if self.cluster is not None:   # cluster hook: games are taken by lease (server/cluster.py)
            return
        ids = [row.id for row in self.store.games(finished=False, resident=True)]   # not parked/archived
        for gid in ids:
            if self.closing:
                return
            try:
                room = self.room(gid)
            except LobbyError as exc:   # already logged with its reason
                if exc.code not in ("game_not_resumable", "game_unavailable"):
                    game_log(gid).error("could not load game %s: %s", gid, exc.message)
                continue
            except Exception:   # noqa: BLE001 - logged; one bad game must not stop the others
                game_log(gid).exception("could not load game %s", gid)
                continue
            if room is not None:
                self.kick_bots(room)
            await asyncio.sleep(0)
        if ids:
            log.info("unfinished games: %d resumed, %d not resumable after the upgrade to rules %d, %d unavailable",
                     len(ids) - len(self.not_resumable) - len(self.broken), len(self.not_resumable), versions.RULES_VERSION,
                     len(self.broken))
        self._freeze()

    def _freeze(self) -> None:
        """Move what is alive now (imported modules, loaded games) out of the garbage collector's
        reach: full collections then scan only what came later, which keeps their pauses short.
        Games hold no reference cycles, so a frozen game is still freed when it is dropped."""
        if self.freeze_gc:
            gc.collect()
            gc.freeze()
            self.frozen = gc.get_freeze_count()

    async def _keep_gc(self, every: float = 5.0, thaw_every: float = 3600.0) -> None:
        """Garbage-collector policy of a serving process (``freeze_gc``).

        A full collection scans every tracked object, and a few hundred games hold a few hundred
        thousand (their events and actions): on a small machine such a pause runs to 100-300 ms
        and is the slowest thing a player ever waits for. So every ``every`` seconds the young
        generations are collected and whatever survived is frozen; full collections then only
        see the last few seconds' objects. Game state holds no reference cycles, so it is still
        freed (by reference counting) when a game is dropped. What a frozen object that later
        dies in a cycle (a few objects per closed connection) would leak is reclaimed by one
        full collection every ``thaw_every`` seconds.
        """
        loop = asyncio.get_running_loop()
        last_thaw = loop.time()
        while True:
            await asyncio.sleep(every)
            if loop.time() - last_thaw >= thaw_every:
                t = time.perf_counter()
                gc.unfreeze()
                gc.collect()
                gc.freeze()
                self.frozen = gc.get_freeze_count()
                last_thaw = loop.time()
                log.info("full garbage collection: %.0f ms", (time.perf_counter() - t) * 1e3)
            else:
                gc.collect(1)
                gc.freeze()

    async def stop(self) -> None:
        self.closing = True
        if self._gc_callback in gc.callbacks:
            gc.callbacks.remove(self._gc_callback)
        tasks = [t for t in [self._loader, self._lagger, self._gc_keeper, self._sweeper, self.bots.task]
                 if t is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            try:
                await t
            except (asyncio.CancelledError, Exception):
                pass
        # what is being committed is committed, and its players hear so, before the connections close
        await self.writer.drain()
        for room in self.rooms.values():
            for c in list(room.conns):
                c.close(1000, "server shutting down")
        self.writer.stop()
        self.store.close()

    # ------------------------------------------------------------------ rooms
    def room(self, game_id: str) -> Room | None:
        """The game in memory, loading (replaying) it from the store on first use."""
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        if game_id in self.broken:
            raise LobbyError(503, "game_unavailable", self.broken[game_id])
        if game_id in self.not_resumable:
            raise LobbyError(410, "game_not_resumable", self.not_resumable[game_id])
        try:
            row = self.store.game(game_id)
            if row is None:
                return None
            record = dict(row.head)
            record["actions"] = self.store.actions(game_id)
            self.store.set_flags(game_id, parked=False, archived=False)   # resident again
        except DATABASE_ERRORS + (StoreError, ValueError) as exc:
            msg = f"game {game_id}: its stored rows are damaged ({exc})"
            game_log(game_id).error("STORAGE: %s; it is marked unavailable", msg)
            self.broken[game_id] = msg
            raise LobbyError(503, "game_unavailable", msg) from None
        try:
            check_record(record)
        except UnsupportedRules as exc:
            msg = (f"game {game_id} cannot be resumed after the upgrade to rules version {versions.RULES_VERSION}: {exc}; "
                   "its record can still be downloaded")
            game_log(game_id).warning(msg)
            self.not_resumable[game_id] = msg
            raise LobbyError(410, "game_not_resumable", msg) from None
        except RecordError:
            pass   # reported below, with everything else that does not replay
        try:
            game = Game.from_record(record)
        except Exception as exc:   # noqa: BLE001 - a record that no longer replays
            msg = f"game {game_id} could not be replayed: {exc}"
            game_log(game_id).error(msg)
            self.broken[game_id] = msg
            raise LobbyError(503, "game_unavailable", msg) from None
        room = Room(game_id, game, row)
        self.rooms[game_id] = room
        return room

    def _sort_resumable(self, row: GameRow) -> None:
        """Note a stored game played under rules this engine does not play (from its record's head,
        without replaying it), so that it is listed as such even before anyone opens it."""
        if row.id in self.not_resumable or row.id in self.rooms:
            return
        try:
            check_record({**row.head, "actions": []})
        except UnsupportedRules as exc:
            self.not_resumable[row.id] = (f"game {row.id} cannot be resumed after the upgrade to rules version "
                                          f"{versions.RULES_VERSION}: {exc}; its record can still be downloaded")
        except RecordError:
            pass   # reported when the game is opened

    def _maybe_evict(self, room: Room) -> None:
        if not room.conns and not room.attached and room.game.result is not None and not room.bot_pending \
                and not room.busy():
            self.rooms.pop(room.game_id, None)

    # ------------------------------------------------------------------ memory: idle and abandoned games
    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_s)
            try:
                self.sweep()
            except Exception:   # noqa: BLE001 - logged; the sweeper must keep running
                log.exception("sweeping idle games failed")

    def check_storage(self) -> None:
        """At each sweep: a write-ahead log deleted while the server runs is noticed (and
        what it held saved), and the database is checked against its manifest, the games in memory
        with the actions they hold: a game that lost acknowledged rows is made unavailable. Then the
        manifest is written. Whatever is found is logged at ERROR and listed in ``/healthz``."""
        seen = len(self.store.problems)
        try:
            self.store.check_wal()
            # an action being committed is not acknowledged yet: the store may not hold it
            live = {gid: room.game.action_count - int(room.writing) for gid, room in self.rooms.items()}
            for gid, why in self.store.check_manifest(live).items():
                self.broken[gid] = why
                room = self.rooms.pop(gid, None)
                for conn in list(room.conns) if room is not None else []:
                    conn.error("game_unavailable", why)
                    conn.close(1011, "game_unavailable")
            self.store.write_manifest()
        except DATABASE_ERRORS + (OSError,) as exc:
            log.error("STORAGE: the store could not be checked against its manifest: %s", exc)
        self.storage_problems.extend(self.store.problems[seen:])

    def sweep(self, now: float | None = None) -> tuple[int, int]:
        """Evict idle games from memory and archive abandoned ones; (evicted, archived).

        A game leaves memory when nobody is connected, no bot move is due and nothing happened for
        ``idle_evict_s``; an unfinished one is marked parked (not loaded at start; loaded again on
        demand). A game with a person's seat untouched for ``abandon_s`` is archived: not listed, not
        loaded at start, not counted against its creator's quota; its links still load it."""
        lim = self.limits
        now = time.time() if now is None else now
        evicted = archived = 0
        for room in list(self.rooms.values()):
            if room.attached or room.conns or room.bot_pending or room.busy() or \
                    now - room.last_active < lim.idle_evict_s:
                continue
            if room.game.result is None and room.bot_to_move() is not None:
                continue   # a bot is to move (the scheduler will get to it)
            self.rooms.pop(room.game_id, None)
            evicted += 1
            if room.game.result is None:
                self.store.set_flags(room.game_id, parked=True, touched=room.last_active)
        self.check_storage()
        self.checkpoint_soon()   # what a lost WAL could take is at most one sweep's actions
        loaded = set(self.rooms)
        for gid in self.store.abandoned(now - lim.abandon_s):
            if gid in loaded:
                continue
            self.store.set_flags(gid, archived=True)
            archived += 1
        if evicted or archived:
            log.info("sweep: %d idle games left memory, %d abandoned games archived", evicted, archived)
        return evicted, archived

    # ------------------------------------------------------------------ connection caps
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

    # ------------------------------------------------------------------ lobby
    def allow_http(self, addr: str) -> bool:
        """The per-address token bucket of HTTP requests: True if this request may be served."""
        lim = self.limits
        now = time.monotonic()
        tokens, stamp = self._http_buckets.get(addr, (float(lim.http_burst), now))
        tokens = min(float(lim.http_burst), tokens + (now - stamp) * lim.http_rate)
        if len(self._http_buckets) > 10_000:   # forget addresses whose bucket is full again
            self._http_buckets = {k: v for k, v in self._http_buckets.items()
                                  if v[0] + (now - v[1]) * lim.http_rate < lim.http_burst}
        if tokens < 1.0:
            self._http_buckets[addr] = (tokens, now)
            return False
        self._http_buckets[addr] = (tokens - 1.0, now)
        return True

    def owner_key(self, addr: str) -> str:
        """The creator's address as stored: a keyed hash (quotas without keeping addresses)."""
        return hmac.new(self._digest_key, b"owner:" + addr.encode("utf-8", "replace"), hashlib.sha256).hexdigest()[:20]

    def _check_quota(self, owner: str, bots_only: bool) -> None:
        """Refuse a new game over its creator's rate or quota, or the server's."""
        lim = self.limits
        now = time.monotonic()
        tokens, stamp = self._create_buckets.get(owner, (float(lim.create_burst), now))
        tokens = min(float(lim.create_burst), tokens + (now - stamp) * lim.create_rate)
        if tokens < 1.0:
            self._create_buckets[owner] = (tokens, now)
            raise LobbyError(429, "create_rate_limited", f"at most {lim.create_rate:g} new games a second from one "
                                                         f"address (bursts of {lim.create_burst}); try again later")
        if self.store.count_live(owner) >= lim.games_per_address:
            raise LobbyError(429, "too_many_games", f"at most {lim.games_per_address} unfinished games created "
                                                    "from one address; finish or abandon some first")
        if self.store.count_live() >= lim.games_total:
            raise LobbyError(503, "server_full", f"the server holds its maximum of {lim.games_total} unfinished "
                                                 "games; try again later")
        if bots_only:
            self._check_bot_quota(owner)
        if len(self._create_buckets) > 10_000:   # forget addresses whose bucket is full again
            full = [k for k, (t, s) in self._create_buckets.items()
                    if t + (now - s) * lim.create_rate >= lim.create_burst]
            for k in full:
                del self._create_buckets[k]
        self._create_buckets[owner] = (tokens - 1.0, now)

    def _check_bot_quota(self, owner: str) -> None:
        """Refuse a new bots-only game over its creator's cap or the server's."""
        lim = self.limits
        if self.store.count_live(owner, bots_only=True) >= lim.bot_games_per_address:
            raise LobbyError(429, "too_many_bot_games", f"at most {lim.bot_games_per_address} bots-only games "
                                                        "running from one address")
        if self.store.count_live(bots_only=True) >= lim.bot_games_total:
            raise LobbyError(503, "too_many_bot_games", f"the server runs at most {lim.bot_games_total} "
                                                        "bots-only games; try again later")

    def checkpoint_soon(self) -> None:
        """Copy the WAL into the database file on a worker thread (the loop never waits on its
        fsync); at most one at a time."""
        if self._checkpointing or self.closing:
            return
        self._checkpointing = True

        def done(_: Any) -> None:
            self._checkpointing = False
        asyncio.get_running_loop().run_in_executor(None, self.store.checkpoint_elsewhere).add_done_callback(done)

    def create_game(self, req: P.CreateGame, extra_settings: dict[str, str], base_url: str,
                    addr: str = "") -> dict[str, Any]:
        """Create a game for the client at ``addr`` (its quotas apply: checked first, so a refused
        request costs no game)."""
        owner = self.owner_key(addr)
        guess = req.scenario is None and bool(req.lineup) and all(s in req.bots for s in range(len(req.lineup)))
        self._check_quota(owner, bots_only=guess)
        extra_settings = dict(extra_settings)
        adjust = req.manualAdjust or extra_settings.pop("manualAdjust", None)
        if adjust is not None and adjust not in ("ask", "free", "off"):
            raise LobbyError(400, "bad_settings", f"manualAdjust must be ask, free or off, not {adjust!r}")
        try:
            settings = table_settings({**req.settings, **extra_settings}, self.default_variants
                                      if req.mode == "duel" or req.scenario is not None else "")
        except ValueError as exc:
            raise LobbyError(400, "bad_settings", str(exc)) from None
        for seat, level in req.bots.items():
            if not is_bot_name(level):
                raise LobbyError(400, "unknown_bot", f"unknown bot {level!r} for seat {seat}; known: "
                                                     f"{', '.join([*LEVELS, *sorted(BOTS)])}, search:50ms, "
                                                     f"search:2000it, mcts:200ms, mcts:500it")
        # 128 secret bits: a seat's opening view must not give the seed away (it stays secret until
        # the game is over; the record, served then, replays exactly)
        seed = req.seed if req.seed is not None else secrets.randbits(128)
        try:
            if req.scenario is not None:
                game = self._scenario_game(req, seed, settings)
            else:
                game = Game.new(mode=req.mode, lineup=req.lineup, seed=seed, settings=settings, decks=req.decks)
        except LobbyError:
            raise
        except ValueError as exc:
            raise LobbyError(400, "bad_game", str(exc)) from None
        n = len(game.lineup)
        for seat in req.bots:
            if not 0 <= seat < n:
                raise LobbyError(400, "no_such_seat", f"bots: there is no seat {seat} in line-up {game.lineup}")
        for seat, acc in req.access.items():
            if not 0 <= seat < n or seat in req.bots:
                raise LobbyError(400, "no_such_seat", f"access: seat {seat} is not a person's seat of {game.lineup}")
        kinds = ["bot" if s in req.bots else "human" for s in range(n)]
        both = people_on_both_sides(kinds, game.lineup)
        if req.seed is not None and req.scenario is None and both and not self.allow_chosen_seeds:
            raise LobbyError(400, "seed_not_allowed", "a chosen seed is for tests, bots-only games and scenarios: "
                                                      "whoever picks it knows every hidden card, so a duel between "
                                                      "people always gets a secret random seed")
        if "human" not in kinds and not guess:   # a scenario played by bots only
            self._check_bot_quota(owner)
        head = game.to_record()
        head.pop("actions", None)
        game_id = secrets.token_urlsafe(6)
        while self.store.game(game_id) is not None:
            game_id = secrets.token_urlsafe(6)
        spectator = new_token()
        sides = _sides(game.lineup)
        rows: list[SeatRow] = []
        links: list[dict[str, Any]] = []
        for seat in range(n):
            if seat in req.bots:
                rows.append(SeatRow(seat, "bot", req.bots[seat], None, True, None))
                links.append({"seat": seat, "side": sides[seat], "kind": "bot", "bot": req.bots[seat]})
            else:
                tok = new_token()
                rows.append(SeatRow(seat, "human", None, token_hash(tok), False, None))
                links.append({"seat": seat, "side": sides[seat], "kind": "human", "token": tok,
                              "url": f"{base_url}play/{game_id}#token={tok}"})
        owner = self.owner_key(addr)
        options = {"name": req.name, "listed": req.listed, "scenario": req.scenario, "owner": owner,
                   "open": sorted(s for s, a in req.access.items() if a == "open"),
                   "manualAdjust": adjust or ("ask" if both else "free")}
        self.store.create_game(game_id, head, options, token_hash(spectator), rows, owner=owner)
        row = self.store.game(game_id)
        assert row is not None
        room = Room(game_id, game, row)
        self.rooms[game_id] = room
        self.checkpoint_soon()   # a lost WAL then never takes a whole game, only its latest actions
        self.kick_bots(room)
        for link in links:
            if link["kind"] == "human":
                link["access"] = _access(rows[link["seat"]], room.open_seats)
        return {"game_id": game_id, "mode": game.mode.name, "lineup": game.lineup, "state_id": game.state_id,
                "ws": ws_url(base_url, game_id), "seats": links, "manualAdjust": room.manual_adjust,
                "spectator": {"token": spectator, "url": f"{base_url}play/{game_id}#token={spectator}"}}

    def _scenario_game(self, req: P.CreateGame, seed: int, settings: Settings) -> Game:
        """A game of a named duel scenario: its mode, line-up and settings (over the request's),
        fresh or from its prepared position."""
        sc = load_scenario(req.scenario or "")
        for name in ("mode", "lineup"):
            wanted = getattr(req, name)
            if name in req.model_fields_set and str(wanted).upper() != str(getattr(sc, name)).upper():
                raise LobbyError(400, "bad_game", f"scenario {sc.name!r} is {name} {getattr(sc, name)!r}, "
                                                  f"not {wanted!r}; leave {name} out")
        return sc.new_game(seed=seed, settings=settings)  # type: ignore[no-any-return]

    def summary(self, row: GameRow) -> dict[str, Any]:
        room = self.rooms.get(row.id)
        seats = room.seat_info() if room is not None else [
            {"seat": s.seat, "side": _sides(row.head["lineup"])[s.seat], "kind": s.kind, "bot": s.bot,
             "claimed": s.claimed, "name": s.name, "connected": 0,
             "access": _access(s, {int(x) for x in row.options.get("open") or ()})} for s in row.seats]
        open_ = {int(x) for x in row.options.get("open") or ()}
        out = {"game_id": row.id, "name": row.options.get("name"), "mode": row.head["mode"],
               "lineup": row.head["lineup"], "created": row.created, "settings": row.head["settings"],
               "seats": seats,
               "open_seats": [s.seat for s in row.seats if s.kind == "human" and not s.claimed and s.seat in open_],
               "manualAdjust": row.options.get("manualAdjust") or default_manual_adjust(row.seats, row.head["lineup"]),
               "state_id": None, "round": None, "result": row.result,
               "resumable": True, "status_note": None, "scenario": scenario_info(row.options.get("scenario"), row.head["settings"]),
               "variants": summary_variants(row.head["settings"])}
        if not row.finished:
            self._sort_resumable(row)
            out["resumable"] = row.id not in self.not_resumable
            out["status_note"] = self.not_resumable.get(row.id)
        if room is not None:
            g = room.game
            out["state_id"] = g.state_id
            out["round"] = g.round
            res = g.result
            out["result"] = None if res is None else {"winner": res.winner, "reason": res.reason, "round": res.round}
        return out

    def game_summary(self, game_id: str) -> dict[str, Any]:
        row = self._row(game_id)
        if game_id in self.rooms:
            row.seats = self.rooms[game_id].seats
        return self.summary(row)

    def _row(self, game_id: str) -> GameRow:
        if game_id in self.broken:   # damaged, or lost from the store while the manifest knows it: not unknown
            raise LobbyError(503, "game_unavailable", self.broken[game_id])
        row = self.store.game(game_id)
        if row is None:
            raise LobbyError(404, "no_such_game", f"there is no game {game_id!r}")
        return row

    def open_games(self, limit: int = 100) -> list[dict[str, Any]]:
        return [self.summary(r) for r in self.store.open_games(limit)]

    def join(self, game_id: str, seat: int | None, name: str | None, base_url: str) -> dict[str, Any]:
        room = self.room(game_id)
        if room is None:
            raise LobbyError(404, "no_such_game", f"there is no game {game_id!r}")
        if room.game.result is not None:
            raise LobbyError(409, "game_over", "the game is over")
        free = [s for s in room.seats if s.kind == "human" and not s.claimed and s.seat in room.open_seats]
        if seat is None:
            if not free:
                raise LobbyError(409, "no_free_seat", "no open seat of this game is free (invited seats are "
                                                      "played only through their links)")
            target = free[0]
        else:
            match = [s for s in room.seats if s.seat == seat]
            if not match:
                raise LobbyError(404, "no_such_seat", f"there is no seat {seat}")
            target = match[0]
            if target.kind != "human":
                raise LobbyError(409, "bot_seat", f"seat {seat} is played by a bot")
            if target.seat not in room.open_seats:
                raise LobbyError(409, "seat_invited", f"seat {seat} is invited: only its link plays it")
            if target.claimed:
                raise LobbyError(409, "seat_taken", f"seat {seat} is taken")
        tok = new_token()   # joining through the lobby issues a fresh token: an old unused link stops working
        th = token_hash(tok)
        self.store.claim(game_id, target.seat, th, name)
        target.token_hash = th
        target.claimed = True
        if name is not None:
            target.name = name
        return {"game_id": game_id, "seat": target.seat, "token": tok,
                "url": f"{base_url}play/{game_id}#token={tok}", "ws": ws_url(base_url, game_id)}

    def view_for_token(self, game_id: str, token: str | None) -> dict[str, Any]:
        room = self.room(game_id)
        if room is None:
            raise LobbyError(404, "no_such_game", f"there is no game {game_id!r}")
        if not token:
            raise LobbyError(401, "missing_token", "give the seat's or spectator's token")
        ident = room.identify(token)
        if ident is None:
            raise LobbyError(403, "wrong_token", "that token is not one of this game's")
        return room.game.view(ident[1])

    def digest(self, game_id: str) -> dict[str, Any]:
        room = self.room(game_id)
        if room is None:
            raise LobbyError(404, "no_such_game", f"there is no game {game_id!r}")
        g = room.game
        h = hmac.new(self._digest_key, digestmod=hashlib.sha256)
        for seat in [None, *range(len(g.lineup))]:
            h.update(_canonical(g.view(seat)))
        h.update(_canonical(g.to_record()))
        return {"game_id": game_id, "state_id": g.state_id, "digest": h.hexdigest()}

    def record(self, game_id: str) -> dict[str, Any]:
        """The game's record as served (``GET /api/games/{id}/record``): its seed as a decimal string."""
        if game_id in self.not_resumable:
            # the game can never go on: its record (hidden cards included) is served as for a game over
            row = self._row(game_id)
            return served_record({**row.head, "actions": self.store.actions(game_id)})
        room = self.room(game_id)
        if room is None:
            raise LobbyError(404, "no_such_game", f"there is no game {game_id!r}")
        if room.game.result is None:
            raise LobbyError(403, "game_not_over", "the record (seed and actions) reveals every hidden card; "
                                                   "it is served once the game is over")
        return served_record(room.game.to_record())

    # ------------------------------------------------------------------ the WebSocket protocol
    #: messages of one game that may wait for a commit at once (the rate limits keep them far fewer)
    MAX_WAITING = 4096

    def on_message(self, conn: Conn, room: Room, text: str | bytes | None) -> None:
        """Take one client message: its size and the connection's rate are checked at once; the
        rest is handled now, or after the action of this game being committed (in arrival order;
        see ``Room.waiting``). Handling is synchronous: nothing else of the game runs in between."""
        lim = self.limits
        if text is None:
            return
        if len(text) > lim.max_message_bytes:   # a str's length in chars <= its UTF-8 length
            if conn.allow():
                conn.error("too_large", f"messages are capped at {lim.max_message_bytes} bytes")
            return
        if isinstance(text, str) and len(text) * 4 > lim.max_message_bytes and \
                len(text.encode("utf-8", "surrogatepass")) > lim.max_message_bytes:
            if conn.allow():
                conn.error("too_large", f"messages are capped at {lim.max_message_bytes} bytes")
            return
        if not conn.allow():
            # (No closing of flooders: a WebSocket close makes the server read and discard until
            # the peer answers it, which a flooder never does; held unread, a flood costs nothing.)
            if conn.refused == 1 or conn.refused % 10 == 0:
                conn.error("rate_limited", f"at most {lim.rate:g} messages a second (bursts of {lim.burst}); "
                                           "this message was dropped and the connection is slowed down")
            return
        if room.busy():
            if len(room.waiting) >= self.MAX_WAITING:
                conn.error("rate_limited", "this game has too many messages waiting; this one was dropped")
                return
            room.waiting.append(partial(self._handle, conn, room, text))
            return
        self._handle(conn, room, text)

    def _handle(self, conn: Conn, room: Room, text: str | bytes) -> None:
        """Handle one client message that passed the size and rate checks."""
        lim = self.limits
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError):
            conn.error("malformed_json", "the message is not valid JSON")
            return
        except RecursionError:
            conn.error("malformed_json", f"the message nests deeper than {lim.max_depth} levels")
            return
        if not isinstance(data, dict):
            conn.error("malformed_json", "a message must be a JSON object")
            return
        if _too_deep(data, lim.max_depth):
            conn.error("malformed_json", f"the message nests deeper than {lim.max_depth} levels")
            return
        try:   # what cannot be echoed (a lone surrogate such as "\ud800") is refused before anything else
            to_json(data)
        except Exception:   # noqa: BLE001 - pydantic's serialisation error
            conn.error("bad_message", "strings must be valid Unicode: a lone surrogate (such as \\ud800) cannot "
                                      "be stored or echoed")
            return
        ref = data.get("ref")
        if not isinstance(ref, (str, int)) or isinstance(ref, bool) or (isinstance(ref, str) and len(ref) > 64):
            ref = None
        kind = data.get("type")
        model = P.CLIENT_MESSAGES.get(kind) if isinstance(kind, str) else None
        if model is None:
            conn.error("unknown_type", f"unknown message type {kind!r}; known: {', '.join(P.CLIENT_MESSAGES)}",
                       ref)
            return
        try:
            msg = model.model_validate(data)
        except ValidationError as exc:
            conn.error("bad_message", _validation_text(str(kind), exc), ref)
            return
        # cluster hook (server/cluster.py): for a game another process owns, actions go to it
        if self.cluster is not None and not self.cluster.owns(room.game_id) and \
                self.cluster.intercept(conn, room, text, msg):
            return
        try:
            if isinstance(msg, P.Hello):
                self._hello(conn, room, msg)
            elif isinstance(msg, P.ActionMessage):
                self._action(conn, room, msg)
            elif isinstance(msg, P.SyncRequest):
                if conn.role is None:
                    conn.error("not_joined", "send hello with a token first", msg.ref)
                elif not self._state_lost(conn, room, msg.state_id, msg.ref):
                    self._send_sync(conn, room, msg.state_id, "requested", msg.ref)
            elif isinstance(msg, P.AdjustAnswer):
                self._adjust_answer(conn, room, msg)
            elif isinstance(msg, P.Ping):
                conn.send(dumps({"type": "pong", "ref": msg.ref}))
        except Exception:   # noqa: BLE001 - a bug must not take the game down
            game_log(room.game_id).exception("error handling %s in game %s", kind, room.game_id)
            conn.error("internal_error", "the server failed on this message; nothing changed", ref)

    def _hello(self, conn: Conn, room: Room, msg: P.Hello) -> None:
        if not msg.token:
            conn.error("missing_token", "hello needs the seat's or spectator's token", msg.ref)
            return
        ident = room.identify(msg.token)
        if ident is None:
            conn.error("wrong_token", "that token is not one of this game's", msg.ref)
            return
        self._join_conn(conn, room, msg.token, ident, msg.state_id, msg.ref)

    def _state_lost(self, conn: Conn, room: Room, state_id: int | None, ref: Any,
                    ident: tuple[str | None, int | None] | None = None) -> bool:
        """A client that claims a state this server does not hold: refused with ``state_lost``;
        True if so. ``ident``: who the connection is joining as (its role and seat so far).

        The claim is an alarm (logged at ERROR, listed in ``/healthz``) only on evidence: it comes
        from a seat's connection and either that seat was sent the state by this process (which
        then lost it: a reload from damaged storage; a storage problem of its own, so ``/healthz``
        turns unhealthy), or the store itself reported a loss (a vanished write-ahead log; after a
        restart nothing sent before is remembered, and the claim names a game that lost). Any other
        claim (a spectator's, or a seat's with no loss known) is logged at WARNING and counted.
        Both are logged at most once a minute per game, with the number of claims in between."""
        g = room.game
        if state_id is None or state_id <= g.state_id:
            return False
        role, seat = ident if ident is not None else (conn.role, conn.seat)
        sent = self.sent_states.get(room.game_id, {}).get(seat, -1) if seat is not None else -1
        verified = role == "player" and state_id <= sent   # this process sent it, and no longer holds it
        evidence = verified or (role == "player" and bool(self.storage_problems))
        msg = (f"game {room.game_id}: a client has seen state {state_id} but the server holds only state "
               f"{g.state_id}: acknowledged actions were lost from storage (a deleted or damaged "
               "write-ahead log, or a restored backup)")
        if verified:   # a loss this process saw happen: a real alarm (/healthz unhealthy), once per game
            if room.game_id not in self.lost_states and len(self.storage_problems) < 100:
                self.storage_problems.append(msg)
            self.lost_states.setdefault(room.game_id, msg)
            self._log_claim(room.game_id, logging.ERROR, "STORAGE: %s", msg)
        elif evidence:
            if room.game_id not in self.lost_states and len(self.lost_states) < 100:
                self.lost_states[room.game_id] = msg
            self._log_claim(room.game_id, logging.ERROR, "STORAGE: %s", msg)
        else:
            self.unverified_claims += 1
            self._log_claim(room.game_id, logging.WARNING, "a %s connection claims state %d of game %s, which "
                            "holds state %d; not taken as evidence of lost actions (%s)", role or "not joined",
                            state_id, room.game_id, g.state_id, "a spectator's claim" if role != "player" else
                            "no loss is known and this seat was not sent that state")
        conn.error("state_lost", f"game {room.game_id}: this client says it has seen state {state_id} but the "
                                 f"server holds only state {g.state_id} (acknowledged actions lost from storage, "
                                 "or a wrong state id); send hello without state_id to go on from the server's "
                                 "state", ref, g.state_id)
        return True

    def _log_claim(self, game_id: str, level: int, fmt: str, *args: Any, every: float = 60.0) -> None:
        """Log a claim about ``game_id`` at most once per ``every`` seconds per game (a flood of
        claims writes one line a minute, with the number it stands for)."""
        now = time.monotonic()
        key = (game_id, level)
        last, quiet = self._claims_logged.get(key, (-every, 0))
        if now - last < every:
            self._claims_logged[key] = (last, quiet + 1)
            return
        if len(self._claims_logged) > 10_000:   # forget games not claimed about for a while
            self._claims_logged = {k: v for k, v in self._claims_logged.items() if now - v[0] < every}
        self._claims_logged[key] = (now, 0)
        if quiet:
            fmt += " (and %d more such claims in the last minute, not logged)"
            args = (*args, quiet)
        game_log(game_id).log(level, fmt, *args)

    def _sent(self, room: Room, seat: int | None, state_id: int) -> None:
        """Remember that a connection of ``seat`` was sent ``state_id`` (see ``_state_lost``)."""
        if seat is None:
            return
        sent = self.sent_states.get(room.game_id)
        if sent is None:
            if len(self.sent_states) >= 20_000:   # the oldest game first (it is added again when it plays)
                del self.sent_states[next(iter(self.sent_states))]
            sent = self.sent_states[room.game_id] = {}
        if sent.get(seat, -1) < state_id:
            sent[seat] = state_id

    def storage_report(self, most: int = 20) -> list[str]:
        """What ``/healthz`` lists: the real storage problems first (never pushed out by claims),
        then the alarms raised by clients' claims, ``most`` in all."""
        real = self.storage_problems[-most:]
        claims = [m for m in self.lost_states.values() if m not in real]
        return real + claims[:max(0, most - len(real))]

    def join_conn(self, conn: Conn, room: Room, token: str, ident: tuple[str, int | None], state_id: int | None,
                  ref: Any) -> None:
        """Join ``conn`` to ``room`` as ``ident`` (a token in the connection's URL): now, or after the
        action being committed. Meanwhile the connection counts as joined (the app's join deadline
        must not close it); its messages queue behind the join."""
        if room.busy():
            prior = (conn.role, conn.seat)
            conn.role, conn.seat = ident

            def later() -> None:
                conn.role, conn.seat = prior
                self._join_conn(conn, room, token, ident, state_id, ref)
            room.waiting.append(later)
            return
        self._join_conn(conn, room, token, ident, state_id, ref)

    def _join_conn(self, conn: Conn, room: Room, token: str, ident: tuple[str, int | None], state_id: int | None,
                   ref: Any) -> None:
        if self._state_lost(conn, room, state_id, ref, ident):
            return
        if (conn.role, conn.seat) != ident or conn.room is not room or conn not in room.conns:
            want_role, want_seat = ident
            here = sum(1 for c in room.conns if c is not conn and c.role == want_role and c.seat == want_seat)
            lim = self.limits
            cap = lim.conns_per_seat if want_role == "player" else lim.conns_per_game
            if here >= cap:
                player = want_role == "player"
                who = f"seat {want_seat}" if player else "this game's spectators"
                conn.error("too_many_connections", f"{who} already {'has' if player else 'have'} "
                                                   f"{here} connections (at most {cap})", ref)
                conn.close(4429, "too many connections")
                return
        conn.role, conn.seat = ident
        conn.thash = token_hash(token)
        conn.room = room
        room.conns.add(conn)
        if conn.role == "player" and conn.seat is not None:
            seat = room.seats[conn.seat]
            if not seat.claimed:
                seat.claimed = True
                self.store.claim(room.game_id, conn.seat)
        room.last_active = time.time()
        g = room.game
        since, events = room.events_since(state_id)
        text = dumps({
            "type": "welcome", "game_id": room.game_id, "seat": conn.seat, "role": conn.role,
            "state_id": g.state_id, "since": since, "events": [e.for_seat(conn.seat) for e in events],
            "view": room.view(conn.seat), **table_fields(g, conn.seat), "seats": room.seat_info(),
            "limits": self.limits.public(), "ref": ref,
        })
        conn.charge(len(text))
        conn.send(text)
        self._sent(room, conn.seat if conn.role == "player" else None, g.state_id)
        for req in room.requests.values():   # adjustment requests still waiting
            conn.send(self._request_text(room, req, None))
        if self.cluster is not None:   # cluster hook: those waiting on the game's owner, another process
            self.cluster.welcomed(conn, room)

    def _send_sync(self, conn: Conn, room: Room, state_id: int | None, reason: str, ref: Any) -> None:
        g = room.game
        since, events = room.events_since(state_id)
        key = (g.state_id, conn.seat, since, reason)
        body = room.sync_cache.get(key)
        if body is None:
            body = dumps({
                "type": "sync", "game_id": room.game_id, "state_id": g.state_id, "since": since, "reason": reason,
                "events": [e.for_seat(conn.seat) for e in events], "view": room.view(conn.seat),
                **table_fields(g, conn.seat),
            })
            if len(room.sync_cache) >= 16:
                room.sync_cache.clear()
            room.sync_cache[key] = body
        text = f'{body[:-1]},"ref":{dumps(ref)}}}'
        conn.charge(len(text))   # a resync is paid by its size
        conn.send(text)
        self._sent(room, conn.seat if conn.role == "player" else None, g.state_id)

    def _may_act(self, conn: Conn, room: Room, token: str | None, ref: Any, what: str) -> bool:
        """The authority checks of a seat's message (an action, an answer): joined, the token it
        joined with, a player and not a spectator. False after sending the refusal."""
        state_id = room.game.state_id
        if conn.role is None:
            conn.error("not_joined", "send hello with your seat's token first", ref, state_id)
            return False
        if not token:
            conn.error("missing_token", f"an {what} must carry the seat's token", ref, state_id)
            return False
        if conn.thash is None or not hmac.compare_digest(token_hash(token), conn.thash):
            conn.error("wrong_token", "the token is not the one this connection joined with", ref, state_id)
            return False
        if conn.role != "player" or conn.seat is None:
            conn.error("not_a_player", f"a spectator cannot {'act' if what == 'action' else what}", ref, state_id)
            return False
        return True

    def _action(self, conn: Conn, room: Room, msg: P.ActionMessage) -> None:
        ref = msg.ref
        g = room.game
        if not self._may_act(conn, room, msg.token, ref, "action"):
            return
        assert conn.seat is not None   # a player's connection (checked just above)
        data = dict(msg.action)
        if "seat" not in data or data["seat"] is None:
            data["seat"] = conn.seat
        elif data["seat"] != conn.seat:
            conn.error("wrong_seat", f"this token is seat {conn.seat}'s, not seat {data['seat']!r}'s", ref,
                       g.state_id)
            return
        try:
            action = action_from_json(data)
        except IllegalAction as exc:
            conn.error("malformed_action", exc.message, ref, g.state_id, exc.code)
            return
        if g.result is not None:
            won = "a draw" if g.result.winner == "draw" else f"{g.result.winner} won"
            conn.error("game_over", f"the game is over: {won} ({g.result.reason})", ref, g.state_id)
            return
        if self._state_lost(conn, room, msg.state_id, ref):
            return
        if msg.state_id != g.state_id:
            conn.error("stale_state", f"the game is at state {g.state_id}, not {msg.state_id}; resyncing", ref,
                       g.state_id)
            self._send_sync(conn, room, msg.state_id, "stale_state", ref)
            return
        if not isinstance(action, TABLE_ACTIONS):
            deciders = [s for s, _ in g.pending]
            if conn.seat not in deciders:
                waits = ", ".join(str(s) for s in deciders) or "nobody"
                conn.error("not_your_turn", f"seat {conn.seat} may not act now; the game waits for seat {waits}",
                           ref, g.state_id)
                return
        elif not isinstance(action, AdjustBadge):
            pass   # Undo, OfferEnd, AnswerEnd: the engine alone decides (its reason codes)
        elif room.manual_adjust == "off":
            conn.error("adjust_off", "manual Maturity/Humility adjustment is off at this table", ref, g.state_id)
            return
        elif room.manual_adjust == "ask" and room.answerers(conn.seat):
            self._adjust_request(conn, room, action, ref)
            return
        try:
            events = g.apply(action)
        except IllegalAction as exc:
            conn.error("illegal_action", exc.message, ref, g.state_id, exc.code)
            return
        self._accepted(room, action.to_json(), events, action.seat, conn, ref)

    def _accepted(self, room: Room, action_json: dict[str, Any], events: list[Event], by: int,
                  actor: Conn | None, ref: Any, then: Callable[[], None] | None = None) -> None:
        """Store an applied action (the writer thread commits it), then, once it is durable, push
        the updates, wake the bots and run ``then``. Until then the game is busy: whatever else
        comes for it waits (``Room.waiting``), so nobody sees or builds on a state not yet stored."""
        g = room.game
        room.sync_cache.clear()
        res = g.result
        result = None if res is None else {"winner": res.winner, "reason": res.reason, "round": res.round}
        room.writing = True
        try:
            future = self.writer.submit(room.game_id, len(g.actions) - 1, action_json, result)
        except BaseException:
            room.writing = False
            raise
        future.add_done_callback(partial(self._stored, room, events, by, actor, ref, then))

    def _stored(self, room: Room, events: list[Event], by: int, actor: Conn | None, ref: Any,
                then: Callable[[], None] | None, future: "asyncio.Future[None]") -> None:
        """The writer's answer for an action of ``room``: on success the updates go out (the
        actor's is its acknowledgement); on failure the game is reloaded from the store (the action
        is undone) and the actor is told. Then what waited for the commit runs."""
        try:
            g = room.game
            exc = future.exception() if not future.cancelled() else asyncio.CancelledError()
            if exc is not None:   # the action is not stored: undo it by reloading
                game_log(room.game_id).error("storing an action of game %s failed", room.game_id, exc_info=exc)
                self._reload(room)
                if actor is not None:
                    actor.error("storage_error", f"the action could not be stored ({exc}); nothing changed", ref,
                                room.game.state_id)
            else:
                room.last_active = time.time()
                if self.cluster is not None:   # cluster hook: the other processes' connections hear of it
                    self.cluster.stored(room)
                try:   # the action is stored: every connection must hear of it and the bots must wake
                    self._broadcast(room, events, by, actor, ref)
                finally:
                    if g.result is not None and room.requests:
                        for req in list(room.requests.values()):
                            self._resolve(room, req, "void", None, None, None)
                    self.kick_bots(room)
                    if g.result is None and g.end_offer is not None:
                        self._bots_answer_end(room)
            if then is not None:
                then()
        finally:
            room.writing = False
            self._run_waiting(room)

    def _run_waiting(self, room: Room) -> None:
        """Run what waited for ``room``'s commit, in arrival order, until one of them starts the
        next commit (the rest then wait for that one)."""
        while room.waiting and not room.writing:
            run_deferred(room.waiting.popleft())

    def _when_settled(self, room: Room, fn: Callable[..., None], *args: Any) -> None:
        """``fn(*args)`` now, or after the action of ``room`` being committed (and what waits before it)."""
        if room.busy():
            room.waiting.append(partial(fn, *args))
        else:
            fn(*args)

    def _reload(self, room: Room) -> None:
        self.rooms.pop(room.game_id, None)
        try:
            fresh = self.room(room.game_id)
        except LobbyError:
            fresh = None
        room.sync_cache.clear()
        room.forget_views()
        if fresh is not None:
            room.game = fresh.game
            self.rooms[room.game_id] = room

    def _broadcast(self, room: Room, events: list[Event], by: int, actor: Conn | None, ref: Any) -> None:
        """The update of one accepted action to every connection of ``room``: each seat's (and the
        spectators') message is built and encoded once, however many connections it has, and that
        one text goes to each of them (the actor's differs only by its acknowledgement)."""
        g = room.game
        head = f'{{"type":"update","game_id":{dumps(room.game_id)},"state_id":{g.state_id},"by":{dumps(by)},'
        cache: dict[int | None, tuple[str, str]] = {}   # seat -> (the update after its ack and ref, the whole update)
        for conn in list(room.conns):
            try:   # one connection's trouble must not leave the others un-notified
                seat = conn.seat
                if conn.role == "player":
                    self._sent(room, seat, g.state_id)
                texts = cache.get(seat)
                if texts is None:
                    body = dumps({"events": [e.for_seat(seat) for e in events], "view": room.view(seat),
                                  **table_fields(g, seat)})[1:]   # "events":...,"view":...,"undo":...}
                    texts = cache[seat] = (body, f'{head}"ack":false,"ref":null,{body}')
                if conn is actor:
                    try:
                        echo = dumps(ref)
                    except Exception:   # noqa: BLE001 - refused earlier; never stop the broadcast on it
                        echo = "null"
                    conn.send(f'{head}"ack":true,"ref":{echo},{texts[0]}')
                else:
                    conn.send(texts[1])
            except Exception:   # noqa: BLE001 - logged; that connection resyncs
                game_log(room.game_id).exception("update to a connection of game %s failed; closing it", room.game_id)
                conn.close(1011, "internal error: reconnect to resync", flush=False)

    # ------------------------------------------------------------------ manual adjustment by request
    def _request_text(self, room: Room, req: AdjustReq, ref: Any) -> str:
        return dumps({"type": "adjust_request", "game_id": room.game_id, "request": req.id, "by": req.seat,
                      "action": req.action.to_json(), "answerers": req.answerers, "state_id": room.game.state_id,
                      "ref": ref})

    def _adjust_request(self, conn: Conn, room: Room, action: AdjustBadge, ref: Any) -> None:
        """``manualAdjust: ask``: the adjustment waits for the other side's answer; everyone sees it."""
        if any(r.seat == action.seat for r in room.requests.values()):
            conn.error("adjust_pending", "this seat already has an adjustment request waiting for an answer", ref,
                       room.game.state_id)
            return
        try:   # what the engine would refuse is refused now, not after the other side said yes
            room.game.clone().apply(action)
        except IllegalAction as exc:
            conn.error("illegal_action", exc.message, ref, room.game.state_id, exc.code)
            return
        req = AdjustReq(room.next_request, action.seat, action, room.answerers(action.seat))
        room.next_request += 1
        room.requests[req.id] = req
        plain = self._request_text(room, req, None)
        for c in list(room.conns):
            c.send(self._request_text(room, req, ref) if c is conn else plain)
        if self.cluster is not None:   # cluster hook: to the connections of the other processes too
            self.cluster.relay(room, plain)

    def _adjust_answer(self, conn: Conn, room: Room, msg: P.AdjustAnswer) -> None:
        g = room.game
        ref = msg.ref
        if not self._may_act(conn, room, msg.token, ref, "answer"):
            return
        assert conn.seat is not None   # a player's connection (checked just above)
        req = room.requests.get(msg.request)
        if req is None:
            conn.error("no_such_request", f"no adjustment request {msg.request} is waiting", ref, g.state_id)
            return
        if conn.seat not in req.answerers:
            conn.error("not_your_request", f"seat {conn.seat} may not answer this request (seats "
                                           f"{', '.join(map(str, req.answerers))} may)", ref, g.state_id)
            return
        if not msg.accept:
            self._resolve(room, req, "declined", conn.seat, conn, ref)
            return
        if g.result is not None:
            self._resolve(room, req, "void", conn.seat, conn, ref)
            return
        try:
            events = g.apply(req.action)
        except IllegalAction as exc:
            game_log(room.game_id).info("adjustment request %d of game %s no longer applies: %s", req.id, room.game_id,
                                        exc.message)
            self._resolve(room, req, "void", conn.seat, conn, ref)
            return
        room.requests.pop(req.id, None)
        self._accepted(room, req.action.to_json(), events, req.seat, None, None,
                       then=partial(self._resolve, room, req, "accepted", conn.seat, conn, ref))

    def _resolve(self, room: Room, req: AdjustReq, outcome: str, by: int | None, answerer: Conn | None,
                 ref: Any) -> None:
        room.requests.pop(req.id, None)
        base = {"type": "adjust_resolved", "game_id": room.game_id, "request": req.id, "by": req.seat,
                "outcome": outcome, "answered_by": by, "state_id": room.game.state_id}
        plain = dumps({**base, "ref": None})
        for c in list(room.conns):
            c.send(dumps({**base, "ref": ref}) if c is answerer else plain)
        if self.cluster is not None:   # cluster hook: to the connections of the other processes too
            self.cluster.relay(room, plain)

    # ------------------------------------------------------------------ bots
    def kick_bots(self, room: Room) -> None:
        """Schedule the next bot move of ``room`` (after ``bot_delay``) if a bot is to move."""
        if not room.bots or self.closing or room.bot_pending or room.bot_to_move() is None:
            return
        if self.cluster is not None and not self.cluster.owns(room.game_id):   # cluster hook: the owner's bots
            return
        room.bot_pending = True
        loop = asyncio.get_running_loop()
        if self.bot_delay > 0:
            loop.call_later(self.bot_delay, self.bots.ready, room)
        else:
            self.bots.ready(room)

    def _bot_move(self, room: Room) -> None:
        """One bot move (run by the BotScheduler), then the next one is scheduled; after the action
        of the game being committed, if there is one."""
        self._when_settled(room, self._bot_move_now, room)

    def _bot_move_now(self, room: Room) -> None:
        room.bot_pending = False
        if self.closing or self.rooms.get(room.game_id) is not room:
            return
        turn = to_move(room.game, room.bots)
        if turn is None:
            return
        g, (seat, actions) = room.game, turn
        if len(actions) > 1 and room.bots[seat].thinks:
            self._think_off_loop(room, seat, actions)
            return
        def refused(seat: int, why: str, error: BaseException | None) -> None:   # a bot bug: the first legal action
            game_log(room.game_id).error("bot %s in game %s %s", seat, room.game_id, why, exc_info=error)

        action, events = bot_move(g, seat, actions, room.bots[seat], refused)
        self._accepted(room, action.to_json(), events, seat, None, None)

    def _bots_answer_end(self, room: Room) -> None:
        """An offer to end a duel: each bot seat of the answering side answers for itself (after
        ``bot_delay``), accepting unless the stalemate score puts its side behind (G-8, rules 4:
        every seat of the side must accept, a tie is a draw). Rules 1-3 (one answer ended it): a bot
        answered only for a side that only bots play, accepting when the score gave its side the win."""
        g = room.game
        offer = g.end_offer
        sides = _sides(g.lineup)
        if g.rules >= 4:
            answering = [s for s in g.end_waiting() if s in room.bots]
        else:
            other = [s.seat for s in room.seats if offer is not None and sides[s.seat] != offer]
            if not other or any(room.seats[s].kind == "human" for s in other) or not any(s in room.bots for s in other):
                return
            answering = [next(s for s in other if s in room.bots)]

        def answer(seat: int) -> None:
            if self.closing or self.rooms.get(room.game_id) is not room:
                return
            game = room.game
            if game.result is not None or game.end_offer != offer or (game.rules >= 4 and seat not in game.end_waiting()):
                return
            r, e = game.score
            if game.rules >= 4:   # G-8: accept a win or a draw
                behind = e > r if sides[seat] == "righteous" else r > e
                choice = "decline" if behind else "accept"
            else:                 # rules 1-3, D-SCORE: a tie went to Evil
                choice = "accept" if ("righteous" if r > e else "evil") == sides[seat] else "decline"
            action = AnswerEnd(seat, choice)
            try:
                events = game.apply(action)
            except IllegalAction:
                game_log(room.game_id).exception("bot %s of game %s could not answer an offer to end", seat,
                                                 room.game_id)
                return
            self._accepted(room, action.to_json(), events, seat, None, None)

        for seat in answering:
            asyncio.get_running_loop().call_later(max(self.bot_delay, 0.0), self._when_settled, room, answer, seat)

    def _think_off_loop(self, room: Room, seat: int, actions: list[Any]) -> None:
        """A search bot thinks in a worker process (``bots.search.thinking_pool``), so the event
        loop serves every other game meanwhile; its move is applied when the answer comes, if the
        game is still where it was."""
        from ..bots.search import think, thinking_pool, worker_copy
        g, bot = room.game, room.bots[seat]
        state_id = g.state_id
        room.bot_pending = True   # no other move of this room is scheduled while it thinks
        future = asyncio.get_running_loop().run_in_executor(thinking_pool(), think, bot, worker_copy(g), seat, actions,
                                                            time.time())   # its budget counts from now

        def done(f: "asyncio.Future[tuple[Any, int, Any]]") -> None:
            room.bot_pending = False
            if self.closing or self.rooms.get(room.game_id) is not room:
                return
            if room.game is not g or g.state_id != state_id:   # moved on meanwhile: think again
                self.kick_bots(room)
                return
            try:
                action, bot.rng.state, carry = f.result()
                bot.restore(carry)
                events = g.apply(action)
            except Exception:   # noqa: BLE001 - a bot bug or a lost worker: log it, fall back
                game_log(room.game_id).exception("search bot %s in game %s failed", seat, room.game_id)
                action = bot.choose(g.view(seat), actions)
                events = g.apply(action)
            self._accepted(room, action.to_json(), events, seat, None, None)

        future.add_done_callback(lambda f: self._when_settled(room, done, f))

    def disconnected(self, conn: Conn, room: Room) -> None:
        room.conns.discard(conn)
        self.release(conn)
        self._maybe_evict(room)


def served_record(record: dict[str, Any]) -> dict[str, Any]:
    """A record as the server sends it: the seed as a decimal string. A 128-bit seed is no JSON
    number a browser keeps (JavaScript reads numbers as doubles: exact only up to 2**53), and a
    client that reads and writes the record again would turn it into a float that no longer
    replays; every record reader takes both forms (``engine.record.record_seed``)."""
    seed = record.get("seed")
    if isinstance(seed, int) and not isinstance(seed, bool):
        return {**record, "seed": str(seed)}
    return record


def _canonical(obj: Any) -> bytes:
    """JSON as sent (non-string keys become strings), keys sorted: equal states, equal bytes."""
    return json.dumps(json.loads(to_json(obj)), sort_keys=True, separators=(",", ":")).encode()


def ws_url(base_url: str, game_id: str) -> str:
    if base_url.startswith("https://"):
        return "wss://" + base_url[len("https://"):] + f"ws/{game_id}"
    if base_url.startswith("http://"):
        return "ws://" + base_url[len("http://"):] + f"ws/{game_id}"
    return base_url + f"ws/{game_id}"


def _validation_text(kind: str, exc: ValidationError) -> str:
    bits = []
    for err in exc.errors()[:3]:
        where = ".".join(str(p) for p in err.get("loc", ())) or "message"
        bits.append(f"{where}: {err.get('msg', 'invalid')}")
    return f"bad {kind} message: " + "; ".join(bits)


def table_settings(given: dict[str, Any], default_variants: str = "") -> Settings:
    """A new table's settings from a create request (and its query): ``variants`` (a preset name or
    ``alias=value`` pairs, engine/variants.py) first, the server's default variants when the request
    names none (``serve --variants``), then each setting given by name (which wins)."""
    from ..engine.variants import parse_variants
    given = dict(given)
    named = given.pop("variants", None)
    if named is not None and not isinstance(named, str):
        raise ValueError(f"variants must be text such as 'recommended' or 'rewardCap=2,roundLimit=20', not {named!r}")
    chosen: dict[str, Any] = dict(parse_variants(default_variants if named is None else named))
    chosen.update(given)
    return Settings().updated(chosen)


def summary_variants(settings: dict[str, Any]) -> dict[str, Any]:
    """The play-test variants a stored game plays (by alias), with the "This table plays: ..." line."""
    from ..engine.variants import variants_json
    try:
        return variants_json(Settings.from_dict(settings))
    except ValueError:   # settings of another version of the program: say nothing rather than fail
        return {"on": {}, "text": "", "rules": []}


def scenario_info(name: Any, settings: dict[str, Any] | None = None) -> dict[str, str] | None:
    """A scenario game's scenario: name, title and goal (the board keeps them in view), the goal
    worded for the game's ``settings`` (a variant's Evil win, a round limit); None for a game of
    no scenario."""
    if not name:
        return None
    try:
        sc = load_scenario(str(name))
    except LobbyError:   # a scenario this server no longer has: its name alone
        return {"name": str(name), "title": str(name), "goal": ""}
    try:
        table = Settings.from_dict(settings) if settings is not None else None
    except ValueError:   # settings of another version of the program: the scenario's own words
        table = None
    return {"name": sc.name, "title": sc.title, "goal": sc.goal_for(table)}


def load_scenario(name: str) -> Any:
    """The named duel scenario (``christianity_game.scenarios``); a clear error for an unknown one."""
    try:
        from ..scenarios import scenario
    except ImportError:   # pragma: no cover - scenarios are part of the package
        raise LobbyError(400, "unknown_scenario", "duel scenarios are not available") from None
    try:
        return scenario(name)
    except ValueError as exc:
        raise LobbyError(400, "unknown_scenario", str(exc)) from None
