"""The native engine (issue 9): the engine's hot modules compiled with mypyc from the same source.

The suite runs on the native build (scripts/setup.sh makes it; ``tests/test_seeded_games.py`` then
checks it against fingerprints the Python engine recorded); here: the Python engine, in a child
process, plays the same games move for move; a build of other sources is never used; games still
pickle (the server hands search bots a copy in a worker process)."""

from __future__ import annotations

import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

import christianity_game.engine as engine
from christianity_game import Game, Settings, native

HERE = Path(__file__).resolve().parent
#: scripts/setup.sh builds the native engine; CHRISTIANITY_GAME_ENGINE=python runs the suite without it
PYTHON_ONLY = os.environ.get(native.SWITCH, "").strip().lower() == "python"

_PLAY = r"""
import hashlib, json, sys
sys.path.insert(0, sys.argv[1])
import christianity_game.engine as engine
from seeded_games import MODES, play
from golden import fingerprint
out = {"build": engine.BUILD}
for name in MODES:
    out[name] = [fingerprint(play(name, i))[:16] for i in range(int(sys.argv[2]))]
print(json.dumps(out))
"""


def _games_in(build: str, count: int) -> dict[str, object]:
    """``count`` seeded games of each mode in a child process: on the Python engine, or ("suite")
    on the engine this suite runs."""
    env = dict(os.environ)
    if build == "python":
        env[native.SWITCH] = "python"
    done = subprocess.run([sys.executable, "-c", _PLAY, str(HERE), str(count)], env=env, capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_the_suite_runs_the_native_engine() -> None:
    """scripts/test.sh builds it first: the suite checks the engine that the bench, the lab and the
    server run (unless CHRISTIANITY_GAME_ENGINE=python asks for the Python engine)."""
    usable, why = native.status()
    if PYTHON_ONLY:
        assert engine.BUILD == "python" and not usable and native.SWITCH in why
        return
    assert engine.BUILD == "native", why
    assert usable, why
    assert Path(sys.modules[Game.__module__].__file__ or "").parent == native.NATIVE_DIR


def test_the_python_engine_and_the_native_build_play_the_same_games() -> None:
    """Every mode, 60 seeded random-play games on each engine, each in its own process: the same
    legal lists and choices all the way to the same final states (fingerprints of state, log and
    result)."""
    python = _games_in("python", 60)
    other = _games_in("suite", 60)
    assert python.pop("build") == "python"
    assert other.pop("build") == ("python" if PYTHON_ONLY else "native")
    assert set(python) == set(other) and len(python) == 6
    for name in python:
        assert python[name] == other[name], name


def test_a_build_of_other_sources_is_never_used(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The build's stamp names the sources it was compiled from; after any edit of engine/ or
    cards/ (here: a different fingerprint) the Python engine runs until the next build."""
    monkeypatch.delenv(native.SWITCH, raising=False)
    monkeypatch.setattr(native, "NATIVE_DIR", tmp_path)
    assert native.status()[0] is False and "no native build" in native.status()[1]
    (tmp_path / native.STAMP).write_text("0" * 64 + "\n", encoding="ascii")
    usable, why = native.status()
    assert not usable and "older than the engine's sources" in why
    path: list[str] = []
    assert native.attach(path) == "python" and path == []
    (tmp_path / native.STAMP).write_text(native.source_fingerprint() + "\n", encoding="ascii")
    assert native.status()[0] is True
    assert native.attach(path) == "native" and path == [str(tmp_path)]
    monkeypatch.setenv(native.SWITCH, "python")
    path = []
    assert native.attach(path) == "python" and path == [] and native.SWITCH in native.status()[1]


def test_the_fingerprint_covers_every_engine_and_card_source() -> None:
    """What a build is valid for: every .py file of engine/ and cards/, so no edit goes unseen."""
    names = {p.name for p in native.ENGINE.glob("*.py")}
    assert {f"{m}.py" for m in native.NATIVE_MODULES} <= names
    assert len(native.source_fingerprint()) == 64
    assert native.source_fingerprint() == native.source_fingerprint()


@pytest.mark.parametrize("mode,lineup", [("coop", "RR"), ("solo", "R"), ("duel", "ER"), ("duel", "ERR")])
def test_a_game_pickles_at_any_moment(mode: str, lineup: str) -> None:
    """A game copied through pickle (what the server sends a search bot's worker process) has the
    same legal actions, views and result, whichever engine runs."""
    copies = 0
    for seed in range(3):
        rnd = random.Random(seed)
        game = Game.new(mode=mode, lineup=lineup, seed=seed, settings=Settings(max_turns=50) if mode == "duel" else None)
        while game.pending:
            if rnd.random() < 0.05:
                copy = pickle.loads(pickle.dumps(game))
                assert type(copy) is type(game)
                assert copy.pending == game.pending and copy.view(None) == game.view(None)
                assert copy.to_record() == game.to_record()
                copies += 1
            game.apply(rnd.choice(game.pending[0][1]))
        copy = pickle.loads(pickle.dumps(game))
        assert copy.result == game.result and copy.result is not None
    assert copies > 10


def test_the_native_command_says_what_the_next_import_uses(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``christianity-game native status`` prints the reason; an unknown verb is refused with exit
    code 2 and words; ``build`` with an up-to-date stamp builds nothing and says so."""
    from typer.testing import CliRunner

    from christianity_game.cli import app

    runner = CliRunner()
    status = runner.invoke(app, ["native", "status"])
    assert status.exit_code == 0 and status.stdout.strip() == native.status()[1]
    wrong = runner.invoke(app, ["native", "compile"])
    assert wrong.exit_code == 2 and "unknown native command 'compile'" in wrong.stderr
    monkeypatch.setattr(native, "NATIVE_DIR", tmp_path)
    (tmp_path / native.STAMP).write_text(native.source_fingerprint() + "\n", encoding="ascii")
    built = runner.invoke(app, ["native", "build"])
    assert built.exit_code == 0 and "up to date" in built.stdout


def test_a_failed_build_leaves_the_installed_build_alone(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A compiler failure raises NativeBuildError with the end of the compiler's output, and the
    build in place (here an old one) is neither removed nor half replaced."""
    installed = tmp_path / "_native"
    installed.mkdir()
    (installed / native.STAMP).write_text("0" * 64 + "\n", encoding="ascii")
    (installed / "marker.so").write_bytes(b"old build")
    monkeypatch.setattr(native, "NATIVE_DIR", installed)

    def failing_compiler(args: list[str], stdout: object, **kwargs: object) -> subprocess.CompletedProcess[str]:
        assert hasattr(stdout, "write")
        stdout.write("error: no C compiler here\n")   # type: ignore[attr-defined]
        return subprocess.CompletedProcess(args, 1)

    monkeypatch.setattr(native.subprocess, "run", failing_compiler)
    with pytest.raises(native.NativeBuildError, match="no C compiler here"):
        native.build()
    assert sorted(p.name for p in installed.iterdir()) == sorted([native.STAMP, "marker.so"])
    assert (installed / "marker.so").read_bytes() == b"old build"
    assert not (tmp_path / "_native.new").exists()


def test_a_damaged_build_leaves_the_python_engine(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A build whose stamp matches but whose shared library does not load (a damaged file) is not
    used: attach() leaves the engine's path alone and says why, instead of failing every import."""
    import importlib.machinery

    monkeypatch.delenv(native.SWITCH, raising=False)
    monkeypatch.setattr(native, "NATIVE_DIR", tmp_path)
    monkeypatch.setattr(native, "GROUP", "christianity_game.engine.damaged")
    monkeypatch.setattr(native, "LOAD_ERROR", None)
    (tmp_path / native.STAMP).write_text(native.source_fingerprint() + "\n", encoding="ascii")
    path: list[str] = []
    assert native.attach(path) == "python" and path == []
    assert native.LOAD_ERROR is not None and "no damaged__mypyc library" in native.LOAD_ERROR
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (tmp_path / f"damaged__mypyc{suffix}").write_bytes(b"\x7fELF not really a library")
    assert native.attach(path) == "python" and path == []
    assert "does not load" in native.LOAD_ERROR
    assert "christianity_game.engine.damaged__mypyc" not in sys.modules
