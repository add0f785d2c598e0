#!/usr/bin/env python
"""Load test: N concurrent bot games over real WebSockets on loopback, bounded in count and time.

Starts the game server as a subprocess on a free 127.0.0.1 port with a temporary data folder
(or uses ``--url``, which must be a loopback address), creates games whose seats are all played by
client-side bots over WebSockets, keeps ``--games`` of them running (a finished game is replaced
by a new one) until ``--duration`` seconds have passed or ``--max-games`` have been started, and
reports throughput and the action round trip (send -> ``ack``ed update) at p50/p90/p99/max.

    .venv/bin/python scripts/load.py --games 200 --duration 30 --think 0.5
    .venv/bin/python scripts/load.py --games 200 --duration 60 --hostile

``--think`` is each seat's mean pause before acting (like a person or a paced bot); 0 plays flat out.
The normal games' clients connect from ``--addresses`` loopback addresses (127.0.1.x), as many
people would: at most 10 HTTP connections each, under the server's cap of open HTTP connections per
address (``--http-conns-per-address``, 32), which is left as it is. ``--hostile`` adds, from a second process and its own loopback addresses (127.0.2.x),
the attacks of issue 12 next to the normal games: a game-creation flood, a bots-only-game flood,
a resync storm (60 connections each asking 18 times a second for the full resync of a finished
game), 20 clients that never read, and message flooders; the report gives the normal games'
round trip (p50/p95/p99) during the mix and what each attack got (answers by code).

``--src`` runs the server from another source folder, so that two commits meet the same load
(``git worktree add /tmp/base COMMIT``, then ``--src /tmp/base/src``; runs of the two in turns).
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
from christianity_game.server.client import NonReader, SeatClient  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process and its live children (Linux; ``--workers``: every worker), in seconds."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")
    try:
        kids = [int(k) for k in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except (OSError, ValueError):
        kids = []
    return own + sum(c for c in (cpu_seconds(k) for k in kids) if c == c)


#: More arguments of the server under test (``--workers``, ``--database``; set by ``main``).
SERVER_EXTRA: list[str] = []


def start_server(port: int, data_dir: str, rate: float, src: Path = ROOT / "src") -> subprocess.Popen[bytes]:
    """The server under test, from the source folder ``src`` (another checkout's, to compare two
    commits under the same load)."""
    cmd = [sys.executable, "-m", "christianity_game.server", "--host", "127.0.0.1", "--port", str(port),
           "--data-dir", data_dir, "--bot-delay", "0.05", "--log-level", "warning", "--rate", str(rate),
           "--burst", str(int(rate * 2)), *SERVER_EXTRA]
    env = dict(os.environ, PYTHONPATH=str(src) + os.pathsep + os.environ.get("PYTHONPATH", ""))
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


def source_address(n: int, count: int) -> str:
    """The n-th normal client's loopback source address (127.0.1.1 ... 127.0.1.count)."""
    return f"127.0.1.{1 + n % max(1, min(count, 250))}"


async def one_game(https: dict[str, Any], url: str, args: argparse.Namespace, n: int, stats: Stats,
                   deadline: float) -> None:
    body = {"mode": args.mode, "lineup": args.lineup, "seed": args.seed + n, "listed": False}
    addr = source_address(n, args.addresses)
    r = await https[addr].post(url + "/api/games", json=body)
    r.raise_for_status()
    created = r.json()
    stats.started += 1
    clients = [SeatClient(created["ws"], s["token"], make_bot(args.bot, seed=n * 10 + s["seat"]), think=args.think,
                          local_addr=addr)
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


async def flooder(ws_url: str, token: str, deadline: float, counts: list[int], source: str | None = None) -> None:
    """A hostile client: joins a game as a spectator and sends messages as fast as it can without
    reading; the server refuses them and closes it, and it comes straight back."""
    from websockets.asyncio.client import connect

    junk = json.dumps({"type": "ping", "ref": "x" * 50})
    extra: dict[str, Any] = {"local_addr": (source, 0)} if source else {}
    while time.time() < deadline:
        try:
            async with connect(ws_url, compression=None, ping_interval=None, open_timeout=5, **extra) as ws:
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


# --------------------------------------------------------------------------- the hostile mix (issue 12)
ATTACKERS = {"create": "127.0.2.1", "bots": "127.0.2.2", "resync": "127.0.2.3", "nonread": "127.0.2.4",
             "flood": "127.0.2.5"}


def _http(source: str) -> Any:
    import httpx

    return httpx.AsyncClient(timeout=30.0, transport=httpx.AsyncHTTPTransport(local_address=source))


async def create_flood(url: str, deadline: float, counts: dict[str, int]) -> None:
    """One address creates games as fast as it can (no pause after a refusal)."""
    async with _http(ATTACKERS["create"]) as http:
        while time.time() < deadline:
            r = await http.post(url + "/api/games", json={"mode": "coop", "lineup": "RR", "listed": False})
            key = f"create:{r.status_code}:{r.json().get('code', 'created') if r.status_code != 201 else 'created'}"
            counts[key] = counts.get(key, 0) + 1


async def bot_flood(url: str, deadline: float, counts: dict[str, int]) -> None:
    """One address starts bots-only games (heuristic bots) as fast as it can."""
    body = {"mode": "coop", "lineup": "RRR", "listed": False, "bots": {str(s): "heuristic" for s in range(3)}}
    async with _http(ATTACKERS["bots"]) as http:
        while time.time() < deadline:
            r = await http.post(url + "/api/games", json=body)
            key = f"bots:{r.status_code}:{r.json().get('code', 'created') if r.status_code != 201 else 'created'}"
            counts[key] = counts.get(key, 0) + 1
            if r.status_code != 201:
                await asyncio.sleep(0.01)


async def finished_game(url: str, source: str, deadline: float) -> dict[str, Any] | None:
    """A bots-only game played to its end, or as far as it got by ``deadline`` (its full resync is
    large either way)."""
    async with _http(source) as http:
        r = await http.post(url + "/api/games", json={"mode": "coop", "lineup": "RRR", "listed": False,
                                                      "bots": {"0": "random", "1": "random", "2": "random"}})
        if r.status_code != 201:
            return None
        game = r.json()
        while time.time() < deadline:
            if (await http.get(f"{url}/api/games/{game['game_id']}")).json()["result"] is not None:
                return game  # type: ignore[no-any-return]
            await asyncio.sleep(0.2)
    return game  # type: ignore[no-any-return]


async def resync_storm(game: dict[str, Any], deadline: float, counts: dict[str, int], conns: int = 60,
                       per_s: float = 18.0) -> None:
    """``conns`` connections each ask for the full resync of a finished game ``per_s`` times a second."""
    from websockets.asyncio.client import connect

    async def one(k: int) -> None:
        while time.time() < deadline:
            try:
                async with connect(game["ws"], compression=None, ping_interval=None, open_timeout=5,
                                   max_size=1 << 24, local_addr=(ATTACKERS["resync"], 0)) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": game["spectator"]["token"]}))
                    await ws.recv()
                    while time.time() < deadline:
                        t = time.monotonic()
                        await ws.send(json.dumps({"type": "sync", "state_id": 0}))
                        try:
                            text = await asyncio.wait_for(ws.recv(), 1.0)
                            counts["resync_bytes"] = counts.get("resync_bytes", 0) + len(text)
                            kind = json.loads(text)
                            key = "resync:" + (kind["type"] if kind["type"] != "error" else kind["code"])
                            counts[key] = counts.get(key, 0) + 1
                        except asyncio.TimeoutError:
                            counts["resync:unanswered"] = counts.get("resync:unanswered", 0) + 1
                        await asyncio.sleep(max(0.0, 1.0 / per_s - (time.monotonic() - t)))
            except Exception as exc:   # noqa: BLE001 - refused (4429) or closed: note it, come back
                key = f"resync:closed:{getattr(exc, 'rcvd', None) and exc.rcvd.code}"  # type: ignore[attr-defined]
                counts[key] = counts.get(key, 0) + 1
                await asyncio.sleep(0.5)

    await asyncio.gather(*(one(k) for k in range(conns)))


async def non_readers(url: str, game: dict[str, Any], deadline: float, counts: dict[str, int], n: int = 20) -> None:
    """``n`` clients that ask for full resyncs and never read; each comes back when cut."""
    parts = urllib.parse.urlparse(url)
    flood = json.dumps({"type": "sync", "state_id": 0})

    async def one() -> None:
        while time.time() < deadline:
            c = NonReader(parts.hostname or "127.0.0.1", parts.port or 80, f"/ws/{game['game_id']}",
                          source=ATTACKERS["nonread"])
            try:
                await c.open()
                await c.send(json.dumps({"type": "hello", "token": game["spectator"]["token"]}))
                for _ in range(200):
                    if not await c.send(flood) or time.time() > deadline:
                        break
                if await c.ended(timeout=max(0.1, min(15.0, deadline - time.time()))):
                    counts["nonreader:cut"] = counts.get("nonreader:cut", 0) + 1
            except (OSError, ConnectionError, asyncio.TimeoutError):
                counts["nonreader:refused"] = counts.get("nonreader:refused", 0) + 1
                await asyncio.sleep(0.5)
            finally:
                c.close()

    await asyncio.gather(*(one() for _ in range(n)))


#: The attacks of the hostile mix, by the name ``--attacks`` takes.
ATTACKS = ("create", "bots", "resync", "nonread", "flood")


def hostile_process(url: str, start: float, deadline: float, flooders: int, out: Any, nice: int = 0,
                    attacks: tuple[str, ...] = ATTACKS, cpus: frozenset[int] = frozenset()) -> None:
    """The hostile mix, in its own process (as an attacker's machine would be); ``attacks``: which of
    :data:`ATTACKS` run (all by default; one alone to see what it costs the normal games). ``nice``: its CPU
    priority is lowered by that much, so that on one small machine the attacker's own work (it
    sends a million messages a minute) takes the CPU only when the server and the normal clients
    leave it idle, as an attacker on another machine would; 0: it competes as an equal. ``cpus``: the
    CPUs it runs on (``--attacker-cpus``; the server and the normal clients keep the others)."""
    if nice:
        os.nice(nice)
    if cpus:
        os.sched_setaffinity(0, cpus)

    async def main() -> dict[str, int]:
        counts: dict[str, int] = {}
        await asyncio.sleep(max(0.0, start - time.time()))
        tasks = ([asyncio.create_task(create_flood(url, deadline, counts))] if "create" in attacks else []) + \
            ([asyncio.create_task(bot_flood(url, deadline, counts))] if "bots" in attacks else [])
        needs_game = {"resync", "nonread", "flood"} & set(attacks)
        game = await finished_game(url, ATTACKERS["resync"], min(deadline, time.time() + 15)) if needs_game else None
        if game is not None:
            if "resync" in attacks:
                tasks.append(asyncio.create_task(resync_storm(game, deadline, counts)))
            if "nonread" in attacks:
                tasks.append(asyncio.create_task(non_readers(url, game, deadline, counts)))
            if flooders and "flood" in attacks:
                fl = [0, 0]
                tasks += [asyncio.create_task(flooder(game["ws"], game["spectator"]["token"], deadline, fl,
                                                      ATTACKERS["flood"])) for _ in range(flooders)]
        elif needs_game:
            counts["no_finished_game"] = 1
        await asyncio.gather(*tasks)
        if flooders and game is not None and "flood" in attacks:
            counts["flood:sent"], counts["flood:reconnects"] = fl
        return counts

    out.put(asyncio.run(main()))


async def slot(https: dict[str, Any], url: str, args: argparse.Namespace, k: int, counter: list[int], stats: Stats,
               deadline: float) -> None:
    await asyncio.sleep(random.Random(k).random() * min(2.0, args.think * 2 + 0.2))   # stagger the starts
    while time.monotonic() < deadline and counter[0] < args.max_games:
        n = counter[0]
        counter[0] += 1
        await one_game(https, url, args, n, stats, deadline)


async def measure_lag(out: list[float], http: Any, url: str, warmup: float, every: float = 0.05) -> None:
    await asyncio.sleep(warmup)
    await http.get(url + "/healthz", params={"reset_lag": 1})
    loop = asyncio.get_running_loop()
    while True:
        t = loop.time()
        await asyncio.sleep(every)
        out.append(max(0.0, loop.time() - t - every))


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


async def sample_rss(pid: int, out: list[float], every: float = 0.5) -> None:
    while True:
        out.append(rss_mb(pid))
        await asyncio.sleep(every)


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
        proc = start_server(port, tmp.name, args.rate, Path(args.src).resolve() if args.src else ROOT / "src")
    limits = httpx.Limits(max_connections=50)
    addrs = sorted({source_address(n, args.addresses) for n in range(max(1, args.addresses))})
    https = {a: httpx.AsyncClient(timeout=30.0, limits=httpx.Limits(max_connections=10),
                                  transport=httpx.AsyncHTTPTransport(local_address=a)) for a in addrs}
    rss: list[float] = []
    try:
        async with httpx.AsyncClient(timeout=30.0, limits=limits) as http:
            await wait_ready(http, url)
            rss_task = asyncio.create_task(sample_rss(proc.pid, rss)) if proc else None
            stats = Stats()
            cpu0 = cpu_seconds(proc.pid) if proc else float("nan")
            me0 = time.process_time()
            t0 = time.monotonic()
            deadline = t0 + args.duration
            stats.measure_from = time.perf_counter() + args.warmup
            counter = [0]
            lags: list[float] = []
            lagger = asyncio.create_task(measure_lag(lags, http, url, args.warmup))
            hostile = None
            if args.hostile:
                import multiprocessing

                hostile_out: Any = multiprocessing.get_context("spawn").Queue()
                hostile = multiprocessing.get_context("spawn").Process(
                    target=hostile_process, args=(url, time.time() + args.warmup / 2, time.time() + args.duration,
                                                  args.flooders, hostile_out, args.hostile_nice,
                                                  args.attacks, args.attacker_cpus))
                hostile.start()
            flood = None
            if args.flooders and not args.hostile:
                import multiprocessing

                results: Any = multiprocessing.get_context("spawn").Queue()
                flood = multiprocessing.get_context("spawn").Process(
                    target=flood_process, args=(url, args.flooders, time.time() + args.duration, results))
                flood.start()
            await asyncio.gather(*(slot(https, url, args, k, counter, stats, deadline) for k in range(args.games)))
            attacks: dict[str, int] = {}
            if hostile is not None:
                attacks = await asyncio.to_thread(hostile_out.get, True, 120)
                hostile.join(10)
            if flood is not None:
                stats.flood_sent, stats.flood_closed = await asyncio.to_thread(results.get, True, 60)
                flood.join(10)
            wall = time.monotonic() - t0
            cpu1 = cpu_seconds(proc.pid) if proc else float("nan")
            me1 = time.process_time()
            lagger.cancel()
            if rss_task is not None:
                rss_task.cancel()
            health = (await http.get(url + "/healthz")).json()
    finally:
        for c in https.values():
            await c.aclose()
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
        "server_src": args.url or str(Path(args.src).resolve() if args.src else ROOT / "src"),
        "games_concurrent": args.games, "think_s": args.think, "warmup_s": args.warmup,
        "server_workers": args.workers, "store": "postgresql" if args.database else "sqlite",
        "rtt_samples": len(r), "bot": args.bot, "lineup": args.lineup,
        "wall_s": round(wall, 2), "games_started": stats.started, "games_finished": stats.finished,
        "actions": stats.actions, "actions_per_s": round(stats.actions / wall, 1),
        "hostile": bool(args.hostile), "hostile_nice": args.hostile_nice if args.hostile else None,
        "attacker_cpus": sorted(args.attacker_cpus), "victim_cpus": sorted(os.sched_getaffinity(0)),
        "hostile_attacks": list(args.attacks) if args.hostile else [], "attacks": attacks if args.hostile else {},
        "server_rss_mb": {"start": round(rss[0], 1) if rss else None, "peak": round(max(rss), 1) if rss else None,
                          "end": round(rss[-1], 1) if rss else None},
        "rtt_ms": {"p50": round(pct(r, 50) * 1e3, 2), "p90": round(pct(r, 90) * 1e3, 2),
                   "p95": round(pct(r, 95) * 1e3, 2),
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
    p.add_argument("--hostile", action="store_true",
                   help="run issue 12's hostile mix next to the normal games (see above)")
    p.add_argument("--hostile-nice", type=int, default=0, metavar="N",
                   help="run the hostile mix's process N steps nicer (lower CPU priority; 19 at most), as if the "
                        "attacker's own CPU were another machine's (default 0: it competes as an equal)")
    p.add_argument("--attacker-cpus", default="", metavar="LIST",
                   help="pin the hostile mix to these CPUs (comma-separated: 1 or 2,3) and this script, the server "
                        "and its database to the other CPUs (from the start, with or without --hostile, so both "
                        "runs meet the same CPUs): as if the attacker had a machine of its own, where "
                        "--hostile-nice still shares the CPUs")
    p.add_argument("--attacks", default=",".join(ATTACKS), metavar="LIST",
                   help=f"with --hostile, the attacks that run, comma-separated (default all: {','.join(ATTACKS)}; "
                        "'flood' needs --flooders N)")
    p.add_argument("--addresses", type=int, default=50,
                   help="loopback source addresses the normal games' clients use (127.0.1.1 ...)")
    p.add_argument("--url", default=None, help="use a running server (loopback only) instead of starting one")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="serve --workers N: N server processes on one port on PostgreSQL (--database, else a "
                        "throwaway PostgreSQL cluster as the tests start one, tests/pg_fixture.py)")
    p.add_argument("--database", default=None, metavar="URL",
                   help="the server's --database (postgresql://...; 'throwaway': a throwaway PostgreSQL cluster)")
    p.add_argument("--src", default=None,
                   help="run the server from this source folder (another checkout's src/, e.g. a git worktree "
                        "of an older commit) instead of this checkout's, to compare two commits with the same load")
    p.add_argument("--json", action="store_true", help="print the report as JSON only")
    args = p.parse_args()
    if args.games < 1 or args.games > 2000 or args.duration <= 0 or args.duration > 600:
        raise SystemExit("--games must be 1..2000 and --duration 0..600 s")
    args.attacks = tuple(a.strip() for a in args.attacks.split(",") if a.strip())
    unknown = [a for a in args.attacks if a not in ATTACKS]
    if unknown or not args.attacks:
        raise SystemExit(f"--attacks: unknown {', '.join(unknown) or '(none given)'}; choose from {', '.join(ATTACKS)}")
    try:
        args.attacker_cpus = frozenset(int(c) for c in args.attacker_cpus.split(",") if c.strip())
    except ValueError:
        raise SystemExit(f"--attacker-cpus {args.attacker_cpus!r}: give CPU numbers, comma-separated (1 or 2,3)")
    if args.attacker_cpus:
        cpus = os.sched_getaffinity(0)
        if not args.attacker_cpus < cpus:
            raise SystemExit(f"--attacker-cpus {','.join(map(str, sorted(args.attacker_cpus)))}: this process may run "
                             f"on CPUs {sorted(cpus)}; name some of them, and leave at least one to the server")
        os.sched_setaffinity(0, cpus - args.attacker_cpus)   # inherited by the server and the database
    # The load client is the measuring tool, not the system under test: keep its own garbage
    # collector from adding pauses to the round trips it measures (its garbage is acyclic).
    gc.collect()
    gc.freeze()
    gc.disable()
    pg = None
    if args.workers > 1 and not args.database:
        args.database = "throwaway"
    if args.database == "throwaway":   # initdb in a temporary folder (PostgreSQL's binaries must be installed)
        sys.path.insert(0, str(ROOT / "tests"))
        from pg_fixture import PgCluster, find_pg_bin
        bindir = find_pg_bin()
        if bindir is None:
            raise SystemExit("--workers needs PostgreSQL: install it (scripts/install-postgres.sh) or give --database")
        pg = PgCluster(bindir)
        pg.start()
        args.database = pg.create_database()
    if args.database:
        SERVER_EXTRA.extend(["--database", args.database])
    if args.workers > 1:
        SERVER_EXTRA.extend(["--workers", str(args.workers)])
    try:
        report = asyncio.run(main_async(args))
    finally:
        if pg is not None:
            pg.stop()
    if args.json:
        print(json.dumps(report))
        return
    rt = report["rtt_ms"]
    print(f"{report['games_concurrent']} concurrent games ({report['lineup']}, client bot {report['bot']}, "
          f"think {report['think_s']} s) for {report['wall_s']} s; server: {report['server_src']}")
    print(f"  games started {report['games_started']}, finished {report['games_finished']}")
    print(f"  server workers {report['server_workers']} on {report['store']}; load average "
          f"{' '.join(f'{x:.2f}' for x in report['load_average'])}")
    print(f"  actions {report['actions']}  throughput {report['actions_per_s']} actions/s")
    print(f"  round trip ({report['rtt_samples']} actions after {report['warmup_s']} s warm-up) ms: "
          f"p50 {rt['p50']}  p90 {rt['p90']}  p95 {rt['p95']}  p99 {rt['p99']}  max {rt['max']}  mean {rt['mean']}")
    print(f"  server memory MB: {report['server_rss_mb']}")
    if report["hostile"]:
        print("  hostile mix, answers by kind:")
        for k, v in sorted(report["attacks"].items()):
            print(f"    {k}: {v}")
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
