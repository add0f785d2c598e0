"""The search bot on the server: a lobby level (``search``, ``search:<budget>``) that thinks in a
worker process, so a thinking bot does not hold up another game's messages. The bots' game is played
on both stores (``database``: SQLite, then PostgreSQL; tests/pg_fixture.py); the lobby's refusal touches
no store."""

from __future__ import annotations

from pathlib import Path

from test_server_helpers import create, pings_while_bots_think, running


def test_search_bots_play_on_the_server_without_holding_up_other_games(tmp_path: Path, database: str | None) -> None:
    with running(tmp_path, database=database) as app:
        bots_only = create(app, mode="duel", lineup="ER", seed=3,
                           bots={"0": "search:300ms", "1": "search"})
        assert [s["bot"] for s in bots_only["seats"]] == ["search:300ms", "search"]
        people = create(app, mode="coop", lineup="RR", seed=4)
        moves, slowest = pings_while_bots_think(app, bots_only, people, 4)
        assert moves >= 4, "the search bots must make moves"
        assert slowest < 0.25, f"a ping waited {slowest:.3f} s behind thinking bots"


def test_the_lobby_refuses_a_bad_search_budget(tmp_path: Path) -> None:
    with running(tmp_path) as app:
        r = app.post("/api/games", json={"mode": "duel", "lineup": "ER", "bots": {"0": "search:fast"}})
        assert r.status_code == 400 and r.json()["code"] == "unknown_bot"
        assert "search:50ms" in r.json()["message"]
