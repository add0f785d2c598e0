"""One game in memory (:class:`Room`): the engine's Game, its seats and their hashed tokens, its
connections, its bots, each state's views encoded once, the adjustment requests waiting for an
answer, and the queue of work that waits for the game's commit.

While an action of a game is being committed (server/commits.py), whatever else comes for that game
waits for it in arrival order (``Room.waiting``, ``Room.when_settled``), so no two actions of a game
can interleave, nobody sees a state that is not stored yet, and no lock is needed on game state.
"""

from __future__ import annotations

import bisect
import collections
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable

from ..bots import make_bot
from ..bots.base import Bot
from ..bots.match import to_move
from ..engine.actions import AdjustBadge
from ..engine.events import Event
from ..engine.game import Game
from .conn import Conn, Encoded, dumps_bytes
from .store import GameRow, SeatRow
from .writer import run_deferred


def token_hash(token: str) -> str:
    """A token as stored (SHA-256): the store never holds a seat's token itself."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    """A fresh secret token for a seat's or the spectators' link."""
    return secrets.token_urlsafe(18)


class Room:
    """One game in memory: the engine's Game, its seats, its connections and its bots."""

    def __init__(self, game_id: str, game: Game, row: GameRow) -> None:
        self.game_id = game_id
        self.game = game
        self.row = row
        self.seats: list[SeatRow] = row.seats
        self.conns: set[Conn] = set()
        self.bots: dict[int, Bot] = {}
        for s in self.seats:
            if s.kind == "bot":
                self.bots[s.seat] = make_bot(s.bot or "random", seed=game.seed * 31 + s.seat + len(game.actions))
        self.bot_pending = False      # a bot move is scheduled (server/bot_turns.py)
        self.attached = 0             # connections open on this game (admitted, joined or not)
        self.last_active = time.time()
        opts = row.options
        self.owner: str = str(opts.get("owner") or "")
        self.people = sum(1 for s in self.seats if s.kind == "human")
        self.open_seats: set[int] = {int(x) for x in opts.get("open") or ()}
        self.manual_adjust: str = str(opts.get("manualAdjust") or default_manual_adjust(self.seats, game.lineup))
        self.requests: dict[int, AdjustReq] = {}
        # (state id, seat, since, reason) -> a sync message without its ref: a resync storm of one
        # state costs one serialisation (cleared whenever the game changes)
        self.sync_cache: dict[tuple[int, int | None, int | None, str], str] = {}
        self.next_request = 1
        # The views of the current state, encoded once each (seat, or None: every spectator) and
        # put as they are into every update, welcome and sync of that state.
        self.views: dict[int | None, Encoded] = {}
        self.views_state = -1
        # An action of this game is being committed (server/writer.py): until it is durable and
        # its updates are out, nothing else of this game is handled; what comes meanwhile waits
        # in ``waiting``, in arrival order, so the game in memory is never read ahead of storage.
        self.writing = False
        self.waiting: collections.deque[Callable[[], None]] = collections.deque()

    def view(self, seat: int | None) -> Encoded:
        """``seat``'s view of the current state (None: a spectator's), built and encoded once per state."""
        g = self.game
        if self.views_state != g.state_id:
            self.views.clear()
            self.views_state = g.state_id
        enc = self.views.get(seat)
        if enc is None:
            enc = self.views[seat] = Encoded(dumps_bytes(g.view(seat)))
        return enc

    def forget_views(self) -> None:
        """The game object was replaced (reloaded): its state id alone no longer says which views hold."""
        self.views.clear()
        self.views_state = -1

    def busy(self) -> bool:
        """An action is being committed, or work waits for one: new work must queue behind it."""
        return self.writing or bool(self.waiting)

    def when_settled(self, fn: Callable[..., None], *args: Any) -> None:
        """``fn(*args)`` now, or after the action being committed (and what waits before it)."""
        if self.busy():
            self.waiting.append(partial(fn, *args))
        else:
            fn(*args)

    def run_waiting(self) -> None:
        """Run what waited for the commit, in arrival order, until one of them starts the next
        commit (the rest then wait for that one)."""
        while self.waiting and not self.writing:
            run_deferred(self.waiting.popleft())

    def identify(self, token: str) -> tuple[str, int | None] | None:
        h = token_hash(token)
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return "player", s.seat
        if hmac.compare_digest(self.row.spectator_hash, h):
            return "spectator", None
        return None

    def bot_to_move(self) -> int | None:
        turn = to_move(self.game, self.bots)
        return None if turn is None else turn[0]

    def events_since(self, state_id: int | None) -> tuple[int | None, list[Event]]:
        """(since, events after ``state_id``); since None when the id is missing or unknown."""
        if state_id is None or state_id < 0 or state_id > self.game.state_id:
            return None, []
        log_ = self.game.log
        i = bisect.bisect_right(log_, state_id, key=lambda e: e.state_id)
        return state_id, log_[i:]

    def seat_info(self) -> list[dict[str, Any]]:
        counts: dict[int | None, int] = {}
        for c in self.conns:
            if c.role == "player":
                counts[c.seat] = counts.get(c.seat, 0) + 1
        sides = sides_of(self.game.lineup)
        return [{"seat": s.seat, "side": sides[s.seat], "kind": s.kind, "bot": s.bot, "claimed": s.claimed,
                 "name": s.name, "connected": counts.get(s.seat, 0),
                 "access": access(s, self.open_seats)} for s in self.seats]

    def answerers(self, seat: int) -> list[int]:
        """Who may answer ``seat``'s adjustment request: people on the other side, else other people."""
        sides = sides_of(self.game.lineup)
        people = [s.seat for s in self.seats if s.kind == "human" and s.seat != seat]
        other = [s for s in people if sides[s] != sides[seat]]
        return other or people


@dataclass(slots=True)
class AdjustReq:
    """A manual adjustment waiting for the other side's answer (``manualAdjust: ask``)."""

    id: int
    seat: int
    action: AdjustBadge
    answerers: list[int] = field(default_factory=list)


def table_fields(game: Game, seat: int | None) -> dict[str, Any]:
    """What a seat's messages carry beside its view for the table actions: ``undo`` (may this seat
    undo now, else the engine's reason; null for a spectator), ``end_offer`` (the side whose
    offer to end a duel waits for an answer) and ``end_waiting`` (the seats it still waits for, G-8)."""
    undo: dict[str, Any] | None = None
    if seat is not None:
        why = game.undo_refusal(seat)
        undo = {"allowed": True, "reason": None, "message": None} if why is None else \
            {"allowed": False, "reason": why[0], "message": why[1]}
    return {"undo": undo, "end_offer": game.end_offer, "end_waiting": game.end_waiting()}


def sides_of(lineup: str) -> list[str]:
    """Each seat's side ("evil" or "righteous") in a line-up such as ``ER``."""
    return ["evil" if ch == "E" else "righteous" for ch in lineup]


def access(seat: SeatRow, open_seats: set[int]) -> str | None:
    """A person's seat is ``open`` (listed: a stranger may join it) or ``invited``; None for a bot's."""
    if seat.kind != "human":
        return None
    return "open" if seat.seat in open_seats else "invited"


def people_on_both_sides(kinds: list[str], lineup: str) -> bool:
    """A human seat on each side (a duel between people)."""
    sides = sides_of(lineup)
    return len({sides[i] for i, k in enumerate(kinds) if k == "human"}) > 1


def default_manual_adjust(seats: list[SeatRow], lineup: str) -> str:
    """``ask`` with people on both sides, else ``free``."""
    return "ask" if people_on_both_sides([s.kind for s in seats], lineup) else "free"
