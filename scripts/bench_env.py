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

Whole games are played until the time budget is spent; each figure is the median of
``--repeats`` runs, the loops interleaved so that a busy spell hits both alike. One core,
one process. The load average is printed: read the ratio against it.
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


def engine_run(mode: str, lineup: str, budget_s: float, seed: int) -> float:
    """Microseconds per engine action of random play."""
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
    return spent / actions * 1e6


def env_run(mode: str, lineup: str, budget_s: float, seed: int, checked: bool, bool_view: bool = True) -> float:
    """Microseconds per agent step of the environment, random masked actions (``bool_view``: the
    agent scans the mask as bool, else as the int8 array it is)."""
    rnd = random.Random(seed)   # the same generator as the engine side's random play
    env = ChristianityEnv(mode=mode, lineup=lineup, settings=settings_for(mode), checked=checked)
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
    return spent / steps * 1e6


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", default="coop:RR,solo:R,duel:ER", help="mode:lineup, comma-separated")
    ap.add_argument("--seconds", type=float, default=2.0, help="time budget of each loop in each repeat")
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
        engine_run(mode, lineup, 0.3, args.seed + 99)   # warm-up
        env_run(mode, lineup, 0.3, args.seed + 99, True)
        runs: dict[str, list[float]] = {"engine": [], "env": [], "env_unchecked": [], "env_int8": []}
        per = args.seconds
        for r in range(args.repeats):
            seed = args.seed + 1000 * r
            runs["engine"].append(engine_run(mode, lineup, per, seed))
            runs["env"].append(env_run(mode, lineup, per, seed, True))
            runs["env_unchecked"].append(env_run(mode, lineup, per, seed, False))
            runs["env_int8"].append(env_run(mode, lineup, per, seed, True, bool_view=False))
        eng = statistics.median(runs["engine"])
        chk = statistics.median(runs["env"])
        unc = statistics.median(runs["env_unchecked"])
        i8 = statistics.median(runs["env_int8"])
        print(f"{mode + ' ' + lineup:<9} {eng:>13.1f} {chk:>11.1f} {chk / eng:>5.2f}x {unc:>13.1f} "
              f"{unc / eng:>5.2f}x {i8:>10.1f} {i8 / eng:>5.2f}x {1e6 / chk:>11.0f}")
    print("load average after: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print("ratio: env agent step (last() + masked random index + step()) / engine random action "
          "(pending + choice + apply_unchecked); median of the repeats")
    print("both sides play games made with log=False (no event log, as the env makes them); "
          "the agent finds its legal indexes with np.flatnonzero(mask.view(bool)), "
          "'int8 agent' with np.flatnonzero(mask) (checked apply)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
