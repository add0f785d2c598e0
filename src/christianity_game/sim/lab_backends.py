"""Where the balance lab plays its games: the games not yet stored cut into chunks
(:func:`pending_tasks`), and the backends that run them (:data:`BACKEND_RUNNERS`: a process pool,
this process, or a Ray cluster), chosen and checked by :class:`RunOptions`."""

from __future__ import annotations

import itertools
import os
import sqlite3
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from .lab_games import run_chunk
from .lab_grid import Grid, LabError
from .lab_rows import stored_indices

DEFAULT_CHUNK = 25
BACKENDS = ("process", "serial", "ray")
#: one backend's unit of work: a cell's database id, its spec (:meth:`~.lab_grid.CellSpec.to_json`) and
#: the indices of the games to play
Task = tuple[int, dict[str, Any], list[int]]


def pending_tasks(conn: sqlite3.Connection, grid: Grid, cell_ids: Sequence[int], chunk: int,
                  workers: int = 1) -> list[Task]:
    """The games not yet stored, in chunks, the cells taken in turn (a slow cell's chunks are
    spread over the run, so every cell grows as it runs). The last chunks are cut smaller, so
    the workers finish together rather than one waiting for another's long chunk."""
    per_cell: list[list[Task]] = []
    for cid, cell in zip(cell_ids, grid.cells):
        done = stored_indices(conn, cid)
        todo = [i for i in range(grid.games) if i not in done]
        spec = cell.to_json()
        per_cell.append([(cid, spec, todo[k:k + chunk]) for k in range(0, len(todo), chunk)])
    tasks = [t for group in itertools.zip_longest(*per_cell) for t in group if t is not None]
    tail = 2 * workers
    if workers > 1 and chunk > 1 and len(tasks) > tail:
        small = max(1, chunk // 4)
        tasks[-tail:] = [(cid, spec, idx[k:k + small]) for cid, spec, idx in tasks[-tail:]
                         for k in range(0, len(idx), small)]
    return tasks


def _serial(tasks: Sequence[Task], workers: int, **_: Any) -> Iterator[list[tuple[Any, ...]]]:
    for cid, spec, idx in tasks:
        yield run_chunk(cid, spec, idx)


def _warm() -> None:
    """Worker start: load the cards once (``map_unordered``'s workers leave Ctrl-C to the parent)."""
    from ..cards.loader import starter_set
    starter_set()


def _process(tasks: Sequence[Task], workers: int, **_: Any) -> Iterator[list[tuple[Any, ...]]]:
    """A pool of ``workers`` processes, a few chunks in flight each; results as they finish."""
    from ..workers import map_unordered

    yield from map_unordered(run_chunk, tasks, workers, _warm)


RAY_CONNECT_HINT = (
    ". Is the head running there (ray status --address ADDRESS)? Run the lab on a node of the cluster. "
    "A cluster started with token authentication (RAY_AUTH_MODE=token) refuses a driver without its "
    "token: set RAY_AUTH_MODE=token here too, with the cluster's token in RAY_AUTH_TOKEN, in a file named "
    "by RAY_AUTH_TOKEN_PATH, or in ~/.ray/auth_token (ray get-auth-token on the head prints it). "
    "See docs/developers.md, \"The lab on a Ray cluster\"."
)


def ray_runtime_env() -> dict[str, Any]:
    """The runtime environment the lab's Ray tasks run in on a cluster: this package itself is
    shipped to every node (``py_modules``), so nodes need only Python and the package's
    dependencies (the same ``pip install 'christianity-game[cluster]'``), not this checkout."""
    return {"py_modules": [str(Path(__file__).resolve().parent.parent)]}


def _start_ray(address: str | None) -> bool:
    """Start Ray in this process unless it runs already: ``ray.init(address)`` (a cluster's
    address, or none for a local Ray). True when this call started it (then the caller shuts it
    down); a clear :class:`LabError` when Ray is missing or cannot be reached."""
    try:
        import ray
    except ImportError:
        raise LabError("the ray backend needs Ray: pip install 'christianity-game[cluster]'") from None
    if ray.is_initialized():
        return False
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    if address:
        kwargs["address"] = address
        # ship this package to the cluster's workers (they need not have it installed)
        kwargs["runtime_env"] = ray_runtime_env()
    try:
        ray.init(**kwargs)
    except Exception as exc:  # noqa: BLE001 - ConnectionError and Ray's own errors
        raise LabError(f"cannot start or reach Ray{' at ' + address if address else ''}: {exc}"
                       + (RAY_CONNECT_HINT if address else "")) from None
    return True


def _ray(tasks: Sequence[Task], workers: int, address: str | None = None, **_: Any) -> Iterator[list[tuple[Any, ...]]]:
    """The same chunks as Ray tasks: on the Ray already started in this process (a
    :meth:`RunOptions.session`), or on one started for this run (:func:`_start_ray`)."""
    started = _start_ray(address)   # a LabError when Ray is missing
    import ray

    pending: list[Any] = []
    try:
        remote = ray.remote(num_cpus=1, max_retries=3)(run_chunk)
        slots = max(2, 2 * int(ray.cluster_resources().get("CPU", workers)))  # type: ignore[no-untyped-call]
        queue = deque(tasks)
        while queue or pending:
            while queue and len(pending) < slots:
                cid, spec, idx = queue.popleft()
                pending.append(remote.remote(cid, spec, idx))
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        for ref in pending:   # stopped early: the cluster need not finish what nobody will store
            try:
                ray.cancel(ref)
            except Exception:  # noqa: BLE001 - already finished, or Ray is going away
                pass
        if started:
            ray.shutdown()


BACKEND_RUNNERS: dict[str, Callable[..., Iterator[list[tuple[Any, ...]]]]] = {
    "serial": _serial, "process": _process, "ray": _ray,
}


def default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class RunOptions:
    """Where and how a grid's games are played: the backend (:data:`BACKENDS`), its worker
    processes (None: every core; ``serial`` plays in this process, one), the Ray cluster's address
    (``ray`` only) and the games of a task. Checked as it is made (a clear :class:`LabError`): the
    one check of these options, for :func:`~.lab.run_lab`, the ``lab`` command and the tuner."""

    backend: str = "process"
    workers: int | None = None
    address: str | None = None
    chunk: int = DEFAULT_CHUNK

    def __post_init__(self) -> None:
        if self.backend not in BACKEND_RUNNERS:
            raise LabError(f"--backend must be one of {', '.join(BACKENDS)}, not {self.backend!r}")
        if self.address is not None and self.backend != "ray":
            raise LabError("--address is for --backend ray")
        if self.workers is not None and (isinstance(self.workers, bool) or self.workers < 1):
            raise LabError(f"--workers must be at least 1, not {self.workers}")
        if self.chunk < 1:
            raise LabError(f"--chunk must be at least 1, not {self.chunk}")

    @property
    def pool(self) -> int:
        """The worker processes a run uses: 1 for ``serial``, else ``workers`` or every core."""
        if self.backend == "serial":
            return 1
        return default_workers() if self.workers is None else self.workers

    @property
    def where(self) -> str:
        """The backend in words: ``process``, ``serial``, ``ray`` or ``ray at ADDRESS``."""
        return f"ray at {self.address}" if self.backend == "ray" and self.address else self.backend

    @contextmanager
    def session(self) -> Iterator[None]:
        """Hold the backend for several runs (a study's grids): with ``ray``, Ray is started once
        here (unless it runs already) and shut down at the end, and every run in between uses it."""
        started = self.backend == "ray" and _start_ray(self.address)
        try:
            yield
        finally:
            if started:
                import ray
                ray.shutdown()
