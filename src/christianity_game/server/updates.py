"""What goes out to a game's connections (:class:`Updates`): the welcome of a connection that
joins, a resync, and the update of each accepted action. Each view is encoded once per state
(``Room.view``) and each seat's update once, however many connections it has; every state sent to
a seat is noted for the weighing of clients' claims (server/claims.py)."""

from __future__ import annotations

from typing import Any

from ..engine.events import Event
from .claims import StateClaims
from .conn import Conn, dumps
from .limits import Limits
from .logs import game_log
from .room import Room, table_fields


class Updates:
    """The messages built from a game's state: ``welcome``, ``sync`` and ``update``."""

    def __init__(self, claims: StateClaims) -> None:
        self.claims = claims

    def welcome(self, conn: Conn, room: Room, state_id: int | None, ref: Any, limits: Limits) -> None:
        """The welcome of ``conn``, just joined: its view, and the events after ``state_id``."""
        g = room.game
        since, events = room.events_since(state_id)
        text = dumps({
            "type": "welcome", "game_id": room.game_id, "seat": conn.seat, "role": conn.role,
            "state_id": g.state_id, "since": since, "events": [e.for_seat(conn.seat) for e in events],
            "view": room.view(conn.seat), **table_fields(g, conn.seat), "seats": room.seat_info(),
            "limits": limits.public(), "ref": ref,
        })
        conn.charge(len(text))
        conn.send(text)
        self.claims.sent(room, conn.seat if conn.role == "player" else None, g.state_id)

    def sync(self, conn: Conn, room: Room, state_id: int | None, reason: str, ref: Any) -> None:
        """A resync of ``conn``: the view and the events after ``state_id``, paid by its size."""
        g = room.game
        since, events = room.events_since(state_id)
        key = (g.state_id, conn.seat, since, reason)
        body = room.sync_cache.get(key)
        if body is None:
            body = dumps({
                "type": "sync", "game_id": room.game_id, "state_id": g.state_id, "since": since, "reason": reason,
                "events": [e.for_seat(conn.seat) for e in events], "view": room.view(conn.seat),
                **table_fields(g, conn.seat),
            })
            if len(room.sync_cache) >= 16:
                room.sync_cache.clear()
            room.sync_cache[key] = body
        text = f'{body[:-1]},"ref":{dumps(ref)}}}'
        conn.charge(len(text))   # a resync is paid by its size
        conn.send(text)
        self.claims.sent(room, conn.seat if conn.role == "player" else None, g.state_id)

    def broadcast(self, room: Room, events: list[Event], by: int, actor: Conn | None, ref: Any) -> None:
        """The update of one accepted action to every connection of ``room``: each seat's (and the
        spectators') message is built and encoded once, however many connections it has, and that
        one text goes to each of them (the actor's differs only by its acknowledgement)."""
        g = room.game
        head = f'{{"type":"update","game_id":{dumps(room.game_id)},"state_id":{g.state_id},"by":{dumps(by)},'
        cache: dict[int | None, tuple[str, str]] = {}   # seat -> (the update after its ack and ref, the whole update)
        for conn in list(room.conns):
            try:   # one connection's trouble must not leave the others un-notified
                seat = conn.seat
                if conn.role == "player":
                    self.claims.sent(room, seat, g.state_id)
                texts = cache.get(seat)
                if texts is None:
                    body = dumps({"events": [e.for_seat(seat) for e in events], "view": room.view(seat),
                                  **table_fields(g, seat)})[1:]   # "events":...,"view":...,"undo":...}
                    texts = cache[seat] = (body, f'{head}"ack":false,"ref":null,{body}')
                if conn is actor:
                    try:
                        echo = dumps(ref)
                    except Exception:   # noqa: BLE001 - refused earlier; never stop the broadcast on it
                        echo = "null"
                    conn.send(f'{head}"ack":true,"ref":{echo},{texts[0]}')
                else:
                    conn.send(texts[1])
            except Exception:   # noqa: BLE001 - logged; that connection resyncs
                game_log(room.game_id).exception("update to a connection of game %s failed; closing it", room.game_id)
                conn.close(1011, "internal error: reconnect to resync", flush=False)
