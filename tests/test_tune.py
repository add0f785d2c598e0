"""The tuner (sim/tune.py and ``christianity-game tune``, issue 21 item 4).

A tiny study (ER only, Evil Interrupt on, 4 games a cell) completes, is resumed from its Optuna
SQLite storage (a second call with more trials adds only the missing one, and no stored game is
played again), and its report names the best trial with its ``--variants`` string. Bad options are
answered with one clear line. The search space comes straight from the variants' registry.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from christianity_game.cli import app
from christianity_game.engine.variants import VARIANTS, parse_variants
from christianity_game.sim.tune import (
    BANDS, EXHAUSTIVE_LIMIT, TARGETS, Targets, TuneError, band_figures, check_targets, closeness, make_config,
    parse_bands, small_sets, variant_choices, variants_text, warm_start,
)

runner = CliRunner()
ENV = {"COLUMNS": "160"}
TINY = ["--lineup", "ER", "--set", "evilInterrupt=1", "--set", "maxTurns=60", "--games", "4", "--seed", "1",
        "--confirm-games", "4", "--confirm-top", "1"]


def _games(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    finally:
        conn.close()


def _trials(study: Path) -> list[tuple[int, str, str]]:
    """(number, state, start time) of every trial in an Optuna SQLite storage."""
    conn = sqlite3.connect(study)
    try:
        return [(int(n), str(s), str(t)) for n, s, t in
                conn.execute("SELECT number, state, datetime_start FROM trials ORDER BY number")]
    finally:
        conn.close()


def test_a_tiny_study_completes_resumes_and_names_its_best_trial(tmp_path: Path) -> None:
    study, out = tmp_path / "tune.sqlite", tmp_path / "report"
    first = runner.invoke(app, ["tune", *TINY, "--trials", "2", "--backend", "serial", "--study", str(study),
                                "--out", str(out), "--json"], env=ENV)
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout[first.stdout.index("{"):])
    assert [t["trial"] for t in data["trials"]] == [0, 1]
    assert data["trials"][0]["variants"] == "printed" and data["trials"][0]["warm_start"] == "the printed rules"
    assert all(len(t["values"]) == 4 for t in data["trials"])
    # the first objective is the worst distance outside the bands, and each trial says which cells are out
    assert data["objective"] == {"key": "band", "name": "worst distance outside the band",
                                 "bands": {"ER": [0.4, 0.6]}}
    assert data["config"]["objective"] == "band" and data["objectives"][0] == "worst distance outside the band"
    assert data["config"]["wins"] == "real"
    for t in data["trials"]:
        figures = t["figures"]
        assert t["values"][0] == figures["worst_outside_band"] == figures["objectives"][0]
        # the band counts real wins: a game the 60-turn cap decided on the score is neither side's
        for c in figures["cells"]:
            assert c["real_wins"]["righteous"] == c["ended"].get("righteous", 0)
            assert c["real_win_rate"] == round(c["real_wins"]["righteous"] / c["games"], 4) <= c["win_rate"]
        outside = [c for c in figures["cells"] if not 0.4 <= c["real_win_rate"] <= 0.6]
        assert t["in_band"] is (not outside) and [c["cell"] for c in t["out_of_band"]] == [c["name"] for c in outside]
        assert all(c["band"] == [0.4, 0.6] and c["outside"] > 0 for c in t["out_of_band"])
    lab = tmp_path / "tune-lab.sqlite"
    assert lab.is_file()
    before = [t for t in _trials(study) if t[1] == "COMPLETE"]
    assert [n for n, _, _ in before] == [0, 1]   # the rest of the warm start waits in the storage

    # resumed from the storage: one more trial; the stored ones are kept, not run again
    second = runner.invoke(app, ["tune", *TINY, "--trials", "3", "--workers", "1", "--study", str(study),
                                 "--out", str(out)], env=ENV)
    assert second.exit_code == 0, second.output
    assert "1 trial(s) run now" in second.output and "holds 3 complete" in second.output
    after = [t for t in _trials(study) if t[1] == "COMPLETE"]
    assert after[:2] == before and [n for n, _, _ in after] == [0, 1, 2]

    # asked again: nothing to add, and every cell (tuning and confirmation) is read back, not played
    stored = _games(lab)
    third = runner.invoke(app, ["tune", *TINY, "--trials", "3", "--backend", "serial", "--study", str(study),
                                "--out", str(out)], env=ENV)
    assert third.exit_code == 0, third.output
    assert "0 trial(s) run now" in third.output and _games(lab) == stored

    md = (out / "summary.md").read_text(encoding="utf-8")
    report = json.loads((out / "tune.json").read_text(encoding="utf-8"))
    best = report["best"]
    assert best is not None and f"Trial {best['trial']}: --variants {best['variants']}" in md
    assert best["table_plays"].startswith("This table plays") and best["table_plays"] in md
    parse_variants(best["variants"]) if best["variants"] != "printed" else None
    for text in ("## Pareto front", "## Candidates, tuning and confirmation seeds", "## Length distributions",
                 "## Parameter importance", "R real wins (confirmation)", "safety cap t / c", "rounds p90 t / c",
                 "wins real", "Righteous wins are real wins (--wins real, the default)",
                 "objective band", "bands ER=40-60", "--objective band, the default", "| worst distance outside the band |",
                 "every cell in band", "cells out of band", "in band t / c"):
        assert text in md, text
    assert "in_band" in best and ("Every cell is in its band on both seeds." in md or "Out of band: on the" in md)
    assert report["confirmation"]["seed"] == 1001 and report["candidates"][0]["confirmation"]["cells"]
    assert "needs at least" in report["importance"]["note"]   # 3 trials: too few, and said so
    for png in ("pareto.png", "history.png", "candidates.png", "rounds.png"):
        assert (out / png).stat().st_size > 1000, png
    assert "Tuner" in (out / "index.html").read_text(encoding="utf-8")

    # the Pareto front confirmed instead of the top trials
    front = runner.invoke(app, ["tune", *TINY, "--trials", "3", "--backend", "serial", "--confirm", "front",
                                "--study", str(study), "--out", str(out)], env=ENV)
    assert front.exit_code == 0, front.output
    report = json.loads((out / "tune.json").read_text(encoding="utf-8"))
    assert report["confirmation"]["chosen"] == "every trial of the Pareto front"
    assert sorted(c["trial"] for c in report["candidates"]) == sorted(report["front"])

    # the first tuner's objective, on its own study (another question) and the same lab games
    old = runner.invoke(app, ["tune", *TINY, "--trials", "1", "--backend", "serial", "--objective", "from-50",
                              "--study", str(tmp_path / "old.sqlite"), "--lab", str(lab), "--out", str(out),
                              "--json"], env=ENV)
    assert old.exit_code == 0, old.output
    report = json.loads(old.stdout[old.stdout.index("{"):])
    assert report["objective"]["key"] == "from-50" and "objective" not in report["config"]
    trial = report["trials"][0]
    assert trial["values"][0] == trial["figures"]["worst_from_50"] == trial["figures"]["objectives"][0]
    printed = data["trials"][0]["figures"]   # the same games (the printed rules), judged from 50 %
    assert trial["figures"]["cells"] == printed["cells"] and trial["values"][0] == printed["worst_from_50"]
    assert "in_band" in trial and "out_of_band" in trial
    md = (out / "summary.md").read_text(encoding="utf-8")
    assert "--objective from-50" in md and "| worst distance from 50 % |" in md


@pytest.mark.parametrize("args, message", [
    (["--space", "rewardCap,rewardKap"], "unknown variant 'rewardKap' in --space"),
    (["--trials", "0"], "--trials must be at least 1"),
    (["--confirm-seed", "1"], "--confirm-seed must be 0 or more and differ from --seed 1"),
    (["--values", "rewardCap=99"], "rewardCap must be a whole number from 0 to 20"),
    (["--space", "rewardCap", "--values", "roundLimit=20"], "roundLimit: that variant is not in the search space"),
    (["--set", "rewardCap=2", "--space", "rewardCap"], "--space rewardCap: the grid's --set already sets it"),
    (["--confirm", "best"], "--confirm must be one of top, front"),
    (["--bots", "clever"], "clever"),
    (["--backend", "spark"], "--backend must be one of process, serial, ray"),   # the lab's own check
    (["--address", "10.0.0.1:6379"], "--address is for --backend ray"),
    (["--chunk", "0"], "--chunk must be at least 1"),
    (["--objective", "median"], "--objective must be one of band, from-50"),
    (["--wins", "all"], "--wins must be one of real, scored, not 'all'"),
    (["--band", "ER=60-40"], "--band ER=60-40: give 0 <= low <= high <= 100"),
    (["--band", "ER:40-60"], "--band takes line-up=low-high in per cent"),
    (["--band", "ER=40-60,RE=45-55"], "--band names the line-up ER twice"),
    (["--lineup", "EERR"], "no band of Righteous wins for the line-up EERR"),
])
def test_bad_options_are_answered_with_a_clear_error(tmp_path: Path, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["tune", *TINY, "--trials", "1", "--study", str(tmp_path / "s.sqlite"),
                                 "--out", str(tmp_path / "r"), *args], env=ENV)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output and not (tmp_path / "s-lab.sqlite").exists()


def test_a_study_that_asks_another_question_is_refused(tmp_path: Path) -> None:
    study = str(tmp_path / "s.sqlite")
    from christianity_game.sim.tune import open_study
    open_study(make_config("ER", {"evilInterrupt": ["1"]}, games=4, seed=1), study, "shared")
    with pytest.raises(TuneError, match="asks another question .*games"):
        open_study(make_config("ER", {"evilInterrupt": ["1"]}, games=8, seed=1), study, "shared")


def test_a_study_opens_and_resumes_with_a_large_tuning_seed(tmp_path: Path) -> None:
    """The sampler's seed is derived from the tuning seed (and the trials stored) and kept below
    2**32, numpy's limit: a study with --seed 16000 once failed before its first trial."""
    study = str(tmp_path / "s.sqlite")
    from christianity_game.sim.tune import open_study
    config = make_config("ER", {"evilInterrupt": ["1"]}, games=4, seed=16000)
    first = open_study(config, study, "big")
    first.enqueue_trial({})
    again = open_study(config, study, "big")
    assert len(again.trials) == 1 and again.user_attrs["config"] == config.to_json()


def test_the_search_space_comes_from_the_variants() -> None:
    for v in VARIANTS:
        tried = variant_choices(v)
        assert tried[0] == v.printed and len(set(tried)) == len(tried) >= 2, v
        assert all(v.check(x) == x for x in tried), v
        assert v.suggested in tried, v
    config = make_config("ER", {"evilInterrupt": ["1", "0"], "roundLimit": ["20"]}, games=2)
    assert "roundLimit" not in config.choices and len(config.choices) == len(VARIANTS) - 1
    narrowed = make_config("ER", space=["rewardCap", "evilHabituals"], values=["rewardCap=2,3"], games=2)
    assert narrowed.choices == {"rewardCap": [0, 2, 3], "evilHabituals": [7, 1, 2, 3, 4, 5, 6]}
    assert narrowed.fingerprint() != make_config("ER", space=["rewardCap"], games=2).fingerprint()
    starts = [why for _, why in warm_start(config)]
    assert starts[0] == "the printed rules" and "rewardCap alone" in starts
    assert variants_text({"reward_cap": 2, "same_turn_bonus": False}) == "rewardCap=2,sameTurnBonus=off"
    assert parse_variants("rewardCap=2,sameTurnBonus=off") == {"reward_cap": 2, "same_turn_bonus": False}


def test_targets_say_which_fails_and_by_how_much() -> None:
    cell = {"name": "ER", "lineup": "ER", "win_rate": 0.7, "real_win_rate": 0.7, "rounds": {"median": 30.0, "p90": 38.0},
            "first_evil_median": 12.0, "habitual_share_of_evil_wins": 0.1}
    uneven = {**cell, "name": "EER", "lineup": "EER", "win_rate": 0.65, "real_win_rate": 0.65}
    checks = {c.name: c for c in check_targets({"cells": [cell, uneven], "turn_cap_share": 0.05}, 4)}
    band = checks["Righteous real wins in the band of every cell"]
    assert not band.met and "1 of 2 cells out, worst by 10.0 pp" in band.miss
    assert TARGETS.band("EER") == (0.30, 0.70) and TARGETS.band("ER") == (0.40, 0.60)
    assert not checks["safety cap < 2 %"].met and checks["safety cap < 2 %"].miss == "+3.0 pp"
    assert not checks["median rounds ≤ 25 in every cell"].met and checks["p90 rounds ≤ 40 in every cell"].met
    assert checks["Evil's first turn ≤ 25 decisions (median)"].met
    assert not checks["Habitual win ≥ 20 % of Evil's wins"].met and not checks["≤ 3 departures"].met


def test_the_bands_are_declared_once_and_can_be_replaced() -> None:
    assert BANDS == {"ER": (0.40, 0.60), "EER": (0.30, 0.70), "ERR": (0.30, 0.70)}
    assert Targets().bands == BANDS and TARGETS.band("ERE") == BANDS["EER"]   # a line-up by its seats
    assert parse_bands("ER=45-55,EERR=40-60") == {**BANDS, "ER": (0.45, 0.55), "EERR": (0.40, 0.60)}
    assert parse_bands(None) == BANDS
    config = make_config("ER,EER", games=2, bands="ER=45-55")
    assert config.bands == {"ER": (0.45, 0.55), "EER": (0.30, 0.70)} and config.targets.band("ER") == (0.45, 0.55)
    assert config.to_json()["bands"] == {"ER": [0.45, 0.55], "EER": [0.30, 0.70]}
    # the question a study asks names its objective and bands; a from-50 study asks what the first tuner's did
    assert config.fingerprint() != make_config("ER,EER", games=2).fingerprint()
    old = make_config("ER,EER", games=2, objective="from-50", wins="scored")
    assert set(old.to_json()) == {"mode", "lineups", "axes", "bots", "games", "seed", "space"}
    assert old.objectives[0] == "worst distance from 50 %" and config.objectives[0] == "worst distance outside the band"
    with pytest.raises(TuneError, match="no band of Righteous wins for the line-up EEER"):
        make_config("EEER", games=2)
    assert make_config("EEER", games=2, bands="EEER=20-80").bands == {"EEER": (0.2, 0.8)}


def test_the_band_counts_real_wins_so_a_game_decided_on_the_score_is_neither_sides() -> None:
    """D-W-R: only the clean round is a Righteous win. A cell whose Righteous side won 20 of 100
    games outright and 30 more on the score at the safety cap (and 5 at the round limit) stands at
    20 %, not 55 %, against its band; ``--wins scored`` counts it as the tuner did before."""
    ended = {"righteous": 20, "evil": 30, "turn_cap_righteous": 30, "turn_cap_evil": 15, "round_limit_righteous": 5}
    cell = {"name": "ER", "lineup": "ER", "games": 100, "righteous_wins": 55, "win_rate": 0.55,
            "ci95": [0.452, 0.644], "ended": ended}
    real, scored = Targets(), Targets(wins="scored")
    assert real.wins == TARGETS.wins == "real"
    assert real.rate(cell) == 0.2 and real.outside(cell) == pytest.approx(0.2)   # from ``ended``: stored before
    assert scored.rate(cell) == 0.55 and scored.outside(cell) == 0 and scored.interval(cell) == (0.452, 0.644)
    lo, hi = real.interval(cell)
    assert lo < 0.2 < hi < 0.3
    stored = {**cell, "real_win_rate": 0.2, "real_ci95": [0.133, 0.289]}
    assert real.rate(stored) == 0.2 and real.interval(stored) == (0.133, 0.289)
    assert band_figures([stored])["out_of_band"] == [{"cell": "ER", "righteous": 0.2, "band": [0.4, 0.6],
                                                      "outside": 0.2}]
    assert band_figures([stored], scored)["in_band"]
    checks = {c.name: c for c in check_targets({"cells": [{**stored, "rounds": {"median": 9.0, "p90": 12.0},
                                                           "first_evil_median": 3.0,
                                                           "habitual_share_of_evil_wins": 0.5}],
                                                "turn_cap_share": 0.45}, 1)}
    assert not checks["Righteous real wins in the band of every cell"].met
    assert make_config("ER", games=2).targets.wins == "real"
    assert make_config("ER", games=2, wins="scored").targets.wins == "scored"
    with pytest.raises(TuneError, match="--wins must be one of real, scored, not 'all'"):
        make_config("ER", games=2, wins="all")


def test_a_study_stored_before_real_wins_resumes_with_wins_scored(tmp_path: Path) -> None:
    """A study made when the band counted the score's decisions asks a question without ``wins``:
    opened with the default it is refused with the way back; with ``--wins scored`` it resumes."""
    from christianity_game.sim.tune import open_study
    study = str(tmp_path / "s.sqlite")
    before = make_config("ER", {"evilInterrupt": ["1"]}, games=4, seed=1, wins="scored")
    assert "wins" not in before.to_json()
    open_study(before, study, "old")
    with pytest.raises(TuneError, match=r"differs in wins.*resumes with --wins scored"):
        open_study(make_config("ER", {"evilInterrupt": ["1"]}, games=4, seed=1), study, "old")
    assert open_study(before, study, "old").user_attrs["config"] == before.to_json()


def test_the_band_objective_is_zero_inside_every_band() -> None:
    def cell(name: str, lineup: str, rate: float) -> dict[str, object]:
        return {"name": name, "lineup": lineup, "win_rate": rate, "real_win_rate": rate}

    inside = [cell("ER", "ER", 0.45), cell("EER", "EER", 0.68), cell("ERR", "ERR", 0.31)]
    figures = band_figures(inside)
    assert figures["in_band"] and figures["out_of_band"] == [] and figures["worst_outside_band"] == 0
    assert figures["worst_from_50"] == 0.19   # what the from-50 objective would have judged them by
    out = band_figures([cell("ER", "ER", 0.25), cell("EER", "EER", 0.75), cell("ERR", "ERR", 0.5)])
    assert not out["in_band"] and out["worst_outside_band"] == 0.15 and out["mean_outside_band"] == round(0.2 / 3, 4)
    assert out["out_of_band"] == [{"cell": "ER", "righteous": 0.25, "band": [0.4, 0.6], "outside": 0.15},
                                  {"cell": "EER", "righteous": 0.75, "band": [0.3, 0.7], "outside": 0.05}]
    # ties of the first objective: the mean outside the bands, then the mean from 50 % (from-50: that mean)
    assert closeness(figures) == (0.0, figures["mean_distance"])
    assert closeness(figures, "from-50") == (figures["mean_distance"],)
    assert closeness({"cells": inside, "mean_distance": 0.1}) == (0.0, 0.1)   # a trial stored before the bands
    narrow = band_figures(inside, Targets(bands={"ER": (0.48, 0.52), "EER": (0.3, 0.7), "ERR": (0.3, 0.7)}))
    assert [c["cell"] for c in narrow["out_of_band"]] == ["ER"] and narrow["worst_outside_band"] == 0.03


def test_tune_variants_are_played_by_every_trial_and_counted_as_departures(tmp_path: Path) -> None:
    """``tune --variants X``: every trial's cells play X (a fixed axis, as ``lab --variants`` makes
    one), the tuner searches the rest on top of it, and X's departures count in each trial's
    fourth objective; a variant X names cannot be searched too."""
    config = make_config("ER", {"evilInterrupt": ["1"], "evilHabituals": ["2"], "rewardCap": ["0"]},
                         space=["finaleReward"], games=2)
    assert config.fixed_departures == 1   # evilHabituals=2; rewardCap=0 is the printed value
    study, out = tmp_path / "tune.sqlite", tmp_path / "report"
    result = runner.invoke(app, ["tune", *TINY, "--variants", "evilHabituals=2", "--space", "finaleReward",
                                 "--trials", "1", "--backend", "serial", "--study", str(study), "--out", str(out),
                                 "--json"], env=ENV)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout[result.stdout.index("{"):])
    trial = data["trials"][0]
    assert trial["variants"] == "printed" and trial["values"][3] == 1   # the searched: none; the fixed: one
    conn = sqlite3.connect(tmp_path / "tune-lab.sqlite")
    try:
        cells = [json.loads(s) for (s,) in conn.execute("SELECT settings FROM cells")]
    finally:
        conn.close()
    assert cells and all(s["evil_habituals"] == 2 for s in cells), cells
    both = runner.invoke(app, ["tune", *TINY, "--variants", "evilHabituals=2", "--space", "evilHabituals",
                               "--trials", "1", "--study", str(tmp_path / "b.sqlite"), "--out", str(tmp_path / "b")],
                         env=ENV)
    assert both.exit_code == 2 and "--space evilHabituals: the grid's --set already sets it" in both.output


def test_an_exhaustive_search_plays_every_small_set_once(tmp_path: Path) -> None:
    """``tune --exhaustive K``: every set of at most K departures from the search space is a trial
    (the printed rules first, then each variant at each value, then the pairs), none twice; a rerun
    with a larger K adds only the sets it lacks, and the report says how the trials were chosen."""
    config = make_config("ER", {"evilInterrupt": ["1"]}, space=["rewardCap", "finaleReward"],
                         values=["rewardCap=2,3"], games=2)
    one = small_sets(config, 1)
    assert one == [{"rewardCap": 0, "finaleReward": True}, {"rewardCap": 2, "finaleReward": True},
                   {"rewardCap": 3, "finaleReward": True}, {"rewardCap": 0, "finaleReward": False}]
    assert len(small_sets(config, 2)) == 6 and small_sets(config, 5) == small_sets(config, 2)
    fixed = make_config("ER", {"evilInterrupt": ["1"], "evilHabituals": ["2"]}, space=["rewardCap"], games=2)
    assert small_sets(fixed, 1) == [{"rewardCap": 0}]   # the fixed evilHabituals=2 is the one departure
    with pytest.raises(TuneError, match="already plays 1 departure"):
        small_sets(fixed, 0)
    wide = make_config("ER", games=2)
    with pytest.raises(TuneError, match=f"more than {EXHAUSTIVE_LIMIT} sets"):
        small_sets(wide, 4)

    study, out = tmp_path / "tune.sqlite", tmp_path / "report"
    args = ["tune", *TINY, "--space", "rewardCap,finaleReward", "--values", "rewardCap=2,3", "--backend", "serial",
            "--study", str(study), "--out", str(out)]
    first = runner.invoke(app, [*args, "--exhaustive", "1", "--json"], env=ENV)
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout[first.stdout.index("{"):])
    assert [t["variants"] for t in data["trials"]] == ["printed", "rewardCap=2", "rewardCap=3", "finaleReward=off"]
    assert all(t["exhaustive"] == 1 and t["warm_start"] is None for t in data["trials"])
    second = runner.invoke(app, [*args, "--exhaustive", "2"], env=ENV)
    assert second.exit_code == 0, second.output
    assert "2 trial(s) run now" in second.output and "holds 6 complete" in second.output
    md = (out / "summary.md").read_text(encoding="utf-8")
    assert "Exhaustive: every set of at most 2 departures from the search space is a trial" in md
    bad = runner.invoke(app, [*args, "--exhaustive", "-1"], env=ENV)
    assert bad.exit_code == 2 and "--exhaustive must be 0 or more departures" in bad.output
