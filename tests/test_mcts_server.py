"""Bot levels on the server (issue 24): ``easy``, ``normal`` and ``hard`` are lobby levels, the
thinking ones think in the worker pool (so another game's messages are not held up), and an
unknown level is refused with the levels listed. The bots' game is played on both stores (``database``:
SQLite, then PostgreSQL; tests/pg_fixture.py): a thinking bot's moves are stored and broadcast like a
person's; the lobby's refusal touches no store."""

from __future__ import annotations

from pathlib import Path

from test_server_helpers import create, pings_while_bots_think, running


def test_levels_play_on_the_server_without_holding_up_other_games(tmp_path: Path, database: str | None) -> None:
    with running(tmp_path, database=database) as app:
        bots_only = create(app, mode="duel", lineup="ER", seed=3, bots={"0": "normal", "1": "easy"})
        assert [s["bot"] for s in bots_only["seats"]] == ["normal", "easy"]
        people = create(app, mode="coop", lineup="RR", seed=4, bots={"1": "hard"})
        moves, slowest = pings_while_bots_think(app, bots_only, people, 6)
        assert moves >= 6, "the bots must make moves"
        assert slowest < 0.25, f"a ping waited {slowest:.3f} s behind thinking bots"


def test_the_lobby_refuses_an_unknown_level_and_lists_the_levels(tmp_path: Path) -> None:
    with running(tmp_path) as app:
        r = app.post("/api/games", json={"mode": "duel", "lineup": "ER", "bots": {"0": "expert"}})
        assert r.status_code == 400 and r.json()["code"] == "unknown_bot"
        message = r.json()["message"]
        assert "easy" in message and "normal" in message and "hard" in message and "mcts:200ms" in message
        ok = app.post("/api/games", json={"mode": "duel", "lineup": "ER", "bots": {"0": "mcts:80ms"}})
        assert ok.status_code == 201
