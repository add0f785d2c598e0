"""Several server processes on one PostgreSQL database: game leases, forwarding, updates everywhere.

``serve --workers N`` (N uvicorn worker processes on one port) and ``serve --cluster`` (one process
that shares its database with others, on this host or elsewhere) run :class:`Cluster` beside the
:class:`~christianity_game.server.core.GameServer` of each process: the forwarding and the relays
here, on the leases, the tick, the notifications and the following of server/leases.py. The
design (docs/decisions.md, "Several workers on one PostgreSQL database"):

* **One owner per live game: a lease row.** ``leases(game_id, owner, expires_at)`` (migration 3);
  the owner renews all its leases in one statement every :data:`TICK_S` seconds, for
  :data:`LEASE_S` seconds at a time, with the database's clock (``now()``), so hosts' clocks do not
  matter. Only the owner applies actions, runs the game's bots and writes its rows. A lease that
  was not renewed (its owner was killed, or cut off from the database) is taken over by the next
  process that needs the game or finds it orphaned: within about ``LEASE_S + TICK_S`` seconds.
  A stale owner that still writes cannot fork a game: an action row is keyed by (game, number),
  so its INSERT fails and its game is reloaded from the store (server/commits.py).
* **Everyone else follows.** A process with a connection to a game it does not own keeps a
  replica of it (the engine is deterministic: the stored actions, replayed, give the same state).
  The owner announces each committed action on the channel ``cg_games`` (``a GAME COUNT SENDER``,
  a few bytes: far from NOTIFY's 8,000-byte limit); a follower then reads the new action rows
  from the store, applies them and sends its own connections their updates, each view built
  there. A lost notification is made up for at the next tick (each follower's action count is
  compared with the store's).
* **Actions are forwarded to the owner** (``NOTIFY`` on the owner's own channel ``cg_w_ID``, with
  the reply on the asker's): the client's message as it came, with the identity its connection
  joined as. The owner handles it exactly as one of its own connections' (the same checks, the same
  queue behind a commit) through a :class:`ProxyConn`, and answers what that connection was sent:
  errors as they are, the acknowledgement as the action number it acknowledged, which the follower
  turns into the ``update`` with ``ack: true`` when it applies that action. A lobby join
  (``POST /api/games/{id}/join``) is forwarded the same way. When the lease is free, the asker
  takes the game over instead (catching up from the store first) and handles it itself.
* **Adjustment requests are the owner's** (``manualAdjust: ask``): it relays each request and
  outcome on ``cg_games`` (``m GAME SENDER COUNT TEXT``) to the other processes' connections. A
  process that follows the game keeps the requests still waiting, asked of the owner when its
  replica first gets a connection and kept up to date by the relays, so that a connection joining
  there gets them after its welcome, as on the owner.
* **Rate limits across processes.** Game creation per address is counted in the database (the
  games an address created within ``create_burst / create_rate`` seconds, at most
  ``create_burst``); live-game quotas were already counts of the database. The per-address HTTP
  request rate and the WebSocket connection caps (per address, in total, per seat and a game's
  spectators) are shared: each
  process enforces its share, the limit divided by the live processes (``workers`` rows, renewed
  with the leases), so together they hold the limit.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import psycopg

from .conn import Conn, dumps
from .errors import LobbyError
from .leases import CHANNEL, FORWARD_TIMEOUT_S, MAX_FORWARD_BYTES, Leases
from .limits import Limits
from .logs import game_log
from .room import Room


class ProxyConn(Conn):
    """The owner's stand-in for a connection of another process, for one forwarded message: it
    joins the room while the message is handled, and keeps what the connection would have been
    sent (with the game's action count at that moment) for the answer."""

    __slots__ = ("texts", "closed_with", "game_room")

    def __init__(self, limits: Limits, room: Room, role: str | None, seat: int | None, thash: str | None) -> None:
        super().__init__(None, limits, "")
        self.role, self.seat, self.thash, self.room = role, seat, thash, room
        self.game_room = room
        self.texts: list[tuple[str, int]] = []
        self.closed_with: tuple[int, str] | None = None

    def send(self, text: str) -> None:
        if not self.closing and self.room is not None:
            self.texts.append((text, len(self.game_room.game.actions)))

    def close(self, code: int, reason: str, flush: bool = True) -> None:
        if not self.closing:
            self.closing = True
            self.closed_with = (code, reason)
            if self.room is not None:
                self.room.conns.discard(self)

    def stopped_reading(self, grace: float = 1.0) -> None:
        self.close(1013, "stopped reading: reconnect to resync")



class Cluster(Leases):
    """This process's part in a cluster of servers on one PostgreSQL database (see the module docstring)."""

    def _dispatch(self, channel: str, payload: str) -> None:
        if channel == CHANNEL:
            if payload.startswith("m "):   # a message to every connection of a game (see ``relay``)
                _, gid, sender, count, text = payload.split(" ", 4)
                if sender != self.id and gid in self.server.rooms:
                    self._note_waiting(gid, int(count), text)
                    self._spawn(self._relayed(gid, int(count), text))
                return
            bits = payload.split()
            if len(bits) >= 3 and bits[-1] != self.id and bits[1] in self.server.rooms:
                if bits[0] == "a" and bits[1] not in self.owned:
                    self._spawn(self._catch_up(bits[1]))
                elif bits[0] == "s":
                    self._refresh_seats(bits[1])
            return
        msg = json.loads(payload)
        op = msg.get("op")
        if op == "reply":
            if "waiting" in msg:   # taken now, in the order of the owner's notifications (see ``_ask_waiting``)
                self._known_waiting(str(msg.get("game")), msg["waiting"])
            fut = self._pending.pop(int(msg["id"]), None)
            if fut is not None and not fut.done():
                fut.set_result(msg)
        elif op == "msg":
            self._serve_message(msg)
        elif op == "join":
            self._serve_join(msg)
        elif op == "waiting":
            self._serve_waiting(msg)

    def relay(self, room: Room, text: str) -> None:
        """Hook (``Adjustments.request``, ``resolve``): a message of ``room`` to every connection,
        sent by the owner to its own: the other processes send it to theirs once their copies reached
        the action count it was sent at (``m GAME SENDER COUNT TEXT``)."""
        if len(text) <= MAX_FORWARD_BYTES:
            self._notify(CHANNEL, f"m {room.game_id} {self.id} {len(room.game.actions)} {text}")

    async def _relayed(self, game_id: str, count: int, text: str) -> None:
        """A relayed message, to this process's connections of the game after the updates before it."""
        room = self.server.rooms.get(game_id)
        if room is not None and len(room.game.actions) < count:
            await self._catch_up(game_id)
        async with self._locks.setdefault(game_id, asyncio.Lock()):   # after a catch-up under way
            room = self.server.rooms.get(game_id)
            for c in list(room.conns) if room is not None else []:
                c.send(text)

    # ------------------------------------------------------------------ adjustment requests held elsewhere
    def _note_waiting(self, game_id: str, count: int, text: str) -> None:
        """A relayed message of ``game_id``: a request made or resolved on its owner, kept (or let go)
        for this process's next welcome. Only for a replica whose requests are known (the owner was
        asked, see ``_ask_waiting``): one that joined the relays late would miss the earlier ones."""
        known = self._waiting.get(game_id)
        if known is None or known[0] is not self.server.rooms.get(game_id):
            return
        try:
            msg = json.loads(text)
            kind, rid = msg.get("type"), int(msg["request"])
        except (ValueError, KeyError, TypeError):
            return
        if kind == "adjust_request":
            known[1][rid] = (count, text)
        elif kind == "adjust_resolved":
            known[1].pop(rid, None)

    def _known_waiting(self, game_id: str, texts: Any) -> None:
        """The owner's answer to ``_ask_waiting``: the requests waiting there, for this replica."""
        room = self.server.rooms.get(game_id)
        if room is None or not isinstance(texts, list):
            return
        waiting: dict[int, tuple[int, str]] = {}
        for text in texts:
            try:
                waiting[int(json.loads(text)["request"])] = (0, str(text))
            except (ValueError, KeyError, TypeError):
                continue
        self._waiting[game_id] = (room, waiting)

    async def _ask_waiting(self, game_id: str) -> None:
        """Before a connection joins a game another process owns (``ready``): learn the adjustment
        requests waiting on the owner, once per replica (the relays keep them up to date from then
        on). The answer comes on this process's channel after every relay the owner sent before it
        and before every one after, and is taken in that order (``_dispatch``): nothing is missed
        or counted twice. No answer: the joiner sees only the outcome (``adjust_resolved``)."""
        room = self.server.rooms.get(game_id)
        if room is None or room.manual_adjust != "ask" or self.owns(game_id):
            return
        known = self._waiting.get(game_id)
        if known is not None and known[0] is room:
            return
        try:
            owner = await self._owner_of(game_id)
        except psycopg.Error as exc:
            game_log(game_id).warning("cluster: could not ask who runs game %s for its waiting requests: %s",
                                      game_id, exc)
            return
        if owner is not None and owner != self.id:
            await self._request(owner, {"op": "waiting", "game": game_id}, timeout=1.0)

    def welcomed(self, conn: Conn, room: Room) -> None:
        """Hook (``Handlers`` joining a connection, after its welcome): on a game another process owns, the adjustment
        requests waiting there, as the owner sends its own after a welcome. One made at an action
        this copy has not applied yet reaches the connection with that action (``_relayed``)."""
        known = self._waiting.get(room.game_id)
        if known is None or known[0] is not room or self.owns(room.game_id):
            return
        have = len(room.game.actions)
        for count, text in list(known[1].values()):
            if count <= have:
                msg = json.loads(text)
                msg.update(state_id=room.game.state_id, ref=None)
                conn.send(dumps(msg))

    def _serve_waiting(self, msg: dict[str, Any]) -> None:
        """The owner's side of ``_ask_waiting``: the game's waiting requests, as a welcome follows them."""
        gid = str(msg.get("game"))
        if not self.owns(gid):
            self._answer(msg, {"moved": True})
            return
        room = self.server.rooms.get(gid)
        texts = [] if room is None else [self.server.adjust.request_text(room, req, None) for req in room.requests.values()]
        while texts and len(json.dumps(texts)) > MAX_FORWARD_BYTES:   # (one a seat: a few hundred bytes each)
            texts.pop()
        self._answer(msg, {"game": gid, "waiting": texts})


    # ------------------------------------------------------------------ forwarding: the asking side
    async def ready(self, game_id: str) -> None:
        """Hook (the WebSocket endpoint, before a connection joins): own ``game_id`` if its lease is
        free, else bring this process's copy up to what is stored (a client reconnecting from a
        worker that died has seen every state the store holds, and no more) and learn the adjustment
        requests waiting on the owner (``_ask_waiting``)."""
        if not await self.adopt(game_id):
            await self._catch_up(game_id, wait=False)
            await self._ask_waiting(game_id)   # the adjustment requests its welcome will carry

    def intercept(self, conn: Conn, room: Room, text: str | bytes, msg: Any) -> bool:
        """Hook (``Handlers.handle``), for a game another process owns: a seat's action or answer is
        forwarded to the owner; a hello or sync naming a state this copy has not reached yet is
        handled once it has caught up. True if the message was taken (the handlers then do nothing more)."""
        from . import protocol as P
        if room.game_id in self._catching:   # just taken over here: handled once its copy caught up
            self._spawn(self._handle_later(conn, room, text))
            return True
        if isinstance(msg, (P.ActionMessage, P.AdjustAnswer)):
            self.forward(conn, room, text, msg.ref, getattr(msg, "state_id", None))
            return True
        state_id = getattr(msg, "state_id", None)
        if isinstance(msg, (P.Hello, P.SyncRequest)) and state_id is not None and state_id > room.game.state_id:
            self._spawn(self._handle_later(conn, room, text))
            return True
        return False

    async def _handle_later(self, conn: Conn, room: Room, text: str | bytes) -> None:
        deadline = time.monotonic() + FORWARD_TIMEOUT_S
        while room.game_id in self._catching and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
        await self._catch_up(room.game_id, wait=False)
        room = self.server.rooms.get(room.game_id, room)
        if not conn.closing:
            room.when_settled(self.server.handlers.handle, conn, room, text)

    def forward(self, conn: Conn, room: Room, text: str | bytes, ref: Any, state_id: int | None) -> None:
        """A seat's message for a game another process owns goes to it (see ``intercept``)."""
        if len(text) > MAX_FORWARD_BYTES:
            conn.error("too_large", f"a message for a game another worker runs is capped at {MAX_FORWARD_BYTES} "
                                    "bytes", ref)
            return
        self._inflight[room.game_id] += 1
        self._spawn(self._forward(conn, room, text if isinstance(text, str) else text.decode("utf-8", "replace"),
                                  ref, state_id))

    async def _request(self, owner: str, msg: dict[str, Any],
                       timeout: float = FORWARD_TIMEOUT_S) -> dict[str, Any] | None:
        """Send ``msg`` to ``owner``'s channel; its answer, or None when none came within ``timeout``."""
        rid = next(self._ids)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[rid] = fut
        self._notify(f"cg_w_{owner}", json.dumps({**msg, "id": rid, "reply": self.id}))
        try:
            async with asyncio.timeout(timeout):
                return await fut
        except TimeoutError:
            return None
        finally:
            self._pending.pop(rid, None)

    async def _forward(self, conn: Conn, room: Room, text: str, ref: Any, state_id: int | None) -> None:
        gid = room.game_id
        answer: dict[str, Any] | None = None
        local = False
        deadline = time.monotonic() + FORWARD_TIMEOUT_S + self.lease_s
        try:
            # the owner, asked again each second: one that does not answer may have died, and its
            # lease (expiring within LEASE_S) is then taken over here. The whole exchange is bounded
            # too: a database call that never returns must end in an answer to the client, not silence
            async with asyncio.timeout(FORWARD_TIMEOUT_S + self.lease_s + 1.0):
                answer, local = await self._ask_owner(conn, gid, text, deadline)
            for item in (answer or {}).get("items", ()):
                if "ack" in item:
                    self._acks[(gid, int(item["ack"]))] = (conn, ref)
        except TimeoutError:
            answer, local = None, False
        except psycopg.Error as exc:
            conn.error("storage_error", f"the database could not be asked who runs this game ({exc}); try again",
                       ref)
            return
        finally:
            self._inflight[gid] -= 1
            if self._inflight[gid] <= 0:
                del self._inflight[gid]
        room = self.server.rooms.get(gid, room)
        if local:   # this process owns the game now: handle the message as its own
            # the message passed the size and rate checks here already
            room.when_settled(self.server.handlers.handle, conn, room, text)
            return
        if answer is None:
            conn.error("storage_error", "the worker running this game did not answer in time (it may have "
                                        "stopped: another takes the game over within seconds); try again", ref)
            return
        await self._catch_up(gid)
        if state_id is not None and not answer.get("items"):
            # an action is always answered (an ack, an error, a sync, or an adjustment request relayed
            # to every connection): never leave its client waiting
            game_log(gid).warning("cluster: the owner of game %s answered a forwarded action with nothing; "
                                  "the client is sent the game's state", gid)
            self.server.updates.sync(conn, room, room.game.state_id, "stale_state", ref)
            return
        for item in answer.get("items", ()):
            if "text" in item:
                conn.send(str(item["text"]))
            elif "sync" in item:   # since what this connection was sent just now (the updates above)
                self.server.updates.sync(conn, room, room.game.state_id, "stale_state", ref)
            elif "close" in item:
                conn.close(int(item["close"][0]), str(item["close"][1]))
        for key in [k for k, v in self._acks.items() if v[0] is conn and k[0] == gid and
                    k[1] <= len(room.game.actions)]:
            self._acks.pop(key, None)   # applied before the answer came: nothing more to say

    async def _ask_owner(self, conn: Conn, gid: str, text: str,
                         deadline: float) -> tuple[dict[str, Any] | None, bool]:
        """Forward ``text`` to the owner of ``gid`` until it answers, this process takes the game
        over, ``deadline`` passes or ``conn`` closes: (the owner's answer, taken over here)."""
        answer: dict[str, Any] | None = None
        local = False
        while answer is None and not local and time.monotonic() < deadline and not conn.closing:
            owner: str | None
            known = self._owners.get(gid)
            if known is not None and time.monotonic() - known[1] < self.lease_s:
                owner = known[0]
            else:
                owner = await self._owner_of(gid)
                if owner is not None:
                    self._owners[gid] = (owner, time.monotonic())
            if owner is None or owner == self.id:
                local = await self.adopt(gid)
                if not local:
                    await asyncio.sleep(0.05)
                continue
            answer = await self._request(owner, {"op": "msg", "game": gid, "role": conn.role, "seat": conn.seat,
                                                 "thash": conn.thash, "text": text}, timeout=1.0)
            if answer is None or answer.get("moved"):   # ask the database again who runs it
                self._owners.pop(gid, None)
                answer = None
        return answer, local

    async def join(self, game_id: str, seat: int | None, name: str | None, base_url: str) -> dict[str, Any]:
        """Hook (the lobby's join): join on the owner of ``game_id`` (here, when this process owns it
        or its lease is free)."""
        if self.server.room(game_id) is None:
            raise LobbyError(404, "no_such_game", f"there is no game {game_id!r}")
        owner = None if await self.adopt(game_id) else await self._owner_of(game_id)
        if owner is None or owner == self.id:
            self._refresh_seats(game_id)   # a seat claimed through its link on another process counts
            out = self.server.lobby.join(game_id, seat, name, base_url)
            self._notify(CHANNEL, f"s {game_id} {self.id}")
            return out
        answer = await self._request(owner, {"op": "join", "game": game_id, "seat": seat, "name": name,
                                             "base": base_url})
        if answer is None:
            raise LobbyError(503, "storage_error", "the worker running this game did not answer in time; try again")
        if "error" in answer:
            status, code, message = answer["error"]
            raise LobbyError(int(status), str(code), str(message))
        self._refresh_seats(game_id)
        return dict(answer["ok"])

    async def check_create_rate(self, owner: str) -> None:
        """Hook (the lobby's create): the creation rate of one address across every process, counted
        in the database: at most ``create_burst`` games in ``create_burst / create_rate`` seconds."""
        lim = self.base_limits
        if lim.create_rate <= 0 or self.db is None:
            return
        window = lim.create_burst / lim.create_rate
        cur = await self.db.execute("SELECT COUNT(*) FROM games WHERE owner=%s AND created > %s",
                                    (owner, time.time() - window))
        row = await cur.fetchone()
        if row is not None and int(row[0]) >= lim.create_burst:
            raise LobbyError(429, "create_rate_limited", f"at most {lim.create_rate:g} new games a second from one "
                                                         f"address (bursts of {lim.create_burst}); try again later")

    # ------------------------------------------------------------------ forwarding: the owner's side
    def _answer(self, msg: dict[str, Any], body: dict[str, Any]) -> None:
        self._notify(f"cg_w_{msg['reply']}", json.dumps({"op": "reply", "id": msg["id"], **body}))

    def _serve_message(self, msg: dict[str, Any]) -> None:
        """A message forwarded by another process: handled as one of this process's connections' would be."""
        gid = str(msg.get("game"))
        room = self.server.rooms.get(gid)
        if room is None and self.owns(gid):   # left memory while its lease is still held: load it again
            try:
                room = self.server.room(gid)
            except LobbyError:
                room = None
        if room is None or not self.owns(gid):   # the asker looks the owner up again
            self._answer(msg, {"moved": True})
            return
        proxy = ProxyConn(self.server.limits, room, msg.get("role"), msg.get("seat"), msg.get("thash"))
        room.conns.add(proxy)
        self.server.handlers.on_message(proxy, room, str(msg.get("text", "")))
        room.when_settled(self._reply, proxy, msg)

    def _reply(self, proxy: ProxyConn, msg: dict[str, Any]) -> None:
        room = proxy.room
        if room is not None:
            room.conns.discard(proxy)
        items: list[dict[str, Any]] = []
        size = 0
        for text, count in proxy.texts:
            start = text[:240]
            if start.startswith('{"type":"update"'):
                if '"ack":true' in start:
                    items.append({"ack": count})
            elif start.startswith('{"type":"sync"'):
                items.append({"sync": True})
            elif start.startswith(('{"type":"adjust_request"', '{"type":"adjust_resolved"')):
                # relayed to every connection of the other processes (``relay``): the asker's answer
                # reaches it that way, and the item only says that the message was answered
                items.append({"relayed": True})
            elif size + len(text) < 6000:
                items.append({"text": text})
                size += len(text)
        if proxy.closed_with is not None:
            items.append({"close": list(proxy.closed_with)})
        self._answer(msg, {"items": items})

    def _serve_join(self, msg: dict[str, Any]) -> None:
        gid = str(msg.get("game"))
        if not self.owns(gid):
            self._answer(msg, {"error": [503, "storage_error", "the game moved to another worker; try again"]})
            return
        try:
            self._refresh_seats(gid)   # a seat claimed through its link on another process counts
            out = self.server.lobby.join(gid, msg.get("seat"), msg.get("name"), str(msg.get("base", "")))
        except LobbyError as exc:
            self._answer(msg, {"error": [exc.status, exc.code, exc.message]})
            return
        self._notify(CHANNEL, f"s {gid} {self.id}")
        self._answer(msg, {"ok": out})
