"""The first start (issue 20, defect 12): scripts/run.sh serves the first page at once, on the
Python engine, while the native engine builds in the background for the next start; builds take
turns on a lock and swap in whole, so a background build never disturbs the build in use."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from christianity_game import native

ROOT = Path(__file__).resolve().parents[1]

#: stands in for .venv/bin/christianity-game: the build is slow (it ends long after the test),
#: everything else is the real command line
FAKE_COMMAND = """#!/usr/bin/env bash
case "$1 $2" in
  "native check") echo "no native build (a fake one for the test)"; exit 1 ;;
  "native build") echo $$ > "{marks}/build.pid"; touch "{marks}/build.started"; sleep 120
                  touch "{marks}/build.finished" ;;
  *) exec "{python}" -m christianity_game "$@" ;;
esac
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _project_with_a_slow_build(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the start scripts with a set-up .venv whose native build takes two minutes:
    the project folder and the folder where the fake build leaves its marks."""
    project, marks = tmp_path / "project", tmp_path / "marks"
    (project / "scripts").mkdir(parents=True)
    marks.mkdir()
    for name in ("run.sh", "setup.sh"):
        shutil.copy2(ROOT / "scripts" / name, project / "scripts" / name)
    shutil.copy2(ROOT / "pyproject.toml", project / "pyproject.toml")
    bin_dir = project / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").write_text(f'#!/usr/bin/env bash\nexec "{sys.executable}" "$@"\n')
    (bin_dir / "christianity-game").write_text(FAKE_COMMAND.format(marks=marks, python=sys.executable))
    for shim in bin_dir.iterdir():
        shim.chmod(0o755)
    digest = hashlib.sha1((project / "pyproject.toml").read_bytes()).hexdigest()[:12]
    (project / ".venv" / f".installed-runtime-{digest}").touch()   # installed: setup.sh has nothing to do
    return project, marks


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as reply:
            return bool(reply.status == 200)
    except OSError:
        return False


def test_run_sh_serves_at_once_while_the_native_engine_builds(tmp_path: Path) -> None:
    """run.sh answers /healthz while the native build (here two minutes long) is still running,
    and says that the next start uses it."""
    project, marks = _project_with_a_slow_build(tmp_path)
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != native.SWITCH}
    out = open(tmp_path / "run.out", "w+", encoding="utf-8")
    server = subprocess.Popen(["bash", "scripts/run.sh", "--port", str(port), "--data", str(tmp_path / "data")],
                              cwd=project, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        served = False
        while time.monotonic() < deadline and server.poll() is None:
            if _answers(f"http://127.0.0.1:{port}/healthz") and (marks / "build.started").exists():
                served = True
                break
            time.sleep(0.2)
        out.seek(0)
        said = out.read()
        assert served, f"run.sh did not serve within 60 s (exit {server.poll()}):\n{said}"
        assert not (marks / "build.finished").exists(), "the page waited for the native build"
        assert "the native engine is building in the background (log: .venv/native-build.log)" in said, said
        assert "the next start uses it" in said
        assert "rules engine: " in said    # serve still says which engine runs
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        pid_file = marks / "build.pid"
        if pid_file.exists():   # the build runs in a session of its own: end it and its sleep
            try:
                os.killpg(int(pid_file.read_text()), signal.SIGTERM)
            except ProcessLookupError:
                pass
        out.close()


# ------------------------------------------------------------------ builds: one at a time, swapped in whole
def _fake_compiler(active: list[int], most: list[int]) -> Any:
    """Stands in for the mypyc child process: makes the files a build has (slowly), counting how
    many compile at once."""
    lock = threading.Lock()

    def run(args: list[str], stdout: Any = None, **kwargs: Any) -> subprocess.CompletedProcess[str]:
        with lock:
            active[0] += 1
            most[0] = max(most[0], active[0])
        time.sleep(0.3)
        engine = Path(args[-1]) / "lib" / "christianity_game" / "engine"
        engine.mkdir(parents=True)
        for name in (*native.NATIVE_MODULES, "compiled__mypyc"):
            (engine / f"{name}.fake.so").write_bytes(b"new build")
        with lock:
            active[0] -= 1
        return subprocess.CompletedProcess(args, 0)

    return run


def test_two_builds_at_once_take_turns_and_the_second_finds_it_done(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    """Two starts at once start two builds: one compiles, the other waits on the lock and then
    finds the build up to date."""
    monkeypatch.setattr(native, "NATIVE_DIR", tmp_path / "_native")
    active, most = [0], [0]
    monkeypatch.setattr(native.subprocess, "run", _fake_compiler(active, most))
    said: list[str] = []
    builds = [threading.Thread(target=lambda: said.append(native.build())) for _ in range(2)]
    for build in builds:
        build.start()
    for build in builds:
        build.join(timeout=30)
    assert most[0] == 1, "two builds compiled at once"
    assert sorted(s.split(" (")[0] for s in said) == ["built the native engine", "the native engine is up to date"]
    assert (tmp_path / "_native" / native.STAMP).read_text().strip() == native.source_fingerprint()


def test_a_new_build_swaps_in_whole_and_never_empties_the_build_in_use(monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Path) -> None:
    """The folder in use is moved aside whole and the new one moved in (two renames); nothing is
    removed from it while it is in place, and no staging folder is left behind."""
    installed = tmp_path / "_native"
    installed.mkdir()
    (installed / native.STAMP).write_text("0" * 64 + "\n", encoding="ascii")   # an old build
    (installed / "old.so").write_bytes(b"old build")
    monkeypatch.setattr(native, "NATIVE_DIR", installed)
    monkeypatch.setattr(native.subprocess, "run", _fake_compiler([0], [0]))
    removed: list[Path] = []
    real_rmtree = shutil.rmtree

    def watched_rmtree(path: Any, *args: Any, **kwargs: Any) -> None:
        removed.append(Path(path))
        assert Path(path) != installed, "the build in use was removed in place"
        real_rmtree(path, *args, **kwargs)

    monkeypatch.setattr(native.shutil, "rmtree", watched_rmtree)
    old_inode = installed.stat().st_ino
    assert native.build().startswith("built the native engine")
    names = sorted(p.name for p in installed.iterdir())
    assert "old.so" not in names and native.STAMP in names and len(names) == len(native.NATIVE_MODULES) + 2
    assert installed.stat().st_ino != old_inode, "the new build was not moved in whole"
    assert not (tmp_path / "_native.new").exists()
