"""Game records (G-6, docs/design.md, "Determinism"): settings + seed + decks + actions, replayed exactly.

* a record survives ``json.dumps`` / ``json.loads`` and replays to the same game: same record,
  views of every seat and of a spectator, log, result and score; finished and unfinished games,
  every mode and setting, manual adjustments (S-8) included;
* a replayed unfinished game carries on exactly like the original;
* a bad saved game is refused with a :class:`RecordError` (a ``ValueError``) whose message says
  what is wrong: wrong format, wrong version, a missing key, bad settings, an action that does not
  apply (the message names the action and its number);
* nothing is lost: replaying, good record or bad, never changes the record it was given.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from christianity_game import AdjustBadge, Game, Pass, Settings
from christianity_game.engine.record import RECORD_FORMAT, RECORD_VERSION, RecordError
from christianity_game.engine.replay import replay

MODES = {"R": "solo", "RR": "coop", "RRR": "coop", "RRRR": "coop"}
REQUIRED = ("mode", "lineup", "seed", "settings", "decks", "actions")


def play(mode: str, lineup: str, seed: int, settings: Settings | None = None, steps: int | None = None,
         manual: bool = False) -> Game:
    """A random-bot game, to the end or for ``steps`` actions; ``manual`` mixes in S-8 adjustments."""
    game = Game.new(mode=mode, lineup=lineup, seed=seed, settings=settings)
    rnd = random.Random(seed)
    n = 0
    while game.result is None and (steps is None or n < steps):
        n += 1
        if manual and rnd.random() < 0.03:
            game.apply(rnd.choice(game.manual_actions(rnd.randrange(len(lineup)))))
        else:
            game.apply_unchecked(rnd.choice(game.pending[0][1]))
    return game


def same_game(a: Game, b: Game) -> None:
    assert b.to_record() == a.to_record()
    assert b.result == a.result
    assert b.score == a.score
    assert b.state.state_id == a.state.state_id
    assert b.log == a.log
    for viewer in [None, *range(len(a.state.seats))]:
        assert b.view(viewer) == a.view(viewer), f"view of {viewer} differs after replay"
    assert b.card_zone_map() == a.card_zone_map()


def through_json(record: dict[str, Any]) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(json.dumps(record))
    return loaded


@pytest.fixture(scope="module")
def finished() -> Game:
    return play("coop", "RR", 11)


# ------------------------------------------------------------------------------------------------
# round trips


CASES = [
    ("solo", "R", Settings()),
    ("solo", "R", Settings(solo_fee=3, mat_abilities=False)),
    ("solo", "R", Settings(solo_fee=2, humility_rollover=False)),
    ("coop", "RR", Settings()),
    ("coop", "RR", Settings(mat_abilities=False, humility_rollover=False)),
    ("coop", "RRR", Settings(max_rounds=4)),
    ("coop", "RRRR", Settings(opening_hand=7)),
]


@pytest.mark.parametrize("mode,lineup,settings", CASES, ids=lambda v: str(v)[:40])
def test_record_json_round_trip_replays_the_same_game(mode: str, lineup: str, settings: Settings) -> None:
    """G-6: record -> JSON text -> record -> replay gives the same game, to the end."""
    for seed in range(3):
        game = play(mode, lineup, seed, settings, manual=seed == 1)
        assert game.result is not None
        record = game.to_record()
        assert record["format"] == RECORD_FORMAT and record["version"] == RECORD_VERSION
        assert {"mode", "lineup", "seed", "settings", "decks", "actions"} <= set(record)
        assert record["settings"] == settings.to_dict()
        assert len(record["actions"]) == len(game.actions)
        text = json.dumps(record)
        loaded = json.loads(text)
        assert loaded == record
        again = Game.from_record(loaded)
        same_game(game, again)
        assert json.dumps(again.to_record()) == text
        assert loaded == json.loads(text), "replaying changed the record it was given"


@pytest.mark.parametrize("lineup", ["R", "RRR"])
def test_unfinished_game_replays_and_carries_on_the_same(lineup: str) -> None:
    """A saved game half-way through resumes where it was and, given the same moves, ends the same."""
    for seed in range(3):
        full = play(MODES[lineup], lineup, seed)
        cut = len(full.actions) // 2
        half = play(MODES[lineup], lineup, seed, steps=cut)
        assert half.result is None
        resumed = Game.from_record(through_json(half.to_record()))
        same_game(half, resumed)
        for a in full.actions[cut:]:
            resumed.apply(a)
        same_game(full, resumed)


def test_replay_upto_stops_after_that_many_actions(finished: Game) -> None:
    record = finished.to_record()
    for upto in (0, 1, 17, len(record["actions"]) // 2):
        partial = replay(record, upto=upto)
        assert partial.to_record()["actions"] == record["actions"][:upto]


def test_record_with_manual_adjustments_round_trips() -> None:
    """S-8: manual adjustments are actions of the record, replayed as such."""
    game = Game.new(mode="coop", lineup="RR", seed=5)
    game.apply(AdjustBadge(1, "humility", 9))
    game.apply(AdjustBadge(0, "maturity", 2))
    rnd = random.Random(5)
    for _ in range(40):
        game.apply_unchecked(rnd.choice(game.pending[0][1]))
    record = through_json(game.to_record())
    assert record["actions"][0] == {"type": "AdjustBadge", "seat": 1, "badge": "humility", "value": 9}
    same_game(game, Game.from_record(record))


def test_record_of_a_position_round_trips(scenario: Any) -> None:
    """docs/design.md, "Positions": a game started from a position keeps the position in its record."""
    s = scenario(mode="coop", lineup="RR", phase="main")
    s.seat(0, humility=4, maturity=1).untapped(0, 3)
    game = s.start()
    rnd = random.Random(2)
    for _ in range(30):
        if game.result is not None:
            break
        game.apply_unchecked(rnd.choice(game.pending[0][1]))
    record = through_json(game.to_record())
    assert record["position"] is not None
    same_game(game, Game.from_record(record))


# ------------------------------------------------------------------------------------------------
# bad saved games


def refused(record: Any, *words: str) -> str:
    """The record is refused with a RecordError naming ``words``, and is left exactly as it was."""
    before = copy.deepcopy(record)
    with pytest.raises(RecordError) as exc:
        Game.from_record(record)
    assert isinstance(exc.value, ValueError)
    message = str(exc.value)
    for w in words:
        assert w.lower() in message.lower(), f"{message!r} does not mention {w!r}"
    assert record == before, "a refused record was changed"
    return message


@pytest.mark.parametrize("bad", [None, [], "christianity-game-record", 7, {}, {"format": "chess-pgn"},
                                 {"format": None, "version": 1}])
def test_not_a_record_is_refused(bad: Any) -> None:
    refused(bad, "format")


def test_wrong_format_is_refused(finished: Game) -> None:
    record = finished.to_record()
    for value in ("christianity-game", "CHRISTIANITY-GAME-RECORD", None, 1):
        refused(dict(record, format=value), "format")
    no_format = dict(record)
    del no_format["format"]
    refused(no_format, "format")


@pytest.mark.parametrize("version", [0, RECORD_VERSION + 1, "1", "2", None, 1.5, True, [1]])
def test_wrong_version_is_refused(finished: Game, version: Any) -> None:
    refused(dict(finished.to_record(), version=version), "version")


def test_missing_version_is_refused(finished: Game) -> None:
    record = finished.to_record()
    del record["version"]
    refused(record, "version")


@pytest.mark.parametrize("key", REQUIRED)
def test_missing_key_is_refused(finished: Game, key: str) -> None:
    record = finished.to_record()
    del record[key]
    refused(record, key)


@pytest.mark.parametrize("settings,word", [
    ({"solo_fee": 9}, "solo_fee"),
    ({"solo_fee": "lots"}, "solo_fee"),
    ({"mat_abilities": "maybe"}, "mat_abilities"),
    ({"humility_rollover": 2}, "humility_rollover"),
    ({"max_rounds": 0}, "max_rounds"),
    ({"no_such_setting": True}, "no_such_setting"),
])
def test_bad_settings_are_refused(finished: Game, settings: dict[str, Any], word: str) -> None:
    record = finished.to_record()
    record["settings"] = dict(record["settings"], **settings)
    refused(record, word)


@pytest.mark.parametrize("settings", [None, [], "mat_abilities=0", 3])
def test_settings_that_are_not_a_table_are_refused(finished: Game, settings: Any) -> None:
    """A record whose settings are not a JSON object is a RecordError, not an AttributeError."""
    refused(dict(finished.to_record(), settings=settings), "setting")


@pytest.mark.parametrize("key,value,word", [
    ("mode", "chess", "chess"), ("mode", None, "mode"), ("lineup", "RX", "lineup"), ("lineup", "RR" * 5, "1 to 6"),
    ("seed", "0x7", "seed"), ("seed", 7.0, "seed"), ("seed", True, "seed"), ("seed", None, "seed"),
    ("decks", ["nope"], "deck"),
    ("decks", ["shepherd", "nope", "evil"], "nope"), ("decks", 5, ""), ("deck_files", [["a"]], ""),
    ("actions", "abc", "actions"), ("actions", None, "actions"), ("actions", {"0": {}}, "actions"),
])
def test_bad_game_fields_are_refused(finished: Game, key: str, value: Any, word: str) -> None:
    refused(dict(finished.to_record(), **{key: value}), word)


@pytest.mark.parametrize("value", [None, 7, ["R", "R"]])
def test_lineup_that_is_not_text_is_refused(finished: Game, value: Any) -> None:
    """A record whose lineup is not a string is a RecordError, not an AttributeError."""
    refused(dict(finished.to_record(), lineup=value), "lineup")


def test_action_that_does_not_apply_is_named(finished: Game) -> None:
    """The message says which action (its number, 1-based, and its data) and why it fails."""
    record = finished.to_record()
    actions = record["actions"]
    k = len(actions) // 3
    n = len(finished.state.seats)
    wrong_seat = dict(actions[k], seat=(actions[k]["seat"] + 1) % n)
    bad = dict(record, actions=actions[:k] + [wrong_seat] + actions[k + 1:])
    message = refused(bad, f"action {k + 1}", "not_your_decision")
    assert repr(wrong_seat) in message or json.dumps(wrong_seat) in message or str(wrong_seat) in message
    # a card that is nowhere near the seat
    lay = next(i for i, a in enumerate(actions) if a["type"] == "LayCostZone")
    stolen = dict(actions[lay], card=len(finished.defs) + 5)
    refused(dict(record, actions=actions[:lay] + [stolen]), f"action {lay + 1}")
    # a malformed action, and one action too many (the game is over)
    refused(dict(record, actions=actions[:3] + [{"type": "Fly", "seat": 0}]), "action 4", "malformed")
    refused(dict(record, actions=actions[:3] + [5]), "action 4", "malformed")
    extra = actions + [Pass(0).to_json()]
    refused(dict(record, actions=extra), f"action {len(extra)}", "game_over")


def test_record_from_another_seed_does_not_apply(finished: Game) -> None:
    """The actions only fit their own deal: another seed gives a clear error, not a different game."""
    record = finished.to_record()
    message = refused(dict(record, seed=record["seed"] + 1), "action")
    assert "does not apply" in message


def test_good_records_are_not_changed_by_replay(finished: Game) -> None:
    record = finished.to_record()
    before = copy.deepcopy(record)
    Game.from_record(record)
    replay(record, upto=10)
    assert record == before
