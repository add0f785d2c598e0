"""The commands that show what is stored: ``cards`` (the card set, or a user's deck files checked)
and ``replay`` (a saved game, or a lab game played again from its cell and seed)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ..cards.loader import starter_set
from ..engine.actions import IllegalAction, action_from_json
from ..render.terminal import (
    KIND_LABEL, describe_action, describe_events, render_board, render_card_table, righteous_seats_of, seat_label,
)
from .options import fail, load_user_decks


def _lab_record(db: Path, cell: int | None, game_no: int | None, file: Path | None) -> tuple[dict[str, Any], str]:
    """replay --db: play a stored lab game again from its cell and seed; its record and a label."""
    if file is not None:
        fail("give a record file or --db, not both")
    if cell is None or game_no is None:
        fail("--db needs --cell N and --game I (see the cell numbers in the lab's report)")
    from ..sim.lab import LabError, replay_game
    try:
        again = replay_game(db, cell, game_no)
    except LabError as exc:
        fail(str(exc))
    err = Console(stderr=True, highlight=False)
    if again.matches:
        err.print(Text(f"✓ cell {cell} game {game_no} (seed {again.stored['seed']}) played again: "
                       f"same result as stored ({again.stored['winner'] or 'unfinished'}, "
                       f"{again.stored['turns']} turns)", style="green"))
    else:
        from ..sim.lab import code_fingerprint
        changed = f"; the engine changed since: stored by {again.spec['code']}, now {code_fingerprint()}" \
            if again.spec["code"] != code_fingerprint() else ""
        err.print(Text(f"✗ cell {cell} game {game_no} does not reproduce what is stored{changed}: "
                       + "; ".join(again.differences()), style="bold red"))
    return again.game.to_record(), f"{db} cell {cell} game {game_no}"


# ---------------------------------------------------------------------------------------- cards
def cards(
    deck: Annotated[Optional[list[Path]], typer.Option(
        help="Check a deck file of your own (repeatable) and list its cards.")] = None,
    side: Annotated[Optional[str], typer.Option(help="Only righteous or evil cards.")] = None,
) -> None:
    """List the card set, or check and list your own deck files (a broken file: exit code 2)."""
    if side is not None and side not in ("righteous", "evil"):
        fail(f"--side must be righteous or evil, not {side!r}")
    console = Console(highlight=False)
    base = starter_set()
    if deck:
        card_set = load_user_decks(deck)[1]
        shown = [d for d in card_set.decks.values() if d.id not in base.decks]
        for p in deck:
            console.print(Text(f"✓ {p}: valid", style="bold green"))
    else:
        card_set = base
        shown = list(card_set.decks.values())
    decks_of: dict[str, list[str]] = {}
    summary = Table(title="Decks", title_style="bold", expand=False)
    summary.add_column("Deck id")
    summary.add_column("Name")
    summary.add_column("Side")
    summary.add_column("Cards", justify="right")
    summary.add_column("Description")
    for d in shown:
        if side and d.side != side:
            continue
        summary.add_row(d.id, d.name, d.side, str(len(d.cards)), d.description)
        for cid in dict.fromkeys(d.cards):
            decks_of.setdefault(cid, []).append(f"{d.id} ×{d.cards.count(cid)}")
    console.print(summary)
    kind_order = list(KIND_LABEL)
    listed = [card_set.cards[cid] for cid in decks_of]
    listed.sort(key=lambda c: (c.side != "righteous", kind_order.index(c.kind) if c.kind in kind_order else 99,
                               c.cost, c.name))
    console.print(render_card_table(listed, decks_of, title=f"Cards ({len(listed)})"))


# ---------------------------------------------------------------------------------------- replay
def replay(
    file: Annotated[Optional[Path], typer.Argument(
        help="A game record (JSON), as written by play --save (or use --db).")] = None,
    upto: Annotated[Optional[int], typer.Option(help="Show the position after this many actions.")] = None,
    seat: Annotated[Optional[int], typer.Option(help="See the game as this seat (from 1). Default: spectator.")] = None,
    db: Annotated[Optional[Path], typer.Option(
        help="A lab database (christianity-game lab --out): replay game --game of cell --cell from its seed.")] = None,
    cell: Annotated[Optional[int], typer.Option(help="With --db: the cell (its number in the lab's report).")] = None,
    game_no: Annotated[Optional[int], typer.Option("--game", help="With --db: the game's index in its cell.")] = None,
) -> None:
    """Show a saved game: the final position, or the one after --upto N actions."""
    from ..engine.record import RecordError
    from ..engine.replay import replay as replay_record
    if db is not None:
        record, label = _lab_record(db, cell, game_no, file)
    elif file is None:
        fail("give a game record file, or --db LAB.sqlite with --cell N and --game I")
    else:
        label = str(file)
        try:
            text = file.read_text(encoding="utf-8")
        except OSError as exc:
            fail(f"cannot read {file}: {exc.strerror or exc}")
        except UnicodeDecodeError:
            fail(f"{file} is not a text file")
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            fail(f"{file} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})")
    actions = record.get("actions") if isinstance(record, dict) else None
    total = len(actions) if isinstance(actions, list) else 0
    if upto is not None and upto < 0:
        fail("--upto must be 0 or more")
    try:
        game = replay_record(record, upto=upto)
    except (RecordError, ValueError) as exc:
        fail(f"{label}: {exc}")
    n_seats = len(game.lineup)
    viewer = None
    if seat is not None:
        if not 1 <= seat <= n_seats:
            fail(f"--seat: there is no seat {seat}; this game has seats 1 to {n_seats}")
        viewer = seat - 1
    done = min(upto, total) if upto is not None else total
    console = Console(highlight=False)
    console.print(Rule(f"Replay of {label} · after action {done} of {total}", style="bright_blue"))
    events = describe_events([e.for_seat(viewer) for e in game.log[-80:]], game.cards,
                             {u: d.name for u, d in enumerate(game.defs)},
                             righteous=righteous_seats_of(game.view(None)))   # the table's words
    console.print(render_board(game.view(viewer), game.cards, events=events, max_events=10))
    if done < total and game.result is None:
        try:
            nxt = action_from_json(actions[done])  # type: ignore[index]
            console.print(Text(f"Next: {seat_label(nxt.seat)} — {describe_action(game, nxt)}", style="bold cyan"))
        except (IllegalAction, IndexError):
            pass

