#!/usr/bin/env python3
"""Engine speed: random-bot games per second, microseconds per action and per clone.

    .venv/bin/python scripts/bench.py                      # 1, 2 and 4 seats, a table
    .venv/bin/python scripts/bench.py --seats 1,2,3,4 --seconds 3 --json
    .venv/bin/python scripts/bench.py --profile 25         # also: where the time goes (cProfile)

Targets: <= 20 us per action (legal-action enumeration included), <= 30 us per clone.
Single-threaded; run it on an idle machine. See christianity_game.bench.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from christianity_game.bench import LINEUPS, collect_states, format_bench, run_bench  # noqa: E402
from christianity_game.engine.game import Game  # noqa: E402


def profile(seats: int, games: int, top: int) -> str:
    """cProfile of the random-bot loop (apply_unchecked) and of clone(), by own time."""
    mode, lineup = LINEUPS[seats]
    rnd = random.Random(5)
    prof = cProfile.Profile()
    prof.enable()
    for g in range(games):
        game = Game.new(mode=mode, lineup=lineup, seed=500 + g)
        while game.state.result is None:
            seat, acts = game.pending[0]
            game.apply_unchecked(rnd.choice(acts))
    states = collect_states(mode, lineup, 16, 7)
    for s in states:
        for _ in range(200):
            s.clone()
    prof.disable()
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    return f"--- profile, {lineup} ({games} games + 16 x 200 clones), by own time\n" + out.getvalue()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seats", default="1,2,4", help="seat counts, comma-separated (1 = solo R, n = co-op R*n)")
    ap.add_argument("--seconds", type=float, default=2.0, help="time budget of each game loop (default 2)")
    ap.add_argument("--repeats", type=int, default=5, help="timed runs per figure; the median is reported")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--clone-states", type=int, default=24, help="mid-game states cloned per line-up")
    ap.add_argument("--json", action="store_true", help="print the result as JSON instead of a table")
    ap.add_argument("--profile", type=int, metavar="TOP", default=0,
                    help="also profile the bot loop and clone() and print the TOP functions")
    args = ap.parse_args(argv)
    seats = [int(x) for x in args.seats.split(",") if x.strip()]
    result = run_bench(seats, seconds=args.seconds, repeats=args.repeats, seed=args.seed,
                       clone_states=args.clone_states)
    print(json.dumps(result, indent=2) if args.json else format_bench(result))
    if args.profile:
        for n in seats:
            print(profile(n, games=20, top=args.profile), file=sys.stderr if args.json else sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
