#!/usr/bin/env python
"""Load test: N concurrent bot games over real WebSockets on loopback, bounded in count and time.

Starts the game server as a subprocess on a free 127.0.0.1 port with a temporary data folder
(or uses ``--url``, which must be a loopback address), creates games whose seats are all played by
client-side bots over WebSockets, keeps ``--games`` of them running (a finished game is replaced
by a new one) until ``--duration`` seconds have passed or ``--max-games`` have been started, and
reports throughput and the action round trip (send -> ``ack``ed update) at p50/p90/p99/max.

    .venv/bin/python scripts/load.py --games 200 --duration 30 --think 0.5

``--think`` is each seat's mean pause before acting (like a person or a paced bot); 0 plays flat out.
"""

from __future__ import annotations

import argparse
import gc
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from christianity_game.bots import make_bot  # noqa: E402
from christianity_game.server.client import SeatClient  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process (Linux), in seconds."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def start_server(port: int, data_dir: str, rate: float) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "christianity_game.server", "--host", "127.0.0.1", "--port", str(port),
           "--data-dir", data_dir, "--bot-delay", "0", "--log-level", "warning", "--rate", str(rate),
           "--burst", str(int(rate * 2))]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen(cmd, env=env)


async def wait_ready(http: Any, url: str, timeout: float = 20.0) -> None:
    t0 = time.monotonic()
    while True:
        try:
            r = await http.get(url + "/healthz")
            if r.status_code == 200:
                return
        except Exception:   # noqa: BLE001 - not up yet
            pass
        if time.monotonic() - t0 > timeout:
            raise SystemExit(f"the server at {url} did not come up in {timeout:.0f}s")
        await asyncio.sleep(0.1)


class Stats:
    def __init__(self) -> None:
        self.rtts: list[float] = []
        self.measure_from = 0.0     # perf_counter(): round trips before this are warm-up
        self.actions = 0
        self.started = 0
        self.finished = 0
        self.errors: dict[str, int] = {}
        self.problems: list[str] = []
        self.failures: list[str] = []
        self.flood_sent = 0
        self.flood_closed = 0


async def one_game(http: Any, url: str, args: argparse.Namespace, n: int, stats: Stats, deadline: float) -> None:
    body = {"mode": args.mode, "lineup": args.lineup, "seed": args.seed + n, "listed": False}
    r = await http.post(url + "/api/games", json=body)
    r.raise_for_status()
    created = r.json()
    stats.started += 1
    clients = [SeatClient(created["ws"], s["token"], make_bot(args.bot, seed=n * 10 + s["seat"]), think=args.think)
               for s in created["seats"] if s["kind"] == "human"]
    stop = asyncio.Event()

    async def timer() -> None:
        await asyncio.sleep(max(0.0, deadline - time.monotonic()))
        stop.set()

    t = asyncio.create_task(timer())
    try:
        await asyncio.gather(*(c.run(stop) for c in clients))
    except Exception as exc:   # noqa: BLE001 - count it and go on
        stats.failures.append(f"game {created['game_id']}: {type(exc).__name__}: {exc}")
    finally:
        t.cancel()
    for c in clients:
        for at, rtt in zip(c.sent_at, c.rtts):
            if at >= stats.measure_from:
                stats.rtts.append(rtt)
        stats.actions += len(c.rtts)
        for code, k in c.errors.items():
            stats.errors[code] = stats.errors.get(code, 0) + k
        stats.problems.extend(c.problems)
    if all(c.over for c in clients):
        stats.finished += 1


async def flooder(ws_url: str, token: str, deadline: float, counts: list[int]) -> None:
    """A hostile client: joins a game as a spectator and sends messages as fast as it can without
    reading; the server refuses them and closes it, and it comes straight back."""
    from websockets.asyncio.client import connect

    junk = json.dumps({"type": "ping", "ref": "x" * 50})
    while time.time() < deadline:
        try:
            async with connect(ws_url, compression=None, ping_interval=None, open_timeout=5) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                while time.time() < deadline:
                    for _ in range(100):
                        await ws.send(junk)
                    counts[0] += 100
                    await asyncio.sleep(0)
        except Exception:   # noqa: BLE001 - closed by the server (1008/1013): come back
            counts[1] += 1
            await asyncio.sleep(0.01)


def flood_process(url: str, n: int, deadline: float, out: Any) -> None:
    """The flooders run in their own process, as a hostile client would."""
    async def main() -> list[int]:
        import httpx

        async with httpx.AsyncClient(timeout=30.0) as http:
            game = (await http.post(url + "/api/games", json={"mode": "coop", "lineup": "RR", "seed": 1,
                                                              "listed": False})).json()
        counts = [0, 0]
        await asyncio.gather(*(flooder(game["ws"], game["spectator"]["token"], deadline, counts) for _ in range(n)))
        return counts

    out.put(asyncio.run(main()))


async def slot(http: Any, url: str, args: argparse.Namespace, k: int, counter: list[int], stats: Stats,
               deadline: float) -> None:
    await asyncio.sleep(random.Random(k).random() * min(2.0, args.think * 2 + 0.2))   # stagger the starts
    while time.monotonic() < deadline and counter[0] < args.max_games:
        n = counter[0]
        counter[0] += 1
        await one_game(http, url, args, n, stats, deadline)


async def measure_lag(out: list[float], http: Any, url: str, warmup: float, every: float = 0.05) -> None:
    await asyncio.sleep(warmup)
    await http.get(url + "/healthz", params={"reset_lag": 1})
    loop = asyncio.get_running_loop()
    while True:
        t = loop.time()
        await asyncio.sleep(every)
        out.append(max(0.0, loop.time() - t - every))


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    import httpx

    proc = None
    tmp = None
    if args.url:
        host = urllib.parse.urlparse(args.url).hostname
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise SystemExit("--url must be a loopback address (127.0.0.1)")
        url = args.url.rstrip("/")
    else:
        tmp = tempfile.TemporaryDirectory(prefix="cg-load-")
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        proc = start_server(port, tmp.name, args.rate)
    limits = httpx.Limits(max_connections=50)
    try:
        async with httpx.AsyncClient(timeout=30.0, limits=limits) as http:
            await wait_ready(http, url)
            stats = Stats()
            cpu0 = cpu_seconds(proc.pid) if proc else float("nan")
            me0 = time.process_time()
            t0 = time.monotonic()
            deadline = t0 + args.duration
            stats.measure_from = time.perf_counter() + args.warmup
            counter = [0]
            lags: list[float] = []
            lagger = asyncio.create_task(measure_lag(lags, http, url, args.warmup))
            flood = None
            if args.flooders:
                import multiprocessing

                results: Any = multiprocessing.get_context("spawn").Queue()
                flood = multiprocessing.get_context("spawn").Process(
                    target=flood_process, args=(url, args.flooders, time.time() + args.duration, results))
                flood.start()
            await asyncio.gather(*(slot(http, url, args, k, counter, stats, deadline) for k in range(args.games)))
            if flood is not None:
                stats.flood_sent, stats.flood_closed = await asyncio.to_thread(results.get, True, 60)
                flood.join(10)
            wall = time.monotonic() - t0
            cpu1 = cpu_seconds(proc.pid) if proc else float("nan")
            me1 = time.process_time()
            lagger.cancel()
            health = (await http.get(url + "/healthz")).json()
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        if tmp is not None:
            tmp.cleanup()
    r = stats.rtts
    return {
        "games_concurrent": args.games, "think_s": args.think, "warmup_s": args.warmup,
        "rtt_samples": len(r), "bot": args.bot, "lineup": args.lineup,
        "wall_s": round(wall, 2), "games_started": stats.started, "games_finished": stats.finished,
        "actions": stats.actions, "actions_per_s": round(stats.actions / wall, 1),
        "rtt_ms": {"p50": round(pct(r, 50) * 1e3, 2), "p90": round(pct(r, 90) * 1e3, 2),
                   "p99": round(pct(r, 99) * 1e3, 2), "max": round(max(r) * 1e3, 2) if r else None,
                   "mean": round(statistics.fmean(r) * 1e3, 2) if r else None},
        "server_cpu_pct": round(100 * (cpu1 - cpu0) / wall, 1),
        "server_loop_lag_ms": health.get("loop_lag_ms"),
        "server_gc": health.get("gc"),
        "load_average": os.getloadavg(),
        "client_loop_lag_ms": {"p50": round(pct(lags, 50) * 1e3, 2), "p99": round(pct(lags, 99) * 1e3, 2),
                               "max": round(max(lags) * 1e3, 2) if lags else None},
        "client_cpu_pct": round(100 * (me1 - me0) / wall, 1),
        "flooders": args.flooders, "flood_messages_sent": stats.flood_sent,
        "flooder_reconnects": stats.flood_closed,
        "errors": stats.errors, "protocol_problems": stats.problems[:10], "failures": stats.failures[:10],
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=200, help="concurrent games")
    p.add_argument("--duration", type=float, default=30.0, help="seconds to run (bound)")
    p.add_argument("--max-games", type=int, default=2000, help="games to start at most (bound)")
    p.add_argument("--warmup", type=float, default=5.0,
                   help="seconds at the start (creating games, connecting) left out of the round-trip figures")
    p.add_argument("--think", type=float, default=0.5, help="mean seconds a seat waits before acting")
    p.add_argument("--bot", default="random", help="client-side bot: random or heuristic")
    p.add_argument("--mode", default="coop")
    p.add_argument("--lineup", default="RR")
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--rate", type=float, default=20.0, help="the server's per-connection message rate")
    p.add_argument("--flooders", type=int, default=0,
                   help="extra hostile connections that flood the server without reading")
    p.add_argument("--url", default=None, help="use a running server (loopback only) instead of starting one")
    p.add_argument("--json", action="store_true", help="print the report as JSON only")
    args = p.parse_args()
    if args.games < 1 or args.games > 2000 or args.duration <= 0 or args.duration > 600:
        raise SystemExit("--games must be 1..2000 and --duration 0..600 s")
    # The load client is the measuring tool, not the system under test: keep its own garbage
    # collector from adding pauses to the round trips it measures (its garbage is acyclic).
    gc.collect()
    gc.freeze()
    gc.disable()
    report = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps(report))
        return
    rt = report["rtt_ms"]
    print(f"{report['games_concurrent']} concurrent games ({report['lineup']}, client bot {report['bot']}, "
          f"think {report['think_s']} s) for {report['wall_s']} s")
    print(f"  games started {report['games_started']}, finished {report['games_finished']}")
    print(f"  actions {report['actions']}  throughput {report['actions_per_s']} actions/s")
    print(f"  round trip ({report['rtt_samples']} actions after {report['warmup_s']} s warm-up) ms: "
          f"p50 {rt['p50']}  p90 {rt['p90']}  p99 {rt['p99']}  max {rt['max']}  mean {rt['mean']}")
    print(f"  cpu: server {report['server_cpu_pct']}%  load client {report['client_cpu_pct']}%")
    print(f"  event-loop lag ms: server {report['server_loop_lag_ms']}  load client {report['client_loop_lag_ms']}")
    print(f"  server gc pauses: {report['server_gc']}")
    print(f"  load average (1, 5, 15 min; other work on the machine counts): {report['load_average']}")
    if report["flooders"]:
        print(f"  flooders {report['flooders']}: sent {report['flood_messages_sent']} messages, "
              f"reconnected {report['flooder_reconnects']} times")
    print(f"  errors {report['errors']}  problems {report['protocol_problems']}  failures {report['failures']}")


if __name__ == "__main__":
    main()
