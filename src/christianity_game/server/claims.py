"""Clients' claims of states the server does not hold (:class:`StateClaims`): a client that says it
has seen a later state than the game in memory is refused with ``state_lost``, and the claim is
weighed: an alarm (``/healthz`` unhealthy) only on evidence that acknowledged actions were lost,
otherwise counted; both logged at most once a minute per game."""

from __future__ import annotations

import logging
import time
from typing import Any

from .conn import Conn
from .logs import game_log
from .room import Room


class StateClaims:
    """What this process sent each seat, and the claims weighed against it.

    ``problems`` is the server's list of storage problems (shared: a verified claim is one);
    ``lost`` holds the alarms raised by claims, one per game, kept apart so that a claim never
    pushes out a real problem; ``unverified`` counts the claims that were not evidence."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        # game -> seat -> the latest state id sent to a connection of that seat by this process: a
        # client's claim to have seen a later state than the server holds is evidence of lost
        # actions only up to what its seat was sent (anyone can claim any number)
        self.sent_states: dict[str, dict[int, int]] = {}
        # alarms from clients' claims, one per game (kept apart: a claim never evicts a real alarm)
        self.lost: dict[str, str] = {}
        self.unverified = 0                   # claims that were not evidence (counted, not listed)
        # (game, level) -> (last logged, claims not logged since): alarms and other claims apart, so
        # that a flood of worthless claims never silences an alarm
        self._logged: dict[tuple[str, int], tuple[float, int]] = {}

    def state_lost(self, conn: Conn, room: Room, state_id: int | None, ref: Any,
                   ident: tuple[str | None, int | None] | None = None) -> bool:
        """A client that claims a state this server does not hold: refused with ``state_lost``;
        True if so. ``ident``: who the connection is joining as (its role and seat so far).

        The claim is an alarm (logged at ERROR, listed in ``/healthz``) only on evidence: it comes
        from a seat's connection and either that seat was sent the state by this process (which
        then lost it: a reload from damaged storage; a storage problem of its own, so ``/healthz``
        turns unhealthy), or the store itself reported a loss (a vanished write-ahead log; after a
        restart nothing sent before is remembered, and the claim names a game that lost). Any other
        claim (a spectator's, or a seat's with no loss known) is logged at WARNING and counted.
        Both are logged at most once a minute per game, with the number of claims in between."""
        g = room.game
        if state_id is None or state_id <= g.state_id:
            return False
        role, seat = ident if ident is not None else (conn.role, conn.seat)
        sent = self.sent_states.get(room.game_id, {}).get(seat, -1) if seat is not None else -1
        verified = role == "player" and state_id <= sent   # this process sent it, and no longer holds it
        evidence = verified or (role == "player" and bool(self.problems))
        msg = (f"game {room.game_id}: a client has seen state {state_id} but the server holds only state "
               f"{g.state_id}: acknowledged actions were lost from storage (a deleted or damaged "
               "write-ahead log, or a restored backup)")
        if verified:   # a loss this process saw happen: a real alarm (/healthz unhealthy), once per game
            if room.game_id not in self.lost and len(self.problems) < 100:
                self.problems.append(msg)
            self.lost.setdefault(room.game_id, msg)
            self._log(room.game_id, logging.ERROR, "STORAGE: %s", msg)
        elif evidence:
            if room.game_id not in self.lost and len(self.lost) < 100:
                self.lost[room.game_id] = msg
            self._log(room.game_id, logging.ERROR, "STORAGE: %s", msg)
        else:
            self.unverified += 1
            self._log(room.game_id, logging.WARNING, "a %s connection claims state %d of game %s, which "
                      "holds state %d; not taken as evidence of lost actions (%s)", role or "not joined",
                      state_id, room.game_id, g.state_id, "a spectator's claim" if role != "player" else
                      "no loss is known and this seat was not sent that state")
        conn.error("state_lost", f"game {room.game_id}: this client says it has seen state {state_id} but the "
                                 f"server holds only state {g.state_id} (acknowledged actions lost from storage, "
                                 "or a wrong state id); send hello without state_id to go on from the server's "
                                 "state", ref, g.state_id)
        return True

    def _log(self, game_id: str, level: int, fmt: str, *args: Any, every: float = 60.0) -> None:
        """Log a claim about ``game_id`` at most once per ``every`` seconds per game (a flood of
        claims writes one line a minute, with the number it stands for)."""
        now = time.monotonic()
        key = (game_id, level)
        last, quiet = self._logged.get(key, (-every, 0))
        if now - last < every:
            self._logged[key] = (last, quiet + 1)
            return
        if len(self._logged) > 10_000:   # forget games not claimed about for a while
            self._logged = {k: v for k, v in self._logged.items() if now - v[0] < every}
        self._logged[key] = (now, 0)
        if quiet:
            fmt += " (and %d more such claims in the last minute, not logged)"
            args = (*args, quiet)
        game_log(game_id).log(level, fmt, *args)

    def sent(self, room: Room, seat: int | None, state_id: int) -> None:
        """Remember that a connection of ``seat`` was sent ``state_id`` (see ``state_lost``)."""
        if seat is None:
            return
        sent = self.sent_states.get(room.game_id)
        if sent is None:
            if len(self.sent_states) >= 20_000:   # the oldest game first (it is added again when it plays)
                del self.sent_states[next(iter(self.sent_states))]
            sent = self.sent_states[room.game_id] = {}
        if sent.get(seat, -1) < state_id:
            sent[seat] = state_id

    def report(self, most: int = 20) -> list[str]:
        """What ``/healthz`` lists: the real storage problems first (never pushed out by claims),
        then the alarms raised by clients' claims, ``most`` in all."""
        real = self.problems[-most:]
        claims = [m for m in self.lost.values() if m not in real]
        return real + claims[:max(0, most - len(real))]
