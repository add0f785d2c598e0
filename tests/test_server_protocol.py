"""The WebSocket protocol (docs/protocol.md): accepted actions, every refusal with nothing
changed, stale state and resync, reconnect, spectators, bots in seats, limits, storage."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect
from test_server_helpers import WS, create, running, snapshot, ws

from christianity_game import Game, IllegalAction, Settings, action_from_json
from christianity_game.server.conn import Conn
from christianity_game.server.limits import Limits

SEED = 7


def as_sent(obj: Any) -> Any:
    """What a value looks like after a trip through JSON (the engine's views are JSON-like)."""
    return json.loads(json.dumps(obj))


def _mirror(game: dict[str, Any], actions: list[dict[str, Any]] = ()) -> Game:  # type: ignore[assignment]
    g = Game.new(mode=game["mode"], lineup=game["lineup"], seed=SEED)
    for a in actions:
        g.apply(action_from_json(a))
    return g


@pytest.fixture
def app(tmp_path: Path, database: str | None) -> Any:
    """The server on each store in turn (SQLite, then PostgreSQL: tests/pg_fixture.py)."""
    with running(tmp_path, database=database) as client:
        yield client


def stored_actions(tmp_path: Path, database: str | None, game_id: str) -> list[tuple[int, str]]:
    """A game's action rows as the database holds them, read on a connection of their own."""
    if database is None:
        db = sqlite3.connect(tmp_path / "games.sqlite3")
        try:
            return [(int(n), str(a)) for n, a in db.execute("SELECT n, action FROM actions WHERE game_id=?", (game_id,))]
        finally:
            db.close()
    import psycopg
    with psycopg.connect(database) as pg:
        return [(int(n), str(a)) for n, a in pg.execute("SELECT n, action FROM actions WHERE game_id=%s", (game_id,))]


@pytest.fixture
def rr(app: Any) -> dict[str, Any]:
    return create(app, mode="coop", lineup="RR", seed=SEED)


def tokens(game: dict[str, Any]) -> tuple[str, str, str]:
    return game["seats"][0]["token"], game["seats"][1]["token"], game["spectator"]["token"]


# --------------------------------------------------------------------------- joining and views
def test_welcome_gives_each_seat_its_own_view_and_spectators_the_spectator_view(app: Any, rr: dict[str, Any]) -> None:
    t0, t1, ts = tokens(rr)
    gid = rr["game_id"]
    with ws(app, gid) as a, ws(app, gid) as b, ws(app, gid) as s:
        w0, w1, ws_ = a.hello(t0), b.hello(t1), s.hello(ts)
    assert (w0["seat"], w0["role"], w0["view"]["viewer"]) == (0, "player", 0)
    assert (w1["seat"], w1["role"], w1["view"]["viewer"]) == (1, "player", 1)
    assert (ws_["seat"], ws_["role"], ws_["view"]["viewer"]) == (None, "spectator", None)
    assert all("uid" in c for c in w0["view"]["seats"][0]["hand"])
    assert all("uid" not in c and c.get("hidden") for c in w1["view"]["seats"][0]["hand"])
    assert all("uid" not in c for seat in ws_["view"]["seats"] for c in seat["hand"])
    assert ws_["view"]["pending"] == [] and w1["view"]["pending"] == [] and w0["view"]["pending"]
    local = _mirror(rr)
    assert w0["view"] == as_sent(local.view(0)) and w1["view"] == as_sent(local.view(1))
    assert ws_["view"] == as_sent(local.view(None))
    assert w0["events"] == [] and w0["since"] is None
    assert w0["limits"]["max_message_bytes"] > 0
    assert [s["connected"] for s in ws_["seats"]] == [1, 1]


def test_token_in_the_websocket_address_joins_at_once(app: Any, rr: dict[str, Any]) -> None:
    t0, _, _ = tokens(rr)
    with ws(app, rr["game_id"], f"?token={t0}&state_id=0") as a:
        w = a.recv()
    assert w["type"] == "welcome" and w["seat"] == 0 and w["since"] == 0


def test_unknown_game_is_refused_and_closed(app: Any) -> None:
    with ws(app, "nosuchgame") as a:
        err = a.recv()
        assert err["code"] == "no_such_game"
        with pytest.raises(WebSocketDisconnect) as exc:
            a.recv()
    assert exc.value.code == 4404


# --------------------------------------------------------------------------- accepted actions
def test_accepted_action_is_stored_then_pushed_to_every_connection(app: Any, rr: dict[str, Any],
                                                                  tmp_path: Path, database: str | None) -> None:
    t0, t1, ts = tokens(rr)
    gid = rr["game_id"]
    with ws(app, gid) as a, ws(app, gid) as b, ws(app, gid) as s:
        w0, _, _ = a.hello(t0), b.hello(t1), s.hello(ts)
        action = w0["view"]["pending"][1]   # LayCostZone
        up0 = a.act(t0, 0, action, ref="r1")
        up1, ups = b.recv(), s.recv()
        # committed before acknowledged: the row is there when the ack arrives
        rows = stored_actions(tmp_path, database, gid)
    assert rows and rows[0][0] == 0 and len(rows) == 1
    assert (up0["type"], up0["ack"], up0["ref"], up0["by"], up0["state_id"]) == ("update", True, "r1", 0, 1)
    assert (up1["ack"], up1["ref"], ups["ack"]) == (False, None, False)
    local = _mirror(rr, [action])
    events = [e for e in local.log if e.state_id >= 1]   # the opening events (state 0) came with hello
    assert up0["view"] == as_sent(local.view(0)) and up1["view"] == as_sent(local.view(1))
    assert ups["view"] == as_sent(local.view(None))
    assert up0["events"] == as_sent([e.for_seat(0) for e in events])
    assert up1["events"] == as_sent([e.for_seat(1) for e in events])
    assert ups["events"] == as_sent([e.for_seat(None) for e in events])


def test_action_without_seat_gets_the_tokens_seat(app: Any, rr: dict[str, Any]) -> None:
    t0, _, _ = tokens(rr)
    with ws(app, rr["game_id"]) as a:
        a.hello(t0)
        up = a.act(t0, 0, {"type": "Pass"})
    assert up["type"] == "update" and up["ack"] and up["state_id"] == 1


def test_adjust_badge_is_accepted_at_any_time(app: Any, rr: dict[str, Any]) -> None:
    t0, t1, _ = tokens(rr)
    with ws(app, rr["game_id"]) as a, ws(app, rr["game_id"]) as b:
        a.hello(t0)
        b.hello(t1)   # seat 1 may not act now, but may adjust its own badges (S-8)
        up = b.act(t1, 0, {"type": "AdjustBadge", "badge": "humility", "value": 3})
        a.recv()
    assert up["type"] == "update" and up["ack"]
    assert up["view"]["seats"][1]["humility"] == 3
    assert [e["kind"] for e in up["events"]] == ["manual"]


def test_every_client_message_type_has_its_handler() -> None:
    """The handlers' table (server/handlers.py) and the protocol's client messages name the same types."""
    from christianity_game.server import protocol as P
    from christianity_game.server.handlers import HANDLERS
    assert set(HANDLERS) == set(P.CLIENT_MESSAGES)


# --------------------------------------------------------------------------- refusals
def _refusals(game: dict[str, Any], other: dict[str, Any], seat1_hand: list[int]) -> list[tuple[str, Any, str]]:
    t0, t1, ts = tokens(game)
    act = {"type": "LayCostZone", "seat": 0, "card": seat1_hand[0]}
    ok = {"type": "Pass"}
    return [
        ("not json", "{not json", "malformed_json"),
        ("json list", "[1, 2]", "malformed_json"),
        ("binary garbage", b"\xff\xfe", "malformed_json"),
        ("unknown type", {"type": "dance"}, "unknown_type"),
        ("no type", {"token": t0}, "unknown_type"),
        ("no state_id", {"type": "action", "token": t0, "action": ok}, "bad_message"),
        ("state_id not a number", {"type": "action", "token": t0, "state_id": "x", "action": ok}, "bad_message"),
        ("extra field", {"type": "action", "token": t0, "state_id": 0, "action": ok, "x": 1}, "bad_message"),
        ("action not an object", {"type": "action", "token": t0, "state_id": 0, "action": [1]}, "bad_message"),
        ("missing token", {"type": "action", "state_id": 0, "action": ok}, "missing_token"),
        ("empty token", {"type": "action", "token": "", "state_id": 0, "action": ok}, "missing_token"),
        ("wrong token", {"type": "action", "token": "nope", "state_id": 0, "action": ok}, "wrong_token"),
        ("another seat's token", {"type": "action", "token": t1, "state_id": 0, "action": ok}, "wrong_token"),
        ("another game's token", {"type": "action", "token": other["seats"][0]["token"], "state_id": 0,
                                  "action": ok}, "wrong_token"),
        ("spectator's token", {"type": "action", "token": ts, "state_id": 0, "action": ok}, "wrong_token"),
        ("wrong seat", {"type": "action", "token": t0, "state_id": 0, "action": {"type": "Pass", "seat": 1}},
         "wrong_seat"),
        ("unknown action", {"type": "action", "token": t0, "state_id": 0, "action": {"type": "Dance"}},
         "malformed_action"),
        ("action missing a field", {"type": "action", "token": t0, "state_id": 0,
                                    "action": {"type": "LayCostZone"}}, "malformed_action"),
        ("action field of the wrong type", {"type": "action", "token": t0, "state_id": 0,
                                            "action": {"type": "LayCostZone", "card": "x"}}, "malformed_action"),
        ("a state_id the server never had", {"type": "action", "token": t0, "state_id": 5, "action": ok},
         "state_lost"),
        ("state_id as a string", {"type": "action", "token": t0, "state_id": "0", "action": ok}, "bad_message"),
        ("state_id as a float", {"type": "action", "token": t0, "state_id": 0.0, "action": ok}, "bad_message"),
        ("negative state_id", {"type": "action", "token": t0, "state_id": -1, "action": ok}, "stale_state"),
        ("illegal: another seat's card", {"type": "action", "token": t0, "state_id": 0, "action": act},
         "illegal_action"),
        ("illegal: no such card", {"type": "action", "token": t0, "state_id": 0,
                                   "action": {"type": "LayCostZone", "card": 9999}}, "illegal_action"),
        ("illegal: nothing to choose", {"type": "action", "token": t0, "state_id": 0,
                                        "action": {"type": "Choose", "option": 1}}, "illegal_action"),
        ("illegal badge value", {"type": "action", "token": t0, "state_id": 0,
                                 "action": {"type": "AdjustBadge", "badge": "humility", "value": 99}},
         "illegal_action"),
        ("hello without token", {"type": "hello"}, "missing_token"),
        ("hello with a wrong token", {"type": "hello", "token": "nope"}, "wrong_token"),
        ("too large", '{"type":"ping","ref":"' + "x" * 20_000 + '"}', "too_large"),
    ]


def test_every_refusal_answers_a_typed_error_and_changes_nothing(app: Any, rr: dict[str, Any]) -> None:
    other = create(app, mode="coop", lineup="RR", seed=1)
    t0, t1, _ = tokens(rr)
    gid = rr["game_id"]
    local = _mirror(rr)
    with ws(app, gid) as a, ws(app, gid) as b:
        a.hello(t0)
        seat1_hand = [c["uid"] for c in b.hello(t1)["view"]["seats"][1]["hand"]]
        before = snapshot(app, rr)
        for name, msg, code in _refusals(rr, other, seat1_hand):
            a.send(msg)
            reply = a.recv()
            assert reply["type"] == "error", name
            assert reply["code"] == code, (name, reply)
            assert reply["message"], name
            if code == "stale_state":
                sync = a.recv()
                assert sync["type"] == "sync" and sync["reason"] == "stale_state" and sync["state_id"] == 0
            if code == "illegal_action" and isinstance(msg, dict) and msg.get("type") == "action":
                with pytest.raises(IllegalAction) as exc:   # the engine's own reason, word for word
                    local.apply(action_from_json({"seat": 0, **msg["action"]}))
                assert (reply["reason"], reply["message"]) == (exc.value.code, exc.value.message), name
            if code == "malformed_action":
                assert reply["reason"] == "malformed", name
            a.ping()
            assert snapshot(app, rr) == before, f"{name} changed the game"
        # seat 1 may not act while the game waits for seat 0
        reply = b.act(t1, 0, {"type": "Pass"}, ref=7)
        assert (reply["code"], reply["ref"], reply["state_id"]) == ("not_your_turn", 7, 0)
        b.ping()
        a.ping()   # nothing was pushed to seat 0 either
        assert snapshot(app, rr) == before


def test_refusals_before_joining_and_for_spectators(app: Any, rr: dict[str, Any]) -> None:
    t0, _, ts = tokens(rr)
    before = snapshot(app, rr)
    with ws(app, rr["game_id"]) as a, ws(app, rr["game_id"]) as s:
        assert a.act(t0, 0, {"type": "Pass"})["code"] == "not_joined"
        a.send({"type": "sync"})
        assert a.recv()["code"] == "not_joined"
        s.hello(ts)
        assert s.act(ts, 0, {"type": "Pass"})["code"] == "not_a_player"
        a.ping()
        s.ping()
    assert snapshot(app, rr) == before


def test_stale_state_id_gets_a_resync_with_the_missed_events(app: Any, rr: dict[str, Any]) -> None:
    t0, t1, _ = tokens(rr)
    with ws(app, rr["game_id"]) as a, ws(app, rr["game_id"]) as b:
        view = a.hello(t0)["view"]
        b.hello(t1)
        played = []
        for _ in range(3):
            action = view["pending"][-1]
            up = a.act(t0, view["state_id"], action)
            b.recv()
            played.append(action)
            view = up["view"]
        before = snapshot(app, rr)
        err = a.act(t0, 1, view["pending"][0], ref="late")
        sync = a.recv()
        a.ping()
        assert snapshot(app, rr) == before
    assert (err["code"], err["ref"], err["state_id"]) == ("stale_state", "late", 3)
    local = _mirror(rr, played)
    assert (sync["type"], sync["since"], sync["state_id"], sync["ref"]) == ("sync", 1, 3, "late")
    assert sync["events"] == as_sent([e.for_seat(0) for e in local.log if e.state_id > 1])
    assert sync["view"] == as_sent(local.view(0))


def test_sync_on_request(app: Any, rr: dict[str, Any]) -> None:
    t0, _, _ = tokens(rr)
    with ws(app, rr["game_id"]) as a:
        a.hello(t0)
        a.send({"type": "sync", "state_id": 0, "ref": 3})
        sync = a.recv()
    assert (sync["type"], sync["reason"], sync["since"], sync["events"], sync["ref"]) == ("sync", "requested", 0, [], 3)


def test_reconnect_gets_the_view_and_the_events_since_its_last_state_id(app: Any, rr: dict[str, Any]) -> None:
    t0, t1, _ = tokens(rr)
    gid = rr["game_id"]
    played: list[dict[str, Any]] = []
    with ws(app, gid) as a:
        view = a.hello(t0)["view"]
        for _ in range(2):
            up = a.act(t0, view["state_id"], view["pending"][-1])
            played.append(up and view["pending"][-1])
            view = up["view"]
        last_seen = view["state_id"]
    # seat 0 is gone; the game goes on without it
    with ws(app, gid) as b:
        bview = b.hello(t1)["view"]
        a_view = view
        while not bview["pending"]:
            # seat 0's turn continues: play it over HTTP-less path: a second connection for seat 0
            with ws(app, gid) as a2:
                a_view = a2.hello(t0)["view"]
                up = a2.act(t0, a_view["state_id"], a_view["pending"][0])
                played.append(a_view["pending"][0])
                bview = b.recv()["view"]
        for _ in range(2):
            if not bview["pending"]:
                break
            up = b.act(t1, bview["state_id"], bview["pending"][0])
            played.append(bview["pending"][0])
            bview = up["view"]
    with ws(app, gid) as a:
        w = a.hello(t0, state_id=last_seen)
    local = _mirror(rr, played)
    assert w["state_id"] == local.state_id > last_seen
    assert w["since"] == last_seen
    assert w["events"] == as_sent([e.for_seat(0) for e in local.log if e.state_id > last_seen])
    assert w["view"] == as_sent(local.view(0))
    with ws(app, gid) as a:
        full = a.hello(t0, state_id=0)
    assert full["events"] == as_sent([e.for_seat(0) for e in local.log if e.state_id > 0])


# --------------------------------------------------------------------------- game over
def test_game_over_refuses_actions_and_serves_the_record(app: Any) -> None:
    game = create(app, mode="solo", lineup="R", seed=3, settings={"maxRounds": "1"})
    token = game["seats"][0]["token"]
    gid = game["game_id"]
    assert app.get(f"/api/games/{gid}/record").status_code == 403
    with ws(app, gid) as a:
        view = a.hello(token)["view"]
        while view["result"] is None:
            view = a.act(token, view["state_id"], view["pending"][0])["view"]
        before = snapshot(app, game)
        err = a.act(token, view["state_id"], {"type": "Pass"})
        a.ping()
    assert err["code"] == "game_over"
    assert snapshot(app, game) == before
    record = app.get(f"/api/games/{gid}/record").json()
    replayed = Game.from_record(record)
    assert as_sent(replayed.view(0)) == view and replayed.result is not None
    assert record["settings"]["max_rounds"] == 1


# --------------------------------------------------------------------------- bots in seats
def test_bots_act_on_the_server_until_a_person_must_decide(app: Any) -> None:
    game = create(app, mode="coop", lineup="RR", seed=SEED, bots={"1": "heuristic"})
    token = game["seats"][0]["token"]
    assert game["seats"][1]["kind"] == "bot" and "token" not in game["seats"][1] or game["seats"][1]["token"] is None
    by_bot = 0
    with ws(app, game["game_id"]) as a:
        view = a.hello(token)["view"]
        for _ in range(400):
            if view["result"] is not None:
                break
            if view["pending"]:
                view = a.act(token, view["state_id"], view["pending"][0])["view"]
            else:
                up = a.recv()
                assert up["by"] == 1 and not up["ack"]
                by_bot += 1
                view = up["view"]
    assert by_bot > 0


def test_a_game_of_bots_plays_itself_to_the_end(app: Any) -> None:
    game = create(app, mode="coop", lineup="RR", seed=5, bots={"0": "random", "1": "heuristic"})
    assert all(s["kind"] == "bot" for s in game["seats"])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        summary = app.get(f"/api/games/{game['game_id']}").json()
        if summary["result"] is not None:
            break
        time.sleep(0.05)
    assert summary["result"] is not None
    record = app.get(f"/api/games/{game['game_id']}/record").json()
    assert Game.from_record(record).result is not None


def test_bot_delay_lets_people_follow(tmp_path: Path) -> None:
    with running(tmp_path, bot_delay=0.25) as app:
        game = create(app, mode="coop", lineup="RR", seed=SEED, bots={"1": "random"})
        token = game["seats"][0]["token"]
        with ws(app, game["game_id"]) as a:
            view = a.hello(token)["view"]
            while view["pending"]:
                t = time.monotonic()
                view = a.act(token, view["state_id"], view["pending"][0])["view"]
            up = a.recv()
            waited = time.monotonic() - t
    assert up["by"] == 1 and waited >= 0.2


# --------------------------------------------------------------------------- limits
def test_rate_limit_refuses_with_a_clear_error_and_slows_a_flood_down(tmp_path: Path) -> None:
    with running(tmp_path, limits=Limits(rate=10, burst=5)) as app:
        game = create(app, mode="coop", lineup="RR", seed=SEED)
        calm_game = create(app, mode="coop", lineup="RR", seed=SEED)
        before = snapshot(app, game)
        with ws(app, game["game_id"]) as flood, ws(app, calm_game["game_id"]) as calm:
            calm_token = calm_game["seats"][0]["token"]
            view = calm.hello(calm_token)["view"]
            flood.hello(game["seats"][0]["token"])
            for i in range(4):   # the burst
                flood.send({"type": "ping", "ref": i})
                assert flood.recv() == {"type": "pong", "ref": i}
            for i in range(300):
                flood.send({"type": "ping", "ref": 100 + i})
            # the client of another game is not held up while the flood is worked off
            t = time.monotonic()
            for _ in range(3):   # laying cards keeps seat 0 deciding, whatever the deal
                lay = next((a for a in view["pending"] if a["type"] == "LayCostZone"), view["pending"][0])
                view = calm.act(calm_token, view["state_id"], lay)["view"]
            assert time.monotonic() - t < 2.0
            # the flood is read slowly: some pings get through at about the rate, the rest are
            # refused with a clear error (for the first and every tenth refusal)
            got: list[dict[str, Any]] = []
            deadline = time.monotonic() + 1.5
            while time.monotonic() < deadline:
                try:
                    got.append(flood.recv(timeout=0.3))
                except TimeoutError:
                    pass
            errors = [m for m in got if m["type"] == "error"]
            pongs = [m["ref"] for m in got if m["type"] == "pong"]
            assert errors and all(e["code"] == "rate_limited" and "second" in e["message"] for e in errors)
            assert 5 <= len(pongs) <= 40 and pongs == sorted(pongs)
        assert snapshot(app, game) == before


def test_a_slow_reader_is_dropped_instead_of_holding_up_the_game() -> None:
    class Transport:
        aborted = False

        def abort(self) -> None:
            self.aborted = True

    class Proto:
        transport = Transport()

        async def send(self, message: Any) -> None:   # the ASGI send a WebSocket wraps
            pass

    class StuckSocket:
        closed: int | None = None

        def __init__(self) -> None:
            self._send = Proto().send

        async def send_text(self, text: str) -> None:
            await asyncio.sleep(3600)

        async def close(self, code: int = 1000, reason: str = "") -> None:
            self.closed = code
            await asyncio.sleep(3600)   # the close frame cannot go out either

    async def scenario() -> tuple[bool, int, int, StuckSocket]:
        sock = StuckSocket()
        conn = Conn(sock, Limits(send_queue=5, send_queue_bytes=10_000))
        conn.start()
        for i in range(20):
            conn.send(f"message {i}")   # never blocks the caller
        closing, left = conn.closing, conn.queue.qsize()
        conn2 = Conn(StuckSocket(), Limits(send_queue=10_000, send_queue_bytes=1000))
        conn2.start()
        for _ in range(10):
            conn2.send("x" * 300)   # the byte cap, well under the message cap
        assert conn2.closing and conn2.qbytes == 0 and conn2.queue.qsize() == 0
        conn3 = Conn(StuckSocket(), Limits(send_queue_bytes=1000))
        conn3.send("y" * 5000)   # one big message to a client that is keeping up goes out
        assert not conn3.closing and conn3.qbytes == 5000
        conn3.send("z")          # but nothing more piles up behind it
        assert conn3.closing
        assert conn.sender is not None
        await asyncio.wait_for(conn.sender, 5)   # the close is tried for a moment, then the TCP is cut
        return closing, left, conn.qbytes, sock

    closing, left, qbytes, sock = asyncio.run(scenario())
    assert closing and left == 0 and qbytes == 0
    assert sock.closed == 1013 and sock._send.__self__.transport.aborted


# --------------------------------------------------------------------------- persistence
def test_a_restarted_server_resumes_every_game_where_it_was(tmp_path: Path, database: str | None) -> None:
    with running(tmp_path, database=database) as app:
        game = create(app, mode="coop", lineup="RR", seed=SEED, bots={"1": "random"})
        token = game["seats"][0]["token"]
        with ws(app, game["game_id"]) as a:
            view = a.hello(token)["view"]
            for _ in range(30):
                if view["pending"]:
                    view = a.act(token, view["state_id"], view["pending"][-1])["view"]
                else:
                    view = a.recv()["view"]
            while not view["pending"]:
                view = a.recv()["view"]
        before = snapshot(app, game)
    with running(tmp_path, database=database) as app:
        assert snapshot(app, game) == before
        with ws(app, game["game_id"]) as a:
            w = a.hello(token, state_id=view["state_id"])
            assert w["view"] == view and w["events"] == []
            up = a.act(token, w["state_id"], w["view"]["pending"][0])
            assert up["ack"] and up["state_id"] == view["state_id"] + 1


def test_settings_take_the_url_parameter_names(app: Any) -> None:
    r = app.post("/api/games?soloFee=2&matAbilities=0", json={"mode": "solo", "lineup": "R", "seed": 1,
                                                              "settings": {"evilInterrupt": "0"}})
    assert r.status_code == 201, r.text
    game = r.json()
    view = app.get(f"/api/games/{game['game_id']}/view", params={"token": game["spectator"]["token"]}).json()
    expected = Settings().updated({"soloFee": "2", "matAbilities": "0", "evilInterrupt": "0"}).to_dict()
    assert view["settings"] == expected


def test_an_action_that_cannot_be_stored_is_not_applied(app: Any, rr: dict[str, Any], database: str | None) -> None:
    from christianity_game.server.store import StoreUnavailable
    t0, _, _ = tokens(rr)
    store = app.app.state.server.store
    real = store.append_action

    def full_disk(*args: Any) -> None:
        if database is None:
            raise sqlite3.OperationalError("database or disk is full")
        raise StoreUnavailable("the connection to postgresql://postgres@127.0.0.1/t was lost")

    with ws(app, rr["game_id"]) as a:
        view = a.hello(t0)["view"]
        before = snapshot(app, rr)
        store.append_action = full_disk
        try:
            err = a.act(t0, 0, view["pending"][1], ref="x")
        finally:
            store.append_action = real
        a.ping()
        assert snapshot(app, rr) == before
        assert (err["code"], err["ref"], err["state_id"]) == ("storage_error", "x", 0)
        up = a.act(t0, 0, view["pending"][1])
    assert up["ack"] and up["state_id"] == 1
