"""Perft counts of prepared positions, and the legal list at every decision of seeded games (issue 23).

* **Perft** (``tests/perft/*.toml``, :mod:`perft.counting`): from each position (co-op, solo and
  duel; a start, threats to resist, a stack with boosts, a search, abilities to buy, the last turn
  of round 10, Evil's combo turn, an answer to a burst, an interrupt, a micro-reward, play-test
  variants), the number of distinct action sequences of 1, 2 and 3 decisions is the recorded one.
  A change names the file, the depth, and the first move (of the stored divide) whose subtree
  count changed, with the moves listed now but not then. The file's position also reads back as
  written (``from_position`` then ``to_position``), so a fault of the position loader is told
  apart from one of the rules.
* **Legal lists** (``tests/fixtures/legal-lists.json.xz``, :mod:`perft.legal_lists`): 8 seeded
  random games of every table of ``tests/tables.py`` replay with, at every decision, the legal list
  recorded (in order); a change names the game, its seeds, the first decision that differs and the
  actions added or removed there.

Both fixtures pin their rules version and their cards (``tests/perft/cards-2026-12.json``).
Regenerate only with a rules-version change: ``python -m tests.perft.record --help``.
"""

from __future__ import annotations

import copy
import dataclasses
from collections import Counter
from pathlib import Path

import pytest

from christianity_game.engine import versions
from perft.counting import Fixture, count, divide, first_change, fixture_paths, load, move_key, stored_moves
from perft.legal_lists import GAMES_PER_TABLE, first_difference, load_fixture
from tables import TABLES

PATHS = fixture_paths()


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_perft_counts(path: Path) -> None:
    """The sequences of 1..depth decisions from the position number what the file recorded."""
    fx = load(path)
    game = fx.build()
    assert game.to_position() == fx.position, (
        f"{path.name}: the position does not read back as written (Game.from_position / to_position "
        f"changed, not the move generator)")
    state_before = game.to_position()
    got = count(game, fx.depth)
    assert not got.repeated, f"{path.name}: a legal list holds an action twice: {got.repeated[:3]}"
    message = first_change(fx, game)
    assert not message, message
    assert got.perft == fx.perft
    assert game.to_position() == state_before, f"{path.name}: counting changed the game it counted"


def test_perft_fixtures_are_complete() -> None:
    """Every mode is there, each file says what it shows, counts to depth 3, and its divide adds up
    to its counts (the stored data is consistent with itself)."""
    assert 10 <= len(PATHS) <= 20
    modes: Counter[str] = Counter()
    for path in PATHS:
        fx = load(path)
        modes[fx.mode] += 1
        doc_text = path.read_text(encoding="utf-8")
        assert fx.name and 'shows = ""' not in doc_text, f"{path.name}: say what the position shows"
        assert fx.depth == 3 and len(fx.perft) == 3, f"{path.name}: counts to depth 3"
        assert versions.rules_support(fx.rules) is None, f"{path.name}: rules {fx.rules} are no longer played"
        assert len(fx.divide) == fx.perft[0], path.name
        for d in range(2, fx.depth + 1):
            assert sum(below[d - 2] for _m, below in fx.divide) == fx.perft[d - 1], f"{path.name} depth {d}"
        assert len({move_key(m) for m, _ in fx.divide}) == len(fx.divide)
        assert stored_moves(fx)   # every stored move is an action the engine reads
    assert set(modes) == {"coop", "solo", "duel"} and min(modes.values()) >= 2, modes


def test_a_changed_count_is_named_by_depth_and_first_move() -> None:
    """The failure message of a count that changed: the file, the depth, and the first move of the
    divide whose subtree count changed (here: a recorded count made one too high), or the moves
    listed now but not then (here: a recorded first move the engine does not list)."""
    fx = load(PATHS[0])
    game = fx.build()
    assert first_change(fx, game) == ""
    moves = divide(game, fx.depth)
    k = len(moves) - 1
    wrong = copy.deepcopy(fx)
    wrong.divide[k] = (wrong.divide[k][0], [wrong.divide[k][1][0], wrong.divide[k][1][1] + 1])
    wrong.perft = [fx.perft[0], fx.perft[1], fx.perft[2] + 1]
    message = first_change(wrong, game)
    assert message.startswith(f"{PATHS[0].name} ({fx.name}): depth 3: {fx.perft[2]} sequences, "
                              f"{fx.perft[2] + 1} recorded"), message
    assert f"first move whose subtree changed: #{k} {move_key(moves[k][0])}" in message, message
    extra = dataclasses.replace(fx, perft=[fx.perft[0] + 1, *fx.perft[1:]],
                                divide=[*fx.divide, ({"type": "Pass", "seat": 9}, [1, 1])])
    message = first_change(extra, game)
    assert "depth 1:" in message and 'recorded, no longer listed: {"seat":9,"type":"Pass"}' in message, message


# ------------------------------------------------------------------------------------------------
# legal lists, decision by decision

RECORDED = load_fixture()


def test_the_legal_list_fixture_covers_every_table() -> None:
    """GAMES_PER_TABLE games of every table (mode, line-up, variants), each played to its end, under a
    rules version this engine plays."""
    assert versions.rules_support(RECORDED["rules"]) is None
    per_table = Counter(g["table"] for g in RECORDED["games"])
    assert per_table == {name: GAMES_PER_TABLE for name in TABLES}
    for g in RECORDED["games"]:
        assert (g["mode"], g["lineup"], g["settings"]) == TABLES[g["table"]], g["table"]
        assert len(g["lists"]) > 20 and all(g["lists"]), (g["table"], g["seed"])
    assert sum(len(g["lists"]) for g in RECORDED["games"]) > 20_000


@pytest.mark.parametrize("table", list(TABLES))
def test_legal_lists_are_as_recorded(table: str) -> None:
    """Every decision of the table's recorded games lists exactly the recorded actions, in order."""
    games = [g for g in RECORDED["games"] if g["table"] == table]
    assert games
    for g in games:
        diff = first_difference(g, RECORDED["rules"])
        assert diff is None, str(diff)


def test_a_changed_legal_list_is_named_by_game_and_decision() -> None:
    """The failure of a list that changed names the table, the seeds, the first decision that
    differs and the actions added and removed there; a game that ends sooner says so."""
    g = copy.deepcopy(next(x for x in RECORDED["games"] if x["table"] == "duel-ER"))
    k = next(i for i, lst in enumerate(g["lists"]) if len(lst) > 2 and i > 10)
    dropped = g["actions"][g["lists"][k][1]]
    g["lists"][k] = [g["lists"][k][0], *g["lists"][k][2:]]
    g["lists"][k + 5] = g["lists"][k + 5][::-1] if len(set(g["lists"][k + 5])) > 1 else []   # later: not reached
    diff = first_difference(g, RECORDED["rules"])
    assert diff is not None and diff.decision == k and diff.added == [dropped] and diff.removed == []
    text = str(diff)
    assert text.startswith(f"duel-ER (seed {g['seed']}, chooser Rng({g['chooser']})): decision {k} "), text
    assert f"listed now, not recorded: {dropped}" in text
    longer = copy.deepcopy(next(x for x in RECORDED["games"] if x["table"] == "solo-R"))
    longer["lists"].append([0])
    diff = first_difference(longer, RECORDED["rules"])
    assert diff is not None and diff.decision == len(longer["lists"]) - 1 and "the game ended" in diff.note
