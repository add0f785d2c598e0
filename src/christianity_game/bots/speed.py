"""What thinking costs: simulations a second, and how late decisions arrive under load.

    python -m christianity_game.bots.speed sims --positions 12 --ms 200
    python -m christianity_game.bots.speed iters --positions 3 --iterations 100
    python -m christianity_game.bots.speed latency --games 20 --level normal --decisions 10

``sims`` samples positions from heuristic games (duel ER, EER and ERR with the printed rules and
the recommended variants, co-op RR) and lets the flat ``search`` bot and the ``mcts`` bot think
on each of the same positions for the same time: their rollouts (search) and iterations (mcts)
a second, per table (the median over the positions).

``iters`` plays a fixed number of ``mcts`` iterations on each of the same positions and reports
iterations per CPU-second (``time.process_time``: steadier than wall time on a shared machine) and
a digest of the moves chosen: two builds of the bots or the engine (``CHRISTIANITY_GAME_ENGINE``, a
trial compile on ``PYTHONPATH``) that play alike give the same digest, and their speeds are a ratio.

``latency`` does what the server does with a thinking bot (``server/bot_turns.py``,
``_think_off_loop``): ``--games`` games of bots at ``--level`` for every seat move at once on one
asyncio event loop, each decision sent to the shared worker pool (``search.thinking_pool``, one
process a core) with ``search.think`` and the time it was asked for; it reports how long each
decision took against its budget (p50, p95, p99, max), and how late a 10 ms timer on the same
loop fired meanwhile (what another game's messages would wait).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from typing import Any

from ..engine.game import Game
from ..engine.rng import Rng
from ..engine.settings import Settings
from ..engine.variants import parse_variants
from .registry import level_of, make_bot
from .heuristic import HeuristicBot
from .mcts import MctsBot
from .search import SearchBot

TABLES = (("duel", "ER", "printed"), ("duel", "EER", "printed"), ("duel", "ERR", "printed"),
          ("duel", "ER", "recommended"), ("duel", "EER", "recommended"), ("duel", "ERR", "recommended"),
          ("coop", "RR", ""))


def _settings(mode: str, variants: str) -> Settings:
    if mode != "duel":
        return Settings()
    return Settings().updated({**parse_variants("" if variants == "printed" else variants), "max_turns": 200})


def positions(mode: str, lineup: str, variants: str, count: int, seed: int) -> list[tuple[Game, int]]:
    """``count`` decisions (with 3 or more choices) from seeded heuristic games, spread along them."""
    out: list[tuple[Game, int]] = []
    rng = Rng(seed)
    g = 0
    while len(out) < count:
        game = Game.new(mode=mode, lineup=lineup, seed=seed * 100 + g, settings=_settings(mode, variants), log=False)
        g += 1
        bots = {i: HeuristicBot(i) for i in range(len(lineup))}
        while game.pending and len(out) < count:
            seat, actions = game.pending[0]
            if len(actions) >= 3 and rng.randbelow(40) == 0:
                out.append((game.clone(log=False), seat))
            game.apply_unchecked(actions[0] if len(actions) == 1 else bots[seat].choose(game.seat_view(seat), actions))
    return out


def sims(args: argparse.Namespace) -> None:
    from ..engine import BUILD
    print(f"engine: {BUILD}; {args.positions} positions a table, {args.ms:g} ms a decision each bot")
    print(f"{'table':28s} {'search rollouts/s':>18s} {'mcts iterations/s':>18s} {'mcts / search':>14s}")
    for mode, lineup, variants in TABLES:
        flat: list[float] = []
        tree: list[float] = []
        for n, (game, seat) in enumerate(positions(mode, lineup, variants, args.positions, args.seed)):
            actions = game.legal_actions(seat)
            s = SearchBot(n, time_ms=args.ms)
            t = time.perf_counter()
            s.decide(game, seat, actions)
            flat.append(s.last_iterations / (time.perf_counter() - t))
            m = MctsBot(n, time_ms=args.ms, reuse=False)
            t = time.perf_counter()
            m.decide(game, seat, actions)
            tree.append(m.last_iterations / (time.perf_counter() - t))
        a, b = statistics.median(flat), statistics.median(tree)
        print(f"{mode + ' ' + lineup + ' ' + variants:28s} {a:18.0f} {b:18.0f} {b / a:14.2f}", flush=True)


def iters(args: argparse.Namespace) -> None:
    import hashlib

    from ..engine import BUILD
    from . import heuristic
    compiled = "compiled" if not heuristic.__file__.endswith(".py") else "Python"
    print(f"engine: {BUILD}; heuristic: {compiled}; {args.positions} positions a table, "
          f"{args.iterations} mcts iterations each")
    digest = hashlib.sha256()
    done, cpu = 0, 0.0
    for mode, lineup, variants in TABLES:
        n_it, t_it = 0, 0.0
        for n, (game, seat) in enumerate(positions(mode, lineup, variants, args.positions, args.seed)):
            bot = MctsBot(n, time_ms=None, iterations=args.iterations, reuse=False)
            t = time.process_time()
            move = bot.decide(game, seat, game.legal_actions(seat))
            t_it += time.process_time() - t
            n_it += bot.last_iterations
            digest.update(repr(move).encode())
        print(f"{mode + ' ' + lineup + ' ' + variants:28s} {n_it / t_it:10.0f} iterations a CPU-second", flush=True)
        done, cpu = done + n_it, cpu + t_it
    print(f"{'all':28s} {done / cpu:10.0f} iterations a CPU-second; moves {digest.hexdigest()[:16]}")


async def _latency(args: argparse.Namespace) -> dict[str, Any]:
    from .search import think, thinking_pool, worker_copy
    pool = thinking_pool()
    loop = asyncio.get_running_loop()
    bot_name = level_of(args.level)
    budget = make_bot(bot_name, 0)
    budget_s = (getattr(budget, "time_ms", None) or 0.0) / 1000.0
    late: list[float] = []   # seconds each decision arrived after its budget
    quick: list[bool] = []   # the decision found no time left (the heuristic's move at once)
    lags: list[float] = []
    stop = False

    async def ticker() -> None:
        while not stop:
            t = loop.time()
            await asyncio.sleep(0.01)
            lags.append(loop.time() - t - 0.01)

    async def one_game(n: int) -> None:
        mode, lineup, variants = ("duel", "ER", "recommended") if n % 2 == 0 else ("duel", "EER", "recommended")
        game = Game.new(mode=mode, lineup=lineup, seed=1000 + n, settings=_settings(mode, variants))
        bots = {i: make_bot(bot_name, n * 31 + i) for i in range(len(lineup))}
        decided = 0
        while game.pending and decided < args.decisions:
            seat, actions = game.pending[0]
            if len(actions) == 1:
                game.apply(actions[0])
                continue
            bot = bots[seat]
            asked = time.time()
            action, state, carry = await loop.run_in_executor(pool, think, bot, worker_copy(game), seat, actions, asked)
            late.append(time.time() - asked - budget_s)
            quick.append(carry is None)
            bot.rng.state = state
            bot.restore(carry)
            game.apply(action)
            decided += 1

    # warm the pool's workers (spawned processes import the package once) before measuring
    warm = [loop.run_in_executor(pool, time.sleep, 0.05) for _ in range(8)]
    await asyncio.gather(*warm)
    tick = asyncio.ensure_future(ticker())
    started = time.time()
    await asyncio.gather(*(one_game(n) for n in range(args.games)))
    stop = True
    await tick
    return {"late": late, "lags": lags, "seconds": time.time() - started, "budget_s": budget_s, "bot": bot_name,
            "quick": sum(quick)}


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def latency(args: argparse.Namespace) -> None:
    import os
    r = asyncio.run(_latency(args))
    late, lags = r["late"], r["lags"]
    print(f"{args.games} games of {args.level} ({r['bot']}) for every seat thinking at once on {os.cpu_count()} "
          f"cores: {len(late)} decisions in {r['seconds']:.1f} s; {r['quick']} of them found no time left "
          f"(the heuristic's move at once)")
    print("decision time beyond the budget, ms: " + ", ".join(
        f"p{p} {1000 * _pct(late, p):.0f}" for p in (50, 95, 99)) + f", max {1000 * max(late):.0f}")
    print("event loop lag (a 10 ms timer), ms: " + ", ".join(
        f"p{p} {1000 * _pct(lags, p):.1f}" for p in (50, 95, 99)) + f", max {1000 * max(lags):.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m christianity_game.bots.speed", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    a = sub.add_parser("sims")
    a.add_argument("--positions", type=int, default=12)
    a.add_argument("--ms", type=float, default=200.0)
    a.add_argument("--seed", type=int, default=24)
    c = sub.add_parser("iters")
    c.add_argument("--positions", type=int, default=3)
    c.add_argument("--iterations", type=int, default=100)
    c.add_argument("--seed", type=int, default=5)
    b = sub.add_parser("latency")
    b.add_argument("--games", type=int, default=20)
    b.add_argument("--level", default="normal")
    b.add_argument("--decisions", type=int, default=10, help="decisions a game")
    args = parser.parse_args(argv)
    if args.what == "sims":
        sims(args)
    elif args.what == "iters":
        iters(args)
    else:
        latency(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
