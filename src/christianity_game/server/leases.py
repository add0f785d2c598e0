"""The ground a cluster process stands on (:class:`Leases`, which server/cluster.py's
:class:`~christianity_game.server.cluster.Cluster` builds on): its sessions on the database, the
leases that make it the owner of games (taken, renewed, given back, taken over from a dead owner),
the tick, the notifications it sends and hears, and its copies of the games others own, caught up
from the store. The design is in server/cluster.py's docstring."""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import itertools
import json
import logging
import math
import os
import secrets
import socket
import time
from typing import TYPE_CHECKING, Any, Awaitable, Callable

import psycopg

from ..engine.actions import action_from_json
from .conn import Conn
from .errors import LobbyError
from .limits import Limits
from .logs import game_log
from .room import Room

if TYPE_CHECKING:
    from .core import GameServer

log = logging.getLogger("christianity_game.server.cluster")


CHANNEL = "cg_games"            # every committed action and seat change: "a GAME COUNT SENDER", "s GAME SENDER"
LEASE_S = 3.0                   # how long a lease holds without renewal
TICK_S = 0.5                    # how often leases are renewed, orphans looked for, followers checked
FORWARD_TIMEOUT_S = 5.0         # how long a forwarded message waits for the owner's answer
MAX_FORWARD_BYTES = 7000        # a client message forwarded through NOTIFY (its payload is capped at 8,000)
DROP_AFTER_S = 5.0              # a replica without connections for this long leaves memory
CREATE_GRACE_S = 5.0            # a game this new is its creator's to take, not an orphan
ORPHANS_PER_TICK = 25           # games without a live lease one process takes over per tick


class Leases:
    """This process's sessions, leases, tick and notifications, and its copies of others' games."""

    def __init__(self, server: "GameServer", url: str, lease_s: float = LEASE_S, tick_s: float = TICK_S) -> None:
        self.server = server
        self.url = url
        self.lease_s = lease_s
        self.tick_s = tick_s
        self.id = secrets.token_hex(6)
        self.channel = f"cg_w_{self.id}"
        self.owned: set[str] = set()
        self.base_limits = server.limits
        self.workers = 1
        # four sessions, so that no one kind of work waits behind another: ``db`` for reads, lease
        # takes and lookups; ``lease_db`` only for renewing (never late behind a burst of reads);
        # ``notify_db`` for sending notifications; and the listener's own
        self.db: psycopg.AsyncConnection[tuple[Any, ...]] | None = None
        self.lease_db: psycopg.AsyncConnection[tuple[Any, ...]] | None = None
        self.notify_db: psycopg.AsyncConnection[tuple[Any, ...]] | None = None
        self._catching: set[str] = set()   # taken over, its copy still catching up with the store
        self._owners: dict[str, tuple[str, float]] = {}   # game -> (its owner, when looked up): forwarding
        self._tasks: list[asyncio.Task[None]] = []
        self._jobs: set[asyncio.Task[Any]] = set()
        self._outbox: list[tuple[str, str]] = []
        self._outbox_ready = asyncio.Event()
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._inflight: collections.Counter[str] = collections.Counter()
        self._acks: dict[tuple[str, int], tuple[Conn, Any]] = {}
        # a followed game -> (the replica it is known for, request id -> (the action count it was made
        # at, its adjust_request)): the adjustment requests waiting on the game's owner, as the owner
        # answered when asked and relayed since, for the welcome of a connection that joins here
        self._waiting: dict[str, tuple[Room, dict[int, tuple[int, str]]]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._listening = asyncio.Event()
        self._closing = False
        self.takeovers = 0
        self.started = time.time()

    def report(self) -> dict[str, Any]:
        """What ``/healthz`` says of the cluster: this process, the live ones, its games."""
        return {"worker": self.id, "pid": os.getpid(), "workers": self.workers, "owned_games": len(self.owned),
                "followed_games": sum(1 for g in self.server.rooms if g not in self.owned),
                "takeovers": self.takeovers, "listening": self._listening.is_set()}


    # ------------------------------------------------------------------ start and stop
    async def start(self) -> None:
        """Connect, announce this process, start listening and the tick (leases, orphans, followers)."""
        self.db = await self._connect()
        self.lease_db = await self._connect()
        self.notify_db = await self._connect()
        await self._heartbeat()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._send_loop()),
                       loop.create_task(self._renew_forever()), loop.create_task(self._tick_forever())]
        try:
            async with asyncio.timeout(10):
                await self._listening.wait()
        except TimeoutError:
            log.warning("cluster: not listening for notifications yet; followers catch up at each tick")
        log.info("cluster: worker %s of %d on %s", self.id, self.workers, self.server.store.kind)

    async def _connect(self) -> psycopg.AsyncConnection[tuple[Any, ...]]:
        return await psycopg.AsyncConnection.connect(self.url, autocommit=True, connect_timeout=10,
                                                     application_name=f"christianity-game worker {self.id}")

    async def halt(self) -> None:
        """Stop the tick and the listener (before the server stops: nothing new is taken over)."""
        self._closing = True
        for t in self._tasks:
            t.cancel()
        for t in [*self._tasks, *self._jobs]:
            try:
                await t
            except (asyncio.CancelledError, Exception):
                pass

    async def stop(self) -> None:
        """After the server stopped: give the leases back at once (others take the games over now,
        not after they expire) and leave the worker list."""
        await self.halt()
        if self.db is None:
            return
        try:
            await self.db.execute("DELETE FROM leases WHERE owner=%s", (self.id,))
            await self.db.execute("DELETE FROM workers WHERE id=%s", (self.id,))
        except psycopg.Error as exc:
            log.warning("cluster: could not give the leases back (they expire in %g s): %s", self.lease_s, exc)
        for db in (self.db, self.lease_db, self.notify_db):
            if db is not None:
                await db.close()

    # ------------------------------------------------------------------ ownership
    def owns(self, game_id: str) -> bool:
        """Whether this process holds ``game_id``'s lease and its copy is up to date (it applies the
        game's actions and runs its bots)."""
        return game_id in self.owned and game_id not in self._catching

    async def _acquire(self, ids: list[str]) -> list[str]:
        """Take the leases of ``ids`` that are free, expired or already this process's; those taken."""
        if not ids or self.db is None:
            return []
        cur = await self.db.execute(
            "INSERT INTO leases(game_id, owner, expires_at) SELECT g, %s, now() + make_interval(secs => %s) "
            "FROM unnest(%s::text[]) AS g ON CONFLICT (game_id) DO UPDATE SET owner=EXCLUDED.owner, "
            "expires_at=EXCLUDED.expires_at WHERE leases.expires_at < now() OR leases.owner = EXCLUDED.owner "
            "RETURNING game_id", (self.id, self.lease_s, ids))
        got = [str(r[0]) for r in await cur.fetchall()]
        new = [g for g in got if g not in self.owned]
        self.owned.update(got)
        self._catching.update(new)   # until _took_over (or a fresh load) brought its copy up to date
        return new

    async def _owner_of(self, game_id: str) -> str | None:
        """The process holding a live lease on ``game_id``, if any."""
        assert self.db is not None
        cur = await self.db.execute("SELECT owner FROM leases WHERE game_id=%s AND expires_at > now()", (game_id,))
        row = await cur.fetchone()
        return None if row is None else str(row[0])

    async def adopt(self, game_id: str) -> bool:
        """Own ``game_id`` if its lease is free (a new game, or one whose owner died): catch up from the
        store and wake its bots. True if this process owns it now."""
        if self.owns(game_id):
            return True
        try:
            new = await self._acquire([game_id])
        except psycopg.Error as exc:
            log.warning("cluster: could not take the lease of game %s: %s", game_id, exc)
            return False
        if new:
            await self._took_over(new)
        return self.owns(game_id)

    async def _took_over(self, ids: list[str]) -> None:
        """Games whose leases were just taken: their copies here caught up with the store (those not
        in memory are loaded when needed), then they are this process's; their bots wake."""
        for gid in ids:
            self._waiting.pop(gid, None)   # held in the old owner's memory: gone with it, as on a restart
            try:
                if gid in self.server.rooms:
                    self.takeovers += 1
                    await self._catch_up(gid, wait=False, force=True)
            finally:
                self._catching.discard(gid)
            room = self.server.rooms.get(gid)
            if room is not None and self.owns(gid):
                self.server.bot_turns.kick(room)

    # ------------------------------------------------------------------ the tick
    async def _every_tick(self, what: str, step: Callable[[], Awaitable[None]], session: str) -> None:
        """Every ``tick_s``, ``step`` (``what`` names it in the log), forever: a database error is
        logged and the session it runs on (the attribute ``session``, ``db`` or ``lease_db``) opened
        again if it broke; any other error is logged, and the loop keeps running."""
        while True:
            await asyncio.sleep(self.tick_s)
            try:
                await step()
            except psycopg.Error as exc:
                log.warning("cluster: %s failed (the database out of reach?): %s", what, exc)
                conn = getattr(self, session)
                if conn is not None and (conn.closed or conn.broken):
                    try:
                        setattr(self, session, await self._connect())
                    except psycopg.Error:
                        pass
            except Exception:   # noqa: BLE001 - logged; the loop must keep running
                log.exception("cluster: %s failed", what)

    async def _renew_forever(self) -> None:
        """Every ``tick_s``: this process's worker row and its leases renewed (on their own session)."""
        async def renew_all() -> None:
            await self._heartbeat()
            await self.renew()
        await self._every_tick("renewing the leases", renew_all, "lease_db")

    async def renew(self) -> None:
        """Renew every lease of this process; a lease found taken (it expired while this process was
        cut off or stalled) makes its game a followed one here."""
        assert self.lease_db is not None
        before = set(self.owned)   # (a game adopted while the renewal runs is not lost)
        cur = await self.lease_db.execute("UPDATE leases SET expires_at = now() + make_interval(secs => %s) "
                                          "WHERE owner=%s RETURNING game_id", (self.lease_s, self.id))
        held = {str(r[0]) for r in await cur.fetchall()}
        lost = before - held
        for gid in lost:
            game_log(gid).warning("cluster: the lease of game %s was taken by another process; following it", gid)
        self.owned = (self.owned - lost) | held

    async def _tick_forever(self) -> None:
        await self._every_tick("tick", self.tick, "db")

    async def _heartbeat(self) -> None:
        """Renew this process's row in ``workers``; share the per-process limits among the live ones."""
        db = self.lease_db or self.db
        assert db is not None
        await db.execute(
            "INSERT INTO workers(id, started, host, pid, expires_at) VALUES (%s, %s, %s, %s, "
            "now() + make_interval(secs => %s)) ON CONFLICT (id) DO UPDATE SET expires_at=EXCLUDED.expires_at",
            (self.id, self.started, socket.gethostname(), os.getpid(), self.lease_s))
        await db.execute("DELETE FROM workers WHERE expires_at < now() - interval '1 minute'")
        cur = await db.execute("SELECT COUNT(*) FROM workers WHERE expires_at > now()")
        row = await cur.fetchone()
        n = max(1, int(row[0]) if row else 1)
        if n != self.workers:
            self.workers = n
            self.server.limits = shared_limits(self.base_limits, n)

    async def tick(self) -> None:
        """Give back, take over; drop replicas nobody watches; catch followers up (renewing is
        ``renew``'s, on its own session)."""
        assert self.db is not None
        server = self.server
        gone = [g for g in self.owned if g not in server.rooms and g not in self._catching]
        if gone:
            await self.db.execute("DELETE FROM leases WHERE owner=%s AND game_id = ANY(%s)", (self.id, gone))
            self.owned.difference_update(gone)
        now = time.time()
        for gid, room in list(server.rooms.items()):   # replicas that nobody here watches any more
            if gid not in self.owned and not room.conns and not room.attached and not room.busy() and \
                    now - room.last_active > DROP_AFTER_S:
                server.rooms.pop(gid, None)
        for gid in [g for g, (room, _) in self._waiting.items() if server.rooms.get(g) is not room]:
            del self._waiting[gid]   # that replica left memory: the next one asks the owner again
        followed = [g for g in server.rooms if g not in self.owned]
        if followed:
            new = await self._acquire(followed)
            if new:
                self._spawn(self._took_over(new))
        cur = await self.db.execute(
            "SELECT id FROM games g WHERE finished=0 AND archived=0 AND parked=0 AND created < %s AND NOT EXISTS "
            "(SELECT 1 FROM leases l WHERE l.game_id=g.id AND l.expires_at > now()) ORDER BY random() LIMIT %s",
            (time.time() - CREATE_GRACE_S, ORPHANS_PER_TICK))
        orphans = [str(r[0]) for r in await cur.fetchall() if str(r[0]) not in server.rooms]
        for gid in await self._acquire(orphans):
            self._catching.discard(gid)   # loaded from the store below: up to date
            loaded: Room | None
            try:
                loaded = server.room(gid)
            except LobbyError:
                loaded = None
            except Exception:   # noqa: BLE001 - logged; one bad game must not stop the others
                game_log(gid).exception("cluster: could not load game %s", gid)
                loaded = None
            if loaded is None:
                self.owned.discard(gid)
                await self.db.execute("DELETE FROM leases WHERE owner=%s AND game_id=%s", (self.id, gid))
                continue
            self.takeovers += 1
            game_log(gid).info("cluster: took game %s over (its owner's lease expired)", gid)
            server.bot_turns.kick(loaded)
        followed = [g for g in server.rooms if g not in self.owned]
        if followed:   # a notification lost (the listener reconnecting): catch up anyway
            cur = await self.db.execute("SELECT game_id, MAX(n) + 1 FROM actions WHERE game_id = ANY(%s) "
                                        "GROUP BY game_id", (followed,))
            for gid, count in await cur.fetchall():
                behind = server.rooms.get(str(gid))
                if behind is not None and int(count) > len(behind.game.actions):
                    self._spawn(self._catch_up(str(gid)))

    # ------------------------------------------------------------------ notifications
    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._jobs.add(task)
        task.add_done_callback(self._jobs.discard)

    def _notify(self, channel: str, payload: str) -> None:
        self._outbox.append((channel, payload))
        self._outbox_ready.set()

    async def _send_loop(self) -> None:
        """Send the queued notifications in order, each batch in one statement."""
        while True:
            await self._outbox_ready.wait()
            self._outbox_ready.clear()
            batch, self._outbox = self._outbox, []
            while batch:
                part, batch = batch[:50], batch[50:]
                sql = "SELECT " + ", ".join("pg_notify(%s, %s)" for _ in part)
                args = [x for pair in part for x in pair]
                try:
                    db = self.notify_db or self.db
                    assert db is not None
                    await db.execute(sql, args)
                except psycopg.Error as exc:   # followers catch up at the next tick
                    log.warning("cluster: %d notifications not sent: %s", len(part), exc)
                    if self.notify_db is not None and (self.notify_db.closed or self.notify_db.broken):
                        try:
                            self.notify_db = await self._connect()
                        except psycopg.Error:
                            pass

    async def _listen(self) -> None:
        """Listen on ``cg_games`` and this process's own channel (reconnecting when cut off)."""
        while True:
            try:
                conn = await self._connect()
                try:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    await conn.execute(f'LISTEN "{self.channel}"')
                    self._listening.set()
                    async for n in conn.notifies():
                        try:
                            self._dispatch(n.channel, n.payload)
                        except Exception:   # noqa: BLE001 - logged; keep listening
                            log.exception("cluster: notification %r failed", n.payload[:200])
                finally:
                    await conn.close()
            except psycopg.Error as exc:
                self._listening.clear()
                log.warning("cluster: listening failed, again in 1 s: %s", exc)
                await asyncio.sleep(1.0)


    def stored(self, room: Room) -> None:
        """Hook (``Commits``): an action of ``room`` is committed: tell the followers."""
        self._notify(CHANNEL, f"a {room.game_id} {len(room.game.actions)} {self.id}")

    def _refresh_seats(self, game_id: str) -> None:
        """A seat was claimed elsewhere: this process's copy of the game's seats from the store."""
        room = self.server.rooms.get(game_id)
        row = self.server.store.game(game_id) if room is not None else None
        if room is None or row is None:
            return
        for mine, stored in zip(room.seats, row.seats):
            mine.token_hash, mine.claimed, mine.name = stored.token_hash, stored.claimed, stored.name

    # ------------------------------------------------------------------ following
    async def _catch_up(self, game_id: str, wait: bool = True, force: bool = False) -> None:
        """Apply the stored actions this process's copy of ``game_id`` lacks, sending its connections
        their updates (an action forwarded from here: the actor's is its acknowledgement). ``wait``:
        first let the answers of messages forwarded from here arrive (they say which action is whose).
        ``force``: also a game this process owns (just taken over: its copy may be behind)."""
        deadline = time.monotonic() + FORWARD_TIMEOUT_S
        while wait and self._inflight.get(game_id) and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
        if self.owns(game_id) and not force:   # the owner's copy is the newest there is
            return
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            room = self.server.rooms.get(game_id)
            if room is None or room.busy() or self.db is None:
                return
            have = len(room.game.actions)
            cur = await self.db.execute("SELECT n, action FROM actions WHERE game_id=%s AND n >= %s ORDER BY n",
                                        (game_id, have))
            rows = await cur.fetchall()
            if self.server.rooms.get(game_id) is not room or room.busy() or len(room.game.actions) != have:
                return
            try:
                for n, text in rows:
                    if int(n) != len(room.game.actions):
                        break
                    data = json.loads(text)
                    events = room.game.apply(action_from_json(data))
                    room.sync_cache.clear()
                    room.last_active = time.time()
                    actor, ref = self._acks.pop((game_id, int(n) + 1), (None, None))
                    self.server.updates.broadcast(room, events, int(data.get("seat", -1)), actor, ref)
            except Exception:   # noqa: BLE001 - a replica that no longer agrees: load it again
                game_log(game_id).exception("cluster: following game %s failed; reloading it", game_id)
                self.server.registry.reload(room)
                for c in list(room.conns):
                    self.server.updates.sync(c, room, None, "reloaded", None)
            if self.owns(game_id):
                self.server.bot_turns.kick(room)


    # ------------------------------------------------------------------ what the cluster adds
    def _dispatch(self, channel: str, payload: str) -> None:
        """A notification heard on ``channel`` (the cluster's answer to it: ``Cluster._dispatch``)."""
        raise NotImplementedError


def shared_limits(limits: Limits, workers: int) -> Limits:
    """This process's share of the per-process limits when ``workers`` processes serve together:
    the per-address HTTP request rate and burst, WebSocket connections per address and in total,
    and a game's connections (each seat's links, its spectators), which a process counts among
    its own connections only."""
    if workers <= 1:
        return limits

    def share(cap: int) -> int:
        return max(1, math.ceil(cap / workers))
    return dataclasses.replace(limits, http_rate=limits.http_rate / workers, http_burst=share(limits.http_burst),
                               conns_per_address=share(limits.conns_per_address), conns_total=share(limits.conns_total),
                               conns_per_seat=share(limits.conns_per_seat), conns_per_game=share(limits.conns_per_game))
