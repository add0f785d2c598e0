"""The lab's throughput: games a second on 1 and 2 worker processes over the same grid.

    python -m christianity_game.sim.lab_bench [--games N] [--workers 1,2] [--chunk C] [--repeat R]

Each measurement plays the whole grid into a fresh temporary database through the process pool
(worker start-up included, as a user sees it) and checks that every run stored the same rows.
Other jobs on the machine disturb the figures: the load average is printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

from .lab import build_grid, code_fingerprint, connect, fetch_rows, load_average, parse_axes, run_lab

STARTER_LINEUPS = ("ER", "EER", "ERR")


def _burn(n: int) -> float:
    t = time.perf_counter()
    x = 0
    for i in range(n):
        x += i * i
    return time.perf_counter() - t


def machine_ceiling(n: int = 20_000_000) -> float:
    """The speed-up this machine gives a pure-Python loop on 2 processes over 1 (a VM's two
    vCPUs rarely give 2x): the lab cannot beat it."""
    from ..workers import spawn_pool
    t0 = time.perf_counter()
    _burn(n)
    _burn(n)
    one = time.perf_counter() - t0
    with spawn_pool(2) as pool:
        list(pool.map(_burn, [1000, 1000]))   # started and warm
        t0 = time.perf_counter()
        list(pool.map(_burn, [n, n], chunksize=1))
        two = time.perf_counter() - t0
    return round(one / two, 2)


def bench_lab(games: int = 100, workers: Sequence[int] = (1, 2), chunk: int = 10, seed: int = 1,
              lineups: Sequence[str] = STARTER_LINEUPS, axes: Sequence[str] = ("evilInterrupt=0,1",),
              backend: str = "process", repeat: int = 1, ceiling: bool = True) -> dict[str, Any]:
    """Play the grid (duel ``lineups`` x ``axes``, heuristic bots, ``games`` a cell) once per
    worker count, ``repeat`` times over (interleaved, so a busy spell hits every count alike);
    games/s of the best and the median try of each, and the speed-up over the first count.
    ``ceiling``: also measure what 2 processes give a plain loop here (:func:`machine_ceiling`)."""
    grid = build_grid("duel", list(lineups), parse_axes(list(axes)), "heuristic", games=games, seed=seed)
    code_fingerprint()   # computed once a process: not in the first try's time
    tries: dict[int, list[dict[str, Any]]] = {n: [] for n in workers}
    reference = None
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(repeat):
            for n in workers:
                db = Path(tmp) / f"bench-{n}-{r}.sqlite"
                load_before = load_average()
                code = code_fingerprint(fresh=True)
                t0 = time.perf_counter()
                run = run_lab(grid, db, backend=backend, workers=n, chunk=chunk)
                wall = time.perf_counter() - t0
                conn = connect(db)
                rows = fetch_rows(conn)
                conn.close()
                if reference is None:
                    reference = rows
                tries[n].append({"games": run.played, "seconds": round(wall, 2),
                                 "games_per_s": round(run.played / wall, 2), "same_rows": rows == reference,
                                 "load_before": load_before, "load_after": load_average(),
                                 "code": code, "code_after": code_fingerprint(fresh=True)})
    codes = {t[k] for ts in tries.values() for t in ts for k in ("code", "code_after")}
    runs = []
    for n in workers:
        rates = sorted(t["games_per_s"] for t in tries[n])
        runs.append({"workers": n, "games": tries[n][0]["games"], "best_games_per_s": rates[-1],
                     "median_games_per_s": round(statistics.median(rates), 2),
                     "same_rows": all(t["same_rows"] for t in tries[n]), "tries": tries[n]})
    for key in ("best", "median"):
        base = runs[0][f"{key}_games_per_s"]
        for entry in runs:
            entry[f"{key}_speedup"] = round(entry[f"{key}_games_per_s"] / base, 2) if base else 0.0
    return {"grid": [c.label for c in grid.cells], "games_per_cell": games, "chunk": chunk, "backend": backend,
            "cpus": os.cpu_count(), "repeat": repeat, "runs": runs, "code_changed": len(codes) > 1,
            "ceiling_2_processes": machine_ceiling() if ceiling else None}


def format_bench(result: dict[str, Any]) -> str:
    lines = [f"Lab throughput: {len(result['grid'])} cells x {result['games_per_cell']} games "
             f"(duel, heuristic bots, chunks of {result['chunk']}), {result['backend']} backend, "
             f"{result['cpus']} CPUs, {result['repeat']} tries each"]
    for r in result["runs"]:
        loads = ", ".join(str(t["load_before"][0]) for t in r["tries"] if t["load_before"])
        lines.append(f"  {r['workers']} worker(s): {r['games']} games; best {r['best_games_per_s']:.1f} games/s "
                     f"(speed-up {r['best_speedup']:.2f}x), median {r['median_games_per_s']:.1f} games/s "
                     f"(speed-up {r['median_speedup']:.2f}x); load avg before each try: {loads}"
                     + ("" if r["same_rows"] else "  ROWS DIFFER"))
    if result.get("ceiling_2_processes"):
        lines.append(f"  This machine's own ceiling: a plain Python loop runs {result['ceiling_2_processes']:.2f}x "
                     "faster on 2 processes than on 1.")
    if result.get("code_changed"):
        lines.append("  Note: the engine, cards or bots changed while the bench ran (other rows are expected).")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=100, help="games a cell (6 cells)")
    parser.add_argument("--workers", default="1,2", help="worker counts to compare, e.g. 1,2")
    parser.add_argument("--chunk", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=1, help="tries of each worker count (interleaved)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    result = bench_lab(args.games, [int(w) for w in args.workers.split(",")], args.chunk, repeat=args.repeat)
    print(json.dumps(result, indent=2) if args.json else format_bench(result))


if __name__ == "__main__":
    main()
