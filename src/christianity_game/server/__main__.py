"""``python -m christianity_game.server``: serve the game server (the same as the CLI's ``serve``)."""

from __future__ import annotations

import argparse
import dataclasses

from . import run
from .limits import Limits

#: Limits settable from the command line: --flag-name -> Limits field.
LIMIT_FLAGS = {f.name: f for f in dataclasses.fields(Limits)}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m christianity_game.server", description=__doc__)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--data-dir", default=None, help="default: $CHRISTIANITY_GAME_DATA or ./data")
    p.add_argument("--database", default=None, metavar="URL",
                   help="where games are stored: postgresql://user@host/db (PostgreSQL), or a SQLite file (a path "
                        "or sqlite:///path); default $CHRISTIANITY_GAME_DATABASE, else the data folder's SQLite file")
    p.add_argument("--bot-delay", type=float, default=0.3, help="seconds before each bot action")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="N server processes on one port, sharing a PostgreSQL --database (docs/deploy.md)")
    p.add_argument("--cluster", action="store_true",
                   help="share the PostgreSQL --database with other servers (on other hosts or ports)")
    p.add_argument("--log-level", default="info")
    p.add_argument("--log-format", default="text", choices=["text", "json"],
                   help="log lines as text (timestamp, level, game) or one JSON object a line, for log collectors")
    p.add_argument("--rate", type=float, default=None, help="messages a second per connection")
    p.add_argument("--burst", type=int, default=None, help="burst of messages per connection")
    p.add_argument("--compression", action="store_true", help="permessage-deflate on")
    p.add_argument("--sync", default=None, choices=["NORMAL", "FULL"], help="SQLite synchronous mode")
    p.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   help="a page origin (https://example.org) allowed to open WebSockets; * for any (repeatable)")
    p.add_argument("--allow-chosen-seeds", action="store_true",
                   help="accept a creator's seed even in a duel between people (for tests only)")
    p.add_argument("--backup", metavar="FILE", default=None,
                   help="copy the data folder's database to FILE with SQLite's online backup (safe while a "
                        "server runs) and exit")
    base = Limits()
    lim = p.add_argument_group("limits (see docs/developers.md, 'The server under hostile traffic')")
    for name, f in LIMIT_FLAGS.items():
        if name in ("rate", "burst"):
            continue
        lim.add_argument("--" + name.replace("_", "-"), type=type(getattr(base, name)), default=None,
                         metavar="N", help=f"default {getattr(base, name)}")
    a = p.parse_args(argv)
    if a.backup:
        backup(a.data_dir, a.backup, a.database)
        return
    given = {name: getattr(a, name) for name in LIMIT_FLAGS if getattr(a, name, None) is not None}
    limits = dataclasses.replace(base, **given) if given else None
    run(a.host, a.port, a.data_dir, a.bot_delay, limits=limits, log_level=a.log_level,
        compression=a.compression, synchronous=a.sync, allowed_origins=a.allow_origin,
        allow_chosen_seeds=a.allow_chosen_seeds, log_format=a.log_format, database=a.database,
        workers=a.workers, cluster=a.cluster)


def backup(data_dir: str | None, target: str, database: str | None = None) -> None:
    """Copy the SQLite database of ``data_dir`` (or the file ``database`` names) to ``target`` with
    SQLite's online backup. A PostgreSQL database is backed up with ``pg_dump`` instead."""
    import os
    import sqlite3
    from pathlib import Path

    from .app import default_data_dir
    from .store import DATABASE_ENV, is_postgres, sqlite_location

    database = database or os.environ.get(DATABASE_ENV) or None
    if is_postgres(database):
        raise SystemExit("--backup copies a SQLite database; back up PostgreSQL with pg_dump (docs/deploy.md)")
    folder, name = sqlite_location(database, Path(data_dir) if data_dir is not None else default_data_dir())
    src_path = folder / name
    if not src_path.exists():
        raise SystemExit(f"no database at {src_path}")
    src = sqlite3.connect(f"file:{src_path}?mode=ro", uri=True)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
        ok = dst.execute("PRAGMA quick_check").fetchone()[0]
    finally:
        dst.close()
        src.close()
    print(f"backed up {src_path} to {target} (quick_check: {ok})")


if __name__ == "__main__":
    main()
