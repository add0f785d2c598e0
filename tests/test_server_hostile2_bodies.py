"""Request bodies are bounded everywhere (issue 22, item 1's remainder): ``POST /api/games`` and a
join take at most ``body_bytes`` (``413 body_too_large``, told by its Content-Length or counted as
it comes in, before it is all read); replay uploads keep their own, larger cap; a body within the
cap is served as before. On both stores (``database``: SQLite, then PostgreSQL;
tests/pg_fixture.py): the game created and joined within the cap is stored."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from test_server_helpers import ROOMY, in_chunks, running

from christianity_game.server.limits import Limits


def test_a_game_request_over_the_body_cap_is_refused_and_one_within_it_is_served(tmp_path: Path,
                                                                                 database: str | None) -> None:
    assert Limits().body_bytes == 256 << 10
    lim = dataclasses.replace(ROOMY, body_bytes=4_096)
    with running(tmp_path, limits=lim, database=database) as app:
        padded = json.dumps({"mode": "coop", "lineup": "RR", "name": "x" * 70, "pad": "y" * 10_000}).encode()
        r = app.post("/api/games", content=padded, headers={"Content-Type": "application/json"})
        assert (r.status_code, r.json()["code"]) == (413, "body_too_large"), r.text
        assert "at most 4,096 bytes" in r.json()["message"]

        r = app.post("/api/games", content=in_chunks(padded, 1024), headers={"Content-Type": "application/json"})
        assert (r.status_code, r.json()["code"]) == (413, "body_too_large"), r.text
        # within the cap: created and joined as before (and a bad field is still the schema's 422)
        created = app.post("/api/games", json={"mode": "coop", "lineup": "RR"})
        assert created.status_code == 201, created.text
        # a join within the cap reaches the endpoint (which answers by the seat: this one is invited)
        joined = app.post(f"/api/games/{created.json()['game_id']}/join", json={"seat": 0, "name": "Ann"})
        assert (joined.status_code, joined.json()["code"]) == (409, "seat_invited"), joined.text
        big_join = app.post(f"/api/games/{created.json()['game_id']}/join", content=b"{" + b" " * 5_000 + b"}",
                            headers={"Content-Type": "application/json"})
        assert (big_join.status_code, big_join.json()["code"]) == (413, "body_too_large")
        assert app.post("/api/games", json={"mode": "coop", "lineup": "RR", "pad": 1}).status_code == 422
        # a replay upload has its own cap (replay_bytes), larger than body_bytes
        record = {"version": 1}
        r = app.post("/api/replays", content=json.dumps(record).encode() + b" " * 8_000,
                     headers={"Content-Type": "application/json"})
        assert r.json().get("code") != "body_too_large", r.text
