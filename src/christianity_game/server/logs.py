"""The server's log lines: levels, timestamps and the game id, as text or as one JSON object a line.

Every module of the server logs through the standard :mod:`logging` module under the
``christianity_game.server`` logger (uvicorn's own loggers are configured alongside). A line about
one game carries its id: :func:`game_log` gives a :class:`logging.LoggerAdapter` that puts
``game_id`` in the record, and both formatters show it. ``configure(level, fmt)`` installs the
handler on stderr: ``text`` (a person reading a terminal) or ``json`` (``serve --log-format json``,
for log collectors: one object a line with ``ts``, ``level``, ``logger``, ``message`` and, where
there is one, ``game_id``, ``exc``). Storage alarms are logged at ERROR with ``STORAGE:`` in front.
"""

from __future__ import annotations

import json
import logging
import logging.config
from datetime import datetime, timezone
from typing import Any, MutableMapping

#: The logger every server module logs under (``store`` and the rest are its children).
LOGGER = "christianity_game.server"
FORMATS = ("text", "json")

log = logging.getLogger(LOGGER)

#: The attributes every LogRecord has: anything else on a record came from ``extra`` and is shown.
_STANDARD = set(vars(logging.LogRecord("x", logging.INFO, "x", 0, "x", None, None))) | {"message", "asctime",
                                                                                         "taskName"}


class GameLog(logging.LoggerAdapter):  # type: ignore[type-arg]
    """A logger for one game: every record it makes carries ``game_id`` (besides any ``extra``)."""

    def process(self, msg: Any, kwargs: MutableMapping[str, Any]) -> tuple[Any, MutableMapping[str, Any]]:
        # merge rather than replace (Python 3.11's LoggerAdapter drops the caller's extra)
        kwargs["extra"] = {**(self.extra or {}), **(kwargs.get("extra") or {})}
        return msg, kwargs


def game_log(game_id: str, logger: logging.Logger | None = None) -> GameLog:
    """The server's logger with ``game_id`` on every record (shown by both formats)."""
    return GameLog(logger or log, {"game_id": game_id})


#: extras that repeat the message for a terminal (uvicorn's coloured copy)
_DROPPED = {"color_message"}


def _extras(record: logging.LogRecord) -> dict[str, Any]:
    return {k: v for k, v in vars(record).items()
            if k not in _STANDARD and k not in _DROPPED and not k.startswith("_")}


class TextFormatter(logging.Formatter):
    """``2026-12-02T10:15:03.123Z ERROR christianity_game.server [game Ab3x] STORAGE: ...``:
    UTC timestamp, level and logger first, so that ``grep ' ERROR '`` finds every alarm."""

    def __init__(self) -> None:
        super().__init__()

    def format(self, record: logging.LogRecord) -> str:
        extras = _extras(record)
        game = extras.pop("game_id", None)
        head = f"{_timestamp(record)} {record.levelname} {record.name}"
        if game is not None:
            head += f" [game {game}]"
        text = f"{head} {record.getMessage()}"
        if extras:
            text += " " + " ".join(f"{k}={v}" for k, v in sorted(extras.items()))
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        elif record.stack_info:
            text += "\n" + self.formatStack(record.stack_info)
        return text


class JsonFormatter(logging.Formatter):
    """One JSON object a line (``serve --log-format json``): ``ts`` (UTC, ISO 8601), ``level``,
    ``logger``, ``message``, the record's extras (``game_id``, ...) and ``exc`` (a traceback, as
    text) where there is one. A line never spans two lines: newlines in text are escaped."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {"ts": _timestamp(record), "level": record.levelname, "logger": record.name,
                               "message": record.getMessage()}
        for k, v in _extras(record).items():
            out[k] = v if isinstance(v, (str, int, float, bool)) or v is None else str(v)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        elif record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def _timestamp(record: logging.LogRecord) -> str:
    when = datetime.fromtimestamp(record.created, tz=timezone.utc)
    return when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{int(record.msecs):03d}Z"


def config(level: str | int = "info", fmt: str = "text") -> dict[str, Any]:
    """A :func:`logging.config.dictConfig` for the server process: one stderr handler in format
    ``fmt`` for the server's loggers and uvicorn's (``uvicorn``, ``uvicorn.error``, ``uvicorn.access``)."""
    if fmt not in FORMATS:
        raise ValueError(f"log format must be {' or '.join(FORMATS)}, not {fmt!r}")
    name = logging.getLevelName(level.upper()) if isinstance(level, str) else level
    if not isinstance(name, int):
        raise ValueError(f"unknown log level {level!r}")
    formatter = JsonFormatter if fmt == "json" else TextFormatter
    logger = {"handlers": ["stderr"], "level": name, "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"server": {"()": formatter}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "server",
                                "stream": "ext://sys.stderr"}},
        "loggers": {LOGGER: dict(logger), "uvicorn": dict(logger), "uvicorn.error": {"level": name},
                    "uvicorn.access": dict(logger), "christianity_game": dict(logger)},
    }


def configure(level: str | int = "info", fmt: str = "text") -> None:
    """Install :func:`config` (the server process's logging; ``run`` calls it before uvicorn starts)."""
    logging.config.dictConfig(config(level, fmt))
