"""The game server: FastAPI app (lobby API, WebSocket protocol), bots in seats, SQLite or
PostgreSQL storage.

``run()`` serves one data folder (``$CHRISTIANITY_GAME_DATA`` or ``./data`` by default) with
uvicorn; ``create_app()`` builds the app (tests use it with FastAPI's TestClient). The protocol is
described in docs/protocol.md; its message models are in :mod:`christianity_game.server.protocol`.
The game server's parts, each a module of this package, are wired by
:class:`~christianity_game.server.core.GameServer` (docs/design.md, "The server at a glance").
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app, default_data_dir
    from .core import GameServer
    from .limits import Limits

__all__ = ["GameServer", "Limits", "create_app", "default_data_dir", "run"]


def __getattr__(name: str) -> Any:   # lazy, so `python -m christianity_game.server.protocol` runs cleanly
    if name in ("create_app", "default_data_dir"):
        from . import app
        return getattr(app, name)
    if name == "GameServer":
        from .core import GameServer
        return GameServer
    if name == "Limits":
        from .limits import Limits
        return Limits
    raise AttributeError(name)

#: The hard cap on one WebSocket frame (the WebSocket layer closes with 1009 above it); the
#: app's own, smaller cap (``Limits.max_message_bytes``) answers with a ``too_large`` error.
WS_MAX_FRAME = 1 << 20


def run(host: str = "127.0.0.1", port: int = 8000, data_dir: str | None = None, bot_delay: float = 0.3, *,
        limits: "Limits | None" = None, log_level: str = "info", compression: bool = False,
        synchronous: str | None = None, allowed_origins: "list[str] | tuple[str, ...]" = (),
        allow_chosen_seeds: bool = False, log_format: str = "text", database: str | None = None,
        workers: int = 1, cluster: bool = False) -> None:
    """Serve the game server until interrupted.

    ``data_dir`` holds the SQLite file (default ``$CHRISTIANITY_GAME_DATA`` or ``./data``);
    ``bot_delay`` is the pause in seconds before each bot action, so people can follow.
    ``compression`` turns on permessage-deflate (off by default: it costs more CPU than it saves
    on a small box); ``synchronous`` is SQLite's NORMAL (default: survives a killed server) or FULL
    (also survives power loss, one fsync per action). ``allowed_origins``: pages of other sites
    allowed to open WebSockets; ``allow_chosen_seeds``: a creator's seed even in a duel between people.
    ``log_level`` and ``log_format`` (``text`` or ``json``: one object a line) set the log lines of
    the server and of uvicorn (server/logs.py). ``database``: a PostgreSQL URL
    (``postgresql://user@host/db``) or a SQLite file instead of the data folder's (server/store.py).
    ``workers``: that many processes on one port, sharing a PostgreSQL database (server/cluster.py;
    a worker that dies is started again by uvicorn); ``cluster``: one process that shares its
    database with servers elsewhere. Both need ``database`` to be PostgreSQL.
    """
    import uvicorn

    from . import logs
    from .app import create_app, default_data_dir
    from .guard import MAX_HEAD_BYTES, BoundedReadsWebSocketProtocol, guarded_protocol
    from .limits import Limits

    logs.configure(log_level, log_format)
    lim = limits or Limits()
    _raise_open_files()
    folder = Path(data_dir) if data_dir is not None else default_data_dir()
    if workers > 1 or cluster:
        _run_cluster(host, port, folder, bot_delay, lim, log_level, compression, synchronous, allowed_origins,
                     allow_chosen_seeds, log_format, database, workers)
        return
    # freeze_gc: the server process owns its garbage collector; see server/health.py
    app = create_app(folder, bot_delay=bot_delay, limits=lim, synchronous=synchronous, freeze_gc=True,
                     allowed_origins=allowed_origins, allow_chosen_seeds=allow_chosen_seeds, database=database)
    ping = lim.ws_ping_s if lim.ws_ping_s > 0 else None
    pong = lim.ws_ping_timeout_s if ping and lim.ws_ping_timeout_s > 0 else None
    # http: uvicorn's h11 protocol with head and body deadlines and a per-address cap (server/guard.py);
    # log_config=None: logging is configured above, for uvicorn's loggers too
    uvicorn.run(app, host=host, port=port, log_level=log_level, log_config=None, access_log=False,
                http=guarded_protocol(lim), h11_max_incomplete_event_size=MAX_HEAD_BYTES,
                ws=BoundedReadsWebSocketProtocol, ws_max_size=WS_MAX_FRAME, ws_per_message_deflate=compression,
                ws_ping_interval=ping, ws_ping_timeout=pong, lifespan="on")


def _raise_open_files(want: int = 65536) -> None:
    """Raise this process's open-file limit towards its hard limit: every connection, half-open
    ones too, holds a descriptor, and a soft limit of 1,024 is reached long before the caps are."""
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = want if hard == resource.RLIM_INFINITY else min(want, hard)
        if soft != resource.RLIM_INFINITY and soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ImportError, ValueError, OSError):   # not on this platform, or not allowed: keep the limit
        pass


def _run_cluster(host: str, port: int, folder: Path, bot_delay: float, lim: "Limits", log_level: str,
                 compression: bool, synchronous: str | None, allowed_origins: "list[str] | tuple[str, ...]",
                 allow_chosen_seeds: bool, log_format: str, database: str | None, workers: int) -> None:
    """``run`` as one of several servers on a PostgreSQL database: ``workers`` uvicorn worker
    processes on one port (each builds its app with :func:`~christianity_game.server.workers.worker_app`
    from the settings left in ``$CHRISTIANITY_GAME_WORKER``)."""
    import dataclasses
    import json
    import os

    import uvicorn

    from .workers import WORKER_ENV, WorkerH11Protocol
    from .guard import MAX_HEAD_BYTES, BoundedReadsWebSocketProtocol
    from .store import DATABASE_ENV, StoreError, is_postgres

    db = database or os.environ.get(DATABASE_ENV) or None
    if not is_postgres(db):
        raise StoreError("several servers on one database (serve --workers N, --cluster) need PostgreSQL: give "
                         "--database postgresql://... (docs/deploy.md); a SQLite file is one server's")
    os.environ[WORKER_ENV] = json.dumps({
        "data_dir": str(folder), "bot_delay": bot_delay, "limits": dataclasses.asdict(lim),
        "synchronous": synchronous, "allowed_origins": list(allowed_origins), "allow_chosen_seeds": allow_chosen_seeds,
        "database": db, "log_level": log_level, "log_format": log_format})
    WorkerH11Protocol.limits = lim
    ping = lim.ws_ping_s if lim.ws_ping_s > 0 else None
    pong = lim.ws_ping_timeout_s if ping and lim.ws_ping_timeout_s > 0 else None
    uvicorn.run("christianity_game.server.workers:worker_app", factory=True, workers=max(1, workers), host=host,
                port=port, log_level=log_level, log_config=None, access_log=False, http=WorkerH11Protocol,
                h11_max_incomplete_event_size=MAX_HEAD_BYTES, ws=BoundedReadsWebSocketProtocol, ws_max_size=WS_MAX_FRAME,
                ws_per_message_deflate=compression, ws_ping_interval=ping, ws_ping_timeout=pong, lifespan="on")
