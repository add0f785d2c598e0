"""The learning baseline through the environment (``examples/rl_maskable_ppo.py``): MaskablePPO
(sb3-contrib) trains through the PettingZoo environment, the model saves and loads as a bot that
plays only legal actions from what its seat may see, and the rating ladder takes it by import path.

The training here is one PPO rollout and update (2,048 decisions): enough to show the pipeline
end to end in seconds; the README's figures come from the example's own commands.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from christianity_game import Game
from christianity_game.engine.determinize import determinize
from christianity_game.engine.rng import Rng

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def example() -> ModuleType:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))   # so the ladder finds examples.rl_maskable_ppo by import path
    return importlib.import_module("examples.rl_maskable_ppo")


@pytest.fixture(scope="module")
def indexes(example: ModuleType) -> list[int]:
    return list(example.seat_indexes(example.Table(), 200))


@pytest.fixture(scope="module")
def model(example: ModuleType, indexes: list[int], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ppo") / "ppo-solo.zip"
    info = example.train(2048, out, seed=3, indexes=indexes)
    assert info["steps"] == 2048 and out.is_file() and example.sidecar_path(out).is_file()
    return out


def test_the_policy_s_actions_are_the_indexes_solo_games_use(example: ModuleType, indexes: list[int]) -> None:
    """A few hundred of the environment's indexes, sorted, each a legal index somewhere in those games,
    Pass among them; more games add only rarer ones."""
    from christianity_game.env import ACTION_COUNT
    from christianity_game.env.actions import ACTION_KEYS
    assert indexes == sorted(set(indexes)) and 100 < len(indexes) < ACTION_COUNT // 5
    assert ACTION_KEYS.index(("pass",)) in indexes
    assert set(indexes) <= set(example.seat_indexes(example.Table(), 400))


def test_the_solo_environment_plays_a_game_within_its_spaces_with_masks(example: ModuleType,
                                                                          indexes: list[int]) -> None:
    env = example.SeatEnv(indexes)
    obs, _ = env.reset(seed=4)
    assert obs.shape == (example.WIDTH,) and obs.dtype == np.float32 and env.observation_space.contains(obs)
    first = env.reset(seed=4)[0]
    assert np.array_equal(first, obs)   # the seed deals the same game
    steps, done, reward = 0, False, 0.0
    rng = np.random.default_rng(4)
    while not done:
        legal = env.action_masks().nonzero()[0]
        assert len(legal) > 0
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        assert env.observation_space.contains(obs)
        done = terminated or truncated
        steps += 1
    assert reward in (1.0, -1.0) and info["winner"] in ("righteous", "evil") and steps > 20


def test_a_masked_out_index_is_refused(example: ModuleType, indexes: list[int]) -> None:
    env = example.SeatEnv(indexes)
    env.reset(seed=5)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)


def test_a_decision_outside_the_policy_s_actions_is_taken_for_it_and_counted(example: ModuleType) -> None:
    """With Pass as its only action, every decision without a legal Pass is taken for the policy
    (the first legal action), and the game still runs to its end."""
    from christianity_game.env.actions import ACTION_KEYS
    env = example.SeatEnv([ACTION_KEYS.index(("pass",))])
    env.reset(seed=6)
    done = False
    while not done:
        assert env.action_masks().tolist() == [True]
        _, _, terminated, truncated, _ = env.step(0)
        done = terminated or truncated
    assert env.forced > 0


def test_the_trained_model_plays_solo_games_to_their_end_with_legal_actions(example: ModuleType, model: Path) -> None:
    bot = example.LearnedBot(0, model=str(model))
    for seed in range(3):
        game = Game.new(mode="solo", lineup="R", seed=seed)
        while game.result is None:
            seat, actions = game.pending[0]
            game.apply(bot.decide(game, seat, actions))   # checked: an illegal action would raise
    result = example.evaluate(bot, 3, 100)
    assert result["games"] == 3 and 0 <= result["wins"] <= 3


def test_the_learned_bot_decides_from_what_its_seat_may_see(example: ModuleType, model: Path) -> None:
    """Two games that differ only in cards the seat cannot see (its deck's order, the Evil deck):
    the same decision (the bot reads the observer's observation, never the state)."""
    bot = example.LearnedBot(0, model=str(model))
    game = Game.new(mode="solo", lineup="R", seed=8)
    rng = Rng(2)
    checked = 0
    for _ in range(400):
        if game.result is not None:
            break
        seat, actions = game.pending[0]
        if len(actions) > 2 and checked < 5:
            other = determinize(game, seat, Rng(50 + checked))
            assert other.view(seat) == game.view(seat)
            assert bot.decide(game, seat, actions) == bot.decide(other, seat, actions)
            checked += 1
        game.apply_unchecked(actions[rng.randbelow(len(actions))])
    assert checked == 5


def test_the_ladder_rates_the_learned_bot_by_import_path(example: ModuleType, model: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner
    from christianity_game.cli import app
    monkeypatch.setenv("PPO_MODEL", str(model))
    out = tmp_path / "ladder"
    done = CliRunner().invoke(app, ["ladder", "--modes", "solo", "--bots", "random,examples.rl_maskable_ppo:LearnedBot",
                                    "--games", "2", "--out", str(out), "--json"])
    assert done.exit_code == 0, done.output
    data: dict[str, Any] = json.loads((out / "ladder.json").read_text())
    assert "examples.rl_maskable_ppo:LearnedBot" in json.dumps(data)


def test_the_same_seed_trains_the_same_policy(example: ModuleType, indexes: list[int], model: Path,
                                             tmp_path: Path) -> None:
    """The README's figures can be made again: training is seeded (the deals, the network, the
    samples) and runs on one thread."""
    import hashlib

    from sb3_contrib import MaskablePPO

    def weights(path: Path) -> str:
        policy = MaskablePPO.load(path, device="cpu").policy
        return hashlib.sha256(b"".join(p.detach().numpy().tobytes() for p in policy.parameters())).hexdigest()

    again = tmp_path / "again.zip"
    example.train(2048, again, seed=3, indexes=indexes)
    assert weights(again) == weights(model)
    other = tmp_path / "other.zip"
    example.train(2048, other, seed=4, indexes=indexes)
    assert weights(other) != weights(model)


def test_a_duel_seat_learns_against_a_bot_and_plays_its_own_side(example: ModuleType, tmp_path: Path) -> None:
    """A duel table: the Righteous seat of ER with the recommended variants, the heuristic Evil bot
    inside the environment; the model keeps its table, and the bot plays that side to the end."""
    table = example.Table("duel", "ER", 1, "recommended", "heuristic")
    out = tmp_path / "ppo-er.zip"
    info = example.train(2048, out, seed=5, table=table, index_games=60)
    assert info["table"]["seat"] == 1 and info["actions"] > 20
    bot = example.LearnedBot(0, model=str(out))
    assert bot.table == table
    result = example.evaluate(bot, 4, 200, table)
    assert result["wins"] + result["losses"] + result["capped"] == 4
    random_play = example.evaluate(None, 4, 200, table, opponent="random")
    assert random_play["games"] == 4


def test_a_bad_table_is_refused_with_the_engine_s_words(example: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        example.main(["train", "--mode", "duel", "--lineup", "RR", "--steps", "10"])
    assert "duel" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        example.main(["train", "--mode", "solo", "--lineup", "R", "--seat", "3", "--steps", "10"])
    assert "no seat 3" in capsys.readouterr().err


def test_an_evaluation_opponent_takes_the_other_side_s_seats_only(example: ModuleType) -> None:
    table = example.Table("duel", "ERR", 1, "recommended", "heuristic")
    bots = table.opponents(7, "random")
    assert sorted(bots) == [0, 2]
    assert bots[0].name == "random" and bots[2].name != "random"   # the teammate keeps the table's bot


def test_a_duel_stopped_at_the_turn_cap_gets_the_cap_reward(example: ModuleType) -> None:
    """The environment gives 0 for a capped duel, so a learner may learn to stall rather than lose;
    ``cap_reward=-1`` makes the cap as bad as a loss."""
    from christianity_game.env.actions import ACTION_KEYS
    table = example.Table("duel", "EER", 2, "recommended", "heuristic")
    env = example.SeatEnv([ACTION_KEYS.index(("pass",))], table, cap_reward=-1.0)
    env.aec.settings = env.aec.settings.updated({"max_turns": 4})
    rewards, done, info = [], False, {}
    env.reset(seed=9)
    while not done:
        _, reward, terminated, truncated, info = env.step(0)
        rewards.append(reward)
        done = terminated or truncated
    if truncated:
        assert rewards[-1] == -1.0 and info["turn_cap"]
    else:
        assert rewards[-1] in (1.0, -1.0)
    assert truncated, "four turns of passing end at the cap"
