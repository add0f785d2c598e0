"""Several server processes on one PostgreSQL database (server/cluster.py; issue 22, "Beyond one process").

Real processes on the throwaway PostgreSQL of tests/pg_fixture.py: two ``--cluster`` servers on two
ports serve the same game (a player on each, a spectator on the second sees every update); a
``--workers 2`` server on one port has the worker that owns the games killed with -9 mid-play, and
the games go on on the other worker with nothing acknowledged lost; the creation rate holds across
processes; more than one worker without PostgreSQL is refused; an adjustment request made on one
server reaches the other's connections, and one still waiting reaches a connection that joins there.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import httpx
import psycopg
import pytest

from christianity_game import Game
from christianity_game.bots import make_bot
from christianity_game.server.client import SeatClient
from test_server_crash import ROOT, _is_disconnect, free_port


class ClusterServer:
    """``python -m christianity_game.server --cluster`` (or ``--workers N``) as a real process."""

    def __init__(self, tmp: Path, name: str, pg_url: str, *extra: str, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.logpath = tmp / f"{name}.log"
        self.log = open(self.logpath, "ab")
        self.args = [sys.executable, "-m", "christianity_game.server", "--host", "127.0.0.1", "--port",
                     str(self.port), "--data-dir", str(tmp / name), "--database", pg_url, "--bot-delay", "0",
                     "--log-level", "warning", *extra]
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.proc = subprocess.Popen(self.args, stdout=self.log, stderr=self.log, env=env)

    def ready(self, timeout: float = 60.0, workers: int = 1) -> None:
        """Up, every one of its ``workers`` listening (each answers /healthz with its own id)."""
        seen: set[str] = set()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc is not None and self.proc.poll() is None, self.tail()
            try:
                with httpx.Client(timeout=2) as http:   # a new connection each time: any worker may answer
                    r = http.get(self.url + "/healthz")
                if r.status_code == 200 and r.json()["cluster"]["listening"]:
                    seen.add(r.json()["cluster"]["worker"])
                    if len(seen) >= workers:
                        return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise AssertionError(f"the server did not come up ({len(seen)} workers)\n" + self.tail())

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.log.close()

    def tail(self) -> str:
        self.log.flush()
        return self.logpath.read_text(errors="replace")[-4000:]


async def watch(ws_url: str, token: str, seen: list[dict[str, Any]], stop: asyncio.Event) -> None:
    """A spectator: every message it gets, in order."""
    from websockets.asyncio.client import connect
    async with connect(ws_url, compression=None, max_size=1 << 24, ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), 0.2)
            except asyncio.TimeoutError:
                continue
            seen.append(json.loads(text))
            if seen[-1].get("view", {}).get("result") is not None:
                return


async def keep_playing(client: SeatClient, done: asyncio.Event, urls: list[str] | None = None) -> None:
    """Play to the end; whenever the connection drops, reconnect (to the next of ``urls``, if given)."""
    turn = 0
    while not client.over and not done.is_set():
        try:
            await client.run(done, open_timeout=2.0)
        except Exception as exc:   # noqa: BLE001 - the worker went away
            if client.over or done.is_set():
                return
            if not _is_disconnect(exc):
                raise
            if urls:
                turn += 1
                client.ws_url = urls[turn % len(urls)]
            await asyncio.sleep(0.1)


def check_record(url: str, game_id: str, clients: list[SeatClient]) -> dict[str, Any]:
    """The finished game's record holds every acknowledged action at its place, and replays to each
    client's last view."""
    record = httpx.get(f"{url}/api/games/{game_id}/record", timeout=10).json()
    replayed = Game.from_record(record)
    assert replayed.result is not None
    for c in clients:
        for sid, action in c.acked:
            assert record["actions"][sid - 1] == action, "an acknowledged action was lost or moved"
        assert c.view == json.loads(json.dumps(replayed.view(c.seat)))
        assert not c.problems, c.problems
    return record


@contextmanager
def two_servers(tmp_path: Path, pg_url: str, *extra: str) -> Iterator[tuple["ClusterServer", "ClusterServer"]]:
    """Servers ``a`` and ``b`` on one database (``extra``: their flags, e.g. ``--cluster``), both
    started and ready; both stopped afterwards, however the test ends."""
    a = ClusterServer(tmp_path, "a", pg_url, *extra)
    b = ClusterServer(tmp_path, "b", pg_url, *extra)
    a.start()
    b.start()
    try:
        a.ready()
        b.ready()
        yield a, b
    finally:
        a.stop()
        b.stop()


def test_two_servers_on_one_database_serve_the_same_game(pg_url: str, tmp_path: Path) -> None:
    """A coop game created on server A: seat 0 plays on A, seat 1 on B (its actions forwarded to A,
    the owner), a spectator watches on B. Everyone sees every update, in order; every action of
    either seat is acknowledged and stored."""
    with two_servers(tmp_path, pg_url, "--cluster") as (a, b):
        game = httpx.post(a.url + "/api/games", json={"mode": "coop", "lineup": "RR", "seed": 5}, timeout=10).json()
        gid = game["game_id"]
        with psycopg.connect(pg_url) as db:
            owner = db.execute("SELECT owner FROM leases WHERE game_id=%s", (gid,)).fetchone()
        assert owner is not None and owner[0] == httpx.get(a.url + "/healthz").json()["cluster"]["worker"]
        on_b = game["ws"].replace(str(a.port), str(b.port))
        spectator = game["spectator"]["token"]
        seats = [s for s in game["seats"] if s["kind"] == "human"]
        clients = [SeatClient(game["ws"], seats[0]["token"], make_bot("heuristic", seed=1), think=0.005),
                   SeatClient(on_b, seats[1]["token"], make_bot("random", seed=2), think=0.005)]

        async def play() -> list[dict[str, Any]]:
            seen: list[dict[str, Any]] = []
            done = asyncio.Event()
            watcher = asyncio.create_task(watch(on_b, spectator, seen, done))
            await asyncio.sleep(0.3)   # the spectator is in before the first action
            try:
                try:
                    await asyncio.wait_for(asyncio.gather(*(keep_playing(c, done) for c in clients)), 60)
                    await asyncio.wait_for(watcher, 10)
                except asyncio.TimeoutError:
                    state = [(c.seat, c.state_id, c.over, c.errors, c._sent, c.problems) for c in clients]
                    raise AssertionError(f"the game stalled: {state}, the spectator at "
                                         f"{seen[-1].get('state_id') if seen else None}\n{a.tail()}\n{b.tail()}")
            finally:
                done.set()
                watcher.cancel()
            return seen

        seen = asyncio.run(play())
        record = check_record(a.url, gid, clients)
        assert all(len(c.acked) > 5 for c in clients), [len(c.acked) for c in clients]
        assert sum(c.connects for c in clients) == 2, "a client was cut off"
        # the spectator on B: a welcome, then one update per action, none missed, the last one the end
        assert seen[0]["type"] == "welcome"
        updates = [m for m in seen if m["type"] == "update"]
        assert [m["state_id"] for m in updates] == list(range(seen[0]["state_id"] + 1, updates[-1]["state_id"] + 1))
        assert len(seen[0]["events"]) + len(updates) >= len(record["actions"]) - seen[0]["state_id"]
        assert updates[-1]["view"] == json.loads(json.dumps(Game.from_record(record).view(None)))
        assert not any(m["type"] == "error" for m in seen), seen
        # both servers serve the finished game's record and summary
        assert httpx.get(f"{b.url}/api/games/{gid}/record", timeout=10).json()["actions"] == record["actions"]
        for srv in (a, b):
            health = httpx.get(srv.url + "/healthz", timeout=5).json()
            assert health["ok"] is True and health["cluster"]["workers"] == 2, health


def _owner_pid(pg_url: str, game_id: str, missing: Any = AssertionError) -> Any:
    """The pid of the process holding ``game_id``'s live lease (none: ``missing``, or fail)."""
    with psycopg.connect(pg_url) as db:
        row = db.execute("SELECT w.pid FROM leases l JOIN workers w ON w.id = l.owner WHERE l.game_id=%s "
                         "AND l.expires_at > now()", (game_id,)).fetchone()
    if row is None:
        assert missing is not AssertionError, "the game has no owner"
        return missing
    return int(row[0])


def test_a_worker_killed_mid_game_hands_its_games_to_another(pg_url: str, tmp_path: Path) -> None:
    """``serve --workers 2``: the worker owning two games in play is killed with -9. Within a few
    seconds the other worker owns them, the clients (reconnecting to the same port) go on playing to
    the end, and every action ever acknowledged is in the record."""
    srv = ClusterServer(tmp_path, "w", pg_url, "--workers", "2")
    srv.start()
    try:
        srv.ready(workers=2)
        games = [httpx.post(srv.url + "/api/games", json=body, timeout=10).json()
                 for body in ({"mode": "coop", "lineup": "RR", "seed": 11},
                              {"mode": "coop", "lineup": "RR", "seed": 12, "bots": {"1": "heuristic"}})]
        clients = [SeatClient(g["ws"], s["token"], make_bot("random", seed=s["seat"]), think=0.01)
                   for g in games for s in g["seats"] if s["kind"] == "human"]

        async def play() -> float:
            done = asyncio.Event()
            tasks = [asyncio.create_task(keep_playing(c, done)) for c in clients]
            try:
                while sum(len(c.acked) for c in clients) < 10:
                    await asyncio.sleep(0.05)
                    assert not all(t.done() for t in tasks), "the games ended before the kill"
                victim = _owner_pid(pg_url, games[0]["game_id"])
                theirs = [(g["game_id"], g["ws"]) for g in games if _owner_pid(pg_url, g["game_id"]) == victim]
                os.kill(victim, signal.SIGKILL)
                killed = time.monotonic()

                def moved_off() -> bool:   # every game of the victim still in play has another owner
                    return all(all(c.over for c in clients if c.ws_url == ws) or _owner_pid(pg_url, gid, None) not in
                               (victim, None) for gid, ws in theirs)

                while not moved_off():
                    assert time.monotonic() - killed < 20, "the games did not move\n" + srv.tail()
                    await asyncio.sleep(0.05)
                moved = time.monotonic() - killed
                before = {c: len(c.acked) for c in clients}
                # and play goes on there: each of those games acknowledges an action after the move
                while not all(any(len(c.acked) > before[c] or c.over for c in clients if c.ws_url == ws)
                              for _, ws in theirs):
                    assert time.monotonic() - killed < 30, "no action was acknowledged after the move\n" + srv.tail()
                    await asyncio.sleep(0.05)
                await asyncio.wait_for(asyncio.gather(*tasks), 90)
                return moved
            finally:
                done.set()
                for t in tasks:
                    t.cancel()

        moved = asyncio.run(play())
        print(f"the killed worker's games moved in {moved:.2f} s")
        assert moved < 10, f"the games moved only after {moved:.1f} s"
        for g in games:
            check_record(srv.url, g["game_id"], [c for c in clients if c.ws_url == g["ws"]])
        # (the clients connected to the killed worker reconnected to the port and landed on the other;
        # those on the other all along saw their games move without a break)
    finally:
        srv.stop()


def test_the_creation_rate_holds_across_processes(pg_url: str, tmp_path: Path) -> None:
    """``--create-burst 3``: three games created on A and B together, the fourth refused on either."""
    extra = ("--cluster", "--create-burst", "3", "--create-rate", "0.01")
    with two_servers(tmp_path, pg_url, *extra) as (a, b):
        body = {"mode": "solo", "lineup": "R"}
        codes = [httpx.post(s.url + "/api/games", json=body, timeout=10).status_code for s in (a, b, a)]
        assert codes == [201, 201, 201]
        for s in (a, b):
            r = httpx.post(s.url + "/api/games", json=body, timeout=10)
            assert r.status_code == 429 and r.json()["code"] == "create_rate_limited", r.text


def test_several_workers_need_postgresql(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from christianity_game.cli import app as cli_app
    r = CliRunner().invoke(cli_app, ["serve", "--workers", "2", "--data", str(tmp_path)])
    assert r.exit_code != 0 and "need PostgreSQL" in r.output
    from christianity_game.server.app import create_app
    from christianity_game.server.store import StoreError
    with pytest.raises(StoreError, match="need PostgreSQL"):
        create_app(tmp_path, cluster=True)


def test_a_lone_server_and_a_cluster_do_not_share_a_database(pg_url: str) -> None:
    from christianity_game.server.store import StoreError
    from christianity_game.server.store_pg import PostgresStore
    lone = PostgresStore(pg_url, lock_wait_s=0.2)
    try:
        with pytest.raises(StoreError, match="not one of several"):
            PostgresStore(pg_url, lock_wait_s=0.2, shared=True)
    finally:
        lone.close()
    one, two = PostgresStore(pg_url, shared=True), PostgresStore(pg_url, shared=True)
    try:
        with pytest.raises(StoreError, match="--workers N or --cluster"):
            PostgresStore(pg_url, lock_wait_s=0.2)
    finally:
        one.close()
        two.close()


def test_an_adjustment_request_reaches_the_other_side_on_another_server(pg_url: str, tmp_path: Path) -> None:
    """A duel between people (``manualAdjust: ask``) owned by A: the Righteous player on B asks for a
    Humility adjustment (forwarded to A); the Evil player on A and a spectator on B see the request,
    Evil accepts on A, and everyone gets the update and the outcome."""
    with two_servers(tmp_path, pg_url, "--cluster") as (a, b):
        game = httpx.post(a.url + "/api/games", json={"mode": "duel", "lineup": "ER"}, timeout=10).json()
        assert game["manualAdjust"] == "ask"
        te, tr = (s["token"] for s in game["seats"])
        on_b = game["ws"].replace(str(a.port), str(b.port))

        async def scene() -> None:
            from websockets.asyncio.client import connect

            async def recv(ws: Any, kind: str) -> dict[str, Any]:
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if msg["type"] == kind:
                        return dict(msg)

            async with connect(game["ws"]) as evil, connect(on_b) as good, connect(on_b) as spec:
                await evil.send(json.dumps({"type": "hello", "token": te}))
                await good.send(json.dumps({"type": "hello", "token": tr}))
                await spec.send(json.dumps({"type": "hello", "token": game["spectator"]["token"]}))
                await recv(evil, "welcome")
                view = (await recv(good, "welcome"))["view"]
                await recv(spec, "welcome")
                h = int(view["seats"][1]["humility"])
                await good.send(json.dumps({"type": "action", "token": tr, "state_id": view["state_id"], "ref": 7,
                                            "action": {"type": "AdjustBadge", "badge": "humility", "value": h + 1}}))
                reqs = [await recv(ws, "adjust_request") for ws in (evil, good, spec)]
                assert {(r["by"], r["request"]) for r in reqs} == {(1, reqs[0]["request"])}
                await evil.send(json.dumps({"type": "adjust_answer", "token": te, "request": reqs[0]["request"],
                                            "accept": True}))
                for ws in (evil, good, spec):
                    upd = await recv(ws, "update")
                    assert upd["by"] == 1 and int(upd["view"]["seats"][1]["humility"]) == h + 1
                    assert (await recv(ws, "adjust_resolved"))["outcome"] == "accepted"

        asyncio.run(scene())
        # the request answered the forwarded action (relayed): no stand-in sync for an empty answer
        assert "answered a forwarded action with nothing" not in b.tail()


def test_a_connection_joining_on_another_server_gets_the_waiting_adjustment_requests(pg_url: str,
                                                                                     tmp_path: Path) -> None:
    """A 2v1 duel between people (``manualAdjust: ask``) owned by A. Righteous seat 1 asks on A while B
    holds nothing of the game: a spectator joining on B then gets the request after its welcome (B
    asks A). Seat 2 asks on B (forwarded, relayed back): a later joiner on B gets both, as one on A
    does. Once Evil (on B) accepted the first and declined the second, joiners on B get what still
    waits, then nothing."""
    with two_servers(tmp_path, pg_url, "--cluster") as (a, b):
        game = httpx.post(a.url + "/api/games", json={"mode": "duel", "lineup": "ERR"}, timeout=10).json()
        assert game["manualAdjust"] == "ask"
        te, t1, t2 = (s["token"] for s in game["seats"])
        ts = game["spectator"]["token"]
        on_a, on_b = game["ws"], game["ws"].replace(str(a.port), str(b.port))

        async def scene() -> None:
            from websockets.asyncio.client import connect

            async def recv(ws: Any, kind: str, request: int | None = None) -> dict[str, Any]:
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if msg["type"] == kind and request in (None, msg.get("request")):
                        return dict(msg)

            async def welcome(ws: Any, token: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
                """Join: the welcome, and the adjustment requests sent before a pong asked for after it."""
                await ws.send(json.dumps({"type": "hello", "token": token}))
                w = await recv(ws, "welcome")
                await ws.send(json.dumps({"type": "ping", "ref": "after"}))
                requests = []
                while (msg := json.loads(await asyncio.wait_for(ws.recv(), 10)))["type"] != "pong":
                    if msg["type"] == "adjust_request":
                        requests.append(msg)
                return w, requests

            async def waiting(url: str) -> list[tuple[int, int]]:
                """What a spectator joining through ``url`` is told waits: (request, by) pairs."""
                async with connect(url) as ws:
                    w, requests = await welcome(ws, ts)
                    assert all(r["ref"] is None and r["state_id"] == w["state_id"] for r in requests), requests
                    return sorted((r["request"], r["by"]) for r in requests)

            def ask(seat: int, view: dict[str, Any], ref: Any = None) -> str:
                h = int(view["seats"][seat]["humility"])
                return json.dumps({"type": "action", "token": (te, t1, t2)[seat], "state_id": view["state_id"],
                                   "ref": ref, "action": {"type": "AdjustBadge", "badge": "humility", "value": h + 1}})

            async with connect(on_a) as one:
                view = (await welcome(one, t1))[0]["view"]
                await one.send(ask(1, view, ref=7))
                r1 = (await recv(one, "adjust_request"))["request"]
                async with connect(on_b) as spec, connect(on_b) as evil, connect(on_b) as two:
                    assert [(r["request"], r["by"], r["answerers"]) for r in (await welcome(spec, ts))[1]] == \
                        [(r1, 1, [0])]   # B asked A: it held nothing of the game before
                    assert [r["request"] for r in (await welcome(evil, te))[1]] == [r1]
                    w2, before = await welcome(two, t2)
                    assert [r["request"] for r in before] == [r1]
                    await two.send(ask(2, w2["view"]))   # forwarded to A, relayed back to B
                    r2 = (await recv(spec, "adjust_request"))["request"]
                    assert r2 != r1 and (await recv(two, "adjust_request"))["request"] == r2
                    assert await waiting(on_b) == await waiting(on_a) == [(r1, 1), (r2, 2)]
                    await evil.send(json.dumps({"type": "adjust_answer", "token": te, "request": r1, "accept": True}))
                    assert (await recv(spec, "adjust_resolved", r1))["outcome"] == "accepted"
                    assert await waiting(on_b) == [(r2, 2)]
                    await evil.send(json.dumps({"type": "adjust_answer", "token": te, "request": r2, "accept": False}))
                    assert (await recv(spec, "adjust_resolved", r2))["outcome"] == "declined"
                    assert await waiting(on_b) == [] and await waiting(on_a) == []

        asyncio.run(asyncio.wait_for(scene(), 90))


def test_a_lobby_join_on_another_server_is_the_owners(pg_url: str, tmp_path: Path) -> None:
    """A game with an open seat, owned by A: joining it through B's lobby takes the seat on A (B
    forwards the join), the new token plays on either server, and the seat is then taken for both."""
    with two_servers(tmp_path, pg_url, "--cluster") as (a, b):
        game = httpx.post(a.url + "/api/games", json={"mode": "coop", "lineup": "RR", "access": {"1": "open"}},
                          timeout=10).json()
        gid = game["game_id"]
        joined = httpx.post(f"{b.url}/api/games/{gid}/join", json={"name": "Bea"}, timeout=10)
        assert joined.status_code == 200, joined.text
        assert joined.json()["seat"] == 1
        token = joined.json()["token"]
        for srv in (a, b):
            again = httpx.post(f"{srv.url}/api/games/{gid}/join", json={}, timeout=10)
            assert again.status_code == 409 and again.json()["code"] == "no_free_seat", again.text

        async def hello(url: str) -> dict[str, Any]:
            from websockets.asyncio.client import connect
            async with connect(url) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                return dict(json.loads(await asyncio.wait_for(ws.recv(), 10)))

        for url in (game["ws"], game["ws"].replace(str(a.port), str(b.port))):
            welcome = asyncio.run(hello(url))
            assert (welcome["type"], welcome["seat"], welcome["role"]) == ("welcome", 1, "player"), welcome
        seats = httpx.get(f"{b.url}/api/games/{gid}", timeout=10).json()["seats"]
        assert seats[1]["claimed"] is True and seats[1]["name"] == "Bea"
        # an open seat taken through its link on B is taken for A's lobby too
        other = httpx.post(a.url + "/api/games", json={"mode": "coop", "lineup": "RR", "access": {"1": "open"}},
                           timeout=10).json()
        token = other["seats"][1]["token"]
        assert asyncio.run(hello(other["ws"].replace(str(a.port), str(b.port))))["seat"] == 1
        late = httpx.post(f"{a.url}/api/games/{other['game_id']}/join", json={}, timeout=10)
        assert late.status_code == 409 and late.json()["code"] == "no_free_seat", late.text


def test_each_process_enforces_its_share_of_the_connection_caps() -> None:
    """Rate limits and quotas hold across processes: with N live processes each one admits the
    per-address and total connection caps, the HTTP rate and a game's links (each seat's, its
    spectators') divided by N, rounded up, never below one; one process keeps the limits."""
    from christianity_game.server.leases import shared_limits
    from christianity_game.server.limits import Limits

    lim = Limits()
    assert shared_limits(lim, 1) is lim
    two = shared_limits(lim, 2)
    assert (two.conns_per_game, two.conns_per_seat) == (16, 2)
    assert (two.conns_per_address, two.conns_total) == (32, 2000)
    assert two.http_rate == lim.http_rate / 2 and two.http_burst == 100
    many = shared_limits(lim, 64)
    assert many.conns_per_seat == 1 and many.conns_per_game == 1   # a seat can always connect somewhere
    assert two.rate == lim.rate and two.create_burst == lim.create_burst   # per connection / in the database


# --------------------------------------------------------------------------- forwarding never ends in silence
class _Conn:
    """What ``Cluster._forward`` uses of a connection: who it is, and what it is told."""

    role, seat, thash, closing = "player", 1, "h", False

    def __init__(self) -> None:
        self.errors: list[tuple[str, Any]] = []

    def error(self, code: str, message: str, ref: Any = None) -> None:
        self.errors.append((code, ref))


def _follower(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any, list[tuple[Any, ...]]]:
    """A ``Cluster`` of a process that does not own game ``g`` (no database: its calls are
    replaced by each test), with short time limits; the syncs it sends are listed."""
    import collections
    import types

    from christianity_game.server import cluster as C
    monkeypatch.setattr(C, "FORWARD_TIMEOUT_S", 0.2)
    peers = object.__new__(C.Cluster)
    syncs: list[tuple[Any, ...]] = []
    room = types.SimpleNamespace(game_id="g", game=types.SimpleNamespace(state_id=7, actions=[]))
    peers.server = types.SimpleNamespace(rooms={"g": room},
                                         updates=types.SimpleNamespace(sync=lambda *a: syncs.append(a)))
    peers.lease_s = 0.1
    peers._inflight = collections.Counter({"g": 1})
    peers._owners, peers._acks = {}, {}

    async def caught_up(game_id: str, wait: bool = True, force: bool = False) -> None:
        return None
    peers._catch_up = caught_up
    return peers, room, syncs


def test_a_forwarded_action_whose_owner_lookup_hangs_is_answered_with_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """The database call that names a game's owner never returns: the client still hears, within
    the forwarding time limit, that its action was not handled (it used to wait in silence)."""
    peers, room, _ = _follower(monkeypatch)

    async def never(game_id: str) -> str | None:
        await asyncio.Event().wait()
        return None
    peers._owner_of = never
    conn = _Conn()
    t = time.monotonic()
    asyncio.run(asyncio.wait_for(peers._forward(conn, room, "{}", "r1", 7), 5))
    assert conn.errors == [("storage_error", "r1")] and time.monotonic() - t < 3
    assert "g" not in peers._inflight


def test_a_forwarded_action_the_owner_answers_with_nothing_gets_the_games_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """An owner's answer with no items (no ack, error or sync) for an action: the client is sent the
    game's state (a sync), so it acts again instead of waiting for an answer that never comes."""
    peers, room, syncs = _follower(monkeypatch)

    async def empty(conn: Any, gid: str, text: str, deadline: float) -> tuple[dict[str, Any], bool]:
        return {"items": []}, False
    peers._ask_owner = empty
    conn = _Conn()
    asyncio.run(peers._forward(conn, room, "{}", "r2", 7))
    assert conn.errors == [] and syncs == [(conn, room, 7, "stale_state", "r2")]
    syncs.clear()
    asyncio.run(peers._forward(conn, room, "{}", "r3", None))   # an adjustment answer: relayed, nothing more
    assert syncs == [] and conn.errors == []


def test_a_forwarded_adjustment_request_is_answered_by_its_relay_not_by_a_sync(monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat's AdjustBadge at a ``manualAdjust: ask`` table, forwarded: the owner's stand-in
    connection is sent the request, which reaches the asker through the relay to every process. The
    owner's answer says so (an item, not nothing), so the follower sends no stand-in sync and logs
    no warning of an empty answer."""
    import types

    from christianity_game.server import cluster as C
    peers, room, syncs = _follower(monkeypatch)
    answered: list[dict[str, Any]] = []
    peers._answer = lambda msg, body: answered.append(body)
    proxy = types.SimpleNamespace(room=None, closed_with=None,
                                  texts=[('{"type":"adjust_request","game_id":"g","request":3}', 0)])
    C.Cluster._reply(peers, proxy, {"id": 1, "reply": "w2"})
    assert answered == [{"items": [{"relayed": True}]}]

    async def owner(conn: Any, gid: str, text: str, deadline: float) -> tuple[dict[str, Any], bool]:
        return answered[0], False
    peers._ask_owner = owner
    conn = _Conn()
    asyncio.run(peers._forward(conn, room, "{}", "r4", 7))
    assert syncs == [] and conn.errors == []
