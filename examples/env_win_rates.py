#!/usr/bin/env python3
"""Random and heuristic policies through the learning environment; prints win rates.

    .venv/bin/python examples/env_win_rates.py --games 20

Each policy plays the agents' seats from the observation alone (the "random" one picks a legal
index; the "heuristic" one is the project's heuristic bot reached through the environment's
action mapping), for co-op RR, solo and a duel where the agent plays Righteous against the
heuristic Evil bot.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import numpy as np  # noqa: E402

from christianity_game.bots import make_bot  # noqa: E402
from christianity_game.env import ActionContext, ChristianityEnv, encode  # noqa: E402

Policy = Callable[[ChristianityEnv, str, dict[str, np.ndarray]], int]


def random_policy(rng: np.random.Generator) -> Policy:
    def choose(env: ChristianityEnv, agent: str, obs: dict[str, np.ndarray]) -> int:
        legal = np.flatnonzero(obs["action_mask"])
        return int(legal[rng.integers(len(legal))])
    return choose


def heuristic_policy(seed: int) -> Policy:
    """The heuristic bot, asked through the seat's view; its action is turned into an index."""
    bot = make_bot("heuristic", seed)

    def choose(env: ChristianityEnv, agent: str, obs: dict[str, np.ndarray]) -> int:
        game = env.game
        assert game is not None
        seat = env.seat_of[agent]
        view = game.view(seat)
        action = bot.choose(view, game.legal_actions(seat))
        return encode(action, ActionContext.from_view(view))
    return choose


def win_rate(env: ChristianityEnv, policy: Policy, games: int, seed: int) -> tuple[float, float]:
    """(share of games the agents' side won, mean final reward)."""
    wins = 0
    total = 0.0
    for g in range(games):
        env.reset(seed=seed + g)
        final = 0.0
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                final = reward
                env.step(None)
                continue
            env.step(policy(env, agent, obs))
        wins += final > 0
        total += final
    return wins / games, total / games


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    tables = [("co-op RR", dict(mode="coop", lineup="RR")), ("solo R", dict(mode="solo", lineup="R")),
              ("duel ER, agent Righteous", dict(mode="duel", lineup="ER", bots={0: "heuristic"}))]
    print(f"{'table':<26} {'policy':<10} {'win rate':>8} {'mean reward':>12}   ({args.games} games each)")
    for name, kwargs in tables:
        for pname, policy in (("random", random_policy(np.random.default_rng(args.seed))),
                              ("heuristic", heuristic_policy(args.seed))):
            rate, mean = win_rate(ChristianityEnv(**kwargs), policy, args.games, args.seed)  # type: ignore[arg-type]
            print(f"{name:<26} {pname:<10} {rate:>8.0%} {mean:>12.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
