"""Commits the server's actions off the event loop: one writer thread, group commit.

Committing an action on the event-loop thread (an INSERT and its commit) would take about a
tenth of the loop's time under 200 games (docs/developers.md, "The event loop's work").
:class:`StoreWriter` takes it to a thread of its own:
the loop hands it each accepted action (:meth:`StoreWriter.submit`) and gets back an asyncio
future, resolved once the action is durable; the server acknowledges the action (and shows it
to anyone) only then. Actions that arrive while a commit is in flight wait in a queue and go
into the next commit together (group commit: one transaction, one write of the log, for all of
them), so a busier server commits less often per action, not more.

The writer goes through the store's own interface (server/store.py): it calls its ``append_action`` and
``finish``, and on SQLite wraps a batch of them in ``BEGIN IMMEDIATE .. COMMIT`` on the store's
own connection (the store runs in autocommit mode, so its statements join that transaction). A
store without a SQLite connection (PostgreSQL) gets its calls one by one, each committing itself
as it does on the loop, unless it offers a ``batch()`` context manager for one transaction.

**One thread at a time.** The store's SQLite connection is opened with ``check_same_thread=False``
(store_sqlite.py) and is shared by the loop (lobby reads, game loads, claims, sweeps) and the
writer. A transaction spans several calls, so the two must never interleave: every use of the store goes
through one lock, the writer's batch from ``BEGIN`` to ``COMMIT`` and each of the loop's calls
(:class:`LockedStore` takes it for the loop). A lock, rather than a connection the writer thread
alone uses, because the loop's store calls are synchronous code paths (loading a game, checking a
quota) that cannot await an answer from another thread: with the lock they stay synchronous, and
wait at most for one batch (a fraction of a millisecond with ``synchronous=NORMAL``).
``checkpoint_elsewhere`` keeps its own connection on a worker thread and takes no lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import threading
import time
import types
from dataclasses import dataclass
from typing import Any, Callable, Iterator, TypeVar, cast

log = logging.getLogger("christianity_game.server.writer")

T = TypeVar("T")


class LockedStore:
    """A store whose every method call holds ``lock`` (see the module docstring): what the loop
    uses, so that it never runs a statement inside the writer's open transaction.

    Attributes that are not methods (``problems``, ``db``, ``kind``) are passed through; setting an
    attribute sets it on the store itself (tests replace ``append_action``, and the writer, which
    calls the store directly, then sees the replacement too). A method that returns a generator
    (``games``) is read to its end under the lock, since its statements run as it is iterated."""

    #: methods that must not take the lock: a connection of their own, run on a worker thread (a
    #: checkpoint may wait on the disk; the writer must not wait for it)
    UNLOCKED = frozenset({"checkpoint_elsewhere"})

    def __init__(self, store: Any, lock: threading.RLock) -> None:
        object.__setattr__(self, "_store", store)
        object.__setattr__(self, "_lock", lock)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._store, name)
        # methods only: a callable attribute such as the sqlite3 connection ``db`` is passed through
        if name in self.UNLOCKED or not isinstance(value, (types.MethodType, types.FunctionType)):
            return value
        lock = self._lock

        def locked(*args: Any, **kwargs: Any) -> Any:
            with lock:
                out = value(*args, **kwargs)
                if isinstance(out, types.GeneratorType):
                    return iter(list(out))
                return out
        return locked

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._store, name, value)

    def __delattr__(self, name: str) -> None:
        delattr(self._store, name)


def locked(store: T, lock: threading.RLock) -> T:
    """``store`` seen through :class:`LockedStore` (typed as the store, for the server's code)."""
    return cast(T, LockedStore(store, lock))


@dataclass(slots=True)
class Write:
    """One accepted action to commit: its row, and the game's result when it ended the game."""

    game_id: str
    n: int
    action: dict[str, Any]
    result: dict[str, Any] | None
    future: asyncio.Future[None]
    error: BaseException | None = None


@dataclass(slots=True)
class WriterStats:
    """What the writer did since start: batches, actions, the largest batch, the slowest batch in
    milliseconds (from taking it off the queue to its commit), failed actions, the longest queue."""

    batches: int = 0
    actions: int = 0
    largest: int = 0
    slowest_ms: float = 0.0
    failed: int = 0
    queued_max: int = 0

    def public(self) -> dict[str, Any]:
        return {"batches": self.batches, "actions": self.actions, "largest_batch": self.largest,
                "slowest_batch_ms": round(self.slowest_ms, 2), "failed": self.failed,
                "most_queued": self.queued_max}


class StoreWriter:
    """The writer thread (see the module docstring). ``store`` is the store itself (not the
    :class:`LockedStore`); ``lock`` is the lock the loop's calls take. At most ``max_batch``
    actions go into one transaction."""

    def __init__(self, store: Any, lock: threading.RLock, max_batch: int = 512) -> None:
        self._store = store
        self._lock = lock
        self.max_batch = max_batch
        self._cond = threading.Condition(threading.Lock())
        self._queue: list[Write] = []
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping = False
        self._unsettled: set[asyncio.Future[None]] = set()   # submitted, not yet resolved on the loop
        # what the loop submitted during its current iteration: handed to the thread in one go at
        # the end of it (one wake-up of the thread, one transaction), not one by one
        self._outbox: list[Write] = []
        self.stats = WriterStats()

    def start(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        """Start the thread; futures are resolved on ``loop`` (the running one by default)."""
        if self._thread is not None:
            return
        self._loop = loop or asyncio.get_running_loop()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="store-writer", daemon=True)
        self._thread.start()

    def submit(self, game_id: str, n: int, action: dict[str, Any], result: dict[str, Any] | None) -> asyncio.Future[None]:
        """Queue action ``n`` of ``game_id`` (and the game's ``result`` if it ended it) for the next
        commit; the future is done (or failed with the store's exception) once it is durable."""
        loop = self._loop or asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        if self._thread is None or self._stopping:   # not started (or stopping): commit here, on the caller's thread
            w = Write(game_id, n, action, result, fut)
            with self._lock:
                self._write_one(w)
            self._resolve(w)
            return fut
        self._unsettled.add(fut)
        if not self._outbox:
            loop.call_soon(self._flush)
        self._outbox.append(Write(game_id, n, action, result, fut))
        return fut

    def _flush(self) -> None:
        """Hand what this loop iteration submitted to the thread (each wake-up of the thread costs
        the loop a hand-over of the interpreter lock, so it is woken once for all of them)."""
        out, self._outbox = self._outbox, []
        if not out:
            return
        with self._cond:
            self._queue.extend(out)
            if len(self._queue) > self.stats.queued_max:
                self.stats.queued_max = len(self._queue)
            self._cond.notify()

    async def drain(self) -> None:
        """Wait until everything submitted so far is committed and its future resolved."""
        self._flush()
        while self._unsettled:
            await asyncio.gather(*list(self._unsettled), return_exceptions=True)

    def stop(self, timeout: float = 10.0) -> None:
        """Commit what is queued, then end the thread (call :meth:`drain` first to also see the
        futures resolved)."""
        thread = self._thread
        if thread is None:
            return
        self._flush()
        with self._cond:
            self._stopping = True
            self._cond.notify()
        thread.join(timeout)
        if thread.is_alive():
            log.error("STORAGE: the store's writer thread did not stop within %.0f s", timeout)
        self._thread = None

    # ------------------------------------------------------------------ the thread
    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._stopping:
                    self._cond.wait()
                if not self._queue:
                    return
                batch = self._queue[:self.max_batch]
                del self._queue[:self.max_batch]
            t = time.perf_counter()
            try:
                self._commit(batch)
            except BaseException as exc:   # noqa: BLE001 - never leave a future unresolved
                for w in batch:
                    if w.error is None:
                        w.error = exc
            spent = (time.perf_counter() - t) * 1e3
            st = self.stats
            st.batches += 1
            st.actions += len(batch)
            st.largest = max(st.largest, len(batch))
            st.slowest_ms = max(st.slowest_ms, spent)
            st.failed += sum(1 for w in batch if w.error is not None)
            loop = self._loop
            if loop is None:
                continue
            try:
                loop.call_soon_threadsafe(self._settle, batch)
            except RuntimeError:   # the loop is closed: nobody waits for these answers any more
                pass

    def _commit(self, batch: list[Write]) -> None:
        """Commit ``batch`` in one transaction where the store allows; when that fails, each action
        alone, so that only an action that cannot be stored fails (with the store's error)."""
        store = self._store
        with self._lock:
            if len(batch) > 1:
                tx = self._transaction(store)
                if tx is not None:
                    try:
                        with tx:
                            for w in batch:
                                self._write(w)
                        return
                    except Exception:   # noqa: BLE001 - rolled back: try them one by one below
                        pass
            for w in batch:
                self._write_one(w)

    def _transaction(self, store: Any) -> contextlib.AbstractContextManager[Any] | None:
        """One transaction around several of the store's calls, or None where it cannot be had."""
        batch = getattr(store, "batch", None)
        if callable(batch):
            return cast("contextlib.AbstractContextManager[Any]", batch())
        db = getattr(store, "db", None)
        if isinstance(db, sqlite3.Connection) and db.isolation_level is None and not db.in_transaction:
            return _sqlite_transaction(db)
        return None

    def _write(self, w: Write) -> None:
        self._store.append_action(w.game_id, w.n, w.action)
        if w.result is not None:
            self._store.finish(w.game_id, w.result)

    def _write_one(self, w: Write) -> None:
        try:
            self._write(w)
        except Exception as exc:   # noqa: BLE001 - the caller hears of it through the future
            w.error = exc

    # ------------------------------------------------------------------ back on the loop
    def _settle(self, batch: list[Write]) -> None:
        for w in batch:
            self._resolve(w)

    def _resolve(self, w: Write) -> None:
        self._unsettled.discard(w.future)
        if w.future.done():
            return
        if w.error is None:
            w.future.set_result(None)
        else:
            w.future.set_exception(w.error)


@contextlib.contextmanager
def _sqlite_transaction(db: sqlite3.Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE .. COMMIT`` on an autocommit connection; rolled back on any error."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error:
                log.exception("STORAGE: rolling back a batch of actions failed")
        raise


def run_deferred(fn: Callable[[], None]) -> None:
    """Run one piece of work that waited for a commit; a failure is logged, not raised (the
    others waiting behind it must still run)."""
    try:
        fn()
    except Exception:   # noqa: BLE001 - logged; the queue behind it goes on
        log.exception("work that waited for a commit failed")
