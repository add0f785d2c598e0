"""The lobby API: create a game (mode, line-up, settings, decks, bots, scenario), list open games,
join a seat; the placeholder page, static files and API docs. On both stores (``database``: SQLite,
then PostgreSQL; tests/pg_fixture.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_server_helpers import create, running, ws

from christianity_game.server.lobby_models import CreatedGame, GameSummary, Joined


@pytest.fixture
def app(tmp_path: Path, database: str | None) -> Any:
    with running(tmp_path, database=database) as client:
        yield client


def test_create_returns_a_secret_link_per_human_seat_and_a_spectator_link(app: Any) -> None:
    game = create(app, mode="coop", lineup="RRR", seed=4, bots={"2": "heuristic"}, name="Friday")
    CreatedGame.model_validate(game)
    humans = [s for s in game["seats"] if s["kind"] == "human"]
    assert [s["seat"] for s in humans] == [0, 1]
    tokens = {s["token"] for s in humans} | {game["spectator"]["token"]}
    assert len(tokens) == 3 and all(len(t) >= 20 for t in tokens)
    for s in humans:
        assert s["url"].endswith(f"/play/{game['game_id']}#token={s['token']}")
    assert game["seats"][2] == {"seat": 2, "side": "righteous", "kind": "bot", "bot": "heuristic", "token": None,
                                "url": None, "access": None}
    assert [s["access"] for s in humans] == ["invited", "invited"]   # the default
    assert game["ws"].startswith("ws://") and game["ws"].endswith(f"/ws/{game['game_id']}")
    summary = app.get(f"/api/games/{game['game_id']}").json()
    GameSummary.model_validate(summary)
    assert summary["name"] == "Friday" and "token" not in str(summary)


def test_create_with_decks_and_default_seed(app: Any) -> None:
    game = create(app, mode="coop", lineup="RR", decks=["servant", "shepherd", "evil"])
    view = app.get(f"/api/games/{game['game_id']}/view", params={"token": game["spectator"]["token"]}).json()
    assert [s["deck"] for s in view["seats"]] == ["servant", "shepherd"]


@pytest.mark.parametrize("body, status, code", [
    ({"settings": {"soloFee": "9"}}, 400, "bad_settings"),
    ({"settings": {"noSuchSetting": "1"}}, 400, "bad_settings"),
    ({"lineup": "RX"}, 400, "bad_game"),
    ({"mode": "chess"}, 400, "bad_game"),
    ({"decks": ["nope", "shepherd", "evil"]}, 400, "bad_game"),
    ({"bots": {"1": "genius"}}, 400, "unknown_bot"),
    ({"bots": {"5": "random"}}, 400, "no_such_seat"),
    ({"scenario": "no-such-scenario"}, 400, "unknown_scenario"),
    ({"scenario": "duel-1v1", "lineup": "RR"}, 400, "bad_game"),
    ({"access": {"0": "public"}}, 422, None),
    ({"access": {"5": "open"}}, 400, "no_such_seat"),
    ({"manualAdjust": "sometimes"}, 422, None),
    ({"seed": "twelve"}, 422, None),   # a decimal string such as "12" is a seed (docs/protocol.md, Large integers)
    ({"seed": "1.5"}, 422, None),
    ({"seed": 1.5}, 422, None),
])
def test_create_refuses_bad_requests_clearly(app: Any, body: dict[str, Any], status: int, code: str) -> None:
    r = app.post("/api/games", json=body)
    assert r.status_code == status, r.text
    if code is not None:
        assert r.json()["code"] == code and r.json()["message"]


def test_create_refuses_unknown_fields(app: Any) -> None:
    assert app.post("/api/games", json={"lineup": "RR", "colour": "red"}).status_code == 422


def test_open_games_and_joining_a_seat(app: Any) -> None:
    game = create(app, mode="coop", lineup="RR", seed=1, access={"0": "open", "1": "open"})
    hidden = create(app, mode="coop", lineup="RR", seed=1, listed=False, access={"0": "open", "1": "open"})
    gid = game["game_id"]
    listed = {g["game_id"]: g for g in app.get("/api/games").json()}
    assert gid in listed and hidden["game_id"] not in listed
    assert listed[gid]["open_seats"] == [0, 1]
    # the creator takes seat 0 by connecting with its link
    with ws(app, gid) as a:
        a.hello(game["seats"][0]["token"])
    assert app.get(f"/api/games/{gid}").json()["open_seats"] == [1]
    joined = app.post(f"/api/games/{gid}/join", json={"name": "Ann"}).json()
    Joined.model_validate(joined)
    assert joined["seat"] == 1 and joined["token"] != game["seats"][1]["token"]
    assert gid not in {g["game_id"] for g in app.get("/api/games").json()}
    summary = app.get(f"/api/games/{gid}").json()
    assert summary["seats"][1]["name"] == "Ann" and summary["seats"][1]["claimed"]
    with ws(app, gid) as b:
        assert b.hello(joined["token"])["seat"] == 1
        # the unused creator's link for seat 1 was replaced by the joiner's token
        assert b.hello(game["seats"][1]["token"])["code"] == "wrong_token"
    r = app.post(f"/api/games/{gid}/join")
    assert (r.status_code, r.json()["code"]) == (409, "no_free_seat")
    r = app.post(f"/api/games/{gid}/join", json={"seat": 0})
    assert (r.status_code, r.json()["code"]) == (409, "seat_taken")


def test_an_invited_seat_is_never_listed_nor_taken_by_join(app: Any) -> None:
    """The creator's shared link keeps its seat: join takes only open seats."""
    game = create(app, mode="coop", lineup="RRR", seed=1, access={"2": "open"})
    gid = game["game_id"]
    assert [s["access"] for s in game["seats"]] == ["invited", "invited", "open"]
    listed = {g["game_id"]: g for g in app.get("/api/games").json()}
    assert listed[gid]["open_seats"] == [2]
    assert [s["access"] for s in listed[gid]["seats"]] == ["invited", "invited", "open"]
    for seat in (0, 1):
        r = app.post(f"/api/games/{gid}/join", json={"seat": seat})
        assert (r.status_code, r.json()["code"]) == (409, "seat_invited") and "link" in r.json()["message"]
    joined = app.post(f"/api/games/{gid}/join").json()
    assert joined["seat"] == 2
    r = app.post(f"/api/games/{gid}/join")
    assert (r.status_code, r.json()["code"]) == (409, "no_free_seat")
    assert gid not in {g["game_id"] for g in app.get("/api/games").json()}
    with ws(app, gid) as a:   # the creator's links still play seats 0 and 1
        assert a.hello(game["seats"][1]["token"])["seat"] == 1
        assert a.hello(game["seats"][0]["token"])["seat"] == 0
    # a game whose seats are all invited is not listed at all
    private = create(app, mode="coop", lineup="RR", seed=1)
    assert private["game_id"] not in {g["game_id"] for g in app.get("/api/games").json()}
    r = app.post(f"/api/games/{private['game_id']}/join")
    assert (r.status_code, r.json()["code"]) == (409, "no_free_seat")


def test_join_refuses_bot_seats_and_unknown_games(app: Any) -> None:
    game = create(app, mode="coop", lineup="RR", seed=1, bots={"1": "random"})
    r = app.post(f"/api/games/{game['game_id']}/join", json={"seat": 1})
    assert (r.status_code, r.json()["code"]) == (409, "bot_seat")
    r = app.post(f"/api/games/{game['game_id']}/join", json={"seat": 7})
    assert (r.status_code, r.json()["code"]) == (404, "no_such_seat")
    r = app.post("/api/games/nope/join")
    assert (r.status_code, r.json()["code"]) == (404, "no_such_game")
    assert app.get("/api/games/nope").status_code == 404


def test_view_over_http_needs_a_token(app: Any) -> None:
    game = create(app, mode="coop", lineup="RR", seed=1)
    gid = game["game_id"]
    assert app.get(f"/api/games/{gid}/view").status_code == 401
    assert app.get(f"/api/games/{gid}/view", params={"token": "nope"}).status_code == 403
    view = app.get(f"/api/games/{gid}/view", headers={"Authorization": f"Bearer {game['seats'][1]['token']}"}).json()
    assert view["viewer"] == 1


def test_digest_and_record_reveal_no_hidden_cards(app: Any) -> None:
    game = create(app, mode="coop", lineup="RR", seed=1)
    gid = game["game_id"]
    d = app.get(f"/api/games/{gid}/digest").json()
    assert d["state_id"] == 0 and len(d["digest"]) == 64
    assert app.get(f"/api/games/{gid}/record").json()["code"] == "game_not_over"


def test_home_page_docs_and_static_files(app: Any) -> None:
    page = app.get("/")   # the placeholder, or the browser client's lobby once it is installed
    assert page.status_code == 200 and "<html" in page.text.lower()
    assert app.get("/docs").status_code == 200
    assert "/api/games" in app.get("/openapi.json").json()["paths"]
    assert app.get("/static/style.css").status_code == 200
    assert app.get("/play/abc").status_code == 200
    health = app.get("/healthz").json()
    assert health["ok"] is True


def test_a_second_server_on_the_same_data_folder_is_refused(tmp_path: Path, database: str | None) -> None:
    with running(tmp_path, database=database):
        with pytest.raises(Exception, match="another server"):
            with running(tmp_path / "elsewhere" if database else tmp_path, database=database):
                pass


@pytest.mark.parametrize("name", ["duel-1v1", "combo-finale"])
def test_a_duel_scenario_game_is_played_stored_and_resumed(tmp_path: Path, name: str, database: str | None) -> None:
    from christianity_game.scenarios import scenario

    sc = scenario(name)
    with running(tmp_path, database=database) as app:
        game = create(app, scenario=name, seed=5)
        assert (game["mode"], game["lineup"]) == (sc.mode, sc.lineup)
        seats = [s for s in game["seats"] if s["kind"] == "human"]
        with ws(app, game["game_id"]) as a:
            views = {s["seat"]: a.hello(s["token"])["view"] for s in seats}
            view = views[seats[-1]["seat"]]
            assert as_json(view) == as_json(sc.new_game(seed=5).view(seats[-1]["seat"]))
        # play a few actions, whoever must act
        for _ in range(6):
            actor = next((s for s in seats if app.get(f"/api/games/{game['game_id']}/view",
                                                      params={"token": s["token"]}).json()["pending"]), None)
            if actor is None:
                break
            with ws(app, game["game_id"]) as a:
                v = a.hello(actor["token"])["view"]
                assert a.act(actor["token"], v["state_id"], v["pending"][0])["ack"]
        before = app.get(f"/api/games/{game['game_id']}/digest").json()
        assert before["state_id"] > 0
    with running(tmp_path, database=database) as app:   # its record (position and all) replays after a restart
        assert app.get(f"/api/games/{game['game_id']}/digest").json() == before


def as_json(obj: Any) -> Any:
    import json
    return json.loads(json.dumps(obj))
