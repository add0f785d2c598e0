"""The replay viewer's records (``POST /api/replays``, ``GET /api/replays/{id}/{step}``), off the event loop.

A record uploaded to the viewer is a stranger's file: tens of megabytes, a million actions, each
of them legal (an action and its Undo, again and again). Replaying one on the server's event loop
would hold it for minutes, so here every replay runs in a **worker process**:

* the body is read in chunks and refused past ``Limits.replay_bytes`` (``413 record_too_large``)
  before it is all in memory;
* the worker parses it, refuses a record of more than ``Limits.replay_actions`` actions
  (``413 too_many_actions``), and replays it against a deadline of ``Limits.replay_timeout_s``
  (``503 replay_timeout``); past the deadline and a grace the worker is killed and a fresh one
  started on the next request;
* the opened records live in that worker (the newest :attr:`Replays.KEEP`, each with at most
  :attr:`Replays.MOST_CHECKPOINTS` checkpoints), and each step is replayed there too, from the
  checkpoint before it, so the server process holds none of it;
* at most ``MAX_WAITING`` opens wait for the worker at a time (``503 replays_busy`` beyond).

:class:`ReplayPool` is the server process's side: one spawn worker (no fork of a running event
loop), made on first use and shut down with the app. :func:`open_in_worker` and
:func:`step_in_worker` run in the worker.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections import OrderedDict
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

from ..workers import spawn_pool

if TYPE_CHECKING:
    from starlette.requests import Request

    from .limits import Limits

#: The replay viewer's "all cards shown" point of view (``?seat=all``).
ALL_SHOWN = "all"
#: Opens that may wait for the worker at once (each holds its body, up to ``replay_bytes``).
MAX_WAITING = 4
#: Steps that may wait for the worker at once.
MAX_STEPS_WAITING = 64
#: Seconds past a replay's own deadline before the server gives up on the worker and kills it.
GRACE_S = 5.0


class ReplayNotOver(ValueError):
    """``all cards shown`` asked of a record whose game is not over: its hidden cards stay hidden."""


class ReplayRefused(Exception):
    """An upload or a step the replay viewer does not serve: HTTP status, code and words."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def answer(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message}


def full_view(game: Any) -> dict[str, Any]:
    """The board with every card face up: the spectator's view, with each seat's hand and Cost Zone
    as that seat sees them, each deck's cards (top first), the co-op Evil deck's, and an open
    choice's options. Only for a game that is over: its record reveals all of this anyway. Every
    part comes from the observer (seat views, and ``observer.decks_top_first``)."""
    from ..engine.observer import decks_top_first
    from ..engine.view import card_json
    view: dict[str, Any] = game.view(None)
    decks, evil_deck = decks_top_first(game)
    for i, deck in enumerate(decks):
        own = dict(game.view(i)["seats"][i])
        own["deck_cards"] = [card_json(game, u) for u in deck]
        view["seats"][i] = own
    view["evil_deck"] = [card_json(game, u) for u in evil_deck]
    decider = view["decider"]
    if decider is not None:
        choice = game.view(decider)["choice"]
        if choice is not None:
            view["choice"] = choice
    view["viewer"] = None
    view["all_shown"] = True
    return view


def step_text(game: Any, action: Any, viewer: int | str | None) -> str:
    """``action`` in words (the CLI's describer, render.terminal.describe_action), said before it
    is applied to ``game``; a seat that did not act is not told what only the actor knew."""
    from ..render.terminal import describe_action
    public = viewer != ALL_SHOWN and viewer != action.seat
    return describe_action(game, action, public=public)


class Replays:
    """Records opened in the replay viewer (the newest ``KEEP``), each with checkpoints every
    ``EVERY`` actions, or further apart for a long record (at most ``MOST_CHECKPOINTS``), so that a
    step replays at most that many actions and a long record costs a bounded number of copies."""

    EVERY = 25
    MOST_CHECKPOINTS = 40
    KEEP = 16

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self.items: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def open(self, record: dict[str, Any], max_actions: int | None = None,
             deadline: float | None = None) -> dict[str, Any]:
        """Open ``record``: its replay id, mode, line-up, steps, actions and result. Refused
        (:class:`ReplayRefused`) with more than ``max_actions`` actions, or when the replay runs
        past ``deadline`` (``time.monotonic()``)."""
        from ..engine.actions import action_from_json
        from ..engine.replay import start_game
        raw = record.get("actions", []) if isinstance(record, dict) else None
        if not isinstance(raw, list):
            raise ValueError("a record is a JSON object with a list of actions")
        if max_actions is not None and len(raw) > max_actions:
            raise ReplayRefused(413, "too_many_actions", f"this record holds {len(raw)} actions; the replay viewer "
                                                         f"opens records of at most {max_actions}")
        rid = hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()[:16]
        if rid not in self.items:
            game = start_game(record)
            actions = [action_from_json(a) for a in raw]
            every = max(self.EVERY, -(-len(actions) // self.MOST_CHECKPOINTS))
            checkpoints = [game.clone()]
            for n, a in enumerate(actions, 1):
                game.apply(a)
                if n % every == 0:
                    checkpoints.append(game.clone())
                if deadline is not None and n % 64 == 0 and time.monotonic() > deadline:
                    raise ReplayRefused(503, "replay_timeout", f"replaying this record took longer than the "
                                                               f"server allows ({n} of {len(actions)} actions "
                                                               "replayed); it is not opened")
            self.items[rid] = {"actions": actions, "checkpoints": checkpoints, "every": every, "final": game}
            while len(self.items) > self.keep:
                self.items.popitem(last=False)
        self.items.move_to_end(rid)
        item = self.items[rid]
        final = item["final"]
        res = final.result
        return {"replay_id": rid, "mode": final.mode.name, "lineup": final.lineup, "steps": len(item["actions"]),
                "actions": [a.to_json() for a in item["actions"]],
                "result": None if res is None else {"winner": res.winner, "reason": res.reason, "round": res.round}}

    def step(self, rid: str, step: int, seat: int | str | None) -> dict[str, Any]:
        """The board after ``step`` actions as ``seat`` saw it (a seat, None: a spectator,
        ``ALL_SHOWN``: every card face up), the step's events and its action, also in words."""
        item = self.items[rid]
        actions = item["actions"]
        if not 0 <= step <= len(actions):
            raise ValueError(f"step {step} is outside 0..{len(actions)}")
        everything = seat == ALL_SHOWN
        if everything and item["final"].result is None:
            raise ReplayNotOver("all cards are shown only for a game that is over: this record's game "
                                "is not, so its hidden cards stay hidden")
        if isinstance(seat, int) and not 0 <= seat < len(item["final"].lineup):
            raise ValueError(f"there is no seat {seat + 1}")
        # the checkpoint before the step's own action, which is applied here: its events and its
        # words need it (a checkpoint at the step itself would leave its last step without either)
        every = item["every"]
        k = (step - 1) // every if step else 0
        game = item["checkpoints"][k].clone()
        base = k * every
        events: list[Any] = []
        text = None
        for n, a in enumerate(actions[base:step], base + 1):
            if n == step:   # the describer reads the board as it was when the action was taken
                text = step_text(game, a, seat)
            events = game.apply(a)
        viewer = seat if isinstance(seat, int) else None
        return {"step": step, "steps": len(actions), "action": actions[step - 1].to_json() if step else None,
                "text": text,
                "events": [e.for_seat(e.private_to if everything else viewer) for e in events] if step else [],
                "view": full_view(game) if everything else game.view(viewer)}


# --------------------------------------------------------------------------- in the worker process
_WORKER_REPLAYS: Replays | None = None


def _replays() -> Replays:
    global _WORKER_REPLAYS
    if _WORKER_REPLAYS is None:
        _WORKER_REPLAYS = Replays()
    return _WORKER_REPLAYS


def open_in_worker(body: bytes, max_actions: int, timeout_s: float) -> tuple[int, dict[str, Any]]:
    """Parse and open an uploaded record (in the worker): (HTTP status, answer). The deadline
    counts from when the worker starts on it, not from when it was queued."""
    deadline = time.monotonic() + timeout_s
    try:
        record = json.loads(body)
        if not isinstance(record, dict):
            raise ValueError("a record is a JSON object")
        return 200, _replays().open(record, max_actions, deadline)
    except ReplayRefused as exc:
        return exc.status, exc.answer()
    except Exception as exc:   # noqa: BLE001 - any bad upload: one sentence back
        return 400, {"code": "bad_record", "message": f"this is not a record that replays: {exc}"}


def step_in_worker(rid: str, step: int, seat: int | str | None) -> tuple[int, dict[str, Any]]:
    """One step of an opened record (in the worker): (HTTP status, answer)."""
    try:
        return 200, _replays().step(rid, step, seat)
    except KeyError:
        return 404, {"code": "no_such_replay", "message": "open the record again"}
    except ReplayNotOver as exc:
        return 403, {"code": "game_not_over", "message": str(exc)}
    except ValueError as exc:
        return 400, {"code": "bad_step", "message": str(exc)}


# --------------------------------------------------------------------------- in the server process
async def read_body(request: "Request", cap: int) -> bytes:
    """The request's body, read in chunks; :class:`ReplayRefused` (413) as soon as it passes ``cap``
    bytes (or says it will), before the rest is read."""
    declared = request.headers.get("content-length", "")
    words = f"the replay viewer opens records of at most {cap:,} bytes"
    if declared.isdigit() and int(declared) > cap:
        raise ReplayRefused(413, "record_too_large", f"this record is {int(declared):,} bytes; {words}")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > cap:
            raise ReplayRefused(413, "record_too_large", f"this record is over {cap:,} bytes; {words}")
        chunks.append(chunk)
    return b"".join(chunks)


class ReplayPool:
    """The server's side of the replay worker: one process, made on first use, replaced when it
    dies or hangs; ``shutdown`` with the app."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self.waiting = 0          # opens reading their body or waiting for the worker
        self.steps_waiting = 0

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: the worker imports the package afresh, with no copy of the server's event loop
            self._pool = spawn_pool(1)
        return self._pool

    def _kill(self) -> None:
        """Stop a worker that runs past every deadline (its replays are lost: they are opened again)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        for proc in list(getattr(pool, "_processes", {}).values()):   # no public way to stop a running task
            proc.terminate()
        pool.shutdown(wait=False, cancel_futures=True)

    async def _run(self, wait_s: float, fn: Any, *args: Any) -> tuple[int, dict[str, Any]]:
        loop = asyncio.get_running_loop()
        try:
            future: Future[tuple[int, dict[str, Any]]] = self._executor().submit(fn, *args)
        except RuntimeError:   # the pool broke (its worker died): a fresh one
            self._pool = None
            future = self._executor().submit(fn, *args)
        try:
            async with asyncio.timeout(wait_s):
                return await asyncio.wrap_future(future, loop=loop)
        except TimeoutError:
            self._kill()
            return 503, {"code": "replay_timeout", "message": "the replay worker did not answer in time; it was "
                                                              "restarted: open the record again"}
        except Exception as exc:   # noqa: BLE001 - the worker died (BrokenProcessPool): start afresh next time
            self._pool = None
            return 503, {"code": "replay_failed", "message": f"the replay worker failed ({type(exc).__name__}); "
                                                             "open the record again"}

    async def open(self, request: "Request", limits: "Limits") -> tuple[int, dict[str, Any]]:
        """Answer an upload: (HTTP status, answer)."""
        if self.waiting >= MAX_WAITING:
            raise ReplayRefused(503, "replays_busy", f"{MAX_WAITING} records are being opened already; try "
                                                     "again in a moment")
        self.waiting += 1
        try:
            body = await read_body(request, limits.replay_bytes)
            # the worker takes opens one at a time: give this one the time of those ahead of it too
            wait = (limits.replay_timeout_s + GRACE_S) * self.waiting
            return await self._run(wait, open_in_worker, body, limits.replay_actions, limits.replay_timeout_s)
        finally:
            self.waiting -= 1

    async def step(self, rid: str, step: int, seat: int | str | None, limits: "Limits") -> tuple[int, dict[str, Any]]:
        """Answer a step: (HTTP status, answer)."""
        if self.steps_waiting >= MAX_STEPS_WAITING:
            raise ReplayRefused(503, "replays_busy", "the replay viewer is busy; try again in a moment")
        self.steps_waiting += 1
        try:
            # a step may wait behind every open that is waiting
            wait = (limits.replay_timeout_s + GRACE_S) * (self.waiting + 1)
            return await self._run(wait, step_in_worker, rid, step, seat)
        finally:
            self.steps_waiting -= 1

    def shutdown(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
