"""The WebSocket protocol's client messages, handled (:class:`Handlers`; docs/protocol.md).

A message is taken in two steps. :meth:`Handlers.on_message` checks its size and the connection's
rate at once; the rest is handled now, or after the action of its game being committed (in arrival
order: ``Room.waiting``). :meth:`Handlers.handle` parses and validates it (JSON, its nesting, its
strings, its model in ``protocol.CLIENT_MESSAGES``) and gives it to the handler of its type, as
:data:`HANDLERS` lists them. Handling is synchronous from validation to applying an action: nothing
else of the game runs in between.
"""

from __future__ import annotations

import hmac
import json
import time
from functools import partial
from typing import Any, Callable

from pydantic import ValidationError
from pydantic_core import to_json

from ..engine.actions import TABLE_ACTIONS, AdjustBadge, IllegalAction, action_from_json
from . import protocol as P
from .adjust import Adjustments
from .claims import StateClaims
from .commits import Commits
from .conn import Conn, dumps
from .limits import Limits
from .logs import game_log
from .peers import Peers
from .room import Room, token_hash
from .store import GameStore
from .updates import Updates

#: messages of one game that may wait for a commit at once (the rate limits keep them far fewer)
MAX_WAITING = 4096


class Handlers:
    """The checks every message meets, then one handler per message type (:data:`HANDLERS`)."""

    def __init__(self, limits: Limits, store: GameStore, claims: StateClaims, updates: Updates, commits: Commits,
                 adjust: Adjustments) -> None:
        self.limits = limits
        self.store = store
        self.claims = claims
        self.updates = updates
        self.commits = commits
        self.adjust = adjust
        self.peers: Peers | None = None

    def on_message(self, conn: Conn, room: Room, text: str | bytes | None) -> None:
        """Take one client message: its size and the connection's rate are checked at once; the
        rest is handled now, or after the action of this game being committed (in arrival order;
        see ``Room.waiting``)."""
        lim = self.limits
        if text is None:
            return
        if len(text) > lim.max_message_bytes:   # a str's length in chars <= its UTF-8 length
            if conn.allow():
                conn.error("too_large", f"messages are capped at {lim.max_message_bytes} bytes")
            return
        if isinstance(text, str) and len(text) * 4 > lim.max_message_bytes and \
                len(text.encode("utf-8", "surrogatepass")) > lim.max_message_bytes:
            if conn.allow():
                conn.error("too_large", f"messages are capped at {lim.max_message_bytes} bytes")
            return
        if not conn.allow():
            # (No closing of flooders: a WebSocket close makes the server read and discard until
            # the peer answers it, which a flooder never does; held unread, a flood costs nothing.)
            if conn.refused == 1 or conn.refused % 10 == 0:
                conn.error("rate_limited", f"at most {lim.rate:g} messages a second (bursts of {lim.burst}); "
                                           "this message was dropped and the connection is slowed down")
            return
        if room.busy():
            if len(room.waiting) >= MAX_WAITING:
                conn.error("rate_limited", "this game has too many messages waiting; this one was dropped")
                return
            room.waiting.append(partial(self.handle, conn, room, text))
            return
        self.handle(conn, room, text)

    def handle(self, conn: Conn, room: Room, text: str | bytes) -> None:
        """Handle one client message that passed the size and rate checks."""
        lim = self.limits
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError):
            conn.error("malformed_json", "the message is not valid JSON")
            return
        except RecursionError:
            conn.error("malformed_json", f"the message nests deeper than {lim.max_depth} levels")
            return
        if not isinstance(data, dict):
            conn.error("malformed_json", "a message must be a JSON object")
            return
        if too_deep(data, lim.max_depth):
            conn.error("malformed_json", f"the message nests deeper than {lim.max_depth} levels")
            return
        try:   # what cannot be echoed (a lone surrogate such as "\ud800") is refused before anything else
            to_json(data)
        except Exception:   # noqa: BLE001 - pydantic's serialisation error
            conn.error("bad_message", "strings must be valid Unicode: a lone surrogate (such as \\ud800) cannot "
                                      "be stored or echoed")
            return
        ref = data.get("ref")
        if not isinstance(ref, (str, int)) or isinstance(ref, bool) or (isinstance(ref, str) and len(ref) > 64):
            ref = None
        kind = data.get("type")
        model = P.CLIENT_MESSAGES.get(kind) if isinstance(kind, str) else None
        if model is None:
            conn.error("unknown_type", f"unknown message type {kind!r}; known: {', '.join(P.CLIENT_MESSAGES)}",
                       ref)
            return
        try:
            msg = model.model_validate(data)
        except ValidationError as exc:
            conn.error("bad_message", validation_text(str(kind), exc), ref)
            return
        # cluster hook (server/cluster.py): for a game another process owns, actions go to it
        if self.peers is not None and not self.peers.owns(room.game_id) and \
                self.peers.intercept(conn, room, text, msg):
            return
        try:
            HANDLERS[str(kind)](self, conn, room, msg)
        except Exception:   # noqa: BLE001 - a bug must not take the game down
            game_log(room.game_id).exception("error handling %s in game %s", kind, room.game_id)
            conn.error("internal_error", "the server failed on this message; nothing changed", ref)

    # ------------------------------------------------------------------ one handler per message type
    def hello(self, conn: Conn, room: Room, msg: P.Hello) -> None:
        """Join as the token's seat or as a spectator (again: switch to another token)."""
        if not msg.token:
            conn.error("missing_token", "hello needs the seat's or spectator's token", msg.ref)
            return
        ident = room.identify(msg.token)
        if ident is None:
            conn.error("wrong_token", "that token is not one of this game's", msg.ref)
            return
        self._join(conn, room, msg.token, ident, msg.state_id, msg.ref)

    def action(self, conn: Conn, room: Room, msg: P.ActionMessage) -> None:
        """A seat's action, against the state it saw: refused with a code and nothing changed, or
        applied and committed (an adjustment at an ``ask`` table waits for the other side)."""
        ref = msg.ref
        g = room.game
        if not self.may_act(conn, room, msg.token, ref, "action"):
            return
        assert conn.seat is not None   # a player's connection (checked just above)
        data = dict(msg.action)
        if "seat" not in data or data["seat"] is None:
            data["seat"] = conn.seat
        elif data["seat"] != conn.seat:
            conn.error("wrong_seat", f"this token is seat {conn.seat}'s, not seat {data['seat']!r}'s", ref,
                       g.state_id)
            return
        try:
            action = action_from_json(data)
        except IllegalAction as exc:
            conn.error("malformed_action", exc.message, ref, g.state_id, exc.code)
            return
        if g.result is not None:
            won = "a draw" if g.result.winner == "draw" else f"{g.result.winner} won"
            conn.error("game_over", f"the game is over: {won} ({g.result.reason})", ref, g.state_id)
            return
        if self.claims.state_lost(conn, room, msg.state_id, ref):
            return
        if msg.state_id != g.state_id:
            conn.error("stale_state", f"the game is at state {g.state_id}, not {msg.state_id}; resyncing", ref,
                       g.state_id)
            self.updates.sync(conn, room, msg.state_id, "stale_state", ref)
            return
        if not isinstance(action, TABLE_ACTIONS):
            deciders = [s for s, _ in g.pending]
            if conn.seat not in deciders:
                waits = ", ".join(str(s) for s in deciders) or "nobody"
                conn.error("not_your_turn", f"seat {conn.seat} may not act now; the game waits for seat {waits}",
                           ref, g.state_id)
                return
        elif not isinstance(action, AdjustBadge):
            pass   # Undo, OfferEnd, AnswerEnd: the engine alone decides (its reason codes)
        elif room.manual_adjust == "off":
            conn.error("adjust_off", "manual Maturity/Humility adjustment is off at this table", ref, g.state_id)
            return
        elif room.manual_adjust == "ask" and room.answerers(conn.seat):
            self.adjust.request(conn, room, action, ref)
            return
        try:
            events = g.apply(action)
        except IllegalAction as exc:
            conn.error("illegal_action", exc.message, ref, g.state_id, exc.code)
            return
        self.commits.accept(room, action.to_json(), events, action.seat, conn, ref)

    def sync(self, conn: Conn, room: Room, msg: P.SyncRequest) -> None:
        """A full resync: the view and the events after the state the client names."""
        if conn.role is None:
            conn.error("not_joined", "send hello with a token first", msg.ref)
        elif not self.claims.state_lost(conn, room, msg.state_id, msg.ref):
            self.updates.sync(conn, room, msg.state_id, "requested", msg.ref)

    def adjust_answer(self, conn: Conn, room: Room, msg: P.AdjustAnswer) -> None:
        """A seat's answer to another seat's adjustment request (server/adjust.py)."""
        if self.may_act(conn, room, msg.token, msg.ref, "answer"):
            self.adjust.answer(conn, room, msg)

    def ping(self, conn: Conn, room: Room, msg: P.Ping) -> None:
        """A keep-alive: pong."""
        conn.send(dumps({"type": "pong", "ref": msg.ref}))

    # ------------------------------------------------------------------ joining, and a seat's authority
    def join_conn(self, conn: Conn, room: Room, token: str, ident: tuple[str, int | None], state_id: int | None,
                  ref: Any) -> None:
        """Join ``conn`` to ``room`` as ``ident`` (a token in the connection's URL): now, or after the
        action being committed. Meanwhile the connection counts as joined (the app's join deadline
        must not close it); its messages queue behind the join."""
        if room.busy():
            prior = (conn.role, conn.seat)
            conn.role, conn.seat = ident

            def later() -> None:
                conn.role, conn.seat = prior
                self._join(conn, room, token, ident, state_id, ref)
            room.waiting.append(later)
            return
        self._join(conn, room, token, ident, state_id, ref)

    def _join(self, conn: Conn, room: Room, token: str, ident: tuple[str, int | None], state_id: int | None,
              ref: Any) -> None:
        """``conn`` joins as ``ident`` (within its seat's or the spectators' cap), then its welcome,
        and the adjustment requests still waiting."""
        if self.claims.state_lost(conn, room, state_id, ref, ident):
            return
        if (conn.role, conn.seat) != ident or conn.room is not room or conn not in room.conns:
            want_role, want_seat = ident
            here = sum(1 for c in room.conns if c is not conn and c.role == want_role and c.seat == want_seat)
            lim = self.limits
            cap = lim.conns_per_seat if want_role == "player" else lim.conns_per_game
            if here >= cap:
                player = want_role == "player"
                who = f"seat {want_seat}" if player else "this game's spectators"
                conn.error("too_many_connections", f"{who} already {'has' if player else 'have'} "
                                                   f"{here} connections (at most {cap})", ref)
                conn.close(4429, "too many connections")
                return
        conn.role, conn.seat = ident
        conn.thash = token_hash(token)
        conn.room = room
        room.conns.add(conn)
        if conn.role == "player" and conn.seat is not None:
            seat = room.seats[conn.seat]
            if not seat.claimed:
                seat.claimed = True
                self.store.claim(room.game_id, conn.seat)
        room.last_active = time.time()
        self.updates.welcome(conn, room, state_id, ref, self.limits)
        for req in room.requests.values():   # adjustment requests still waiting
            conn.send(self.adjust.request_text(room, req, None))
        if self.peers is not None:   # cluster hook: those waiting on the game's owner, another process
            self.peers.welcomed(conn, room)

    def may_act(self, conn: Conn, room: Room, token: str | None, ref: Any, what: str) -> bool:
        """The authority checks of a seat's message (an action, an answer): joined, the token it
        joined with, a player and not a spectator. False after sending the refusal."""
        state_id = room.game.state_id
        if conn.role is None:
            conn.error("not_joined", "send hello with your seat's token first", ref, state_id)
            return False
        if not token:
            conn.error("missing_token", f"an {what} must carry the seat's token", ref, state_id)
            return False
        if conn.thash is None or not hmac.compare_digest(token_hash(token), conn.thash):
            conn.error("wrong_token", "the token is not the one this connection joined with", ref, state_id)
            return False
        if conn.role != "player" or conn.seat is None:
            conn.error("not_a_player", f"a spectator cannot {'act' if what == 'action' else what}", ref, state_id)
            return False
        return True


#: A client message's type -> its handler, given the message as its model (``protocol.CLIENT_MESSAGES``
#: has the same types) after the checks of ``Handlers.handle``.
HANDLERS: dict[str, Callable[[Handlers, Conn, Room, Any], None]] = {
    "hello": Handlers.hello,                  # join as the token's seat, or as a spectator
    "action": Handlers.action,                # a seat's action against the state it saw
    "sync": Handlers.sync,                    # a full resync
    "adjust_answer": Handlers.adjust_answer,  # another seat's manual adjustment, accepted or declined
    "ping": Handlers.ping,                    # a keep-alive: pong
}


def too_deep(obj: Any, limit: int) -> bool:
    """True if ``obj`` (parsed JSON) nests deeper than ``limit`` (checked without recursion)."""
    stack: list[tuple[Any, int]] = [(obj, 1)]
    while stack:
        cur, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(cur, dict):
            stack.extend((v, depth + 1) for v in cur.values() if isinstance(v, (dict, list)))
        elif isinstance(cur, list):
            stack.extend((v, depth + 1) for v in cur if isinstance(v, (dict, list)))
    return False


def validation_text(kind: str, exc: ValidationError) -> str:
    """A model's refusal of a message, in a sentence (its first three errors)."""
    bits = []
    for err in exc.errors()[:3]:
        where = ".".join(str(p) for p in err.get("loc", ())) or "message"
        bits.append(f"{where}: {err.get('msg', 'invalid')}")
    return f"bad {kind} message: " + "; ".join(bits)
