#!/usr/bin/env python3
"""A short self-play loop on numpy alone: two linear softmax policies (Evil and Righteous) play
duels against each other and learn by REINFORCE.

    .venv/bin/python examples/env_self_play.py --episodes 60

The policy scores each legal index with a linear function of the action's features (its block
of the action space, the kind of card it names, its amount) crossed with the phase one-hot of
the observation. At the end each side's policy is measured against a random opponent.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import numpy as np  # noqa: E402

from christianity_game import Settings  # noqa: E402
from christianity_game.cards import starter_set  # noqa: E402
from christianity_game.env import ChristianityEnv  # noqa: E402
from christianity_game.env.actions import ACTION_KEYS, CARD_IDS  # noqa: E402

BLOCKS = ("pass", "lay", "play", "resist", "boost", "use", "buy", "pick", "reward", "choose")
KINDS = ("maturity", "resistance", "righteous_habitual", "action", "instant", "temptation", "evil_habitual")


def action_features() -> np.ndarray:
    """One row of features per action index: block, card kind, amount, aimed at a seat."""
    cards = starter_set()
    rows = np.zeros((len(ACTION_KEYS), len(BLOCKS) + len(KINDS) + 2))
    for i, key in enumerate(ACTION_KEYS):
        rows[i, BLOCKS.index(key[0])] = 1
        if key[0] in ("lay", "play"):
            card = cards[CARD_IDS[key[1] if key[0] == "lay" else key[2]]]
            rows[i, len(BLOCKS) + KINDS.index(card.kind)] = 1
        if key[0] == "resist":
            rows[i, -2] = key[2] / 10
        if key[0] == "play" and key[4] is not None:
            rows[i, -1] = 1
    return rows


class LinearPolicy:
    """softmax(theta . (action features x phase)) over the legal indexes."""

    def __init__(self, features: np.ndarray, phases: int, rng: np.random.Generator) -> None:
        self.features = features
        self.theta = np.zeros((phases, features.shape[1]))
        self.rng = rng

    def act(self, obs: dict[str, np.ndarray], greedy: bool = False) -> tuple[int, np.ndarray]:
        legal = np.flatnonzero(obs["action_mask"])
        phase = int(np.argmax(obs["phase"]))
        feats = self.features[legal]
        logits = feats @ self.theta[phase]
        p = np.exp(logits - logits.max())
        p /= p.sum()
        k = int(np.argmax(p)) if greedy else int(self.rng.choice(len(legal), p=p))
        grad = np.zeros_like(self.theta)
        grad[phase] = feats[k] - p @ feats   # d log pi / d theta
        return int(legal[k]), grad


def play(env: ChristianityEnv, policies: dict[str, LinearPolicy | None], seed: int,
         rng: np.random.Generator) -> tuple[dict[str, float], dict[str, np.ndarray]]:
    """One game; each agent's final reward and the sum of its log-policy gradients."""
    env.reset(seed=seed)
    grads = {a: np.zeros_like(next(p for p in policies.values() if p is not None).theta) for a in env.agents}
    final = {a: 0.0 for a in env.agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        policy = policies[agent]
        if policy is None:   # a random opponent
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            continue
        action, grad = policy.act(obs)
        grads[agent] += grad
        env.step(action)
    return final, grads


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--episodes", type=int, default=60)
    ap.add_argument("--eval", type=int, default=20, help="games against a random opponent, per side")
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    features = action_features()
    env = ChristianityEnv(mode="duel", lineup="ER", settings=Settings(max_turns=40))
    phases = env.observation_space("seat_0")["phase"].shape[0]
    evil, righteous = LinearPolicy(features, phases, rng), LinearPolicy(features, phases, rng)
    policies: dict[str, LinearPolicy | None] = {"seat_0": evil, "seat_1": righteous}
    baseline = {"seat_0": 0.0, "seat_1": 0.0}
    window: list[float] = []
    for ep in range(args.episodes):
        final, grads = play(env, policies, args.seed * 10_000 + ep, rng)
        for agent, policy in (("seat_0", evil), ("seat_1", righteous)):
            advantage = final[agent] - baseline[agent]
            policy.theta += args.lr * advantage * grads[agent] / max(1.0, np.abs(grads[agent]).max())
            baseline[agent] += 0.1 * (final[agent] - baseline[agent])
        window.append(final["seat_1"])
        if (ep + 1) % 10 == 0:
            print(f"episode {ep + 1:>4}: Righteous mean reward over the last 10 self-play games "
                  f"{np.mean(window[-10:]):+.2f}")
    for side, agent, policy in (("Evil", "seat_0", evil), ("Righteous", "seat_1", righteous)):
        other = "seat_1" if agent == "seat_0" else "seat_0"
        rewards = [play(env, {agent: policy, other: None}, 900_000 + g, rng)[0][agent] for g in range(args.eval)]
        print(f"trained {side:<9} vs random: mean reward {np.mean(rewards):+.2f}, "
              f"won {sum(r > 0 for r in rewards)}/{args.eval} (the rest lost or reached the turn cap)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
