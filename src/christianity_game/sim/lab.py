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
"""

from __future__ import annotations

import ast
import hashlib
import itertools
import json
import os
import sqlite3
import time
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from ..cards.loader import starter_set
from ..cards.params import card_param, is_card_param_name, with_card_changes
from ..engine.actions import Pass
from ..engine.settings import Settings
from .simulate import game_seed, play_one


def load_average() -> list[float]:
    """The machine's load average (1, 5, 15 minutes), rounded; empty where the system has none.
    Every bench prints it beside its figures: this machine is shared and timings move with it."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):  # pragma: no cover - not Unix
        return []

#: Duel cells get this turn cap unless the grid sets maxTurns (a duel has no round limit).
DUEL_TURN_CAP = 200
#: A game is "locked" when some seat goes this many of its own turns in a row with no option but
#: to pass (the target: fewer than 1 % of games locked).
LOCK_TURNS = 5
DEFAULT_CHUNK = 25
BACKENDS = ("process", "serial", "ray")

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
#: the pace measures :class:`LockWatch` takes during a game (-1 in a row: not measured, as in games
#: stored before the lab measured it): column -> its SQL declaration
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


class LabError(ValueError):
    """A grid that cannot run (unknown setting, bad value, mode, line-up or bot, no games)."""


class LabInterrupted(RuntimeError):
    """The run stopped before every game was played (``stop_after_chunks`` or Ctrl-C).

    What was written stays written; running the same grid again resumes."""

    def __init__(self, message: str, played: int) -> None:
        super().__init__(message)
        self.played = played


# ---------------------------------------------------------------------------------------- grid
@dataclass(frozen=True)
class CellSpec:
    """One variant: everything needed to play (and replay) its games."""

    mode: str
    lineup: str
    bots: tuple[str, ...]          # one level for every seat, or one a seat
    settings: dict[str, Any]       # the full Settings (field names)
    grid: dict[str, str]           # what the grid set, as given (for labels)
    seed: int
    label: str
    cards: dict[str, int] = field(default_factory=dict)   # card changes (cards/params.py): name -> value

    def to_json(self) -> dict[str, Any]:
        spec = {"mode": self.mode, "lineup": self.lineup, "bots": list(self.bots), "settings": self.settings,
                "seed": self.seed}
        if self.cards:   # only then: a cell without card changes keeps the key it always had
            spec["cards"] = dict(self.cards)
        return spec

    @property
    def bots_arg(self) -> str | list[str]:
        return self.bots[0] if len(self.bots) == 1 else list(self.bots)

    def key(self, code: str) -> str:
        return json.dumps({**self.to_json(), "code": code}, sort_keys=True)


@dataclass
class Grid:
    """The validated grid of a run: its cells in order, and notes for the report."""

    cells: list[CellSpec]
    games: int
    seed: int
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.cells) * self.games


def _split(text: str) -> list[str]:
    return [p.strip() for p in text.split(",") if p.strip()]


def parse_axes(pairs: Iterable[str] | None) -> dict[str, list[str]]:
    """``["evilInterrupt=0,1", "soloFee=1,2"]`` -> ``{"evilInterrupt": ["0", "1"], ...}``."""
    axes: dict[str, list[str]] = {}
    seen: dict[str, str] = {}
    for item in pairs or []:
        key, sep, values = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise LabError(f"--set takes key=value or key=v1,v2,... (for example evilInterrupt=0,1), not {item!r}")
        name = Settings.ALIASES.get(key, key)
        if name in seen:
            raise LabError(f"setting {key!r} is given twice (as {seen[name]!r} too): give its values once, "
                           "separated by commas")
        seen[name] = key
        vals = _split(values)
        if not vals:
            raise LabError(f"--set {key}= needs at least one value")
        if len(set(vals)) != len(vals):
            raise LabError(f"--set {key}: a value is listed twice in {values!r}")
        axes[key] = vals
    return axes


def build_grid(mode: str = "duel", lineups: Sequence[str] | str = ("ER",), axes: dict[str, list[str]] | None = None,
               bots: Sequence[str] | str = ("heuristic",), games: int = 100, seed: int = 0) -> Grid:
    """Check every part of the grid and return its cells; a clear :class:`LabError` otherwise.

    ``lineups``: line-ups (a list, or one comma-separated text). ``axes``: setting name (or URL
    alias) -> values. ``bots``: bot line-ups, each one level for every seat or a comma-separated
    level a seat. Nothing is played here, but every cell's first game is dealt to check it."""
    from ..bots.registry import make_bot
    from ..engine.game import Game
    from ..engine.modes import mode_by_name

    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise LabError(f"games must be at least 1 a cell, not {games!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise LabError(f"seed must be a whole number 0 or more, not {seed!r}")
    try:
        mode_by_name(mode)
    except ValueError as exc:
        raise LabError(str(exc)) from None
    if isinstance(lineups, str):
        lineups = _split(lineups)
    lineups = [lu.strip().upper() for lu in lineups if lu.strip()]
    if not lineups:
        raise LabError("give at least one line-up, e.g. --lineup ER,EER")
    if len(set(lineups)) != len(lineups):
        raise LabError(f"a line-up is listed twice: {','.join(lineups)}")
    if isinstance(bots, str):
        bots = [bots]
    bot_lineups: list[tuple[str, ...]] = []
    for b in bots:
        levels = tuple(_split(b))
        if not levels:
            raise LabError("--bots needs a bot level, e.g. heuristic or random")
        for level in levels:
            try:
                make_bot(level.partition("=")[2] if "=" in level else level, 0)
            except ValueError as exc:
                raise LabError(str(exc)) from None
        if any("=" in level for level in levels):
            _bots_by_side(levels)   # checked here, resolved per line-up below
        bot_lineups.append(levels)
    if len(set(bot_lineups)) != len(bot_lineups):
        raise LabError("a bot line-up is listed twice")
    axes = dict(axes or {})
    # each value on its own first, so the message names the one that is wrong; an axis named like
    # cost.<card> / copies.<card> / resistance.<card> changes the duel Evil deck's card data
    card_axes: dict[str, list[int]] = {}
    for key, values in axes.items():
        if is_card_param_name(key):
            if mode != "duel":
                raise LabError(f"--set {key}: card parameters are the duel Evil deck's; this is a {mode} grid")
            try:
                param = card_param(key)
                card_axes[key] = [param.parse(v) for v in values]
            except ValueError as exc:
                raise LabError(f"bad card parameter {key}: {exc}") from None
            continue
        for v in values:
            try:
                Settings().updated({key: v})
            except ValueError as exc:
                raise LabError(f"bad setting {key}={v}: {exc}") from None
    notes: list[str] = []
    names = {Settings.ALIASES.get(k, k) for k in axes}
    capped = mode == "duel" and "max_turns" not in names
    if capped:
        notes.append(f"The printed duel has no round limit (a cell that plays the roundLimit variant ends at "
                     f"its own first): every cell ran with a turn cap of {DUEL_TURN_CAP} "
                     f"(maxTurns={DUEL_TURN_CAP}, the lab's default, since the grid did not set maxTurns). "
                     "A game that reaches it is decided by the stalemate score (D-SCORE), ties to Evil.")
    cells: list[CellSpec] = []
    keys = list(axes)
    for lineup in lineups:
        try:
            mode_by_name(mode).check_lineup(lineup)
        except ValueError as exc:
            raise LabError(f"line-up {lineup}: {exc}") from None
        for combo in itertools.product(*(axes[k] for k in keys)):
            chosen = dict(zip(keys, combo))
            changes = {k: card_axes[k][axes[k].index(v)] for k, v in chosen.items() if k in card_axes}
            try:
                settings = Settings().updated({k: v for k, v in chosen.items() if k not in card_axes})
                if capped:
                    settings = settings.updated({"max_turns": DUEL_TURN_CAP})
            except ValueError as exc:
                raise LabError(f"bad settings {chosen}: {exc}") from None
            for given in bot_lineups:
                levels = _seat_levels(given, lineup)
                if len(levels) not in (1, len(lineup)):
                    raise LabError(f"bots {','.join(levels)}: give one level for every seat or one a seat "
                                   f"({len(lineup)} for line-up {lineup})")
                try:
                    Game.new(mode=mode, lineup=lineup, seed=game_seed(seed, 0), settings=settings,
                             card_set=with_card_changes(starter_set(), changes) if changes else None)
                except ValueError as exc:
                    raise LabError(f"{mode} {lineup}: {exc}") from None
                label = " · ".join([lineup, *(f"{k}={v}" for k, v in chosen.items()), ",".join(levels)])
                cells.append(CellSpec(mode, lineup, levels, settings.to_dict(), chosen, seed, label, changes))
    return Grid(cells, games, seed, notes)


def _bots_by_side(levels: Sequence[str]) -> dict[str, str]:
    """``("evil=search:4it", "righteous=heuristic")`` -> {side: level}: a bot pairing by side, so one
    pairing fits every line-up of a grid (ER, EER and ERR alike). Each side is named once."""
    sides: dict[str, str] = {}
    for item in levels:
        side, sep, level = item.partition("=")
        side = side.strip().lower()
        if not sep or side not in ("evil", "righteous") or not level.strip():
            raise LabError(f"bots {','.join(levels)}: a pairing by side names each side once, "
                           "e.g. evil=search:4it,righteous=heuristic (not a level a seat as well)")
        if side in sides:
            raise LabError(f"bots {','.join(levels)}: the {side} side is named twice")
        sides[side] = level.strip()
    return sides


def _seat_levels(given: tuple[str, ...], lineup: str) -> tuple[str, ...]:
    """The bot levels of one cell: ``given`` as it is, or a pairing by side resolved seat by seat
    for ``lineup`` (a side the pairing does not name plays the heuristic)."""
    if not any("=" in level for level in given):
        return given
    sides = _bots_by_side(given)
    return tuple(sides.get("evil" if letter == "E" else "righteous", "heuristic") for letter in lineup)


# ---------------------------------------------------------------------------------------- one game
def _end_kind(winner: str | None, reason: str) -> str:
    if winner is None:
        return "unfinished"
    if reason.startswith("turn cap"):
        return f"turn_cap_{winner}"
    if reason.startswith("round limit"):   # the roundLimit variant: a score ending, not a real win
        return f"round_limit_{winner}"
    return winner


class LockWatch:
    """Watches a game's decisions (``play_out(watch=...)``) to measure its pace.

    * *locked* (:meth:`longest`): the longest run of a seat's own turns in a row in which it never
      had an option but to pass (no decision of its own in that turn offered anything but
      ``Pass``; a turn with no decision at all counts too, since the engine skips decisions with
      one answer);
    * *pass-only turns* (:meth:`pass_turns`): how many own turns, of every seat, were like that;
    * *Evil's first turn* (:attr:`first_evil_decisions`): how many decisions (every seat's, the
      answers to its threats included) the first turn of an Evil seat took: how long the duel's
      opening turn keeps the table waiting.

    It needs no event log (lab games keep none): a game started by ``Game.new`` takes its turns in
    its turn order from the first seat, one turn number each, and ``event_counts["turn_started"]``
    says how many turns began."""

    __slots__ = ("options", "last_turn", "first_evil_turn", "first_evil_decisions")

    def __init__(self) -> None:
        self.options: set[tuple[int, int]] = set()   # (seat, turn_no): an own turn with an option
        self.last_turn = 0                           # the last turn in which a decision came
        self.first_evil_turn = 0                     # turn_no of the first Evil turn (0: none yet)
        self.first_evil_decisions = -1               # -1: no Evil turn (co-op, solo)

    def __call__(self, game: Any, seat: int, actions: Sequence[Any]) -> None:
        turn = game.state.turn_no
        self.last_turn = turn
        if turn == self.first_evil_turn:
            self.first_evil_decisions += 1
        elif not self.first_evil_turn and turn >= 1 and game.state.seats[game.turn_seat].side == "evil":
            self.first_evil_turn = turn
            self.first_evil_decisions = 1
        if seat != game.turn_seat:
            return
        key = (seat, game.state.turn_no)
        if key in self.options:
            return
        for a in actions:
            if type(a) is not Pass:
                self.options.add(key)
                return

    def longest(self, game: Any) -> int:
        """The longest run of locked own turns of any seat in ``game``."""
        order = game.turn_order
        runs: dict[int, int] = {}
        best = 0
        for turn in range(1, game.event_counts.get("turn_started", 0) + 1):
            seat = order[(turn - 1) % len(order)]
            if (seat, turn) in self.options:
                runs[seat] = 0
            else:
                runs[seat] = runs.get(seat, 0) + 1
                best = max(best, runs[seat])
        return best

    def pass_turns(self, game: Any) -> int:
        """How many own turns of every seat in ``game`` offered nothing but to pass. A last turn
        the game ended at the start of (a win, the round limit or the turn cap is judged as a turn
        starts) was never played and does not count."""
        order = game.turn_order
        begun = game.event_counts.get("turn_started", 0)
        if game.result is not None and begun > self.last_turn:
            begun -= 1
        return sum(1 for turn in range(1, begun + 1) if (order[(turn - 1) % len(order)], turn) not in self.options)


def game_row(cell_id: int, index: int, seed: int, game: Any, locked: int = -1, first_evil_decisions: int = -1,
             pass_turns: int = -1) -> tuple[Any, ...]:
    """The stored row of a played game (see :data:`ROW_COLUMNS`); ``locked``, ``first_evil_decisions``
    and ``pass_turns`` from :class:`LockWatch` (-1: not measured)."""
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


def play_cell_game(spec: dict[str, Any], index: int, watch: LockWatch | None = None) -> Any:
    """Play game ``index`` of a cell (``spec`` as :meth:`CellSpec.to_json`): the Game itself."""
    settings = Settings.from_dict(spec["settings"])
    bots = spec["bots"]
    changes = spec.get("cards") or {}
    return play_one(spec["mode"], spec["lineup"], game_seed(spec["seed"], index),
                    bots[0] if len(bots) == 1 else list(bots), settings, watch=watch, log=False,
                    card_set=_changed_cards(changes) if changes else None)


def _changed_cards(changes: Mapping[str, int]) -> Any:
    """The starter set with a cell's card changes, made once a worker process (a cell's games share it)."""
    key = json.dumps(dict(changes), sort_keys=True)
    found = _CHANGED.get(key)
    if found is None:
        found = _CHANGED[key] = with_card_changes(starter_set(), changes)
    return found


_CHANGED: dict[str, Any] = {}


def play_cell_row(cell_id: int, spec: dict[str, Any], index: int) -> tuple[Any, tuple[Any, ...]]:
    """Play game ``index`` of a cell: the Game and its row, the pace measures included."""
    watch = LockWatch()
    game = play_cell_game(spec, index, watch)
    return game, game_row(cell_id, index, game_seed(spec["seed"], index), game, watch.longest(game),
                          watch.first_evil_decisions, watch.pass_turns(game))


def run_chunk(cell_id: int, spec: dict[str, Any], indices: Sequence[int]) -> list[tuple[Any, ...]]:
    """Play some games of one cell and return their rows (the unit of work of every backend)."""
    return [play_cell_row(cell_id, spec, i)[1] for i in indices]


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


# ---------------------------------------------------------------------------------------- backends
Task = tuple[int, dict[str, Any], list[int]]


def _tasks(conn: sqlite3.Connection, grid: Grid, cell_ids: Sequence[int], chunk: int, workers: int = 1) -> list[Task]:
    """The games not yet stored, in chunks, the cells taken in turn (a slow cell's chunks are
    spread over the run, so every cell grows as it runs). The last chunks are cut smaller, so
    the workers finish together rather than one waiting for another's long chunk."""
    per_cell: list[list[Task]] = []
    for cid, cell in zip(cell_ids, grid.cells):
        done = stored_indices(conn, cid)
        todo = [i for i in range(grid.games) if i not in done]
        spec = cell.to_json()
        per_cell.append([(cid, spec, todo[k:k + chunk]) for k in range(0, len(todo), chunk)])
    tasks = [t for group in itertools.zip_longest(*per_cell) for t in group if t is not None]
    tail = 2 * workers
    if workers > 1 and chunk > 1 and len(tasks) > tail:
        small = max(1, chunk // 4)
        tasks[-tail:] = [(cid, spec, idx[k:k + small]) for cid, spec, idx in tasks[-tail:]
                         for k in range(0, len(idx), small)]
    return tasks


def _serial(tasks: Sequence[Task], workers: int, **_: Any) -> Iterator[list[tuple[Any, ...]]]:
    for cid, spec, idx in tasks:
        yield run_chunk(cid, spec, idx)


def _warm() -> None:
    """Worker start: Ctrl-C is the parent's to handle (it stops the pool); load the cards once."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from ..cards.loader import starter_set
    starter_set()


def _process(tasks: Sequence[Task], workers: int, **_: Any) -> Iterator[list[tuple[Any, ...]]]:
    """A pool of ``workers`` processes, a few chunks in flight each; results as they finish."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    ctx = multiprocessing.get_context("spawn")   # no fork of a threaded parent (Rich's refresher)
    pending: set[Future[list[tuple[Any, ...]]]] = set()
    queue = deque(tasks)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_warm)
    try:
        while queue or pending:
            while queue and len(pending) < 2 * workers:
                cid, spec, idx = queue.popleft()
                pending.add(pool.submit(run_chunk, cid, spec, idx))
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                yield fut.result()
    finally:
        for fut in pending:
            fut.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


RAY_CONNECT_HINT = (
    ". Is the head running there (ray status --address ADDRESS)? Run the lab on a node of the cluster. "
    "A cluster started with token authentication (RAY_AUTH_MODE=token) refuses a driver without its "
    "token: set RAY_AUTH_MODE=token here too, with the cluster's token in RAY_AUTH_TOKEN, in a file named "
    "by RAY_AUTH_TOKEN_PATH, or in ~/.ray/auth_token (ray get-auth-token on the head prints it). "
    "See docs/developers.md, \"The lab on a Ray cluster\"."
)


def ray_runtime_env() -> dict[str, Any]:
    """The runtime environment the lab's Ray tasks run in on a cluster: this package itself is
    shipped to every node (``py_modules``), so nodes need only Python and the package's
    dependencies (the same ``pip install 'christianity-game[cluster]'``), not this checkout."""
    return {"py_modules": [str(Path(__file__).resolve().parent.parent)]}


def _start_ray(address: str | None) -> bool:
    """Start Ray in this process unless it runs already: ``ray.init(address)`` (a cluster's
    address, or none for a local Ray). True when this call started it (then the caller shuts it
    down); a clear :class:`LabError` when Ray is missing or cannot be reached."""
    try:
        import ray
    except ImportError:
        raise LabError("the ray backend needs Ray: pip install 'christianity-game[cluster]'") from None
    if ray.is_initialized():
        return False
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    if address:
        kwargs["address"] = address
        # ship this package to the cluster's workers (they need not have it installed)
        kwargs["runtime_env"] = ray_runtime_env()
    try:
        ray.init(**kwargs)
    except Exception as exc:  # noqa: BLE001 - ConnectionError and Ray's own errors
        raise LabError(f"cannot start or reach Ray{' at ' + address if address else ''}: {exc}"
                       + (RAY_CONNECT_HINT if address else "")) from None
    return True


def _ray(tasks: Sequence[Task], workers: int, address: str | None = None, **_: Any) -> Iterator[list[tuple[Any, ...]]]:
    """The same chunks as Ray tasks: on the Ray already started in this process (a
    :meth:`RunOptions.session`), or on one started for this run (:func:`_start_ray`)."""
    started = _start_ray(address)   # a LabError when Ray is missing
    import ray

    pending: list[Any] = []
    try:
        remote = ray.remote(num_cpus=1, max_retries=3)(run_chunk)
        slots = max(2, 2 * int(ray.cluster_resources().get("CPU", workers)))  # type: ignore[no-untyped-call]
        queue = deque(tasks)
        while queue or pending:
            while queue and len(pending) < slots:
                cid, spec, idx = queue.popleft()
                pending.append(remote.remote(cid, spec, idx))
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        for ref in pending:   # stopped early: the cluster need not finish what nobody will store
            try:
                ray.cancel(ref)
            except Exception:  # noqa: BLE001 - already finished, or Ray is going away
                pass
        if started:
            ray.shutdown()


BACKEND_RUNNERS: dict[str, Callable[..., Iterator[list[tuple[Any, ...]]]]] = {
    "serial": _serial, "process": _process, "ray": _ray,
}


def default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class RunOptions:
    """Where and how a grid's games are played: the backend (:data:`BACKENDS`), its worker
    processes (None: every core; ``serial`` plays in this process, one), the Ray cluster's address
    (``ray`` only) and the games of a task. Checked as it is made (a clear :class:`LabError`): the
    one check of these options, for :func:`run_lab`, the ``lab`` command and the tuner."""

    backend: str = "process"
    workers: int | None = None
    address: str | None = None
    chunk: int = DEFAULT_CHUNK

    def __post_init__(self) -> None:
        if self.backend not in BACKEND_RUNNERS:
            raise LabError(f"--backend must be one of {', '.join(BACKENDS)}, not {self.backend!r}")
        if self.address is not None and self.backend != "ray":
            raise LabError("--address is for --backend ray")
        if self.workers is not None and (isinstance(self.workers, bool) or self.workers < 1):
            raise LabError(f"--workers must be at least 1, not {self.workers}")
        if self.chunk < 1:
            raise LabError(f"--chunk must be at least 1, not {self.chunk}")

    @property
    def pool(self) -> int:
        """The worker processes a run uses: 1 for ``serial``, else ``workers`` or every core."""
        if self.backend == "serial":
            return 1
        return default_workers() if self.workers is None else self.workers

    @property
    def where(self) -> str:
        """The backend in words: ``process``, ``serial``, ``ray`` or ``ray at ADDRESS``."""
        return f"ray at {self.address}" if self.backend == "ray" and self.address else self.backend

    @contextmanager
    def session(self) -> Iterator[None]:
        """Hold the backend for several runs (a study's grids): with ``ray``, Ray is started once
        here (unless it runs already) and shut down at the end, and every run in between uses it."""
        started = self.backend == "ray" and _start_ray(self.address)
        try:
            yield
        finally:
            if started:
                import ray
                ray.shutdown()


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
        tasks = _tasks(conn, grid, cell_ids, chunk, workers)
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
