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

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Callable

__all__ = ["PARENT_POLL_S", "spawn_context", "spawn_pool", "watch_parent", "worker_start"]

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
