"""How much a bot raises its side's win share over the heuristic, on the same seeds.

    python -m christianity_game.bots.strength --bot mcts:64it --lineup ER --games 40 \\
        --variants recommended --out strength.jsonl

plays, on each seed, three games of the line-up: every seat the heuristic (the baseline), the bot
on every Evil seat against heuristic Righteous seats, and the bot on every Righteous seat against
heuristic Evil seats (duel); in co-op and solo, the heuristic and the bot on every seat. It prints
each side's win share with a 95% Wilson interval, and the paired difference over the seeds with a
95% interval. Games that end at the turn cap (a safety cap, not a rule) count as neither side's
win and are left out of the shares; where a cell has such games, a line beside the paired
difference counts every game, a capped one as no win. Each game is one line of ``--out`` (JSON):
a run resumes what the file holds, and refuses a file of another run. ``--bot`` (and ``--baseline``) take what the
ladder takes: a level, a bot name with a budget, or an outside bot by import path
(``package.module:ClassName``). ``--workers N`` plays the games on N processes (a core each; the
lab's and the ladder's way, ``workers.run_jobs``): each game has its own seeds, so the
games are the same whatever N, only the file's order differs. Ctrl-C stops the run at once and
says how to resume it.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

from ..engine.game import Game
from ..engine.settings import Settings
from ..engine.variants import parse_variants
from .match import play_out
from ..stats import wilson
from ..workers import run_jobs
from .ladder import check_entrant, entrant_bot, game_seed, read_game_log


def play(mode: str, lineup: str, settings: Settings, seed: int, seats: list[str]) -> dict[str, Any]:
    game = Game.new(mode=mode, lineup=lineup, seed=seed, settings=settings, log=False)
    bots = {i: entrant_bot(name, seed * 31 + i) for i, name in enumerate(seats)}
    started = time.process_time()
    play_out(game, bots)
    res = game.state.result
    outcome = "none" if res is None else "cap" if res.reason.startswith("turn cap") else str(res.winner)
    return {"outcome": outcome, "reason": None if res is None else res.reason, "round": game.state.round,
            "cpu_s": round(time.process_time() - started, 2)}


def play_job(mode: str, lineup: str, settings: Settings, seed: int, seats: list[str],
             key: tuple[int, str]) -> tuple[tuple[int, str], dict[str, Any]]:
    """:func:`play` as a pool job: the game's (seed index, cell) comes back with its result."""
    return key, play(mode, lineup, settings, seed, seats)


DECIDED = ("righteous", "evil")
"""The outcomes a side won; the others are ``cap`` (the safety cap) and ``none`` (unfinished)."""


def _share(rows: list[str], side: str) -> tuple[int, int]:
    decided = [r for r in rows if r in DECIDED]
    return sum(1 for r in decided if r == side), len(decided)


def paired(a: list[str], b: list[str], side: str, *, over_all: bool = False) -> tuple[float, float, int]:
    """Mean paired difference (b - a) of 'side won' over seeds where neither game hit the cap, and
    its 95% half-width (normal approximation).

    ``over_all`` takes every seed instead, a game at the cap counting as no win for either side:
    the reading that still means something on a table where most games stall and one side never
    wins before the cap (the printed duel), whose shares of decided games read 100%."""
    diffs = [(y == side) - (x == side) for x, y in zip(a, b) if over_all or (x in DECIDED and y in DECIDED)]
    n = len(diffs)
    if n < 2:
        return 0.0, float("nan"), n
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n), n


def resumed(out: Path, cells: dict[str, list[str]], args: argparse.Namespace) -> dict[tuple[int, str], dict[str, Any]]:
    """The games ``out`` already holds, by (seed index, cell); a file of another run (other bots,
    line-up, variants or run seed) is refused rather than mixed in. A last line cut off by a killed
    run is dropped, so the run can go on."""
    done: dict[tuple[int, str], dict[str, Any]] = {}
    for number, row in read_game_log(out):
        try:
            key = (int(row["seed"]), str(row["cell"]))
            theirs = (row["mode"], row["lineup"], row["variants"], row["game_seed"], row["seats"])
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{out}:{number}: not a game of this script ({exc})") from None
        ours = (args.mode, args.lineup, args.variants, game_seed(args.seed, key[0]), cells.get(key[1], theirs[4]))
        if theirs != ours:   # a cell this run does not play (another --sides) only has to be of the same deals
            raise ValueError(f"{out}:{number}: a game of another run (mode, line-up, variants, seed, "
                             f"seats {theirs}, this run {ours}); use another --out")
        done[key] = row
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m christianity_game.bots.strength", description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", required=True,
                        help="a level or bot name (mcts:50it), or an outside bot by import path (package.module:Class)")
    parser.add_argument("--baseline", default="heuristic", help="the same kinds of name as --bot")
    parser.add_argument("--mode", default="duel")
    parser.add_argument("--lineup", default="ER")
    parser.add_argument("--variants", default="")
    parser.add_argument("--max-turns", type=int, default=200)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--sides", default="evil,righteous", help="duel: which sides the bot takes")
    parser.add_argument("--workers", type=int, default=1, help="processes that play the games, a core each")
    args = parser.parse_args(argv)
    for spec in (args.bot, args.baseline):
        try:
            check_entrant(spec)
        except ValueError as exc:
            parser.error(str(exc))
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    if args.workers < 1:
        parser.error(f"--workers must be at least 1, not {args.workers}")
    settings = Settings()
    if args.mode == "duel":
        try:
            settings = settings.updated({**parse_variants(args.variants), "max_turns": args.max_turns})
        except ValueError as exc:
            parser.error(f"--variants {args.variants!r}: {exc}")
    try:
        Game.new(mode=args.mode, lineup=args.lineup, seed=0, settings=settings, log=False)
    except ValueError as exc:
        parser.error(f"--mode {args.mode} --lineup {args.lineup}: {exc}")
    base, bot = args.baseline, args.bot
    cells: dict[str, list[str]] = {"baseline": [base] * len(args.lineup)}
    if args.mode == "duel":
        sides = args.sides.split(",")
        if "evil" in sides:
            cells["bot_evil"] = [bot if ch == "E" else base for ch in args.lineup]
        if "righteous" in sides:
            cells["bot_righteous"] = [bot if ch == "R" else base for ch in args.lineup]
    else:
        cells["bot"] = [bot] * len(args.lineup)
    try:
        done = resumed(args.out, cells, args)
    except ValueError as exc:
        parser.error(str(exc))
    jobs = [(args.mode, args.lineup, settings, game_seed(args.seed, i), seats, (i, cell))
            for i in range(args.games) for cell, seats in cells.items() if (i, cell) not in done]
    with args.out.open("a") as f:
        try:
            for (i, cell), result in run_jobs(play_job, jobs, args.workers):
                row = {"seed": i, "game_seed": game_seed(args.seed, i), "cell": cell, "seats": cells[cell],
                       "mode": args.mode, "lineup": args.lineup, "variants": args.variants, **result}
                done[(i, cell)] = row
                f.write(json.dumps(row) + "\n")
                f.flush()   # a game a line as it ends: a stopped run loses only the games in play
        except KeyboardInterrupt:
            print(f"stopped: {args.out} holds {len(done)} of {args.games * len(cells)} games; "
                  "the same command goes on from there", file=sys.stderr)
            return 130
    seeds = list(range(args.games))
    outcome = {cell: [done[(i, cell)]["outcome"] for i in seeds] for cell in cells}
    print(f"{args.mode} {args.lineup} variants={args.variants or 'printed'} bot={bot} baseline={base}, {args.games} seeds")
    for cell, rows in outcome.items():
        for side in ("evil", "righteous") if args.mode == "duel" else ("righteous",):
            k, n = _share(rows, side)
            lo, hi = wilson(k, n)
            caps = sum(1 for r in rows if r == "cap")
            cpu = sum(done[(i, cell)]["cpu_s"] for i in seeds) / len(seeds)
            print(f"  {cell:14s} {side:9s} {k}/{n} = {100 * k / max(1, n):5.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
                  f"  (cap {caps}, {cpu:.1f} s CPU a game)")
    for cell, side in (("bot_evil", "evil"), ("bot_righteous", "righteous"), ("bot", "righteous")):
        if cell in outcome:
            mean, half, n = paired(outcome["baseline"], outcome[cell], side)
            print(f"  paired {cell}: {side} share {100 * mean:+.1f} points ± {100 * half:.1f} (95%, {n} seeds)")
            if "cap" in outcome["baseline"] or "cap" in outcome[cell]:
                # Why: where games stall, the decided games can be a handful of one side's wins.
                base_k = outcome["baseline"].count(side)
                bot_k = outcome[cell].count(side)
                mean, half, n = paired(outcome["baseline"], outcome[cell], side, over_all=True)
                print(f"  over all games, a capped game no win: {side} wins {base_k}/{n} -> {bot_k}/{n},"
                      f" paired {100 * mean:+.1f} points ± {100 * half:.1f} (95%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
