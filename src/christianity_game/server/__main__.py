"""``python -m christianity_game.server``: serve the game server (the same as the CLI's ``serve``)."""

from __future__ import annotations

import argparse

from . import run
from .core import Limits


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m christianity_game.server", description=__doc__)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--data-dir", default=None, help="default: $CHRISTIANITY_GAME_DATA or ./data")
    p.add_argument("--bot-delay", type=float, default=0.3, help="seconds before each bot action")
    p.add_argument("--log-level", default="info")
    p.add_argument("--rate", type=float, default=None, help="messages a second per connection")
    p.add_argument("--burst", type=int, default=None, help="burst of messages per connection")
    p.add_argument("--compression", action="store_true", help="permessage-deflate on")
    p.add_argument("--sync", default=None, choices=["NORMAL", "FULL"], help="SQLite synchronous mode")
    a = p.parse_args(argv)
    limits = None
    if a.rate is not None or a.burst is not None:
        base = Limits()
        limits = Limits(rate=a.rate if a.rate is not None else base.rate,
                        burst=a.burst if a.burst is not None else base.burst)
    run(a.host, a.port, a.data_dir, a.bot_delay, limits=limits, log_level=a.log_level,
        compression=a.compression, synchronous=a.sync)


if __name__ == "__main__":
    main()
