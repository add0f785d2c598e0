"""The search bot on the server: a lobby level (``search``, ``search:<budget>``) that thinks in a
worker process, so a thinking bot does not hold up another game's messages."""

from __future__ import annotations

import time
from pathlib import Path

from test_server_helpers import create, running, ws


def test_search_bots_play_on_the_server_without_holding_up_other_games(tmp_path: Path) -> None:
    with running(tmp_path) as app:
        bots_only = create(app, mode="duel", lineup="ER", seed=3,
                           bots={"0": "search:300ms", "1": "search"})
        assert [s["bot"] for s in bots_only["seats"]] == ["search:300ms", "search"]
        people = create(app, mode="coop", lineup="RR", seed=4)
        token = people["seats"][0]["token"]
        gid, spectator = bots_only["game_id"], bots_only["spectator"]["token"]
        with ws(app, people["game_id"]) as conn:
            conn.hello(token)
            slowest = 0.0
            deadline = time.monotonic() + 60
            moves = 0
            while time.monotonic() < deadline and moves < 4:
                t = time.perf_counter()
                conn.ping()   # another game's connection is answered while the bots think
                slowest = max(slowest, time.perf_counter() - t)
                moves = app.get(f"/api/games/{gid}/view", params={"token": spectator}).json()["state_id"]
                time.sleep(0.05)
        assert moves >= 4, "the search bots must make moves"
        assert slowest < 0.25, f"a ping waited {slowest:.3f} s behind thinking bots"


def test_the_lobby_refuses_a_bad_search_budget(tmp_path: Path) -> None:
    with running(tmp_path) as app:
        r = app.post("/api/games", json={"mode": "duel", "lineup": "ER", "bots": {"0": "search:fast"}})
        assert r.status_code == 400 and r.json()["code"] == "unknown_bot"
        assert "search:50ms" in r.json()["message"]
