"""PostgreSQL storage (``serve --database postgresql://user@host/db``), through psycopg 3.

The same tables, columns and meaning as the SQLite store (server/store_sqlite.py; the schema is
built by the numbered migrations in ``server/migrations/postgresql/``): a game is the head of its
record plus one row per accepted action, and every write is an autocommit statement
(``create_game``: one transaction) that has committed when the call returns. The session runs with
``synchronous_commit = on`` whatever the server's default, so a commit has reached PostgreSQL's
write-ahead log on disk before the server acknowledges the action: a killed game server loses
nothing it acknowledged, and neither does a crashed PostgreSQL (unless it runs with ``fsync = off``,
which is logged as a warning on open).

**One server per database, or a cluster.** The store holds a session-level advisory lock
(``pg_try_advisory_lock``) for as long as it is open: a second server on the same database is
refused on start ("another server is using the database"), as two servers on one SQLite folder are
by the folder's lock. Servers started as one of several (``serve --workers N``, ``--cluster``:
``shared``) hold the same lock *shared* instead: they start beside each other (each live game then
has one owner, by lease: server/cluster.py) and none of them beside a lone server. Migrations run
under a second advisory lock, so workers starting together migrate once.

**Damage and the manifest.** The SQLite store keeps a manifest file beside its database because a
SQLite file can be truncated, replaced or lose its write-ahead log under a running server without
SQLite noticing. Here the database server is the authority: PostgreSQL owns its files and its log,
checks its own pages (``data_checksums``, when the cluster was made with them, raise an error on a
damaged page, which is reported for that game), and a database on another host has no folder
beside it that every server could share. So no manifest file is written; what is kept of its checks:

* on start, every game's action rows must run 0, 1, 2, ... without a gap (a row deleted by hand
  inside a record); a game with a gap is unavailable (``game_unavailable``), its rows left as they
  are, and the start is loud (ERROR, ``/healthz`` unhealthy);
* at each sweep, every game in memory must still have at least the actions the server acknowledged
  since it started (rows deleted, or the database restored from an older dump, while the server
  runs): a game that fell behind is unavailable, as with SQLite.

A database restored from an older backup *before* a start is the operator's decision, not damage:
it is served as it is. There is no write-ahead log to watch (``check_wal`` does nothing) and no
checkpoint to run; backups are ``pg_dump`` (docs/deploy.md), not ``serve --backup``.

**A lost connection** (PostgreSQL restarted, the network cut) is not damage: the call raises
:class:`~christianity_game.server.store.StoreUnavailable` (the request answers 503
``storage_error``) and the next call reconnects and takes the advisory lock again. Reads and
idempotent writes are retried once on a fresh connection; an action whose INSERT was cut off is
looked for after reconnecting and counts as stored only if its row is there, byte for byte.
Other PostgreSQL errors are raised as :class:`~christianity_game.server.store.DatabaseError`.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import time
import zlib
from pathlib import Path
from typing import Any, Iterator, Sequence

import psycopg
from psycopg.conninfo import conninfo_to_dict

from .migrate import SCHEMA_VERSION_TABLE, migrations
from .store import DatabaseError, GameQueries, GameRow, SeatRow, StoreError, StoreUnavailable

log = logging.getLogger("christianity_game.server.store")

#: The advisory lock a server holds on its database (one server per database; see the module docstring).
LOCK_KEY = zlib.crc32(b"christianity-game server") | (1 << 32)
#: Held while migrating (workers of a cluster start together; one migrates, the others wait).
MIGRATE_KEY = zlib.crc32(b"christianity-game migrations") | (1 << 32)


def describe(url: str) -> str:
    """The database a URL names, for messages, without its password: ``user@host:port/dbname``."""
    try:
        d = conninfo_to_dict(url)
    except psycopg.Error:
        return "the PostgreSQL database (an unreadable URL)"
    host = d.get("host") or "localhost"
    port = f":{d['port']}" if d.get("port") else ""
    user = f"{d['user']}@" if d.get("user") else ""
    return f"postgresql://{user}{host}{port}/{d.get('dbname') or ''}"


class PostgresStore(GameQueries):
    """One PostgreSQL database (the interface of :class:`~christianity_game.server.store.GameStore`,
    as :class:`~christianity_game.server.store_sqlite.SqliteStore` has it)."""

    PLACEHOLDER = "%s"   # psycopg's parameter mark (GameQueries writes ?)
    META_IF_ABSENT = "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING"

    kind = "postgresql"

    def __init__(self, url: str, check: bool = True, connect_timeout: float = 10.0, lock_wait_s: float = 5.0,
                 shared: bool = False) -> None:
        self.url = url
        self.shared = shared   # one of several servers on the database (the advisory lock held shared)
        self.where = describe(url)
        self.connect_timeout = connect_timeout
        self.lock_wait_s = lock_wait_s   # how long a start waits for the advisory lock before it is refused
        #: What the checks found (each a sentence; also logged as errors).
        self.problems: list[str] = []
        #: games whose rows do not hold what was acknowledged: id -> why
        self.mismatched: dict[str, str] = {}
        self._checked = False
        self._closed = False
        self._lock_lost = False
        self._in_batch = False   # inside batch(): statements join its transaction, nothing is retried
        try:
            self.db = self._connect()
        except StoreUnavailable as exc:
            raise StoreError(str(exc)) from None
        try:
            self._migrate()
            self.store_id = self.meta_once("store_id", lambda: secrets.token_hex(16))
            if check:
                self._check_settings()
        except BaseException:
            self.db.close()
            raise

    # ------------------------------------------------------------------ the connection
    def _connect(self) -> psycopg.Connection[tuple[Any, ...]]:
        """A new session: autocommit, ``synchronous_commit = on``, holding the server's advisory lock."""
        try:
            db = psycopg.connect(self.url, autocommit=True, connect_timeout=max(1, int(self.connect_timeout)),
                                 application_name="christianity-game server")
        except psycopg.Error as exc:
            raise StoreUnavailable(f"{self.where} cannot be reached: {exc}".strip()) from exc
        try:
            db.execute("SET synchronous_commit TO on")
            # a server killed a moment ago may still hold the lock until PostgreSQL notices: wait a little
            deadline = time.monotonic() + self.lock_wait_s
            while True:
                got = db.execute("SELECT pg_try_advisory_lock_shared(%s)" if self.shared else
                                 "SELECT pg_try_advisory_lock(%s)", (LOCK_KEY,)).fetchone()
                if (got and got[0]) or time.monotonic() >= deadline:
                    break
                time.sleep(0.1)
        except psycopg.Error as exc:
            db.close()
            raise StoreUnavailable(f"{self.where}: {exc}") from exc
        if not got or not got[0]:
            db.close()
            if self.shared:
                raise StoreError(f"a server that is not one of several is using the database {self.where} (it "
                                 "holds the server's advisory lock); stop it, or start every server with --workers "
                                 "or --cluster")
            raise StoreError(f"another server is using the database {self.where} (it holds the server's advisory "
                             "lock): two servers on one database would fork its games; to share one, start "
                             "every server with --workers N or --cluster (docs/deploy.md)")
        return db

    def _connection(self) -> psycopg.Connection[tuple[Any, ...]]:
        """The session, reconnected (and the lock taken again) when it was lost."""
        if self._closed:
            raise StoreUnavailable(f"the store of {self.where} is closed")
        if self._lock_lost:
            raise StoreUnavailable(f"{self.where}: another server took the database while this one was cut off "
                                   "from it; restart this server")
        if self.db.closed or self.db.broken:
            try:
                self.db.close()
            except psycopg.Error:
                pass
            try:
                self.db = self._connect()
            except StoreError as exc:   # someone else holds the lock now
                self._lock_lost = True
                self._problem(str(exc) + "; this server stopped writing to it")
                raise StoreUnavailable(str(exc)) from None
            log.warning("STORAGE: reconnected to %s", self.where)
        return self.db

    def _run(self, sql: str, args: Sequence[Any] = (), retry: bool = True) -> list[tuple[Any, ...]]:
        """Run one statement (autocommit: committed when this returns); its rows, if any.

        A lost connection is retried once on a new one (``retry``) and is otherwise
        :class:`StoreUnavailable`; any other PostgreSQL error is :class:`DatabaseError`."""
        if self._in_batch:
            retry = False
        for attempt in range(2 if retry else 1):
            db = self.db if self._in_batch else self._connection()
            try:
                cur = db.execute(sql, args)
                return cur.fetchall() if cur.description is not None else []
            except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
                if not (db.closed or db.broken):   # cancelled, timed out, out of resources: passing
                    raise StoreUnavailable(f"{self.where}: {exc}") from exc
                log.warning("STORAGE: the connection to %s was lost (%s)%s", self.where, exc,
                            "; reconnecting" if retry and attempt == 0 else "")
                if not retry or attempt == 1:
                    raise StoreUnavailable(f"the connection to {self.where} was lost ({exc})") from exc
            except psycopg.Error as exc:
                raise DatabaseError(f"{type(exc).__name__}: {exc}") from exc
        raise AssertionError("unreachable")

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction around several calls (the writer's group commit, server/writer.py): they
        are committed together when the block ends, or not at all. Nothing inside is retried; a
        connection lost inside, or at the commit, is :class:`StoreUnavailable` (the caller then
        writes them one by one: ``append_action`` finds the rows a lost commit may still have stored)."""
        db = self._connection()
        self._in_batch = True
        try:
            with db.transaction():
                yield
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
            raise StoreUnavailable(f"{self.where}: a batch could not be committed ({exc})") from exc
        except psycopg.Error as exc:
            raise DatabaseError(f"{type(exc).__name__}: {exc}") from exc
        finally:
            self._in_batch = False

    def _problem(self, text: str) -> None:
        log.error("STORAGE: %s", text)
        self.problems.append(text)

    def _migrate(self) -> None:
        """Apply the migrations (server/migrations/postgresql/) the database lacks, each in one
        transaction with its ``schema_version`` row (the advisory lock is held: no other server
        migrates at the same time). A database newer than this server is refused, untouched."""
        files = migrations("postgresql")
        db = self.db
        try:
            db.execute("SELECT pg_advisory_lock(%s)", (MIGRATE_KEY,))
        except psycopg.Error as exc:
            raise StoreError(f"{self.where}: the schema could not be brought up to date: {exc}") from exc
        try:
            self._migrate_locked(files)
        finally:
            try:
                db.execute("SELECT pg_advisory_unlock(%s)", (MIGRATE_KEY,))
            except psycopg.Error:
                pass

    def _migrate_locked(self, files: list[Any]) -> None:
        db = self.db
        try:
            exists = db.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
            applied = {int(r[0]) for r in db.execute("SELECT version FROM schema_version")} if exists and exists[0] \
                else set()
            top = max(applied, default=0)
            if top > len(files):
                raise StoreError(f"{self.where} was written by a newer server (schema {top} > {len(files)})")
            db.execute(SCHEMA_VERSION_TABLE["postgresql"])
            for mig in files:
                if mig.version in applied:
                    continue
                with db.transaction():
                    for stmt in mig.statements:
                        db.execute(stmt)
                    db.execute("INSERT INTO schema_version(version, name, applied) VALUES (%s, %s, %s)",
                               (mig.version, mig.name, time.time()))
                    db.execute("INSERT INTO meta(key, value) VALUES ('schema_version', %s) "
                               "ON CONFLICT (key) DO UPDATE SET value=EXCLUDED.value", (str(mig.version),))
                log.info("%s: schema migrated to version %d (%s)", self.where, mig.version, mig.name)
        except psycopg.Error as exc:
            raise StoreError(f"{self.where}: the schema could not be brought up to date: {exc}") from exc

    def _check_settings(self) -> None:
        """Settings that would weaken durability: warned about on open (not refused)."""
        rows = self._run("SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'full_page_writes')")
        for name, value in rows:
            if value == "off":
                log.warning("STORAGE: %s runs with %s = off: acknowledged actions survive a crash of the game "
                            "server, not one of PostgreSQL or of its machine", self.where, name)

    # ------------------------------------------------------------------ checks (see the module docstring)
    def damaged_games(self) -> dict[str, str]:
        """Games whose rows cannot be read: id -> what failed (every game is read in full)."""
        out: dict[str, str] = {}
        for (gid,) in self._run("SELECT id FROM games ORDER BY created"):
            try:
                if self.game(gid) is None:
                    raise StoreError("its games row is missing")
                self.actions(gid)
            except (DatabaseError, StoreError, ValueError) as exc:
                out[str(gid)] = f"game {gid}: its stored rows are damaged ({exc})"
        return out

    def stored_counts(self, games: list[str] | None = None) -> dict[str, tuple[int, int]]:
        """Stored games (all, or those named): id -> (their action rows, one more than their highest
        action number); the two differ when a row inside the record is missing."""
        if games is None:
            out = {str(r[0]): (0, 0) for r in self._run("SELECT id FROM games")}
            rows = self._run("SELECT game_id, COUNT(*), MAX(n) + 1 FROM actions GROUP BY game_id")
        else:
            out = {str(r[0]): (0, 0) for r in self._run("SELECT id FROM games WHERE id = ANY(%s)", (games,))}
            rows = self._run("SELECT game_id, COUNT(*), MAX(n) + 1 FROM actions WHERE game_id = ANY(%s) "
                             "GROUP BY game_id", (games,))
        for gid, count, top in rows:
            if gid in out:
                out[str(gid)] = (int(count), int(top))
        return out

    def check_manifest(self, live: dict[str, int] | None = None) -> dict[str, str]:
        """The checks that stand in for SQLite's manifest: on the first call, every game's action
        rows without a gap; on every call, each game in memory (``live``: id -> its acknowledged
        actions) still holding them. The games newly found not to, id -> why (logged at ERROR; a
        summary joins ``problems``)."""
        found: dict[str, str] = {}
        if not self._checked:
            self._checked = True
            for gid, (count, top) in self.stored_counts().items():
                if count != top and gid not in self.mismatched:
                    found[gid] = f"game {gid}: {top - count} of its action rows are missing from inside its record"
        if live:
            stored = self.stored_counts(list(live))
            for gid, n in live.items():
                if gid in self.mismatched or gid in found:
                    continue
                count, top = stored.get(gid, (0, 0))
                if gid not in stored or count < n or count != top:
                    found[gid] = (f"game {gid}: the database holds {count} of the {n} actions acknowledged "
                                  "since the server started: rows were lost while it runs")
        for gid, why in found.items():
            log.error("STORAGE: %s; it is marked unavailable (its rows are left as they are)", why,
                      extra={"game_id": gid})   # a line about a game names it (server/logs.py)
        if found:
            shown = ", ".join(list(found)[:5]) + (", ..." if len(found) > 5 else "")
            self._problem(f"{self.where}: {len(found)} games lost acknowledged actions or rows inside their "
                          f"records and are unavailable ({shown})")
        self.mismatched.update(found)
        return found

    def write_manifest(self) -> None:
        """Nothing to write: the database is the authority (see the module docstring)."""

    def check_wal(self) -> bool:
        """PostgreSQL owns its write-ahead log: nothing to watch. Always False."""
        return False

    def checkpoint(self) -> None:
        """PostgreSQL checkpoints on its own."""

    def checkpoint_elsewhere(self) -> None:
        """PostgreSQL checkpoints on its own."""

    def backup(self, target: str | Path) -> Path:
        """Not done by the server: ``pg_dump`` makes a consistent copy of a live database."""
        raise StoreError(f"back up {self.where} with pg_dump (docs/deploy.md), not with the server")

    def close(self) -> None:
        """Close the session (which releases the advisory lock)."""
        self._closed = True
        try:
            self.db.close()
        except psycopg.Error as exc:
            log.warning("closing %s: %s", self.where, exc)

    # ------------------------------------------------------------------ meta
    def set_meta(self, key: str, value: str) -> None:
        self._run("INSERT INTO meta(key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value=EXCLUDED.value",
                  (key, value))

    # ------------------------------------------------------------------ games
    def create_game(self, game_id: str, head: dict[str, Any], options: dict[str, Any], spectator_hash: str,
                    seats: list[SeatRow], owner: str | None = None) -> None:
        """The game's row and its seats, in one transaction (not retried: a cut-off creation fails)."""
        now = time.time()
        people = sum(1 for s in seats if s.kind == "human")
        db = self._connection()
        try:
            with db.transaction():
                db.execute("INSERT INTO games(id, created, head, options, spectator_hash, owner, people, touched) "
                           "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                           (game_id, now, json.dumps(head), json.dumps(options), spectator_hash, owner, people, now))
                with db.cursor() as cur:
                    cur.executemany("INSERT INTO seats(game_id, seat, kind, bot, token_hash, claimed, name) "
                                    "VALUES (%s, %s, %s, %s, %s, %s, %s)",
                                    [(game_id, s.seat, s.kind, s.bot, s.token_hash, int(s.claimed), s.name)
                                     for s in seats])
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
            raise StoreUnavailable(f"{self.where}: the game could not be stored ({exc})") from exc
        except psycopg.Error as exc:
            raise DatabaseError(f"{type(exc).__name__}: {exc}") from exc

    def append_action(self, game_id: str, n: int, action: dict[str, Any]) -> None:
        """Append action ``n`` (0-based) of a game; committed (synchronous_commit on) when this returns."""
        text = json.dumps(action, separators=(",", ":"))
        sql = "INSERT INTO actions(game_id, n, action, at) VALUES (%s, %s, %s, %s)"
        if self._in_batch:
            self._run(sql, (game_id, n, text, time.time()), retry=False)
            return
        try:
            self._run(sql, (game_id, n, text, time.time()), retry=False)
        except DatabaseError as exc:
            # already there? (a batch whose commit was cut off may have stored it): the same action
            # at the same place is stored; another one is refused
            if not isinstance(exc.__cause__, psycopg.errors.UniqueViolation):
                raise
            rows = self._run("SELECT action FROM actions WHERE game_id=%s AND n=%s", (game_id, n))
            if not rows or rows[0][0] != text:
                raise
        except StoreUnavailable:
            # cut off mid-INSERT: it may have committed. Look on a new connection (this raises
            # StoreUnavailable again if the database is still out of reach)
            rows = self._run("SELECT action FROM actions WHERE game_id=%s AND n=%s", (game_id, n))
            if rows and rows[0][0] == text:
                return
            if rows:
                raise DatabaseError(f"game {game_id}: action {n} is stored as another action") from None
            self._run(sql, (game_id, n, text, time.time()), retry=False)

    def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self._run(sql, args)

    def _exec(self, sql: str, args: Sequence[Any] = ()) -> None:
        self._run(sql, args)

    def open_games(self, limit: int = 100) -> list[GameRow]:
        """Listed games, not over or archived, that still have an open, unclaimed human seat, newest
        first. A game whose rows cannot be read is left out (and logged)."""
        rows = self._run(
            "SELECT id, created, head, options, spectator_hash, finished, result FROM games g "
            "WHERE finished=0 AND archived=0 AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id=g.id "
            "AND s.kind='human' AND s.claimed=0 AND s.seat::text IN (SELECT jsonb_array_elements_text("
            "CASE WHEN jsonb_typeof(g.options::jsonb->'open')='array' THEN g.options::jsonb->'open' "
            "ELSE '[]'::jsonb END))) ORDER BY created DESC LIMIT %s", (limit * 4,))
        return self._listed(rows, limit, (DatabaseError, ValueError))
