"""Several server processes on one PostgreSQL database: game leases, forwarding, updates everywhere.

``serve --workers N`` (N uvicorn worker processes on one port) and ``serve --cluster`` (one process
that shares its database with others, on this host or elsewhere) run :class:`Cluster` beside the
:class:`~christianity_game.server.core.GameServer` of each process. The design (docs/decisions.md,
"Several workers on one PostgreSQL database"):

* **One owner per live game: a lease row.** ``leases(game_id, owner, expires_at)`` (migration 3);
  the owner renews all its leases in one statement every :data:`TICK_S` seconds, for
  :data:`LEASE_S` seconds at a time, with the database's clock (``now()``), so hosts' clocks do not
  matter. Only the owner applies actions, runs the game's bots and writes its rows. A lease that
  was not renewed (its owner was killed, or cut off from the database) is taken over by the next
  process that needs the game or finds it orphaned: within about ``LEASE_S + TICK_S`` seconds.
  A stale owner that still writes cannot fork a game: an action row is keyed by (game, number),
  so its INSERT fails and its game is reloaded from the store (server/commits.py).
* **Everyone else follows.** A process with a connection to a game it does not own keeps a
  replica of it (the engine is deterministic: the stored actions, replayed, give the same state).
  The owner announces each committed action on the channel ``cg_games`` (``a GAME COUNT SENDER``,
  a few bytes: far from NOTIFY's 8,000-byte limit); a follower then reads the new action rows
  from the store, applies them and sends its own connections their updates, each view built
  there. A lost notification is made up for at the next tick (each follower's action count is
  compared with the store's).
* **Actions are forwarded to the owner** (``NOTIFY`` on the owner's own channel ``cg_w_ID``, with
  the reply on the asker's): the client's message as it came, with the identity its connection
  joined as. The owner handles it exactly as one of its own connections' (the same checks, the same
  queue behind a commit) through a :class:`ProxyConn`, and answers what that connection was sent:
  errors as they are, the acknowledgement as the action number it acknowledged, which the follower
  turns into the ``update`` with ``ack: true`` when it applies that action. A lobby join
  (``POST /api/games/{id}/join``) is forwarded the same way. When the lease is free, the asker
  takes the game over instead (catching up from the store first) and handles it itself.
* **Adjustment requests are the owner's** (``manualAdjust: ask``): it relays each request and
  outcome on ``cg_games`` (``m GAME SENDER COUNT TEXT``) to the other processes' connections. A
  process that follows the game keeps the requests still waiting, asked of the owner when its
  replica first gets a connection and kept up to date by the relays, so that a connection joining
  there gets them after its welcome, as on the owner.
* **Rate limits across processes.** Game creation per address is counted in the database (the
  games an address created within ``create_burst / create_rate`` seconds, at most
  ``create_burst``); live-game quotas were already counts of the database. The per-address HTTP
  request rate and the WebSocket connection caps (per address, in total, per seat and a game's
  spectators) are shared: each
  process enforces its share, the limit divided by the live processes (``workers`` rows, renewed
  with the leases), so together they hold the limit.
"""

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
from .conn import Conn, dumps
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


class ProxyConn(Conn):
    """The owner's stand-in for a connection of another process, for one forwarded message: it
    joins the room while the message is handled, and keeps what the connection would have been
    sent (with the game's action count at that moment) for the answer."""

    __slots__ = ("texts", "closed_with", "game_room")

    def __init__(self, limits: Limits, room: Room, role: str | None, seat: int | None, thash: str | None) -> None:
        super().__init__(None, limits, "")
        self.role, self.seat, self.thash, self.room = role, seat, thash, room
        self.game_room = room
        self.texts: list[tuple[str, int]] = []
        self.closed_with: tuple[int, str] | None = None

    def send(self, text: str) -> None:
        if not self.closing and self.room is not None:
            self.texts.append((text, len(self.game_room.game.actions)))

    def close(self, code: int, reason: str, flush: bool = True) -> None:
        if not self.closing:
            self.closing = True
            self.closed_with = (code, reason)
            if self.room is not None:
                self.room.conns.discard(self)

    def stopped_reading(self, grace: float = 1.0) -> None:
        self.close(1013, "stopped reading: reconnect to resync")


class Cluster:
    """This process's part in a cluster of servers on one PostgreSQL database (see the module docstring)."""

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
            await asyncio.wait_for(self._listening.wait(), 10)
        except asyncio.TimeoutError:
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

    def _dispatch(self, channel: str, payload: str) -> None:
        if channel == CHANNEL:
            if payload.startswith("m "):   # a message to every connection of a game (see ``relay``)
                _, gid, sender, count, text = payload.split(" ", 4)
                if sender != self.id and gid in self.server.rooms:
                    self._note_waiting(gid, int(count), text)
                    self._spawn(self._relayed(gid, int(count), text))
                return
            bits = payload.split()
            if len(bits) >= 3 and bits[-1] != self.id and bits[1] in self.server.rooms:
                if bits[0] == "a" and bits[1] not in self.owned:
                    self._spawn(self._catch_up(bits[1]))
                elif bits[0] == "s":
                    self._refresh_seats(bits[1])
            return
        msg = json.loads(payload)
        op = msg.get("op")
        if op == "reply":
            if "waiting" in msg:   # taken now, in the order of the owner's notifications (see ``_ask_waiting``)
                self._known_waiting(str(msg.get("game")), msg["waiting"])
            fut = self._pending.pop(int(msg["id"]), None)
            if fut is not None and not fut.done():
                fut.set_result(msg)
        elif op == "msg":
            self._serve_message(msg)
        elif op == "join":
            self._serve_join(msg)
        elif op == "waiting":
            self._serve_waiting(msg)

    def relay(self, room: Room, text: str) -> None:
        """Hook (``Adjustments.request``, ``resolve``): a message of ``room`` to every connection,
        sent by the owner to its own: the other processes send it to theirs once their copies reached
        the action count it was sent at (``m GAME SENDER COUNT TEXT``)."""
        if len(text) <= MAX_FORWARD_BYTES:
            self._notify(CHANNEL, f"m {room.game_id} {self.id} {len(room.game.actions)} {text}")

    async def _relayed(self, game_id: str, count: int, text: str) -> None:
        """A relayed message, to this process's connections of the game after the updates before it."""
        room = self.server.rooms.get(game_id)
        if room is not None and len(room.game.actions) < count:
            await self._catch_up(game_id)
        async with self._locks.setdefault(game_id, asyncio.Lock()):   # after a catch-up under way
            room = self.server.rooms.get(game_id)
            for c in list(room.conns) if room is not None else []:
                c.send(text)

    # ------------------------------------------------------------------ adjustment requests held elsewhere
    def _note_waiting(self, game_id: str, count: int, text: str) -> None:
        """A relayed message of ``game_id``: a request made or resolved on its owner, kept (or let go)
        for this process's next welcome. Only for a replica whose requests are known (the owner was
        asked, see ``_ask_waiting``): one that joined the relays late would miss the earlier ones."""
        known = self._waiting.get(game_id)
        if known is None or known[0] is not self.server.rooms.get(game_id):
            return
        try:
            msg = json.loads(text)
            kind, rid = msg.get("type"), int(msg["request"])
        except (ValueError, KeyError, TypeError):
            return
        if kind == "adjust_request":
            known[1][rid] = (count, text)
        elif kind == "adjust_resolved":
            known[1].pop(rid, None)

    def _known_waiting(self, game_id: str, texts: Any) -> None:
        """The owner's answer to ``_ask_waiting``: the requests waiting there, for this replica."""
        room = self.server.rooms.get(game_id)
        if room is None or not isinstance(texts, list):
            return
        waiting: dict[int, tuple[int, str]] = {}
        for text in texts:
            try:
                waiting[int(json.loads(text)["request"])] = (0, str(text))
            except (ValueError, KeyError, TypeError):
                continue
        self._waiting[game_id] = (room, waiting)

    async def _ask_waiting(self, game_id: str) -> None:
        """Before a connection joins a game another process owns (``ready``): learn the adjustment
        requests waiting on the owner, once per replica (the relays keep them up to date from then
        on). The answer comes on this process's channel after every relay the owner sent before it
        and before every one after, and is taken in that order (``_dispatch``): nothing is missed
        or counted twice. No answer: the joiner sees only the outcome (``adjust_resolved``)."""
        room = self.server.rooms.get(game_id)
        if room is None or room.manual_adjust != "ask" or self.owns(game_id):
            return
        known = self._waiting.get(game_id)
        if known is not None and known[0] is room:
            return
        try:
            owner = await self._owner_of(game_id)
        except psycopg.Error as exc:
            game_log(game_id).warning("cluster: could not ask who runs game %s for its waiting requests: %s",
                                      game_id, exc)
            return
        if owner is not None and owner != self.id:
            await self._request(owner, {"op": "waiting", "game": game_id}, timeout=1.0)

    def welcomed(self, conn: Conn, room: Room) -> None:
        """Hook (``Handlers`` joining a connection, after its welcome): on a game another process owns, the adjustment
        requests waiting there, as the owner sends its own after a welcome. One made at an action
        this copy has not applied yet reaches the connection with that action (``_relayed``)."""
        known = self._waiting.get(room.game_id)
        if known is None or known[0] is not room or self.owns(room.game_id):
            return
        have = len(room.game.actions)
        for count, text in list(known[1].values()):
            if count <= have:
                msg = json.loads(text)
                msg.update(state_id=room.game.state_id, ref=None)
                conn.send(dumps(msg))

    def _serve_waiting(self, msg: dict[str, Any]) -> None:
        """The owner's side of ``_ask_waiting``: the game's waiting requests, as a welcome follows them."""
        gid = str(msg.get("game"))
        if not self.owns(gid):
            self._answer(msg, {"moved": True})
            return
        room = self.server.rooms.get(gid)
        texts = [] if room is None else [self.server.adjust.request_text(room, req, None) for req in room.requests.values()]
        while texts and len(json.dumps(texts)) > MAX_FORWARD_BYTES:   # (one a seat: a few hundred bytes each)
            texts.pop()
        self._answer(msg, {"game": gid, "waiting": texts})

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

    # ------------------------------------------------------------------ forwarding: the asking side
    async def ready(self, game_id: str) -> None:
        """Hook (the WebSocket endpoint, before a connection joins): own ``game_id`` if its lease is
        free, else bring this process's copy up to what is stored (a client reconnecting from a
        worker that died has seen every state the store holds, and no more) and learn the adjustment
        requests waiting on the owner (``_ask_waiting``)."""
        if not await self.adopt(game_id):
            await self._catch_up(game_id, wait=False)
            await self._ask_waiting(game_id)   # the adjustment requests its welcome will carry

    def intercept(self, conn: Conn, room: Room, text: str | bytes, msg: Any) -> bool:
        """Hook (``Handlers.handle``), for a game another process owns: a seat's action or answer is
        forwarded to the owner; a hello or sync naming a state this copy has not reached yet is
        handled once it has caught up. True if the message was taken (the handlers then do nothing more)."""
        from . import protocol as P
        if room.game_id in self._catching:   # just taken over here: handled once its copy caught up
            self._spawn(self._handle_later(conn, room, text))
            return True
        if isinstance(msg, (P.ActionMessage, P.AdjustAnswer)):
            self.forward(conn, room, text, msg.ref, getattr(msg, "state_id", None))
            return True
        state_id = getattr(msg, "state_id", None)
        if isinstance(msg, (P.Hello, P.SyncRequest)) and state_id is not None and state_id > room.game.state_id:
            self._spawn(self._handle_later(conn, room, text))
            return True
        return False

    async def _handle_later(self, conn: Conn, room: Room, text: str | bytes) -> None:
        deadline = time.monotonic() + FORWARD_TIMEOUT_S
        while room.game_id in self._catching and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
        await self._catch_up(room.game_id, wait=False)
        room = self.server.rooms.get(room.game_id, room)
        if not conn.closing:
            room.when_settled(self.server.handlers.handle, conn, room, text)

    def forward(self, conn: Conn, room: Room, text: str | bytes, ref: Any, state_id: int | None) -> None:
        """A seat's message for a game another process owns goes to it (see ``intercept``)."""
        if len(text) > MAX_FORWARD_BYTES:
            conn.error("too_large", f"a message for a game another worker runs is capped at {MAX_FORWARD_BYTES} "
                                    "bytes", ref)
            return
        self._inflight[room.game_id] += 1
        self._spawn(self._forward(conn, room, text if isinstance(text, str) else text.decode("utf-8", "replace"),
                                  ref, state_id))

    async def _request(self, owner: str, msg: dict[str, Any],
                       timeout: float = FORWARD_TIMEOUT_S) -> dict[str, Any] | None:
        """Send ``msg`` to ``owner``'s channel; its answer, or None when none came within ``timeout``."""
        rid = next(self._ids)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[rid] = fut
        self._notify(f"cg_w_{owner}", json.dumps({**msg, "id": rid, "reply": self.id}))
        try:
            return await asyncio.wait_for(fut, timeout)
        except asyncio.TimeoutError:
            return None
        finally:
            self._pending.pop(rid, None)

    async def _forward(self, conn: Conn, room: Room, text: str, ref: Any, state_id: int | None) -> None:
        gid = room.game_id
        answer: dict[str, Any] | None = None
        local = False
        deadline = time.monotonic() + FORWARD_TIMEOUT_S + self.lease_s
        try:
            # the owner, asked again each second: one that does not answer may have died, and its
            # lease (expiring within LEASE_S) is then taken over here
            while answer is None and not local and time.monotonic() < deadline and not conn.closing:
                owner: str | None
                known = self._owners.get(gid)
                if known is not None and time.monotonic() - known[1] < self.lease_s:
                    owner = known[0]
                else:
                    owner = await self._owner_of(gid)
                    if owner is not None:
                        self._owners[gid] = (owner, time.monotonic())
                if owner is None or owner == self.id:
                    local = await self.adopt(gid)
                    if not local:
                        await asyncio.sleep(0.05)
                    continue
                answer = await self._request(owner, {"op": "msg", "game": gid, "role": conn.role, "seat": conn.seat,
                                                     "thash": conn.thash, "text": text}, timeout=1.0)
                if answer is None or answer.get("moved"):   # ask the database again who runs it
                    self._owners.pop(gid, None)
                    answer = None
            for item in (answer or {}).get("items", ()):
                if "ack" in item:
                    self._acks[(gid, int(item["ack"]))] = (conn, ref)
        except psycopg.Error as exc:
            conn.error("storage_error", f"the database could not be asked who runs this game ({exc}); try again",
                       ref)
            return
        finally:
            self._inflight[gid] -= 1
            if self._inflight[gid] <= 0:
                del self._inflight[gid]
        room = self.server.rooms.get(gid, room)
        if local:   # this process owns the game now: handle the message as its own
            # the message passed the size and rate checks here already
            room.when_settled(self.server.handlers.handle, conn, room, text)
            return
        if answer is None:
            conn.error("storage_error", "the worker running this game did not answer in time (it may have "
                                        "stopped: another takes the game over within seconds); try again", ref)
            return
        await self._catch_up(gid)
        for item in answer.get("items", ()):
            if "text" in item:
                conn.send(str(item["text"]))
            elif "sync" in item:   # since what this connection was sent just now (the updates above)
                self.server.updates.sync(conn, room, room.game.state_id, "stale_state", ref)
            elif "close" in item:
                conn.close(int(item["close"][0]), str(item["close"][1]))
        for key in [k for k, v in self._acks.items() if v[0] is conn and k[0] == gid and
                    k[1] <= len(room.game.actions)]:
            self._acks.pop(key, None)   # applied before the answer came: nothing more to say

    async def join(self, game_id: str, seat: int | None, name: str | None, base_url: str) -> dict[str, Any]:
        """Hook (the lobby's join): join on the owner of ``game_id`` (here, when this process owns it
        or its lease is free)."""
        if self.server.room(game_id) is None:
            raise LobbyError(404, "no_such_game", f"there is no game {game_id!r}")
        owner = None if await self.adopt(game_id) else await self._owner_of(game_id)
        if owner is None or owner == self.id:
            self._refresh_seats(game_id)   # a seat claimed through its link on another process counts
            out = self.server.lobby.join(game_id, seat, name, base_url)
            self._notify(CHANNEL, f"s {game_id} {self.id}")
            return out
        answer = await self._request(owner, {"op": "join", "game": game_id, "seat": seat, "name": name,
                                             "base": base_url})
        if answer is None:
            raise LobbyError(503, "storage_error", "the worker running this game did not answer in time; try again")
        if "error" in answer:
            status, code, message = answer["error"]
            raise LobbyError(int(status), str(code), str(message))
        self._refresh_seats(game_id)
        return dict(answer["ok"])

    async def check_create_rate(self, owner: str) -> None:
        """Hook (the lobby's create): the creation rate of one address across every process, counted
        in the database: at most ``create_burst`` games in ``create_burst / create_rate`` seconds."""
        lim = self.base_limits
        if lim.create_rate <= 0 or self.db is None:
            return
        window = lim.create_burst / lim.create_rate
        cur = await self.db.execute("SELECT COUNT(*) FROM games WHERE owner=%s AND created > %s",
                                    (owner, time.time() - window))
        row = await cur.fetchone()
        if row is not None and int(row[0]) >= lim.create_burst:
            raise LobbyError(429, "create_rate_limited", f"at most {lim.create_rate:g} new games a second from one "
                                                         f"address (bursts of {lim.create_burst}); try again later")

    # ------------------------------------------------------------------ forwarding: the owner's side
    def _answer(self, msg: dict[str, Any], body: dict[str, Any]) -> None:
        self._notify(f"cg_w_{msg['reply']}", json.dumps({"op": "reply", "id": msg["id"], **body}))

    def _serve_message(self, msg: dict[str, Any]) -> None:
        """A message forwarded by another process: handled as one of this process's connections' would be."""
        gid = str(msg.get("game"))
        room = self.server.rooms.get(gid)
        if room is None and self.owns(gid):   # left memory while its lease is still held: load it again
            try:
                room = self.server.room(gid)
            except LobbyError:
                room = None
        if room is None or not self.owns(gid):   # the asker looks the owner up again
            self._answer(msg, {"moved": True})
            return
        proxy = ProxyConn(self.server.limits, room, msg.get("role"), msg.get("seat"), msg.get("thash"))
        room.conns.add(proxy)
        self.server.handlers.on_message(proxy, room, str(msg.get("text", "")))
        room.when_settled(self._reply, proxy, msg)

    def _reply(self, proxy: ProxyConn, msg: dict[str, Any]) -> None:
        room = proxy.room
        if room is not None:
            room.conns.discard(proxy)
        items: list[dict[str, Any]] = []
        size = 0
        for text, count in proxy.texts:
            start = text[:240]
            if start.startswith('{"type":"update"'):
                if '"ack":true' in start:
                    items.append({"ack": count})
            elif start.startswith('{"type":"sync"'):
                items.append({"sync": True})
            elif start.startswith(('{"type":"adjust_request"', '{"type":"adjust_resolved"')):
                pass   # relayed to every connection of the other processes (``relay``)
            elif size + len(text) < 6000:
                items.append({"text": text})
                size += len(text)
        if proxy.closed_with is not None:
            items.append({"close": list(proxy.closed_with)})
        self._answer(msg, {"items": items})

    def _serve_join(self, msg: dict[str, Any]) -> None:
        gid = str(msg.get("game"))
        if not self.owns(gid):
            self._answer(msg, {"error": [503, "storage_error", "the game moved to another worker; try again"]})
            return
        try:
            self._refresh_seats(gid)   # a seat claimed through its link on another process counts
            out = self.server.lobby.join(gid, msg.get("seat"), msg.get("name"), str(msg.get("base", "")))
        except LobbyError as exc:
            self._answer(msg, {"error": [exc.status, exc.code, exc.message]})
            return
        self._notify(CHANNEL, f"s {gid} {self.id}")
        self._answer(msg, {"ok": out})


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
