"""The FastAPI app: lobby API, WebSocket endpoint, placeholder page and static files."""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import sqlite3
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Iterable, MutableMapping
from urllib.parse import urlsplit

from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect

from . import lobby_models as L
from .conn import RAW_SEND, Conn
from .core import GameServer
from .errors import LobbyError
from .limits import Limits
from .logs import game_log
from .store import DATABASE_ENV, DatabaseError, StoreError, StoreUnavailable, is_postgres, sqlite_location
from .web import link_base

STATIC_DIR = Path(__file__).parent / "static"
DATA_ENV = "CHRISTIANITY_GAME_DATA"
MAX_TARGET = 2000   # bytes of path and query a request may have (414 above: every page's QR code fits)
UNCOUNTED = ("/static/", "/cards/", "/favicon.ico")   # not counted against the HTTP rate limit
#: bodies these take are capped by their own limit (replays: ``Limits.replay_bytes``), not ``body_bytes``
OWN_BODY_CAP = ("/api/replays",)

log = logging.getLogger("christianity_game.server")

#: Sent with every HTTP answer. Only the app's own scripts run (no inline script, no other site);
#: no page may be framed; content types are not sniffed.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
       "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
       "frame-ancestors 'none'")
#: The API's own documentation pages (/docs, /redoc) load FastAPI's viewer from its CDN.
DOCS_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
            "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
            "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
            "font-src 'self' https://fonts.gstatic.com; worker-src blob:; frame-ancestors 'none'")
SECURITY_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"no-referrer")]


class SecurityHeaders:
    """ASGI middleware: security headers on every HTTP answer, and a 414 for over-long targets.
    WebSocket traffic passes untouched (its ``Origin`` is checked by the endpoint)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            # the server's own send, before any wrapping: through it a stuck connection can be cut
            scope[RAW_SEND] = send
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        csp = DOCS_CSP if path in ("/docs", "/redoc") else CSP
        extra = [(b"content-security-policy", csp.encode()), *SECURITY_HEADERS]

        async def send_with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [(k, v) for k, v in extra if k not in have]
            await send(message)

        server = getattr(getattr(scope.get("app"), "state", None), "server", None)
        client = scope.get("client")
        cheap = path.startswith(UNCOUNTED)   # files a page loads by the dozen, served from memory or disk
        if server is not None and not cheap and not server.quotas.allow_http(client[0] if client else ""):
            lim = server.limits
            resp = JSONResponse({"code": "too_many_requests", "message": f"at most {lim.http_rate:g} requests a "
                                 f"second from one address (bursts of {lim.http_burst}); try again shortly"},
                                status_code=429, headers={"Retry-After": "1"})
            await resp(scope, receive, send_with_headers)
            return
        target = len(scope.get("raw_path") or path.encode()) + len(scope.get("query_string") or b"")
        if target > MAX_TARGET:
            resp = JSONResponse({"code": "uri_too_long", "message": f"the address is longer than {MAX_TARGET} bytes"},
                                status_code=414)
            await resp(scope, receive, send_with_headers)
            return
        if server is not None and scope.get("method") in ("POST", "PUT", "PATCH") and not path.startswith(OWN_BODY_CAP):
            body = await capped_body(scope, receive, server.limits.body_bytes)
            if body is None:
                cap = server.limits.body_bytes
                resp = JSONResponse({"code": "body_too_large", "message": f"a request body may hold at most {cap:,} "
                                     "bytes here (a game's settings and seats need a few hundred)"},
                                    status_code=413, headers={"Connection": "close"})
                await resp(scope, receive, send_with_headers)
                return
            receive = replayed_receive(body, receive)
        await self.app(scope, receive, send_with_headers)


async def capped_body(scope: dict[str, Any], receive: Any, cap: int) -> bytes | None:
    """The request's whole body, read here so that no endpoint holds more than ``cap`` bytes of it;
    None as soon as it says (Content-Length) or shows that it is longer (the rest is not read)."""
    for key, value in scope.get("headers") or ():
        if key.lower() == b"content-length":
            try:
                if int(value) > cap:
                    return None
            except ValueError:
                pass   # h11 refuses a malformed length before the app sees the request
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":   # the client went away: nothing to answer
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > cap:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def replayed_receive(body: bytes, receive: Any) -> Any:
    """An ASGI ``receive`` that gives the body already read, then whatever the connection sends
    (its disconnect)."""
    sent = False

    async def again() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        message: dict[str, Any] = await receive()
        return message

    return again


def origin_allowed(origin: str | None, host: str | None, allowed: Iterable[str]) -> bool:
    """A WebSocket's ``Origin``: none (not a browser), this server's own host, or an allowed one."""
    if not origin:
        return True
    allowed = set(allowed)
    if "*" in allowed or origin in allowed:
        return True
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    return bool(host) and netloc.lower() == str(host).lower()


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


#: the environment variable ``serve --variants`` sets: the duel variants of new tables by default
VARIANTS_ENV = "CHRISTIANITY_GAME_VARIANTS"


def create_app(data_dir: str | Path | None = None, bot_delay: float = 0.3, limits: Limits | None = None,
               synchronous: str | None = None, freeze_gc: bool = False, allow_chosen_seeds: bool = False,
               allowed_origins: Iterable[str] = (), public_url: str | None = None,
               default_variants: str | None = None, database: str | None = None, cluster: bool = False) -> FastAPI:
    """The server app for one data folder (opened when the app starts, closed when it stops).

    ``database``: where the games are stored (default ``$CHRISTIANITY_GAME_DATABASE``, which
    ``serve --database`` sets): a PostgreSQL URL (``postgresql://user@host/db``), a SQLite file (a path
    or ``sqlite:///path``), or none: the SQLite file of the data folder (server/store.py).

    ``allow_chosen_seeds``: accept a creator's seed even in a duel between people (tests only).
    ``allowed_origins``: pages of other sites allowed to open WebSockets (``*``: any).
    ``public_url``: the address other devices reach the server at (``http://192.168.1.20:8000``):
    every seat, spectator and join link starts with it (default ``$CHRISTIANITY_GAME_PUBLIC_URL``,
    which ``serve --public-url`` sets).
    ``default_variants``: the duel play-test variants a new duel plays when its request names none
    (a preset such as ``recommended`` or ``alias=value`` pairs; default ``$CHRISTIANITY_GAME_VARIANTS``,
    which ``serve --variants`` sets; none: the printed rules).
    ``cluster``: this server is one of several on one PostgreSQL database (``serve --workers N``,
    ``--cluster``; server/cluster.py); a SQLite store is refused."""
    if public_url is not None and not public_url.startswith(("http://", "https://")):
        raise ValueError("public_url must start with http:// or https://")
    from ..engine.variants import parse_variants
    variants = default_variants if default_variants is not None else os.environ.get(VARIANTS_ENV, "")
    parse_variants(variants)   # a bad value fails the start, with the reason
    origins = tuple(allowed_origins)
    folder = Path(data_dir) if data_dir is not None else default_data_dir()
    sync = synchronous or os.environ.get("CHRISTIANITY_GAME_SYNC", "NORMAL")
    db = database or os.environ.get(DATABASE_ENV) or None
    # one server per store: a SQLite store's folder is locked here; PostgreSQL's lock is the store's own
    lock_dir = None if is_postgres(db) else sqlite_location(db, folder)[0]
    if cluster and not is_postgres(db):
        raise StoreError("several servers on one database (serve --workers N, --cluster) need PostgreSQL: "
                         "give --database postgresql://... (docs/deploy.md); a SQLite file is one server's")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        fd = _lock(lock_dir) if lock_dir is not None else None
        server = GameServer(folder, bot_delay=bot_delay, limits=limits, synchronous=sync, freeze_gc=freeze_gc,
                            allow_chosen_seeds=allow_chosen_seeds, default_variants=variants, database=db,
                            cluster=cluster)
        app.state.server = server
        if cluster:   # cluster hook: leases, forwarding, updates from the other processes (server/cluster.py)
            from .cluster import Cluster
            peers = Cluster(server, str(db))
            server.cluster = peers
            await peers.start()
        server.start()
        try:
            yield
        finally:
            pool = getattr(app.state, "replays", None)   # the replay viewer's worker (server/replays.py)
            if pool is not None:
                pool.shutdown()
            if server.cluster is not None:
                await server.cluster.halt()
            await server.stop()
            if server.cluster is not None:
                await server.cluster.stop()
            if fd is not None:
                os.close(fd)

    app = FastAPI(title="Christianity Strategy Card Game server",
                  description="Lobby API. The game itself is played over the WebSocket `/ws/{game_id}`: "
                              "see docs/protocol.md.",
                  version="1", lifespan=lifespan)
    app.add_middleware(SecurityHeaders)
    app.state.public_url = public_url

    def srv(request: Request | WebSocket) -> GameServer:
        return request.app.state.server  # type: ignore[no-any-return]

    @app.exception_handler(LobbyError)
    async def lobby_error(request: Request, exc: LobbyError) -> JSONResponse:
        return JSONResponse({"code": exc.code, "message": exc.message}, status_code=exc.status)

    @app.exception_handler(sqlite3.DatabaseError)
    @app.exception_handler(DatabaseError)       # PostgreSQL's errors (server/store_pg.py)
    @app.exception_handler(StoreUnavailable)    # the database out of reach for now
    async def storage_damaged(request: Request, exc: Exception) -> JSONResponse:
        log.error("STORAGE: %s %s failed: %s", request.method, request.url.path, exc)
        return JSONResponse({"code": "storage_error", "message": f"the server's storage failed ({exc}); "
                             "the operator has been told"}, status_code=503)

    errors: dict[int | str, dict[str, Any]] = {s: {"model": L.ApiError} for s in (400, 403, 404, 409, 429, 503)}

    @app.get("/healthz")
    async def healthz(request: Request, reset_lag: bool = False) -> dict[str, Any]:
        """Liveness, and the event loop's lag over the last minute (``reset_lag`` starts it afresh);
        ``ok`` is false while the storage has a problem or a game is unavailable."""
        s = srv(request)
        if reset_lag:
            s.health.reset_stats()
        healthy = not (s.storage.problems or s.storage.broken)
        return {"ok": healthy, "games_loaded": len(s.rooms), "connections": s.quotas.conns_total,
                "loop_lag_ms": s.health.loop_lag_ms(), "gc": s.health.gc_report(),
                "storage_problems": s.claims.report(), "unverified_state_claims": s.claims.unverified,
                "unavailable_games": len(s.storage.broken),
                **({"cluster": s.cluster.report()} if s.cluster is not None else {})}

    @app.post("/api/games", response_model=L.CreatedGame, status_code=201, responses=errors)
    async def create_game(body: L.CreateGame, request: Request) -> dict[str, Any]:
        """Create a game. Query parameters are taken as settings (`?evilInterrupt=0&soloFee=2`)."""
        extra = dict(request.query_params)
        addr = request.client.host if request.client else ""
        server = srv(request)
        if server.cluster is not None:   # cluster hook: the creation rate counted across processes
            await server.cluster.check_create_rate(server.quotas.owner_key(addr))
        out = server.lobby.create_game(body, extra, link_base(request), addr)
        if server.cluster is not None:   # cluster hook: the creating process owns the new game
            await server.cluster.adopt(out["game_id"])
        return out

    @app.get("/api/games", response_model=list[L.GameSummary])
    async def open_games(request: Request, limit: int = Query(100, ge=1, le=500)) -> list[dict[str, Any]]:
        """Listed games, not over, that still have a free human seat (newest first)."""
        return srv(request).lobby.open_games(limit)

    @app.get("/api/games/{game_id}", response_model=L.GameSummary, responses=errors)
    async def game_summary(game_id: str, request: Request) -> dict[str, Any]:
        return srv(request).lobby.game_summary(game_id)

    @app.post("/api/games/{game_id}/join", response_model=L.Joined, responses=errors)
    async def join(game_id: str, request: Request, body: L.JoinRequest | None = None) -> dict[str, Any]:
        """Take a free human seat: the answer holds the seat's token and link."""
        b = body or L.JoinRequest(seat=None, name=None)
        server = srv(request)
        if server.cluster is not None:   # cluster hook: joined on the game's owner
            return await server.cluster.join(game_id, b.seat, b.name, link_base(request))
        return server.lobby.join(game_id, b.seat, b.name, link_base(request))

    @app.get("/api/games/{game_id}/view", responses=errors)
    async def view(game_id: str, request: Request, token: str | None = Query(None),
                   authorization: str | None = Header(None)) -> dict[str, Any]:
        """The view of the token's seat (or the spectator view), as the WebSocket sends it."""
        if token is None and authorization and authorization.lower().startswith("bearer "):
            token = authorization[7:].strip()
        return srv(request).lobby.view_for_token(game_id, token)

    @app.get("/api/games/{game_id}/digest", response_model=L.Digest, responses=errors)
    async def digest(game_id: str, request: Request) -> dict[str, Any]:
        """A keyed hash of the whole game state (every view and the record): for checking that a
        restarted server resumed each game exactly. It reveals nothing about hidden cards."""
        return srv(request).lobby.digest(game_id)

    @app.get("/api/games/{game_id}/record", responses=errors)
    async def record(game_id: str, request: Request) -> dict[str, Any]:
        """The game record (settings, seed, decks, actions), once the game is over."""
        return srv(request).lobby.record(game_id)

    @app.websocket("/ws/{game_id}")
    async def ws_endpoint(ws: WebSocket, game_id: str, token: str | None = Query(None),
                          state_id: int | None = Query(None)) -> None:
        await ws.accept()
        server = srv(ws)
        conn = Conn(ws, server.limits, ws.client.host if ws.client else "")
        conn.start()
        if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), origins):
            conn.error("origin_refused", f"WebSockets from pages of {ws.headers.get('origin')!r} are refused "
                                         "(start the server with --allow-origin to allow them)")
            conn.close(4403, "origin refused")
            await _drain(conn)
            return
        try:
            room = server.room(game_id)
        except LobbyError as exc:
            conn.error(exc.code, exc.message)
            conn.close(1011 if exc.status >= 500 else 4410 if exc.status == 410 else 4404, exc.code)
            await _drain(conn)
            return
        except Exception as exc:   # noqa: BLE001 - damaged storage: a clear code, never a dropped socket
            game_log(game_id).exception("loading game %s failed", game_id)
            conn.error("game_unavailable", f"the game could not be loaded ({exc})")
            conn.close(1011, "game_unavailable")
            await _drain(conn)
            return
        if room is None:
            conn.error("no_such_game", f"there is no game {game_id!r}")
            conn.close(4404, "no such game")
            await _drain(conn)
            return
        if server.cluster is not None:   # cluster hook: a game whose owner is gone is taken over now
            await server.cluster.ready(game_id)
            try:
                room = server.room(game_id) or room   # the one in memory now (a replica may have been dropped)
            except LobbyError:
                pass
        refusal = server.quotas.admit(conn, room)
        if refusal is not None:
            conn.error("too_many_connections", refusal)
            conn.close(4429, "too many connections")
            await _drain(conn)
            return
        conn.room = room
        if token:
            ident = room.identify(token)
            if ident is None:
                conn.error("wrong_token", "that token is not one of this game's")
            else:
                server.handlers.join_conn(conn, room, token, ident, state_id, None)
        try:
            loop = asyncio.get_running_loop()
            joined_by = loop.time() + server.limits.join_timeout_s
            while not conn.closing:
                if conn.role is None:   # a connection that never says who it is does not stay
                    try:
                        async with asyncio.timeout_at(joined_by):
                            msg = await ws.receive()
                    except TimeoutError:
                        conn.error("not_joined", f"send hello with a token within {server.limits.join_timeout_s:g} s")
                        conn.close(4408, "no hello in time")
                        break
                else:
                    msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                if text is None and msg.get("bytes") is not None:
                    text = msg["bytes"]
                server.handlers.on_message(conn, room, text)
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
            async with asyncio.timeout(timeout):
                await asyncio.shield(task)
        except Exception:
            task.cancel()


