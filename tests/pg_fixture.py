"""A throwaway PostgreSQL for the tests (a pytest plugin: tests/conftest.py loads it).

``pg_cluster`` (one per test session, one per xdist worker): ``initdb`` into a new temporary folder,
``postgres`` listening on a free port of 127.0.0.1 with its unix socket in that folder, stopped
(fast shutdown) and removed at the end of the session. PostgreSQL refuses to run as root: under
root the cluster belongs to the ``postgres`` user (Debian's package makes it), else ``nobody``.

``pg_url``: a new, empty database of that cluster for one test (``postgresql://postgres@127.0.0.1:PORT/t_N``).
``database``: parametrizes a test over both stores: ``None`` (the SQLite file of the data folder)
and a ``pg_url``; pass it on as ``running(tmp_path, database=database)``.

The binaries are looked for in ``$CHRISTIANITY_GAME_PG_BIN``, then beside ``initdb`` on ``PATH``, then
in ``/usr/lib/postgresql/*/bin`` (Debian's layout; the newest version first). When there are none,
the PostgreSQL tests skip locally, with the reason, and FAIL on CI (``CI`` set, as CI services set
it): ``scripts/setup.sh dev`` installs Debian's ``postgresql`` there.
"""

from __future__ import annotations

import itertools
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator, NoReturn

import pytest

PG_BIN_ENV = "CHRISTIANITY_GAME_PG_BIN"
SUPERUSER = "postgres"
DEBIAN_PG = Path("/usr/lib/postgresql")   # Debian's versions, each with its bin/


def on_ci() -> bool:
    """Whether this run is CI's (``CI`` set to anything but ``false``/``0``/empty)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def find_pg_bin() -> Path | None:
    """The folder holding ``initdb`` and ``postgres``, or None."""
    def usable(d: Path) -> bool:
        return (d / "initdb").is_file() and (d / "postgres").is_file()

    env = os.environ.get(PG_BIN_ENV)
    if env and usable(Path(env)):
        return Path(env)
    found = shutil.which("initdb")
    if found:
        for d in (Path(found).parent, Path(found).resolve().parent):
            if usable(d):
                return d

    def version(d: Path) -> tuple[int, ...]:
        return tuple(int(x) for x in re.findall(r"\d+", d.parent.name)) or (0,)
    for d in sorted(DEBIAN_PG.glob("*/bin"), key=version, reverse=True):
        if usable(d):
            return d
    return None


#: Run beside the cluster: if the test process dies without stopping it (killed by a timeout, say),
#: stop postgres (immediate shutdown) and remove its folder, so that no cluster outlives its tests.
WATCHDOG = """
import os, shutil, signal, sys, time
parent, pg, root = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
while True:
    time.sleep(1)
    try:
        os.kill(parent, 0)
    except ProcessLookupError:
        break
try:
    os.kill(pg, signal.SIGQUIT)
    for _ in range(100):
        os.kill(pg, 0)
        time.sleep(0.1)
except ProcessLookupError:
    pass
shutil.rmtree(root, ignore_errors=True)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgCluster:
    """One PostgreSQL cluster in a temporary folder, started and stopped by the tests."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="christianity-pg-"))
        self.data = self.root / "data"
        self.sockets = self.root / "sockets"
        self.logfile = self.root / "postgres.log"
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.watchdog: subprocess.Popen[bytes] | None = None
        self._names = itertools.count(1)
        self.run_as: dict[str, Any] = {}
        if os.geteuid() == 0:   # postgres refuses root: the cluster is another user's
            try:
                user = pwd.getpwnam(SUPERUSER)
            except KeyError:
                user = pwd.getpwnam("nobody")
            os.chown(self.root, user.pw_uid, user.pw_gid)
            self.run_as = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
        self.sockets.mkdir()
        if self.run_as:
            os.chown(self.sockets, self.run_as["user"], self.run_as["group"])

    def _run(self, *args: str) -> None:
        out = subprocess.run([str(a) for a in args], cwd=self.root, capture_output=True, timeout=120, **self.run_as)
        if out.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed ({out.returncode}):\n"
                               f"{out.stdout.decode(errors='replace')}{out.stderr.decode(errors='replace')}")

    def start(self) -> None:
        self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", SUPERUSER, "--auth=trust",
                  "-E", "UTF8", "--locale=C", "--no-sync")
        for attempt in range(5):
            self.port = free_port()
            log = open(self.logfile, "ab")
            self.proc = subprocess.Popen(
                [str(self.bindir / "postgres"), "-D", str(self.data), "-p", str(self.port), "-k", str(self.sockets),
                 "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", "-c", "shared_buffers=32MB",
                 "-c", "log_min_messages=warning"],
                cwd=self.root, stdout=log, stderr=log, **self.run_as)
            log.close()
            if self._ready():
                self.watchdog = subprocess.Popen([sys.executable, "-c", WATCHDOG, str(os.getpid()), str(self.proc.pid),
                                                  str(self.root)], start_new_session=True)
                return
            self.stop(remove=False)
        raise RuntimeError("postgres did not start:\n" + self.log_tail())

    def _ready(self, timeout: float = 30.0) -> bool:
        import psycopg
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            if self.proc is None or self.proc.poll() is not None:
                return False
            try:
                psycopg.connect(self.url("postgres"), connect_timeout=2).close()
                return True
            except psycopg.OperationalError:
                time.sleep(0.1)
        return False

    def url(self, dbname: str) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{dbname}"

    def create_database(self) -> str:
        """A new, empty database; its URL."""
        import psycopg
        name = f"t_{next(self._names)}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def log_tail(self) -> str:
        try:
            return self.logfile.read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    def stop(self, remove: bool = True) -> None:
        if self.watchdog is not None:
            self.watchdog.kill()
            self.watchdog.wait(10)
            self.watchdog = None
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)   # immediate shutdown: the cluster is thrown away, no checkpoint
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc = None
        if remove:
            shutil.rmtree(self.root, ignore_errors=True)


def missing_postgres() -> NoReturn:
    """No PostgreSQL to test against: a failure on CI, a skip with the reason elsewhere."""
    why = (f"PostgreSQL is not installed (no initdb and postgres in ${PG_BIN_ENV}, on PATH or in "
           f"{DEBIAN_PG}/*/bin): 'scripts/setup.sh dev' installs Debian's postgresql (apt-get install postgresql)")
    if on_ci():
        pytest.fail("CI runs the PostgreSQL tests: " + why, pytrace=False)
    pytest.skip(why)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    """A running PostgreSQL cluster for this test session (see the module docstring)."""
    bindir = find_pg_bin()
    if bindir is None:
        missing_postgres()
    cluster = PgCluster(bindir)
    try:
        cluster.start()
    except Exception as exc:   # noqa: BLE001 - reported with the server's log
        cluster.stop()
        pytest.fail(f"PostgreSQL from {bindir} could not be started: {exc}", pytrace=False)
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def pg_url(pg_cluster: PgCluster) -> str:
    """The URL of a new, empty database for one test."""
    return pg_cluster.create_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest) -> str | None:
    """Both stores in turn: None (SQLite in the data folder), then a new PostgreSQL database's URL."""
    if request.param == "sqlite":
        return None
    return str(request.getfixturevalue("pg_url"))
