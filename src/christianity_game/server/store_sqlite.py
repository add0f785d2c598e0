"""The SQLite store (:class:`SqliteStore`): the embedded default, one file of a data folder, stdlib
sqlite3 with its write-ahead log (server/store.py has the interface and what both stores share).

Damage is loud: on open the store runs SQLite's ``quick_check`` and notices a write-ahead log that
vanished after an unclean stop (``problems``); a game whose rows cannot be read is reported by
``damaged_games`` so the server marks it unavailable while the others keep working. ``backup``
copies the live database with SQLite's online backup (consistent while the server writes).

A small **manifest** beside the database (``games.manifest.json``) says what the store should hold:
the database's identity (a random ``store_id`` kept in its ``meta`` table) and, for every game, how
many actions were acknowledged. The server writes it (atomically: a temporary file, then
``os.replace``) at each sweep and when it stops, and checks the database against it on start and
at each sweep (``check_manifest``): a database emptied or replaced, a game missing, or fewer action
rows than the manifest counts is logged at ERROR, listed in ``problems`` and returned so the server
marks those games unavailable; their manifest entries are kept as they were (the alarm holds across
restarts, and nothing is repaired or overwritten). ``check_wal`` notices, at each sweep, a
write-ahead log deleted while the server runs, and saves what it held into the database file.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Sequence

from .migrate import SCHEMA_VERSION_TABLE, migrations
from .store import DB_NAME, GameQueries, GameRow, SeatRow, StoreError

RUNNING_MARK = "server.running"   # present while a server has the store open; left behind by a crash
MANIFEST_NAME = "games.manifest.json"   # what the store should hold (see the module docstring)
MANIFEST_VERSION = 1

log = logging.getLogger("christianity_game.server.store")


class SqliteStore(GameQueries):
    """The SQLite file of one data folder."""

    kind = "sqlite"

    def __init__(self, data_dir: str | Path, synchronous: str = "NORMAL", check: bool = True,
                 db_name: str = DB_NAME) -> None:
        self.data_dir = Path(data_dir)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.path = self.data_dir / db_name
        sync = synchronous.upper()
        if sync not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise StoreError(f"synchronous must be NORMAL or FULL, not {synchronous!r}")
        #: What the checks on open found (each a sentence; also logged as errors).
        self.problems: list[str] = []
        self._ckpt_db: sqlite3.Connection | None = None
        self._ckpt_lock = threading.Lock()
        self._closed = False
        self._sync = sync
        self.manifest_path = self.data_dir / MANIFEST_NAME
        #: games that do not match the manifest: id -> why (their manifest entries are kept as they were)
        self.mismatched: dict[str, str] = {}
        self._manifest_games: dict[str, int] = {}   # the manifest's counts, as last read or written
        self._manifest_text = ""                    # what was last written (not written again unchanged)
        self._wal_reported = False
        self._manifest_read = False
        mark = self.data_dir / RUNNING_MARK
        self.wal_path = wal = self.path.with_name(self.path.name + "-wal")
        if mark.exists() and self.path.exists() and not wal.exists():
            self._problem(f"{wal.name} is missing after an unclean stop (the last server did not shut down "
                          "cleanly, yet its write-ahead log is gone): actions acknowledged since the last "
                          "checkpoint may be lost; clients that saw them are refused with state_lost")
        self.db = self._connect()
        self._migrate()
        #: this database's identity (the manifest names it: a database emptied or replaced has another)
        self.store_id = self.meta_once("store_id", lambda: secrets.token_hex(16))
        if check:
            self._quick_check()
        mark.write_text(str(os.getpid()))

    def _connect(self) -> sqlite3.Connection:
        """The store's connection: autocommit (each statement outside BEGIN..COMMIT commits at
        once), WAL, the chosen ``synchronous``."""
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        # WAL + NORMAL survives a killed process (kill -9) with every committed row; FULL also
        # survives power loss, at the price of an fsync per action.
        db.execute(f"PRAGMA synchronous={self._sync}")
        db.execute("PRAGMA busy_timeout=5000")
        return db

    def _problem(self, text: str) -> None:
        log.error("STORAGE: %s", text)
        self.problems.append(text)

    def _migrate(self) -> None:
        """Apply the migrations (server/migrations/sqlite/) this file lacks, each in one transaction
        with its ``schema_version`` row; ``meta.schema_version`` follows (what servers from before
        the numbered migrations read). A file from before them records its version only in ``meta``:
        the versions up to it count as applied. A file newer than this server is refused, untouched."""
        db = self.db
        files = migrations("sqlite")
        has = {str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        applied: set[int] = set()
        if "schema_version" in has:
            applied = {int(r[0]) for r in db.execute("SELECT version FROM schema_version")}
        old = self.get_meta("schema_version") if "meta" in has else None
        if not applied and old is not None:
            applied = set(range(1, int(old) + 1))
        top = max(applied, default=0)
        if top > len(files):
            raise StoreError(f"{self.path} was written by a newer server (schema {top} > {len(files)})")
        db.execute(SCHEMA_VERSION_TABLE["sqlite"])
        recorded = {int(r[0]) for r in db.execute("SELECT version FROM schema_version")}
        for v in sorted(applied - recorded):
            db.execute("INSERT INTO schema_version(version, name, applied) VALUES (?, ?, ?)",
                       (v, files[v - 1].name + " (recorded before numbered migrations)", time.time()))
        for mig in files:
            if mig.version in applied:
                continue
            db.execute("BEGIN IMMEDIATE")
            try:
                for stmt in mig.statements:
                    try:
                        db.execute(stmt)
                    except sqlite3.OperationalError as exc:
                        if "duplicate column name" in str(exc):   # added by an older server's interrupted upgrade
                            continue
                        raise
                db.execute("INSERT INTO schema_version(version, name, applied) VALUES (?, ?, ?)",
                           (mig.version, mig.name, time.time()))
                db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', ?)", (str(mig.version),))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            log.info("%s: schema migrated to version %d (%s)", self.path.name, mig.version, mig.name)

    def _quick_check(self) -> None:
        """SQLite's quick_check: every page readable and well-formed. Problems are logged."""
        try:
            rows = [str(r[0]) for r in self.db.execute("PRAGMA quick_check(20)")]
        except sqlite3.DatabaseError as exc:
            rows = [f"quick_check failed: {exc}"]
        if rows != ["ok"]:
            self._problem(f"{self.path.name} failed its integrity check: " + "; ".join(rows))

    def damaged_games(self) -> dict[str, str]:
        """Games whose rows cannot be read (after a failed integrity check): id -> what failed.

        Reads every game's row, seats and actions; a game whose rows sit on a damaged page raises
        SQLite's "malformed" error and is reported. Games that read cleanly are not listed."""
        out: dict[str, str] = {}
        ids: list[str] = []
        for sql in ("SELECT id FROM games", "SELECT id FROM games INDEXED BY sqlite_autoindex_games_1"):
            try:
                ids += [str(r[0]) for r in self.db.execute(sql)]
                break
            except sqlite3.DatabaseError:
                continue
        try:
            ids += [str(r[0]) for r in self.db.execute("SELECT DISTINCT game_id FROM seats")]
        except sqlite3.DatabaseError:
            pass
        for gid in dict.fromkeys(ids):
            try:
                row = self.game(gid)
                if row is None:
                    raise StoreError("its games row is missing")
                self.actions(gid)
            except (sqlite3.DatabaseError, StoreError, ValueError) as exc:
                out[gid] = f"game {gid}: its stored rows are damaged ({exc})"
        return out

    # ------------------------------------------------------------------ the manifest
    def stored_counts(self) -> dict[str, tuple[int, int]]:
        """Every stored game: id -> (its action rows, one more than its highest action number);
        the two differ when a row inside the record is missing."""
        out = {str(r[0]): (0, 0) for r in self.db.execute("SELECT id FROM games")}
        for gid, count, top in self.db.execute("SELECT game_id, COUNT(*), MAX(n) + 1 FROM actions GROUP BY game_id"):
            if gid in out:
                out[str(gid)] = (int(count), int(top))
        return out

    def _read_manifest(self) -> tuple[str, dict[str, int]] | None:
        """The manifest on disk, (store id, game -> acknowledged actions); None when there is none.
        An unreadable one is a problem."""
        try:
            text = self.manifest_path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except OSError as exc:
            self._problem(f"{self.manifest_path.name} cannot be read ({exc}): the store cannot be checked")
            return None
        try:
            data = json.loads(text)
            games = data["games"]
            if not isinstance(games, dict) or not all(isinstance(v, int) for v in games.values()):
                raise ValueError("its games are not a map of game ids to action counts")
            return str(data.get("store_id", "")), {str(k): int(v) for k, v in games.items()}
        except (ValueError, KeyError, TypeError) as exc:
            kept = self.manifest_path.with_name(f"{self.manifest_path.name}.damaged-{int(time.time())}")
            try:   # kept as evidence: the next manifest is written in its place
                os.replace(self.manifest_path, kept)
            except OSError:
                kept = self.manifest_path
            self._problem(f"{self.manifest_path.name} is damaged ({exc}; kept as {kept.name}): the store cannot "
                          "be checked against it")
            return None

    def check_manifest(self, live: dict[str, int] | None = None) -> dict[str, str]:
        """Check the database against the manifest (on start, and at each sweep): the games newly
        found not to match, id -> why (each logged at ERROR; a summary joins ``problems``).

        ``live``: the games the server holds in memory, with how many actions each has (all of them
        acknowledged): a game whose rows fell behind that while the server runs does not match
        either. A game the manifest does not name yet, or with more rows than it counts, is fine
        (the manifest is written at sweeps, so it may lag behind the database, never ahead)."""
        first = not self._manifest_read
        self._manifest_read = True
        manifest = self._read_manifest() if first else (self.store_id, self._manifest_games)
        try:
            stored = self.stored_counts()
        except sqlite3.DatabaseError as exc:   # a damaged database: its games are checked one by one on load
            self._problem(f"{self.path.name} could not be checked against {self.manifest_path.name} ({exc})")
            if manifest is not None:
                self._manifest_games = dict(manifest[1])
            self._manifest_read = False   # nor is the manifest written over it
            return {}
        found: dict[str, str] = {}
        if manifest is None:
            if stored:
                log.warning("STORAGE: %s is missing; the store holds %d games and is taken as it is (a new "
                            "manifest is written at the next sweep)", self.manifest_path.name, len(stored))
            manifest = (self.store_id, {})
        store_id, expect = manifest
        if store_id and store_id != self.store_id:
            self._problem(f"{self.path.name} is not the database {self.manifest_path.name} describes (store "
                          f"{store_id} expected, {self.store_id} found): it was emptied or replaced; "
                          f"the {len(expect)} games it lists are checked one by one")
        self._manifest_games = dict(expect)
        for gid, expected in expect.items():
            if gid in self.mismatched:
                continue
            if gid not in stored:
                found[gid] = (f"game {gid} is missing from the database, though {self.manifest_path.name} "
                              f"counts {expected} acknowledged actions for it")
                continue
            count, top = stored[gid]
            if count != top:
                found[gid] = f"game {gid}: {top - count} of its action rows are missing from inside its record"
            elif count < expected:
                found[gid] = (f"game {gid}: the database holds {count} of its {expected} acknowledged actions "
                              f"({self.manifest_path.name}): {expected - count} lost")
        for gid, n in (live or {}).items():
            if gid in self.mismatched or gid in found:
                continue
            count, top = stored.get(gid, (0, 0))
            if gid not in stored or count < n or count != top:
                found[gid] = (f"game {gid}: the database holds {count} of the {n} actions acknowledged "
                              "since the server started: rows were lost while it runs")
                self._manifest_games[gid] = max(n, self._manifest_games.get(gid, 0))
        for gid, why in found.items():
            log.error("STORAGE: %s; it is marked unavailable (its rows are left as they are)", why,
                      extra={"game_id": gid})   # a line about a game names it (server/logs.py)
        if found:
            shown = ", ".join(list(found)[:5]) + (", ..." if len(found) > 5 else "")
            self._problem(f"the database does not match {self.manifest_path.name}: {len(found)} games lost "
                          f"acknowledged actions or went missing and are unavailable ({shown})")
        self.mismatched.update(found)
        return found

    def write_manifest(self) -> None:
        """Write the manifest from the database as it is now (atomically: a temporary file, then
        ``os.replace``), keeping the old entries of the games that do not match it. Not written
        when nothing changed, nor before the database was checked against the manifest on disk
        (a tool that opens the store, such as ``--backup``, must not write over its evidence)."""
        if not self._manifest_read:
            return
        games = {gid: count for gid, (count, _top) in self.stored_counts().items()}
        for gid in self.mismatched:
            if gid in self._manifest_games:
                games[gid] = self._manifest_games[gid]
        text = json.dumps({"version": MANIFEST_VERSION, "store_id": self.store_id, "games": games},
                          separators=(",", ":"), sort_keys=True)
        if text == self._manifest_text:
            return
        tmp = self.manifest_path.with_name(self.manifest_path.name + ".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.manifest_path)
        self._manifest_text = text
        self._manifest_games = games

    def check_wal(self) -> bool:
        """A write-ahead log deleted while the server runs (looked at every sweep): SQLite would
        go on writing into the deleted file, and a crash would take every action since the last
        checkpoint. When it is gone: logged at ERROR and listed in ``problems`` (once), what it held
        is copied into the database file and the store reopens on a new log. True when it was gone."""
        if self._closed or self.wal_path.exists():
            return False
        try:
            with self._ckpt_lock:
                self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")   # from the deleted file, still open
                if self._ckpt_db is not None:
                    self._ckpt_db.close()
                    self._ckpt_db = None
                self.db.close()   # the last connection closed, SQLite starts a new log on the next one
                self.db = self._connect()
            how = ("what it held was copied into the database file and the store reopened on a new "
                   "write-ahead log: no acknowledged action was lost")
        except sqlite3.DatabaseError as exc:
            how = (f"saving what it held failed ({exc}): actions acknowledged since the last checkpoint "
                   "are lost if the server stops")
        if not self._wal_reported:
            self._wal_reported = True
            self._problem(f"{self.wal_path.name} was deleted while the server runs; {how}")
        else:
            log.error("STORAGE: %s was deleted again while the server runs; %s", self.wal_path.name, how)
        return True

    def checkpoint(self) -> None:
        """Copy the write-ahead log into the database file (PASSIVE: never waits on readers)."""
        try:
            self.db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.DatabaseError as exc:
            log.warning("checkpoint failed: %s", exc)

    def checkpoint_elsewhere(self) -> None:
        """``checkpoint`` on a connection of its own, for a worker thread (see Storage.checkpoint_soon)."""
        with self._ckpt_lock:
            if self._closed:
                return
            if self._ckpt_db is None:
                self._ckpt_db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
                self._ckpt_db.execute("PRAGMA busy_timeout=1000")
            try:
                self._ckpt_db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.DatabaseError as exc:
                log.warning("checkpoint failed: %s", exc)

    def backup(self, target: str | Path) -> Path:
        """Copy the live database to ``target`` with SQLite's online backup API: a consistent copy
        while the server keeps writing (the copy has no write-ahead log to go with it)."""
        target = Path(target)
        dst = sqlite3.connect(target)
        try:
            self.db.backup(dst)
        finally:
            dst.close()
        return target

    def close(self) -> None:
        try:   # what the store holds now, for the next start to check (never over a failing database)
            self.write_manifest()
        except (OSError, sqlite3.DatabaseError) as exc:
            log.error("STORAGE: %s could not be written: %s", self.manifest_path.name, exc)
        with self._ckpt_lock:   # the checkpoint connection first: the last one to close removes the WAL
            self._closed = True
            if self._ckpt_db is not None:
                self._ckpt_db.close()
                self._ckpt_db = None
        self.db.close()
        try:
            (self.data_dir / RUNNING_MARK).unlink()
        except OSError:
            pass

    # ------------------------------------------------------------------ meta
    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    # ------------------------------------------------------------------ games
    def create_game(self, game_id: str, head: dict[str, Any], options: dict[str, Any], spectator_hash: str,
                    seats: list[SeatRow], owner: str | None = None) -> None:
        db = self.db
        now = time.time()
        people = sum(1 for s in seats if s.kind == "human")
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("INSERT INTO games(id, created, head, options, spectator_hash, owner, people, touched) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (game_id, now, json.dumps(head), json.dumps(options), spectator_hash, owner, people, now))
            db.executemany("INSERT INTO seats(game_id, seat, kind, bot, token_hash, claimed, name) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?)",
                           [(game_id, s.seat, s.kind, s.bot, s.token_hash, int(s.claimed), s.name) for s in seats])
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def append_action(self, game_id: str, n: int, action: dict[str, Any]) -> None:
        """Append action ``n`` (0-based) of a game; committed when this returns."""
        self.db.execute("INSERT INTO actions(game_id, n, action, at) VALUES (?, ?, ?, ?)",
                        (game_id, n, json.dumps(action, separators=(",", ":")), time.time()))

    def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return list(self.db.execute(sql, args).fetchall())

    def _exec(self, sql: str, args: Sequence[Any] = ()) -> None:
        self.db.execute(sql, args)

    def open_games(self, limit: int = 100) -> list[GameRow]:
        """Listed games, not over or archived, that still have an open, unclaimed human seat, newest
        first. A game whose rows cannot be read is left out (and logged)."""
        rows = self._rows(
            "SELECT id, created, head, options, spectator_hash, finished, result FROM games g "
            "WHERE finished=0 AND archived=0 AND EXISTS (SELECT 1 FROM seats s, json_each(g.options, '$.open') o "
            "WHERE s.game_id=g.id AND s.kind='human' AND s.claimed=0 AND s.seat=o.value) "
            "ORDER BY created DESC LIMIT ?", (limit * 4,))
        return self._listed(rows, limit, (sqlite3.DatabaseError, ValueError))


#: Another name of the SQLite store, for callers and tests that name it so.
Store = SqliteStore
