"""The balance lab on Ray: the same seed gives the same rows as in this process."""

from __future__ import annotations

from pathlib import Path

import pytest

from christianity_game.sim.lab import build_grid, connect, fetch_rows, parse_axes, run_lab

ray = pytest.importorskip("ray")


def test_ray_gives_the_serial_rows(tmp_path: Path) -> None:
    grid = build_grid("duel", "ER,EER", parse_axes(["evilInterrupt=0,1", "maxTurns=30"]), "heuristic",
                      games=6, seed=5)
    run_lab(grid, tmp_path / "serial.sqlite", backend="serial")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        run = run_lab(grid, tmp_path / "ray.sqlite", backend="ray", chunk=2)
        assert ray.is_initialized()   # the lab leaves a Ray it did not start running
    finally:
        ray.shutdown()
    assert run.played == 24
    rows = {}
    for name in ("serial", "ray"):
        conn = connect(tmp_path / f"{name}.sqlite")
        rows[name] = fetch_rows(conn)
        conn.close()
    assert rows["ray"] == rows["serial"] and len(rows["ray"]) == 24
