"""The rating ladder: a round robin of bot levels on mirrored seeds, rated with OpenSkill.

``christianity-game ladder --bots easy,normal,hard --games 20`` plays every pair of entrants on
the same seeds in every table (mode and line-up):

- **Duel** (each line-up): on every seed, A plays every Evil seat against B on every Righteous
  seat, and then the same seed with the sides swapped (mirrored games: the same deal, each entrant
  on each side once). A game won by a side is won by the entrant on that side; a game that ends
  at the turn cap (a safety cap of test games, not a rule) is a draw.
- **Co-op and solo** (each line-up): every entrant plays every seat of the same seeds; on a seed,
  the entrant whose table won beats the one whose table lost (both won or both lost: a draw).

Entrants are bot levels (``easy``, ``normal``, ``hard``, ``heuristic``, ``mcts:500it``, ...) or
outside bots by import path (``mypkg.mybot:MyBot``, a :class:`~christianity_game.bots.Bot` or any
class with ``choose(view, actions)``).

Ratings, two ways:

- OpenSkill's Plackett-Luce model (``openskill==6.2.0``, the ``dev`` extra), one update a game in a
  fixed order (table, seed, pair), reported as mu with a 95% interval (mu ± 1.96 sigma) and the
  conservative ``ordinal`` (mu - 3 sigma). It is made for people, whose skill moves between games:
  its sigma stops shrinking at about 1.6, so two levels that win 70% of their games against each
  other keep overlapping intervals however many games they play (mu apart by about 5).
- So beside it the Bradley-Terry strengths fitted to every result at once (``choix``'s maximum
  likelihood, the ``dev`` extra), on the Elo scale with a mean of 0, each with a 95% bootstrap
  interval over the deals (every game of a resampled deal goes in, so a mirrored pair stays
  together), and the gap of each entrant over the next one down with its own interval. A bot does
  not change between games, so these intervals narrow as the games add up.

Beside them the win matrix (wins of the row
entrant over the column entrant, draws apart, with a Wilson interval on the decisive games), one a
table and one over all, each entrant's record on each side of a duel table, each duel table scored
deal by deal as duplicate bridge scores a board (:meth:`LadderResult.deals`: where the same side won
both games of a deal, the entrant whose side won in fewer turns takes it, so a table one side wins
whatever the level still ranks the levels), and a plot (``ladder.png``). Outputs go to
``--out`` (``ladder.json``, ``ladder.md``, ``ladder.png``; written by ``bots/ladder_report.py``).

A run can be long (a pair with ``hard`` plays about a minute of CPU a duel), so every finished game
is a line of the game log (``games.jsonl`` in ``--out``) as it ends, and a run resumes from it: a
game already in the log (the same table, deal and entrant on each seat) is not played again. So a
stopped run goes on where it stopped, a larger ``--games`` plays only the new deals, and an entrant
added to the list plays only its own pairs. A game that raises stops the run (nothing more starts,
the games in play still reach the log) with a :class:`LadderGameFailed` that names it; Ctrl-C ends
the workers at once (``workers.map_unordered``), and the games that ended are in the log.
"""

from __future__ import annotations

import contextlib
import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from ..engine.game import Game
from ..engine.rng import Rng
from ..engine.settings import Settings
from ..stats import wilson
from .base import Bot
from .match import play_out
from .registry import BOTS, bot_from_path, level_of, make_bot
from ..workers import run_jobs

DUEL_TURN_CAP = 200


def entrant_bot(spec: str, seed: int) -> Bot:
    """A bot for an entrant: a level or bot name, else an import path (``package.module:Class``)."""
    head, sep, _ = spec.partition(":")
    if sep and head not in BOTS:   # a budgeted name (mcts:50it) starts with a bot's name; a path does not
        return bot_from_path(spec, seed)
    try:
        return make_bot(spec, seed)
    except ValueError as exc:
        if sep:
            raise   # a bad budget: its parser says what is wrong
        raise ValueError(f"{exc}; or an outside bot by import path, package.module:ClassName") from None


def check_entrant(spec: str) -> None:
    """Raise ValueError when ``spec`` names no bot."""
    entrant_bot(spec, 0)


def game_seed(run_seed: int, index: int) -> int:
    """The seed of deal ``index`` of a ladder (or strength) run. Not the lab's
    (``sim.simulate.game_seed``): the same run seed gives the ladder other deals than the lab, and
    recorded ladder and strength results replay only with this one, so the two stay apart."""
    rng = Rng(run_seed * 0x9E3779B1 + index * 7919 + 24)
    return rng.next64() & 0x7FFFFFFF


def read_game_log(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """The rows of a game log (one JSON object a line, as the ladder and the strength script write
    them), each with its line number. A last line cut off by a killed run is dropped from the file, so the run can go on and
    play that game again; any other line that is not a JSON object is refused with its line number."""
    if not path.exists():
        return []
    text = path.read_text()
    if text and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]   # the unfinished last line: played again
        path.write_text(text)
    rows: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as exc:
            raise ValueError(f"{path}:{number}: not a line of a game log ({exc})") from None
        if not isinstance(row, dict):
            raise ValueError(f"{path}:{number}: not a line of a game log (a JSON object a line)")
        rows.append((number, row))
    return rows


@dataclass(frozen=True)
class Table:
    mode: str
    lineup: str
    settings: Settings

    @property
    def label(self) -> str:
        return f"{self.mode} {self.lineup}"

    def key(self) -> str:
        """What makes two tables the same in a game log: mode, line-up and every setting."""
        return json.dumps([self.mode, self.lineup, self.settings.to_dict()], sort_keys=True)


#: one game: (table index, seed index, bots by seat as entrant indexes)
Job = tuple[int, int, tuple[int, ...]]


def _outcome(game: Game) -> str:
    """'righteous', 'evil' or 'draw' (the turn cap, or no result)."""
    res = game.state.result
    if res is None or res.reason.startswith("turn cap"):
        return "draw"
    return str(res.winner)


class LadderGameFailed(RuntimeError):
    """A game of the ladder raised: the message names the game (table, deal, seats, game seed and
    the turn it reached), so it can be played again alone; the worker's traceback is its cause."""


def play_job(entrants: list[str], tables: list[Table], run_seed: int, job: Job) -> tuple[Job, str, float, int]:
    """Play one game of the ladder; (the job, its outcome, seconds, its length in turns). A game
    that raises is a :class:`LadderGameFailed` naming it."""
    t, s, seats = job
    table = tables[t]
    seed = game_seed(run_seed, s)
    started = time.perf_counter()
    game = Game.new(mode=table.mode, lineup=table.lineup, seed=seed, settings=table.settings, log=False)
    bots = {i: entrant_bot(entrants[e], seed * 31 + i) for i, e in enumerate(seats)}
    try:
        play_out(game, bots)
    except Exception as exc:
        raise LadderGameFailed(
            f"a game raised {type(exc).__name__}: {exc} ({table.label}, run seed {run_seed}, deal {s}, "
            f"seats {', '.join(entrants[e] for e in seats)}, game seed {seed}, turn {game.state.turn_no}, "
            f"after {time.perf_counter() - started:.0f} s)") from exc
    return job, _outcome(game), time.perf_counter() - started, game.state.turn_no


def _jobs(n: int, tables: list[Table], games: int) -> list[Job]:
    jobs: list[Job] = []
    for t, table in enumerate(tables):
        for s in range(games):
            if table.mode == "duel":
                for a in range(n):
                    for b in range(n):
                        if a != b:   # a on the Evil seats, b on the Righteous ones
                            jobs.append((t, s, tuple(a if ch == "E" else b for ch in table.lineup)))
            else:
                for a in range(n):
                    jobs.append((t, s, tuple(a for _ in table.lineup)))
    return jobs


@dataclass
class Match:
    """One rated result: ``winner`` beat ``loser`` (or drew, ``draw``) on a table and seed."""

    table: int
    seed: int
    a: int
    b: int
    score: float   # 1: a won, 0: b won, 0.5: a draw
    turns: int | None = None   # a duel game's length in turns (None: logged before lengths were kept)


@dataclass
class LadderResult:
    entrants: list[str]
    tables: list[Table]
    games: int
    seed: int
    matches: list[Match] = field(default_factory=list)
    ratings: list[dict[str, Any]] = field(default_factory=list)
    strengths: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    game_seconds: dict[str, float] = field(default_factory=dict)
    resumed: int = 0   # games taken from the game log, not played by this run

    def matrix(self, table: int | None = None) -> list[list[tuple[int, int, int]]]:
        """(wins, losses, draws) of row entrant against column entrant."""
        n = len(self.entrants)
        m = [[(0, 0, 0) for _ in range(n)] for _ in range(n)]
        for x in self.matches:
            if table is not None and x.table != table:
                continue
            for i, j, sc in ((x.a, x.b, x.score), (x.b, x.a, 1.0 - x.score)):
                w, l, d = m[i][j]
                m[i][j] = (w + (sc == 1.0), l + (sc == 0.0), d + (sc == 0.5))
        return m

    def sides(self, table: int) -> list[dict[str, tuple[int, int, int]]]:
        """A duel table's results by side: for each entrant, (wins, losses, draws) on the Evil seats
        and on the Righteous ones, against every other entrant. How far apart an entrant's two
        records are says how much the table favours a side at that entrant's strength. A co-op or
        solo table has no sides (each entrant plays every seat): a ValueError."""
        if self.tables[table].mode != "duel":
            raise ValueError(f"{self.tables[table].label} has no sides: each entrant plays every seat")
        out: list[dict[str, tuple[int, int, int]]] = [{"evil": (0, 0, 0), "righteous": (0, 0, 0)}
                                                      for _ in self.entrants]
        for x in self.matches:
            if x.table != table:
                continue   # in a duel match ``a`` held the Evil seats and ``b`` the Righteous ones
            for who, side, sc in ((x.a, "evil", x.score), (x.b, "righteous", 1.0 - x.score)):
                w, l, d = out[who][side]
                out[who][side] = (w + (sc == 1.0), l + (sc == 0.0), d + (sc == 0.5))
        return out

    def deals(self, table: int) -> list[dict[str, Any]]:
        """A duel table scored deal by deal, as duplicate bridge scores a board: on each deal a pair
        played twice, ``a`` on the Evil seats and then on the Righteous ones. The entrant that did
        better over the two games takes the deal *outright* (it won one and drew the other, or won
        both). When the same side won both games, the side decided the deal and the wins say
        nothing about the entrants; then the deal goes to the entrant whose winning side won
        *faster*, in fewer turns (its side's win came sooner, or it held the other side off
        longer: both say it played better), and to neither when the two games were as long (or a
        length is not in the game log). Two draws are even. On a table one side wins whatever the
        level (duel EER with the recommended set) the mirrored wins are 50% by construction, and
        the lengths are what is left to tell the levels apart.

        One row a pair (``a`` before ``b`` in the entrants' order): the deals, those each took
        outright and by length, the even ones and those of unknown length, and ``a``'s share of the
        deals either took with its 95% Wilson interval. A co-op or solo table: a ValueError."""
        if self.tables[table].mode != "duel":
            raise ValueError(f"{self.tables[table].label} is not a duel: each entrant plays every seat")
        games = {(m.seed, m.a, m.b): m for m in self.matches if m.table == table}
        n = len(self.entrants)
        rows: list[dict[str, Any]] = []
        for a in range(n):
            for b in range(a + 1, n):
                outright = [0, 0]
                by_length = [0, 0]
                even = unknown = dealt = 0
                for seed in sorted({s for (s, x, y) in games if (x, y) == (a, b)}):
                    x, y = games[(seed, a, b)], games.get((seed, b, a))   # a as Evil, then a as Righteous
                    if y is None:
                        continue
                    dealt += 1
                    net = x.score - y.score   # a's result over the two games, above b's
                    if net:
                        outright[0 if net > 0 else 1] += 1
                    elif x.score == 0.5:
                        even += 1
                    elif x.turns is None or y.turns is None:
                        unknown += 1
                    elif x.turns == y.turns:
                        even += 1
                    else:   # Evil won both (x.score 1): a's Evil win came sooner; Righteous both: a's did
                        a_faster = x.turns < y.turns if x.score == 1.0 else y.turns < x.turns
                        by_length[0 if a_faster else 1] += 1
                took_a, took_b = outright[0] + by_length[0], outright[1] + by_length[1]
                lo, hi = wilson(took_a, took_a + took_b)
                rows.append({"a": self.entrants[a], "b": self.entrants[b], "deals": dealt,
                             "outright": outright, "by_length": by_length, "even": even, "unknown": unknown,
                             "share": None if took_a + took_b == 0 else round(took_a / (took_a + took_b), 4),
                             "interval": None if took_a + took_b == 0 else [round(lo, 4), round(hi, 4)]})
        return rows

    def to_json(self) -> dict[str, Any]:
        def record(w: int, l: int, d: int) -> dict[str, Any]:
            lo, hi = wilson(w, w + l)
            return {"wins": w, "losses": l, "draws": d,
                    "win_share": None if w + l == 0 else round(w / (w + l), 4),
                    "interval": None if w + l == 0 else [round(lo, 4), round(hi, 4)]}

        def mat(t: int | None) -> list[list[dict[str, Any]]]:
            return [[record(*cell) for cell in row] for row in self.matrix(t)]
        return {
            "entrants": self.entrants, "bots": [level_of(e) for e in self.entrants],
            "tables": [{"mode": t.mode, "lineup": t.lineup, "variants": t.settings.variants,
                        "max_turns": t.settings.max_turns} for t in self.tables],
            "games_a_table": self.games, "seed": self.seed, "ratings": self.ratings, "strengths": self.strengths,
            "matrix": mat(None), "matrix_by_table": {t.label: mat(i) for i, t in enumerate(self.tables)},
            "sides_by_table": {t.label: {e: {side: record(*r) for side, r in by_side.items()}
                                         for e, by_side in zip(self.entrants, self.sides(i))}
                               for i, t in enumerate(self.tables) if t.mode == "duel"},
            "deals_by_table": {t.label: self.deals(i) for i, t in enumerate(self.tables) if t.mode == "duel"},
            "matches": len(self.matches), "seconds": round(self.seconds, 1), "resumed": self.resumed,
            "seconds_a_game": {k: round(v, 3) for k, v in self.game_seconds.items()},
        }


def _matches(entrants: list[str], tables: list[Table], outcomes: dict[Job, str],
             lengths: dict[Job, int | None]) -> list[Match]:
    out: list[Match] = []
    n = len(entrants)
    for (t, s, seats), result in sorted(outcomes.items()):
        table = tables[t]
        if table.mode != "duel":
            continue
        evil = seats[table.lineup.index("E")]
        good = seats[table.lineup.index("R")]
        out.append(Match(t, s, evil, good, 0.5 if result == "draw" else 1.0 if result == "evil" else 0.0,
                         lengths.get((t, s, seats))))
    for t, table in enumerate(tables):
        if table.mode == "duel":
            continue
        seeds = sorted({s for (tt, s, _) in outcomes if tt == t})
        for s in seeds:
            won = {seats[0]: outcomes[(tt, ss, seats)] == "righteous"
                   for (tt, ss, seats) in outcomes if tt == t and ss == s}
            for a in range(n):
                for b in range(a + 1, n):
                    if a in won and b in won:
                        out.append(Match(t, s, a, b, 0.5 if won[a] == won[b] else 1.0 if won[a] else 0.0))
    out.sort(key=lambda m: (m.table, m.seed, m.a, m.b))
    return out


def rate(entrants: list[str], matches: list[Match]) -> list[dict[str, Any]]:
    """OpenSkill (Plackett-Luce) ratings after every match in order."""
    from openskill.models import PlackettLuce
    model = PlackettLuce()
    ratings = [model.rating(name=e) for e in entrants]
    for m in matches:
        ranks: list[float] = [0.0, 0.0] if m.score == 0.5 else [0.0, 1.0] if m.score == 1.0 else [1.0, 0.0]
        [[ra], [rb]] = model.rate([[ratings[m.a]], [ratings[m.b]]], ranks=ranks)
        ratings[m.a], ratings[m.b] = ra, rb
    out = []
    for e, r in zip(entrants, ratings):
        out.append({"entrant": e, "mu": round(r.mu, 3), "sigma": round(r.sigma, 3),
                    "low": round(r.mu - 1.96 * r.sigma, 3), "high": round(r.mu + 1.96 * r.sigma, 3),
                    "ordinal": round(r.mu - 3 * r.sigma, 3)})
    return out


def _log_key(entrants: list[str], tables: list[Table], run_seed: int, job: Job) -> str:
    t, s, seats = job
    return json.dumps([tables[t].key(), game_seed(run_seed, s), [entrants[e] for e in seats]])


def _log_row(entrants: list[str], tables: list[Table], run_seed: int, job: Job, outcome: str,
             secs: float, turns: int) -> dict[str, Any]:
    t, s, seats = job
    table = tables[t]
    return {"table": table.label, "mode": table.mode, "lineup": table.lineup, "settings": table.settings.to_dict(),
            "run_seed": run_seed, "deal": s, "game_seed": game_seed(run_seed, s),
            "seats": [entrants[e] for e in seats], "outcome": outcome, "seconds": round(secs, 3), "turns": turns}


def _logged(log: Path) -> dict[str, tuple[str, float, int | None]]:
    """The outcomes (with seconds and length in turns) the game log holds, by game (see
    :func:`_log_key`); a log written before lengths were kept has none (None)."""
    found: dict[str, tuple[str, float, int | None]] = {}
    for number, row in read_game_log(log):
        try:
            table = Table(str(row["mode"]), str(row["lineup"]), Settings.from_dict(row["settings"]))
            key = json.dumps([table.key(), int(row["game_seed"]), [str(x) for x in row["seats"]]])
            outcome = str(row["outcome"])
            secs = float(row["seconds"])
            turns = None if row.get("turns") is None else int(row["turns"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{log}:{number}: not a game of the ladder ({exc})") from None
        if outcome not in ("righteous", "evil", "draw"):
            raise ValueError(f"{log}:{number}: an outcome the ladder does not know ({outcome!r})")
        found[key] = (outcome, secs, turns)
    return found


ELO = 400.0 / math.log(10.0)   # a Bradley-Terry log-strength in Elo points
BOOTSTRAP = 1000                # resampled deals for the strengths' intervals
PRIOR = 0.01                    # choix's alpha: keeps an unbeaten entrant's strength finite


def strengths(entrants: list[str], matches: list[Match], resamples: int = BOOTSTRAP,
              seed: int = 0) -> list[dict[str, Any]]:
    """Bradley-Terry strengths fitted to every match at once (``choix.ilsr_pairwise_dense``; a draw counts
    half a win each way), in Elo points with a mean of 0, each with a 95% bootstrap interval over the
    deals, and for each entrant the gap over the next one down (by strength) with its interval."""
    import choix
    import numpy as np

    n = len(entrants)
    deals: dict[tuple[int, int], list[Match]] = {}
    for m in matches:
        deals.setdefault((m.table, m.seed), []).append(m)
    units = list(deals.values())

    def fit(chosen: list[list[Match]]) -> Any:
        wins = np.zeros((n, n))   # wins[i, j]: games i won against j, a draw half a win each way
        for unit in chosen:
            for m in unit:
                if m.score == 0.5:
                    wins[m.a, m.b] += 0.5
                    wins[m.b, m.a] += 0.5
                elif m.score == 1.0:
                    wins[m.a, m.b] += 1
                else:
                    wins[m.b, m.a] += 1
        if not wins.any():
            return np.zeros(n)
        # The dense iterative spectral fit converges to the same maximum-likelihood strengths as
        # opt_pairwise (within 0.1 Elo point on the 600 games of the ER ladder) on a count matrix,
        # a hundred times faster, which the bootstrap's thousand fits need.
        params = np.asarray(choix.ilsr_pairwise_dense(wins, alpha=PRIOR), dtype=float)
        return (params - params.mean()) * ELO

    point = fit(units)
    rng = np.random.default_rng(seed)
    draws = np.array([fit([units[i] for i in rng.integers(0, len(units), len(units))])
                      for _ in range(resamples if units else 0)]).reshape(-1, n)
    order = sorted(range(n), key=lambda i: -point[i])
    out = []
    for rank, i in enumerate(order):
        row: dict[str, Any] = {"entrant": entrants[i], "elo": round(float(point[i]), 1)}
        if len(draws):
            lo, hi = np.percentile(draws[:, i], [2.5, 97.5])
            row |= {"low": round(float(lo), 1), "high": round(float(hi), 1)}
        if rank + 1 < n:
            j = order[rank + 1]
            row |= {"over": entrants[j], "gap": round(float(point[i] - point[j]), 1)}
            if len(draws):
                lo, hi = np.percentile(draws[:, i] - draws[:, j], [2.5, 97.5])
                row |= {"gap_low": round(float(lo), 1), "gap_high": round(float(hi), 1)}
        out.append(row)
    return out


def run_ladder(entrants: list[str], tables: list[Table], games: int, seed: int = 0, workers: int = 1,
               progress: Callable[[int, int], None] | None = None, log: Path | None = None) -> LadderResult:
    """Play the round robin (see the module docstring) and rate it. With ``log``, every game is
    written there as it ends, and the games it already holds are taken from it, not played."""
    if len(entrants) < 2:
        raise ValueError("a ladder needs at least two entrants")
    if len(set(entrants)) != len(entrants):
        raise ValueError("each entrant once, please")
    for e in entrants:
        check_entrant(e)
    started = time.time()
    jobs = _jobs(len(entrants), tables, games)
    logged = _logged(log) if log is not None else {}
    outcomes: dict[Job, str] = {}
    lengths: dict[Job, int | None] = {}
    seconds: dict[str, list[float]] = {}

    def took(job: Job, result: str, secs: float, turns: int | None) -> None:
        outcomes[job] = result
        lengths[job] = turns
        seconds.setdefault(tables[job[0]].label, []).append(secs)
        if progress is not None:
            progress(len(outcomes), len(jobs))

    todo: list[Job] = []
    for job in jobs:
        known = logged.get(_log_key(entrants, tables, seed, job))
        if known is None:
            todo.append(job)
        else:
            took(job, *known)
    resumed = len(outcomes)
    if log is not None:
        log.parent.mkdir(parents=True, exist_ok=True)
    with (log.open("a") if log is not None else contextlib.nullcontext()) as sink:

        def played(job: Job, result: str, secs: float, turns: int) -> None:
            if sink is not None:   # written as it ends, so a stopped run loses only the games in play
                sink.write(json.dumps(_log_row(entrants, tables, seed, job, result, secs, turns)) + "\n")
                sink.flush()
            took(job, result, secs, turns)

        if todo:
            # a game that raises stops the run: nothing more starts, the games in play still reach
            # the log, then its LadderGameFailed is raised (a rerun resumes from the log)
            for result in run_jobs(play_job, [(entrants, tables, seed, job) for job in todo], workers):
                played(*result)
    matches = _matches(entrants, tables, outcomes, lengths)
    return LadderResult(entrants, tables, games, seed, matches, rate(entrants, matches),
                        strengths(entrants, matches, seed=seed), time.time() - started,
                        {k: sum(v) / len(v) for k, v in seconds.items()}, resumed)


def tables_for(modes: Iterable[str], lineups: dict[str, list[str]], variants: dict[str, int | bool],
               max_turns: int = DUEL_TURN_CAP) -> list[Table]:
    """The tables of a ladder: each mode with its line-ups (duel ones with the variants and a turn cap)."""
    out = []
    for mode in modes:
        for lineup in lineups[mode]:
            s = Settings()
            if mode == "duel":
                s = s.updated({**variants, **({"max_turns": max_turns} if max_turns else {})})
            Game.new(mode=mode, lineup=lineup, seed=0, settings=s)   # a ValueError for a bad table
            out.append(Table(mode, lineup, s))
    return out
