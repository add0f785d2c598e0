"""The games in memory (:class:`Rooms`): each loaded from storage on first use, reloaded when a
commit failed, every unfinished one loaded at start, and leaving memory when idle (parked) or
abandoned (archived); the sweep that does so also runs storage's checks."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Callable

from ..engine import versions
from .errors import LobbyError
from .limits import Limits
from .logs import game_log
from .peers import Peers
from .room import Room
from .storage import Storage

log = logging.getLogger("christianity_game.server")


class Rooms:
    """``rooms``: game id -> the :class:`Room` in memory (the one dict every part of the server
    reads). Idle games leave memory (kept in storage, loaded again on demand); abandoned ones are
    archived."""

    def __init__(self, storage: Storage, limits: Limits) -> None:
        self.rooms: dict[str, Room] = {}
        self.storage = storage
        self.limits = limits
        self.peers: Peers | None = None
        self.closing = False

    def get(self, game_id: str) -> Room | None:
        """The game in memory, loading (replaying) it from the store on first use."""
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        room = self.storage.load(game_id)
        if room is not None:
            self.rooms[game_id] = room
        return room

    def reload(self, room: Room) -> None:
        """Replace ``room``'s game by what the store holds (an action that could not be stored is
        undone so); ``room`` stays the game's room. A game that cannot be loaded leaves memory."""
        self.rooms.pop(room.game_id, None)
        try:
            fresh = self.get(room.game_id)
        except LobbyError:
            fresh = None
        room.sync_cache.clear()
        room.forget_views()
        if fresh is not None:
            room.game = fresh.game
            self.rooms[room.game_id] = room

    def maybe_evict(self, room: Room) -> None:
        """A finished game nobody is on and nothing waits for leaves memory at once."""
        if not room.conns and not room.attached and room.game.result is not None and not room.bot_pending \
                and not room.busy():
            self.rooms.pop(room.game_id, None)

    async def load_all(self, kick: Callable[[Room], None], freeze: Callable[[], None]) -> None:
        """Load every unfinished game, sorting them into those resumed and those that cannot be
        (stored under rules this engine does not play, or damaged); the log says which. ``kick``
        wakes each loaded game's bots; ``freeze`` runs before and after (the garbage collector's
        policy, server/health.py)."""
        freeze()
        if self.peers is not None:   # cluster hook: games are taken by lease (server/cluster.py)
            return
        storage = self.storage
        ids = [row.id for row in storage.store.games(finished=False, resident=True)]   # not parked/archived
        for gid in ids:
            if self.closing:
                return
            try:
                room = self.get(gid)
            except LobbyError as exc:   # already logged with its reason
                if exc.code not in ("game_not_resumable", "game_unavailable"):
                    game_log(gid).error("could not load game %s: %s", gid, exc.message)
                continue
            except Exception:   # noqa: BLE001 - logged; one bad game must not stop the others
                game_log(gid).exception("could not load game %s", gid)
                continue
            if room is not None:
                kick(room)
            await asyncio.sleep(0)
        if ids:
            log.info("unfinished games: %d resumed, %d not resumable after the upgrade to rules %d, %d unavailable",
                     len(ids) - len(storage.not_resumable) - len(storage.broken), len(storage.not_resumable),
                     versions.RULES_VERSION, len(storage.broken))
        freeze()

    # ------------------------------------------------------------------ memory: idle and abandoned games
    async def sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_s)
            try:
                self.sweep()
            except Exception:   # noqa: BLE001 - logged; the sweeper must keep running
                log.exception("sweeping idle games failed")

    def sweep(self, now: float | None = None) -> tuple[int, int]:
        """Evict idle games from memory and archive abandoned ones; (evicted, archived).

        A game leaves memory when nobody is connected, no bot move is due and nothing happened for
        ``idle_evict_s``; an unfinished one is marked parked (not loaded at start; loaded again on
        demand). A game with a person's seat untouched for ``abandon_s`` is archived: not listed, not
        loaded at start, not counted against its creator's quota; its links still load it."""
        lim = self.limits
        store = self.storage.store
        now = time.time() if now is None else now
        evicted = archived = 0
        for room in list(self.rooms.values()):
            if room.attached or room.conns or room.bot_pending or room.busy() or \
                    now - room.last_active < lim.idle_evict_s:
                continue
            if room.game.result is None and room.bot_to_move() is not None:
                continue   # a bot is to move (the scheduler will get to it)
            self.rooms.pop(room.game_id, None)
            evicted += 1
            if room.game.result is None:
                store.set_flags(room.game_id, parked=True, touched=room.last_active)
        self.storage.check(self.rooms)
        self.storage.checkpoint_soon()   # what a lost WAL could take is at most one sweep's actions
        loaded = set(self.rooms)
        for gid in store.abandoned(now - lim.abandon_s):
            if gid in loaded:
                continue
            store.set_flags(gid, archived=True)
            archived += 1
        if evicted or archived:
            log.info("sweep: %d idle games left memory, %d abandoned games archived", evicted, archived)
        return evicted, archived
