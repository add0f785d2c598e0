"""Perft for the card game: how many distinct action sequences lead from a position to a depth.

As python-chess's ``examples/perft`` and every chess engine's perft: the number of move sequences
of length 1, 2, 3 from a fixed position, recorded once; an engine change that alters how the rules
generate moves changes a count, and the fixture names the position and the depth (and, with the
divide, the first move below which the count changed) instead of a changed fingerprint.

What is counted:

* **A move** is an action of the list the game waits for (``game.pending``: the deciding seat's
  legal actions), each a decision; table actions (undo, manual adjustment, ending by agreement) are
  never in that list and are not counted. Depth *d* counts the sequences of exactly *d* decisions:
  a game that ends earlier along a sequence adds nothing at the depths beyond (as a mate in chess).
* **Distinct**: a list that held the same action twice would count it once (``distinct_moves``);
  :func:`count` also reports such a list, which the test fails on.
* **Chance is not a branch.** A position carries the game's generator (``rng``), and every draw,
  shuffle and Evil deck turn-over after a move comes from the copy of it in that move's game, as a
  replay of a record would: each sequence is one deterministic game. So the counts are those of
  the decision tree of one world; another shuffle would be another position (another ``rng``).

Each fixture is a TOML file in this folder: the table it is played at (``mode``, ``lineup``,
``seed``, ``rules``, ``settings``), ``[position]`` in the project's position format
(``engine/position_format.py``, started with ``Game.from_position``, the one loader of positions),
``perft`` (the counts at depth 1..``depth``) and ``divide`` (each first move, in list order, with
the counts below it at depth 1..``depth`` - 1). The cards are the pinned set of
``cards-2026-12.json``, not the bundled files, so the counts move only when the rules do.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from christianity_game import Game, Settings
from christianity_game.cards.loader import CardSet
from christianity_game.cards.pinning import unpin_cards
from christianity_game.engine.actions import Action, action_from_json

HERE = Path(__file__).resolve().parent
#: the starter set's definitions as the fixtures were recorded with (record format's pinned cards)
CARDS_FILE = HERE / "cards-2026-12.json"


@lru_cache(maxsize=1)
def pinned_card_set() -> CardSet:
    """The card set of ``cards-2026-12.json`` (through ``unpin_cards``, as records are read)."""
    return unpin_cards(json.loads(CARDS_FILE.read_text(encoding="utf-8")))


@dataclass
class Fixture:
    """One perft position file: its table, position, and the counts recorded for it."""

    path: Path
    name: str
    mode: str
    lineup: str
    seed: int
    rules: int
    settings: dict[str, Any]
    position: dict[str, Any]
    depth: int
    perft: list[int] = field(default_factory=list)
    #: each first move (action JSON) with the counts below it at depth 1..depth - 1
    divide: list[tuple[dict[str, Any], list[int]]] = field(default_factory=list)

    def build(self) -> Game:
        """The fixture's game at its position (``Game.from_position`` with the pinned cards)."""
        return Game.from_position(self.position, mode=self.mode, lineup=self.lineup, seed=self.seed,
                                  settings=Settings().updated(self.settings), card_set=pinned_card_set(),
                                  rules=self.rules)


def fixture_paths() -> list[Path]:
    """Every perft position file, by name."""
    return sorted(HERE.glob("*.toml"))


def load(path: Path) -> Fixture:
    """The fixture in ``path`` (a TOML file of this folder)."""
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    return Fixture(path=path, name=doc["name"], mode=doc["mode"], lineup=doc["lineup"], seed=doc["seed"],
                   rules=doc["rules"], settings=doc.get("settings", {}), position=doc["position"],
                   depth=doc["depth"], perft=list(doc.get("perft", [])),
                   divide=[(d["move"], list(d["below"])) for d in doc.get("divide", [])])


def distinct_moves(game: Game) -> tuple[list[Action], list[Action]]:
    """The moves of ``game`` now (every pending seat's legal actions, in list order, each once),
    and any action a list held more than once (none, in a sound move generator)."""
    moves: dict[Action, None] = {}
    repeated: list[Action] = []
    for _seat, actions in game.pending:
        for a in actions:
            if a in moves:
                repeated.append(a)
            moves[a] = None
    return list(moves), repeated


@dataclass
class Count:
    """What one count found: ``perft[d - 1]`` sequences of ``d`` moves, and any repeated action."""

    perft: list[int]
    repeated: list[tuple[list[Action], Action]] = field(default_factory=list)


def count(game: Game, depth: int) -> Count:
    """The number of distinct move sequences of length 1..``depth`` from ``game`` (left unchanged).

    One walk: every node down to depth ``depth - 1`` is played (each move applied, checked, on a
    copy), and the last level is counted from the lists (bulk counting, as chess perft does)."""
    out = Count([0] * depth)

    def walk(g: Game, level: int, path: list[Action]) -> None:
        moves, repeated = distinct_moves(g)
        for a in repeated:
            out.repeated.append((list(path), a))
        out.perft[level] += len(moves)
        if level + 1 == depth:
            return
        for a in moves:
            child = g.clone(log=False)
            child.apply(a)
            walk(child, level + 1, path + [a])

    if depth > 0:
        walk(game, 0, [])
    return out


def divide(game: Game, depth: int) -> list[tuple[Action, list[int]]]:
    """Each first move of ``game``, in list order, with the counts below it at depth 1..``depth`` - 1."""
    moves, _ = distinct_moves(game)
    out = []
    for a in moves:
        child = game.clone(log=False)
        child.apply(a)
        out.append((a, count(child, depth - 1).perft if depth > 1 else []))
    return out


def move_key(move: Action | dict[str, Any]) -> str:
    """A move as canonical JSON text (for comparing stored moves with listed ones)."""
    data = move.to_json() if isinstance(move, Action) else move
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def first_change(fx: Fixture, game: Game) -> str:
    """Where the counts of ``fx`` changed, perft-divide style: the first depth whose count differs,
    the first move (in the stored order) whose subtree count changed there, and the moves listed now
    but not stored, or stored but no longer listed. Empty when nothing changed."""
    got = count(game, fx.depth)
    if got.perft == fx.perft:
        return ""
    depth = next(d for d in range(1, fx.depth + 1) if got.perft[d - 1] != fx.perft[d - 1])
    lines = [f"{fx.path.name} ({fx.name}): depth {depth}: {got.perft[depth - 1]} sequences, "
             f"{fx.perft[depth - 1]} recorded (all depths now {got.perft}, recorded {fx.perft})"]
    now = {move_key(a): (a, below) for a, below in divide(game, fx.depth)}
    stored = {move_key(m): below for m, below in fx.divide}
    gone = [k for k in stored if k not in now]
    new = [k for k in now if k not in stored]
    if new:
        lines.append(f"  listed now, not recorded: {', '.join(new)}")
    if gone:
        lines.append(f"  recorded, no longer listed: {', '.join(gone)}")
    if depth > 1:
        for i, (m, below) in enumerate(fx.divide):
            key = move_key(m)
            if key in now and now[key][1][depth - 2] != below[depth - 2]:
                lines.append(f"  first move whose subtree changed: #{i} {key}: {now[key][1][depth - 2]} "
                             f"sequences of {depth - 1} below it, {below[depth - 2]} recorded "
                             f"(below it now {now[key][1]}, recorded {below})")
                break
    if [move_key(m) for m in fx.divide] != [k for k in now] and not new and not gone:
        lines.append("  the same moves are listed in another order")
    return "\n".join(lines)


def stored_moves(fx: Fixture) -> list[Action]:
    """The first moves the fixture's divide names, as actions."""
    return [action_from_json(m) for m, _ in fx.divide]
