"""Helpers for the server tests (no tests here): a TestClient app per test, a WebSocket wrapper
that validates every server message against the protocol models and never waits forever, and
snapshots of a game's whole state for "nothing changed" checks."""

from __future__ import annotations

import json
import sqlite3
import time
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import anyio

warnings.filterwarnings("ignore", message=".*httpx.*")

from fastapi.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from christianity_game.server import create_app  # noqa: E402
from christianity_game.server.limits import Limits  # noqa: E402
from christianity_game.server.protocol import parse_server_message  # noqa: E402

ROOMY = Limits(rate=10_000, burst=10_000, create_rate=10_000, create_burst=10_000, games_per_address=10_000,
               bot_games_per_address=1_000, bot_games_total=1_000, http_rate=10_000, http_burst=10_000)


@contextmanager
def running(data_dir: Path, bot_delay: float = 0.0, limits: Limits | None = ROOMY,
            allow_chosen_seeds: bool = True, **kw: Any) -> Iterator[TestClient]:
    """The server app on ``data_dir``, started (lifespan) for the ``with`` block. Tests choose
    their seeds (``allow_chosen_seeds``), which a real server refuses in duels between people."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client = TestClient(create_app(data_dir, bot_delay=bot_delay, limits=limits,
                                       allow_chosen_seeds=allow_chosen_seeds, **kw))
    with client:
        yield client


def stored_rows(data_dir: Path, database: str | None, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The rows of ``sql`` (written with ``?``) in the store a test's server runs on (``database``:
    None for the SQLite file of ``data_dir``, else a PostgreSQL URL), read on a connection of its own."""
    if database is None:
        db = sqlite3.connect(data_dir / "games.sqlite3")
        try:
            return [tuple(r) for r in db.execute(sql, args)]
        finally:
            db.close()
    import psycopg
    with psycopg.connect(database, autocommit=True) as pg:
        return [tuple(r) for r in pg.execute(sql.replace("?", "%s"), args)]  # type: ignore[arg-type]


def stored_exec(data_dir: Path, database: str | None, sql: str, args: tuple[Any, ...] = ()) -> None:
    """Run the statement ``sql`` (written with ``?``) on the store behind the server's back (as
    :func:`stored_rows` reads it), committed when this returns: a test's damage to the stored rows."""
    if database is None:
        db = sqlite3.connect(data_dir / "games.sqlite3")
        try:
            db.execute(sql, args)
            db.commit()
        finally:
            db.close()
        return
    import psycopg
    with psycopg.connect(database, autocommit=True) as pg:
        pg.execute(sql.replace("?", "%s"), args)  # type: ignore[arg-type]


def in_chunks(data: bytes, size: int) -> Iterator[bytes]:
    """``data`` as a streamed request body of ``size``-byte chunks: sent without a Content-Length,
    so a body cap must count the bytes as they come."""
    for i in range(0, len(data), size):
        yield data[i:i + size]


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


class WS:
    """A TestClient WebSocket session with validated, time-limited receives."""

    def __init__(self, session: Any) -> None:
        self.s = session
        self.received: list[dict[str, Any]] = []

    def send(self, msg: Any) -> None:
        if isinstance(msg, (str, bytes)):
            if isinstance(msg, bytes):
                self.s.send_bytes(msg)
            else:
                self.s.send_text(msg)
        else:
            self.s.send_text(json.dumps(msg))

    def raw(self, timeout: float = 10.0) -> dict[str, Any]:
        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await self.s._send_rx.receive()
        return self.s.portal.call(get)  # type: ignore[no-any-return]

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        message = self.raw(timeout)
        if message["type"] == "websocket.close":
            raise WebSocketDisconnect(code=message.get("code", 1000), reason=message.get("reason", ""))
        text = message.get("text")
        if text is None:
            text = message["bytes"].decode()
        parse_server_message(text)   # every message the server sends must match its schema
        data = json.loads(text)
        self.received.append(data)
        return data  # type: ignore[no-any-return]

    def hello(self, token: str | None, state_id: int | None = None) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "hello", "token": token}
        if state_id is not None:
            msg["state_id"] = state_id
        self.send(msg)
        return self.recv()

    def act(self, token: str | None, state_id: int, action: dict[str, Any], ref: Any = None) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "action", "token": token, "state_id": state_id, "action": action}
        if ref is not None:
            msg["ref"] = ref
        self.send(msg)
        return self.recv()

    def ping(self) -> None:
        """The connection still answers (and nothing else was queued before the pong)."""
        self.send({"type": "ping", "ref": "p"})
        msg = self.recv()
        assert msg == {"type": "pong", "ref": "p"}, msg


@contextmanager
def ws(client: TestClient, game_id: str, query: str = "") -> Iterator[WS]:
    with client.websocket_connect(f"/ws/{game_id}{query}") as session:
        yield WS(session)


def play(app: Any, game: dict[str, Any], n: int) -> int:
    """Seat 0 takes ``n`` actions (passing where it can); the state id reached."""
    t0 = game["seats"][0]["token"]
    with ws(app, game["game_id"]) as a:
        view = a.hello(t0)["view"]
        for _ in range(n):
            if not view["pending"] or view["result"] is not None:
                break
            passes = [p for p in view["pending"] if p["type"] == "Pass"]
            view = a.act(t0, view["state_id"], (passes or view["pending"])[0])["view"]
    return int(view["state_id"])


def pings_while_bots_think(client: TestClient, bots_game: dict[str, Any], people: dict[str, Any],
                           moves: int) -> tuple[int, float]:
    """Ping a person's connection to ``people`` while the bots of ``bots_game`` think, until they have
    made ``moves`` (or 60 s): (the bots' state id reached, the slowest ping in seconds). What the
    thinking-bot tests measure: another game's messages are not held up."""
    token = people["seats"][0]["token"]
    gid, spectator = bots_game["game_id"], bots_game["spectator"]["token"]
    with ws(client, people["game_id"]) as conn:
        conn.hello(token)
        slowest = 0.0
        deadline = time.monotonic() + 60
        reached = 0
        while time.monotonic() < deadline and reached < moves:
            t = time.perf_counter()
            conn.ping()   # another game's connection is answered while the bots think
            slowest = max(slowest, time.perf_counter() - t)
            reached = client.get(f"/api/games/{gid}/view", params={"token": spectator}).json()["state_id"]
            time.sleep(0.05)
    return reached, slowest


def snapshot(client: TestClient, game: dict[str, Any]) -> tuple[Any, ...]:
    """The whole state of a game: its keyed digest and every token's view over HTTP."""
    gid = game["game_id"]
    digest = client.get(f"/api/games/{gid}/digest").json()
    tokens = [s["token"] for s in game["seats"] if s.get("token")] + [game["spectator"]["token"]]
    views = [client.get(f"/api/games/{gid}/view", params={"token": t}).json() for t in tokens]
    return digest["state_id"], digest["digest"], json.dumps(views, sort_keys=True)
