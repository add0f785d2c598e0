#!/usr/bin/env python3
"""A learning baseline through the environment, with a maintained RL library: MaskablePPO
(sb3-contrib, on Stable-Baselines3 and PyTorch's CPU build) learns the solo game through the
PettingZoo environment, and the learned policy then plays as a bot, on the rating ladder too.

    .venv/bin/pip install '.[rl]'                        # torch (CPU), stable-baselines3, sb3-contrib
    .venv/bin/python examples/rl_maskable_ppo.py train --steps 300000 --out ppo-solo.zip
    .venv/bin/python examples/rl_maskable_ppo.py evaluate --model ppo-solo.zip --games 200 --seed 50000
    PYTHONPATH=. PPO_MODEL=ppo-solo.zip .venv/bin/christianity-game ladder --modes solo \\
        --bots random,easy,examples.rl_maskable_ppo:LearnedBot --games 100

The solo game is one agent against the Evil deck, which is part of the rules (CO-4): the
environment with no bot seats is a single-agent task, wrapped here as a Gymnasium environment
(:class:`SoloEnv`). The reward is the environment's own: +1 for a win, -1 for a loss, at the end of
the game (about 100 decisions). The policy sees the environment's observation without its action
mask, flattened into one vector (:func:`features`), and chooses among the legal indexes only: the
mask is handed to MaskablePPO through ``action_masks()``, so no illegal index is ever tried. Of the
environment's 7,661 indexes (every mode, up to six seats) a solo game uses a few hundred; the policy
chooses among those a few thousand seeded games used (:func:`solo_indexes`, kept beside the model
as ``<model>.indexes.json``), which makes each step many times cheaper. A decision whose legal
indexes all lie outside them (rare) takes the first legal action, and is counted.

:class:`LearnedBot` is the trained policy as a :class:`~christianity_game.bots.base.Bot`: it reads
its seat's observation from the observer (``observation_of``: what the seat may see, nothing
else) and picks a legal action. ``PPO_MODEL`` names the model file it loads.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import gymnasium as gym  # noqa: E402
import numpy as np  # noqa: E402

from christianity_game.bots.base import Bot  # noqa: E402
from christianity_game.engine.actions import Action  # noqa: E402
from christianity_game.engine.game import Game  # noqa: E402
from christianity_game.env import ACTION_COUNT, env as make_env  # noqa: E402
from christianity_game.env.actions import encode_legal  # noqa: E402
from christianity_game.env.observation import observation_of, observation_space  # noqa: E402

#: the observation's arrays the policy reads (all but the action mask), in this order
KEYS = tuple(k for k in observation_space().spaces if k != "action_mask")
#: the length of the flattened observation
WIDTH = sum(int(np.prod(observation_space()[k].shape)) for k in KEYS)
#: the scale of the flattened observation (counts are small: used as they are, Humility, score and
#: round divided down to about 1)
SCALE = 10.0
#: the bounds of each entry of the flattened observation, from the environment's spaces
LOW, HIGH = (np.concatenate([np.asarray(getattr(observation_space()[k], end), np.float32).ravel() for k in KEYS]) / SCALE
             for end in ("low", "high"))


def features(obs: dict[str, np.ndarray]) -> np.ndarray:
    """The observation without its mask, as one float vector (divided by :data:`SCALE`)."""
    parts = [obs[k].astype(np.float32).ravel() for k in KEYS]
    return np.concatenate(parts) / SCALE


def solo_indexes(games: int = 3000) -> list[int]:
    """The action indexes the legal lists of ``games`` seeded solo games held (seeds 0 .. games-1,
    random play on even seeds and the heuristic's on odd ones), sorted: the policy's actions."""
    import random

    from christianity_game.bots.registry import make_bot
    seen: set[int] = set()
    for s in range(games):
        game = Game.new(mode="solo", lineup="R", seed=s, log=False)
        rnd, bot = random.Random(s), make_bot("heuristic", seed=s) if s % 2 else None
        while game.result is None:
            seat, actions = game.pending[0]
            seen.update(encode_legal(game, seat, actions))
            game.apply_unchecked(bot.decide(game, seat, actions) if bot else rnd.choice(actions))
    return sorted(seen)


def indexes_path(model: Path) -> Path:
    """Where the policy's action indexes are kept beside ``model``."""
    return model.with_suffix(".indexes.json")


class SoloEnv(gym.Env):  # type: ignore[misc]
    """The solo game (one Righteous seat against the Evil deck) as a Gymnasium environment for
    MaskablePPO: the PettingZoo environment's only agent, its flattened observation, and its mask
    over the policy's action indexes (``indexes``: action ``i`` is index ``indexes[i]``)."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, indexes: list[int]) -> None:
        self.aec = make_env(mode="solo", lineup="R", checked=False)
        self.agent = "seat_0"
        self.indexes = np.asarray(indexes, dtype=np.int64)
        self.action_space = gym.spaces.Discrete(len(indexes))
        self.observation_space = gym.spaces.Box(LOW, HIGH, (WIDTH,), np.float32)
        self._mask = np.zeros(len(indexes), dtype=bool)
        #: decisions taken for the policy because none of their legal indexes is one of its actions
        self.forced = 0
        self._reward = 0.0

    def _observe(self) -> np.ndarray:
        """The observation of the next decision the policy can take (one whose legal indexes are
        all outside its actions is taken for it: the first legal action, counted in ``forced``)."""
        while True:
            obs = self.aec.observe(self.agent)
            self._mask = obs["action_mask"][self.indexes].astype(bool)
            if self._mask.any() or self._over():
                return features(obs)
            self.forced += 1
            self._take(int(np.flatnonzero(obs["action_mask"])[0]))

    def _over(self) -> bool:
        return bool(self.aec.terminations[self.agent] or self.aec.truncations[self.agent])

    def _take(self, index: int) -> None:
        self.aec.step(index)
        self._reward += float(self.aec.rewards[self.agent])

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        self._reward = 0.0
        return self._observe(), {}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self._reward = 0.0
        self._take(int(self.indexes[int(action)]))
        obs = self._observe()
        terminated = bool(self.aec.terminations[self.agent])
        truncated = bool(self.aec.truncations[self.agent])
        return obs, self._reward, terminated, truncated, dict(self.aec.infos[self.agent])

    def action_masks(self) -> np.ndarray:
        """The policy's actions legal now (MaskablePPO asks before each step)."""
        return self._mask


def train(steps: int, out: Path, seed: int, indexes: list[int] | None = None) -> dict[str, Any]:
    """Train MaskablePPO for ``steps`` decisions and save the model to ``out`` (its action indexes
    beside it: :func:`indexes_path`)."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)   # a small network: one thread is fastest, and leaves the other core free
    indexes = indexes if indexes is not None else solo_indexes()
    env = SoloEnv(indexes)
    model = MaskablePPO("MlpPolicy", env, seed=seed, n_steps=2048, batch_size=256, n_epochs=4, learning_rate=3e-4,
                        gamma=0.995, ent_coef=0.01, policy_kwargs={"net_arch": [128, 128]}, verbose=0)
    start = time.process_time()
    model.learn(total_timesteps=steps)
    seconds = time.process_time() - start
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    indexes_path(out).write_text(json.dumps(indexes))
    return {"steps": steps, "cpu_seconds": round(seconds, 1), "actions": len(indexes), "forced": env.forced,
            "model": str(out)}


class LearnedBot(Bot):
    """The trained policy for a Righteous seat (solo): the observation of its seat, from the
    observer, and the most likely of its legal actions (or a sample, ``sample=True``)."""

    name = "ppo"

    def __init__(self, seed: int = 0, cards: Any = None, model: str | None = None, sample: bool = False) -> None:
        super().__init__(seed, cards)
        from sb3_contrib import MaskablePPO
        path = Path(model or os.environ.get("PPO_MODEL", "ppo-solo.zip"))
        self.model = MaskablePPO.load(path, device="cpu")
        self.indexes: list[int] = json.loads(indexes_path(path).read_text())
        self.position = {index: i for i, index in enumerate(self.indexes)}
        self.sample = sample
        #: decisions none of whose legal indexes is one of the policy's actions (the first legal action)
        self.forced = 0

    def decide(self, game: Game, seat: int, actions: list[Action]) -> Action:
        codes = encode_legal(game, seat, actions)
        mask = np.zeros(len(self.indexes), dtype=bool)
        for code in codes:
            i = self.position.get(code)
            if i is not None:
                mask[i] = True
        if not mask.any():
            self.forced += 1
            return actions[0]
        full = np.zeros(ACTION_COUNT, dtype=np.int8)
        full[codes] = 1
        obs = observation_of(game, seat, full)
        i, _ = self.model.predict(features(obs), action_masks=mask, deterministic=not self.sample)
        return actions[codes.index(self.indexes[int(i)])]

    def choose(self, view: Any, actions: list[Action]) -> Action:
        raise NotImplementedError("LearnedBot decides from the game's observer (decide), not from a view dict")


def evaluate(bot: Bot | None, games: int, seed: int) -> dict[str, Any]:
    """Solo games on seeds ``seed`` .. ``seed + games - 1``: the bot's win share (None: random play)."""
    from christianity_game.bots.base import RandomBot
    from christianity_game.bots.match import play
    player = bot or RandomBot(seed)
    wins = 0
    for s in range(seed, seed + games):
        game = Game.new(mode="solo", lineup="R", seed=s, log=False)
        play(game, {0: player}, max_actions=None)
        assert game.result is not None
        wins += game.result.winner == "righteous"
    return {"games": games, "seed": seed, "wins": wins, "win_share": wins / games}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="train MaskablePPO on the solo game and save the model")
    t.add_argument("--steps", type=int, default=300_000, help="decisions to learn from")
    t.add_argument("--out", type=Path, default=Path("ppo-solo.zip"))
    t.add_argument("--seed", type=int, default=0)
    e = sub.add_parser("evaluate", help="the model's win share in solo games, beside random and heuristic play")
    e.add_argument("--model", type=Path, default=Path("ppo-solo.zip"))
    e.add_argument("--games", type=int, default=200)
    e.add_argument("--seed", type=int, default=50_000, help="first seed (training draws its seeds at random below 2**31)")
    args = parser.parse_args(argv)
    if args.command == "train":
        print(train(args.steps, args.out, args.seed))
        return 0
    if not args.model.is_file():
        parser.error(f"--model: no model file {args.model} (train one first)")
    from christianity_game.bots.registry import make_bot
    for name, bot in (("random", None), ("heuristic", make_bot("heuristic", seed=args.seed)),
                      ("ppo", LearnedBot(args.seed, model=str(args.model)))):
        print(name, evaluate(bot, args.games, args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
