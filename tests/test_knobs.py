"""The Righteous rules of thumb as numbers (``bots/heuristic.py`` Knobs) and their tuner
(``bots/tune_knobs.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from christianity_game.bots.heuristic import DEFAULT_KNOBS, HeuristicBot, Knobs
from christianity_game.bots.match import play_out
from christianity_game.bots import tune_knobs
from christianity_game.engine.actions import Pass, Resist
from christianity_game.engine.game import Game
from christianity_game.engine.settings import Settings


def fingerprint(game: Game) -> tuple[object, ...]:
    return (game.state.result, game.action_count, game.state.round, game.score)


def test_the_default_knobs_are_the_heuristic_bot() -> None:
    """Knobs() holds the heuristic's constants: a bot given them plays every game as before."""
    for mode, lineup in (("duel", "EER"), ("coop", "RR")):
        games = []
        for bot_of in (lambda s: HeuristicBot(s), lambda s: HeuristicBot(s, knobs=Knobs(), duel_knobs=Knobs())):
            g = Game.new(mode=mode, lineup=lineup, seed=5, settings=Settings().updated({"max_turns": 200}), log=False)
            play_out(g, {i: bot_of(i) for i in range(len(lineup))})
            games.append(fingerprint(g))
        assert games[0] == games[1]
    assert repr(DEFAULT_KNOBS) == "Knobs()"
    assert repr(Knobs(tempt_keep=2)) == "Knobs(tempt_keep=2)"


def test_tempt_keep_keeps_cost_back_instead_of_paying_off_a_temptation() -> None:
    """On the same views: where the heuristic pays a Temptation off (not a combo finale, which it
    always answers), ``tempt_keep`` 6 passes instead: the Cost waits for the Habituals that may follow."""
    plain, keeper = HeuristicBot(0), HeuristicBot(0, duel_knobs=Knobs(tempt_keep=6, humility_floor=0))
    found = 0
    for seed in range(6):
        g = Game.new(mode="duel", lineup="ER", seed=seed, settings=Settings().updated({"max_turns": 120}), log=False)
        driver = {0: HeuristicBot(seed), 1: HeuristicBot(seed + 1)}
        while g.pending and found < 3:
            seat, actions = g.pending[0]
            view = g.seat_view(seat)
            if g.state.seats[seat].side == "righteous" and any(isinstance(a, Resist) for a in actions):
                a, b = plain.choose(view, actions), keeper.choose(view, actions)
                threat = {t["uid"]: t for t in view["threats"]}.get(getattr(a, "threat", None))
                if isinstance(a, Resist) and threat is not None and threat["id"] != "" \
                        and plain.cards.cards[threat["id"]].kind == "temptation" and not threat.get("finale") \
                        and view["seats"][seat]["humility"] > 0:
                    assert isinstance(b, Pass), (a, b)
                    found += 1
            g.apply(driver[seat].choose(view, actions))
    assert found >= 1


def test_duel_knobs_leave_co_op_alone() -> None:
    """``duel_knobs`` are read in duels only: a co-op game plays exactly as the heuristic's."""
    out = []
    for bot_of in (lambda s: HeuristicBot(s), lambda s: HeuristicBot(s, duel_knobs=Knobs(tempt_keep=6, lay_small=3.0))):
        g = Game.new(mode="coop", lineup="RRR", seed=9, log=False)
        play_out(g, {i: bot_of(i) for i in range(3)})
        out.append(fingerprint(g))
    assert out[0] == out[1]


def test_a_tiny_knob_study_completes_resumes_and_writes_its_best(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    storage, out = tmp_path / "k.sqlite", tmp_path / "knobs.json"
    args = ["--trials", "1", "--games", "1", "--search-games", "0", "--confirm-games", "1",
            "--confirm-search-games", "0", "--workers", "1", "--storage", str(storage), "--out", str(out)]
    assert tune_knobs.main(args) == 0
    assert "trial 0" in capsys.readouterr().out
    assert tune_knobs.main(args[:1] + ["2"] + args[2:]) == 0
    lines = capsys.readouterr().out.splitlines()
    started = [line.split(":")[0] for line in lines if line.startswith("trial ")]
    assert started == ["trial 1"]     # resumed: trial 0 came from the storage
    data = json.loads(out.read_text())
    assert data["trials"] == 2 and set(data["knobs"]) == set(Knobs.__dataclass_fields__)
    assert len(data["confirm"]) == len(tune_knobs.cells())
    assert data["confirm"][0]["heuristic"]["share"] >= 0 and "paired_gain" in data["confirm"][0]
    best = tune_knobs.knobs_of(data["knobs"])
    assert isinstance(best, Knobs) and data["best_trial"] in (0, 1)


def test_a_knob_study_on_two_workers_plays_the_same_games(tmp_path: Path) -> None:
    """``--workers 2`` plays the trial's games in a spawned pool: the same value as on one worker."""
    values = []
    for workers in ("1", "2"):
        out = tmp_path / f"knobs-{workers}.json"
        args = ["--trials", "1", "--games", "2", "--search-games", "0", "--confirm-games", "0",
                "--confirm-search-games", "0", "--workers", workers, "--storage", str(tmp_path / f"{workers}.sqlite"),
                "--out", str(out)]
        assert tune_knobs.main(args) == 0
        values.append(json.loads(out.read_text())["tuning_value"])
    assert values[0] == values[1]


def test_the_cells_play_the_same_outcomes_on_two_workers() -> None:
    """``play_cells`` on a pool (``workers.map_unordered``) keeps each outcome with its cell and deal."""
    todo = tune_knobs.cells(search=False)
    one = tune_knobs.play_cells(1, DEFAULT_KNOBS, todo, 5, 2, 0)
    two = tune_knobs.play_cells(2, DEFAULT_KNOBS, todo, 5, 2, 0)
    assert one == two and all(len(v) == 2 for v in one.values())
