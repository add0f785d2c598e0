"""Card data of the duel Evil deck as declared parameters (cards/params.py, issue 21 item 1): the
lab plays a grid axis that names one (``--set copies.the-broad-way=1,2``), its games replay from
the stored cell, and the tuner searches them beside the play-test variants (``--space``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from christianity_game.cards.loader import starter_set
from christianity_game.cards.params import (
    card_param, card_params, changes_sentence, find_card_param, with_card_changes,
)
from christianity_game.cli import app
from christianity_game.engine.game import Game
from christianity_game.sim.lab import LabError, build_grid, parse_axes, replay_game, run_lab
from christianity_game.sim.report import load_stats
from christianity_game.sim.tune import make_config, variants_text

runner = CliRunner()


def test_every_card_of_the_duel_deck_declares_its_cost_copies_and_fixed_resistance() -> None:
    cards = starter_set()
    deck = cards.decks["duel-evil"]
    params = {p.key: p for p in card_params()}
    for cid in set(deck.cards):
        card = cards[cid]
        assert params[f"cost.{cid}"].printed == card.cost
        assert params[f"copies.{cid}"].printed == deck.cards.count(cid)
        has_r = card.x_rule is None and card.resistance is not None
        assert (f"resistance.{cid}" in params) == has_r
    assert find_card_param("cost.no-such-card") is None and find_card_param("rewardCap") is None
    assert params["cost.pride"].shared and not params["cost.the-broad-way"].shared
    with pytest.raises(ValueError, match="must be a whole number from 0 to 3"):
        card_param("copies.the-broad-way").check(9)


def test_changes_make_a_new_card_set_and_leave_the_starter_set_alone() -> None:
    base = starter_set()
    changed = with_card_changes(base, {"cost.idle-words": 2, "copies.the-broad-way": 2, "resistance.a-little-leaven": 3})
    assert changed["idle-words"].cost == 2 and base["idle-words"].cost == 1
    assert changed["a-little-leaven"].resistance == 3
    assert changed.decks["duel-evil"].cards.count("the-broad-way") == 2
    assert len(changed.decks["duel-evil"].cards) == len(base.decks["duel-evil"].cards) + 1
    assert with_card_changes(base, {}) is base
    game = Game.new(mode="duel", lineup="ER", seed=3, card_set=changed)
    assert game.cards["idle-words"].cost == 2
    assert changes_sentence({"cost.idle-words": 2}) == "Card changes: Idle Words costs 2 (printed 1)."


def test_the_lab_plays_card_axes_and_replays_their_games(tmp_path: Path) -> None:
    grid = build_grid("duel", "ER", parse_axes(["copies.the-broad-way=1,3", "maxTurns=40"]), "heuristic", games=4, seed=2)
    assert [c.cards for c in grid.cells] == [{"copies.the-broad-way": 1}, {"copies.the-broad-way": 3}]
    assert "copies.the-broad-way=3" in grid.cells[1].label
    db = tmp_path / "cards.sqlite"
    run = run_lab(grid, db, backend="serial")
    printed, three = load_stats(db, run.cell_ids)
    assert printed.games == three.games == 4
    # each cell's games were dealt from its own deck: the printed one copy, or three
    one, again = replay_game(db, run.cell_ids[0], 0), replay_game(db, run.cell_ids[1], 0)
    assert [sum(1 for d in r.game.defs if d.id == "the-broad-way") for r in (one, again)] == [1, 3]
    assert again.spec["cards"] == {"copies.the-broad-way": 3} and not again.differences()
    for bad, message in ((["copies.the-broad-way=9"], "from 0 to 3"), (["cost.pridee=1"], "unknown card parameter"),
                         (["resistance.the-broad-way=x"], "whole number")):
        with pytest.raises(LabError, match=message):
            build_grid("duel", "ER", parse_axes(bad), "heuristic", games=1)
    with pytest.raises(LabError, match="card parameters are the duel Evil deck's"):
        build_grid("coop", "RR", parse_axes(["cost.pride=1"]), "heuristic", games=1)


def test_the_tuner_searches_card_parameters_beside_the_variants(tmp_path: Path) -> None:
    config = make_config("ER", {"evilInterrupt": ["1"], "maxTurns": ["40"]}, games=2, seed=1,
                         space=["rewardCap", "copies.the-broad-way"], values=["copies.the-broad-way=0,2"])
    assert config.choices["copies.the-broad-way"] == [1, 0, 2]
    assert variants_text({"reward_cap": 3, "copies.the-broad-way": 2}) == "rewardCap=3,copies.the-broad-way=2"
    out, study = tmp_path / "report", tmp_path / "tune.sqlite"
    result = runner.invoke(app, ["tune", "--lineup", "ER", "--set", "evilInterrupt=1", "--set", "maxTurns=40",
                                 "--games", "2", "--seed", "1", "--confirm-games", "2", "--confirm-top", "1",
                                 "--space", "copies.the-broad-way", "--values", "copies.the-broad-way=2",
                                 "--trials", "2", "--backend", "serial", "--study", str(study), "--out", str(out),
                                 "--json"], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout[result.stdout.index("{"):])
    tried = {t["variants"] for t in data["trials"]}
    assert tried == {"printed", "copies.the-broad-way=2"}   # the warm start: printed, then the change alone
    report = json.loads((out / "tune.json").read_text(encoding="utf-8"))
    changed = [c for c in report["candidates"] if c["variants"] == "copies.the-broad-way=2"]
    assert changed and "Card changes: 2 copies of The Broad Way in the duel Evil deck (printed 1)." \
        in changed[0]["table_plays"]
    bad = runner.invoke(app, ["tune", "--lineup", "ER", "--space", "copies.nothing", "--trials", "1",
                              "--study", str(study)], env={"COLUMNS": "160"})
    assert bad.exit_code != 0 and "unknown variant 'copies.nothing' in --space" in bad.output
