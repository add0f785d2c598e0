"""SQLite storage: every game as its record, one row per accepted action (stdlib sqlite3, WAL).

A game is stored as the head of its record (everything ``Game.to_record()`` holds except the
actions: format, version, mode, line-up, seed, settings, decks, deck files, position) plus one row
per accepted action, appended and committed before the server acknowledges the action. Loading a
game is replaying its record. Seat tokens are stored only as SHA-256 hashes.

All calls happen on the server's event-loop thread; each append is one autocommit INSERT.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

SCHEMA_VERSION = 1
DB_NAME = "games.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id             TEXT PRIMARY KEY,
    created        REAL NOT NULL,
    head           TEXT NOT NULL,            -- the game record without its actions (JSON)
    options        TEXT NOT NULL,            -- name, listed, scenario (JSON)
    spectator_hash TEXT NOT NULL,
    finished       INTEGER NOT NULL DEFAULT 0,
    result         TEXT                      -- JSON, once the game is over
);
CREATE TABLE IF NOT EXISTS seats (
    game_id    TEXT NOT NULL REFERENCES games(id),
    seat       INTEGER NOT NULL,
    kind       TEXT NOT NULL,                -- human | bot
    bot        TEXT,                         -- the bot level of a bot seat
    token_hash TEXT,                         -- SHA-256 of a human seat's token
    claimed    INTEGER NOT NULL DEFAULT 0,   -- someone connected with the link or joined
    name       TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL,
    n       INTEGER NOT NULL,                -- 0-based index in the record's action list
    action  TEXT NOT NULL,                   -- the action as JSON
    at      REAL NOT NULL,
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS games_open ON games(finished);
"""


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
    """The data folder cannot be used (locked by another server, unreadable, newer schema)."""


class Store:
    """The SQLite file of one data folder."""

    def __init__(self, data_dir: str | Path, synchronous: str = "NORMAL") -> None:
        self.data_dir = Path(data_dir)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.path = self.data_dir / DB_NAME
        sync = synchronous.upper()
        if sync not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise StoreError(f"synchronous must be NORMAL or FULL, not {synchronous!r}")
        # isolation_level=None: autocommit; each statement outside BEGIN..COMMIT commits at once.
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        # WAL + NORMAL survives a killed process (kill -9) with every committed row; FULL also
        # survives power loss, at the price of an fsync per action.
        self.db.execute(f"PRAGMA synchronous={sync}")
        self.db.execute("PRAGMA busy_timeout=5000")
        self.db.executescript(_SCHEMA)
        version = self.get_meta("schema_version")
        if version is None:
            self.set_meta("schema_version", str(SCHEMA_VERSION))
        elif int(version) > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer server (schema {version} > {SCHEMA_VERSION})")

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------------ meta
    def get_meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    def secret(self, key: str) -> bytes:
        """A random secret kept in the data folder (made on first use)."""
        value = self.get_meta(key)
        if value is None:
            value = secrets.token_hex(32)
            self.set_meta(key, value)
        return bytes.fromhex(value)

    # ------------------------------------------------------------------ games
    def create_game(self, game_id: str, head: dict[str, Any], options: dict[str, Any], spectator_hash: str,
                    seats: list[SeatRow]) -> None:
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("INSERT INTO games(id, created, head, options, spectator_hash) VALUES (?, ?, ?, ?, ?)",
                       (game_id, time.time(), json.dumps(head), json.dumps(options), spectator_hash))
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

    def finish(self, game_id: str, result: dict[str, Any]) -> None:
        self.db.execute("UPDATE games SET finished=1, result=? WHERE id=?", (json.dumps(result), game_id))

    def claim(self, game_id: str, seat: int, token_hash: str | None = None, name: str | None = None) -> None:
        if token_hash is None:
            self.db.execute("UPDATE seats SET claimed=1 WHERE game_id=? AND seat=?", (game_id, seat))
        else:
            self.db.execute("UPDATE seats SET claimed=1, token_hash=?, name=COALESCE(?, name) "
                            "WHERE game_id=? AND seat=?", (token_hash, name, game_id, seat))

    def game(self, game_id: str) -> GameRow | None:
        row = self.db.execute("SELECT id, created, head, options, spectator_hash, finished, result FROM games "
                              "WHERE id=?", (game_id,)).fetchone()
        if row is None:
            return None
        return self._game_row(row)

    def _game_row(self, row: tuple[Any, ...]) -> GameRow:
        seats = [SeatRow(s, k, b, h, bool(c), nm) for s, k, b, h, c, nm in self.db.execute(
            "SELECT seat, kind, bot, token_hash, claimed, name FROM seats WHERE game_id=? ORDER BY seat", (row[0],))]
        return GameRow(row[0], row[1], json.loads(row[2]), json.loads(row[3]), row[4], bool(row[5]),
                       None if row[6] is None else json.loads(row[6]), seats)

    def games(self, finished: bool | None = None) -> Iterator[GameRow]:
        sql = "SELECT id, created, head, options, spectator_hash, finished, result FROM games"
        args: tuple[Any, ...] = ()
        if finished is not None:
            sql += " WHERE finished=?"
            args = (int(finished),)
        for row in self.db.execute(sql + " ORDER BY created", args).fetchall():
            yield self._game_row(row)

    def open_games(self, limit: int = 100) -> list[GameRow]:
        """Listed games not over that still have an unclaimed human seat, newest first."""
        rows = self.db.execute(
            "SELECT id, created, head, options, spectator_hash, finished, result FROM games g "
            "WHERE finished=0 AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id=g.id AND s.kind='human' "
            "AND s.claimed=0) ORDER BY created DESC LIMIT ?", (limit * 4,)).fetchall()
        out = []
        for row in rows:
            g = self._game_row(row)
            if g.options.get("listed", True):
                out.append(g)
            if len(out) >= limit:
                break
        return out

    def actions(self, game_id: str) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT n, action FROM actions WHERE game_id=? ORDER BY n", (game_id,)).fetchall()
        out = []
        for i, (n, text) in enumerate(rows):
            if n != i:
                raise StoreError(f"game {game_id}: action {i} is missing from the store")
            out.append(json.loads(text))
        return out
