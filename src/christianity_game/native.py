"""The native engine: the rules engine's hot modules compiled to C with mypyc, an optional build.

The engine is plain, typed Python and complete without this. Because it is ``mypy --strict`` clean,
mypyc can compile the same source files into C extension modules that play the same rules about
2.5 times as fast (docs/developers.md, "Speed"): the move generator, the flow, payments, the stack, the duel's
hooks, every module in :data:`NATIVE_MODULES`. ``scripts/setup.sh`` builds it (``christianity-game
native build``) into ``engine/_native/``, with a stamp of the source files it was built from.

When the package is imported, ``engine/__init__`` puts that folder first on the engine's import
path only when the build can be trusted: every ``.py`` file of ``engine/`` and ``cards/`` is byte
for byte the one it was built from (a build from older sources is never used: an edit takes effect
at once, in plain Python, until the next build), the environment variable
``CHRISTIANITY_GAME_ENGINE`` is not ``python``, and the build's shared library loads.
:data:`christianity_game.engine.BUILD` says which engine runs ("native" or "python");
:func:`engine_build` says why.

Commands: ``christianity-game native build [--force]`` (compile when the sources changed),
``christianity-game native status`` (which engine the next import uses, and why; ``check``: the
same, with exit code 1 when that is the Python engine), ``christianity-game native clean`` (remove
the build).

``scripts/setup.sh`` (so ``scripts/test.sh``) builds before it returns; ``scripts/run.sh`` does not
wait: it serves at once on the engine there is and builds in the background, for the next start.
A build takes its turn on a lock and swaps in whole (:func:`_swap_in`), so a background build never
disturbs a server running the build it replaces.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
ENGINE = PACKAGE / "engine"
#: where the compiled modules live (ignored by git; made by ``build``)
NATIVE_DIR = ENGINE / "_native"
STAMP = "SOURCES.sha256"
#: the environment variable that turns the native engine off ("python") for one process
SWITCH = "CHRISTIANITY_GAME_ENGINE"
#: the name mypyc gives the shared library of the compiled modules (``<group>__mypyc``)
GROUP = "christianity_game.engine.compiled"

#: The engine modules compiled: all on the path of every action, and the observer with the view
#: formats it writes into (every view of every seat, hot in the lab and the server). Left in
#: Python: actions and settings (dataclasses whose defaults mypyc's native classes read
#: differently), rng (a mypyc internal error), the seat view's lazy mappings (``seatview``: a
#: ``Mapping`` with weak references; a trial build that compiled it crashed in the view bench),
#: determinization and what runs once a game (positions, records, replay).
NATIVE_MODULES = (
    "numbers", "events", "state", "duel_state", "base", "costs", "abilities", "badges",
    "effects", "stack", "legal", "coop", "flow", "table", "duel_clocks", "duel_rewards", "duel", "duel_mode", "modes", "game", "observer", "view",
)


class NativeBuildError(RuntimeError):
    """The native engine could not be built (the Python engine is used; nothing else changes)."""


def source_fingerprint() -> str:
    """SHA-256 of every ``.py`` file under ``engine/`` and ``cards/`` (names and bytes) and of the
    Python version: what a build is valid for. Compiled code inlines what it knows of the modules
    it imports, so any change in them makes the build stale, not only a change in the compiled ones."""
    digest = hashlib.sha256(sys.version.encode())
    for folder in (ENGINE, PACKAGE / "cards"):
        for path in sorted(folder.glob("*.py")):
            digest.update(f"\0{folder.name}/{path.name}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _built_for() -> str | None:
    """The source fingerprint the build in :data:`NATIVE_DIR` was made from ("" when its stamp
    cannot be read), or None when there is no build."""
    stamp = NATIVE_DIR / STAMP
    if not stamp.is_file():
        return None
    try:
        return stamp.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""


def status() -> tuple[bool, str]:
    """Whether the next import may use the native engine, and why (or why not)."""
    if os.environ.get(SWITCH, "").strip().lower() == "python":
        return False, f"{SWITCH}=python: the Python engine"
    built_for = _built_for()
    if built_for is None:
        return False, "no native build (scripts/setup.sh makes one): the Python engine"
    if not built_for:
        return False, "the native build's stamp cannot be read: the Python engine"
    if built_for != source_fingerprint():
        return False, ("the native build is older than the engine's sources (scripts/setup.sh or "
                       "`christianity-game native build` builds it again): the Python engine")
    return True, f"native engine (mypyc) built from these sources, in {NATIVE_DIR}"


def attach(engine_path: list[str]) -> str:
    """Put the native build first on the engine package's ``__path__`` when :func:`status` allows
    and its shared library loads; "native" or "python". Called once, by ``engine/__init__``, before
    any engine module loads: a build that cannot load (a damaged file) leaves the Python engine."""
    global LOAD_ERROR
    usable, _why = status()
    if not usable:
        return "python"
    LOAD_ERROR = _load_shared_library()
    if LOAD_ERROR is not None:
        return "python"
    engine_path.insert(0, str(NATIVE_DIR))
    return "native"


#: why the native build's shared library did not load (None: it did, or was not tried)
LOAD_ERROR: str | None = None


def _load_shared_library() -> str | None:
    """Load the build's shared library (the compiled code of every module, which each module's small
    extension imports by name) from :data:`NATIVE_DIR`; None, or why it failed."""
    name = f"{GROUP}__mypyc"
    if name in sys.modules:
        return None
    short = name.rsplit(".", 1)[-1]
    paths = [NATIVE_DIR / f"{short}{suffix}" for suffix in importlib.machinery.EXTENSION_SUFFIXES]
    path = next((p for p in paths if p.is_file()), None)
    if path is None:
        return f"the native build has no {short} library for this Python"
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            return f"{path} is not a loadable module"
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except (ImportError, OSError) as exc:
        return f"the native build does not load ({exc})"
    sys.modules[name] = module
    return None


def engine_build(build: str) -> str:
    """Which engine this process runs, in words, from ``build``, the engine's
    :data:`~christianity_game.engine.BUILD` (benches print it beside their figures). The engine
    imports this module, so the caller hands its decision over."""
    if build == "native":
        return f"native (the mypyc build of {len(NATIVE_MODULES)} engine modules)"
    if LOAD_ERROR is not None:
        return f"python ({LOAD_ERROR}: the Python engine)"
    return f"python ({status()[1]})"


def build(force: bool = False, log: Path | None = None) -> str:
    """Compile :data:`NATIVE_MODULES` with mypyc into :data:`NATIVE_DIR` unless a build of these
    very sources is there already (``force``: build anyway). The compiler's output goes to ``log``
    (by default a file in the build folder); a failure raises :class:`NativeBuildError` with its
    last lines. What it did, in words. Two builds at once (two set-ups started together) take
    turns on a lock file; the second then finds the first's build up to date."""
    with open(NATIVE_DIR.with_name("_native.lock"), "a", encoding="ascii") as lock:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not Unix: no lock
            return _build(force, log)
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _build(force, log)


def _build(force: bool, log: Path | None) -> str:
    fingerprint = source_fingerprint()
    if not force and _built_for() == fingerprint:
        return f"the native engine is up to date ({NATIVE_DIR})"
    try:
        import mypyc.build  # noqa: F401  (only to say clearly what is missing)
        import setuptools  # type: ignore[import-untyped]  # noqa: F401
    except ImportError as exc:
        raise NativeBuildError(f"the native engine needs mypyc (the mypy package) and setuptools: {exc}") from None
    with tempfile.TemporaryDirectory(prefix="christianity-native-") as tmp:
        work = Path(tmp)
        log_path = log or work / "build.log"
        with open(log_path, "w", encoding="utf-8") as out:
            # a child process: the C compiler's output goes to the log, and a crash of the
            # compiler leaves this process (and the installed build) as it was
            done = subprocess.run([sys.executable, "-c", _CHILD, str(work)],
                                  stdout=out, stderr=subprocess.STDOUT, cwd=PACKAGE.parent, check=False)
        if done.returncode != 0:
            tail = "".join(log_path.read_text(encoding="utf-8", errors="replace").splitlines(True)[-25:])
            raise NativeBuildError(f"mypyc failed (exit {done.returncode}); the Python engine stays in use:\n{tail}")
        built = sorted((work / "lib" / "christianity_game" / "engine").glob("*.so"))
        if len(built) < len(NATIVE_MODULES) + 1:
            raise NativeBuildError(f"mypyc made {len(built)} modules, expected {len(NATIVE_MODULES) + 1}")
        staging = NATIVE_DIR.with_name("_native.new")
        shutil.rmtree(staging, ignore_errors=True)
        fresh = staging / "build"
        fresh.mkdir(parents=True)
        for path in built:
            shutil.copy2(path, fresh / path.name)
        (fresh / STAMP).write_text(fingerprint + "\n", encoding="ascii")   # the stamp last
        _swap_in(fresh, staging / "old")
        shutil.rmtree(staging, ignore_errors=True)
    return f"built the native engine ({len(NATIVE_MODULES)} modules) in {NATIVE_DIR}"


def _swap_in(fresh: Path, old: Path) -> None:
    """Put the finished build ``fresh`` in the place of :data:`NATIVE_DIR` by two renames, never by
    removing files from the folder in use: a process that starts meanwhile finds the old build
    whole, no build (the Python engine) or the new build whole, never a half-removed one. A process
    that runs the old build keeps it: its modules are loaded (the server imports every compiled
    module when it starts) and their files stay readable to it after they move and are removed."""
    if NATIVE_DIR.exists():
        NATIVE_DIR.rename(old)
    fresh.rename(NATIVE_DIR)


def clean() -> str:
    """Remove the native build (the Python engine is used from the next import)."""
    shutil.rmtree(NATIVE_DIR, ignore_errors=True)
    return f"removed {NATIVE_DIR}"


_CHILD = "import sys; from christianity_game.native import compile_into; compile_into(sys.argv[1])"


def compile_into(work: str | Path) -> None:
    """What :func:`build` runs in a child process: mypyc's C code for :data:`NATIVE_MODULES`,
    compiled by setuptools, all in the folder ``work`` (installed by :func:`build`)."""
    work = Path(work)
    from mypyc.build import mypycify
    from setuptools import Distribution

    os.chdir(PACKAGE.parent)   # mypy names each module by its path from here (christianity_game.engine.x)
    paths = [f"christianity_game/engine/{name}.py" for name in NATIVE_MODULES]
    extensions = mypycify(["--cache-dir", str(work / "mypy-cache"), *paths], opt_level="3",
                          group_name=GROUP, target_dir=str(work / "c"))
    dist = Distribution({"name": "christianity-game-native", "ext_modules": extensions})
    command = dist.get_command_obj("build_ext")
    command.build_lib = str(work / "lib")
    command.build_temp = str(work / "tmp")
    command.parallel = os.cpu_count() or 1
    dist.run_command("build_ext")
