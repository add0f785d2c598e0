"""Worker processes: every process pool of the project is made here (:func:`spawn_pool`).

Two things every pool needs and none had on its own:

* **spawn**, never fork: a fork copies whatever lock another thread of the parent holds at that
  moment (Rich's refresher, Optuna's storage, a server's event loop) and the child can hang on it;
  a spawned worker imports the package afresh.
* **a worker ends with its parent.** A parent killed with ``kill -9`` (or by the OOM killer) runs no
  clean-up, and a worker in the middle of a long chunk (minutes of search-bot games) would play it
  to the end, burning a core and skewing every measurement taken meanwhile, before finding its
  pipe broken. Each worker watches its parent (:func:`watch_parent`) and exits as soon as it is
  gone.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Callable, Iterable, Iterator, TypeVar

__all__ = ["PARENT_POLL_S", "map_unordered", "run_jobs", "run_jobs_in_order", "spawn_context", "spawn_pool", "watch_parent", "worker_start"]

R = TypeVar("R")

#: How often a worker looks for its parent (seconds): a worker outlives a killed parent by at most this
PARENT_POLL_S = 0.5


def spawn_context() -> multiprocessing.context.SpawnContext:
    """The multiprocessing context of every pool: spawn (see the module's docstring)."""
    return multiprocessing.get_context("spawn")


def watch_parent(poll_s: float = PARENT_POLL_S) -> None:
    """Exit this process (at once, status 1) when its parent dies: a daemon thread compares the
    parent's pid with the one at start (a child whose parent died is handed to another process)."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(poll_s)
            if os.getppid() != parent:
                os._exit(1)   # no clean-up: nobody is left to take this worker's results

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def worker_start(then: Callable[[], None] | None = None) -> None:
    """A pool worker's start: watch the parent, then ``then()`` (the pool's own initializer)."""
    watch_parent()
    if then is not None:
        then()


def spawn_pool(workers: int, initializer: Callable[[], None] | None = None) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes that end with this one; ``initializer`` runs in each
    worker as it starts (after :func:`watch_parent`; a module-level function, as spawn needs)."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=spawn_context(),
                               initializer=worker_start, initargs=(initializer,))


def _batch_worker(then: Callable[[], None] | None) -> None:
    """A batch worker's start (:func:`map_unordered`): Ctrl-C is the parent's to handle. A terminal
    sends SIGINT to the whole foreground group; a worker that took it would die in the middle of a
    job with a traceback of its own, so the workers ignore it and the parent stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if then is not None:
        then()


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the pool's workers now, jobs in the middle included: for a batch nobody will take the
    results of (a Ctrl-C, or an iterator closed early), where waiting would only play them out."""
    terminate = getattr(pool, "terminate_workers", None)   # Python 3.14
    if terminate is not None:
        terminate()
        return
    for process in list((pool._processes or {}).values()):
        process.terminate()


def map_unordered(fn: Callable[..., R], items: Iterable[tuple[Any, ...]], workers: int,
                  initializer: Callable[[], None] | None = None, in_flight: int = 2) -> Iterator[R]:
    """``fn(*item)`` for every item on a :func:`spawn_pool` of ``workers``, each result as it
    finishes: how the lab, the ladder, the evaluation fit and the knob study run a batch of jobs on
    a pool.

    At most ``in_flight`` jobs a worker are handed to the pool at a time, so a failure or a
    Ctrl-C has little queued work to cancel. When a job raises, no further job starts, the jobs
    already running are played out and their results still yielded (a caller that keeps each
    result loses none of them), and then the first job's exception is raised. A Ctrl-C (the
    workers ignore SIGINT: it reaches the parent's wait) or closing the iterator early ends the
    workers at once, the jobs in the middle with them, since no one will take their results."""
    queue = iter(items)
    pending: set[Future[R]] = set()
    failure: BaseException | None = None
    pool = spawn_pool(workers, functools.partial(_batch_worker, initializer))
    finished = False
    try:
        while True:
            while failure is None and len(pending) < in_flight * workers:
                item = next(queue, None)
                if item is None:
                    break
                pending.add(pool.submit(fn, *item))
            if not pending:
                break
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                if fut.cancelled():
                    continue
                error = fut.exception()
                if error is None:
                    yield fut.result()
                elif failure is None:   # the first failure: start nothing more, finish what runs
                    failure = error
                    for queued in pending:
                        queued.cancel()   # refused by a job already running, which is played out
        finished = True
        if failure is not None:
            raise failure
    finally:
        if not finished:   # interrupted or closed early: the running jobs' results have no taker
            # The jobs not started are left to the pool, which fails them as broken once its workers
            # are gone. Cancelling them here as well raced the pool's own thread: on Python < 3.12
            # it sets the broken-pool error on every pending future and raised InvalidStateError
            # (printed from that thread) on one already cancelled. (A Ctrl-C while a failed batch
            # plays out its running jobs can still meet that race: the failure cancelled the queue.)
            _stop_workers(pool)
        pool.shutdown(wait=True)


def run_jobs(fn: Callable[..., R], items: Iterable[tuple[Any, ...]], workers: int) -> Iterator[R]:
    """``fn(*item)`` for every item, as a batch that may run on one core or several: with one worker
    here, one after another in the items' order (no process to spawn, and an error's traceback
    points into the job), else on :func:`map_unordered`, each result as it finishes."""
    if workers <= 1:
        return (fn(*item) for item in items)
    return map_unordered(fn, items, workers)


def _job_at(fn: Callable[..., R], index: int, item: tuple[Any, ...]) -> tuple[int, R]:
    """``fn(*item)`` with the item's place in its batch (a module-level function, as spawn needs)."""
    return index, fn(*item)


def run_jobs_in_order(fn: Callable[..., R], items: Iterable[tuple[Any, ...]], workers: int) -> list[R]:
    """:func:`run_jobs`, the results in the items' order whatever order they finished in: the same
    list on one core or several (the evaluation fit and the knob study need their rows in order)."""
    batch = list(items)
    found = dict(run_jobs(_job_at, [(fn, i, item) for i, item in enumerate(batch)], workers))
    return [found[i] for i in range(len(batch))]
