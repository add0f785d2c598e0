"""Tune the Righteous rules of thumb (:class:`~.heuristic.Knobs`) for the duel, with Optuna.

    python -m christianity_game.bots.tune_knobs --trials 60 --games 40 --search-games 12 \\
        --seed 11000 --confirm-seed 12000 --confirm-games 100 --storage knobs.sqlite --out knobs.json

Each trial is a set of knobs for every Righteous seat, played on the tuning seeds of every cell:
ER, EER and ERR, Evil Interrupt on and off, the printed rules and the recommended variants,
against heuristic Evil seats and (the recommended rules; the printed ones stall to the cap with
it) against the ``search:4it`` Evil bot, so that a set that only exploits the heuristic's Evil
habits does not win. The objective is the mean over the cells of the Righteous share (a game at
the safety turn cap counts half). The study lives in Optuna's SQLite storage and resumes.

The best trial is then played beside the heuristic's own knobs on fresh seeds (``--confirm-seed``,
disjoint from the tuning ones), cell by cell, paired seed by seed; ``--out`` stores the knobs, the
command and both sets of figures as JSON. Games run on a process pool (``--workers``). What the
first study found (nothing that holds on fresh seeds) is in docs/decisions.md, "Tuning the
Righteous rules of thumb", with its report in docs/balance/knobs.json.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import shlex
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from ..engine.game import Game
from ..engine.settings import Settings
from ..engine.variants import parse_variants
from .heuristic import DEFAULT_KNOBS, HeuristicBot, Knobs
from ..stats import wilson
from .ladder import game_seed
from .match import play_out
from ..workers import run_jobs_in_order

#: The searched range of each knob (ints: low, high; floats: low, high, step).
SPACE: dict[str, tuple[float, ...]] = {
    "tempt_keep": (0, 6), "humility_floor": (0, 4), "card_slack": (-2, 3), "main_keep": (0, 6),
    "lay_small": (3.0, 11.0, 0.5), "lay_cz1": (4, 10), "lay_mid": (2.0, 8.0, 0.5), "lay_cz2": (8, 14),
    "lay_big": (1.0, 6.0, 0.2), "respond_keep": (0, 5), "ability_margin": (0, 8), "thin_hand": (0, 4),
}

LINEUPS = ("ER", "EER", "ERR")
RULES = {"printed": "", "recommended": "recommended"}


@dataclasses.dataclass(frozen=True)
class Cell:
    """One table the knobs are judged at: a line-up, the rules, Evil Interrupt, the Evil bot."""

    lineup: str
    rules: str          # a key of RULES
    interrupt: bool
    evil: str           # the Evil seats' bot: heuristic or search:4it

    @property
    def name(self) -> str:
        return f"{self.lineup}·{self.rules}·{'on' if self.interrupt else 'off'}·{self.evil}"


def cells(search: bool = True) -> list[Cell]:
    """Every cell: heuristic Evil under both rule sets, ``search:4it`` Evil under the recommended."""
    out = [Cell(lu, r, i, "heuristic") for lu in LINEUPS for r in RULES for i in (True, False)]
    if search:
        out += [Cell(lu, "recommended", i, "search:4it") for lu in LINEUPS for i in (True, False)]
    return out


def settings_of(cell: Cell, max_turns: int = 200) -> Settings:
    values = {**parse_variants(RULES[cell.rules]), "max_turns": max_turns, "evil_interrupt": cell.interrupt}
    return Settings().updated(values)


def play_one(job: tuple[Cell, dict[str, Any], int]) -> str:
    """One game of ``cell`` on ``seed`` with these knobs on every Righteous seat (duel play only):
    ``righteous``, ``evil``, ``cap`` or ``none``."""
    from .registry import make_bot
    cell, knob_values, seed = job
    knobs = Knobs(**knob_values)
    game = Game.new(mode="duel", lineup=cell.lineup, seed=seed, settings=settings_of(cell), log=False)
    bots = {i: (HeuristicBot(seed * 31 + i, duel_knobs=knobs) if ch == "R" else make_bot(cell.evil, seed * 31 + i))
            for i, ch in enumerate(cell.lineup)}
    play_out(game, bots)
    res = game.state.result
    return "none" if res is None else "cap" if res.reason.startswith("turn cap") else str(res.winner)


def play_cells(workers: int, knobs: Knobs, todo: Sequence[Cell], seed: int,
               games: int, search_games: int) -> dict[Cell, list[str]]:
    """Every cell's outcomes, game i on ``game_seed(seed, i)`` (the same deals for every trial), on
    ``workers`` processes (``workers.run_jobs_in_order``: on a pool, a game that raises stops the batch at once)."""
    values = dataclasses.asdict(knobs)
    jobs = [(c, values, game_seed(seed, i)) for c in todo
            for i in range(search_games if c.evil != "heuristic" else games)]
    out: dict[Cell, list[str]] = {c: [] for c in todo}
    for (c, _, _), outcome in zip(jobs, run_jobs_in_order(play_one, [(job,) for job in jobs], workers)):
        out[c].append(outcome)
    return out


def share(rows: list[str]) -> float:
    """The Righteous share of a cell's games, a game at the cap counting half."""
    return (sum(r == "righteous" for r in rows) + 0.5 * sum(r in ("cap", "none") for r in rows)) / max(1, len(rows))


def suggest(trial: Any) -> Knobs:
    values: dict[str, Any] = {}
    for name, spec in SPACE.items():
        if len(spec) == 2:
            values[name] = trial.suggest_int(name, int(spec[0]), int(spec[1]))
        else:
            values[name] = trial.suggest_float(name, spec[0], spec[1], step=spec[2])
    return knobs_of(values)


def knobs_of(values: dict[str, Any]) -> Knobs:
    """Knobs from a trial's parameters (floats on a step come back as 3.8000000000000003: rounded)."""
    rounded: dict[str, Any] = {k: round(v, 4) if isinstance(v, float) else v for k, v in values.items()}
    return Knobs(**rounded)


def paired(a: list[str], b: list[str]) -> tuple[float, float]:
    """Mean and 95% half-width of the paired difference b - a of the Righteous share (cap = half)."""
    def v(r: str) -> float:
        return 1.0 if r == "righteous" else 0.5 if r in ("cap", "none") else 0.0
    d = [v(y) - v(x) for x, y in zip(a, b)]
    n = len(d)
    if n < 2:
        return 0.0, float("nan")
    m = sum(d) / n
    var = sum((x - m) ** 2 for x in d) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)


def confirm(workers: int, knobs: Knobs, seed: int, games: int,
            search_games: int) -> list[dict[str, Any]]:
    """The tuned knobs beside the heuristic's own on fresh seeds, cell by cell."""
    todo = cells()
    base = play_cells(workers, DEFAULT_KNOBS, todo, seed, games, search_games)
    tuned = play_cells(workers, knobs, todo, seed, games, search_games)
    rows = []
    for c in todo:
        row: dict[str, Any] = {"cell": c.name, "games": len(base[c])}
        for label, outcome in (("heuristic", base[c]), ("tuned", tuned[c])):
            k = sum(r == "righteous" for r in outcome)
            lo, hi = wilson(k, len(outcome))
            row[label] = {"righteous": k, "cap": sum(r == "cap" for r in outcome),
                          "share": round(k / max(1, len(outcome)), 4), "ci95": [round(lo, 4), round(hi, 4)]}
        mean, half = paired(base[c], tuned[c])
        row["paired_gain"] = [round(mean, 4), round(half, 4)]
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    import optuna

    parser = argparse.ArgumentParser(prog="python -m christianity_game.bots.tune_knobs",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=40)
    parser.add_argument("--games", type=int, default=40, help="tuning games a cell against heuristic Evil")
    parser.add_argument("--search-games", type=int, default=12, help="tuning games a cell against search:4it Evil")
    parser.add_argument("--seed", type=int, default=11000)
    parser.add_argument("--confirm-seed", type=int, default=12000)
    parser.add_argument("--confirm-games", type=int, default=100)
    parser.add_argument("--confirm-search-games", type=int, default=40)
    parser.add_argument("--storage", type=Path, default=Path("knobs.sqlite"))
    parser.add_argument("--study", default="righteous-duel-knobs")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None, help="store the best knobs and the figures here (JSON)")
    args = parser.parse_args(argv)
    for name in ("trials", "games", "search_games", "confirm_games", "confirm_search_games", "workers"):
        if getattr(args, name) < 0 or (name == "workers" and args.workers < 1):
            parser.error(f"--{name.replace('_', '-')} must be {'at least 1' if name == 'workers' else 'zero or more'}")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(study_name=args.study, storage=f"sqlite:///{args.storage}", direction="maximize",
                                sampler=optuna.samplers.TPESampler(seed=args.seed), load_if_exists=True)
    if not study.trials:   # the heuristic's own knobs are the first trial: the tuner starts from them
        study.enqueue_trial(dataclasses.asdict(DEFAULT_KNOBS))
    todo = cells()

    def objective(trial: Any) -> float:
        started = time.time()
        out = play_cells(args.workers, suggest(trial), todo, args.seed, args.games, args.search_games)
        shares = {c.name: share(r) for c, r in out.items()}
        trial.set_user_attr("cells", shares)
        value = sum(shares.values()) / len(shares)
        print(f"trial {trial.number}: {value:.3f} ({time.time() - started:.0f} s) "
              f"{knobs_of(trial.params)!r}", flush=True)
        return value

    left = args.trials - len([t for t in study.trials if t.state.is_finished()])
    if left > 0:
        study.optimize(objective, n_trials=left)
    best = study.best_trial
    knobs = knobs_of(best.params)
    print(f"best trial {best.number}: {best.value:.3f} {knobs!r}")
    rows = confirm(args.workers, knobs, args.confirm_seed, args.confirm_games, args.confirm_search_games)
    for r in rows:
        g, h, t = r["paired_gain"], r["heuristic"], r["tuned"]
        print(f"  {r['cell']:32s} heuristic {100 * h['share']:5.1f}%  tuned {100 * t['share']:5.1f}%  "
              f"gain {100 * g[0]:+.1f} ± {100 * g[1]:.1f}  ({r['games']} games)")
    if args.out is not None:
        data = {"knobs": dataclasses.asdict(knobs), "command": "python -m christianity_game.bots.tune_knobs "
                + " ".join(shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:])),
                "trials": len(study.trials), "best_trial": best.number, "tuning_value": best.value,
                "tuning_seed": args.seed, "confirm_seed": args.confirm_seed, "confirm": rows}
        args.out.write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
