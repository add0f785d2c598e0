"""Games outlive upgrades (G-6, docs/design.md, "Determinism"): a record always replays as it was played.

* every golden record under ``tests/records/`` (seeded games of every mode, line-up and duel
  scenario, finished and unfinished, recorded with the engine of their day; two of them written in
  record format 1 by the code before cards were pinned) replays to the fingerprint it was stored
  with (see ``tests/golden.py``);
* a record pins the card definitions it was played with: changing a card afterwards does not change
  the replay, and a record whose pinned cards were tampered with is refused;
* a record played under rules this engine does not play (newer, or older than it keeps) is refused
  before any action is replayed, with both versions named, by the library and by
  ``christianity-game replay``.
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from christianity_game import Game, Settings
from christianity_game.bots import make_bot, play_out
from christianity_game.cards import CardSet, starter_set
from christianity_game.cli import app
from christianity_game.engine import versions
from christianity_game.engine.record import RecordError, UnsupportedRules, check_record
from christianity_game.engine.replay import replay
from golden import RECORDS, fingerprint

GOLDEN = sorted(RECORDS.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_there_are_golden_records_of_every_mode_and_scenario() -> None:
    from christianity_game.scenarios import all_scenarios
    names = {p.stem for p in GOLDEN}
    assert {"solo-R", "coop-RR", "coop-RRR", "coop-RRRR-unfinished", "duel-ER", "duel-EER", "duel-ERR"} <= names
    assert {f"scenario-{name}" for name in all_scenarios()} <= names
    assert any(load(p)["record"]["version"] == 1 for p in GOLDEN), "no record of format 1 is kept"
    assert any(load(p)["result"] is None for p in GOLDEN), "no unfinished game is kept"


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_record_replays_to_its_fingerprint(path: Path) -> None:
    entry = load(path)
    record = entry["record"]
    before = copy.deepcopy(record)
    game = Game.from_record(record)
    assert game.state_id == entry["state_id"]
    assert fingerprint(game) == entry["fingerprint"], (
        f"{path.name} no longer replays as it was played: bump the rules version (engine/versions.py) and keep "
        "the old behaviour behind it, or say in CHANGELOG.md what old records now do")
    assert record == before, "replaying changed the record"


def test_a_record_pins_the_cards_it_was_played_with() -> None:
    game = Game.new(mode="coop", lineup="RR", seed=5)
    record = game.to_record()
    pinned = record["cards"]
    assert record["rules"] == versions.RULES_VERSION and record["version"] == 2
    assert set(pinned["decks"]) == {"shepherd", "watchman", "evil"}
    assert {c.id for c in game.defs} <= set(pinned["cards"])
    assert len(pinned["sha256"]) == 64


def _changed_starter() -> CardSet:
    """Today's starter set with one Evil card made much harder: a later card-data change."""
    base = starter_set()
    evil = base.decks["evil"].cards
    target = max((base.cards[cid] for cid in set(evil) if base.cards[cid].kind == "temptation"
                  and base.cards[cid].resistance is not None), key=lambda c: (evil.count(c.id), c.id))
    changed = replace(target, resistance=(target.resistance or 0) + 5, text=target.text + " (changed)")
    return CardSet({**base.cards, target.id: changed}, dict(base.decks))


def test_changing_a_card_after_the_game_does_not_change_its_replay() -> None:
    # the game is played with the changed card (as if it were today's data), recorded, then replayed
    # while the bundled data says otherwise: the replay uses the pinned definition
    changed = _changed_starter()
    game = Game.new(mode="coop", lineup="RR", seed=9, card_set=changed)
    play_out(game, {i: make_bot("heuristic", i, game.cards) for i in range(2)})
    record = json.loads(json.dumps(game.to_record()))
    again = Game.from_record(record)
    assert fingerprint(again) == fingerprint(game)
    assert again.to_record() == record
    # and the same seed with today's cards is a different game: pinning is what made it exact
    plain = Game.new(mode="coop", lineup="RR", seed=9)
    play_out(plain, {i: make_bot("heuristic", i, plain.cards) for i in range(2)})
    assert fingerprint(plain) != fingerprint(game)


def test_tampered_pinned_cards_are_refused() -> None:
    record = Game.new(mode="duel", lineup="ER", seed=3).to_record()
    some = next(iter(record["cards"]["cards"]))
    record["cards"]["cards"][some]["cost"] += 1
    with pytest.raises(RecordError, match="sha256"):
        Game.from_record(record)
    record = Game.new(mode="duel", lineup="ER", seed=3).to_record()
    del record["cards"]
    with pytest.raises(RecordError, match="cards"):
        Game.from_record(record)


@pytest.mark.parametrize("rules,words", [
    (versions.RULES_VERSION + 1, ("newer", f"rules version {versions.RULES_VERSION + 1}",
                                  f"rules version {versions.RULES_VERSION}")),
    (0, ("rules version",)),
    ("1", ("rules version",)),
])
def test_a_record_under_unknown_rules_is_refused_up_front(rules: Any, words: tuple[str, ...]) -> None:
    entry = load(RECORDS / "coop-RR.json")
    record = dict(entry["record"], rules=rules)
    with pytest.raises(UnsupportedRules) as exc:
        check_record(record)
    for w in words:
        assert w in str(exc.value)
    # up front: even a record whose actions are garbage is refused for its rules first
    with pytest.raises(UnsupportedRules):
        replay(dict(record, actions=[{"type": "nonsense"}]))


def test_rules_the_engine_no_longer_plays_are_refused_naming_both(monkeypatch: pytest.MonkeyPatch) -> None:
    # the engine moves on to rules 2 and drops rules 1: old records are refused, never replayed wrongly
    monkeypatch.setattr(versions, "RULES_VERSION", 2)
    monkeypatch.setattr(versions, "RULES_PLAYED", (2,))
    record = load(RECORDS / "duel-ER.json")["record"]
    with pytest.raises(UnsupportedRules) as exc:
        Game.from_record(record)
    assert "rules version 1" in str(exc.value) and "rules version 2" in str(exc.value)
    assert exc.value.record_rules == 1
    assert Game.new(mode="duel", lineup="ER", seed=1).rules == 2


def test_rules_kept_behind_the_version_replay_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    # the engine moves on to rules 2 but still plays rules 1: old records replay under rules 1
    monkeypatch.setattr(versions, "RULES_VERSION", 2)
    monkeypatch.setattr(versions, "RULES_PLAYED", (1, 2))
    entry = load(RECORDS / "duel-ER.json")
    game = Game.from_record(entry["record"])
    assert game.rules == 1
    assert fingerprint(game) == entry["fingerprint"]
    assert game.to_record()["rules"] == 1


def test_cli_replays_a_golden_record_and_refuses_future_rules(tmp_path: Path) -> None:
    runner = CliRunner()
    entry = load(RECORDS / "format1-coop-RR.json")
    good = tmp_path / "game.json"
    good.write_text(json.dumps(entry["record"]), encoding="utf-8")
    out = runner.invoke(app, ["replay", str(good)])
    assert out.exit_code == 0, out.output
    assert "Replay of" in out.output
    future = tmp_path / "future.json"
    future.write_text(json.dumps(dict(load(RECORDS / "coop-RR.json")["record"], rules=versions.RULES_VERSION + 7)),
                      encoding="utf-8")
    out = runner.invoke(app, ["replay", str(future)])
    assert out.exit_code != 0
    assert f"rules version {versions.RULES_VERSION + 7}" in out.output
    assert f"rules version {versions.RULES_VERSION}" in out.output


def test_settings_of_a_record_are_kept(tmp_path: Path) -> None:
    game = Game.new(mode="solo", lineup="R", seed=2, settings=Settings(solo_fee=2))
    record = game.to_record()
    assert Game.from_record(record).settings == game.settings
