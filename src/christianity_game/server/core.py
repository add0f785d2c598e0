"""The authoritative game server: rooms, seats and tokens, the WebSocket protocol, bots, storage.

Everything here runs on the event loop's thread. Handling a client message is synchronous from
validation to storing the action and queueing the updates, so no two actions of a game can
interleave and no lock is needed. Each connection has its own outgoing queue and sender task: a
slow reader never holds up the game or the other connections (it is dropped when its queue
overflows, and resyncs on reconnect).
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
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from pydantic_core import to_json

from ..bots import BOTS, make_bot
from ..bots.base import Bot
from ..engine.actions import AdjustBadge, IllegalAction, action_from_json
from ..engine.events import Event
from ..engine.game import Game
from ..engine.settings import Settings
from . import protocol as P
from .store import GameRow, SeatRow, Store

log = logging.getLogger("christianity_game.server")


@dataclass(frozen=True, slots=True)
class Limits:
    """Per-connection caps. ``rate``/``burst``: a token bucket of messages; a message over it is
    refused, and the server stops reading that connection for a moment (``1/rate`` seconds, at most
    50 ms), so a flood waits in the flooder's own TCP buffers instead of costing the server.
    ``send_queue``: messages queued to a client that does not read before it is dropped (1013)."""

    max_message_bytes: int = 16 * 1024
    rate: float = 20.0
    burst: int = 40
    send_queue: int = 512

    def public(self) -> dict[str, Any]:
        return {"max_message_bytes": self.max_message_bytes, "rate_per_s": self.rate, "burst": self.burst}


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


def dumps(obj: Any) -> str:
    return to_json(obj).decode("utf-8")


# --------------------------------------------------------------------------- connections
class Conn:
    """One WebSocket connection: who it is, its rate bucket and its outgoing queue."""

    __slots__ = ("ws", "limits", "seat", "role", "thash", "queue", "sender", "closing", "tokens", "stamp",
                 "refused", "pause", "room")

    def __init__(self, ws: Any, limits: Limits) -> None:
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

    def send(self, text: str) -> None:
        if self.closing:
            return
        if self.queue.qsize() >= self.limits.send_queue:
            self.close(1013, "client too slow: reconnect to resync", flush=False)
            return
        self.queue.put_nowait(text)

    def close(self, code: int, reason: str, flush: bool = True) -> None:
        if self.closing:
            return
        self.closing = True
        if self.room is not None:
            self.room.conns.discard(self)
        if not flush:
            while not self.queue.empty():
                self.queue.get_nowait()
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
        self.bot_task: asyncio.Task[None] | None = None

    def identify(self, token: str) -> tuple[str, int | None] | None:
        h = token_hash(token)
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return "player", s.seat
        if hmac.compare_digest(self.row.spectator_hash, h):
            return "spectator", None
        return None

    def bot_to_move(self) -> int | None:
        if self.game.result is not None:
            return None
        for seat, _ in self.game.pending:
            if seat in self.bots:
                return seat
        return None

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
                 "name": s.name, "connected": counts.get(s.seat, 0)} for s in self.seats]


def _sides(lineup: str) -> list[str]:
    return ["evil" if ch == "E" else "righteous" for ch in lineup]


# --------------------------------------------------------------------------- the server
class GameServer:
    """All games of one data folder."""

    def __init__(self, data_dir: str | Path, bot_delay: float = 0.3, limits: Limits | None = None,
                 synchronous: str = "NORMAL", freeze_gc: bool = False) -> None:
        self.data_dir = Path(data_dir)
        self.bot_delay = float(bot_delay)
        self.freeze_gc = freeze_gc
        self.limits = limits or Limits()
        self.store = Store(self.data_dir, synchronous)
        self.rooms: dict[str, Room] = {}
        self.broken: dict[str, str] = {}
        self._digest_key = self.store.secret("digest_key")
        self._loader: asyncio.Task[None] | None = None
        self._lagger: asyncio.Task[None] | None = None
        self._gc_keeper: asyncio.Task[None] | None = None
        self.lags: collections.deque[float] = collections.deque(maxlen=1200)
        self.gc_stats: list[list[float]] = [[0, 0.0, 0.0] for _ in range(3)]
        self._gc_started = 0.0
        self.closing = False

    # ------------------------------------------------------------------ start and stop
    def start(self) -> None:
        """Start loading every unfinished game in the background (bots resume as each loads)."""
        loop = asyncio.get_running_loop()
        self._loader = loop.create_task(self._load_all())
        self._lagger = loop.create_task(self._measure_lag())
        self._gc_keeper = loop.create_task(self._keep_gc()) if self.freeze_gc else None
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
                for g, (c, m, t) in enumerate(self.gc_stats)} | {"frozen": gc.get_freeze_count()}

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
        self._freeze()
        ids = [row.id for row in self.store.games(finished=False)]
        for gid in ids:
            if self.closing:
                return
            try:
                room = self.room(gid)
            except Exception:   # noqa: BLE001 - logged; one bad game must not stop the others
                log.exception("could not load game %s", gid)
                continue
            if room is not None:
                self.kick_bots(room)
            await asyncio.sleep(0)
        self._freeze()

    def _freeze(self) -> None:
        """Move what is alive now (imported modules, loaded games) out of the garbage collector's
        reach: full collections then scan only what came later, which keeps their pauses short.
        Games hold no reference cycles, so a frozen game is still freed when it is dropped."""
        if self.freeze_gc:
            gc.collect()
            gc.freeze()

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
                last_thaw = loop.time()
                log.info("full garbage collection: %.0f ms", (time.perf_counter() - t) * 1e3)
            else:
                gc.collect(1)
                gc.freeze()

    async def stop(self) -> None:
        self.closing = True
        if self._gc_callback in gc.callbacks:
            gc.callbacks.remove(self._gc_callback)
        tasks = [t for t in [self._loader, self._lagger, self._gc_keeper, *(r.bot_task for r in self.rooms.values())]
                 if t is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            try:
                await t
            except (asyncio.CancelledError, Exception):
                pass
        for room in self.rooms.values():
            for c in list(room.conns):
                c.close(1000, "server shutting down")
        self.store.close()

    # ------------------------------------------------------------------ rooms
    def room(self, game_id: str) -> Room | None:
        """The game in memory, loading (replaying) it from the store on first use."""
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        if game_id in self.broken:
            raise LobbyError(503, "game_unavailable", self.broken[game_id])
        row = self.store.game(game_id)
        if row is None:
            return None
        record = dict(row.head)
        record["actions"] = self.store.actions(game_id)
        try:
            game = Game.from_record(record)
        except Exception as exc:   # noqa: BLE001 - a record that no longer replays
            msg = f"game {game_id} could not be replayed: {exc}"
            log.error(msg)
            self.broken[game_id] = msg
            raise LobbyError(503, "game_unavailable", msg) from None
        room = Room(game_id, game, row)
        self.rooms[game_id] = room
        return room

    def _maybe_evict(self, room: Room) -> None:
        if not room.conns and room.game.result is not None and (room.bot_task is None or room.bot_task.done()):
            self.rooms.pop(room.game_id, None)

    # ------------------------------------------------------------------ lobby
    def create_game(self, req: P.CreateGame, extra_settings: dict[str, str], base_url: str) -> dict[str, Any]:
        try:
            settings = Settings().updated({**req.settings, **extra_settings})
        except ValueError as exc:
            raise LobbyError(400, "bad_settings", str(exc)) from None
        for seat, level in req.bots.items():
            if level not in BOTS:
                raise LobbyError(400, "unknown_bot", f"unknown bot {level!r} for seat {seat}; known: "
                                                     f"{', '.join(sorted(BOTS))}")
        seed = req.seed if req.seed is not None else secrets.randbelow(2**31)
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
        options = {"name": req.name, "listed": req.listed, "scenario": req.scenario}
        self.store.create_game(game_id, head, options, token_hash(spectator), rows)
        row = self.store.game(game_id)
        assert row is not None
        room = Room(game_id, game, row)
        self.rooms[game_id] = room
        self.kick_bots(room)
        return {"game_id": game_id, "mode": game.mode.name, "lineup": game.lineup, "state_id": game.state_id,
                "ws": ws_url(base_url, game_id), "seats": links,
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
             "claimed": s.claimed, "name": s.name, "connected": 0} for s in row.seats]
        out = {"game_id": row.id, "name": row.options.get("name"), "mode": row.head["mode"],
               "lineup": row.head["lineup"], "created": row.created, "settings": row.head["settings"],
               "seats": seats, "open_seats": [s.seat for s in row.seats if s.kind == "human" and not s.claimed],
               "state_id": None, "round": None, "result": row.result}
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
        free = [s for s in room.seats if s.kind == "human" and not s.claimed]
        if seat is None:
            if not free:
                raise LobbyError(409, "no_free_seat", "every seat of this game is taken")
            target = free[0]
        else:
            match = [s for s in room.seats if s.seat == seat]
            if not match:
                raise LobbyError(404, "no_such_seat", f"there is no seat {seat}")
            target = match[0]
            if target.kind != "human":
                raise LobbyError(409, "bot_seat", f"seat {seat} is played by a bot")
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
        room = self.room(game_id)
        if room is None:
            raise LobbyError(404, "no_such_game", f"there is no game {game_id!r}")
        if room.game.result is None:
            raise LobbyError(403, "game_not_over", "the record (seed and actions) reveals every hidden card; "
                                                   "it is served once the game is over")
        return room.game.to_record()

    # ------------------------------------------------------------------ the WebSocket protocol
    def on_message(self, conn: Conn, room: Room, text: str | bytes | None) -> None:
        """Handle one client message (synchronously: nothing else runs in between)."""
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
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError):
            conn.error("malformed_json", "the message is not valid JSON")
            return
        if not isinstance(data, dict):
            conn.error("malformed_json", "a message must be a JSON object")
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
        try:
            if isinstance(msg, P.Hello):
                self._hello(conn, room, msg)
            elif isinstance(msg, P.ActionMessage):
                self._action(conn, room, msg)
            elif isinstance(msg, P.SyncRequest):
                if conn.role is None:
                    conn.error("not_joined", "send hello with a token first", msg.ref)
                else:
                    self._send_sync(conn, room, msg.state_id, "requested", msg.ref)
            elif isinstance(msg, P.Ping):
                conn.send(dumps({"type": "pong", "ref": msg.ref}))
        except Exception:   # noqa: BLE001 - a bug must not take the game down
            log.exception("error handling %s in game %s", kind, room.game_id)
            conn.error("internal_error", "the server failed on this message; nothing changed", ref)

    def _hello(self, conn: Conn, room: Room, msg: P.Hello) -> None:
        if not msg.token:
            conn.error("missing_token", "hello needs the seat's or spectator's token", msg.ref)
            return
        ident = room.identify(msg.token)
        if ident is None:
            conn.error("wrong_token", "that token is not one of this game's", msg.ref)
            return
        self.join_conn(conn, room, msg.token, ident, msg.state_id, msg.ref)

    def join_conn(self, conn: Conn, room: Room, token: str, ident: tuple[str, int | None], state_id: int | None,
                  ref: Any) -> None:
        conn.role, conn.seat = ident
        conn.thash = token_hash(token)
        conn.room = room
        room.conns.add(conn)
        if conn.role == "player" and conn.seat is not None:
            seat = room.seats[conn.seat]
            if not seat.claimed:
                seat.claimed = True
                self.store.claim(room.game_id, conn.seat)
        g = room.game
        since, events = room.events_since(state_id)
        conn.send(dumps({
            "type": "welcome", "game_id": room.game_id, "seat": conn.seat, "role": conn.role,
            "state_id": g.state_id, "since": since, "events": [e.for_seat(conn.seat) for e in events],
            "view": g.view(conn.seat), "seats": room.seat_info(), "limits": self.limits.public(), "ref": ref,
        }))

    def _send_sync(self, conn: Conn, room: Room, state_id: int | None, reason: str, ref: Any) -> None:
        g = room.game
        since, events = room.events_since(state_id)
        conn.send(dumps({
            "type": "sync", "game_id": room.game_id, "state_id": g.state_id, "since": since, "reason": reason,
            "events": [e.for_seat(conn.seat) for e in events], "view": g.view(conn.seat), "ref": ref,
        }))

    def _action(self, conn: Conn, room: Room, msg: P.ActionMessage) -> None:
        ref = msg.ref
        g = room.game
        if conn.role is None:
            conn.error("not_joined", "send hello with your seat's token first", ref, g.state_id)
            return
        if not msg.token:
            conn.error("missing_token", "an action must carry the seat's token", ref, g.state_id)
            return
        if conn.thash is None or not hmac.compare_digest(token_hash(msg.token), conn.thash):
            conn.error("wrong_token", "the token is not the one this connection joined with", ref, g.state_id)
            return
        if conn.role != "player" or conn.seat is None:
            conn.error("not_a_player", "a spectator cannot act", ref, g.state_id)
            return
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
            conn.error("game_over", f"the game is over: {g.result.winner} won ({g.result.reason})", ref, g.state_id)
            return
        if msg.state_id != g.state_id:
            conn.error("stale_state", f"the game is at state {g.state_id}, not {msg.state_id}; resyncing", ref,
                       g.state_id)
            self._send_sync(conn, room, msg.state_id, "stale_state", ref)
            return
        if not isinstance(action, AdjustBadge):
            deciders = [s for s, _ in g.pending]
            if conn.seat not in deciders:
                waits = ", ".join(str(s) for s in deciders) or "nobody"
                conn.error("not_your_turn", f"seat {conn.seat} may not act now; the game waits for seat {waits}",
                           ref, g.state_id)
                return
        try:
            events = g.apply(action)
        except IllegalAction as exc:
            conn.error("illegal_action", exc.message, ref, g.state_id, exc.code)
            return
        self._accepted(room, action.to_json(), events, action.seat, conn, ref)

    def _accepted(self, room: Room, action_json: dict[str, Any], events: list[Event], by: int,
                  actor: Conn | None, ref: Any) -> None:
        """Store an applied action, then push the updates and wake the bots."""
        g = room.game
        try:
            self.store.append_action(room.game_id, len(g.actions) - 1, action_json)
            if g.result is not None:
                res = g.result
                self.store.finish(room.game_id, {"winner": res.winner, "reason": res.reason, "round": res.round})
        except Exception as exc:   # noqa: BLE001 - the action is not stored: undo it by reloading
            log.exception("storing an action of game %s failed", room.game_id)
            self._reload(room)
            if actor is not None:
                actor.error("storage_error", f"the action could not be stored ({exc}); nothing changed", ref,
                            room.game.state_id)
            return
        self._broadcast(room, events, by, actor, ref)
        self.kick_bots(room)

    def _reload(self, room: Room) -> None:
        self.rooms.pop(room.game_id, None)
        try:
            fresh = self.room(room.game_id)
        except LobbyError:
            fresh = None
        if fresh is not None:
            room.game = fresh.game
            self.rooms[room.game_id] = room

    def _broadcast(self, room: Room, events: list[Event], by: int, actor: Conn | None, ref: Any) -> None:
        g = room.game
        head = f'{{"type":"update","game_id":{dumps(room.game_id)},"state_id":{g.state_id},"by":{dumps(by)},'
        cache: dict[int | None, str] = {}
        for conn in list(room.conns):
            seat = conn.seat
            body = cache.get(seat)
            if body is None:
                ev = dumps([e.for_seat(seat) for e in events])
                body = f'"events":{ev},"view":{dumps(g.view(seat))}}}'
                cache[seat] = body
            if conn is actor:
                conn.send(f'{head}"ack":true,"ref":{dumps(ref)},{body}')
            else:
                conn.send(f'{head}"ack":false,"ref":null,{body}')

    # ------------------------------------------------------------------ bots
    def kick_bots(self, room: Room) -> None:
        if not room.bots or self.closing or (room.bot_task is not None and not room.bot_task.done()):
            return
        if room.bot_to_move() is None:
            return
        room.bot_task = asyncio.get_running_loop().create_task(self._run_bots(room))

    async def _run_bots(self, room: Room) -> None:
        while not self.closing:
            seat = room.bot_to_move()
            if seat is None:
                return
            await asyncio.sleep(self.bot_delay)
            if self.rooms.get(room.game_id) is not room or room.bot_to_move() != seat:
                continue
            g = room.game
            actions = g.legal_actions(seat)
            if not actions:
                return
            try:
                action = actions[0] if len(actions) == 1 else room.bots[seat].choose(g.view(seat), actions)
                events = g.apply(action)
            except Exception:   # noqa: BLE001 - a bot bug: log it and play the first legal action
                log.exception("bot %s in game %s failed", seat, room.game_id)
                action = actions[0]
                events = g.apply(action)
            self._accepted(room, action.to_json(), events, seat, None, None)

    def disconnected(self, conn: Conn, room: Room) -> None:
        room.conns.discard(conn)
        self._maybe_evict(room)


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
