"""Storage: every game as its record, one row per accepted action; two stores behind one interface.

:class:`GameStore` is what the server needs of its storage, and this module holds what both stores
share: the rows, the errors, the queries asked in the same SQL (:class:`GameQueries`) and where a
store is (``serve --database``). ``storage.open_store`` opens the one it names: SQLite
(:class:`~christianity_game.server.store_sqlite.SqliteStore`: stdlib sqlite3, WAL, the embedded
default) or PostgreSQL (:class:`~christianity_game.server.store_pg.PostgresStore`, psycopg 3).
Both hold the same schema, built by the numbered migrations in ``server/migrations/`` (see
:mod:`christianity_game.server.migrate`), and behave the same: an action is committed (durable)
before the server acknowledges it.

A game is stored as the head of its record (everything ``Game.to_record()`` holds except the
actions: format, version, mode, line-up, seed, settings, decks, deck files, position) plus one row
per accepted action, appended and committed before the server acknowledges the action. Loading a
game is replaying its record. Seat tokens are stored only as SHA-256 hashes.

The server calls the store from its event-loop thread and, for actions, from its writer thread
(server/writer.py: it wraps SQLite appends in one transaction per group), one thread at a time
under one lock; each call outside such a group commits on its own. The SQLite store's own checks
(``quick_check``, the manifest, a vanished write-ahead log) are described in server/store_sqlite.py,
PostgreSQL's in server/store_pg.py.
"""

from __future__ import annotations

import json
import logging
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Protocol, Sequence

SCHEMA_VERSION = 3   # the newest migration (server/migrations/): both stores' folders end here
DB_NAME = "games.sqlite3"

log = logging.getLogger("christianity_game.server.store")


@dataclass(slots=True)
class SeatRow:
    seat: int
    kind: str
    bot: str | None
    token_hash: str | None
    claimed: bool
    name: str | None


@dataclass(slots=True)
class GameRow:
    id: str
    created: float
    head: dict[str, Any]
    options: dict[str, Any]
    spectator_hash: str
    finished: bool
    result: dict[str, Any] | None
    seats: list[SeatRow]


class StoreError(RuntimeError):
    """The data folder or database cannot be used (locked by another server, unreadable, newer schema)."""


class DatabaseError(Exception):
    """A database error of a store other than SQLite (PostgreSQL's, translated by its store): the
    server treats it as it treats ``sqlite3.DatabaseError`` (the game's rows cannot be read)."""


class StoreUnavailable(RuntimeError):
    """The database cannot be reached just now (PostgreSQL stopped, the connection lost, a query
    cancelled): the request fails (``storage_error``, 503) and nothing is marked damaged; the next
    call tries to reconnect."""


#: What the server catches as "the stored rows cannot be read" from either store.
DATABASE_ERRORS: tuple[type[Exception], ...] = (sqlite3.DatabaseError, DatabaseError)


class GameStore(Protocol):
    """What the server (server/storage.py and the parts it serves) needs of its storage;
    :class:`~christianity_game.server.store_sqlite.SqliteStore` and
    :class:`~christianity_game.server.store_pg.PostgresStore` provide it with the same meaning.

    Every write is committed when its call returns (the server acknowledges an action only after
    ``append_action`` returned). Problems found by the store's own checks are sentences in
    ``problems`` (also logged at ERROR); ``check_manifest`` returns the games found not to hold what
    was acknowledged (the server marks them unavailable)."""

    kind: str              # "sqlite" or "postgresql"
    problems: list[str]
    store_id: str

    def damaged_games(self) -> dict[str, str]: ...
    def check_manifest(self, live: dict[str, int] | None = None) -> dict[str, str]: ...
    def write_manifest(self) -> None: ...
    def check_wal(self) -> bool: ...
    def checkpoint_elsewhere(self) -> None: ...
    def backup(self, target: str | Path) -> Path: ...
    def close(self) -> None: ...
    def get_meta(self, key: str) -> str | None: ...
    def set_meta(self, key: str, value: str) -> None: ...
    def secret(self, key: str) -> bytes: ...
    def create_game(self, game_id: str, head: dict[str, Any], options: dict[str, Any], spectator_hash: str,
                    seats: list[SeatRow], owner: str | None = None) -> None: ...
    def append_action(self, game_id: str, n: int, action: dict[str, Any]) -> None: ...
    def finish(self, game_id: str, result: dict[str, Any]) -> None: ...
    def set_flags(self, game_id: str, *, parked: bool | None = None, archived: bool | None = None,
                  touched: float | None = None) -> None: ...
    def count_live(self, owner: str | None = None, bots_only: bool = False) -> int: ...
    def abandoned(self, before: float, limit: int = 500) -> list[str]: ...
    def claim(self, game_id: str, seat: int, token_hash: str | None = None, name: str | None = None) -> None: ...
    def game(self, game_id: str) -> GameRow | None: ...
    def games(self, finished: bool | None = None, resident: bool = False) -> Iterator[GameRow]: ...
    def open_games(self, limit: int = 100) -> list[GameRow]: ...
    def actions(self, game_id: str) -> list[dict[str, Any]]: ...


#: ``serve --database`` and ``create_app(database=...)`` default to this environment variable.
DATABASE_ENV = "CHRISTIANITY_GAME_DATABASE"


def is_postgres(database: str | None) -> bool:
    """Whether ``database`` names a PostgreSQL database (``postgresql://...`` or ``postgres://...``)."""
    return bool(database) and str(database).startswith(("postgresql://", "postgres://"))


def sqlite_location(database: str | None, data_dir: str | Path) -> tuple[Path, str]:
    """Where a SQLite store lives: (its folder, its file's name). No ``database``: ``data_dir`` and
    ``games.sqlite3``; a path or ``sqlite:///path`` names the file (``sqlite:///games.db`` relative,
    ``sqlite:////srv/games.db`` absolute, as SQLAlchemy reads them), an existing folder names the
    folder; the file's folder holds the manifest, the running mark and the lock."""
    if not database:
        return Path(data_dir), DB_NAME
    text = str(database)
    if text.startswith("sqlite://"):
        text = text[len("sqlite://"):]
        if not text.startswith("/"):
            raise StoreError(f"a SQLite database is sqlite:///PATH (three slashes, then the file), not {database!r}")
        text = text[1:]   # as SQLAlchemy reads it: sqlite:///relative/path, sqlite:////absolute/path
    elif "://" in text:
        raise StoreError(f"--database: {database!r} is neither a PostgreSQL URL (postgresql://...) nor a SQLite "
                         "file (a path or sqlite:///path)")
    path = Path(text)
    if path.is_dir():
        return path, DB_NAME
    return path.parent, path.name


class GameQueries:
    """The queries both stores ask in the same SQL (written with ``?``; a store whose driver takes
    ``%s`` sets :attr:`PLACEHOLDER`): one place for what a game, its seats and its actions are in
    the database. A store gives :meth:`_rows` (a query's rows) and :meth:`_exec` (a statement)."""

    PLACEHOLDER = "?"
    SELECT_GAME = "SELECT id, created, head, options, spectator_hash, finished, result FROM games"

    def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def _exec(self, sql: str, args: Sequence[Any] = ()) -> None:
        raise NotImplementedError

    #: store a meta value unless the key has one (another process may have stored it first)
    META_IF_ABSENT = "INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)"

    def _sql(self, sql: str) -> str:
        return sql if self.PLACEHOLDER == "?" else sql.replace("?", self.PLACEHOLDER)

    def get_meta(self, key: str) -> str | None:
        rows = self._rows(self._sql("SELECT value FROM meta WHERE key=?"), (key,))
        return None if not rows else str(rows[0][0])

    def meta_once(self, key: str, make: Callable[[], str]) -> str:
        """The meta value of ``key``, made by ``make`` and stored on first use; when several processes
        make one at once, the first stored is everyone's (the store's id, its secrets)."""
        value = self.get_meta(key)
        if value is None:
            self._exec(self._sql(self.META_IF_ABSENT), (key, make()))
            value = self.get_meta(key)
            assert value is not None, key
        return value

    def secret(self, key: str) -> bytes:
        """A random secret kept in the store (made on first use)."""
        return bytes.fromhex(self.meta_once(key, lambda: secrets.token_hex(32)))

    def finish(self, game_id: str, result: dict[str, Any]) -> None:
        self._exec(self._sql("UPDATE games SET finished=1, result=?, touched=? WHERE id=?"),
                   (json.dumps(result), time.time(), game_id))

    def set_flags(self, game_id: str, *, parked: bool | None = None, archived: bool | None = None,
                  touched: float | None = None) -> None:
        """Mark a game parked (evicted while waiting for a person) or archived (abandoned)."""
        sets: list[str] = []
        args: list[Any] = []
        for col, val in (("parked", parked), ("archived", archived)):
            if val is not None:
                sets.append(f"{col}=?")
                args.append(int(val))
        if touched is not None:
            sets.append("touched=?")
            args.append(touched)
        if sets:
            self._exec(self._sql(f"UPDATE games SET {', '.join(sets)} WHERE id=?"), (*args, game_id))

    def count_live(self, owner: str | None = None, bots_only: bool = False) -> int:
        """Unfinished, unarchived games (of one owner; only bots-only ones)."""
        sql = "SELECT COUNT(*) FROM games WHERE finished=0 AND archived=0"
        args: list[Any] = []
        if owner is not None:
            sql += " AND owner=?"
            args.append(owner)
        if bots_only:
            sql += " AND people=0"
        return int(self._rows(self._sql(sql), args)[0][0])

    def abandoned(self, before: float, limit: int = 500) -> list[str]:
        """Unfinished, unarchived games with a person's seat, untouched since ``before``."""
        rows = self._rows(self._sql("SELECT id FROM games WHERE finished=0 AND archived=0 AND people>0 AND "
                                    "COALESCE(touched, created) < ? LIMIT ?"), (before, limit))
        return [str(r[0]) for r in rows]

    def claim(self, game_id: str, seat: int, token_hash: str | None = None, name: str | None = None) -> None:
        if token_hash is None:
            self._exec(self._sql("UPDATE seats SET claimed=1 WHERE game_id=? AND seat=?"), (game_id, seat))
        else:
            self._exec(self._sql("UPDATE seats SET claimed=1, token_hash=?, name=COALESCE(?, name) "
                                 "WHERE game_id=? AND seat=?"), (token_hash, name, game_id, seat))

    def game(self, game_id: str) -> GameRow | None:
        rows = self._rows(self._sql(self.SELECT_GAME + " WHERE id=?"), (game_id,))
        return self._game_row(rows[0]) if rows else None

    def _game_row(self, row: tuple[Any, ...]) -> GameRow:
        seats = [SeatRow(s, k, b, h, bool(c), nm) for s, k, b, h, c, nm in self._rows(self._sql(
            "SELECT seat, kind, bot, token_hash, claimed, name FROM seats WHERE game_id=? ORDER BY seat"), (row[0],))]
        return GameRow(row[0], row[1], json.loads(row[2]), json.loads(row[3]), row[4], bool(row[5]),
                       None if row[6] is None else json.loads(row[6]), seats)

    def games(self, finished: bool | None = None, resident: bool = False) -> Iterator[GameRow]:
        """Games (finished or not); ``resident``: only those neither parked nor archived (what a
        starting server loads: games whose bots may have a move to make)."""
        sql = self.SELECT_GAME + " WHERE 1=1"
        args: list[Any] = []
        if finished is not None:
            sql += " AND finished=?"
            args.append(int(finished))
        if resident:
            sql += " AND parked=0 AND archived=0"
        for row in self._rows(self._sql(sql + " ORDER BY created"), args):
            yield self._game_row(row)

    def _listed(self, rows: list[tuple[Any, ...]], limit: int, unreadable: tuple[type[BaseException], ...]) -> list[GameRow]:
        """The lobby's open games among ``rows`` (newest first): listed, with an open, unclaimed human
        seat; a game whose rows cannot be read (``unreadable``) is left out and logged."""
        out = []
        for row in rows:
            try:
                g = self._game_row(row)
            except unreadable as exc:
                log.error("STORAGE: game %s left out of the lobby: %s", row[0], exc)
                continue
            open_seats = set(g.options.get("open") or ())
            if g.options.get("listed", True) and any(
                    s.kind == "human" and not s.claimed and s.seat in open_seats for s in g.seats):
                out.append(g)
            if len(out) >= limit:
                break
        return out

    def actions(self, game_id: str) -> list[dict[str, Any]]:
        rows = self._rows(self._sql("SELECT n, action FROM actions WHERE game_id=? ORDER BY n"), (game_id,))
        out = []
        for i, (n, text) in enumerate(rows):
            if n != i:
                raise StoreError(f"game {game_id}: action {i} is missing from the store")
            out.append(json.loads(text))
        return out
