"""What views cost the lab: games a second with heuristic bots reading ``Game.view`` dicts (the old
path) and reading :class:`~christianity_game.engine.seatview.SeatView` objects (the lab's path now).

    python -m christianity_game.sim.view_bench [--games N] [--repeat R] [--coop]

The grid is the lab's starter duel grid (line-ups ER, EER, ERR x evilInterrupt=0,1, heuristic bots,
the lab's turn cap), optionally with co-op RR and RRR. Both paths play the same games in this one
process (no pool, no database: only the games), passes interleaved (old, new, old, new ...) so a
busy spell on the machine hits both alike; CPU time (``time.process_time``) of each pass, medians,
and the load average before and after. Both paths must choose the same actions: every game's
action list is compared, and a difference is reported.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import time
from typing import Any, Sequence

from ..bots.base import Bot
from ..bots.registry import make_bot
from ..engine.game import Game
from ..engine.settings import Settings
from .lab import CellSpec, build_grid, load_average, parse_axes
from .simulate import game_seed

STARTER_LINEUPS = ("ER", "EER", "ERR")
PATHS = ("view", "seat_view")


def grid_cells(coop: bool = False, seed: int = 1) -> list[CellSpec]:
    """The lab's starter duel grid (and co-op RR, RRR with ``coop``)."""
    cells = list(build_grid("duel", list(STARTER_LINEUPS), parse_axes(["evilInterrupt=0,1"]), "heuristic",
                            games=1, seed=seed).cells)
    if coop:
        cells += build_grid("coop", ["RR", "RRR"], {}, "heuristic", games=1, seed=seed).cells
    return cells


def play(cell: CellSpec, index: int, path: str) -> Game:
    """Game ``index`` of ``cell`` as the lab plays it (``play_one`` / ``play_out``), the bots reading
    ``game.view(seat)`` (path ``view``) or ``game.seat_view(seat)`` (path ``seat_view``)."""
    seed = game_seed(cell.seed, index)
    game = Game.new(mode=cell.mode, lineup=cell.lineup, seed=seed, settings=Settings.from_dict(cell.settings))
    levels = list(cell.bots) * len(cell.lineup) if len(cell.bots) == 1 else list(cell.bots)
    bots: dict[int, Bot] = {i: make_bot(level, seed * 31 + i, game.cards) for i, level in enumerate(levels)}
    old = path == "view"
    for _ in range(20000):
        pending = game.pending
        if not pending:
            break
        seat, actions = pending[0]
        if len(actions) == 1:
            action = actions[0]
        elif old:
            action = bots[seat].choose(game.view(seat), actions)
        else:
            action = bots[seat].decide(game, seat, actions)
        game.apply_unchecked(action) if action in actions else game.apply(action)
    return game


def _pass(cells: Sequence[CellSpec], games: int, path: str) -> tuple[float, int, list[str]]:
    """Every game of the grid on one path: (CPU seconds, actions, digest of each game's actions)."""
    digests = []
    actions = 0
    t0 = time.process_time()
    for cell in cells:
        for i in range(games):
            game = play(cell, i, path)
            actions += len(game.actions)
            digests.append(hashlib.sha256(repr(game.actions).encode()).hexdigest()[:12])
    return time.process_time() - t0, actions, digests


def bench_views(games: int = 10, repeat: int = 3, coop: bool = False, seed: int = 1) -> dict[str, Any]:
    """Both paths over the grid, ``repeat`` interleaved passes each; games/s (CPU time) per pass,
    medians, the speed-up of ``seat_view`` over ``view``, whether the actions were the same."""
    cells = grid_cells(coop, seed)
    play(cells[0], 0, "view")          # warm-up: imports, card data
    play(cells[0], 0, "seat_view")
    load_before = load_average()
    runs: dict[str, list[float]] = {p: [] for p in PATHS}
    reference: list[str] | None = None
    same = True
    n_games = len(cells) * games
    for _ in range(repeat):
        for p in PATHS:
            cpu, _actions, digests = _pass(cells, games, p)
            runs[p].append(n_games / cpu)
            if reference is None:
                reference = digests
            same = same and digests == reference
    rates = {p: statistics.median(runs[p]) for p in PATHS}
    return {"grid": [c.label for c in cells], "games_per_cell": games, "games_per_pass": n_games, "repeat": repeat,
            "games_per_s": {p: round(rates[p], 2) for p in PATHS},
            "passes": {p: [round(r, 2) for r in runs[p]] for p in PATHS},
            "speedup": round(rates["seat_view"] / rates["view"], 2), "same_actions": same,
            "load_before": load_before, "load_after": load_average()}


def format_views(result: dict[str, Any]) -> str:
    """A few lines of text for :func:`bench_views`' result."""
    g = result["games_per_s"]
    return "\n".join([
        f"Views in the lab: {len(result['grid'])} cells x {result['games_per_cell']} games "
        f"({', '.join(result['grid'])}), heuristic bots, one process, CPU time, "
        f"median of {result['repeat']} interleaved passes",
        f"  bots read Game.view dicts      : {g['view']:8.1f} games/s  (passes {result['passes']['view']})",
        f"  bots read SeatView (lab's path): {g['seat_view']:8.1f} games/s  (passes {result['passes']['seat_view']})",
        f"  speed-up: {result['speedup']:.2f}x; same actions on both paths: {'yes' if result['same_actions'] else 'NO'}",
        f"  load average (1, 5, 15 min) before {result['load_before']}, after {result['load_after']}",
    ])


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=10, help="games a cell (default 10)")
    parser.add_argument("--repeat", type=int, default=3, help="passes of each path, interleaved (default 3)")
    parser.add_argument("--coop", action="store_true", help="add co-op RR and RRR cells")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    result = bench_views(args.games, args.repeat, args.coop, args.seed)
    print(json.dumps(result, indent=2) if args.json else format_views(result))


if __name__ == "__main__":
    main()
