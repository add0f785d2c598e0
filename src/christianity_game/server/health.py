"""A serving process's own health (:class:`LoopHealth`): how late its event loop wakes (the floor
of every player's wait), the garbage collector's pauses, and its policy for them in a process of
its own (``freeze_gc``: the young generations collected and frozen every few seconds, one full
collection an hour), and how long a thread holds the interpreter lock while another waits."""

from __future__ import annotations

import asyncio
import collections
import gc
import logging
import os
import sys
import time
from typing import Any

log = logging.getLogger("christianity_game.server")


#: A serving process's garbage-collector threshold for its youngest generation
#: ($CHRISTIANITY_GAME_GC_GEN0; 0, the default, keeps Python's 700). Measured under 200 games
#: (docs/developers.md, Load): 20,000 cut the collections from about 270 to 5 in 50 s and their
#: total time by 60-75 %, but under the hostile mix (connections churning) its largest
#: pause grew from about 25 ms to 100-120 ms, so Python's threshold stays the default; the freezing
#: of ``_keep_gc`` is what keeps full collections short.
GC_GEN0 = int(os.environ.get("CHRISTIANITY_GAME_GC_GEN0", "0") or 0)

#: How long a serving process's thread may hold the interpreter lock while another waits for it
#: ($CHRISTIANITY_GAME_SWITCH_S; Python's default is 5 ms). Every accepted action crosses threads
#: twice (the loop hands it to the writer thread, which hands the commit back), and while the loop
#: is busy each crossing waited up to the whole interval: in one quiet round the normal games' p99
#: fell from 53 to 36 ms under the hostile mix with 0.5 ms, and from 16 to 10 ms without the mix
#: (docs/developers.md, "What the hostile mix costs").
SWITCH_INTERVAL_S = float(os.environ.get("CHRISTIANITY_GAME_SWITCH_S", "0.0005") or 0.0005)


class LoopHealth:
    """The loop's lag over the last minute and the collector's pauses (``/healthz``), and the
    collector's policy when the process is a server's own (``freeze_gc``)."""

    def __init__(self, freeze_gc: bool = False) -> None:
        self.freeze_gc = freeze_gc
        self.lags: collections.deque[float] = collections.deque(maxlen=1200)
        self.gc_stats: list[list[float]] = [[0, 0.0, 0.0] for _ in range(3)]
        #: objects frozen at the start or the last full collection (``gc.get_freeze_count()`` walks
        #: them all, 10 ms for a few hundred thousand: too dear for each ``/healthz``)
        self.frozen = 0
        self._gc_started = 0.0
        self.tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        """Measure the loop's lag and the collector's pauses; with ``freeze_gc``, run its policy."""
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self._measure_lag())]
        if self.freeze_gc:
            self.tasks.append(loop.create_task(self._keep_gc()))
        if self.freeze_gc and GC_GEN0 > 0:
            gc.set_threshold(GC_GEN0, *gc.get_threshold()[1:])
        if self.freeze_gc:   # a process of its own (as with the garbage collector): see SWITCH_INTERVAL_S
            sys.setswitchinterval(SWITCH_INTERVAL_S)
        gc.callbacks.append(self._gc_callback)

    def stop(self) -> list[asyncio.Task[None]]:
        """Stop watching the collector; the tasks to cancel."""
        if self._gc_callback in gc.callbacks:
            gc.callbacks.remove(self._gc_callback)
        return self.tasks

    def _gc_callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
            return
        pause = time.perf_counter() - self._gc_started
        st = self.gc_stats[min(2, int(info.get("generation", 2)))]
        st[0] += 1
        st[1] = max(st[1], pause)
        st[2] += pause

    def gc_report(self) -> dict[str, Any]:
        """Garbage-collector pauses since the last reset, by generation: count, max and total."""
        return {f"gen{g}": {"count": int(c), "max_ms": round(m * 1e3, 2), "total_ms": round(t * 1e3, 1)}
                for g, (c, m, t) in enumerate(self.gc_stats)} | {"frozen": self.frozen}

    def reset_stats(self) -> None:
        self.lags.clear()
        self.gc_stats = [[0, 0.0, 0.0] for _ in range(3)]

    async def _measure_lag(self, every: float = 0.05) -> None:
        """How late the event loop wakes up (the last minute): the server's own latency floor."""
        loop = asyncio.get_running_loop()
        while True:
            t = loop.time()
            await asyncio.sleep(every)
            self.lags.append(max(0.0, loop.time() - t - every))

    def loop_lag_ms(self) -> dict[str, float]:
        xs = sorted(self.lags)
        if not xs:
            return {"p50": 0.0, "p99": 0.0, "max": 0.0}
        return {"p50": round(xs[len(xs) // 2] * 1e3, 2), "p99": round(xs[int(0.99 * (len(xs) - 1))] * 1e3, 2),
                "max": round(xs[-1] * 1e3, 2)}

    def freeze(self) -> None:
        """Move what is alive now (imported modules, loaded games) out of the garbage collector's
        reach: full collections then scan only what came later, which keeps their pauses short.
        Games hold no reference cycles, so a frozen game is still freed when it is dropped."""
        if self.freeze_gc:
            gc.collect()
            gc.freeze()
            self.frozen = gc.get_freeze_count()

    async def _keep_gc(self, every: float = 5.0, thaw_every: float = 3600.0) -> None:
        """Garbage-collector policy of a serving process (``freeze_gc``).

        A full collection scans every tracked object, and a few hundred games hold a few hundred
        thousand (their events and actions): on a small machine such a pause runs to 100-300 ms
        and is the slowest thing a player ever waits for. So every ``every`` seconds the young
        generations are collected and whatever survived is frozen; full collections then only
        see the last few seconds' objects. Game state holds no reference cycles, so it is still
        freed (by reference counting) when a game is dropped. What a frozen object that later
        dies in a cycle (a few objects per closed connection) would leak is reclaimed by one
        full collection every ``thaw_every`` seconds.
        """
        loop = asyncio.get_running_loop()
        last_thaw = loop.time()
        while True:
            await asyncio.sleep(every)
            if loop.time() - last_thaw >= thaw_every:
                t = time.perf_counter()
                gc.unfreeze()
                gc.collect()
                gc.freeze()
                self.frozen = gc.get_freeze_count()
                last_thaw = loop.time()
                log.info("full garbage collection: %.0f ms", (time.perf_counter() - t) * 1e3)
            else:
                gc.collect(1)
                gc.freeze()
