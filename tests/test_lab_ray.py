"""The balance lab on Ray: the same seed gives the same rows as in this process, on a Ray started
in this process and on a two-node cluster on 127.0.0.1 with token authentication, reached the way
the README tells a user to (``ray start``, then ``christianity-game lab --backend ray --address``)."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator

import pytest

from christianity_game.sim import lab_backends
from christianity_game.sim.lab import RunOptions, build_grid, connect, fetch_rows, parse_axes, run_lab

ray = pytest.importorskip("ray")


def test_ray_gives_the_serial_rows(tmp_path: Path) -> None:
    grid = build_grid("duel", "ER,EER", parse_axes(["evilInterrupt=0,1", "maxTurns=30"]), "heuristic",
                      games=6, seed=5)
    run_lab(grid, tmp_path / "serial.sqlite", backend="serial")
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)   # never a running cluster
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


def test_a_session_holds_one_ray_for_several_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """RunOptions.session (the tuner holds one for a study) starts Ray once; every run_lab inside
    plays on it and leaves it running; the session shuts it down at the end. Ray is started by the
    lab's one starter, _start_ray (here on a local Ray of its own, never a running cluster)."""
    started: list[bool] = []
    real = lab_backends._start_ray

    def local(address: str | None) -> bool:
        if not ray.is_initialized():
            ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
            started.append(True)
            return True
        started.append(False)
        return real(address)

    monkeypatch.setattr(lab_backends, "_start_ray", local)
    grid = build_grid("duel", "ER", parse_axes(["maxTurns=20"]), "heuristic", games=2, seed=3)
    options = RunOptions("ray", chunk=1)
    with options.session():
        first = run_lab(grid, tmp_path / "a.sqlite", options=options)
        assert ray.is_initialized()
        second = run_lab(grid, tmp_path / "b.sqlite", options=options)
        assert ray.is_initialized()
    assert not ray.is_initialized() and started == [True, False, False]
    assert first.played == second.played == 2


# --------------------------------------------------------------------------- a real cluster
def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_started(proc: subprocess.Popen[bytes], log: Path, what: str, timeout: float = 150.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if "Ray runtime started" in log.read_text(errors="replace"):
            return
        if proc.poll() is not None:
            break
        time.sleep(0.5)
    raise AssertionError(f"{what} did not start:\n{log.read_text(errors='replace')[-3000:]}")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop one ``ray start --block`` and the node processes it started (its process group)."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)   # what is left of that group (only ours)
    except ProcessLookupError:
        pass
    proc.wait()


@pytest.fixture(scope="module")
def two_node_cluster() -> Iterator[tuple[str, dict[str, str]]]:
    """A head and a second node, started as a user would (``ray start``, docs/developers.md, "The
    lab on a Ray cluster"), bound to 127.0.0.1, with token authentication on. Yields (address,
    environment a driver needs: RAY_AUTH_MODE=token and the token's file)."""
    root = Path(tempfile.mkdtemp(prefix="cgray", dir="/tmp"))   # short: Ray's socket paths must be
    token = root / "auth_token"
    token.write_text(secrets.token_hex(32))
    env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(token), "RAY_USAGE_STATS_ENABLED": "0"}
    env.pop("RAY_ADDRESS", None)
    ray_cli = str(Path(sys.executable).parent / "ray")
    address = f"127.0.0.1:{_free_port()}"
    common = ["--block", "--node-ip-address=127.0.0.1", "--num-cpus=1", "--disable-usage-stats"]
    procs: list[subprocess.Popen[bytes]] = []
    try:
        head_log = root / "head.log"
        head = subprocess.Popen([ray_cli, "start", "--head", f"--port={address.split(':')[1]}",
                                 "--include-dashboard=false", f"--temp-dir={root}/ray", *common],
                                env=env, stdout=head_log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True)
        procs.append(head)
        _wait_started(head, head_log, "the head")
        node_log = root / "node.log"
        node = subprocess.Popen([ray_cli, "start", f"--address={address}", *common],
                                env=env, stdout=node_log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True)
        procs.append(node)
        _wait_started(node, node_log, "the second node")
        yield address, env
    finally:
        for p in reversed(procs):
            _stop(p)
        shutil.rmtree(root, ignore_errors=True)


def test_lab_on_a_two_node_cluster_gives_the_serial_rows(two_node_cluster: tuple[str, dict[str, str]],
                                                         tmp_path: Path) -> None:
    """``christianity-game lab --backend ray --address ...`` against a token-authenticated cluster of
    two nodes, run as a user runs it, stores the same rows as the serial backend."""
    address, env = two_node_cluster
    check = subprocess.run(
        [sys.executable, "-c", "import ray; ray.init(address=%r, log_to_driver=False); "
                               "print(sum(1 for n in ray.nodes() if n['Alive']), int(ray.cluster_resources()['CPU']))"
         % address], env=env, capture_output=True, text=True, timeout=120)
    assert check.stdout.split()[-2:] == ["2", "2"], check.stdout + check.stderr
    grid = build_grid("duel", "ER", parse_axes(["evilInterrupt=0,1", "maxTurns=30"]), "heuristic", games=4, seed=9)
    run_lab(grid, tmp_path / "serial.sqlite", backend="serial")
    cli = str(Path(sys.executable).parent / "christianity-game")
    done = subprocess.run([cli, "lab", "--mode", "duel", "--lineup", "ER", "--set", "evilInterrupt=0,1",
                           "--set", "maxTurns=30", "--games", "4", "--seed", "9", "--chunk", "1",
                           "--backend", "ray", "--address", address, "--out", str(tmp_path / "ray.sqlite")],
                          env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    rows = {}
    for name in ("serial", "ray"):
        conn = connect(tmp_path / f"{name}.sqlite")
        rows[name] = fetch_rows(conn)
        conn.close()
    assert len(rows["ray"]) == 8 and rows["ray"] == rows["serial"]
