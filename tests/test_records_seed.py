"""Issue 20, defects 1 and 9 without a browser: large seeds and the replay viewer's answers.

* A record's seed is read in both forms, an integer (every older record) or a decimal string (what
  the server now sends, so that a browser keeps all 128 bits); a float (what a browser's
  JSON.parse + JSON.stringify made of a 128-bit seed) or any other text is refused, naming the seed.
* The server sends the seed of every record as a decimal string, and takes a seed as a string in
  ``POST /api/games`` and in ``POST /api/replays``; the command line's ``replay`` reads both forms.
* A replay step says its action in words (the game's describer); ``seat=all`` shows every card,
  and only for a record whose game is over.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from test_server_helpers import create, running
from typer.testing import CliRunner

from christianity_game import Game
from christianity_game.cli import app as cli_app
from christianity_game.engine.record import RecordError
from christianity_game.server.lobby_models import CreateGame

RECORDS = Path(__file__).parent / "records"
BIG = 2**127 + 12345   # a seed beyond 2**53: a double cannot hold it


def _finished(seed: int) -> Game:
    """A short solo game (one round) played to its end with the first legal action each time."""
    from christianity_game.engine.settings import Settings
    game = Game.new(mode="solo", lineup="R", seed=seed, settings=Settings(max_rounds=1))
    while game.result is None:
        _, actions = game.pending[0]
        game.apply(actions[0])
    return game


@pytest.fixture(scope="module")
def big_game() -> Game:
    return _finished(BIG)


# --------------------------------------------------------------------------- the record reader
@pytest.mark.parametrize("value, expected", [(7, 7), ("7", 7), (str(BIG), BIG), (BIG, BIG), ("0", 0), (-3, -3)])
def test_the_record_reader_takes_a_whole_number_or_its_decimal_string(big_game: Game, value: Any,
                                                                       expected: int) -> None:
    start = Game.start_from_record(dict(big_game.to_record(), seed=value))
    assert start.seed == expected and type(start.seed) is int


@pytest.mark.parametrize("value", [float(BIG), 7.0, 2.09e38, True, None, "", "0x7", "7.0", "1e5", " 7", "seven",
                                   [7], "9" * 101])
def test_the_record_reader_refuses_any_other_seed_naming_the_field(big_game: Game, value: Any) -> None:
    with pytest.raises(RecordError) as exc:
        Game.start_from_record(dict(big_game.to_record(), seed=value))
    message = str(exc.value)
    assert message.startswith("record seed must be a whole number") and repr(value)[:20] in message


def test_a_float_seed_is_explained(big_game: Game) -> None:
    """The float a browser made of a 128-bit seed: refused before replay, saying why it happened."""
    record = dict(big_game.to_record(), seed=float(BIG))
    with pytest.raises(RecordError) as exc:
        Game.from_record(record)
    assert "seed" in str(exc.value) and "lost its digits" in str(exc.value)


def test_a_record_replays_with_its_seed_in_either_form(big_game: Game) -> None:
    record = big_game.to_record()
    assert record["seed"] == BIG   # the engine's own records keep the integer
    as_text = json.loads(json.dumps(dict(record, seed=str(BIG))))
    for r in (record, as_text):
        again = Game.from_record(r)
        assert again.seed == BIG and again.result == big_game.result and again.state_id == big_game.state_id
        assert again.to_record() == record


def test_old_records_with_integer_seeds_still_replay() -> None:
    checked = 0
    for path in sorted(RECORDS.glob("*.json")):
        data = json.loads(path.read_text())
        record = data.get("record", data)
        assert isinstance(record["seed"], int)
        Game.from_record(record)
        Game.from_record(dict(record, seed=str(record["seed"])))   # and the same seed as text
        checked += 1
    assert checked >= 5


def test_the_cli_replays_a_record_whose_seed_is_text(big_game: Game, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(dict(big_game.to_record(), seed=str(BIG))))
    result = CliRunner().invoke(cli_app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "Replay of" in result.output
    path.write_text(json.dumps(dict(big_game.to_record(), seed=float(BIG))))
    result = CliRunner().invoke(cli_app, ["replay", str(path)])
    assert result.exit_code != 0 and "record seed must be a whole number" in result.output


# --------------------------------------------------------------------------- the server
def test_create_game_takes_the_seed_as_a_decimal_string() -> None:
    assert CreateGame.model_validate({"seed": str(BIG)}).seed == BIG
    assert CreateGame.model_validate({"seed": 5}).seed == 5
    for bad in ("-1", "1e5", "0x10", 2.5, True):
        with pytest.raises(ValueError):
            CreateGame.model_validate({"seed": bad})
    schema = CreateGame.model_json_schema()["properties"]["seed"]
    assert {"type": "string", "pattern": "^[0-9]{1,100}$"} in schema["anyOf"]


def _wait_over(app: Any, gid: str) -> None:
    deadline = time.monotonic() + 60
    while app.get(f"/api/games/{gid}").json()["result"] is None:
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.05)


def test_the_server_sends_every_record_seed_as_text_and_reads_both(tmp_path: Path) -> None:
    with running(tmp_path) as app:
        # no seed given: 128 secret random bits, sent as a decimal string
        g = create(app, mode="solo", lineup="R", bots={"0": "random"}, settings={"maxRounds": "1"})
        _wait_over(app, g["game_id"])
        served = app.get(f"/api/games/{g['game_id']}/record")
        record = served.json()
        assert isinstance(record["seed"], str) and record["seed"].isdigit()
        assert int(record["seed"]).bit_length() > 64   # 128 random bits (fails once in 2**64)
        assert f'"seed":"{record["seed"]}"' in served.text.replace(" ", "")
        assert Game.from_record(record).result is not None
        # a seed chosen as text is the same game as the number
        a = create(app, mode="solo", lineup="R", seed=str(BIG), bots={"0": "random"}, settings={"maxRounds": "1"})
        _wait_over(app, a["game_id"])
        assert app.get(f"/api/games/{a['game_id']}/record").json()["seed"] == str(BIG)
        # the replay viewer takes the served record as it came, and one with the integer seed
        opened = app.post("/api/replays", content=served.content)
        assert opened.status_code == 200, opened.text
        as_int = app.post("/api/replays", content=json.dumps(dict(record, seed=int(record["seed"]))))
        assert as_int.status_code == 200 and as_int.json()["steps"] == opened.json()["steps"]
        # ...and refuses the float a browser would have made of it, naming the seed
        as_float = app.post("/api/replays", content=json.dumps(dict(record, seed=float(record["seed"]))))
        assert as_float.status_code == 400 and "record seed must be a whole number" in as_float.json()["message"]


def test_replay_steps_say_their_action_in_words_and_show_all_cards_once_over(tmp_path: Path) -> None:
    over = json.loads((RECORDS / "coop-RR.json").read_text())
    over = over.get("record", over)
    unfinished = json.loads((RECORDS / "coop-RRRR-unfinished.json").read_text())
    unfinished = unfinished.get("record", unfinished)
    names = {c.name for c in Game.from_record(over).defs}
    with running(tmp_path) as app:
        rep = app.post("/api/replays", json=over).json()
        assert rep["result"] is not None
        texts = []
        for step in range(1, min(rep["steps"], 60) + 1):
            answer = app.get(f"/api/replays/{rep['replay_id']}/{step}?seat=all").json()
            assert answer["text"] and "#" not in answer["text"]
            texts.append(answer["text"])
        assert any(name in t for t in texts for name in names), texts
        lay = next(i for i, a in enumerate(rep["actions"], 1) if a["type"] == "LayCostZone")
        actor = rep["actions"][lay - 1]["seat"]
        other = 1 - actor
        # the actor's own point of view names the card laid face down; the other seat's does not
        mine = app.get(f"/api/replays/{rep['replay_id']}/{lay}?seat={actor}").json()["text"]
        theirs = app.get(f"/api/replays/{rep['replay_id']}/{lay}?seat={other}").json()["text"]
        assert any(n in mine for n in names) and "face down" in theirs and not any(n in theirs for n in names)
        # all cards shown: every hand and deck face up
        full = app.get(f"/api/replays/{rep['replay_id']}/{lay}?seat=all").json()["view"]
        assert full["all_shown"] is True
        for s in full["seats"]:
            assert len(s["hand"]) == s["hand_size"] and all(c.get("id") for c in s["hand"])
            assert len(s["deck_cards"]) == s["deck_size"] and all(c.get("id") for c in s["deck_cards"])
            assert all(c.get("id") for c in s["cost_zone"])
        assert len(full["evil_deck"]) == full["evil_deck_size"]
        # ...refused for a game that is not over
        rep2 = app.post("/api/replays", json=unfinished).json()
        assert rep2["result"] is None
        refused = app.get(f"/api/replays/{rep2['replay_id']}/1?seat=all")
        assert refused.status_code == 403 and refused.json()["code"] == "game_not_over"
        assert app.get(f"/api/replays/{rep2['replay_id']}/1?seat=spectator").status_code == 200
