"""The balance lab's rows and its SQLite file: the columns of a game row (:data:`ROW_COLUMNS`), the
schema, the row of a played game (:func:`game_row`), and the reads and writes of the file (cells
registered under the code's fingerprint, rows written one chunk a transaction, read back in order)."""

from __future__ import annotations

import ast
import hashlib
import json
import os
import sqlite3
from pathlib import Path
from typing import Any, Sequence

from ..cards.params import card_param, is_card_param_name
from .lab_grid import CellSpec, LabError

#: duel.counts keys that get their own column (docs/rules.md D-COMBO, D-MR, D-MB); any other key the
#: engine counts is kept in the ``extra`` JSON column.
DUEL_COUNTS = (
    "temptations_failed", "combo_plays", "finales",
    "micro_rewards", "mr_four_plays", "mr_three_failed", "mr_habitual_pair", "mr_finale", "mr_same_turn_bonus",
    "reward_draw", "reward_untap", "reward_flip", "reward_destroy",
    "micro_boosts", "mb_cards_per_phase", "mb_clean_streak", "boost_draw", "boost_humility",
)
#: columns counting events of one kind (``Game.event_counts``, every mode): column -> event kind
LOG_COUNTS = {
    "threats_played": "threat_played",
    "threats_resisted": "resisted",
    "threats_failed": "failed",
    "habituals_taken": "took_hold",
    "habituals_broken": "habitual_broken",
    "abilities_gained": "ability_gained",
    "abilities_used": "ability_used",
    "overflow_discards": "overflow_discard",
}
#: duel.counts keys that the log columns already cover
_COVERED = {"threats_played", "threats_resisted", "habituals_taken"}
COUNT_COLUMNS = tuple(LOG_COUNTS) + DUEL_COUNTS
#: the pace measures :class:`~.lab_games.LockWatch` takes during a game (-1 in a row: not measured, as
#: in games stored before the lab measured it): column -> its SQL declaration
MEASURE_COLUMNS = {
    "locked": "locked INTEGER NOT NULL DEFAULT -1",      # longest run of own turns a seat had no option but to pass
    "first_evil_decisions": "first_evil_decisions INTEGER NOT NULL DEFAULT -1",  # decisions the first Evil turn took
    "pass_turns": "pass_turns INTEGER NOT NULL DEFAULT -1",   # own turns in which the seat could only pass
}
#: the columns of a game row, in order (all determined by the cell and the game's seed)
ROW_COLUMNS = ("cell", "idx", "seed", "winner", "reason", "ended", "turns", "rounds", "actions",
               "score_r", "score_e", "maturity") + COUNT_COLUMNS + ("extra", *MEASURE_COLUMNS)

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS cells (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,          -- JSON of the spec below + code: one cell, one key
    mode TEXT NOT NULL, lineup TEXT NOT NULL, bots TEXT NOT NULL,
    settings TEXT NOT NULL,            -- the full Settings as JSON
    grid TEXT NOT NULL,                -- the settings the grid set, as given (JSON)
    seed INTEGER NOT NULL,             -- the cell seed: game i has game_seed(seed, i)
    label TEXT NOT NULL,
    code TEXT NOT NULL                 -- fingerprint of engine, cards and bots
);
CREATE TABLE IF NOT EXISTS games (
    cell INTEGER NOT NULL REFERENCES cells(id), idx INTEGER NOT NULL, seed INTEGER NOT NULL,
    winner TEXT, reason TEXT NOT NULL, ended TEXT NOT NULL,
    turns INTEGER NOT NULL, rounds INTEGER NOT NULL, actions INTEGER NOT NULL,
    score_r INTEGER NOT NULL, score_e INTEGER NOT NULL, maturity INTEGER NOT NULL,
    {", ".join(f"{c} INTEGER NOT NULL" for c in COUNT_COLUMNS)},
    extra TEXT NOT NULL,
    {", ".join(MEASURE_COLUMNS.values())},
    PRIMARY KEY (cell, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, started REAL NOT NULL, finished REAL, backend TEXT NOT NULL,
    workers INTEGER NOT NULL, cells TEXT NOT NULL, games_played INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL DEFAULT 0, complete INTEGER NOT NULL DEFAULT 0
);
"""


def _end_kind(winner: str | None, reason: str) -> str:
    if winner is None:
        return "unfinished"
    if reason.startswith("turn cap"):
        return f"turn_cap_{winner}"
    if reason.startswith("round limit"):   # the roundLimit variant: a score ending, not a real win
        return f"round_limit_{winner}"
    return winner


def game_row(cell_id: int, index: int, seed: int, game: Any, locked: int = -1, first_evil_decisions: int = -1,
             pass_turns: int = -1) -> tuple[Any, ...]:
    """The stored row of a played game (see :data:`ROW_COLUMNS`); ``locked``, ``first_evil_decisions``
    and ``pass_turns`` from :class:`~.lab_games.LockWatch` (-1: not measured)."""
    res = game.result
    winner = res.winner if res is not None else None
    reason = res.reason if res is not None else "unfinished"
    rounds = min(game.round, game.settings.max_rounds) if game.mode.has_round_limit else game.round
    if reason.startswith("round limit"):
        # the roundLimit variant ends the duel as round N + 1 would start: N rounds were played
        rounds = min(rounds, game.settings.round_limit)
    score_r, score_e = game.score
    maturity = sum(s.maturity for s in game.state.seats if s.side == "righteous")
    kinds = game.event_counts   # every event the game emitted, by kind (with or without a log)
    log_counts = [kinds.get(kind, 0) for kind in LOG_COUNTS.values()]
    duel = getattr(game.state, "duel", None)
    counts: dict[str, int] = dict(duel.counts) if duel is not None else {}
    duel_counts = [int(counts.pop(k, 0)) for k in DUEL_COUNTS]
    extra = {k: v for k, v in sorted(counts.items()) if k not in _COVERED}
    return (cell_id, index, seed, winner, reason, _end_kind(winner, reason), game.state.turn_no, rounds,
            game.action_count, score_r, score_e, maturity, *log_counts, *duel_counts, json.dumps(extra), locked,
            first_evil_decisions, pass_turns)


# ---------------------------------------------------------------------------------------- storage
_FINGERPRINT: str | None = None


def code_fingerprint(fresh: bool = False) -> str:
    """A short hash of the engine, the card data and the bots (as parsed: comments do not count):
    games stored by other code are never mixed with these (a changed rule starts its cells afresh).
    Computed once a process unless ``fresh``."""
    global _FINGERPRINT
    if _FINGERPRINT is None or fresh:
        root = Path(__file__).resolve().parent.parent
        h = hashlib.sha1()
        for sub, pattern in (("engine", "*.py"), ("bots", "*.py"), ("cards", "*.py"), ("cards/data", "*.toml")):
            for p in sorted((root / sub).glob(pattern)):
                h.update(p.relative_to(root).as_posix().encode())
                data = p.read_bytes()
                if p.suffix == ".py":
                    try:   # the code as Python reads it: comments and layout do not count
                        data = ast.dump(ast.parse(data)).encode()
                    except SyntaxError:
                        pass
                h.update(data)
        _FINGERPRINT = h.hexdigest()[:12]
    return _FINGERPRINT


def connect(path: str | os.PathLike[str]) -> sqlite3.Connection:
    """Open (and create) a lab database."""
    conn = sqlite3.connect(str(path), timeout=30)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.executescript(SCHEMA)
    _migrate(conn)
    return conn


def _migrate(conn: sqlite3.Connection) -> None:
    """Bring a database from before a pace measure (:data:`MEASURE_COLUMNS`) up to date: its games
    read -1 there (not measured)."""
    cols = {r[1] for r in conn.execute("PRAGMA table_info(games)")}
    missing = [decl for name, decl in MEASURE_COLUMNS.items() if cols and name not in cols]
    if missing:
        with conn:
            for decl in missing:
                conn.execute(f"ALTER TABLE games ADD COLUMN {decl}")


def open_existing(path: str | os.PathLike[str]) -> sqlite3.Connection:
    """Open a lab database that must exist (for reports and replays)."""
    p = Path(path)
    if not p.is_file():
        raise LabError(f"no lab database at {p}")
    try:
        conn = sqlite3.connect(f"file:{p}?mode=rw", uri=True, timeout=30)
        conn.execute("SELECT 1 FROM cells LIMIT 1")
        _migrate(conn)
    except sqlite3.DatabaseError as exc:
        raise LabError(f"{p} is not a lab database ({exc})") from None
    return conn


def register_cells(conn: sqlite3.Connection, cells: Sequence[CellSpec]) -> list[int]:
    """The database ids of ``cells`` (new cells are added, in order)."""
    code = code_fingerprint()
    ids = []
    with conn:
        for c in cells:
            key = c.key(code)
            row = conn.execute("SELECT id FROM cells WHERE key = ?", (key,)).fetchone()
            if row is None:
                cur = conn.execute(
                    "INSERT INTO cells (key, mode, lineup, bots, settings, grid, seed, label, code) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (key, c.mode, c.lineup, ",".join(c.bots), json.dumps(c.settings, sort_keys=True),
                     json.dumps(c.grid), c.seed, c.label, code))
                ids.append(int(cur.lastrowid or 0))
            else:
                ids.append(int(row[0]))
    return ids


def stale_cells(conn: sqlite3.Connection, cells: Sequence[CellSpec]) -> int:
    """How many of ``cells`` have games stored by other code (their games are not reused)."""
    code = code_fingerprint()
    n = 0
    for c in cells:
        spec = c.to_json()
        for (key,) in conn.execute("SELECT key FROM cells WHERE mode = ? AND lineup = ? AND seed = ? AND code != ?",
                                   (c.mode, c.lineup, c.seed, code)):
            other = json.loads(key)
            other.pop("code", None)
            if other == spec:
                n += 1
                break
    return n


def stored_indices(conn: sqlite3.Connection, cell_id: int) -> set[int]:
    return {r[0] for r in conn.execute("SELECT idx FROM games WHERE cell = ?", (cell_id,))}


def write_rows(conn: sqlite3.Connection, rows: Sequence[tuple[Any, ...]]) -> int:
    """One transaction; a game already stored is left as it is. Returns how many were new."""
    sql = f"INSERT OR IGNORE INTO games ({', '.join(ROW_COLUMNS)}) VALUES ({', '.join('?' * len(ROW_COLUMNS))})"
    with conn:
        before = conn.total_changes
        conn.executemany(sql, rows)
        return conn.total_changes - before


def cell_spec(conn: sqlite3.Connection, cell_id: int) -> dict[str, Any]:
    row = conn.execute("SELECT mode, lineup, bots, settings, seed, label, code, grid FROM cells WHERE id = ?",
                       (cell_id,)).fetchone()
    if row is None:
        n = conn.execute("SELECT COUNT(*) FROM cells").fetchone()[0]
        raise LabError(f"there is no cell {cell_id} in this database (cells 1 to {n})")
    mode, lineup, bots, settings, seed, label, code, grid = row
    given = json.loads(grid)
    spec = {"mode": mode, "lineup": lineup, "bots": bots.split(","), "settings": json.loads(settings),
            "seed": seed, "label": label, "code": code, "grid": given}
    changes = {k: card_param(k).parse(str(v)) for k, v in given.items() if is_card_param_name(k)}
    if changes:   # the grid's card axes are the cell's card changes
        spec["cards"] = changes
    return spec


def fetch_rows(conn: sqlite3.Connection, cell_ids: Sequence[int] | None = None) -> list[tuple[Any, ...]]:
    """Stored rows in (cell, idx) order, as :data:`ROW_COLUMNS` tuples."""
    sql = f"SELECT {', '.join(ROW_COLUMNS)} FROM games"
    if cell_ids is not None:
        sql += f" WHERE cell IN ({', '.join(str(int(c)) for c in cell_ids)})"
    return conn.execute(sql + " ORDER BY cell, idx").fetchall()
