"""What views cost beside another version of this project, measured side by side in one run.

    python scripts/view_compare.py [--against REV] [--games 3] [--repeats 5] [--native]

``REV`` (a commit, tag or branch; default ``HEAD``: the working tree against its last commit) is
checked out into a temporary git worktree, as ``scripts/lab_compare.py`` does. Both versions then
play the same seeded random games (co-op RR and RRRR, solo R, duel ER, EER and ERR with a turn cap
of 80; ``--games`` of each) and, at every state, build what the server builds, ``Game.view(seat)``
for every seat and a spectator, and what the learning environment builds, ``observation_of`` for
every seat (where the version has the environment). Only those calls are timed (wall clock, each
state's batch), in turns, ours then theirs, ``--repeats`` times, each try in a fresh process.
Printed: microseconds a view and an observation of each try, the medians, their ratios and the load
average before and after (this machine is shared: absolute times drift, the ratio of runs taken in
turns drifts much less).

Each side runs the engine its tree has: this checkout's native build if it is up to date (or the
Python engine with ``CHRISTIANITY_GAME_ENGINE=python``), the other version's Python engine, or with
``--native`` its own native build made in its worktree first; the engine of each side is printed.
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

from lab_compare import ROOT, build_native

from christianity_game.sim.lab import load_average

# Run inside each version's source tree.
DRIVER = r"""
import json, sys, time
from christianity_game import Game, Settings
from christianity_game.engine import BUILD
from christianity_game.engine.rng import Rng
try:
    import numpy as np
    from christianity_game.env.observation import observation_of
except ImportError:
    observation_of = None
games = int(sys.argv[1])
tables = [("coop", "RR", None), ("coop", "RRRR", None), ("solo", "R", None), ("duel", "ER", {"max_turns": 80}),
          ("duel", "EER", {"max_turns": 80}), ("duel", "ERR", {"max_turns": 80})]
clock = time.perf_counter
views = obs = 0
view_s = obs_s = 0.0
for mode, lineup, extra in tables:
    for g in range(games):
        game = Game.new(mode=mode, lineup=lineup, seed=100 + g, settings=Settings().updated(extra) if extra else None,
                        log=False)
        chooser = Rng(g * 7 + 3)
        seats = list(range(len(lineup)))
        viewers = [None] + seats
        n = 0
        while game.pending and n < 3000:
            t0 = clock()
            for s in viewers:
                game.view(s)
            view_s += clock() - t0
            views += len(viewers)
            if observation_of is not None:
                mask = np.zeros(1, np.int8)
                t0 = clock()
                for s in seats:
                    observation_of(game, s, mask, -1)
                obs_s += clock() - t0
                obs += len(seats)
            actions = game.pending[0][1]
            game.apply(actions[chooser.randbelow(len(actions))])
            n += 1
print(json.dumps({"view_us": view_s / views * 1e6, "obs_us": obs_s / obs * 1e6 if obs else None, "engine": BUILD}))
"""


def _try(src: Path, games: int) -> dict[str, float | str | None]:
    env = dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run([sys.executable, "-c", DRIVER, str(games)], env=env, capture_output=True, text=True,
                         check=True)
    result: dict[str, float | str | None] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="HEAD", help="the other version: a commit, tag or branch")
    parser.add_argument("--games", type=int, default=3, help="games of each table")
    parser.add_argument("--repeats", type=int, default=5)
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
            tries: dict[str, list[dict[str, float | str | None]]] = {name: [] for name in sides}
            load_before = load_average()
            for _ in range(args.repeats):
                for name, src in sides.items():
                    tries[name].append(_try(src, args.games))
            load_after = load_average()
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(theirs)], check=False)
    print(f"Views, {args.games} seeded random games of each of 6 tables; ours: {ROOT.name} working tree, "
          f"theirs: {args.against}")
    print(f"load average (1, 5, 15 min): before {load_before}, after {load_after}")
    for what, key in (("Game.view (every seat and a spectator)", "view_us"), ("observation_of (every seat)", "obs_us")):
        med: dict[str, float] = {}
        for name, ts in tries.items():
            values = [float(t[key]) for t in ts if t[key] is not None]  # type: ignore[arg-type]
            if not values:
                break
            med[name] = statistics.median(values)
            print(f"  {what}, {name:6s}: us {', '.join(f'{x:.1f}' for x in values)} (median {med[name]:.1f}); "
                  f"{ts[0]['engine']} engine")
        if len(med) == 2:
            paired = statistics.median(float(t[key]) / float(o[key])  # type: ignore[arg-type]
                                       for o, t in zip(tries["ours"], tries["theirs"]))
            print(f"  {what}: ours {med['theirs'] / med['ours']:.2f}x as fast as theirs (ratio of the medians; "
                  f"median of the {args.repeats} paired tries {paired:.2f}x)")


if __name__ == "__main__":
    main()
