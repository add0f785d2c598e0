#!/usr/bin/env python3
"""Speed of the learning environment next to the engine's own random play, in one run.

    .venv/bin/python scripts/bench_env.py                  # co-op RR, solo R, duel ER
    .venv/bin/python scripts/bench_env.py --seconds 4 --tables coop:RR

* **engine**: the engine's random play, as ``christianity_game.bench`` times it: per action
  ``game.pending`` (legal-action enumeration) + a random choice + ``game.apply_unchecked``, in
  games made with ``log=False`` as the environment makes its own (no event objects).
* **env**: one agent step of ``ChristianityEnv`` with random masked actions: ``env.last()``
  (the observation arrays and the action mask) + a random legal index + ``env.step()``;
  measured with the engine's checked ``apply`` (the default) and with ``checked=False``. The
  agent draws with ``random.Random`` as the engine side does, from the legal indexes that
  ``np.flatnonzero(mask.view(bool))`` gives: the same indexes as ``np.flatnonzero(mask)``,
  which scans the int8 mask several times slower (the ``int8 agent`` column times that one).

Whole games are played; within a repeat the four kinds take turns in ``--slices`` short slices
(the same game seeds for each kind in one turn) until each has run ``--seconds``, so that a busy
spell of the machine hits all of them alike. Each ratio is taken within a repeat; the figures
are medians of ``--repeats`` repeats. One core, one process. The load average is printed: read
the ratio against it.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import numpy as np  # noqa: E402

from christianity_game import Game, Settings  # noqa: E402
from christianity_game.env import ChristianityEnv  # noqa: E402


def settings_for(mode: str) -> Settings:
    return Settings(max_turns=200) if mode == "duel" else Settings()


def engine_run(mode: str, lineup: str, budget_s: float, seed: int) -> tuple[float, int]:
    """Whole games of the engine's random play until ``budget_s`` is spent: (seconds, actions)."""
    rnd = random.Random(seed)
    settings = settings_for(mode)
    actions = 0
    spent = 0.0
    g = 0
    clock = time.perf_counter
    while spent < budget_s:
        game = Game.new(mode=mode, lineup=lineup, seed=seed + g, settings=settings, log=False)
        g += 1
        t0 = clock()
        n = 0
        while game.state.result is None:
            _seat, acts = game.pending[0]
            game.apply_unchecked(rnd.choice(acts))
            n += 1
        spent += clock() - t0
        actions += n
    return spent, actions


def env_run(env: ChristianityEnv, budget_s: float, seed: int, bool_view: bool = True) -> tuple[float, int]:
    """Whole games of random masked agent steps until ``budget_s`` is spent: (seconds, steps).
    ``bool_view``: the agent scans the mask as bool, else as the int8 array it is."""
    rnd = random.Random(seed)   # the same generator as the engine side's random play
    steps = 0
    spent = 0.0
    g = 0
    clock = time.perf_counter
    while spent < budget_s:
        env.reset(seed=seed + g)
        g += 1
        t0 = clock()
        n = 0
        for _ in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"]
            legal = np.flatnonzero(mask.view(np.bool_) if bool_view else mask)
            env.step(int(legal[rnd.randrange(len(legal))]))
            n += 1
        spent += clock() - t0
        steps += n
    return spent, steps


KINDS = ("engine", "env", "env_unchecked", "env_int8")


def one_repeat(mode: str, lineup: str, seconds: float, seed: int, slices: int) -> dict[str, float]:
    """Microseconds per action of each kind, the kinds taking turns in short slices until each
    has run ``seconds``: a busy spell of the machine falls on all of them alike."""
    settings = settings_for(mode)
    envs = {"env": ChristianityEnv(mode=mode, lineup=lineup, settings=settings),
            "env_unchecked": ChristianityEnv(mode=mode, lineup=lineup, settings=settings, checked=False),
            "env_int8": ChristianityEnv(mode=mode, lineup=lineup, settings=settings)}
    totals = {k: [0.0, 0] for k in KINDS}
    piece = seconds / slices
    turn = 0
    while min(t[0] for t in totals.values()) < seconds:
        chunk_seed = seed + 10_000 * turn   # the same games for every kind in one turn
        turn += 1
        for kind in KINDS:
            if kind == "engine":
                spent, n = engine_run(mode, lineup, piece, chunk_seed)
            else:
                spent, n = env_run(envs[kind], piece, chunk_seed, bool_view=kind != "env_int8")
            totals[kind][0] += spent
            totals[kind][1] += int(n)
    return {k: t[0] / t[1] * 1e6 for k, t in totals.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", default="coop:RR,solo:R,duel:ER", help="mode:lineup, comma-separated")
    ap.add_argument("--seconds", type=float, default=2.0, help="time of each kind in each repeat")
    ap.add_argument("--slices", type=int, default=8, help="turns the kinds take within a repeat")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    print(f"Python {sys.version.split()[0]}, load average before: "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    head = (f"{'table':<9} {'engine us/act':>13} {'env us/step':>11} {'ratio':>6} {'env unchecked':>13} {'ratio':>6} "
            f"{'int8 agent':>10} {'ratio':>6} {'env steps/s':>11}")
    print(head)
    print("-" * len(head))
    for spec in args.tables.split(","):
        mode, lineup = spec.split(":")
        one_repeat(mode, lineup, 0.2, args.seed + 99, 2)   # warm-up
        reps = [one_repeat(mode, lineup, args.seconds, args.seed + 1000 * r, args.slices) for r in range(args.repeats)]
        us = {k: statistics.median(r[k] for r in reps) for k in KINDS}
        ratio = {k: statistics.median(r[k] / r["engine"] for r in reps) for k in KINDS}
        print(f"{mode + ' ' + lineup:<9} {us['engine']:>13.1f} {us['env']:>11.1f} {ratio['env']:>5.2f}x "
              f"{us['env_unchecked']:>13.1f} {ratio['env_unchecked']:>5.2f}x {us['env_int8']:>10.1f} "
              f"{ratio['env_int8']:>5.2f}x {1e6 / us['env']:>11.0f}")
    print("load average after: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print("ratio: env agent step (last() + masked random index + step()) / engine random action "
          "(pending + choice + apply_unchecked), within each repeat; medians of the repeats")
    print("both sides play games made with log=False (no event log, as the env makes them); "
          "the agent finds its legal indexes with np.flatnonzero(mask.view(bool)), "
          "'int8 agent' with np.flatnonzero(mask) (checked apply)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
