"""1,000 seeded random-play games of each mode, and the fingerprints of their final states.

``tests/fixtures/seeded-fingerprints.json`` was written with the engine as it stood before it was
split into rule modules (issue 9); ``test_seeded_games.py`` replays the same games on every commit
and compares. They play rules 1 with the starter set frozen as ``cards/history/starter-2026-11.json``
(the cards as they stood before issue 10 retuned the duel Evil deck; format-1 records use the same
copy), so card balance changes leave them be. Regenerate only for a deliberate change that bumps the
rules version::

    .venv/bin/python tests/seeded_games.py --write
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "fixtures" / "seeded-fingerprints.json"
GAMES_PER_MODE = 1000
#: the cards the fingerprints were recorded with, frozen (issue 10 changed the bundled duel Evil deck)
CARDS = "starter-2026-11"   # the starter set of November 2026, as format-1 records use it
MODES: dict[str, tuple[str, str, dict[str, Any]]] = {
    "solo-R": ("solo", "R", {}),
    "coop-RR": ("coop", "RR", {}),
    "coop-RRR": ("coop", "RRR", {"mat_abilities": False}),
    "duel-ER": ("duel", "ER", {"max_turns": 40}),
    "duel-EER": ("duel", "EER", {"max_turns": 30}),
    "duel-ERR": ("duel", "ERR", {"max_turns": 40, "evil_interrupt": False}),
}


def play(name: str, index: int) -> Any:
    """Game ``index`` of ``name``: random legal play (choices from its own seeded generator)."""
    from christianity_game import Game, Settings
    from christianity_game.cards.pinning import historic_starter_set
    from christianity_game.engine.rng import Rng

    mode, lineup, settings = MODES[name]
    game = Game.new(mode=mode, lineup=lineup, seed=1000 + index, rules=1, card_set=historic_starter_set(CARDS),
                    settings=Settings().updated(settings) if settings else None)
    chooser = Rng(7 * index + 3)
    while True:
        pending = game.pending
        if not pending:
            return game
        actions = pending[0][1]
        game.apply(actions[chooser.randbelow(len(actions))])


def fingerprints(name: str, count: int = GAMES_PER_MODE) -> list[str]:
    from golden import fingerprint
    return [fingerprint(play(name, i))[:16] for i in range(count)]


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: tests/seeded_games.py --write")
    sys.path.insert(0, str(HERE.parent / "src"))
    sys.path.insert(0, str(HERE))
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(json.dumps({name: fingerprints(name) for name in MODES}, indent=0) + "\n", encoding="utf-8")
    print("written", FIXTURE)
