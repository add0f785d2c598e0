"""An accepted action's way to storage and back (:class:`Commits`): it goes to the writer thread
(server/writer.py, group commit), and its updates and acknowledgement go out only once it is
durable. Until then the game is busy (``Room.busy``): whatever else comes for it waits in arrival
order, so nobody sees or builds on a state that is not stored yet. An action that could not be
stored is undone by reloading the game, and its sender is told."""

from __future__ import annotations

import asyncio
import time
from functools import partial
from typing import Any, Callable

from ..engine.events import Event
from .conn import Conn
from .logs import game_log
from .peers import Peers
from .room import Room
from .rooms import Rooms
from .updates import Updates
from .writer import StoreWriter


class Commits:
    """The hand-off of applied actions to ``writer``, and what follows once each is durable: the
    cluster's followers told, the updates sent, then each of ``followers`` (the adjustment requests
    a finished game voids, the bots' next move), in order."""

    def __init__(self, writer: StoreWriter, registry: Rooms, updates: Updates) -> None:
        self.writer = writer
        self.registry = registry
        self.updates = updates
        self.peers: Peers | None = None
        self.followers: list[Callable[[Room], None]] = []

    def accept(self, room: Room, action_json: dict[str, Any], events: list[Event], by: int,
               actor: Conn | None, ref: Any, then: Callable[[], None] | None = None) -> None:
        """Store an action just applied to ``room``'s game (the writer thread commits it), then,
        once it is durable, push the updates (``actor``'s is its acknowledgement, with ``ref``),
        run the followers and ``then``."""
        g = room.game
        room.sync_cache.clear()
        res = g.result
        result = None if res is None else {"winner": res.winner, "reason": res.reason, "round": res.round}
        room.writing = True
        try:
            future = self.writer.submit(room.game_id, len(g.actions) - 1, action_json, result)
        except BaseException:
            room.writing = False
            raise
        future.add_done_callback(partial(self._stored, room, events, by, actor, ref, then))

    def _stored(self, room: Room, events: list[Event], by: int, actor: Conn | None, ref: Any,
                then: Callable[[], None] | None, future: "asyncio.Future[None]") -> None:
        """The writer's answer for an action of ``room``: on success the updates go out (the
        actor's is its acknowledgement); on failure the game is reloaded from the store (the action
        is undone) and the actor is told. Then what waited for the commit runs."""
        try:
            exc = future.exception() if not future.cancelled() else asyncio.CancelledError()
            if exc is not None:   # the action is not stored: undo it by reloading
                game_log(room.game_id).error("storing an action of game %s failed", room.game_id, exc_info=exc)
                self.registry.reload(room)
                if actor is not None:
                    actor.error("storage_error", f"the action could not be stored ({exc}); nothing changed", ref,
                                room.game.state_id)
            else:
                room.last_active = time.time()
                if self.peers is not None:   # cluster hook: the other processes' connections hear of it
                    self.peers.stored(room)
                try:   # the action is stored: every connection must hear of it and the bots must wake
                    self.updates.broadcast(room, events, by, actor, ref)
                finally:
                    for follow in self.followers:
                        follow(room)
            if then is not None:
                then()
        finally:
            room.writing = False
            room.run_waiting()
