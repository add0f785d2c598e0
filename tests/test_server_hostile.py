"""The server under hostile traffic (issue 12), in process on the test client: every limit refuses
with its code while other games keep being served; malformed, mistyped, unechoable and deeply
nested messages are refused before anything changes; seats are invited or open; manual badge
adjustment between people is a request the other side answers; security headers and the
WebSocket ``Origin`` check; seeds are secret, 128-bit, and a chosen one is refused where it leaks.

The tests that take the store's or the broadcast's paths run on both stores (``database``: SQLite,
then PostgreSQL; tests/pg_fixture.py): games played on, quotas counted in the database, eviction
and archiving, adjustment requests. Those of pages, headers, parsing, the Origin check and the
per-connection caps and timers touch no store (or only to create a game) and run once."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect
from test_server_helpers import ROOMY, WS, create, running, snapshot, stored_rows, ws

from christianity_game import Game

SEED = 7


def tokens(game: dict[str, Any]) -> tuple[str, str, str]:
    return game["seats"][0]["token"], game["seats"][1]["token"], game["spectator"]["token"]


def closed_with(sock: WS, code: int, timeout: float = 10.0) -> None:
    """The server closes ``sock`` with ``code`` (messages before the close are read and kept)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            sock.recv(timeout=max(0.1, deadline - time.monotonic()))
        except WebSocketDisconnect as exc:
            assert exc.code == code, (exc.code, exc.reason)
            return
    raise AssertionError(f"not closed with {code}")


def server_of(app: Any) -> Any:
    return app.app.state.server


# --------------------------------------------------------------------------- bad input
def test_a_lone_surrogate_is_refused_before_anything_changes_and_the_game_goes_on(tmp_path: Path,
                                                                                  database: str | None) -> None:
    with running(tmp_path, database=database) as app:
        game = create(app, mode="coop", lineup="RR", seed=SEED, bots={"1": "random"})
        t0, _, ts = tokens(game)
        before = snapshot(app, game)
        with ws(app, game["game_id"]) as a, ws(app, game["game_id"]) as spec:
            view = a.hello(t0)["view"]
            spec.hello(ts)
            act = view["pending"][0]
            raw = json.dumps({"type": "action", "token": t0, "state_id": 0, "action": act})
            a.send(raw[:-1] + ', "ref": "\\ud800"}')   # valid JSON, but no UTF-8 can carry it back
            err = a.recv()
            assert (err["type"], err["code"]) == ("error", "bad_message") and "surrogate" in err["message"]
            a.send(raw[:-1] + ', "action2": "\\udfff"}')
            assert a.recv()["code"] == "bad_message"
            a.ping()
            assert snapshot(app, game) == before
            # the same action with a clean ref is applied; everyone hears of it, the bot answers
            ack = a.act(t0, 0, act, ref="clean")
            assert ack["type"] == "update" and ack["ack"] and ack["ref"] == "clean"
            view = ack["view"]
            for _ in range(60):   # play seat 0 until the bot's seat is to move
                if not view["pending"] or view["result"] is not None:
                    break
                passes = [p for p in view["pending"] if p["type"] == "Pass"]
                view = a.act(t0, view["state_id"], (passes or view["pending"])[0])["view"]
            seen = []
            while True:
                msg = spec.recv()
                seen.append(msg)
                if msg["by"] == 1 or msg["view"]["result"] is not None:
                    break
            ids = [m["state_id"] for m in seen]
            assert ids == list(range(1, len(ids) + 1))   # consecutive: no broadcast stopped half-way
            assert seen[-1]["by"] == 1 or seen[-1]["view"]["result"] is not None   # the bot seat was woken


def test_types_are_checked_strictly(tmp_path: Path, database: str | None) -> None:
    with running(tmp_path, database=database) as app:
        game = create(app, mode="coop", lineup="RR", seed=SEED)
        t0, _, _ = tokens(game)
        before = snapshot(app, game)
        with ws(app, game["game_id"]) as a:
            view = a.hello(t0)["view"]
            act = view["pending"][0]
            for bad in ("0", 0.0, 1.0, True, None):
                err = a.act(t0, bad, act)   # type: ignore[arg-type]
                assert (err["type"], err["code"]) == ("error", "bad_message"), bad
            for msg in ({"type": "hello", "token": t0, "state_id": "0"}, {"type": "sync", "state_id": 1.0},
                        {"type": "ping", "ref": 1.5}, {"type": "hello", "token": 5},
                        {"type": "adjust_answer", "token": t0, "request": "1", "accept": True},
                        {"type": "adjust_answer", "token": t0, "request": 1, "accept": 1}):
                a.send(msg)
                assert a.recv()["code"] == "bad_message", msg
            a.ping()
        assert snapshot(app, game) == before


def test_deep_nesting_gets_malformed_json_and_the_connection_stays(tmp_path: Path) -> None:
    with running(tmp_path) as app:
        game = create(app, mode="coop", lineup="RR", seed=SEED)
        with ws(app, game["game_id"]) as a:
            a.send("[" * 5000 + "]" * 5000)
            err = a.recv()
            assert (err["code"], "deeper" in err["message"]) == ("malformed_json", True)
            a.send('{"type": "ping", "ref": 1, "x": ' + "[" * 40 + "]" * 40 + "}")
            assert a.recv()["code"] == "malformed_json"
            a.send("{" * 3000)
            assert a.recv()["code"] == "malformed_json"
            a.ping()


def test_any_query_gives_the_page_or_a_4xx(tmp_path: Path) -> None:
    with running(tmp_path) as app:
        long = app.get("/rules", params={"q": "x" * 3000})
        assert long.status_code == 414 and long.json()["code"] == "uri_too_long"
        fits = app.get("/rules", params={"q": "é" * 300})
        assert fits.status_code == 200
        for path in ("/", "/play/abc", "/api/games", "/cards", "/nope"):
            r = app.get(path, params={"q": "<script>" * 200})
            assert r.status_code < 500, path


# --------------------------------------------------------------------------- headers and origins
def test_security_headers_on_every_page(tmp_path: Path) -> None:
    with running(tmp_path) as app:
        for path in ("/", "/play/abc", "/rules", "/api/games", "/static/style.css", "/healthz", "/nope"):
            r = app.get(path)
            csp = r.headers.get("content-security-policy", "")
            assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
            assert "frame-ancestors 'none'" in csp, path
            assert r.headers.get("x-content-type-options") == "nosniff", path
            assert r.headers.get("x-frame-options") == "DENY", path


def test_websockets_from_a_foreign_origin_are_refused_unless_allowed(tmp_path: Path) -> None:
    with running(tmp_path, allowed_origins=["https://friend.example"]) as app:
        game = create(app, mode="coop", lineup="RR", seed=SEED)
        gid, t0 = game["game_id"], game["seats"][0]["token"]
        with app.websocket_connect(f"/ws/{gid}", headers={"origin": "https://evil.example"}) as s:
            bad = WS(s)
            err = bad.recv()
            assert err["code"] == "origin_refused"
            closed_with(bad, 4403)
        for origin in ("http://testserver", "https://friend.example"):
            with app.websocket_connect(f"/ws/{gid}", headers={"origin": origin}) as s:
                assert WS(s).hello(t0)["type"] == "welcome"


# --------------------------------------------------------------------------- seeds
def test_seeds_are_secret_128_bit_and_a_chosen_one_is_refused_between_people(tmp_path: Path,
                                                                             database: str | None) -> None:
    assert Game.new(mode="coop", lineup="RR", seed=2**127 + 5).state_id == 0   # the engine takes big seeds
    with running(tmp_path, allow_chosen_seeds=False, limits=dataclasses.replace(ROOMY, bot_share=1.0),
                 database=database) as app:
        r = app.post("/api/games", json={"mode": "duel", "lineup": "ER", "seed": 1})
        assert (r.status_code, r.json()["code"]) == (400, "seed_not_allowed") and r.json()["message"]
        for ok in ({"mode": "duel", "lineup": "ER", "seed": 1, "bots": {"0": "random"}},   # people on one side
                   {"mode": "coop", "lineup": "RR", "seed": 1}):
            assert app.post("/api/games", json=ok).status_code == 201
        duel = create(app, mode="duel", lineup="ER")   # no seed: a secret one
        assert str(duel).find("seed") == -1
        # a bots-only game without a seed, watched to the end: its seed shows only in the record
        game = create(app, mode="coop", lineup="RR", bots={"0": "random", "1": "random"})
        gid = game["game_id"]
        seen: list[str] = [json.dumps(game), app.get(f"/api/games/{gid}").text]
        with ws(app, gid) as spec:
            msg = spec.hello(game["spectator"]["token"], state_id=0)
            seen.append(json.dumps(msg))
            deadline = time.monotonic() + 60
            while msg["view"]["result"] is None and time.monotonic() < deadline:
                msg = spec.recv()
                seen.append(json.dumps(msg))
        assert msg["view"]["result"] is not None
        record = app.get(f"/api/games/{gid}/record").json()
        assert isinstance(record["seed"], str)   # a decimal string: a browser keeps every digit
        seed = int(record["seed"])
        assert seed.bit_length() > 64   # 128 random bits (fails once in 2**64)
        assert not any(str(seed) in text for text in seen)
        replay = Game.from_record(record)
        assert replay.result is not None and replay.state_id == msg["state_id"]


# --------------------------------------------------------------------------- creation quotas
# (three tests, not one: on PostgreSQL the quotas count the database's games, so each needs its own)
def test_game_creation_is_rate_limited_per_address(tmp_path: Path, database: str | None) -> None:
    lim = dataclasses.replace(ROOMY, create_rate=0.001, create_burst=3)
    with running(tmp_path, limits=lim, database=database) as app:
        for _ in range(3):
            create(app, mode="coop", lineup="RR")
        r = app.post("/api/games", json={"mode": "coop", "lineup": "RR"})
        assert (r.status_code, r.json()["code"]) == (429, "create_rate_limited") and "second" in r.json()["message"]


def test_live_games_are_capped_per_address_bots_only_ones_apart(tmp_path: Path, database: str | None) -> None:
    lim = dataclasses.replace(ROOMY, games_per_address=2, bot_games_per_address=1)
    with running(tmp_path, limits=lim, database=database) as app:
        create(app, mode="coop", lineup="RR", bots={"0": "random", "1": "random"})
        r = app.post("/api/games", json={"mode": "solo", "lineup": "R", "bots": {"0": "random"}})
        assert (r.status_code, r.json()["code"]) == (429, "too_many_bot_games")
        create(app, mode="coop", lineup="RR")
        r = app.post("/api/games", json={"mode": "coop", "lineup": "RR"})
        assert (r.status_code, r.json()["code"]) == (429, "too_many_games")


def test_live_games_are_capped_in_total(tmp_path: Path, database: str | None) -> None:
    lim = dataclasses.replace(ROOMY, games_total=1)
    with running(tmp_path, limits=lim, database=database) as app:
        create(app, mode="coop", lineup="RR")
        r = app.post("/api/games", json={"mode": "coop", "lineup": "RR"})
        assert (r.status_code, r.json()["code"]) == (503, "server_full")


# --------------------------------------------------------------------------- connection caps
def test_connections_are_capped_per_seat_per_game_per_address_and_in_total(tmp_path: Path) -> None:
    lim = dataclasses.replace(ROOMY, conns_per_game=1, conns_per_seat=1, conns_per_address=3, conns_total=100)
    with running(tmp_path, limits=lim) as app:
        g1 = create(app, mode="coop", lineup="RR", seed=SEED)
        g2 = create(app, mode="coop", lineup="RR", seed=SEED)
        t0, _, ts = tokens(g1)
        with ws(app, g1["game_id"]) as a, ws(app, g1["game_id"]) as b, ws(app, g1["game_id"]) as s:
            a.hello(t0)
            s.hello(ts)
            err = b.hello(t0)   # a second connection on seat 0
            assert err["code"] == "too_many_connections" and "seat 0" in err["message"]
            closed_with(b, 4429)
            with ws(app, g1["game_id"]) as s2:   # a second spectator
                assert s2.hello(ts)["code"] == "too_many_connections"
                closed_with(s2, 4429)
            for _ in range(100):   # the refused ones are released
                if server_of(app).conns_total == 2:
                    break
                time.sleep(0.02)
            assert server_of(app).conns_total == 2
            with ws(app, g2["game_id"]) as d:   # the address's third is fine...
                d.hello(g2["seats"][0]["token"])
                with ws(app, g2["game_id"]) as e:   # ...its fourth is not
                    err = e.recv()
                    assert err["code"] == "too_many_connections" and "address" in err["message"]
                    closed_with(e, 4429)
                d.ping()
            a.ping()
            s.ping()
        assert server_of(app).conns_total == 0   # every refused or closed connection was released
    lim = dataclasses.replace(ROOMY, conns_total=1)
    with running(tmp_path / "b", limits=lim) as app:
        g = create(app, mode="coop", lineup="RR", seed=SEED)
        with ws(app, g["game_id"]) as a:
            a.hello(g["seats"][0]["token"])
            with ws(app, g["game_id"]) as b:
                assert "maximum" in b.recv()["message"]
                closed_with(b, 4429)
            a.ping()


def test_a_connection_that_never_joins_is_closed_and_strangers_cannot_fill_a_game(tmp_path: Path) -> None:
    lim = dataclasses.replace(ROOMY, conns_per_game=1, join_timeout_s=0.5)
    with running(tmp_path, limits=lim) as app:
        g = create(app, mode="coop", lineup="RR", seed=SEED)
        with ws(app, g["game_id"]) as x, ws(app, g["game_id"]) as y, ws(app, g["game_id"]) as a:
            assert a.hello(g["seats"][0]["token"])["type"] == "welcome"   # strangers hold no place
            for stranger in (x, y):
                err = stranger.recv(timeout=5)
                assert err["code"] == "not_joined" and "hello" in err["message"]
                closed_with(stranger, 4408)
            a.ping()   # a joined connection stays, however quiet


def test_a_resync_is_paid_by_its_size(tmp_path: Path) -> None:
    lim = dataclasses.replace(ROOMY, rate=2.0, burst=10, sync_bytes_per_message=500)
    with running(tmp_path, limits=lim) as app:
        game = create(app, mode="coop", lineup="RR", seed=SEED)
        with ws(app, game["game_id"]) as a:
            a.hello(game["seats"][0]["token"])
            a.send({"type": "sync", "ref": 0})
            size = len(json.dumps(a.recv()))
            assert size > 2000   # so each sync costs several messages of the bucket
            for i in range(1, 6):
                a.send({"type": "sync", "ref": i})
            replies = []
            while True:   # the answers to the five (a refused one past the first gets no reply)
                try:
                    replies.append(a.recv(timeout=1.5))
                except TimeoutError:
                    break
            kinds = [m["type"] for m in replies]
            assert "error" in kinds and replies[kinds.index("error")]["code"] == "rate_limited"
            assert kinds.count("sync") < 4   # a small burst of big replies, not ten of them


# --------------------------------------------------------------------------- bots share the loop
def test_bot_floods_do_not_starve_a_game_with_people(tmp_path: Path, database: str | None) -> None:
    lim = dataclasses.replace(ROOMY, bot_share=0.3)
    with running(tmp_path, limits=lim, database=database) as app:
        flood = [create(app, mode="coop", lineup="RRR", bots={str(s): "heuristic" for s in range(3)})
                 for _ in range(6)]
        game = create(app, mode="coop", lineup="RR", seed=SEED, bots={"1": "random"})
        t0 = game["seats"][0]["token"]
        with ws(app, game["game_id"]) as a:
            view = a.hello(t0)["view"]
            waits = []
            for _ in range(6):
                if view["result"] is not None or not view["pending"]:
                    break
                t = time.monotonic()
                msg = a.act(t0, view["state_id"], view["pending"][0])
                assert msg["type"] == "update", msg
                view = msg["view"]
                while not view["pending"] and view["result"] is None:   # the bot's moves
                    msg = a.recv(timeout=10)
                    view = msg["view"]
                waits.append(time.monotonic() - t)
            assert waits and max(waits) < 5.0, waits
        srv = server_of(app)
        progressed = [srv.rooms[g["game_id"]].game.state_id for g in flood if g["game_id"] in srv.rooms]
        assert progressed and all(s > 0 for s in progressed)   # the flood still moves, within its share


def test_the_bot_scheduler_ends_when_cancelled_in_the_same_moment_as_it_is_woken() -> None:
    """The server's stop cancels the bot scheduler and waits for it. A bots-only game waiting for its
    share of the loop, woken in the same loop iteration as the cancel, used to swallow the
    cancellation (``asyncio.wait_for`` on Python 3.11) and the stop then waited forever (a CI hang)."""
    from christianity_game.server.bot_turns import BotScheduler

    class Owned:
        people = 0
        owner = "127.0.0.1"

    async def scenario() -> bool:
        scheduler = BotScheduler(lambda room: None, share=0.5)
        scheduler.start()
        scheduler.not_before = asyncio.get_running_loop().time() + 60   # the share's pause: a long wait
        scheduler.ready(Owned())  # type: ignore[arg-type]
        for _ in range(5):
            await asyncio.sleep(0)   # the scheduler is now in its timed wait
        assert scheduler.task is not None and not scheduler.task.done()
        scheduler.wake.set()
        scheduler.task.cancel()
        done, _ = await asyncio.wait({scheduler.task}, timeout=2.0)
        return bool(done) and scheduler.task.cancelled()

    assert asyncio.run(scenario())


# --------------------------------------------------------------------------- memory: eviction, archiving
def test_idle_games_leave_memory_and_come_back_on_demand_abandoned_ones_are_archived(tmp_path: Path,
                                                                                     database: str | None) -> None:
    with running(tmp_path, database=database) as app:
        srv = server_of(app)
        game = create(app, mode="coop", lineup="RR", seed=SEED, access={"1": "open"})
        gid, t0 = game["game_id"], game["seats"][0]["token"]
        with ws(app, gid) as a:
            view = a.hello(t0)["view"]
            a.act(t0, 0, view["pending"][0])
        assert gid in srv.rooms
        evicted, _ = app.portal.call(srv.sweep, time.time() + srv.limits.idle_evict_s + 1)
        assert evicted >= 1 and gid not in srv.rooms
        flags = "SELECT parked, archived FROM games WHERE id=?"
        assert stored_rows(tmp_path, database, flags, (gid,)) == [(1, 0)]
        assert gid in {g["game_id"] for g in app.get("/api/games").json()}   # still listed: seat 1 is open
        _, archived = app.portal.call(srv.sweep, time.time() + srv.limits.abandon_s + 1)
        assert archived == 1
        assert gid not in {g["game_id"] for g in app.get("/api/games").json()}
        with ws(app, gid) as a:   # the link still works: the game loads again where it was
            w = a.hello(t0, state_id=1)
            assert (w["type"], w["state_id"], w["since"]) == ("welcome", 1, 1)
        assert stored_rows(tmp_path, database, flags, (gid,)) == [(0, 0)]
    with running(tmp_path, database=database) as app:   # a parked game is not replayed at start
        srv = server_of(app)
        with ws(app, gid) as a:
            assert a.hello(t0)["state_id"] == 1
        app.portal.call(srv.sweep, time.time() + srv.limits.idle_evict_s + 1)
    with running(tmp_path, database=database) as app:
        time.sleep(0.2)
        assert gid not in server_of(app).rooms
        with ws(app, gid) as a:
            assert a.hello(t0)["state_id"] == 1


# --------------------------------------------------------------------------- manual adjustment
def badge(view: dict[str, Any], seat: int, name: str) -> int:
    return int(view["seats"][seat][name])


def test_a_manual_adjustment_between_people_waits_for_the_other_side(tmp_path: Path, database: str | None) -> None:
    with running(tmp_path, database=database) as app:
        game = create(app, mode="duel", lineup="ER", seed=SEED)
        assert game["manualAdjust"] == "ask"
        gid = game["game_id"]
        te, tr, ts = tokens(game)
        with ws(app, gid) as evil, ws(app, gid) as good, ws(app, gid) as spec:
            evil.hello(te)
            view = good.hello(tr)["view"]
            spec.hello(ts)
            before = snapshot(app, game)
            h = badge(view, 1, "humility")
            adjust = {"type": "AdjustBadge", "badge": "humility", "value": h + 1}
            req = good.act(tr, view["state_id"], adjust, ref="mine")
            assert (req["type"], req["by"], req["answerers"], req["ref"]) == ("adjust_request", 1, [0], "mine")
            for other in (evil, spec):   # shown to everyone
                got = other.recv()
                assert (got["type"], got["request"], got["ref"]) == ("adjust_request", req["request"], None)
            assert snapshot(app, game) == before   # nothing applied yet
            again = good.act(tr, view["state_id"], adjust)
            assert again["code"] == "adjust_pending"
            bad = evil.act(te, view["state_id"], {"type": "AdjustBadge", "badge": "maturity", "value": 99})
            assert bad["code"] == "illegal_action" and bad["reason"]   # the engine refuses it: no request
            good.send({"type": "adjust_answer", "token": tr, "request": req["request"], "accept": True})
            assert good.recv()["code"] == "not_your_request"
            spec.send({"type": "adjust_answer", "token": ts, "request": req["request"], "accept": True})
            assert spec.recv()["code"] in ("wrong_token", "not_a_player")
            evil.send({"type": "adjust_answer", "token": te, "request": req["request"], "accept": False, "ref": 3})
            res = evil.recv()
            assert (res["type"], res["outcome"], res["answered_by"], res["ref"]) == ("adjust_resolved", "declined",
                                                                                     0, 3)
            assert good.recv()["outcome"] == "declined" and spec.recv()["outcome"] == "declined"
            assert snapshot(app, game) == before
            # asked again, accepted: applied as seat 1's action, then resolved
            req = good.act(tr, view["state_id"], adjust)
            evil.recv(), spec.recv()
            evil.send({"type": "adjust_answer", "token": te, "request": req["request"], "accept": True})
            for sock in (evil, good, spec):
                upd = sock.recv()
                assert (upd["type"], upd["by"], upd["ack"]) == ("update", 1, False)
                assert badge(upd["view"], 1, "humility") == h + 1
                assert sock.recv()["outcome"] == "accepted"
            evil.send({"type": "adjust_answer", "token": te, "request": req["request"], "accept": True})
            assert evil.recv()["code"] == "no_such_request"


def test_manual_adjustment_free_and_off(tmp_path: Path, database: str | None) -> None:
    with running(tmp_path, database=database) as app:
        free = create(app, mode="coop", lineup="RR", seed=SEED)
        assert free["manualAdjust"] == "free"
        off = create(app, mode="duel", lineup="ER", seed=SEED, manualAdjust="off")
        with ws(app, free["game_id"]) as a, ws(app, off["game_id"]) as b:
            view = a.hello(free["seats"][1]["token"])["view"]
            upd = a.act(free["seats"][1]["token"], 0, {"type": "AdjustBadge", "badge": "maturity", "value": 2})
            assert upd["type"] == "update" and badge(upd["view"], 1, "maturity") == 2 and view["state_id"] == 0
            b.hello(off["seats"][1]["token"])
            err = b.act(off["seats"][1]["token"], 0, {"type": "AdjustBadge", "badge": "maturity", "value": 2})
            assert err["code"] == "adjust_off"
        summary = app.get(f"/api/games/{off['game_id']}").json()
        assert summary["manualAdjust"] == "off"


@pytest.mark.parametrize("bad", ["sometimes", ""])
def test_manual_adjust_setting_must_be_known(tmp_path: Path, bad: str) -> None:
    with running(tmp_path) as app:
        r = app.post(f"/api/games?manualAdjust={bad}", json={"mode": "coop", "lineup": "RR"})
        assert r.status_code == 400 and r.json()["code"] == "bad_settings"


def test_http_requests_are_rate_limited_per_address(tmp_path: Path) -> None:
    lim = dataclasses.replace(ROOMY, http_rate=1.0, http_burst=5)
    with running(tmp_path, limits=lim) as app:
        codes = [app.get("/api/games").status_code for _ in range(8)]
        assert codes[:5] == [200] * 5 and codes[-1] == 429
        r = app.get("/healthz")
        assert r.status_code == 429 and r.json()["code"] == "too_many_requests"
        assert r.headers["retry-after"] == "1" and "script-src 'self'" in r.headers["content-security-policy"]
        time.sleep(1.1)
        assert app.get("/api/games").status_code == 200


def test_repeated_resyncs_answer_the_current_state_with_each_ref(tmp_path: Path, database: str | None) -> None:
    """A resync storm of one state costs one serialisation, and never serves an old state."""
    with running(tmp_path, database=database) as app:
        game = create(app, mode="coop", lineup="RR", seed=SEED)
        t0, t1, _ = tokens(game)
        with ws(app, game["game_id"]) as a, ws(app, game["game_id"]) as b:
            view = a.hello(t0)["view"]
            b.hello(t1)
            first = [a.send({"type": "sync", "state_id": 0, "ref": i}) or a.recv() for i in range(3)]
            assert [m["ref"] for m in first] == [0, 1, 2]
            assert all({k: v for k, v in m.items() if k != "ref"} == {k: v for k, v in first[0].items() if k != "ref"}
                       for m in first)
            other = (b.send({"type": "sync", "state_id": 0, "ref": "b"}) or b.recv())
            assert other["view"]["viewer"] == 1 and first[0]["view"]["viewer"] == 0   # per seat
            a.act(t0, 0, view["pending"][0])
            b.recv()
            after = a.send({"type": "sync", "state_id": 0, "ref": "x"}) or a.recv()
            assert (after["state_id"], len(after["events"]) > len(first[0]["events"])) == (1, True)


def test_static_files_are_not_counted_against_the_http_rate(tmp_path: Path) -> None:
    lim = dataclasses.replace(ROOMY, http_rate=0.5, http_burst=2)
    with running(tmp_path, limits=lim) as app:
        assert all(app.get("/static/style.css").status_code == 200 for _ in range(10))
        assert [app.get("/api/games").status_code for _ in range(3)] == [200, 200, 429]
