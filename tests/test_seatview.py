"""``Game.seat_view`` (engine/seatview.py): the same content as ``Game.view`` at every decision of
every mode, a snapshot, read-only; bots reading it choose exactly what they chose from view dicts
(the heuristic grid recorded before, ``tests/heuristic_grid.py``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from christianity_game import Game, Settings
from christianity_game.bots.heuristic import HeuristicBot
from christianity_game.engine.rng import Rng
from christianity_game.engine.seatview import KEYS, SeatView

sys.path.insert(0, str(Path(__file__).resolve().parent))
import heuristic_grid  # noqa: E402
from seeded_games import MODES  # noqa: E402  (the same six line-ups and settings)


def decisions(name: str, seed: int) -> Iterator[Game]:
    """The game at each of its decisions (random legal play), then at its end."""
    mode, lineup, extra = MODES[name]
    game = Game.new(mode=mode, lineup=lineup, seed=seed, settings=Settings().updated(extra) if extra else None)
    chooser = Rng(seed * 7 + 1)
    while True:
        yield game
        pending = game.pending
        if not pending:
            return
        actions = pending[0][1]
        game.apply(actions[chooser.randbelow(len(actions))])


@pytest.mark.parametrize("name", list(MODES))
def test_to_json_is_the_view_at_every_decision(name: str) -> None:
    checked = 0
    for seed in (1, 2):
        for game in decisions(name, seed):
            for seat in [None, *range(len(game.lineup))]:
                view = game.view(seat)
                seat_view = game.seat_view(seat)
                assert json.dumps(seat_view.to_json()) == json.dumps(view)   # same keys, order, values
                assert seat_view == view
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("name", ["coop-RR", "duel-ERR"])
def test_a_view_is_a_snapshot(name: str) -> None:
    """Views taken before an action still read what they read then (every key, card_ids too)."""
    kept: list[tuple[SeatView, dict[str, Any], dict[int, str]]] = []
    for game in decisions(name, 3):
        for seat in range(len(game.lineup)):
            sv = game.seat_view(seat)
            if len(kept) % 3 == 0:
                sv["pending"], sv["duel"]   # some made before the game moves on, some after
            kept.append((sv, game.view(seat), dict(sv.card_ids())))
    assert len(kept) > 100
    for sv, then, ids in kept:
        assert sv.to_json() == then
        assert dict(sv.card_ids()) == ids


def test_card_ids_are_the_cards_the_view_shows() -> None:
    bot = HeuristicBot(0)
    for name in MODES:
        for game in decisions(name, 4):
            for seat in range(len(game.lineup)):
                assert dict(game.seat_view(seat).card_ids()) == bot._uid_ids(game.view(seat))


def test_a_dropped_view_is_freed_at_once() -> None:
    """No part of a view holds the view (no reference cycle): dropped after a bot read its seats,
    duel object and card ids, it is freed at once, without the cycle collector, so the game does not
    build it before its next action (the lab's bots drop each view as soon as they have chosen)."""
    import gc
    import weakref

    game = Game.new(mode="duel", lineup="ERR", seed=5, log=False)
    while not game.state.threats and game.pending:   # play on until a threat waits
        game.apply(game.pending[0][1][-1])
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        sv = game.seat_view(1)
        me = sv["seats"][1]
        assert me["hand"] and sv["duel"]["chain"] is not None and sv["threats"]
        uid = sv["threats"][0]["uid"]
        assert sv.card_ids()[uid] == sv["threats"][0]["id"]
        ref = weakref.ref(sv)
        del sv, me
        assert ref() is None
    finally:
        if was_enabled:
            gc.enable()


def test_read_only_and_to_json_is_fresh() -> None:
    game = Game.new(mode="duel", lineup="ERR", seed=5)
    while not game.state.threats and game.pending:   # play on until a threat waits
        game.apply(game.pending[0][1][-1])
    sv = game.seat_view(1)
    assert list(sv) == list(KEYS) == list(game.view(1)) and len(sv) == len(KEYS)
    assert "seats" in sv and "nope" not in sv and sv.get("nope", 7) == 7
    with pytest.raises(KeyError):
        sv["nope"]
    with pytest.raises(TypeError):
        sv["round"] = 3  # type: ignore[index]
    me = sv["seats"][1]
    with pytest.raises(TypeError):
        me["humility"] = 10
    card = me["hand"][0]
    with pytest.raises(TypeError):
        card["id"] = "x"
    assert isinstance(me["hand"], tuple) and isinstance(sv["pending"], tuple)
    with pytest.raises(TypeError):
        sv["duel"]["chain"]["count"] = 9
    # the same card object in a later view of the game (cached), and still unchanged
    assert game.seat_view(1)["seats"][1]["hand"][0] is card
    out = sv.to_json()
    out["seats"][1]["hand"][0]["id"] = "changed"
    out["seats"][1]["hand"].clear()
    assert sv.to_json() == game.view(1)
    with pytest.raises(ValueError, match="no seat"):
        game.seat_view(3)


def test_bots_choose_as_they_did_from_view_dicts() -> None:
    """The heuristic grid of every mode: SimResult and every game's actions as recorded before bots
    read seat views (tests/fixtures/heuristic-grid.json)."""
    recorded = json.loads(heuristic_grid.FIXTURE.read_text(encoding="utf-8"))
    assert set(recorded) == set(heuristic_grid.CELLS)
    for name in heuristic_grid.CELLS:
        assert heuristic_grid.cell_results(name) == recorded[name], name


def test_view_bench_plays_both_paths_alike() -> None:
    from christianity_game.sim.view_bench import bench_views, format_views
    result = bench_views(games=1, repeat=1)
    assert result["same_actions"] is True
    assert result["games_per_s"]["view"] > 0 and result["games_per_s"]["seat_view"] > 0
    assert "speed-up" in format_views(result)
