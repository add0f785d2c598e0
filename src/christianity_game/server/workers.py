"""The worker processes of ``serve --workers N``: uvicorn starts each (its app factory
:func:`worker_app`, importable by name) with the settings ``run`` left in
``$CHRISTIANITY_GAME_WORKER``; each is one server of a cluster on a PostgreSQL database
(server/cluster.py)."""

from __future__ import annotations

import collections
import json
import os
from typing import Any, ClassVar

from . import logs
from .app import create_app
from .guard import GuardedH11Protocol
from .limits import Limits

WORKER_ENV = "CHRISTIANITY_GAME_WORKER"   # serve --workers: the settings each worker process starts with


class WorkerH11Protocol(GuardedH11Protocol):
    """The guarded HTTP protocol of a ``serve --workers`` process: a class importable by name (uvicorn
    pickles its settings for each worker), given its limits by :func:`worker_app`."""

    open_by_addr: ClassVar[collections.Counter[str]] = collections.Counter()


def worker_app() -> Any:
    """The app of one ``serve --workers`` process (uvicorn's factory): the settings ``run`` left in
    ``$CHRISTIANITY_GAME_WORKER``, the logging set up again (each worker is a fresh process)."""
    cfg = json.loads(os.environ[WORKER_ENV])
    logs.configure(cfg["log_level"], cfg["log_format"])
    lim = Limits(**cfg["limits"])
    WorkerH11Protocol.limits = lim
    return create_app(cfg["data_dir"], bot_delay=cfg["bot_delay"], limits=lim, synchronous=cfg["synchronous"],
                      freeze_gc=True, allowed_origins=cfg["allowed_origins"],
                      allow_chosen_seeds=cfg["allow_chosen_seeds"], database=cfg["database"], cluster=True)
