"""Games outlive upgrades, on the server: a stored game is resumed exactly after the card data and
the rules version change, or reported as not resumable (listed as such, record still downloadable,
its players told why when they connect) when the engine no longer plays the rules it was stored
under. Never a silent difference, never a failure half-way. On both stores (``database``: SQLite,
then PostgreSQL; tests/pg_fixture.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect
from test_server_helpers import create, running, snapshot, ws

import christianity_game.engine.game as engine_game
from christianity_game.cards import CardSet, starter_set
from christianity_game.engine import versions
from christianity_game.engine.replay import replay


def _changed_starter() -> CardSet:
    """Today's starter set with every Evil card's resistance raised: a balance change after an upgrade."""
    base = starter_set()
    cards = {cid: (replace(c, resistance=c.resistance + 3) if c.resistance is not None else c)
             for cid, c in base.cards.items()}
    return CardSet(cards, dict(base.decks))


def _stored_game(data: Path, database: str | None) -> tuple[dict[str, Any], tuple[Any, ...]]:
    """A co-op game with two people, three actions in: its creation answer and its snapshot."""
    with running(data, database=database) as app:
        game = create(app, mode="coop", lineup="RR", seed=41)
        t0 = game["seats"][0]["token"]
        with ws(app, game["game_id"]) as a:
            msg = a.hello(t0)
            for _ in range(3):
                msg = a.act(t0, msg["state_id"], msg["view"]["pending"][-1])
                assert msg["type"] == "update", msg
        snap = snapshot(app, game)
    assert snap[0] == 3
    return game, snap


def test_a_game_is_resumed_exactly_after_cards_and_rules_change(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                database: str | None) -> None:
    game, before = _stored_game(tmp_path, database)
    # the upgrade: new card data, rules version 2 that still plays rules 1 behind the version
    now = versions.RULES_VERSION
    monkeypatch.setattr(engine_game, "starter_set", _changed_starter)
    monkeypatch.setattr(versions, "RULES_VERSION", now + 1)
    monkeypatch.setattr(versions, "RULES_PLAYED", (*versions.RULES_PLAYED, now + 1))
    with running(tmp_path, database=database) as app:
        summary = app.get(f"/api/games/{game['game_id']}").json()
        assert summary["resumable"] is True and summary["status_note"] is None
        assert snapshot(app, game) == before
        # a new game on the upgraded server plays the new rules and the new cards
        fresh = create(app, mode="coop", lineup="RR", seed=41)
        view = app.get(f"/api/games/{fresh['game_id']}/view", params={"token": fresh["spectator"]["token"]}).json()
        assert view["state_id"] == 0


def test_a_game_under_rules_no_longer_played_is_kept_listed_and_downloadable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, database: str | None) -> None:
    game, before = _stored_game(tmp_path, database)
    gid = game["game_id"]
    now = versions.RULES_VERSION
    monkeypatch.setattr(versions, "RULES_VERSION", now + 1)
    monkeypatch.setattr(versions, "RULES_PLAYED", (now + 1,))
    with running(tmp_path, database=database) as app:
        summary = app.get(f"/api/games/{gid}").json()
        assert summary["resumable"] is False
        note = summary["status_note"]
        assert f"cannot be resumed after the upgrade to rules version {now + 1}" in note
        assert f"rules version {now}," in note
        # the record is still served whole, and it is the game as it was played
        r = app.get(f"/api/games/{gid}/record")
        assert r.status_code == 200, r.text
        record = r.json()
        assert record["rules"] == now and len(record["actions"]) == before[0]
        # a player who comes back is told why, with a code, and the connection is closed so
        with ws(app, gid) as a:
            err = a.recv()
            assert err["code"] == "game_not_resumable" and f"rules version {now + 1}" in err["message"]
            with pytest.raises(WebSocketDisconnect) as exc:
                a.recv()
        assert exc.value.code == 4410
        # other games keep working
        other = create(app, mode="solo", lineup="R", seed=3)
        assert app.get(f"/api/games/{other['game_id']}").json()["resumable"] is True
    # and an engine that plays those rules again (a downgrade, or another install) replays it exactly
    monkeypatch.setattr(versions, "RULES_VERSION", now)
    monkeypatch.setattr(versions, "RULES_PLAYED", (now,))
    assert replay(record).state_id == before[0]
