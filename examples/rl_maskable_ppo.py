#!/usr/bin/env python3
"""A learning baseline through the environment, with a maintained RL library: MaskablePPO
(sb3-contrib, on Stable-Baselines3 and PyTorch's CPU build) learns one seat of a table through the
PettingZoo environment (the solo game by default, or a duel seat against a bot), and the learned
policy then plays as a bot, on the rating ladder too.

    .venv/bin/pip install '.[rl]'                        # torch (CPU), stable-baselines3, sb3-contrib
    .venv/bin/python examples/rl_maskable_ppo.py train --steps 200000 --out ppo-solo.zip
    .venv/bin/python examples/rl_maskable_ppo.py evaluate --model ppo-solo.zip --games 200 --seed 50000
    PYTHONPATH=. PPO_MODEL=ppo-solo.zip .venv/bin/christianity-game ladder --modes solo \\
        --bots random,easy,examples.rl_maskable_ppo:LearnedBot --games 50
    .venv/bin/python examples/rl_maskable_ppo.py train --mode duel --lineup ER --seat 1 \\
        --variants recommended --opponent heuristic --out ppo-er-righteous.zip
    .venv/bin/python examples/rl_maskable_ppo.py evaluate --model ppo-er-righteous.zip --opponent search:4it

A table (:class:`Table`) is one seat to learn and a bot at every other seat, played inside the
environment's ``step``; the solo game needs none (its Evil deck is part of the rules, CO-4), so it
is a single-agent task as it stands. :class:`SeatEnv` wraps that seat as a Gymnasium
environment. The reward is the environment's own: +1 for a win, -1 for a loss, at the end of the
game (0 for a duel stopped at the turn cap). The policy sees the environment's observation
without its action mask, flattened into one vector (:func:`features`), and chooses among the legal
indexes only: the mask is handed to MaskablePPO through ``action_masks()``, so no illegal index is
ever tried. Of the environment's 7,661 indexes (every mode, up to six seats) one seat of a table
uses a few hundred; the policy chooses among those a few thousand seeded games offered it
(:func:`seat_indexes`, kept with the table beside the model as ``<model>.table.json``), which
makes each step several times cheaper. A decision whose legal indexes all lie outside them (rare)
takes the first legal action, and is counted.

:class:`LearnedBot` is the trained policy as a :class:`~christianity_game.bots.base.Bot`: it reads
its seat's observation from the observer (``observation_of``: what the seat may see, nothing
else) and picks a legal action. ``PPO_MODEL`` names the model file it loads (for the ladder).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import gymnasium as gym  # noqa: E402
import numpy as np  # noqa: E402

from christianity_game.bots.base import Bot  # noqa: E402
from christianity_game.engine.actions import Action  # noqa: E402
from christianity_game.engine.game import Game  # noqa: E402
from christianity_game.engine.settings import Settings  # noqa: E402
from christianity_game.engine.variants import parse_variants  # noqa: E402
from christianity_game.env import ACTION_COUNT, env as make_env  # noqa: E402
from christianity_game.env.aec import DEFAULT_DUEL_MAX_TURNS, TURN_CAP_REASON  # noqa: E402
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


@dataclass(frozen=True)
class Table:
    """Where the policy plays: the mode, the line-up and its seat, the duel's play-test variants
    (``recommended``, ``rewardCap=2``, ...) and the bot that plays every other seat (solo has
    none: its Evil deck is part of the rules)."""

    mode: str = "solo"
    lineup: str = "R"
    seat: int = 0
    variants: str = ""
    opponent: str = "heuristic"

    def settings(self) -> Settings:
        """The table's settings: its variants, and in a duel the environment's turn cap."""
        settings = Settings().updated(dict(parse_variants(self.variants))) if self.variants else Settings()
        if self.mode == "duel" and settings.max_turns == 0:
            settings = settings.updated({"max_turns": DEFAULT_DUEL_MAX_TURNS})
        return settings

    def side(self) -> str:
        return "righteous" if self.lineup[self.seat] == "R" else "evil"

    def others(self) -> list[int]:
        return [s for s in range(len(self.lineup)) if s != self.seat]

    def game(self, seed: int) -> Game:
        return Game.new(mode=self.mode, lineup=self.lineup, seed=seed, settings=self.settings(), log=False)

    def opponents(self, seed: int, name: str | None = None) -> dict[int, Bot]:
        """A bot for every other seat: the table's, or ``name`` at the other side's seats (the
        seat's teammates keep the table's bot)."""
        from christianity_game.bots.registry import make_bot
        mine = self.lineup[self.seat]
        return {s: make_bot(name if name and self.lineup[s] != mine else self.opponent, seed=seed * 7919 + s)
                for s in self.others()}


def seat_indexes(table: Table, games: int = 3000) -> list[int]:
    """The action indexes the legal lists of the table's seat held in ``games`` seeded games
    (seeds 0 .. games-1, random play at the seat on even seeds and the heuristic's on odd ones,
    the table's opponent elsewhere), sorted: the policy's actions."""
    import random

    from christianity_game.bots.match import play
    from christianity_game.bots.registry import make_bot
    seen: set[int] = set()

    class Watcher(Bot):
        """Plays the seat (randomly or as the heuristic) and notes every legal index it is offered."""

        def __init__(self, s: int) -> None:
            super().__init__(s)
            self.rnd, self.inner = random.Random(s), make_bot("heuristic", seed=s) if s % 2 else None

        def decide(self, game: Game, seat: int, actions: list[Action]) -> Action:
            seen.update(encode_legal(game, seat, actions))
            return self.inner.decide(game, seat, actions) if self.inner else self.rnd.choice(actions)

    for s in range(games):
        game = table.game(s)
        play(game, {table.seat: Watcher(s), **table.opponents(s)}, max_actions=None)
    return sorted(seen)


def sidecar_path(model: Path) -> Path:
    """Where the policy's table and action indexes are kept beside ``model``."""
    return model.with_suffix(".table.json")


class SeatEnv(gym.Env):  # type: ignore[misc]
    """One seat of a table as a Gymnasium environment for MaskablePPO: the PettingZoo
    environment's agent at that seat (every other seat played by the table's opponent inside the
    environment's ``step``), its flattened observation, and its mask over the policy's action
    indexes (``indexes``: action ``i`` is index ``indexes[i]``)."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, indexes: list[int], table: Table = Table(), cap_reward: float = 0.0) -> None:
        self.table = table
        #: the reward of a duel stopped at the turn cap (the environment's: 0; -1 makes stalling
        #: to the cap as bad as a loss)
        self.cap_reward = cap_reward
        self.aec = make_env(mode=table.mode, lineup=table.lineup, settings=table.settings(), checked=False,
                            bots={s: table.opponent for s in table.others()})
        self.agent = f"seat_{table.seat}"
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
        reward = self.cap_reward if truncated else self._reward
        return obs, reward, terminated, truncated, dict(self.aec.infos[self.agent])

    def action_masks(self) -> np.ndarray:
        """The policy's actions legal now (MaskablePPO asks before each step)."""
        return self._mask


def train(steps: int, out: Path, seed: int, indexes: list[int] | None = None, table: Table = Table(),
          index_games: int = 3000, cap_reward: float = 0.0) -> dict[str, Any]:
    """Train MaskablePPO at ``table``'s seat for ``steps`` decisions and save the model to ``out``
    (its table and action indexes beside it: :func:`sidecar_path`)."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)   # a small network: one thread is fastest, and leaves the other core free
    indexes = indexes if indexes is not None else seat_indexes(table, index_games)
    env = SeatEnv(indexes, table, cap_reward)
    model = MaskablePPO("MlpPolicy", env, seed=seed, n_steps=2048, batch_size=256, n_epochs=4, learning_rate=3e-4,
                        gamma=0.995, ent_coef=0.01, policy_kwargs={"net_arch": [128, 128]}, verbose=0)
    start = time.process_time()
    model.learn(total_timesteps=steps)
    seconds = time.process_time() - start
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    sidecar_path(out).write_text(json.dumps({"table": asdict(table), "indexes": indexes}))
    return {"steps": steps, "cpu_seconds": round(seconds, 1), "actions": len(indexes), "forced": env.forced,
            "table": asdict(table), "cap_reward": cap_reward, "model": str(out)}


class LearnedBot(Bot):
    """The trained policy: the observation of its seat, from the observer, and the most likely of
    its legal actions (or a sample, ``sample=True``). It plays the side it was trained for."""

    name = "ppo"

    def __init__(self, seed: int = 0, cards: Any = None, model: str | None = None, sample: bool = False) -> None:
        super().__init__(seed, cards)
        from sb3_contrib import MaskablePPO
        path = Path(model or os.environ.get("PPO_MODEL", "ppo-solo.zip"))
        self.model = MaskablePPO.load(path, device="cpu")
        kept = json.loads(sidecar_path(path).read_text())
        self.table = Table(**kept["table"])
        self.indexes: list[int] = kept["indexes"]
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


def evaluate(bot: Bot | None, games: int, seed: int, table: Table = Table(), opponent: str | None = None) -> dict[str, Any]:
    """Games of ``table`` on seeds ``seed`` .. ``seed + games - 1`` with ``bot`` at its seat (None:
    random play) and ``opponent`` (default: the table's) at the others: the seat's side's wins,
    its losses, and the games that reached the turn cap (counted as neither)."""
    from christianity_game.bots.base import RandomBot
    from christianity_game.bots.match import play
    player = bot or RandomBot(seed)
    out = {"games": games, "seed": seed, "wins": 0, "losses": 0, "capped": 0}
    for s in range(seed, seed + games):
        game = table.game(s)
        play(game, {table.seat: player, **table.opponents(s, opponent)}, max_actions=None)
        assert game.result is not None
        if game.result.reason.startswith(TURN_CAP_REASON):
            out["capped"] += 1
        else:
            out["wins" if game.result.winner == table.side() else "losses"] += 1
    out["win_share"] = out["wins"] / games
    return out


def _table_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--mode", default="solo", help="solo (default), coop or duel")
    p.add_argument("--lineup", default="R", help="the line-up (R, RR, ER, EER, ...)")
    p.add_argument("--seat", type=int, default=0, help="the policy's seat (0 = the first)")
    p.add_argument("--variants", default="", help="the duel's play-test variants (recommended, rewardCap=2, ...)")
    p.add_argument("--opponent", default="heuristic", help="the bot at every other seat")


def _table(args: argparse.Namespace) -> Table:
    table = Table(args.mode, args.lineup.upper(), args.seat, args.variants, args.opponent)
    table.game(0)   # a bad table is refused now, with the engine's words
    if not 0 <= table.seat < len(table.lineup):
        raise ValueError(f"there is no seat {table.seat} in line-up {table.lineup}")
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="train MaskablePPO at one seat of a table and save the model")
    t.add_argument("--steps", type=int, default=300_000, help="decisions to learn from")
    t.add_argument("--out", type=Path, default=Path("ppo-solo.zip"))
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--index-games", type=int, default=3000, help="seeded games whose legal indexes are the policy's actions")
    t.add_argument("--cap-reward", type=float, default=0.0,
                   help="the reward of a duel stopped at the turn cap (0, the environment's; -1: as bad as a loss)")
    _table_options(t)
    e = sub.add_parser("evaluate", help="the model's win share at its table, beside random and heuristic play")
    e.add_argument("--model", type=Path, default=Path("ppo-solo.zip"))
    e.add_argument("--games", type=int, default=200)
    e.add_argument("--seed", type=int, default=50_000, help="first seed (training draws its seeds at random below 2**31)")
    e.add_argument("--opponent", default=None,
                   help="the bot at the other side's seats (default: the one it was trained against; teammates keep it)")
    args = parser.parse_args(argv)
    if args.command == "train":
        try:
            table = _table(args)
        except ValueError as exc:
            parser.error(str(exc))
        print(train(args.steps, args.out, args.seed, table=table, index_games=args.index_games,
                    cap_reward=args.cap_reward))
        return 0
    if not args.model.is_file() or not sidecar_path(args.model).is_file():
        parser.error(f"--model: no model file {args.model} with its {sidecar_path(args.model).name} (train one first)")
    from christianity_game.bots.registry import make_bot
    learned = LearnedBot(args.seed, model=str(args.model))
    for name, bot in (("random", None), ("heuristic", make_bot("heuristic", seed=args.seed)), ("ppo", learned)):
        print(name, evaluate(bot, args.games, args.seed, learned.table, args.opponent))
    print("decisions outside the policy's actions:", learned.forced)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
