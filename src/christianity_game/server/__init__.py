"""The game server: FastAPI app (lobby API, WebSocket protocol), bots in seats, SQLite storage.

``run()`` serves one data folder (``$CHRISTIANITY_GAME_DATA`` or ``./data`` by default) with
uvicorn; ``create_app()`` builds the app (tests use it with FastAPI's TestClient). The protocol is
described in docs/protocol.md; its message models are in :mod:`christianity_game.server.protocol`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app, default_data_dir
    from .core import GameServer, Limits

__all__ = ["GameServer", "Limits", "create_app", "default_data_dir", "run"]


def __getattr__(name: str) -> Any:   # lazy, so `python -m christianity_game.server.protocol` runs cleanly
    if name in ("create_app", "default_data_dir"):
        from . import app
        return getattr(app, name)
    if name in ("GameServer", "Limits"):
        from . import core
        return getattr(core, name)
    raise AttributeError(name)

#: The hard cap on one WebSocket frame (the WebSocket layer closes with 1009 above it); the
#: app's own, smaller cap (``Limits.max_message_bytes``) answers with a ``too_large`` error.
WS_MAX_FRAME = 1 << 20


def run(host: str = "127.0.0.1", port: int = 8000, data_dir: str | None = None, bot_delay: float = 0.3, *,
        limits: "Limits | None" = None, log_level: str = "info", compression: bool = False,
        synchronous: str | None = None, allowed_origins: "list[str] | tuple[str, ...]" = (),
        allow_chosen_seeds: bool = False) -> None:
    """Serve the game server until interrupted.

    ``data_dir`` holds the SQLite file (default ``$CHRISTIANITY_GAME_DATA`` or ``./data``);
    ``bot_delay`` is the pause in seconds before each bot action, so people can follow.
    ``compression`` turns on permessage-deflate (off by default: it costs more CPU than it saves
    on a small box); ``synchronous`` is SQLite's NORMAL (default: survives a killed server) or FULL
    (also survives power loss, one fsync per action). ``allowed_origins``: pages of other sites
    allowed to open WebSockets; ``allow_chosen_seeds``: a creator's seed even in a duel between people.
    """
    import uvicorn

    from .app import create_app, default_data_dir

    folder = Path(data_dir) if data_dir is not None else default_data_dir()
    # freeze_gc: the server process owns its garbage collector; see GameServer._freeze
    app = create_app(folder, bot_delay=bot_delay, limits=limits, synchronous=synchronous, freeze_gc=True,
                     allowed_origins=allowed_origins, allow_chosen_seeds=allow_chosen_seeds)
    uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=False, ws="websockets-sansio",
                ws_max_size=WS_MAX_FRAME, ws_per_message_deflate=compression, lifespan="on")
