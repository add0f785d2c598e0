"""The commands that set a table and play it in the terminal: ``scenarios`` (the duel scenarios),
``variants`` (the duel's play-test variants and presets) and ``play`` (hot-seat and bots)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from ..cards.loader import CardSet, starter_set
from ..engine.observer import seat_facts
from ..render.terminal import seat_label
from .options import (DEFAULT_LINEUPS, PROG, VARIANTS_HELP, bot_or_fail, check_mode, fail, load_user_decks,
                      scenario_or_fail, settings_or_fail)


# ---------------------------------------------------------------------------------------- scenarios
def scenarios() -> None:
    """List the duel scenarios: named presets for --scenario (play, simulate) and the web menu."""
    import textwrap

    from ..scenarios import all_scenarios
    console = Console(highlight=False)
    width = max(40, min(console.width, 80))
    console.print(Text("Duel scenarios (type a name after --scenario):", style="bold"))
    for sc in all_scenarios().values():
        console.print()
        line = Text("  ")
        line.append(sc.name, style="bold cyan")   # whole, never wrapped: a name to type
        line.append(f"   {sc.lineup}, {'prepared position' if sc.position else 'fresh game'}", style="dim")
        console.print(line, overflow="ignore", crop=False, soft_wrap=True)
        for row in textwrap.wrap(f"{sc.title}: {sc.description}", width=width - 4):
            console.print(Text(f"    {row}"))
        if sc.goal:
            for row in textwrap.wrap(f"Goal: {sc.goal}", width=width - 4):
                console.print(Text(f"    {row}", style="dim"))


# ---------------------------------------------------------------------------------------- variants
def list_variants() -> None:
    """List the duel's play-test variants (every departure from a printed rule) and the presets."""
    import textwrap

    from ..engine.variants import PRESETS, VARIANTS
    console = Console(highlight=False)
    width = max(40, min(console.width, 80))
    console.print(Text("Duel play-test variants (off by default: the printed rules). Give them as "
                       "--variants alias=value,... or a preset name:", style="bold"))
    for v in VARIANTS:
        console.print()
        line = Text("  ")
        line.append(v.alias, style="bold cyan")
        allowed = "on/off" if v.kind == "bool" else f"{v.low}-{v.high}"
        printed = ("on" if v.printed else "off") if v.kind == "bool" else str(v.printed)
        line.append(f"   {allowed}; printed: {printed}; departs from {', '.join(v.rules)}", style="dim")
        console.print(line, overflow="ignore", crop=False, soft_wrap=True)
        for row in textwrap.wrap(f"{v.title}: {v.description}", width=width - 4):
            console.print(Text(f"    {row}"))
    console.print()
    console.print(Text("Presets:", style="bold"))
    from ..engine.settings import Settings as _S
    from ..engine.variants import table_plays
    for name, values in PRESETS.items():
        pairs = ",".join(f"{next(v.alias for v in VARIANTS if v.key == k)}={int(x)}" for k, x in values.items())
        console.print(Text(f"  {name}", style="bold cyan"), Text(f"  {pairs or '(none)'}", style="dim"))
        for row in textwrap.wrap(table_plays(_S().updated(values)), width=width - 4):
            console.print(Text(f"    {row}"))


# ---------------------------------------------------------------------------------------- play
def _user_deck_ids(card_set: CardSet, side: str) -> list[str]:
    base = starter_set().decks
    return [d.id for d in card_set.decks.values() if d.side == side and d.id not in base]


def _default_decks(mode: str, lineup: str, card_set: CardSet) -> list[str] | None:
    """With user deck files and no --decks: the user's Righteous decks take the first Righteous
    seats and a user Evil deck replaces the Evil deck; None when there is nothing to replace."""
    user_r = _user_deck_ids(card_set, "righteous")
    user_e = _user_deck_ids(card_set, "evil")
    if not user_r and not user_e:
        return None
    from ..engine.game import DEFAULT_EVIL_DECK, DEFAULT_RIGHTEOUS_DECKS
    decks: list[str] = []
    r = e = 0
    for ch in lineup.upper():
        if ch == "R":
            decks.append(user_r[r] if r < len(user_r) else DEFAULT_RIGHTEOUS_DECKS[r % len(DEFAULT_RIGHTEOUS_DECKS)])
            r += 1
        else:
            decks.append(user_e[e] if e < len(user_e) else DEFAULT_EVIL_DECK)
            e += 1
    if mode in ("coop", "solo"):
        decks.append(user_e[e] if e < len(user_e) else DEFAULT_EVIL_DECK)
    return decks


def _seat_list(text: str, n_seats: int, flag: str) -> list[int]:
    """'1,2' -> [0, 1] (seats are numbered from 1 on the command line)."""
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            n = int(part)
        except ValueError:
            fail(f"{flag} takes seat numbers like 1,2, not {text!r}")
        if not 1 <= n <= n_seats:
            fail(f"{flag}: there is no seat {n}; this line-up has seats 1 to {n_seats}")
        out.append(n - 1)
    return out


def new_deal_seed() -> int:
    """The seed of a game played without --seed: drawn afresh (a new deal each time), five digits
    so that it can be typed back after --seed to replay it."""
    import secrets
    return 10_000 + secrets.randbelow(90_000)


def play(
    mode: Annotated[str, typer.Option(help="coop (a team against the Evil deck), solo, or duel.")] = "coop",
    lineup: Annotated[Optional[str], typer.Option(
        help="One letter a seat: R (Righteous), E (Evil, duel only). Co-op: RR, ...; solo: R; duel: ER, EER, ... "
             "Default: RR for co-op, R for solo, ER for duel.")] = None,
    scenario: Annotated[Optional[str], typer.Option(
        help="A duel scenario by name (see `christianity-game scenarios`); sets mode and line-up.")] = None,
    seed: Annotated[Optional[int], typer.Option(
        help="Seed of the shuffles: the same seed deals the same game. Default: a new deal each time "
             "(its seed is printed, to replay it).")] = None,
    bot: Annotated[str, typer.Option(help="Bot level for bot seats: easy, normal, hard, heuristic, random, or a budget "
                                             "(search:50ms, search:2000it, mcts:200ms, mcts:500it).")] = "heuristic",
    bots: Annotated[Optional[str], typer.Option(
        help="Seats played by bots, numbered from 1, e.g. 2 or 1,2. Default: every seat is a person (hot-seat).")] = None,
    all_bots: Annotated[bool, typer.Option("--all-bots", help="Bots play every seat (watch a game).")] = False,
    set_: Annotated[Optional[list[str]], typer.Option(
        "--set", help="A setting as key=value (repeatable): matAbilities=0, soloFee=2, maxRounds=8, ...")] = None,
    variants: Annotated[Optional[str], typer.Option(help=VARIANTS_HELP)] = None,
    deck: Annotated[Optional[list[Path]], typer.Option(
        help="A deck file of your own (TOML, repeatable). Its decks are used unless --decks says otherwise.")] = None,
    decks: Annotated[Optional[str], typer.Option(
        help="Deck ids, one a seat, then the Evil deck: e.g. shepherd,watchman,evil.")] = None,
    save: Annotated[Optional[Path], typer.Option(help="Write the game record (JSON) here at the end or on quit.")] = None,
    delay: Annotated[float, typer.Option(help="Seconds to wait after each bot move (to watch).")] = 0.0,
    handoff: Annotated[Optional[bool], typer.Option(
        "--handoff/--no-handoff",
        help="Hot-seat: clear the screen between players. Default: on in a terminal with 2+ people.")] = None,
) -> None:
    """Play a game in the terminal: hot-seat for people, bots for the other seats."""
    settings = settings_or_fail(set_, variants)
    drawn = seed is None
    if seed is None:
        seed = new_deal_seed()
    from ..engine.game import Game
    preset = None
    if scenario is not None:
        preset = scenario_or_fail(scenario)
        mode, lineup = preset.mode, preset.lineup
        try:
            game = preset.new_game(seed=seed, settings=settings)
        except ValueError as exc:
            fail(str(exc))
    else:
        check_mode(mode)
        lineup = lineup or DEFAULT_LINEUPS.get(mode, "RR")
        texts, card_set = load_user_decks(deck)
        if decks is not None:
            deck_ids: list[str] | None = [d.strip() for d in decks.split(",") if d.strip()]
        else:
            deck_ids = _default_decks(mode, lineup, card_set) if texts else None
        try:
            game = Game.new(mode=mode, lineup=lineup, seed=seed, settings=settings, decks=deck_ids,
                            extra_deck_texts=texts)
        except ValueError as exc:
            fail(str(exc))
    n_seats = len(game.lineup)
    bot_seats = list(range(n_seats)) if all_bots else _seat_list(bots, n_seats, "--bots") if bots else []
    bot_players = {s: bot_or_fail(bot, seed * 31 + s, game.cards) for s in bot_seats}
    console = Console(highlight=False)
    if save is not None and not save.parent.exists():
        fail(f"--save: the folder {save.parent} does not exist")
    humans = [s for s in range(n_seats) if s not in bot_players]
    auto_handoff = sys.stdin.isatty() and console.is_terminal
    from ..play_session import PlaySession
    session = PlaySession(game, console, bot_players, {s: bot for s in bot_players}, save=save,
                          handoff=auto_handoff if handoff is None else handoff, delay=delay, prog=PROG)
    deck_names = {d.id: d.name for d in game.cards.decks.values()}
    seat_decks = [seat_facts(game, s)["deck"] for s in range(n_seats)]
    who = ", ".join(f"{seat_label(s)}: {deck_names.get(seat_decks[s], seat_decks[s] or 'prepared')} "
                    f"({'bot ' + bot if s in bot_players else 'person'})" for s in range(n_seats))
    console.print(Rule(f"Christianity Strategy Card Game · {mode} · seed {seed}", style="bright_blue"))
    if drawn:
        console.print(Text(f"Seed {seed} — replay or deal again with --seed {seed}", style="bold"))
    console.print(Text(f"Seats: {who}", style="bold"))
    if preset is not None:   # the goal as this table plays it (its variants' Evil win, its round limit)
        console.print(Text(f"Scenario: {preset.title}. Goal: {preset.goal_for(settings)}", style="bold"))
    if humans:
        console.print(Text("Type the number of an option, ? for help, q to quit.", style="dim"))
    code = session.run()
    if code:
        raise typer.Exit(code)

