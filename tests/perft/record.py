"""Regenerate the perft counts and the legal-list fixture from today's engine, deliberately.

    .venv/bin/python -m tests.perft.record perft      # rewrite `perft` and `divide` in tests/perft/*.toml
    .venv/bin/python -m tests.perft.record legal      # rewrite tests/fixtures/legal-lists.json.xz
    .venv/bin/python -m tests.perft.record cut NAME --mode duel --lineup ER --seed 5 --steps 40 \\
        [--chooser 5] [--set maxTurns=40] [--title "..."] [--shows "..."]   # a new position file

**When regenerating is legitimate: only with a rules-version change** (``RULES_VERSION`` in
``engine/versions.py``, with its line in CHANGELOG.md and docs/decisions.md), and then only for the
games and positions that play the new rules; never to make a failing test pass. The fixtures pin
their rules version (``rules``) and their cards (``tests/perft/cards-2026-12.json``), so card
balance work and a new rules version that keeps the old one playable leave them as they are: the
counts then still describe the old rules, which the engine must still play exactly. A count that
changes while the rules version does not is a fault in the engine (a move generator, a rule, an
automatic step), which the test names by position, depth and first move.

``cut`` makes a new position file: the game ``Game.new(mode, lineup, seed, settings)`` with the pinned
cards after ``steps`` random legal moves (each chosen by ``Rng(chooser)`` as
``rng.randbelow(len(actions))`` from the pending list), written with ``Game.to_position``; it
records how it was made (``made``) and counts it. Edit its ``name``/``shows`` by hand afterwards if
need be; the counts are rewritten by ``perft`` only.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))            # tests/: ``perft`` as the test modules import it
sys.path.insert(0, str(HERE.parent.parent / "src"))

from perft.counting import HERE as PERFT_DIR, Fixture, count, divide, fixture_paths, load, pinned_card_set  # noqa: E402

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")
_COUNTS = re.compile(r"^perft = .*?\n(divide = \[\n.*?^\]\n|divide = \[\]\n)", re.S | re.M)


# ------------------------------------------------------------------------------------------ TOML out


def toml_key(key: str) -> str:
    """A TOML key: bare when it may be, else a quoted string."""
    return key if _BARE.match(key) else json.dumps(key)


def toml_value(value: Any) -> str:
    """A TOML value on one line (inline tables and arrays)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)   # a JSON string is a TOML basic string (\" \\ \n \uXXXX)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"not TOML data: {value!r}")


def toml_pair(key: str, value: Any, width: int = 110) -> str:
    """``key = value``; an array too long for one line is wrapped, its elements filling lines."""
    one = f"{toml_key(key)} = {toml_value(value)}"
    if len(one) <= width or not isinstance(value, list) or not value:
        return one
    lines, line = [], "  "
    for v in value:
        item = toml_value(v) + ","
        if len(line) > 2 and len(line) + 1 + len(item) > width:
            lines.append(line)
            line = "  "
        line += ("" if line == "  " else " ") + item
    lines.append(line)
    return f"{toml_key(key)} = [\n" + "\n".join(lines) + "\n]"


def toml_table(name: str, table: dict[str, Any]) -> str:
    """``[name]`` with its keys; nested tables as ``[name.key]``, lists of tables as ``[[name.key]]``."""
    simple, tables, arrays = [], [], []
    for k, v in table.items():
        if isinstance(v, dict) and v:
            tables.append((k, v))
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v) and k == "seats":
            arrays.append((k, v))
        else:
            simple.append(toml_pair(k, v))
    out = [f"[{name}]", *simple]
    for k, v in tables:
        out += ["", toml_table(f"{name}.{toml_key(k)}", v)]
    for k, rows in arrays:
        for row in rows:
            out += ["", f"[[{name}.{toml_key(k)}]]", *(toml_pair(rk, rv) for rk, rv in row.items())]
    return "\n".join(out)


def counts_block(perft: list[int], moves: list[tuple[Any, list[int]]]) -> str:
    """The ``perft`` and ``divide`` lines of a fixture."""
    rows = "".join(f"  {{move = {toml_value(a.to_json())}, below = {toml_value(below)}}},\n" for a, below in moves)
    return f"perft = {toml_value(perft)}\n" + (f"divide = [\n{rows}]\n" if rows else "divide = []\n")


# ------------------------------------------------------------------------------------------ commands


def rewrite_counts(fx: Fixture) -> tuple[list[int], str]:
    """The fixture's file text with its counts worked out again by today's engine."""
    game = fx.build()
    got = count(game, fx.depth)
    if got.repeated:
        raise SystemExit(f"{fx.path.name}: a legal list holds an action twice: {got.repeated[:3]}")
    text = fx.path.read_text(encoding="utf-8")
    block = counts_block(got.perft, divide(game, fx.depth))
    new, n = _COUNTS.subn(lambda _m: block, text, count=1)
    if n != 1:
        raise SystemExit(f"{fx.path.name}: no `perft = ...` / `divide = [...]` block to rewrite")
    return got.perft, new


def cmd_perft() -> None:
    for path in fixture_paths():
        fx = load(path)
        perft, text = rewrite_counts(fx)
        changed = text != path.read_text(encoding="utf-8")
        path.write_text(text, encoding="utf-8")
        print(f"{path.name}: {perft}{'  (changed)' if changed else ''}")


def cmd_legal() -> None:
    from perft.legal_lists import FIXTURE, write_fixture
    write_fixture()
    print("written", FIXTURE)


def cmd_cut(args: argparse.Namespace) -> None:
    from christianity_game import Game, Settings
    from christianity_game.engine import versions
    from christianity_game.engine.rng import Rng

    settings = Settings().updated(dict(kv.split("=", 1) for kv in args.set))
    game = Game.new(mode=args.mode, lineup=args.lineup, seed=args.seed, settings=settings, card_set=pinned_card_set())
    chooser = Rng(args.chooser if args.chooser is not None else args.seed)
    for step in range(args.steps):
        if not game.pending:
            raise SystemExit(f"the game ended after {step} moves")
        actions = game.pending[0][1]
        game.apply(actions[chooser.randbelow(len(actions))])
    table = {k: v for k, v in settings.to_dict().items() if v != getattr(Settings(), k)}
    path = PERFT_DIR / f"{args.name}.toml"
    head = [
        f"# Perft position (tests/perft/counting.py); counts by `python -m tests.perft.record perft`.",
        toml_pair("name", args.title or args.name),
        f"shows = {toml_value(args.shows or '')}",
        toml_pair("mode", game.mode.name), toml_pair("lineup", game.lineup), toml_pair("seed", game.seed),
        toml_pair("rules", versions.RULES_VERSION), toml_pair("settings", table),
        toml_pair("made", {"from": "Game.new", "seed": args.seed, "chooser": args.chooser if args.chooser is not None
                           else args.seed, "steps": args.steps}),
        toml_pair("depth", args.depth),
        "",
        counts_block([], []),
        toml_table("position", game.to_position()),
    ]
    path.write_text("\n".join(head) + "\n", encoding="utf-8")
    fx = load(path)
    perft, text = rewrite_counts(fx)
    path.write_text(text, encoding="utf-8")
    again = load(path).build()
    if again.to_position() != game.to_position() or again.pending != game.pending:
        raise SystemExit(f"{path.name}: the written position does not rebuild the game")
    print(f"{path.name}: {perft}; {game.phase}, round {game.round}, seat {game.turn_seat} decides "
          f"{[type(a).__name__ for a in game.pending[0][1]] if game.pending else 'nothing'}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tests.perft.record", description=__doc__.split("\n\n")[0],
        epilog="Regenerate only with a rules-version change (engine/versions.py), never to make a failing "
               "test pass: see this module's docstring (tests/perft/record.py).")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("perft", help="rewrite the counts of every tests/perft/*.toml")
    sub.add_parser("legal", help="rewrite tests/fixtures/legal-lists.json.xz")
    cut = sub.add_parser("cut", help="a new perft position cut from a seeded random game")
    cut.add_argument("name")
    cut.add_argument("--mode", required=True)
    cut.add_argument("--lineup", required=True)
    cut.add_argument("--seed", type=int, required=True)
    cut.add_argument("--steps", type=int, required=True)
    cut.add_argument("--chooser", type=int)
    cut.add_argument("--depth", type=int, default=3)
    cut.add_argument("--set", action="append", default=[], help="a setting, name=value (repeatable)")
    cut.add_argument("--title")
    cut.add_argument("--shows")
    args = parser.parse_args(argv)
    if args.command == "perft":
        cmd_perft()
    elif args.command == "legal":
        cmd_legal()
    else:
        cmd_cut(args)


if __name__ == "__main__":
    main()
