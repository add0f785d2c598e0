"""The storage a game server runs on (:class:`Storage`): the store opened (:func:`open_store`) and
checked, the writer thread that commits actions (server/writer.py), the games that cannot be
served, a game loaded by replaying its record, and the checks at each sweep.

Damage is loud and local: a game whose rows cannot be read, that lost acknowledged actions, or whose
record no longer replays is marked unavailable (``broken``: 503 ``game_unavailable``) while the
others keep working; a game stored under rules this engine no longer (or not yet) plays is kept and
listed as such (``not_resumable``: 410 ``game_not_resumable``), its record still served. Every alarm
is logged at ERROR with ``STORAGE:`` in front and listed in ``/healthz`` (``problems``).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from pathlib import Path
from typing import Any

from ..engine import versions
from ..engine.game import Game
from ..engine.record import RecordError, UnsupportedRules, check_record
from .errors import LobbyError
from .logs import game_log
from .room import Room
from .store import DATABASE_ERRORS, GameRow, GameStore, StoreError, is_postgres, sqlite_location
from .store_sqlite import SqliteStore
from .writer import StoreWriter, locked

log = logging.getLogger("christianity_game.server")


def open_store(database: str | None, data_dir: str | Path, synchronous: str = "NORMAL",
               check: bool = True, shared: bool = False) -> GameStore:
    """The store ``database`` names: a PostgreSQL URL opens
    :class:`~christianity_game.server.store_pg.PostgresStore`; nothing, a path or ``sqlite:///path``
    opens :class:`~christianity_game.server.store_sqlite.SqliteStore` (in ``data_dir`` when nothing
    is named).
    ``shared``: this server is one of several on the database (server/cluster.py; PostgreSQL only)."""
    if is_postgres(database):
        from .store_pg import PostgresStore
        return PostgresStore(str(database), check=check, shared=shared)
    if shared:
        raise StoreError("several servers on one database (serve --workers N, --cluster) need PostgreSQL "
                         "(--database postgresql://...): a SQLite file is one server's")
    folder, name = sqlite_location(database, data_dir)
    return SqliteStore(folder, synchronous, check, db_name=name)


class Storage:
    """All games of one data folder, or of the database ``database`` names (server/store.py: a
    PostgreSQL URL, or a SQLite file; none: the SQLite file of ``data_dir``). ``shared``: one of
    several servers on a PostgreSQL database (server/cluster.py)."""

    def __init__(self, database: str | None, data_dir: str | Path, synchronous: str = "NORMAL",
                 shared: bool = False) -> None:
        store: GameStore = open_store(database, Path(data_dir), synchronous, shared=shared)
        self.broken: dict[str, str] = {}
        if store.problems:   # a failed integrity check: find the games whose rows are damaged
            for gid, why in store.damaged_games().items():
                game_log(gid).error("STORAGE: %s; it is marked unavailable", why)
                self.broken[gid] = why
        for gid, why in store.check_manifest().items():   # the manifest beside the database
            self.broken[gid] = why
        store.write_manifest()
        self.problems: list[str] = list(store.problems)
        # Actions are committed by a writer thread, in groups (server/writer.py); from here on the
        # loop's own store calls take the same lock, so the two never share the connection at once.
        store_lock = threading.RLock()
        self.writer = StoreWriter(store, store_lock)
        self.store: GameStore = locked(store, store_lock)
        # games stored under rules this engine no longer (or not yet) plays: kept, listed as such,
        # their records still served; game id -> why, naming both rules versions
        self.not_resumable: dict[str, str] = {}
        self.digest_key = self.store.secret("digest_key")
        self._checkpointing = False
        self.closing = False

    def load(self, game_id: str) -> Room | None:
        """``game_id`` replayed from the store (None: there is no such game); a game that cannot be
        served raises :class:`LobbyError` (503 ``game_unavailable``, 410 ``game_not_resumable``),
        logged with its reason."""
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
        return Room(game_id, game, row)

    def sort_resumable(self, row: GameRow) -> None:
        """Note a stored game played under rules this engine does not play (from its record's head,
        without replaying it), so that it is listed as such even before anyone opens it."""
        if row.id in self.not_resumable:
            return
        try:
            check_record({**row.head, "actions": []})
        except UnsupportedRules as exc:
            self.not_resumable[row.id] = (f"game {row.id} cannot be resumed after the upgrade to rules version "
                                          f"{versions.RULES_VERSION}: {exc}; its record can still be downloaded")
        except RecordError:
            pass   # reported when the game is opened

    def check(self, rooms: dict[str, Room]) -> None:
        """At each sweep: a write-ahead log deleted while the server runs is noticed (and
        what it held saved), and the database is checked against its manifest, the games in memory
        (``rooms``) with the actions they hold: a game that lost acknowledged rows is made
        unavailable (it leaves ``rooms``, its connections are closed). Then the manifest is written.
        Whatever is found is logged at ERROR and listed in ``/healthz``."""
        seen = len(self.store.problems)
        try:
            self.store.check_wal()
            # an action being committed is not acknowledged yet: the store may not hold it
            live = {gid: room.game.action_count - int(room.writing) for gid, room in rooms.items()}
            for gid, why in self.store.check_manifest(live).items():
                self.broken[gid] = why
                room = rooms.pop(gid, None)
                for conn in list(room.conns) if room is not None else []:
                    conn.error("game_unavailable", why)
                    conn.close(1011, "game_unavailable")
            self.store.write_manifest()
        except DATABASE_ERRORS + (OSError,) as exc:
            log.error("STORAGE: the store could not be checked against its manifest: %s", exc)
        self.problems.extend(self.store.problems[seen:])

    def checkpoint_soon(self) -> None:
        """Copy the WAL into the database file on a worker thread (the loop never waits on its
        fsync); at most one at a time."""
        if self._checkpointing or self.closing:
            return
        self._checkpointing = True

        def done(_: Any) -> None:
            self._checkpointing = False
        asyncio.get_running_loop().run_in_executor(None, self.store.checkpoint_elsewhere).add_done_callback(done)

    def close(self) -> None:
        """Stop the writer thread (once what it holds is committed) and close the store."""
        self.writer.stop()
        self.store.close()
