"""The duel's play-test variants on the server: a create request names them (``variants`` in its
settings or ``?variants=...``), ``serve --variants`` sets a default for new duels, the game summary
says what the table plays, ``/api/variants`` declares them for the pages, bad values are refused
with a code and words, and a stored game keeps its variants across a restart. The tests that create a
game run on both stores (``database``: SQLite, then PostgreSQL; tests/pg_fixture.py); a refused
request and the catalogue touch no store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_server_helpers import create, running

from christianity_game.engine.variants import PRESETS, VARIANTS
from christianity_game.server.lobby_models import GameSummary


def _summary(client: Any, game: dict[str, Any]) -> dict[str, Any]:
    s = client.get(f"/api/games/{game['game_id']}").json()
    GameSummary.model_validate(s)
    return s  # type: ignore[no-any-return]


def test_a_duel_created_with_the_recommended_variants_says_so(tmp_path: Path, database: str | None) -> None:
    with running(tmp_path, database=database) as client:
        game = create(client, mode="duel", lineup="ER", bots={"0": "heuristic"}, settings={"variants": "recommended"})
        s = _summary(client, game)
        assert s["variants"]["on"] == {v.alias: PRESETS["recommended"][v.key] for v in VARIANTS
                                       if v.key in PRESETS["recommended"]}
        assert s["variants"]["text"].startswith("This table plays: ")
        for key, value in PRESETS["recommended"].items():
            assert s["settings"][key] == value


def test_variants_in_the_query_and_a_setting_given_by_name_wins(tmp_path: Path, database: str | None) -> None:
    with running(tmp_path, database=database) as client:
        r = client.post("/api/games?variants=rewardCap%3D3,roundLimit%3D30&roundLimit=40",
                        json={"mode": "duel", "lineup": "ER", "bots": {"0": "random"}})
        assert r.status_code == 201, r.text
        s = _summary(client, r.json())
        assert s["variants"]["on"] == {"rewardCap": 3, "roundLimit": 40}


def test_a_printed_duel_names_no_variant(tmp_path: Path, database: str | None) -> None:
    with running(tmp_path, database=database) as client:
        s = _summary(client, create(client, mode="duel", lineup="ER", bots={"0": "random"}))
        assert s["variants"] == {"on": {}, "text": "This table plays the printed rules.", "rules": []}


@pytest.mark.parametrize("settings, words", [
    ({"variants": "rewardKap=2"}, "unknown variant 'rewardKap'"),
    ({"variants": "rewardCap=99"}, "rewardCap must be a whole number from 0 to 20"),
    ({"variants": "best"}, "unknown variant preset 'best'"),
    ({"variants": 3}, "variants must be text"),
])
def test_bad_variants_are_refused_with_a_code_and_words(tmp_path: Path, settings: dict[str, Any], words: str) -> None:
    with running(tmp_path) as client:
        r = client.post("/api/games", json={"mode": "duel", "lineup": "ER", "settings": settings})
        assert r.status_code == 400 and r.json()["code"] == "bad_settings", r.text
        assert words in r.json()["message"]


def test_variants_are_refused_for_co_op(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        r = client.post("/api/games", json={"mode": "coop", "lineup": "RR", "settings": {"variants": "rewardCap=2"}})
        assert r.status_code == 400 and "play-test variants are for duels" in r.json()["message"]


def test_the_servers_default_variants_apply_to_new_duels_only(tmp_path: Path, database: str | None) -> None:
    with running(tmp_path, default_variants="recommended", database=database) as client:
        duel = _summary(client, create(client, mode="duel", lineup="ER", bots={"0": "random"}))
        assert set(duel["variants"]["on"]) == {v.alias for v in VARIANTS if v.key in PRESETS["recommended"]}
        printed = _summary(client, create(client, mode="duel", lineup="ER", bots={"0": "random"},
                                          settings={"variants": "printed"}))
        assert printed["variants"]["on"] == {}
        coop = _summary(client, create(client, mode="coop", lineup="RR"))
        assert coop["variants"]["on"] == {}
        cat = client.get("/api/variants").json()
        assert set(cat["default"]) == set(duel["variants"]["on"])


def test_api_variants_declares_every_variant_and_preset(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        cat = client.get("/api/variants").json()
        assert [v["alias"] for v in cat["variants"]] == [v.alias for v in VARIANTS]
        assert set(cat["presets"]) == set(PRESETS) and cat["default"] == {}
        assert all(v["description"] and v["rules"] for v in cat["variants"])
        assert cat["presets"]["recommended"]["text"].startswith("This table plays: ")


def test_a_bad_default_stops_the_server_from_starting(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown variant"):
        with running(tmp_path, default_variants="rewardKap=1"):
            pass


def test_a_stored_game_with_variants_resumes_after_a_restart(tmp_path: Path, database: str | None) -> None:
    with running(tmp_path, database=database) as client:
        game = create(client, mode="duel", lineup="ER", seed=3, settings={"variants": "rewardCap=1,roundLimit=15"})
        token = game["seats"][1]["token"]
        before = client.get(f"/api/games/{game['game_id']}/view", params={"token": token}).json()
    with running(tmp_path, database=database) as client:
        s = _summary(client, game)
        assert s["variants"]["on"] == {"rewardCap": 1, "roundLimit": 15}
        after = client.get(f"/api/games/{game['game_id']}/view", params={"token": token}).json()
        assert after["settings"]["reward_cap"] == 1 and after["settings"]["round_limit"] == 15
        assert after["state_id"] == before["state_id"]


def test_a_scenario_game_at_a_variant_table_words_its_goal_for_that_table(tmp_path: Path, database: str | None) -> None:
    """V-2 (a table says what it plays): a scenario's goal in the game summary names the
    table's Evil win (evilHabituals=2, one Evil seat: 2 Habituals) and its round limit, not the
    printed 7; the same scenario at the printed rules says 7."""
    with running(tmp_path, database=database) as client:
        varied = create(client, scenario="duel-1v1", bots={"0": "heuristic"},
                        settings={"variants": "evilHabituals=2,roundLimit=20"})
        goal = _summary(client, varied)["scenario"]["goal"]
        assert "2 Evil Habituals in play" in goal and "7 Evil Habituals" not in goal, goal
        assert "20" in goal, goal
        printed = create(client, scenario="duel-1v1", bots={"0": "heuristic"})
        assert "7 Evil Habituals in play" in _summary(client, printed)["scenario"]["goal"]
