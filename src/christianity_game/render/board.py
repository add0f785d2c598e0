"""The terminal board: pure functions from a view (and a card lookup) to Rich renderables: the
board of one seat (or a spectator), the result panel and the card table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..cards.model import CardDef
from ..engine.actions import Resist
from .table_words import card_text
from .terminal_common import (
    ABILITY_NAMES, KIND_LABEL, PHASE_LABEL, PURPOSE_TEXT, ROTATED, UPRIGHT, CardLookup, _card_style, _card_text, _join,
    _lone_righteous, card_lookup, righteous_seats_of, seat_label,
)

if TYPE_CHECKING:
    from ..cards.loader import CardSet


# ---------------------------------------------------------------------------------------- board
def _badges(seat: Mapping[str, Any]) -> Text:
    if seat.get("side") != "righteous":
        return Text(" EVIL SEAT ", style="bold white on dark_red")
    h = int(seat.get("humility", 0))
    m = int(seat.get("maturity", 0))
    out = Text()
    out.append(f" Humility {h}/10 ", style="bold white on blue")
    out.append(" ")
    out.append("●" * h, style="bright_blue")
    out.append("○" * max(0, 10 - h), style="grey42")
    out.append("  ")
    out.append(f" Maturity L{m} ", style="bold white on magenta" if m < 3 else "bold black on bright_green")
    out.append(" ")
    out.append("▰" * m, style="magenta")
    out.append("▱" * max(0, 3 - m), style="grey42")
    return out


def _cost_zone(seat: Mapping[str, Any], cards: CardLookup) -> Text:
    cz = seat.get("cost_zone") or []
    ready = sum(1 for c in cz if not c.get("tapped"))
    out = Text()
    out.append("Cost Zone ", style="bold")
    out.append(f"{ready} ready", style="bold green" if ready else "dim")
    out.append(f" / {len(cz)}  ", style="dim")
    if not cz:
        out.append("(empty)", style="dim")
        return out
    faces: list[Text] = []
    for c in cz:
        glyph = ROTATED if c.get("tapped") else UPRIGHT
        if c.get("face_up"):
            out.append(glyph, style="bold yellow")
            faces.append(_card_text(c, cards))
        else:
            out.append(glyph, style="grey62" if c.get("tapped") else "bold green")
    if faces:
        out.append("  ★", style="bold yellow")
        out.append_text(_join(faces))
    return out


def _grouped(entries: Sequence[Mapping[str, Any]], cards: CardLookup, marks: bool = False) -> list[Text]:
    """Visible cards as text, copies of one card shown once with "×n"."""
    counts: dict[str, int] = {}
    first: dict[str, Mapping[str, Any]] = {}
    for c in entries:
        key = str(c.get("id", id(c)))
        counts[key] = counts.get(key, 0) + 1
        first.setdefault(key, c)
    out = []
    for key, c in first.items():
        t = _card_text(c, cards, marks=marks)
        if counts[key] > 1:
            t.append(f" ×{counts[key]}", style="bold")
        out.append(t)
    return out


def _seat_panel(view: Mapping[str, Any], seat: Mapping[str, Any], cards: CardLookup,
                deck_names: Mapping[str, str]) -> Panel:
    i = int(seat.get("seat", 0))
    lines: list[RenderableType] = [_badges(seat)]
    counts = Text()
    counts.append(f"Hand {seat.get('hand_size', 0)}", style="bold")
    counts.append(f" · Deck {seat.get('deck_size', 0)} · Discard {len(seat.get('discard') or [])}", style="dim")
    if seat.get("love_to") is not None:
        counts.append(f" · Brotherly Love → {seat_label(seat['love_to'])}", style="green")
    lines.append(counts)
    lines.append(_cost_zone(seat, cards))
    in_play = seat.get("in_play") or []
    if in_play:
        t = Text("In play: ", style="bold green")
        t.append_text(_join(_grouped(in_play, cards)))
        lines.append(t)
    held = seat.get("held") or []
    if held:
        t = Text("Held by Evil: ", style="bold red")
        t.append_text(_join(_grouped(held, cards, marks=True)))
        lines.append(t)
    title = Text(f" {seat_label(i)} ", style="bold")
    deck = seat.get("deck") or ""
    if deck:
        title.append(f"· {deck_names.get(deck, deck)} ", style="")
    decider = view.get("decider")
    turn = view.get("turn_seat")
    if i == turn:
        title.append("· turn ", style="bold green")
    if i == decider and view.get("result") is None:
        title.append("◀ to act ", style="bold black on yellow")
    if i == view.get("viewer"):
        title.append("(you) ", style="bold cyan")
    border = "yellow" if i == decider else ("green" if i == turn else "grey50")
    return Panel(Group(*lines), title=title, title_align="left", border_style=border, box=box.ROUNDED,
                 padding=(0, 1))


def _header(view: Mapping[str, Any]) -> Table:
    mode = str(view.get("mode", "")).upper().replace("COOP", "CO-OP")
    rnd = view.get("round")
    max_rounds = view.get("max_rounds")
    if max_rounds and isinstance(rnd, int) and rnd > max_rounds:
        rounds = f"Round {rnd} (past {max_rounds})"
    else:
        rounds = f"Round {rnd}" + (f"/{max_rounds}" if max_rounds else "")
    phase = PHASE_LABEL.get(str(view.get("phase")), str(view.get("phase")))
    left = Text(f" {mode} · {rounds} · {seat_label(view.get('turn_seat'))}'s turn · {phase}", style="bold")
    score = view.get("score") or [0, 0]
    right = Text()
    right.append("Score ", style="bold")
    right.append(f"Righteous {score[0]}", style="bold bright_green")
    right.append(" : ")
    right.append(f"Evil {score[1]}", style="bold red")
    if view.get("mode") in ("coop", "solo"):
        right.append(f" · Evil deck {view.get('evil_deck_size', 0)}", style="bold")
    right.append(" ")
    grid = Table.grid(expand=True, padding=(0, 1))
    grid.add_column(justify="left", no_wrap=True, overflow="ellipsis", ratio=1)
    grid.add_column(justify="right", no_wrap=True, min_width=right.cell_len)
    grid.add_row(left, right)
    grid.style = "white on grey19"
    return grid


def _hand_panel(view: Mapping[str, Any], seat: Mapping[str, Any], cards: CardLookup) -> Panel:
    table = Table(box=None, expand=True, show_header=False, show_edge=False, pad_edge=False, padding=(0, 1))
    table.add_column("Card", no_wrap=True, ratio=3)
    table.add_column("Kind", no_wrap=True, width=13)
    table.add_column("Cost", no_wrap=True, width=3, justify="right")
    table.add_column("Text", no_wrap=True, overflow="ellipsis", ratio=6)
    hand = seat.get("hand") or []
    righteous = len(righteous_seats_of(view))
    fee = int((view.get("settings") or {}).get("solo_fee", 1))
    for c in hand:
        card = cards.get(c.get("id", ""))
        kind = c.get("kind") or (card.kind if card else "")
        text = card_text(card.text, righteous, fee, needs_mate=card.aims_at_mate) if card else ""
        table.add_row(_card_text(c, cards), Text(KIND_LABEL.get(kind, kind), style=_card_style(kind)),
                      f"C{card.cost}" if card else "", Text(text, style="dim"))
    if not hand:
        table.add_row(Text("(no cards)", style="dim"), "", "", "")
    return Panel(table, title=Text(f" Your hand · {seat_label(seat.get('seat'))} ({len(hand)}) ", style="bold"),
                 title_align="left", border_style="cyan", box=box.ROUNDED, padding=(0, 1))


def _table_panel(view: Mapping[str, Any], cards: CardLookup) -> Panel | None:
    """Pending threats, the stack and the open choice (None when all are empty)."""
    parts: list[RenderableType] = []
    threats = view.get("threats") or []
    if threats:
        t = Table(box=box.SIMPLE_HEAD, expand=True, show_edge=False, pad_edge=False, padding=(0, 1),
                  title=None)
        t.add_column("Threat", no_wrap=True, overflow="ellipsis", ratio=3)
        t.add_column("At", no_wrap=True, width=7)
        t.add_column("Resist", no_wrap=True, width=6, justify="right")
        t.add_column("Paid", no_wrap=True, width=4, justify="right")
        t.add_column("Left", no_wrap=True, width=4, justify="right")
        t.add_column("If unresisted (besides H-1)", no_wrap=True, overflow="ellipsis", ratio=5)
        for th in threats:
            card = cards.get(th.get("id", ""))
            name = _card_text(th, cards)
            if card is not None and card.is_ambush:
                name.append(" ambush", style="dim")
            text = _threat_text(card.text if card else "")
            t.add_row(name, seat_label(th.get("target")), f"R{th.get('resistance')}", str(th.get("paid", 0)),
                      Text(str(th.get("remaining", "")), style="bold yellow"), Text(text, style="dim"))
        parts.append(t)
    stack = view.get("stack") or []
    if stack:
        line = Text("Stack (top first): ", style="bold")
        items = []
        for item in reversed(stack):
            x = Text()
            if item.get("item") == "boost":
                x.append(f"boost {int(item.get('boost') or 0) + 1} of ", style="dim")
            x.append_text(_card_text(item, cards))
            if item.get("item") == "threat":
                x.append(f" failing on {seat_label(item.get('target'))}", style="red")
            else:
                x.append(f" ({seat_label(item.get('controller'))})", style="dim")
            items.append(x)
        line.append_text(_join(items, "  ▸  "))
        parts.append(line)
    choice = view.get("choice")
    if choice:
        line = Text("Choose: ", style="bold yellow")
        purpose = choice.get("purpose", "")
        line.append(f"{PURPOSE_TEXT.get(purpose, purpose)} — pick {choice.get('count')}", style="yellow")
        if choice.get("minimum", 0) == 0:
            line.append(" (or fewer)", style="yellow")
        parts.append(line)
    if view.get("abilities", {}).get("choosing") and view.get("decider") == view.get("viewer"):
        if _lone_righteous(righteous_seats_of(view)) is not None:
            parts.append(Text("★ New Maturity level: choose one free ability.", style="bold yellow"))
        else:
            parts.append(Text("★ New shared Maturity level: choose one free ability for the whole team.",
                              style="bold yellow"))
    if not parts:
        return None
    return Panel(Group(*parts), title=Text(" The table ", style="bold"), title_align="left", border_style="red",
                 box=box.ROUNDED, padding=(0, 1))


def _threat_text(text: str) -> str:
    """A threat's rules text without what the table shows already (Ambush, RX, 'If unresisted:')."""
    sentences = [x.strip() for x in text.replace(". ", ".\n").split("\n") if x.strip()]
    kept = [x for x in sentences if not x.startswith(("Ambush", "RX:", "RX "))]
    out = " ".join(kept)
    return out[len("If unresisted: "):] if out.startswith("If unresisted: ") else out


def _status_lines(view: Mapping[str, Any], cards: CardLookup) -> list[Text]:
    out: list[Text] = []
    field = view.get("field") or []
    if field:
        line = Text("Evil Habituals on the field: ", style="bold red")
        line.append_text(_join([_card_text(c, cards) for c in field]))
        out.append(line)
    ab = view.get("abilities") or {}
    settings = view.get("settings") or {}
    line = Text()
    piles = view.get("piles") or {}
    for key, label, style in (("resisted", "Resisted", "green"), ("failed", "Failed", "red")):
        pile = piles.get(key) or []
        line.append(f"{label} {len(pile)}", style=f"bold {style}")
        if pile:
            line.append(" (last ", style="dim")
            line.append_text(_card_text(pile[-1], cards))
            line.append(")", style="dim")
        line.append(" · ", style="dim")
    line.append("Abilities", style="bold")
    if view.get("mode") == "duel":   # a duel's levels are each seat's (its badge shows them)
        line.append(": ", style="dim")
    elif _lone_righteous(righteous_seats_of(view)) is not None:
        line.append(f" (L{ab.get('team_level', 0)}): ", style="dim")
    else:
        line.append(f" (team L{ab.get('team_level', 0)}): ", style="dim")
    if settings.get("mat_abilities") is False:
        line.append("off (matAbilities=0)", style="dim")
    elif ab.get("held"):
        names = []
        for a in ab["held"]:
            t = Text(ABILITY_NAMES.get(a, a).split(" / ")[0], style="green")
            if a in (ab.get("charged") or []):
                t.append(" ⚡ready", style="bold yellow")
            elif a in ("deliverance", "restoration"):
                t.append(" (spent)", style="dim")
            names.append(t)
        line.append_text(_join(names))
    else:
        line.append("none yet", style="dim")
    out.append(line)
    clearing = view.get("clearing")
    if clearing:
        out.append(Text(f"★ Clearing round open: clear every Evil Habitual before {seat_label(clearing.get('seat'))}'s"
                        " next turn begins (judged then)", style="bold yellow"))
    foresight = view.get("foresight") or []
    if foresight:
        t = Text("Foresight — the Evil deck's next cards: ", style="bold magenta")
        t.append_text(_join([_card_text(c, cards, marks=True) for c in foresight]))
        out.append(t)
    return out


def render_board(view: Mapping[str, Any], cards: "CardSet | CardLookup | None" = None, *,
                 events: Sequence[str] = (), deck_names: Mapping[str, str] | None = None,
                 max_events: int = 8) -> RenderableType:
    """The whole board as seen in ``view``: header, seats, hand, table, piles, events.

    ``events`` are lines already in words (see :func:`describe_events`); the last ``max_events``
    are shown. Only the viewer's own hand appears: the view hides every other hand.
    """
    lookup = card_lookup(cards)
    if deck_names is None:
        decks = getattr(cards, "decks", None)
        deck_names = {k: d.name for k, d in decks.items()} if isinstance(decks, Mapping) else {}
    parts: list[RenderableType] = [_header(view)]
    seats = view.get("seats") or []
    per_row = 3 if len(seats) > 4 or len(seats) == 3 else 2
    for start in range(0, len(seats), per_row):
        row = seats[start:start + per_row]
        grid = Table.grid(expand=True, padding=0)
        for _ in row:
            grid.add_column(ratio=1)
        grid.add_row(*[_seat_panel(view, s, lookup, deck_names) for s in row])
        parts.append(grid)
    viewer = view.get("viewer")
    if isinstance(viewer, int) and 0 <= viewer < len(seats):
        parts.append(_hand_panel(view, seats[viewer], lookup))
    table = _table_panel(view, lookup)
    if table is not None:
        parts.append(table)
    parts.extend(_status_lines(view, lookup))
    if events and max_events > 0:
        shown = list(events)[-max_events:]
        body = Text()
        for j, line in enumerate(shown):
            if j:
                body.append("\n")
            style = "bold" if line.startswith("──") or line.startswith("★") else ""
            body.append(line, style=style)
        parts.append(Panel(body, title=Text(" What happened ", style="bold"), title_align="left",
                           border_style="grey50", box=box.ROUNDED, padding=(0, 1)))
    if view.get("result"):
        parts.append(render_result(view))
    return Group(*parts)


def render_result(view: Mapping[str, Any]) -> Panel:
    """The end of the game: who won (or a draw, G-8), why, in which round, and the score."""
    res = view.get("result") or {}
    score = view.get("score") or [0, 0]
    winner = str(res.get("winner", ""))
    style = "bold bright_green" if winner == "righteous" else "bold" if winner == "draw" else "bold red"
    body = Text()
    body.append("A draw" if winner == "draw" else f"{winner.capitalize()} win", style=style)
    body.append(f" — {res.get('reason', '')} (round {res.get('round', '?')})\n")
    body.append("Final score  ", style="bold")
    body.append(f"Righteous {score[0]}", style="bright_green")
    body.append("  :  ")
    body.append(f"Evil {score[1]}", style="red")
    return Panel(body, title=Text(" Game over ", style="bold"), title_align="left",
                 border_style="bright_green" if winner == "righteous" else "white" if winner == "draw" else "red",
                 box=box.DOUBLE, padding=(0, 1))


# ---------------------------------------------------------------------------------------- cards
def render_card_table(cards: Iterable[CardDef], decks_of: Mapping[str, list[str]] | None = None,
                      title: str | None = None) -> Table:
    """A table of cards: name, id, kind, cost / resistance, boosts, decks, rules text."""
    table = Table(title=title, box=box.SIMPLE_HEAVY, expand=True, show_lines=False, padding=(0, 1))
    table.add_column("Card", ratio=3, overflow="fold")
    table.add_column("Kind", no_wrap=True, width=13)
    table.add_column("Cost", no_wrap=True, width=4, justify="right")
    table.add_column("R", no_wrap=True, width=3, justify="right")
    table.add_column("Text", ratio=6, overflow="fold")
    table.add_column("Decks", ratio=1, overflow="fold")
    for card in cards:
        r = "" if not card.is_threat else ("X" if card.x_rule is not None else str(card.resistance))
        name = Text(card.name, style=_card_style(card.kind))
        name.append(f"\n{card.id}", style="dim")
        text = Text(card.text)
        for b in card.boosts:
            text.append(f"\n{'⚡ ' if b.fast else ''}{b.text}", style="italic cyan")
        table.add_row(name, Text(KIND_LABEL.get(card.kind, card.kind), style=_card_style(card.kind)),
                      f"C{card.cost}", r, text, ", ".join((decks_of or {}).get(card.id, [])))
    return table
