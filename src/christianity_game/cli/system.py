"""The commands about the program itself: ``bench`` (the engine's speed, alone or beside a peer
engine), ``native`` (the compiled engine) and ``serve`` (the game server)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from .options import fail, variants_or_fail


# ---------------------------------------------------------------------------------------- bench
def bench(
    against: Annotated[Optional[str], typer.Option(
        help="Also time a peer engine side by side and print the ratio: block_dominoes (OpenSpiel's "
             "pure-Python game; needs the optional 'bench' extra).")] = None,
    seconds: Annotated[float, typer.Option(help="With --against: CPU seconds per line-up, split over the runs.")] = 4.0,
    repeats: Annotated[int, typer.Option(help="With --against: interleaved runs of each; medians are printed.")] = 5,
) -> None:
    """Measure the engine's speed (actions, clones and games a second), or with --against compare
    it with a peer engine (CPU time per action, random legal play, checked apply on both sides)."""
    if against is not None:
        from ..bench_peer import PEERS, PeerUnavailable, format_peer_bench, run_peer_bench
        if against not in PEERS:
            fail(f"--against: unknown peer {against!r}; known: {', '.join(PEERS)}")
        if seconds <= 0 or repeats < 1:
            fail("--seconds must be positive and --repeats at least 1")
        try:
            peer_result = run_peer_bench(against, seconds=seconds, repeats=repeats)
        except PeerUnavailable as exc:
            fail(str(exc), 1)
        typer.echo(format_peer_bench(peer_result))
        return
    from ..bench import format_bench, run_bench
    typer.echo(format_bench(run_bench()))


# ---------------------------------------------------------------------------------------- native
def native(
    verb: Annotated[str, typer.Argument(
        help="build (compile when the engine's sources changed), status, check (status, with exit code 1 "
             "when the next start would run the Python engine) or clean.")] = "status",
    force: Annotated[bool, typer.Option(help="With build: compile even when the build is up to date.")] = False,
) -> None:
    """The native engine: the engine's hot modules compiled with mypyc (optional; scripts/setup.sh
    builds it). A build is used only while the sources it was built from are unchanged."""
    from .. import native as native_build
    if verb == "build":
        try:
            typer.echo(native_build.build(force=force))
        except native_build.NativeBuildError as exc:
            fail(f"native engine not built: {exc}", 1)
    elif verb in ("status", "check"):
        usable, why = native_build.status()
        typer.echo(why)
        if verb == "check" and not usable:   # scripts/run.sh: build in the background, then serve
            raise typer.Exit(1)
    elif verb == "clean":
        typer.echo(native_build.clean())
    else:
        fail(f"unknown native command {verb!r}; use build, status, check or clean")


# ---------------------------------------------------------------------------------------- serve
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    data: Annotated[Optional[Path], typer.Option(
        help="Folder of the SQLite file (default: $CHRISTIANITY_GAME_DATA or ./data).")] = None,
    database: Annotated[Optional[str], typer.Option(
        help="Where games are stored: postgresql://user@host/db (PostgreSQL, see docs/deploy.md), or a SQLite "
             "file (a path or sqlite:///path). Default: $CHRISTIANITY_GAME_DATABASE, else the SQLite file of "
             "--data.")] = None,
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before each move, so people can follow.")] = 0.3,
    public_url: Annotated[Optional[str], typer.Option(
        help="The address other devices reach this server at (e.g. http://192.168.1.20:8000): the rules "
             "page's QR code encodes it when the page is opened at a loopback address, and every seat "
             "and spectator link the lobby hands out starts with it.")] = None,
    variants: Annotated[Optional[str], typer.Option(
        help="Duel play-test variants every new duel plays unless its creator picks others (a preset such as "
             "recommended, or alias=value pairs). Default: the printed rules.")] = None,
    log_format: Annotated[str, typer.Option(
        help="Log lines as text (timestamp, level, logger, game id) or json: one JSON object a line, for log "
             "collectors.")] = "text",
    log_level: Annotated[str, typer.Option(help="Least level logged: debug, info, warning, error.")] = "info",
    workers: Annotated[int, typer.Option(
        help="Server processes on this port, sharing one PostgreSQL --database: each game is run by one of "
             "them, any of them serves it (docs/deploy.md). More than 1 needs PostgreSQL.")] = 1,
    cluster: Annotated[bool, typer.Option(
        help="Share the PostgreSQL --database with other servers (other hosts or ports), as --workers does.")] = False,
) -> None:
    """Run the game server: lobby, seats, WebSocket play, games stored in SQLite or PostgreSQL."""
    if log_format not in ("text", "json"):
        fail("--log-format must be text or json")
    if log_level.lower() not in ("debug", "info", "warning", "error", "critical"):
        fail("--log-level must be debug, info, warning, error or critical")
    if public_url is not None:
        if not public_url.startswith(("http://", "https://")):
            fail("--public-url must start with http:// or https://")
        import os
        from ..server.web import PUBLIC_URL_ENV
        os.environ[PUBLIC_URL_ENV] = public_url
    if variants is not None:
        variants_or_fail(variants)   # checked now: a bad value is refused before the server starts
        import os
        from ..server.app import VARIANTS_ENV
        os.environ[VARIANTS_ENV] = variants
    if not 0 < port < 65536:
        fail("--port must be between 1 and 65535")
    if bot_delay < 0:
        fail("--bot-delay cannot be negative")
    if workers < 1:
        fail("--workers must be 1 or more")
    if workers > 1 or cluster:
        import os
        from ..server.store import DATABASE_ENV, is_postgres
        if not is_postgres(database or os.environ.get(DATABASE_ENV)):
            fail("--workers above 1 and --cluster need PostgreSQL: give --database postgresql://user@host/db "
                  "(docs/deploy.md); the SQLite default serves from one process")
    try:
        from ..server import run as run_server
    except ImportError as exc:
        fail(f"the server is not available: {exc}", 1)
    if data is not None and data.exists() and not data.is_dir():
        fail(f"--data: {data} is not a folder")
    if database is not None:
        from ..server.store import StoreError, is_postgres, sqlite_location
        if not is_postgres(database):
            try:
                sqlite_location(database, data or Path("data"))
            except StoreError as exc:
                fail(str(exc))
    from ..engine import BUILD
    from ..native import engine_build
    if log_format == "json":   # every line on stderr is then a JSON object, this one too
        from ..server import logs
        logs.configure(log_level, log_format)
        logs.log.info("rules engine: %s", engine_build(BUILD))
    else:
        typer.echo(f"rules engine: {engine_build(BUILD)}", err=True)
    run_server(host=host, port=port, data_dir=str(data) if data is not None else None, bot_delay=bot_delay,
               log_level=log_level.lower(), log_format=log_format, database=database, workers=workers,
               cluster=cluster)

