"""The balance lab: a grid of variants, thousands of bot games a cell, results in SQLite.

A *grid* is one mode, a list of line-ups, setting axes (``evilInterrupt=0,1``) and bot line-ups;
every combination is a *cell*. Each cell plays games ``0 .. games-1`` with the seeds
``game_seed(cell.seed, i)``, where ``cell.seed`` is the run seed: every cell plays the same deals
(common random numbers), so variants are compared on the same shuffles. Games are independent,
so they run in chunks on a process pool (default), in this process (``serial``) or on a Ray
cluster (``ray``), with the same rows for the same seed whatever the backend.

Every game is one row of the ``games`` table (cell, index, seed, winner, reason, turns, rounds,
score, what fired, and the pace measures :class:`LockWatch` takes: locked seats, Evil's first
turn, pass-only turns). Each finished chunk is written in one transaction, and the primary key
(cell, index) makes a rerun skip what is stored: an interrupted run resumes where it stopped and
never stores a game twice. A stored game is replayed from its cell (mode, line-up, settings,
bots) and seed: :func:`replay_game`.

The parts: the grid (``lab_grid.py``), one game and its pace (``lab_games.py``), the rows and the
SQLite file (``lab_rows.py``) and the backends (``lab_backends.py``); this module runs a grid
(:func:`run_lab`) and replays a stored game. Their public names are importable from here.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .lab_backends import (BACKEND_RUNNERS, BACKENDS, DEFAULT_CHUNK, RunOptions, default_workers, pending_tasks,
                           ray_runtime_env)
from .lab_games import LOCK_TURNS, LockWatch, play_cell_game, play_cell_row, run_chunk
from .lab_grid import DUEL_TURN_CAP, CellSpec, Grid, LabError, build_grid, parse_axes
from .lab_rows import (COUNT_COLUMNS, DUEL_COUNTS, LOG_COUNTS, MEASURE_COLUMNS, ROW_COLUMNS, SCHEMA, cell_spec,
                       code_fingerprint, connect, fetch_rows, game_row, open_existing, register_cells, stale_cells,
                       stored_indices, write_rows)

__all__ = [
    "BACKENDS", "BACKEND_RUNNERS", "COUNT_COLUMNS", "DEFAULT_CHUNK", "DUEL_COUNTS", "DUEL_TURN_CAP", "LOCK_TURNS",
    "LOG_COUNTS", "MEASURE_COLUMNS", "ROW_COLUMNS", "SCHEMA", "build_grid", "cell_spec", "CellSpec",
    "code_fingerprint", "connect", "default_workers", "fetch_rows", "game_row", "Grid", "LabError",
    "LabInterrupted", "LabRun", "load_average", "LockWatch", "open_existing", "parse_axes", "play_cell_game",
    "play_cell_row", "ray_runtime_env", "register_cells", "replay_game", "Replayed", "run_chunk", "run_lab",
    "RunOptions", "stale_cells", "stored_indices", "write_rows",
]


def load_average() -> list[float]:
    """The machine's load average (1, 5, 15 minutes), rounded; empty where the system has none.
    Every bench prints it beside its figures: this machine is shared and timings move with it."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):  # pragma: no cover - not Unix
        return []


class LabInterrupted(RuntimeError):
    """The run stopped before every game was played (``stop_after_chunks`` or Ctrl-C).

    What was written stays written; running the same grid again resumes."""

    def __init__(self, message: str, played: int) -> None:
        super().__init__(message)
        self.played = played


# ---------------------------------------------------------------------------------------- the run
@dataclass
class LabRun:
    """What a run did: the cells' database ids, games played now and already stored."""

    db: Path
    grid: Grid
    cell_ids: list[int]
    played: int
    skipped: int
    seconds: float
    backend: str
    workers: int

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0


def run_lab(grid: Grid, db: str | os.PathLike[str], backend: str = "process", workers: int | None = None,
            chunk: int = DEFAULT_CHUNK, address: str | None = None,
            progress: Callable[[int, int], None] | None = None, stop_after_chunks: int | None = None,
            *, options: RunOptions | None = None) -> LabRun:
    """Play every game of ``grid`` not yet stored in ``db`` and store it: the one way a grid is
    played (the ``lab`` command, the tuner's trials, the benches).

    ``options`` says where and how (:class:`RunOptions`); without it, ``backend``, ``workers``,
    ``chunk`` and ``address`` make one (and are checked there). ``progress(done, total)`` is called
    as chunks are stored (games of this grid, stored ones included). ``stop_after_chunks`` stops
    the run after that many chunks have been written (a stand-in for a kill, for tests): it raises
    :class:`LabInterrupted`, as Ctrl-C does."""
    if options is None:
        options = RunOptions(backend, workers, address, chunk)
    elif (backend, workers, chunk, address) != ("process", None, DEFAULT_CHUNK, None):
        raise LabError("run_lab: give options or backend, workers, chunk and address, not both")
    backend, workers, chunk = options.backend, options.pool, options.chunk
    conn = connect(db)
    try:
        cell_ids = register_cells(conn, grid.cells)
        tasks = pending_tasks(conn, grid, cell_ids, chunk, workers)
        todo = sum(len(t[2]) for t in tasks)
        skipped = grid.total - todo
        with conn:
            cur = conn.execute("INSERT INTO runs (started, backend, workers, cells) VALUES (?, ?, ?, ?)",
                               (time.time(), backend, workers, json.dumps(cell_ids)))
        run_id = cur.lastrowid
        done = skipped
        played = 0
        chunks = 0
        t0 = time.perf_counter()
        if progress is not None:
            progress(done, grid.total)
        runner = BACKEND_RUNNERS[backend](tasks, workers, address=options.address) if tasks else iter(())
        try:
            for rows in runner:
                played += write_rows(conn, rows)
                done += len(rows)
                chunks += 1
                if progress is not None:
                    progress(done, grid.total)
                if stop_after_chunks is not None and chunks >= stop_after_chunks and done < grid.total:
                    raise LabInterrupted(f"stopped after {chunks} chunks ({played} games played)", played)
        except KeyboardInterrupt:
            raise LabInterrupted(f"interrupted after {played} games", played) from None
        finally:
            close = getattr(runner, "close", None)
            if close is not None:
                close()   # shuts the pool down (or Ray) before we return or raise
            seconds = time.perf_counter() - t0
            with conn:
                conn.execute("UPDATE runs SET finished = ?, games_played = ?, seconds = ?, complete = ? WHERE id = ?",
                             (time.time(), played, seconds, int(done >= grid.total), run_id))
        return LabRun(Path(db), grid, cell_ids, played, skipped, seconds, backend, workers)
    finally:
        conn.close()


# ---------------------------------------------------------------------------------------- replay
@dataclass
class Replayed:
    """A stored game played again: the game, its stored row, the row it gives now."""

    game: Any
    stored: dict[str, Any]
    replayed: dict[str, Any]
    spec: dict[str, Any]

    def _differs(self, column: str) -> bool:
        """A pace measure stored as -1 was not measured then: it cannot differ."""
        if column in MEASURE_COLUMNS and self.stored[column] == -1:
            return False
        return bool(self.stored[column] != self.replayed[column])

    @property
    def matches(self) -> bool:
        return not any(self._differs(k) for k in ROW_COLUMNS)

    def differences(self) -> list[str]:
        return [f"{k}: stored {self.stored[k]!r}, now {self.replayed[k]!r}"
                for k in ROW_COLUMNS if self._differs(k)]


def replay_game(db: str | os.PathLike[str], cell_id: int, index: int) -> Replayed:
    """Play game ``index`` of cell ``cell_id`` again from its cell and seed (the bots are
    deterministic given their seeds), and compare it with what is stored."""
    conn = open_existing(db)
    try:
        spec = cell_spec(conn, cell_id)
        row = conn.execute(f"SELECT {', '.join(ROW_COLUMNS)} FROM games WHERE cell = ? AND idx = ?",
                           (cell_id, index)).fetchone()
        if row is None:
            n = conn.execute("SELECT COUNT(*), MAX(idx) FROM games WHERE cell = ?", (cell_id,)).fetchone()
            hint = f"games 0 to {n[1]} are stored" if n[0] else "no game of it is stored yet"
            raise LabError(f"game {index} of cell {cell_id} is not stored ({hint})")
    finally:
        conn.close()
    game, now = play_cell_row(cell_id, spec, index)
    return Replayed(game, dict(zip(ROW_COLUMNS, row)), dict(zip(ROW_COLUMNS, now)), spec)
