"""A client's claimed state is evidence of lost actions only when its seat was sent that state
(issue 22, item 4): a spectator (or a seat, with no loss known) claiming states the server never
had gets ``state_lost`` but plants no storage alarm; claims are logged at most once a minute per
game; real alarms stay in ``/healthz`` whatever the claims; a seat that was sent a state the
server no longer holds raises the alarm, at ERROR, once per game. On both stores (``database``: SQLite,
then PostgreSQL; tests/pg_fixture.py)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from test_server_helpers import create, running, ws

from christianity_game import Game

SEED = 7
CLAIM = "acknowledged actions were lost"


def server_of(app: Any) -> Any:
    return app.app.state.server


def play(sock: Any, token: str, view: dict[str, Any], n: int) -> dict[str, Any]:
    """Seat 0 takes ``n`` actions (passing where it can); the last view."""
    for _ in range(n):
        passes = [p for p in view["pending"] if p["type"] == "Pass"]
        view = sock.act(token, view["state_id"], (passes or view["pending"])[0])["view"]
    return view


def test_a_spectators_claims_plant_no_storage_alarm(tmp_path: Path, database: str | None, caplog: Any) -> None:
    caplog.set_level(logging.INFO, logger="christianity_game.server")
    with running(tmp_path, database=database) as app:
        game = create(app, mode="coop", lineup="RR", seed=SEED)
        gid, t0, ts = game["game_id"], game["seats"][0]["token"], game["spectator"]["token"]
        with ws(app, gid) as a, ws(app, gid) as spec:
            play(a, t0, a.hello(t0)["view"], 3)
            spec.hello(ts)
            for i in range(120):   # the attack: 120 syncs claiming states 10^9 + i
                spec.send({"type": "sync", "state_id": 10**9 + i})
                msg = spec.recv()
                while msg["type"] == "update":   # what seat 0 did before the spectator joined reads on
                    msg = spec.recv()
                assert (msg["type"], msg["code"]) == ("error", "state_lost"), msg
            spec.ping()
            # a seat's claim while no loss is known is not evidence either
            a.send({"type": "sync", "state_id": 10**9})
            assert a.recv()["code"] == "state_lost"
        health = app.get("/healthz").json()
        assert health["storage_problems"] == [] and health["ok"] is True, health
        assert health["unverified_state_claims"] == 121
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]
    warned = [r for r in caplog.records if r.levelno == logging.WARNING and "claims state" in r.getMessage()]
    assert len(warned) == 1, [r.getMessage() for r in warned]   # once a minute per game, not 121 times
    assert getattr(warned[0], "game_id", None) == gid


def test_real_alarms_stay_and_a_seats_claim_after_a_known_loss_is_one_alarm(tmp_path: Path, database: str | None,
                                                                            caplog: Any) -> None:
    caplog.set_level(logging.INFO, logger="christianity_game.server")
    with running(tmp_path, database=database) as app:
        server = server_of(app)
        real = ["games.sqlite3-wal is missing after an unclean stop (test)", "games.sqlite3 failed its check (test)"]
        server.storage_problems.extend(real)   # what the store reports on start after a crash
        game = create(app, mode="coop", lineup="RR", seed=SEED)
        gid, t0, ts = game["game_id"], game["seats"][0]["token"], game["spectator"]["token"]
        with ws(app, gid) as spec:
            spec.hello(ts)
            for i in range(120):
                spec.send({"type": "sync", "state_id": 10**9 + i})
                assert spec.recv()["code"] == "state_lost"
        assert app.get("/healthz").json()["storage_problems"] == real
        with ws(app, gid) as a:   # a seat's claim, with a loss known: evidence (after a restart)
            for i in range(50):
                err = a.hello(t0, state_id=40 + i)
                assert (err["type"], err["code"]) == ("error", "state_lost")
        problems = app.get("/healthz").json()["storage_problems"]
        assert problems[:2] == real and len(problems) == 3 and CLAIM in problems[2] and gid in problems[2]
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR and CLAIM in r.getMessage()]
    assert len(errors) == 1 and getattr(errors[0], "game_id", None) == gid   # one line for 50 claims


def test_a_seat_that_was_sent_a_state_the_server_lost_raises_the_alarm(tmp_path: Path, database: str | None,
                                                                       caplog: Any) -> None:
    caplog.set_level(logging.INFO, logger="christianity_game.server")
    with running(tmp_path, database=database) as app:
        server = server_of(app)
        game = create(app, mode="solo", lineup="R", seed=SEED)
        gid, t0 = game["game_id"], game["seats"][0]["token"]
        with ws(app, gid) as a:
            seen = play(a, t0, a.hello(t0)["view"], 6)["state_id"]
        assert seen >= 6 and server.storage_problems == []
        # the server comes to hold an earlier state than it sent (as after a reload from storage
        # that lost the last actions): the record of the first 3 actions only
        room = server.rooms[gid]
        record = room.game.to_record()
        record["actions"] = record["actions"][:3]
        room.game = Game.from_record(record)
        with ws(app, gid) as a:
            err = a.hello(t0, state_id=seen)
            assert (err["type"], err["code"], err["state_id"]) == ("error", "state_lost", 3)
            assert a.hello(t0)["type"] == "welcome"
        health = app.get("/healthz").json()
        problems = health["storage_problems"]
        assert len(problems) == 1 and CLAIM in problems[0] and health["ok"] is False, health
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR and CLAIM in r.getMessage()]
    assert len(errors) == 1 and errors[0].getMessage().startswith("STORAGE:")
