"""The project's process pools (``christianity_game.workers``): spawned workers that end with their parent.

A lab, tuner or ladder killed with ``kill -9`` used to leave its workers playing their chunk to the
end (minutes of search-bot games) on a shared two-core machine; each worker now watches its parent.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from christianity_game.workers import PARENT_POLL_S, spawn_pool

PARENT = textwrap.dedent("""
    import os, sys, time
    from christianity_game.workers import spawn_pool
    pool = spawn_pool(1)
    print(pool.submit(os.getpid).result(), flush=True)   # the worker's pid
    pool.submit(time.sleep, 600)                          # a long chunk in the worker
    time.sleep(600)
""")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (exited, not yet reaped by its new parent) counts as gone
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False


def test_a_worker_ends_soon_after_its_parent_is_killed() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        worker = int(parent.stdout.readline())
        assert worker != parent.pid and _alive(worker)
        time.sleep(2 * PARENT_POLL_S)
        assert _alive(worker), "the worker must live while its parent does"
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        deadline = time.monotonic() + 10
        while _alive(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(worker), "the worker kept running after its parent was killed"
    finally:
        parent.kill()
        parent.wait()


def test_a_pool_runs_its_initializer_then_its_work() -> None:
    with spawn_pool(1, _mark_started) as pool:
        assert pool.submit(os.getenv, "POOL_INITIALIZER_RAN").result() == "yes"
        assert pool.submit(os.getpid).result() != os.getpid()


def _mark_started() -> None:
    os.environ["POOL_INITIALIZER_RAN"] = "yes"


def test_batch_workers_leave_ctrl_c_to_the_parent_and_run_the_initializer() -> None:
    from christianity_game.sim.lab_backends import _warm   # the lab's
    from christianity_game.workers import map_unordered
    assert list(map_unordered(signal.getsignal, [(signal.SIGINT,)], 1, _warm)) == [signal.SIG_IGN]
    assert list(map_unordered(os.getenv, [("POOL_INITIALIZER_RAN",)], 1, _mark_started)) == ["yes"]


def test_closing_a_batch_early_ends_the_jobs_in_the_middle() -> None:
    # nobody takes the results of jobs running when a batch is closed (or Ctrl-C'd): they are ended,
    # not played out (here a minute each)
    from christianity_game.workers import map_unordered
    batch = map_unordered(time.sleep, [(0,), (60,), (60,)], 2, in_flight=1)
    assert next(batch) is None
    closing = time.monotonic()
    batch.close()
    assert time.monotonic() - closing < 20


def test_a_closed_batch_leaves_its_queue_to_the_pool_without_an_error_from_its_thread() -> None:
    # cancelling the jobs not started, then ending the workers, raced the pool's thread on Python
    # < 3.12: it set the broken-pool error on a cancelled future and printed InvalidStateError
    # (1 batch in 5 here, and once in CI through a Ctrl-C'd ladder); five batches of 18 queued jobs
    # failed 1 of 3 runs of this test on that code
    script = textwrap.dedent("""
        import time
        from christianity_game.workers import map_unordered
        if __name__ == "__main__":
            for _ in range(5):
                batch = map_unordered(time.sleep, [(0,)] + [(60,)] * 20, 2, in_flight=10)
                assert next(batch) is None
                batch.close()
            print("closed", flush=True)
    """)
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "closed"
    assert "Traceback" not in done.stderr and "InvalidStateError" not in done.stderr, done.stderr
    assert time.monotonic() - started < 60   # no batch waited for its minute-long jobs


def test_the_thinking_pool_is_shut_down_at_exit() -> None:
    # a pool left in a module global is collected only as the modules are torn down, and its
    # wake-up callback then fails on a multiprocessing that is gone: the exit handlers close it first
    script = textwrap.dedent("""
        import atexit
        from christianity_game.bots import search
        pool = search.thinking_pool()
        assert pool.submit(abs, -3).result() == 3
        atexit._run_exitfuncs()
        assert search._POOL is None, "the thinking pool outlived the exit handlers"
        assert pool._shutdown_thread, "the thinking pool was not shut down"
        print("closed", flush=True)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "closed"
    assert "Exception ignored" not in done.stderr


def test_map_unordered_runs_every_job_and_stops_at_the_first_failure() -> None:
    from christianity_game.workers import map_unordered
    assert sorted(map_unordered(divmod, [(n, 3) for n in range(8)], 2)) == [divmod(n, 3) for n in range(8)]
    got: list[tuple[int, int]] = []
    items = [(7, 1), (8, 2), (1, 0)] + [(n, 1) for n in range(100, 120)]   # the third divides by zero
    with pytest.raises(ZeroDivisionError):   # the failing job's exception reaches the caller
        for result in map_unordered(divmod, items, 1, in_flight=1):
            got.append(result)
    assert (7, 0) in got and (4, 0) in got, "the jobs before the failure keep their results"
    assert len(got) < 6, f"jobs queued after the failure must not start: {got}"


def test_run_jobs_in_order_gives_the_items_order_on_one_core_or_several() -> None:
    from christianity_game.workers import run_jobs_in_order
    items = [(n, 3) for n in (30, 1, 17, 4, 9, 22)]
    expected = [divmod(n, d) for n, d in items]
    assert run_jobs_in_order(divmod, items, 1) == expected
    assert run_jobs_in_order(divmod, iter(items), 2) == expected   # any iterable, finished in any order
    assert run_jobs_in_order(divmod, [], 2) == []
