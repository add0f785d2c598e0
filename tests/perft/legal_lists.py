"""The legal action list at every decision of seeded random games, recorded once (issue 23).

Issue 23's constraint on every refactoring step: "every game plays exactly as before: the 6,000
seeded fingerprints, the golden records and the decision-by-decision diff of legal lists against
today's main hold at every commit". The fingerprints say *that* a game ended elsewhere; this
fixture says *where* it first went another way: the game, its seed, the decision, and the actions
listed now but not then (or then but not now).

``tests/fixtures/legal-lists.json.xz`` holds, for ``GAMES_PER_TABLE`` games of each table of
``tests/tables.py`` (every mode, line-up shape and a few play-test variants), the game's table and
seeds and, at each of its decisions, the whole legal list of the deciding seat (``game.pending``),
in order, each action as its JSON. Games are played by a chooser of their own, ``Rng(chooser)``
taking ``actions[rng.randbelow(len(actions))]`` (as ``tests/seeded_games.py``), under the rules
version and with the pinned cards the fixture names, so card balance work does not move it. Each
game's distinct actions are stored once and each decision as their indexes; xz makes the whole
about 150 KB for some 30,000 decisions.

Regenerate only with a rules-version change (see :mod:`perft.record`):
``python -m tests.perft.record legal``.
"""

from __future__ import annotations

import hashlib
import json
import lzma
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from christianity_game import Game, Settings
from christianity_game.engine import versions
from christianity_game.engine.rng import Rng

from .counting import CARDS_FILE, pinned_card_set

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "legal-lists.json.xz"
GAMES_PER_TABLE = 8


def action_text(action: Any) -> str:
    """An action as compact JSON text (its ``to_json``, keys in the action's own order)."""
    return json.dumps(action.to_json(), separators=(",", ":"))


def new_game(entry: dict[str, Any], rules: int) -> Game:
    """The game a fixture entry (or a table of ``tests/tables.py`` with its seeds) starts."""
    settings = Settings().updated(entry["settings"]) if entry["settings"] else Settings()
    return Game.new(mode=entry["mode"], lineup=entry["lineup"], seed=entry["seed"], settings=settings,
                    card_set=pinned_card_set(), rules=rules, log=False)


def decisions(entry: dict[str, Any], rules: int) -> Iterator[tuple[Game, list[str]]]:
    """The game of ``entry`` at each of its decisions, with its legal list as JSON texts; the chooser
    then takes one (the caller must not change the game)."""
    game = new_game(entry, rules)
    chooser = Rng(entry["chooser"])
    while True:
        pending = game.pending
        if not pending:
            return
        actions = [a for _seat, acts in pending for a in acts]
        yield game, [action_text(a) for a in actions]
        game.apply(actions[chooser.randbelow(len(actions))])


def table_entries() -> list[dict[str, Any]]:
    """The games to record: ``GAMES_PER_TABLE`` of each table, with their seeds."""
    from tables import TABLES

    out = []
    for name, (mode, lineup, settings) in TABLES.items():
        for k in range(GAMES_PER_TABLE):
            out.append({"table": name, "mode": mode, "lineup": lineup, "settings": dict(settings),
                        "seed": 2300 + k, "chooser": 11 * k + 5})
    return out


def record(entry: dict[str, Any], rules: int) -> dict[str, Any]:
    """``entry`` played with today's engine: its distinct actions and each decision's list of them."""
    index: dict[str, int] = {}
    lists: list[list[int]] = []
    for _game, texts in decisions(entry, rules):
        lists.append([index.setdefault(t, len(index)) for t in texts])
    return {**entry, "actions": list(index), "lists": lists}


def write_fixture() -> None:
    """Record every game of :func:`table_entries` with today's engine and rules version."""
    cards = json.loads(CARDS_FILE.read_text(encoding="utf-8"))
    rules = versions.RULES_VERSION
    data = {
        "about": "tests/perft/legal_lists.py: the legal list at each decision of seeded random games",
        "rules": rules, "cards": {"file": "tests/perft/" + CARDS_FILE.name, "sha256": cards["sha256"]},
        "games": [record(entry, rules) for entry in table_entries()],
    }
    text = json.dumps(data, separators=(",", ":")).encode()
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_bytes(lzma.compress(text, preset=9 | lzma.PRESET_EXTREME))


def load_fixture() -> dict[str, Any]:
    """The fixture, read (checked against the pinned cards it names)."""
    data: dict[str, Any] = json.loads(lzma.decompress(FIXTURE.read_bytes()))
    cards = json.loads(CARDS_FILE.read_text(encoding="utf-8"))
    assert data["cards"]["sha256"] == cards["sha256"], "the fixture was recorded with other pinned cards"
    return data


@dataclass
class Difference:
    """Where a replayed game first left its recorded legal lists."""

    table: str
    seed: int
    chooser: int
    decision: int          # 0-based: the number of actions taken before it
    where: str             # round, seat, phase at that decision
    added: list[str]       # listed now, not recorded
    removed: list[str]     # recorded, not listed now
    note: str = ""

    def __str__(self) -> str:
        lines = [f"{self.table} (seed {self.seed}, chooser Rng({self.chooser})): decision {self.decision} "
                 f"(after {self.decision} actions; {self.where}): the legal list differs {self.note}".rstrip()]
        if self.added:
            lines.append("  listed now, not recorded: " + ", ".join(self.added))
        if self.removed:
            lines.append("  recorded, not listed now: " + ", ".join(self.removed))
        return "\n".join(lines)


def first_difference(game_entry: dict[str, Any], rules: int) -> Difference | None:
    """Replay one recorded game; the first decision whose legal list differs, or None."""
    actions = game_entry["actions"]
    lists = game_entry["lists"]
    table, seed, chooser = game_entry["table"], game_entry["seed"], game_entry["chooser"]
    seen = 0
    for game, texts in decisions(game_entry, rules):
        where = f"round {game.round}, turn seat {game.turn_seat}, {game.phase}"
        if seen >= len(lists):
            return Difference(table, seed, chooser, seen, where, texts, [],
                              f"(the recorded game had ended after {len(lists)} decisions)")
        recorded = [actions[i] for i in lists[seen]]
        if texts != recorded:
            now, then = set(texts), set(recorded)
            note = "(the same actions in another order)" if now == then else ""
            return Difference(table, seed, chooser, seen, where, [t for t in texts if t not in then],
                              [t for t in recorded if t not in now], note)
        seen += 1
    if seen < len(lists):
        return Difference(table, seed, chooser, seen, "the game is over", [], [actions[i] for i in lists[seen]],
                          f"(the game ended after {seen} decisions; the recorded one went on to {len(lists)})")
    return None


def digest(data: dict[str, Any]) -> str:
    """A short hash of the recorded lists (to name a fixture version in messages)."""
    return hashlib.sha256(json.dumps(data["games"], separators=(",", ":")).encode()).hexdigest()[:12]
