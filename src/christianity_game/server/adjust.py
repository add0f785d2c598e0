"""Manual adjustment by request (:class:`Adjustments`): at a table whose ``manualAdjust`` is
``ask``, a badge set by hand waits for the other side's answer; every connection sees the request
and how it ended (``adjust_request``, ``adjust_resolved``); an accepted one is applied as the
requesting seat's action."""

from __future__ import annotations

from functools import partial
from typing import Any

from ..engine.actions import AdjustBadge, IllegalAction
from . import protocol as P
from .commits import Commits
from .conn import Conn, dumps
from .logs import game_log
from .peers import Peers
from .room import AdjustReq, Room


class Adjustments:
    """The adjustment requests of every game (each room's ``requests``), their answers committed
    through ``commits``; the cluster relays them to the other processes' connections."""

    def __init__(self, commits: Commits) -> None:
        self.commits = commits
        self.peers: Peers | None = None

    def void_if_over(self, room: Room) -> None:
        """After each durable action: a game that is over voids the requests still waiting."""
        if room.game.result is not None and room.requests:
            for req in list(room.requests.values()):
                self.resolve(room, req, "void", None, None, None)

    def request_text(self, room: Room, req: AdjustReq, ref: Any) -> str:
        """The ``adjust_request`` message of ``req`` (a welcome repeats the waiting ones)."""
        return dumps({"type": "adjust_request", "game_id": room.game_id, "request": req.id, "by": req.seat,
                      "action": req.action.to_json(), "answerers": req.answerers, "state_id": room.game.state_id,
                      "ref": ref})

    def request(self, conn: Conn, room: Room, action: AdjustBadge, ref: Any) -> None:
        """``manualAdjust: ask``: the adjustment waits for the other side's answer; everyone sees it."""
        if any(r.seat == action.seat for r in room.requests.values()):
            conn.error("adjust_pending", "this seat already has an adjustment request waiting for an answer", ref,
                       room.game.state_id)
            return
        try:   # what the engine would refuse is refused now, not after the other side said yes
            room.game.clone().apply(action)
        except IllegalAction as exc:
            conn.error("illegal_action", exc.message, ref, room.game.state_id, exc.code)
            return
        req = AdjustReq(room.next_request, action.seat, action, room.answerers(action.seat))
        room.next_request += 1
        room.requests[req.id] = req
        plain = self.request_text(room, req, None)
        for c in list(room.conns):
            c.send(self.request_text(room, req, ref) if c is conn else plain)
        if self.peers is not None:   # cluster hook: to the connections of the other processes too
            self.peers.relay(room, plain)

    def answer(self, conn: Conn, room: Room, msg: P.AdjustAnswer) -> None:
        """A seat's answer to a request (its authority checked): declined, void (the game is over, or
        the adjustment no longer applies) or accepted (applied as the requesting seat's action)."""
        g = room.game
        ref = msg.ref
        assert conn.seat is not None   # a player's connection (checked by the handler)
        req = room.requests.get(msg.request)
        if req is None:
            conn.error("no_such_request", f"no adjustment request {msg.request} is waiting", ref, g.state_id)
            return
        if conn.seat not in req.answerers:
            conn.error("not_your_request", f"seat {conn.seat} may not answer this request (seats "
                                           f"{', '.join(map(str, req.answerers))} may)", ref, g.state_id)
            return
        if not msg.accept:
            self.resolve(room, req, "declined", conn.seat, conn, ref)
            return
        if g.result is not None:
            self.resolve(room, req, "void", conn.seat, conn, ref)
            return
        try:
            events = g.apply(req.action)
        except IllegalAction as exc:
            game_log(room.game_id).info("adjustment request %d of game %s no longer applies: %s", req.id, room.game_id,
                                        exc.message)
            self.resolve(room, req, "void", conn.seat, conn, ref)
            return
        room.requests.pop(req.id, None)
        self.commits.accept(room, req.action.to_json(), events, req.seat, None, None,
                            then=partial(self.resolve, room, req, "accepted", conn.seat, conn, ref))

    def resolve(self, room: Room, req: AdjustReq, outcome: str, by: int | None, answerer: Conn | None,
                ref: Any) -> None:
        """``req`` is over (``outcome``: accepted, declined or void): every connection hears it."""
        room.requests.pop(req.id, None)
        base = {"type": "adjust_resolved", "game_id": room.game_id, "request": req.id, "by": req.seat,
                "outcome": outcome, "answered_by": by, "state_id": room.game.state_id}
        plain = dumps({**base, "ref": None})
        for c in list(room.conns):
            c.send(dumps({**base, "ref": ref}) if c is answerer else plain)
        if self.peers is not None:   # cluster hook: to the connections of the other processes too
            self.peers.relay(room, plain)
