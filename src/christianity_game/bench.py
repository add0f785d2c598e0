"""Engine speed (docs/design.md, "Cheap to copy"): random-bot games per second, microseconds per
action and per ``clone()``, for 1, 2 and 4 seats (solo R, co-op RR, co-op RRRR).

* **action**: one step of the random bot, legal-action enumeration included::

      seat, acts = game.pending[0]          # enumerates game.legal_actions(seat)
      game.apply_unchecked(rnd.choice(acts))

  measured again with the checked ``game.apply``.
* **clone**: ``game.clone()`` of mid-game states collected at various points of several games,
  each cloned many times.
* **legal**: ``legal_actions`` enumeration alone, on the same mid-game states (cache cleared).

Every figure is the median over ``repeats`` timed runs (``time.perf_counter``) after a warm-up.
Single-threaded: run it on an otherwise idle core. Targets: <= 20 us per action, <= 30 us per clone.
Used by ``christianity-game bench`` and ``scripts/bench.py``; nothing here asserts on timings.
"""

from __future__ import annotations

import platform
import random
import statistics
import sys
import time
from typing import Any, Callable, Sequence

from .engine.game import Game
from .engine.settings import Settings
from .engine import BUILD
from .native import engine_build

LINEUPS: dict[int, tuple[str, str]] = {1: ("solo", "R"), 2: ("coop", "RR"), 3: ("coop", "RRR"),
                                       4: ("coop", "RRRR"), 5: ("coop", "RRRRR"), 6: ("coop", "RRRRRR")}
TARGET_US_PER_ACTION = 20.0
TARGET_US_PER_CLONE = 30.0


def _play_for(mode: str, lineup: str, budget_s: float, seed: int, checked: bool,
              settings: Settings | None) -> dict[str, float]:
    """Whole random-bot games until ``budget_s`` has passed; times the move loop apart from set-up."""
    rnd = random.Random(seed)
    clock = time.perf_counter
    games = actions = 0
    move_s = total_s = 0.0
    start = clock()
    while True:
        t0 = clock()
        game = Game.new(mode=mode, lineup=lineup, seed=seed + games, settings=settings)
        t1 = clock()
        n = 0
        apply = game.apply if checked else game.apply_unchecked
        choice = rnd.choice
        while game.state.result is None:
            seat, acts = game.pending[0]
            apply(choice(acts))
            n += 1
        t2 = clock()
        games += 1
        actions += n
        move_s += t2 - t1
        total_s += t2 - t0
        if t2 - start >= budget_s:
            break
    return {"games": games, "actions": actions, "move_s": move_s, "total_s": total_s}


def collect_states(mode: str, lineup: str, count: int, seed: int, settings: Settings | None = None) -> list[Game]:
    """``count`` mid-game states (copies), spread over the early, middle and late parts of games."""
    rnd = random.Random(seed)
    states: list[Game] = []
    g = 0
    while len(states) < count:
        game = Game.new(mode=mode, lineup=lineup, seed=seed + 1000 + g, settings=settings)
        g += 1
        history: list[Game] = []
        while game.state.result is None:
            history.append(game.clone())
            game.apply_unchecked(rnd.choice(game.pending[0][1]))
        if not history:
            continue
        per_game = min(8, count - len(states))
        for k in range(per_game):   # one state in each of per_game equal slices of the game
            i = int((k + rnd.random()) * len(history) / per_game)
            states.append(history[min(i, len(history) - 1)])
    return states[:count]


def _time_each(states: Sequence[Game], fn: Callable[[Game], Any], inner: int) -> list[float]:
    """Microseconds per call of ``fn(state)``, for each state (``inner`` calls each)."""
    clock = time.perf_counter
    out = []
    for s in states:
        t0 = clock()
        for _ in range(inner):
            fn(s)
        out.append((clock() - t0) / inner * 1e6)
    return out


def bench_lineup(seats: int, seconds: float = 1.0, repeats: int = 5, seed: int = 1,
                 clone_states: int = 24, settings: Settings | None = None) -> dict[str, Any]:
    """Figures for one line-up; ``seconds`` is the time budget of each of the two game loops."""
    mode, lineup = LINEUPS[seats]
    for checked in (False, True):   # warm-up
        _play_for(mode, lineup, min(0.3, seconds / 4), seed + 99, checked, settings)
    runs: dict[str, list[dict[str, float]]] = {"unchecked": [], "checked": []}
    for r in range(repeats):   # interleaved, so that a busy spell on the machine hits both alike
        for kind in runs:
            runs[kind].append(_play_for(mode, lineup, seconds / repeats, seed + 17 * r, kind == "checked", settings))

    def med(kind: str, f: Callable[[dict[str, float]], float]) -> float:
        return statistics.median(f(x) for x in runs[kind])

    states = collect_states(mode, lineup, clone_states, seed, settings)
    live = [s for s in states if s.state.result is None]
    seats_of = {id(s): s.pending[0][0] for s in live}
    clone_runs, legal_runs = [], []
    for _ in range(repeats):
        clone_runs.append(statistics.median(_time_each(states, Game.clone, 200)))

        def enumerate_legal(s: Game) -> Any:
            s._legal_cache = None
            return s.legal_actions(seats_of[id(s)])

        legal_runs.append(statistics.median(_time_each(live, enumerate_legal, 200)))
    per_clone = _time_each(states, Game.clone, 200)
    unchecked_actions = sum(x["actions"] for x in runs["unchecked"])
    unchecked_games = sum(x["games"] for x in runs["unchecked"])
    return {
        "seats": seats,
        "mode": mode,
        "lineup": lineup,
        "games": unchecked_games + sum(x["games"] for x in runs["checked"]),
        "actions_per_game": unchecked_actions / max(1, unchecked_games),
        "games_per_s": med("unchecked", lambda x: x["games"] / x["total_s"]),
        "games_per_s_checked": med("checked", lambda x: x["games"] / x["total_s"]),
        "us_per_action": med("unchecked", lambda x: x["move_s"] / x["actions"] * 1e6),
        "us_per_action_checked": med("checked", lambda x: x["move_s"] / x["actions"] * 1e6),
        "us_per_clone": statistics.median(clone_runs),
        "us_per_clone_max": max(per_clone),
        "us_per_legal": statistics.median(legal_runs),
        "clone_states": len(states),
    }


def run_bench(seats_list: Sequence[int] = (1, 2, 4), seconds: float = 1.0, repeats: int = 5, seed: int = 1,
              clone_states: int = 24, settings: Settings | None = None) -> dict[str, Any]:
    """Benchmark each seat count of ``seats_list``; a JSON-able dict (see :func:`format_bench`)."""
    for n in seats_list:
        if n not in LINEUPS:
            raise ValueError(f"seats must be 1 to 6, not {n!r}")
    if seconds <= 0 or repeats < 1:
        raise ValueError("seconds must be positive and repeats at least 1")
    started = time.perf_counter()
    rows = [bench_lineup(n, seconds, repeats, seed, clone_states, settings) for n in seats_list]
    return {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "engine": engine_build(BUILD),
        "seconds": seconds,
        "repeats": repeats,
        "seed": seed,
        "targets": {"us_per_action": TARGET_US_PER_ACTION, "us_per_clone": TARGET_US_PER_CLONE},
        "rows": rows,
        "wall_s": time.perf_counter() - started,
    }


def format_bench(result: dict[str, Any]) -> str:
    """A plain-text table of :func:`run_bench`'s result, each figure marked against its target."""
    t_act = result["targets"]["us_per_action"]
    t_clone = result["targets"]["us_per_clone"]

    def mark(value: float, target: float) -> str:
        return "ok" if value <= target else f"x{value / target:.1f}"

    head = (f"{'seats':>5} {'lineup':<6} {'games/s':>8} {'act/game':>8} {'us/action':>10} {'':>5} "
            f"{'us/act chk':>10} {'us/legal':>8} {'us/clone':>8} {'':>5} {'clone max':>9}")
    lines = [f"Engine bench: Python {result['python']} ({result['implementation']}, {result['machine']}), "
             f"median of {result['repeats']} runs, {result['seconds']:g} s per loop",
             f"engine: {result['engine']}",
             f"targets: <= {t_act:g} us per action (legal-action enumeration included), <= {t_clone:g} us per clone",
             "", head, "-" * len(head)]
    for r in result["rows"]:
        lines.append(
            f"{r['seats']:>5} {r['lineup']:<6} {r['games_per_s']:>8.1f} {r['actions_per_game']:>8.0f} "
            f"{r['us_per_action']:>10.1f} {mark(r['us_per_action'], t_act):>5} {r['us_per_action_checked']:>10.1f} "
            f"{r['us_per_legal']:>8.1f} {r['us_per_clone']:>8.1f} {mark(r['us_per_clone'], t_clone):>5} "
            f"{r['us_per_clone_max']:>9.1f}")
    lines.append("")
    lines.append("us/action: pending + legal_actions + apply_unchecked; us/act chk: the same with apply; "
                 "us/legal: legal_actions alone (cache cleared)")
    return "\n".join(lines)
