"""The FastAPI app: lobby API, WebSocket endpoint, placeholder page and static files."""

from __future__ import annotations

import asyncio
import fcntl
import os
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect

from . import protocol as P
from .core import Conn, GameServer, Limits, LobbyError
from .store import StoreError

STATIC_DIR = Path(__file__).parent / "static"
DATA_ENV = "CHRISTIANITY_GAME_DATA"


def default_data_dir() -> Path:
    """``$CHRISTIANITY_GAME_DATA``, or ``./data``."""
    return Path(os.environ.get(DATA_ENV) or "data")


def _lock(data_dir: Path) -> int:
    """An exclusive lock on the data folder: two servers on one SQLite file would fork the games."""
    data_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(data_dir / "server.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise StoreError(f"another server is using the data folder {data_dir}") from None
    return fd


def create_app(data_dir: str | Path | None = None, bot_delay: float = 0.3, limits: Limits | None = None,
               synchronous: str | None = None, freeze_gc: bool = False) -> FastAPI:
    """The server app for one data folder (opened when the app starts, closed when it stops)."""
    folder = Path(data_dir) if data_dir is not None else default_data_dir()
    sync = synchronous or os.environ.get("CHRISTIANITY_GAME_SYNC", "NORMAL")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        fd = _lock(folder)
        server = GameServer(folder, bot_delay=bot_delay, limits=limits, synchronous=sync, freeze_gc=freeze_gc)
        app.state.server = server
        server.start()
        try:
            yield
        finally:
            await server.stop()
            os.close(fd)

    app = FastAPI(title="Christianity Strategy Card Game server",
                  description="Lobby API. The game itself is played over the WebSocket `/ws/{game_id}`: "
                              "see docs/protocol.md.",
                  version="1", lifespan=lifespan)

    def srv(request: Request | WebSocket) -> GameServer:
        return request.app.state.server  # type: ignore[no-any-return]

    @app.exception_handler(LobbyError)
    async def lobby_error(request: Request, exc: LobbyError) -> JSONResponse:
        return JSONResponse({"code": exc.code, "message": exc.message}, status_code=exc.status)

    errors: dict[int | str, dict[str, Any]] = {s: {"model": P.ApiError} for s in (400, 403, 404, 409)}

    @app.get("/healthz")
    async def healthz(request: Request, reset_lag: bool = False) -> dict[str, Any]:
        """Liveness, and the event loop's lag over the last minute (``reset_lag`` starts it afresh)."""
        s = srv(request)
        if reset_lag:
            s.reset_stats()
        conns = sum(len(r.conns) for r in s.rooms.values())
        return {"ok": True, "games_loaded": len(s.rooms), "connections": conns, "loop_lag_ms": s.loop_lag_ms(),
                "gc": s.gc_report()}

    @app.post("/api/games", response_model=P.CreatedGame, status_code=201, responses=errors)
    async def create_game(body: P.CreateGame, request: Request) -> dict[str, Any]:
        """Create a game. Query parameters are taken as settings (`?evilInterrupt=0&soloFee=2`)."""
        extra = dict(request.query_params)
        return srv(request).create_game(body, extra, str(request.base_url))

    @app.get("/api/games", response_model=list[P.GameSummary])
    async def open_games(request: Request, limit: int = Query(100, ge=1, le=500)) -> list[dict[str, Any]]:
        """Listed games, not over, that still have a free human seat (newest first)."""
        return srv(request).open_games(limit)

    @app.get("/api/games/{game_id}", response_model=P.GameSummary, responses=errors)
    async def game_summary(game_id: str, request: Request) -> dict[str, Any]:
        return srv(request).game_summary(game_id)

    @app.post("/api/games/{game_id}/join", response_model=P.Joined, responses=errors)
    async def join(game_id: str, request: Request, body: P.JoinRequest | None = None) -> dict[str, Any]:
        """Take a free human seat: the answer holds the seat's token and link."""
        b = body or P.JoinRequest(seat=None, name=None)
        return srv(request).join(game_id, b.seat, b.name, str(request.base_url))

    @app.get("/api/games/{game_id}/view", responses=errors)
    async def view(game_id: str, request: Request, token: str | None = Query(None),
                   authorization: str | None = Header(None)) -> dict[str, Any]:
        """The view of the token's seat (or the spectator view), as the WebSocket sends it."""
        if token is None and authorization and authorization.lower().startswith("bearer "):
            token = authorization[7:].strip()
        return srv(request).view_for_token(game_id, token)

    @app.get("/api/games/{game_id}/digest", response_model=P.Digest, responses=errors)
    async def digest(game_id: str, request: Request) -> dict[str, Any]:
        """A keyed hash of the whole game state (every view and the record): for checking that a
        restarted server resumed each game exactly. It reveals nothing about hidden cards."""
        return srv(request).digest(game_id)

    @app.get("/api/games/{game_id}/record", responses=errors)
    async def record(game_id: str, request: Request) -> dict[str, Any]:
        """The game record (settings, seed, decks, actions), once the game is over."""
        return srv(request).record(game_id)

    @app.websocket("/ws/{game_id}")
    async def ws_endpoint(ws: WebSocket, game_id: str, token: str | None = Query(None),
                          state_id: int | None = Query(None)) -> None:
        await ws.accept()
        server = srv(ws)
        conn = Conn(ws, server.limits)
        conn.start()
        try:
            room = server.room(game_id)
        except LobbyError as exc:
            conn.error(exc.code, exc.message)
            conn.close(1011 if exc.status >= 500 else 4410 if exc.status == 410 else 4404, exc.code)
            await _drain(conn)
            return
        if room is None:
            conn.error("no_such_game", f"there is no game {game_id!r}")
            conn.close(4404, "no such game")
            await _drain(conn)
            return
        conn.room = room
        if token:
            ident = room.identify(token)
            if ident is None:
                conn.error("wrong_token", "that token is not one of this game's")
            else:
                server.join_conn(conn, room, token, ident, state_id, None)
        try:
            while not conn.closing:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                if text is None and msg.get("bytes") is not None:
                    text = msg["bytes"]
                server.on_message(conn, room, text)
                # Yield after every message: a client's burst of buffered frames is handled
                # between everyone else's, never in one long run.
                pause, conn.pause = conn.pause, 0.0
                await asyncio.sleep(pause)
        except WebSocketDisconnect:
            pass
        finally:
            conn.closing = True
            server.disconnected(conn, room)
            await _drain(conn)

    if STATIC_DIR.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    from .web import install_web   # the browser client's pages: /, /play/{id}, /rules, /cards
    install_web(app)
    return app


async def _drain(conn: Conn, timeout: float = 2.0) -> None:
    """Let the sender flush what is queued (an error, a close), then stop it."""
    task = conn.sender
    if task is None:
        return
    if not task.done():
        if not any(isinstance(i, tuple) for i in list(conn.queue._queue)):  # type: ignore[attr-defined]
            conn.queue.put_nowait((1000, ""))
        try:
            await asyncio.wait_for(asyncio.shield(task), timeout)
        except (asyncio.TimeoutError, Exception):
            task.cancel()


