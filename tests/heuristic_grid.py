"""A small fixed grid of heuristic-bot games of every mode, and what they came to.

``tests/fixtures/heuristic-grid.json`` was written (rules version 2, commit 0280681) before bots read
:class:`SeatView` objects instead of ``Game.view`` dicts (issue 9, "views that cost little"): for each cell the
``SimResult`` JSON of :func:`christianity_game.sim.simulate.simulate` and a digest of every game's
action list. ``test_seatview.py`` plays the same grid and compares, so the bots must choose exactly
the same actions as before. Re-recorded once since, when the rules-2 generator became SHAKE-256 (a
change of rules 2 before any release; the seat-view path had been shown equal to the dict path on
the earlier recording), and once more for issue 10 (rules 3 refills an empty Evil deck, the duel Evil deck
was retuned and the Evil heuristic holds Habituals until they can stick: the duel cells changed, the
co-op and solo cells did not), and once more when the Evil heuristic began laying Temptations before
Habituals under the printed rules (2026-12-07; the duel cells changed, the co-op and solo cells did
not). Regenerate only for a deliberate change of the rules or the bots::

    .venv/bin/python tests/heuristic_grid.py --write
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "fixtures" / "heuristic-grid.json"
SEEDS = (1, 2)
GAMES = 3
# name -> (mode, lineup, settings); duels are capped like the lab does (maxTurns)
CELLS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "solo-R": ("solo", "R", {}),
    "coop-RR": ("coop", "RR", {}),
    "coop-RRR": ("coop", "RRR", {}),
    "coop-RR-noabilities": ("coop", "RR", {"mat_abilities": False}),
    "duel-ER": ("duel", "ER", {"max_turns": 200}),
    "duel-ER-interrupt": ("duel", "ER", {"max_turns": 200, "evil_interrupt": True}),
    "duel-EER": ("duel", "EER", {"max_turns": 120}),
    "duel-ERR": ("duel", "ERR", {"max_turns": 200}),
}


def action_digest(game: Any) -> str:
    """A short digest of a game's whole action list (its JSON)."""
    text = json.dumps([a.to_json() for a in game.actions], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cell_results(name: str) -> dict[str, Any]:
    """For each seed: ``simulate``'s SimResult JSON and the action digest of each game."""
    from christianity_game import Settings
    from christianity_game.sim.simulate import game_seed, play_one, simulate

    mode, lineup, extra = CELLS[name]
    settings = Settings().updated(extra) if extra else None
    out: dict[str, Any] = {}
    for seed in SEEDS:
        result = simulate(mode, lineup, GAMES, seed=seed, bots="heuristic", settings=settings)
        digests = [action_digest(play_one(mode, lineup, game_seed(seed, i), "heuristic", settings))
                   for i in range(GAMES)]
        out[str(seed)] = {"sim": result.to_json(), "actions": digests}
    return out


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: tests/heuristic_grid.py --write")
    sys.path.insert(0, str(HERE.parent / "src"))
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(json.dumps({name: cell_results(name) for name in CELLS}, indent=1) + "\n", encoding="utf-8")
    print("written", FIXTURE)
