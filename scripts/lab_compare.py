"""The lab's speed beside another version of this project, measured side by side in one run.

    python scripts/lab_compare.py [--against REV] [--mode coop] [--lineup R,RR,RRR] [--games 40] [--repeats 3]
                                  [--bots heuristic] [--native]

``REV`` (a commit, tag or branch; default ``b2d9923``, the last commit before the engine work of
issue 9) is checked out into a temporary git worktree. Both versions then play the same grid
(heuristic bots in every seat, or ``--bots random``, which reads no view: mostly the engine; the serial backend: one process, games stored in SQLite as the lab
stores them) in turns, ours then theirs, ``--repeats`` times, each in a fresh Python process whose
import time is not counted; CPU time of that process. Printed: games a second and microseconds per
stored action of each try, the medians, their ratio, and the load average before and after (this machine is shared:
absolute times drift, the ratio of runs taken in turns drifts much less).

Each try runs the engine its tree has: this checkout's native build if it is up to date (or the
Python engine with ``CHRISTIANITY_GAME_ENGINE=python``), and for the other version the Python
engine, or with ``--native`` its own native build, made in its worktree first (a minute or two), so
that like is compared with like; the engine of each side is printed.

Co-op is the fair grid: its cards and rules are the same in both versions. A duel grid compares
different games (rules 2 and 3 and the duel deck changed since), so read its per-action figure.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from christianity_game.sim.lab import load_average

ROOT = Path(__file__).resolve().parent.parent
BEFORE_ISSUE_9 = "b2d9923"

# Run inside each version's source tree: time run_lab alone (imports and grid building excluded).
DRIVER = r"""
import json, sys, time
from christianity_game.sim.lab import build_grid, code_fingerprint, connect, fetch_rows, run_lab
mode, lineups, games, db, bots = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
grid = build_grid(mode, lineups, {}, bots, games=games, seed=0)
code_fingerprint()   # hashed once a run (both versions cache it): not a per-game cost
t0 = time.process_time()   # CPU time: a busy neighbour's time slices are not counted
run = run_lab(grid, db, backend="serial")
seconds = time.process_time() - t0
conn = connect(db)
rows = fetch_rows(conn)
conn.close()
actions = sum(r[8] for r in rows)   # the "actions" column
from christianity_game.engine import BUILD
print(json.dumps({"games": run.played, "seconds": seconds, "actions": actions, "engine": BUILD}))
"""


def _try(src: Path, mode: str, lineup: str, games: int, db: Path, bots: str) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run([sys.executable, "-c", DRIVER, mode, lineup, str(games), str(db), bots], env=env,
                         capture_output=True, text=True, check=True)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    return {"games_per_s": data["games"] / data["seconds"], "us_per_action": data["seconds"] / data["actions"] * 1e6,
            "games": data["games"], "actions": data["actions"], "engine": data.get("engine", "python")}


def build_native(src: Path) -> None:
    """Build the native engine of the source tree ``src`` in that tree (its own ``engine/_native``);
    a version that cannot (none before it had one) runs its Python engine, as the output says."""
    env = dict(os.environ, PYTHONPATH=str(src))
    env.pop("CHRISTIANITY_GAME_ENGINE", None)
    done = subprocess.run([sys.executable, "-m", "christianity_game", "native", "build"], env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(f"the other version built no native engine (exit {done.returncode}): its Python engine runs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default=BEFORE_ISSUE_9, help="the other version: a commit, tag or branch")
    parser.add_argument("--mode", default="coop")
    parser.add_argument("--lineup", default="R,RR,RRR")
    parser.add_argument("--games", type=int, default=40, help="games a cell")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--bots", default="heuristic", help="the bot in every seat: heuristic, or random")
    parser.add_argument("--native", action="store_true", help="build the other version's native engine first")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        theirs = Path(tmp) / "theirs"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(theirs), args.against],
                       check=True)
        try:
            if args.native:
                build_native(theirs / "src")
            sides = {"ours": ROOT / "src", "theirs": theirs / "src"}
            tries: dict[str, list[dict[str, float]]] = {name: [] for name in sides}
            load_before = load_average()
            for r in range(args.repeats):
                for name, src in sides.items():
                    db = Path(tmp) / f"{name}-{r}.sqlite"
                    tries[name].append(_try(src, args.mode, args.lineup, args.games, db, args.bots))
            load_after = load_average()
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(theirs)], check=False)
    print(f"Lab speed, {args.mode} {args.lineup} x {args.games} games, {args.bots} bots, serial backend; "
          f"ours: {ROOT.name} working tree, theirs: {args.against}")
    print(f"load average (1, 5, 15 min): before {load_before}, after {load_after}")
    med = {}
    for name, ts in tries.items():
        rates = [t["games_per_s"] for t in ts]
        per = [t["us_per_action"] for t in ts]
        med[name] = (statistics.median(rates), statistics.median(per))
        print(f"  {name:6s} games/s {', '.join(f'{x:.1f}' for x in rates)} (median {med[name][0]:.1f}); "
              f"us per action {', '.join(f'{x:.0f}' for x in per)} (median {med[name][1]:.0f}); "
              f"{ts[0]['games']} games, {ts[0]['actions']} actions a try; {ts[0]['engine']} engine")
    paired = statistics.median(o["games_per_s"] / t["games_per_s"] for o, t in zip(tries["ours"], tries["theirs"]))
    print(f"ours / theirs: {med['ours'][0] / med['theirs'][0]:.2f}x the games a second (ratio of the medians; "
          f"median of the {args.repeats} paired tries {paired:.2f}x), "
          f"{med['theirs'][1] / med['ours'][1]:.2f}x the actions a second")


if __name__ == "__main__":
    main()
