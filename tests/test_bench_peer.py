"""``christianity-game bench --against block_dominoes``: our engine timed beside OpenSpiel's
pure-Python ``block_dominoes`` (issue 9), and a clear error without OpenSpiel (the ``bench`` extra)."""

from __future__ import annotations

import re
import sys

import pytest
from typer.testing import CliRunner

from christianity_game import bench_peer
from christianity_game.cli import app

runner = CliRunner()


def test_bench_against_block_dominoes_prints_both_and_the_ratio() -> None:
    result = runner.invoke(app, ["bench", "--against", "block_dominoes", "--seconds", "0.3", "--repeats", "1"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "block_dominoes (peer)" in out
    assert "load average" in out
    for label in ("co-op RR (ours)", "duel ER (ours)"):
        row = next(line for line in out.splitlines() if line.startswith(label))
        ratio = re.search(r"(\d+\.\d\d)x", row)
        assert ratio is not None and float(ratio.group(1)) > 0, row
    assert re.search(r"ratio co-op RR: \d+\.\d\dx the peer's cost per action", out)
    assert re.search(r"ratio duel ER: \d+\.\d\dx the peer's cost per action", out)
    assert re.search(r"right after it: \d+\.\d\dx\)", out)


def test_the_ratio_is_ours_over_the_peers_cost_per_action() -> None:
    result = bench_peer.run_peer_bench("block_dominoes", seconds=0.2, repeats=2)
    peer = result["peer_row"]
    # a block_dominoes game: a 14-tile deal (chance actions), then the moves
    assert peer["games"] >= 2 and peer["actions"] == 14 * peer["games"] + peer["decisions"]
    assert peer["decisions"] < peer["actions"]
    assert peer["us_per_decision"] > peer["us_per_action"] > 0
    assert [r["label"] for r in result["rows"]] == ["co-op RR", "duel ER"]
    for row in result["rows"]:
        assert row["games"] >= 2 and row["actions"] > row["games"]
        assert row["ratio"] == pytest.approx(row["us_per_action"] / peer["us_per_action"])
        assert row["meets_target"] == (row["ratio"] <= row["target"])
        assert row["paired_ratio"] > 0
    assert len(result["load_start"]) == 3 and len(result["load_end"]) == 3


def test_without_open_spiel_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)   # import pyspiel -> ImportError
    result = runner.invoke(app, ["bench", "--against", "block_dominoes", "--seconds", "0.1", "--repeats", "1"])
    assert result.exit_code == 1
    assert "christianity-game[bench]" in result.output and "'bench' extra" in result.output
    assert "Traceback" not in result.output


def test_an_unknown_peer_is_a_usage_error() -> None:
    result = runner.invoke(app, ["bench", "--against", "chess", "--seconds", "0.1"])
    assert result.exit_code == 2
    assert "unknown peer 'chess'" in result.output and "block_dominoes" in result.output
