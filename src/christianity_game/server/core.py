"""The authoritative game server (:class:`GameServer`): the parts below, wired together.

Everything runs on the event loop's thread, except the commits: an accepted action goes to a writer
thread (server/writer.py, group commit), and its updates and acknowledgement go out once it is
durable. The parts, each in its module:

* connections and what they are sent: ``conn.py`` (one WebSocket connection, its queue and sender
  task; JSON encoded once), ``updates.py`` (welcome, sync, the update of each action);
* games in memory: ``room.py`` (one game: seats, tokens, connections, bots, the work that waits for
  its commit), ``rooms.py`` (loading, reloading, leaving memory when idle or abandoned);
* the protocol: ``handlers.py`` (the checks every message meets, then a table of one handler per
  message type), ``adjust.py`` (manual adjustment by request), ``lobby.py`` (the HTTP API's games);
* bots in seats: ``bot_turns.py`` (one scheduler, bots' thinking shared fairly, search bots off the
  loop);
* storage and recovery: ``storage.py`` (the store opened and checked, a game replayed from its
  record, the sweep's checks), ``commits.py`` (the writer hand-off), ``claims.py`` (clients'
  claims of states the server does not hold);
* limits: ``limits.py`` (the caps and the token buckets), ``quotas.py`` (the caps enforced), and
  ``health.py`` (the loop's lag and the garbage collector's pauses and policy).

Several processes on one PostgreSQL database add server/cluster.py through the hooks of
``peers.py``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from .adjust import Adjustments
from .bot_turns import BotTurns
from .claims import StateClaims
from .commits import Commits
from .conn import Conn
from .handlers import Handlers
from .health import LoopHealth
from .limits import Limits
from .lobby import Lobby
from .peers import Peers
from .quotas import Quotas
from .room import Room
from .rooms import Rooms
from .storage import Storage
from .store import GameStore
from .updates import Updates


class GameServer:
    """All games of one data folder, or of the database ``database`` names (server/store.py:
    a PostgreSQL URL, or a SQLite file; none: the SQLite file of ``data_dir``).

    ``bot_delay``: seconds before each bot move; ``limits``: the caps (server/limits.py);
    ``synchronous``: SQLite's mode; ``freeze_gc``: the process is the server's own (the garbage
    collector's policy, server/health.py); ``allow_chosen_seeds``: a creator's seed even in a duel
    between people; ``default_variants``: a new duel's play-test variants unless it names its own;
    ``cluster``: one of several servers on a PostgreSQL database (the app then sets ``cluster``)."""

    def __init__(self, data_dir: str | Path, bot_delay: float = 0.3, limits: Limits | None = None,
                 synchronous: str = "NORMAL", freeze_gc: bool = False, allow_chosen_seeds: bool = False,
                 default_variants: str = "", database: str | None = None, cluster: bool = False) -> None:
        self.data_dir = Path(data_dir)
        self.default_variants = default_variants   # serve --variants: a new duel's variants unless it names its own
        self._limits = limits or Limits()
        self._cluster: Peers | None = None
        self.storage = Storage(database, self.data_dir, synchronous, shared=cluster)
        self.health = LoopHealth(freeze_gc)
        self.claims = StateClaims(self.storage.problems)
        self.registry = Rooms(self.storage, self._limits)
        self.quotas = Quotas(self._limits, self.storage.store, self.storage.digest_key)
        self.updates = Updates(self.claims)
        self.commits = Commits(self.storage.writer, self.registry, self.updates)
        self.adjust = Adjustments(self.commits)
        self.bot_turns = BotTurns(self.registry.rooms, self.commits, bot_delay, self._limits.bot_share)
        # after each durable action, in this order: requests a finished game voids, then the bots
        self.commits.followers += [self.adjust.void_if_over, self.bot_turns.after_action]
        self.handlers = Handlers(self._limits, self.storage.store, self.claims, self.updates, self.commits, self.adjust)
        self.lobby = Lobby(self.registry, self.storage, self.quotas, self.bot_turns.kick, default_variants,
                           allow_chosen_seeds)
        self._loader: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ what the parts share
    @property
    def limits(self) -> Limits:
        """The caps every part enforces (server/limits.py)."""
        return self._limits

    @limits.setter
    def limits(self, limits: Limits) -> None:
        """New caps for every part (a process of a cluster takes its share as processes come and go)."""
        self._limits = limits
        self.registry.limits = self.quotas.limits = self.handlers.limits = limits

    @property
    def cluster(self) -> Peers | None:
        """The other processes serving this database (server/cluster.py), or None."""
        return self._cluster

    @cluster.setter
    def cluster(self, cluster: Peers | None) -> None:
        self._cluster = cluster
        self.registry.peers = self.commits.peers = self.adjust.peers = cluster
        self.bot_turns.peers = self.handlers.peers = cluster

    @property
    def rooms(self) -> dict[str, Room]:
        """The games in memory, by id."""
        return self.registry.rooms

    @property
    def store(self) -> GameStore:
        """The store, as the event loop calls it (each call under the writer's lock)."""
        return self.storage.store

    @property
    def storage_problems(self) -> list[str]:
        """The storage's alarms, newest last (``/healthz``)."""
        return self.storage.problems

    @property
    def conns_total(self) -> int:
        """WebSocket connections open, counted against the connection caps."""
        return self.quotas.conns_total

    # ------------------------------------------------------------------ start and stop
    def start(self) -> None:
        """Start loading every unfinished game in the background (bots resume as each loads)."""
        loop = asyncio.get_running_loop()
        self._loader = loop.create_task(self.registry.load_all(self.bot_turns.kick, self.health.freeze))
        self.health.start()
        self._sweeper = loop.create_task(self.registry.sweep_forever())
        self.storage.writer.start(loop)
        self.bot_turns.start()

    async def stop(self) -> None:
        """Stop the background work, let the writer commit what it holds (its players hear so), then
        close every connection and the store."""
        self.storage.closing = self.registry.closing = self.bot_turns.closing = True
        tasks = [t for t in [self._loader, *self.health.stop(), self._sweeper, self.bot_turns.scheduler.task]
                 if t is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            try:
                await t
            except (asyncio.CancelledError, Exception):
                pass
        # what is being committed is committed, and its players hear so, before the connections close
        await self.storage.writer.drain()
        for room in self.rooms.values():
            for c in list(room.conns):
                c.close(1000, "server shutting down")
        self.storage.close()

    # ------------------------------------------------------------------ what the app and the tests call
    def room(self, game_id: str) -> Room | None:
        """The game in memory, loading (replaying) it from the store on first use."""
        return self.registry.get(game_id)

    def sweep(self, now: float | None = None) -> tuple[int, int]:
        """Evict idle games from memory and archive abandoned ones; (evicted, archived)."""
        return self.registry.sweep(now)

    def disconnected(self, conn: Conn, room: Room) -> None:
        """``conn`` closed: it leaves ``room`` and the connection counts; a finished game nobody
        is on leaves memory."""
        room.conns.discard(conn)
        self.quotas.release(conn)
        self.registry.maybe_evict(room)
