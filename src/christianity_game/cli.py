"""The command line: one Typer app (``christianity-game``, or ``python -m christianity_game``).

Commands: ``play`` (hot-seat and bots in the terminal), ``simulate`` (batches of bot games),
``cards`` (list the card set, check a user's deck file), ``replay`` (show a saved game),
``lab`` (grids of bot games), ``tune`` (search the play-test variants), ``ladder`` (rate bot levels),
``bench`` (engine speed) and ``native`` (build the compiled engine). Seats are numbered from 1 on the command line and on screen.

Bad flags and values end with exit code 2 and one line on stderr (never a traceback).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, Optional

import typer
from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from .cards.loader import CardFileError, CardSet, load_files, starter_set
from .engine.actions import IllegalAction, action_from_json
from .engine.settings import Settings
from .render.terminal import (
    KIND_LABEL, describe_action, describe_events, render_board, render_card_table, righteous_seats_of, seat_label,
)

if TYPE_CHECKING:
    from .bots.base import Bot
    from .sim.lab import RunOptions

PROG = "christianity-game"

app = typer.Typer(
    name=PROG,
    help="The Christianity Strategy Card Game: play in the terminal, simulate with bots, check card files.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


# ---------------------------------------------------------------------------------------- helpers
def _fail(message: str, code: int = 2) -> NoReturn:
    """One clear line on stderr and the exit code (2: bad flags, values or files)."""
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(code)


VARIANTS_HELP = ("Duel play-test variants: a preset (recommended) and/or alias=value pairs, comma-separated "
                 "(rewardCap=2,evilHabituals=5). See `christianity-game variants`. Default: the printed rules.")


def _variants(text: str | None) -> dict[str, int | bool]:
    """``--variants``: the play-test variants it names (Settings key -> value); a clear error otherwise."""
    from .engine.variants import parse_variants
    if text is None:
        return {}
    try:
        return parse_variants(text)
    except ValueError as exc:
        _fail(f"--variants: {exc}")


def _settings(pairs: list[str] | None, variants: str | None = None) -> Settings:
    """The table's settings: ``--variants`` first, then each ``--set`` (which wins where both name one)."""
    data: dict[str, Any] = dict(_variants(variants))
    for item in pairs or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            _fail(f"--set takes key=value (for example matAbilities=0), not {item!r}")
        data[key.strip()] = value.strip()
    try:
        return Settings().updated(data)
    except ValueError as exc:
        _fail(f"bad setting: {exc}")


DUEL_SIM_TURN_CAP = 200   # simulate's default turn cap for duels (--set maxTurns=N changes it)


def _scenario_or_fail(name: str) -> Any:
    from .scenarios import ScenarioError, scenario
    try:
        return scenario(name)
    except ScenarioError as exc:
        _fail(str(exc))


#: The line-up of each mode when --lineup is left out.
DEFAULT_LINEUPS = {"coop": "RR", "solo": "R", "duel": "ER"}


@app.command()
def scenarios() -> None:
    """List the duel scenarios: named presets for --scenario (play, simulate) and the web menu."""
    import textwrap

    from .scenarios import all_scenarios
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


def _grid_axes(pairs: list[str] | None, variants: str | None) -> dict[str, list[str]]:
    """A lab grid's (or the tuner's) axes: each ``--set`` with its values, and each variant
    ``--variants`` names as one value on every cell (``--set`` wins where both name one).
    Raises the lab's ``LabError`` for a bad ``--set``."""
    from .engine.variants import BY_KEY
    from .sim.lab import parse_axes
    axes = parse_axes(pairs)
    named = {Settings.ALIASES.get(k, k) for k in axes}
    for key, value in _variants(variants).items():
        if key not in named:
            axes[BY_KEY[key].alias] = [str(int(value))]
    return axes


@app.command("variants")
def list_variants() -> None:
    """List the duel's play-test variants (every departure from a printed rule) and the presets."""
    import textwrap

    from .engine.variants import PRESETS, VARIANTS
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
    from .engine.settings import Settings as _S
    from .engine.variants import table_plays
    for name, values in PRESETS.items():
        pairs = ",".join(f"{next(v.alias for v in VARIANTS if v.key == k)}={int(x)}" for k, x in values.items())
        console.print(Text(f"  {name}", style="bold cyan"), Text(f"  {pairs or '(none)'}", style="dim"))
        for row in textwrap.wrap(table_plays(_S().updated(values)), width=width - 4):
            console.print(Text(f"    {row}"))


def _check_mode(mode: str) -> None:
    from .engine.modes import mode_by_name
    try:
        mode_by_name(mode)
    except ValueError as exc:
        _fail(str(exc))


def _load_user_decks(paths: list[Path] | None) -> tuple[list[tuple[str, str]], CardSet]:
    """Check the user's deck files and return their texts (for the game record) and the card set."""
    paths = list(paths or [])
    base = starter_set()
    if not paths:
        return [], base
    try:
        card_set = load_files(paths, base=base)
    except CardFileError as exc:
        _fail(str(exc))
    texts = [(str(p), Path(p).read_text(encoding="utf-8")) for p in paths]
    return texts, card_set


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
    from .engine.game import DEFAULT_EVIL_DECK, DEFAULT_RIGHTEOUS_DECKS
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
            _fail(f"{flag} takes seat numbers like 1,2, not {text!r}")
        if not 1 <= n <= n_seats:
            _fail(f"{flag}: there is no seat {n}; this line-up has seats 1 to {n_seats}")
        out.append(n - 1)
    return out


def _bot_or_fail(name: str, seed: int, cards: CardSet | None) -> Bot:
    """The bot of level ``name`` (:func:`christianity_game.bots.make_bot`), or exit code 2 with the reason."""
    from .bots import make_bot
    try:
        return make_bot(name, seed, cards)
    except (ValueError, KeyError) as exc:
        msg = exc.args[0] if exc.args else str(exc)
        _fail(str(msg))


# ---------------------------------------------------------------------------------------- play
def new_deal_seed() -> int:
    """The seed of a game played without --seed: drawn afresh (a new deal each time), five digits
    so that it can be typed back after --seed to replay it."""
    import secrets
    return 10_000 + secrets.randbelow(90_000)


@app.command()
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
    settings = _settings(set_, variants)
    drawn = seed is None
    if seed is None:
        seed = new_deal_seed()
    from .engine.game import Game
    preset = None
    if scenario is not None:
        preset = _scenario_or_fail(scenario)
        mode, lineup = preset.mode, preset.lineup
        try:
            game = preset.new_game(seed=seed, settings=settings)
        except ValueError as exc:
            _fail(str(exc))
    else:
        _check_mode(mode)
        lineup = lineup or DEFAULT_LINEUPS.get(mode, "RR")
        texts, card_set = _load_user_decks(deck)
        if decks is not None:
            deck_ids: list[str] | None = [d.strip() for d in decks.split(",") if d.strip()]
        else:
            deck_ids = _default_decks(mode, lineup, card_set) if texts else None
        try:
            game = Game.new(mode=mode, lineup=lineup, seed=seed, settings=settings, decks=deck_ids,
                            extra_deck_texts=texts)
        except ValueError as exc:
            _fail(str(exc))
    n_seats = len(game.state.seats)
    bot_seats = list(range(n_seats)) if all_bots else _seat_list(bots, n_seats, "--bots") if bots else []
    bot_players = {s: _bot_or_fail(bot, seed * 31 + s, game.cards) for s in bot_seats}
    console = Console(highlight=False)
    if save is not None and not save.parent.exists():
        _fail(f"--save: the folder {save.parent} does not exist")
    humans = [s for s in range(n_seats) if s not in bot_players]
    auto_handoff = sys.stdin.isatty() and console.is_terminal
    from .play_session import PlaySession
    session = PlaySession(game, console, bot_players, {s: bot for s in bot_players}, save=save,
                          handoff=auto_handoff if handoff is None else handoff, delay=delay, prog=PROG)
    deck_names = {d.id: d.name for d in game.cards.decks.values()}
    who = ", ".join(f"{seat_label(s)}: {deck_names.get(game.state.seats[s].deck_id, game.state.seats[s].deck_id or 'prepared')} "
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


# ---------------------------------------------------------------------------------------- simulate
@app.command()
def simulate(
    mode: Annotated[str, typer.Option(help="coop, solo or duel.")] = "coop",
    lineup: Annotated[Optional[str], typer.Option(
        help="One letter a seat, e.g. RR (co-op) or ER (duel). Default: RR co-op, R solo, ER duel.")] = None,
    scenario: Annotated[Optional[str], typer.Option(help="A duel scenario by name; sets mode and line-up.")] = None,
    games: Annotated[int, typer.Option(help="How many games to play.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the run (each game's seed is derived from it).")] = 0,
    bots: Annotated[str, typer.Option(help="Bot level for every seat, or one a seat: easy, normal, hard (the levels a player picks), heuristic, random, "
                                               "or a bot with a budget (search:50ms, search:2000it, mcts:200ms, mcts:500it).")] = "heuristic",
    set_: Annotated[Optional[list[str]], typer.Option("--set", help="A setting as key=value (repeatable).")] = None,
    variants: Annotated[Optional[str], typer.Option(help=VARIANTS_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print only JSON on stdout.")] = False,
) -> None:
    """Play many games with bots and report win rate, rounds, score and why games ended."""
    if scenario is not None:
        preset = _scenario_or_fail(scenario)
        mode, lineup = preset.mode, preset.lineup
    _check_mode(mode)
    lineup = lineup or DEFAULT_LINEUPS.get(mode, "RR")
    settings = _settings(set_, variants)
    if mode == "duel" and not settings.max_turns:
        settings = settings.updated({"max_turns": DUEL_SIM_TURN_CAP})   # a duel has no round limit
    if games < 1:
        _fail("--games must be at least 1")
    from .engine.game import Game
    try:
        Game.new(mode=mode, lineup=lineup, seed=seed, settings=settings)
    except ValueError as exc:
        _fail(str(exc))
    levels = [b.strip() for b in bots.split(",") if b.strip()]
    if not levels:
        _fail("--bots needs a bot level: easy, normal, hard, heuristic, random, search:50ms or mcts:200ms")
    if len(levels) not in (1, len(lineup)):
        _fail(f"--bots takes one level for every seat or one a seat ({len(lineup)}), not {len(levels)}")
    for level in levels:
        _bot_or_fail(level, 0, None)
    bots_arg: str | list[str] = levels[0] if len(levels) == 1 else levels
    try:
        from .sim import simulate as run_simulation
    except ImportError:
        _fail("the sim package is not available", 1)

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    err = Console(stderr=True)
    with Progress(TextColumn("[bold]Simulating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True) as progress:
        task = progress.add_task("games", total=games)

        def tick(done: int, *_: Any, **__: Any) -> None:
            progress.update(task, completed=done)

        try:
            result = run_simulation(mode=mode, lineup=lineup, games=games, seed=seed, bots=bots_arg,
                                    settings=settings, progress=tick, scenario=scenario)
        except ValueError as exc:
            _fail(str(exc))
    data = result.to_json()
    if isinstance(data, str):
        data = json.loads(data)
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    console = Console(highlight=False)
    table = Table(title=f"{games} games · {mode} {lineup} · bots {bots} · seed {seed}", show_header=False,
                  title_style="bold")
    table.add_column(style="bold")
    table.add_column(justify="right")
    avg = data.get("avg_score") or [0, 0]
    table.add_row("Games", str(data.get("games")))
    table.add_row("Righteous wins", str(data.get("righteous_wins")))
    table.add_row("Win rate", f"{100 * float(data.get('win_rate', 0)):.1f} %")
    table.add_row("Average rounds", f"{float(data.get('avg_rounds', 0)):.2f}")
    table.add_row("Average score", f"Righteous {float(avg[0]):.1f} : Evil {float(avg[1]):.1f}")
    if data.get("unfinished"):
        table.add_row("Unfinished", str(data.get("unfinished")))
    console.print(table)
    reasons = Table(title="How the games ended", title_style="bold")
    reasons.add_column("Reason")
    reasons.add_column("Games", justify="right")
    reasons.add_column("Share", justify="right")
    total = max(1, int(data.get("games") or 1))
    for reason, count in sorted((data.get("reasons") or {}).items(), key=lambda kv: -kv[1]):
        reasons.add_row(reason, str(count), f"{100 * count / total:.1f} %")
    console.print(reasons)


# ---------------------------------------------------------------------------------------- lab
def _lab_record(db: Path, cell: int | None, game_no: int | None, file: Path | None) -> tuple[dict[str, Any], str]:
    """replay --db: play a stored lab game again from its cell and seed; its record and a label."""
    if file is not None:
        _fail("give a record file or --db, not both")
    if cell is None or game_no is None:
        _fail("--db needs --cell N and --game I (see the cell numbers in the lab's report)")
    from .sim.lab import LabError, replay_game
    try:
        again = replay_game(db, cell, game_no)
    except LabError as exc:
        _fail(str(exc))
    err = Console(stderr=True, highlight=False)
    if again.matches:
        err.print(Text(f"✓ cell {cell} game {game_no} (seed {again.stored['seed']}) played again: "
                       f"same result as stored ({again.stored['winner'] or 'unfinished'}, "
                       f"{again.stored['turns']} turns)", style="green"))
    else:
        from .sim.lab import code_fingerprint
        changed = f"; the engine changed since: stored by {again.spec['code']}, now {code_fingerprint()}" \
            if again.spec["code"] != code_fingerprint() else ""
        err.print(Text(f"✗ cell {cell} game {game_no} does not reproduce what is stored{changed}: "
                       + "; ".join(again.differences()), style="bold red"))
    return again.game.to_record(), f"{db} cell {cell} game {game_no}"


def _run_options(backend: str, workers: int | None, address: str | None, chunk: int) -> RunOptions:
    """``--backend``, ``--workers``, ``--address`` and ``--chunk`` of ``lab`` and ``tune``, checked by
    the lab (:class:`~.sim.lab.RunOptions`); a clear error otherwise."""
    from .sim.lab import LabError, RunOptions
    try:
        return RunOptions(backend, workers, address, chunk)
    except LabError as exc:
        _fail(str(exc))


@app.command()
def lab(
    mode: Annotated[str, typer.Option(help="coop, solo or duel (one mode a run).")] = "duel",
    lineup: Annotated[str, typer.Option(help="Line-ups to compare, comma-separated: ER,EER,ERR.")] = "ER",
    set_: Annotated[Optional[list[str]], typer.Option(
        "--set", help="A setting and its values to compare (repeatable): evilInterrupt=0,1 soloFee=1,2,3.")] = None,
    variants: Annotated[Optional[str], typer.Option(help=VARIANTS_HELP + " Every cell plays them; --set may vary them.")] = None,
    bots: Annotated[Optional[list[str]], typer.Option(
        help="Bots: one level for every seat, one a seat, or one a side (evil=search:4it,righteous=heuristic: "
             "fits every line-up) (levels: easy, normal, hard, heuristic, random, search:50ms, search:300it, "
             "mcts:200ms, mcts:500it); repeat to compare. Default: heuristic.")] = None,
    games: Annotated[int, typer.Option(help="Games a cell.")] = 1000,
    seed: Annotated[int, typer.Option(help="Run seed: game i of every cell has seed game_seed(seed, i).")] = 0,
    out: Annotated[Path, typer.Option(
        help="The SQLite file of results; a run resumes what it holds (games already stored are skipped).")]
        = Path("lab.sqlite"),
    report: Annotated[Optional[Path], typer.Option(
        help="Write the report (index.html, summary.md, PNG plots) into this folder.")] = None,
    backend: Annotated[str, typer.Option(help="process (a pool on this machine), serial, or ray.")] = "process",
    workers: Annotated[Optional[int], typer.Option(help="Worker processes (default: every core).")] = None,
    address: Annotated[Optional[str], typer.Option(help="With --backend ray: the cluster's address.")] = None,
    chunk: Annotated[int, typer.Option(help="Games a task (each chunk is stored in one transaction).")] = 25,
    title: Annotated[str, typer.Option(help="The report's title.")] = "Balance lab",
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON on stdout.")] = False,
) -> None:
    """The balance lab: a grid of variants (line-ups x settings x bots), many games a cell, results in
    SQLite, and a report with win rates, confidence intervals, game lengths and what fired."""
    from .sim.lab import LabError, LabInterrupted, build_grid, run_lab, stale_cells, connect
    options = _run_options(backend, workers, address, chunk)
    if games < 1:
        _fail("--games must be at least 1")
    try:
        grid = build_grid(mode, lineup, _grid_axes(set_, variants), bots or ["heuristic"], games=games, seed=seed)
    except LabError as exc:
        _fail(str(exc))
    if not out.parent.exists():
        _fail(f"--out: the folder {out.parent} does not exist")
    if out.exists() and not out.is_file():
        _fail(f"--out: {out} is not a file")
    if report is not None and report.exists() and not report.is_dir():
        _fail(f"--report: {report} is not a folder")
    import sqlite3
    err = Console(stderr=True, highlight=False)
    try:
        conn = connect(out)
        stale = stale_cells(conn, grid.cells)
        conn.close()
    except sqlite3.DatabaseError as exc:
        _fail(f"--out: {out} is not a lab database ({exc})")
    if stale:
        err.print(Text(f"Note: {stale} of these cells hold games played by other engine code; "
                       "they are played afresh (the old games stay in the file).", style="yellow"))
    for note in grid.notes:
        err.print(Text(note, style="dim"))

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    started: dict[str, float] = {}
    with Progress(TextColumn(f"[bold]Lab[/] {len(grid.cells)} cells · {options.where}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TimeRemainingColumn(),
                  console=err, transient=True) as progress:
        task = progress.add_task("games", total=grid.total, rate="")

        def tick(done: int, total: int) -> None:
            now = time.perf_counter()
            if "t" not in started:
                started["t"], started["done"] = now, done
            elapsed = now - started["t"]
            rate = (done - started["done"]) / elapsed if elapsed > 0 else 0.0
            progress.update(task, completed=done, rate=f"{rate:,.0f} games/s" if elapsed > 0 else "")

        try:
            result = run_lab(grid, out, progress=tick, options=options)
        except LabInterrupted as exc:
            progress.stop()
            err.print(Text(f"Stopped: {exc}. The games played are stored in {out}; "
                           "run the same command again to resume.", style="yellow"))
            raise typer.Exit(130)
        except LabError as exc:
            _fail(str(exc))
    err.print(Text(f"{result.played} games played in {result.seconds:.1f} s "
                   f"({result.games_per_second:,.1f} games/s, {result.workers} worker(s), {backend})"
                   + (f"; {result.skipped} were already stored" if result.skipped else "")
                   + f". Results: {out}", style="green"))

    from .sim.report import load_stats, write_report
    stats = load_stats(out, result.cell_ids, max_games=games)
    if report is not None:
        written = write_report(out, report, result.cell_ids, title=title, max_games=games)
        err.print(Text(f"Report: {written.html} (summary: {written.markdown}, {len(written.images)} plots)",
                       style="green"))
    if as_json:
        typer.echo(json.dumps([c.to_json() for c in stats], indent=2))
        return
    console = Console(highlight=False)
    table = Table(title=f"{mode} · {games} games a cell · seed {seed}", title_style="bold")
    table.add_column("cell", justify="right", no_wrap=True)
    table.add_column("variant", overflow="fold", min_width=16)
    duel = mode == "duel"
    pace = ("round limit", "rounds med/p90", "Evil's 1st turn") if duel else ()
    for col in ("R win rate", "95 % CI", "turn cap", *pace, "turns", "score R:E"):
        table.add_column(col, justify="right", no_wrap=True)
    for c in stats:
        lo, hi = c.ci
        t = c.turns_summary()
        r = sum(c.score_r) / c.games if c.games else 0.0
        e = sum(c.score_e) / c.games if c.games else 0.0
        cells = [f"{100 * c.win_rate:.1f} %", f"{100 * lo:.1f}–{100 * hi:.1f} %", f"{100 * c.capped_share:.1f} %"]
        if duel:   # the pace of a duel (its length targets), as in the report
            data = c.to_json()
            rounds, first = data["rounds"], data["first_evil_turn_decisions"]
            cells += [f"{100 * c.round_limit_share:.1f} %", f"{rounds['median']:.0f}/{rounds['p90']:.0f}",
                      "–" if first.get("median") is None else f"{first['median']:.0f} decisions"]
        table.add_row(str(c.id), c.label, *cells, f"{t['mean']:.1f}", f"{r:.0f}:{e:.0f}")
    console.print(table)
    for note in grid.notes:
        console.print(Text(note, style="dim"))
    console.print(Text(f"Replay any game: {PROG} replay --db {out} --cell N --game I", style="dim"))


# ---------------------------------------------------------------------------------------- tune
@app.command()
def tune(
    lineup: Annotated[str, typer.Option(help="Line-ups whose duels must all be contests, comma-separated.")]
        = "ER,EER,ERR",
    set_: Annotated[Optional[list[str]], typer.Option(
        "--set", help="A setting axis every trial plays (repeatable), as in lab: evilInterrupt=1,0. "
                      "A variant set here is not searched.")] = None,
    variants: Annotated[Optional[str], typer.Option(
        help=VARIANTS_HELP + " Every trial plays them (counted in its departures); the tuner searches the others "
             "on top of them.")] = None,
    bots: Annotated[Optional[list[str]], typer.Option(
        help="Bot pairings (repeatable), as in lab: heuristic, search:NNit (slow), or one a side: "
             "evil=search:4it,righteous=heuristic. Default: heuristic.")] = None,
    games: Annotated[int, typer.Option(help="Games a cell in each trial.")] = 60,
    trials: Annotated[int, typer.Option(
        help="Complete trials the study should hold (the stored ones count: a rerun resumes).")] = 30,
    seed: Annotated[int, typer.Option(help="Tuning seed: the lab's run seed of every trial (and the sampler's).")] = 0,
    confirm_seed: Annotated[Optional[int], typer.Option(
        help="Fresh run seed the best trials are played again on (default: --seed + 1000).")] = None,
    confirm_games: Annotated[Optional[int], typer.Option(
        help="Games a cell on the confirmation seed (default: --games).")] = None,
    confirm: Annotated[str, typer.Option(
        help="Which trials to confirm: top (the --confirm-top best by the first objective with under 2 % at "
             "the safety cap, and the best of each size up to 3 departures) or front (the Pareto front).")] = "top",
    confirm_top: Annotated[int, typer.Option(help="With --confirm top: how many of the best to confirm.")] = 3,
    space: Annotated[Optional[str], typer.Option(
        help="Variants to search, comma-separated aliases (default: every variant; see `christianity-game variants`).")]
        = None,
    values: Annotated[Optional[list[str]], typer.Option(
        "--values", help="Values to try for a variant (repeatable): rewardCap=1,2,3 (its printed value is always tried).")]
        = None,
    objective: Annotated[str, typer.Option(
        help="The first objective: band (the worst distance of Righteous wins outside each cell's band, 0 inside) "
             "or from-50 (the worst distance from 50 %, the first tuner's).")] = "band",
    band: Annotated[Optional[str], typer.Option(
        help="Bands of Righteous wins in per cent by line-up, replacing the targets' (ER=40-60,EER=30-70,ERR=30-70): "
             "ER=45-55,EER=35-65.")] = None,
    population: Annotated[int, typer.Option(help="NSGA-II: trials a generation.")] = 10,
    warm_start: Annotated[bool, typer.Option(
        help="A new study starts with the printed rules, each variant alone and the presets.")] = True,
    study: Annotated[str, typer.Option(
        help="The study's storage: an Optuna SQLite file (or a database URL) that several runs and machines share.")]
        = "tune.sqlite",
    study_name: Annotated[Optional[str], typer.Option(
        help="The study's name in its storage (default: one derived from the cells, games, seed and space).")] = None,
    lab_db: Annotated[Optional[Path], typer.Option(
        "--lab", help="The lab SQLite file of every trial's games (default: beside the study, NAME-lab.sqlite).")]
        = None,
    out: Annotated[Path, typer.Option(help="The report folder (index.html, summary.md, tune.json, PNG plots).")]
        = Path("tune-report"),
    backend: Annotated[str, typer.Option(help="process (a pool on this machine), serial, or ray.")] = "process",
    workers: Annotated[Optional[int], typer.Option(help="Worker processes (default: every core).")] = None,
    address: Annotated[Optional[str], typer.Option(help="With --backend ray: the cluster's address.")] = None,
    chunk: Annotated[int, typer.Option(help="Games a lab task.")] = 25,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report's figures as JSON on stdout.")] = False,
) -> None:
    """The tuner: search the play-test variants for the smallest departure from the printed rules that makes
    every cell (line-ups x --set axes x bots) a contest, then confirm the best on fresh seeds."""
    from .sim.lab import LabError, LabInterrupted
    from .sim.tune import (CONFIRM_MODES, LabOptions, TuneError, TuneProgress, confirm as confirm_trials,
                           default_lab_db, make_config, open_study, pick_candidates, run_study, trial_bands,
                           write_tune_report)
    if trials < 1:
        _fail(f"--trials must be at least 1, not {trials}")
    if games < 1:
        _fail("--games must be at least 1")
    if seed < 0:
        _fail("--seed must be 0 or more")
    confirm_seed = seed + 1000 if confirm_seed is None else confirm_seed
    confirm_games = games if confirm_games is None else confirm_games
    if confirm_seed < 0 or confirm_seed == seed:
        _fail(f"--confirm-seed must be 0 or more and differ from --seed {seed} (fresh deals), not {confirm_seed}")
    if confirm_games < 1:
        _fail("--confirm-games must be at least 1")
    if confirm not in CONFIRM_MODES:
        _fail(f"--confirm must be one of {', '.join(CONFIRM_MODES)}, not {confirm!r}")
    if confirm_top < 1:
        _fail("--confirm-top must be at least 1")
    options = _run_options(backend, workers, address, chunk)
    if out.exists() and not out.is_dir():
        _fail(f"--out: {out} is not a folder")
    db = lab_db or default_lab_db(study)
    if not db.parent.exists():
        _fail(f"--lab: the folder {db.parent} does not exist")
    try:
        config = make_config(lineup, _grid_axes(set_, variants), bots or ["heuristic"], games=games, seed=seed,
                             space=None if space is None else [p for p in space.split(",") if p.strip()],
                             values=values, objective=objective, bands=band)
        the_study = open_study(config, study, study_name, population)
    except (TuneError, LabError) as exc:
        _fail(str(exc))

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    err = Console(stderr=True, highlight=False)
    lab_options = LabOptions(db, options)
    with Progress(TextColumn("[bold]{task.description}[/]"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True) as progress:
        bar = progress.add_task("trials", total=trials)
        grid = progress.add_task("games", total=1)

        def started(done: int, total: int, what: str) -> None:
            progress.update(bar, completed=done, total=total, description=what)

        def played(done: int, total: int) -> None:
            progress.update(grid, completed=done, total=total, description="games of this grid")

        def finished(done: int, total: int, trial: Any) -> None:
            progress.update(bar, completed=done)
            v = trial.values
            bands = trial_bands(trial, config)
            where = "" if bands is None else " · every cell in band" if bands["in_band"] \
                else f" · {len(bands['out_of_band'])} cell(s) out of band"
            err.print(Text(f"trial {trial.number}: {trial.user_attrs.get('variants')} · {config.objectives[0]} "
                           f"{100 * v[0]:.1f} pp{where} · cap {100 * v[1]:.1f} % · median {v[2]:.0f} rounds",
                           style="dim"))

        hooks = TuneProgress(started, played, finished)
        try:
            ran = run_study(config, the_study, lab_options, trials, warm=warm_start, progress=hooks)
            chosen, how = pick_candidates(the_study, confirm, confirm_top, config.targets, config.objective)
            progress.update(bar, completed=0, total=max(1, len(chosen)), description="confirming")
            candidates = confirm_trials(config, the_study, lab_options, confirm_seed, confirm_games, chosen, hooks)
        except (LabInterrupted, KeyboardInterrupt) as exc:
            progress.stop()
            err.print(Text(f"Stopped ({exc or 'interrupted'}). The trials done are stored in {study} and the games in "
                           f"{db}; run the same command again to resume.", style="yellow"))
            raise typer.Exit(130)
        except (TuneError, LabError) as exc:
            _fail(str(exc))
    report = write_tune_report(the_study, config, candidates, how, out, db, confirm_seed, confirm_games, study)
    err.print(Text(f"{ran} trial(s) run now; the study {the_study.study_name} holds "
                   f"{len(report.data['trials'])} complete. Report: {report.html} (summary: {report.markdown}, "
                   f"figures: {report.json})", style="green"))
    if as_json:
        typer.echo(json.dumps(report.data, indent=2, default=str))
        return
    console = Console(highlight=False)
    table = Table(title=f"tuner · {len(candidates)} confirmed (tuning seed {seed} / confirmation seed {confirm_seed})",
                  title_style="bold")
    table.add_column("trial", justify="right")
    table.add_column("variants", overflow="fold", min_width=16)
    first = "worst outside band" if config.objective == "band" else "worst from 50 %"
    for col in (first, "in band", "safety cap", "median rounds", "targets missed"):
        table.add_column(col, justify="right", no_wrap=True)
    for c in candidates:
        t, k = c.tuning.figures, c.confirmation.figures
        table.add_row(str(c.trial.number), c.variants,
                      f"{100 * t['objectives'][0]:.0f} / {100 * k['objectives'][0]:.0f} pp",
                      f"{'yes' if t['in_band'] else 'no'} / {'yes' if k['in_band'] else 'no'}",
                      f"{100 * t['turn_cap_share']:.1f} / {100 * k['turn_cap_share']:.1f} %",
                      f"{t['objectives'][2]:.0f} / {k['objectives'][2]:.0f}", str(c.failed))
    console.print(table)
    if report.best is not None:
        console.print(Text(f"Best: trial {report.best.trial.number}: --variants {report.best.variants}. "
                           f"{report.best.sentence}", style="bold"))


# ---------------------------------------------------------------------------------------- cards
@app.command()
def cards(
    deck: Annotated[Optional[list[Path]], typer.Option(
        help="Check a deck file of your own (repeatable) and list its cards.")] = None,
    side: Annotated[Optional[str], typer.Option(help="Only righteous or evil cards.")] = None,
) -> None:
    """List the card set, or check and list your own deck files (a broken file: exit code 2)."""
    if side is not None and side not in ("righteous", "evil"):
        _fail(f"--side must be righteous or evil, not {side!r}")
    console = Console(highlight=False)
    base = starter_set()
    if deck:
        card_set = _load_user_decks(deck)[1]
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
@app.command()
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
    from .engine.record import RecordError
    from .engine.replay import replay as replay_record
    if db is not None:
        record, label = _lab_record(db, cell, game_no, file)
    elif file is None:
        _fail("give a game record file, or --db LAB.sqlite with --cell N and --game I")
    else:
        label = str(file)
        try:
            text = file.read_text(encoding="utf-8")
        except OSError as exc:
            _fail(f"cannot read {file}: {exc.strerror or exc}")
        except UnicodeDecodeError:
            _fail(f"{file} is not a text file")
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            _fail(f"{file} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})")
    actions = record.get("actions") if isinstance(record, dict) else None
    total = len(actions) if isinstance(actions, list) else 0
    if upto is not None and upto < 0:
        _fail("--upto must be 0 or more")
    try:
        game = replay_record(record, upto=upto)
    except (RecordError, ValueError) as exc:
        _fail(f"{label}: {exc}")
    n_seats = len(game.state.seats)
    viewer = None
    if seat is not None:
        if not 1 <= seat <= n_seats:
            _fail(f"--seat: there is no seat {seat}; this game has seats 1 to {n_seats}")
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


# ---------------------------------------------------------------------------------------- bench
@app.command()
def bench(
    against: Annotated[Optional[str], typer.Option(
        help="Also time a peer engine side by side and print the ratio: block_dominoes (OpenSpiel's "
             "pure-Python game; needs the optional 'bench' extra).")] = None,
    seconds: Annotated[float, typer.Option(help="With --against: CPU seconds per line-up, split over the runs.")] = 4.0,
    repeats: Annotated[int, typer.Option(help="With --against: interleaved runs of each; medians are printed.")] = 5,
) -> None:
    """Measure the engine's speed (actions, clones and games a second), or with --against compare
    it with a peer engine (CPU time per action, random legal play, checked apply on both sides)."""
    if against is not None:
        from .bench_peer import PEERS, PeerUnavailable, format_peer_bench, run_peer_bench
        if against not in PEERS:
            _fail(f"--against: unknown peer {against!r}; known: {', '.join(PEERS)}")
        if seconds <= 0 or repeats < 1:
            _fail("--seconds must be positive and --repeats at least 1")
        try:
            peer_result = run_peer_bench(against, seconds=seconds, repeats=repeats)
        except PeerUnavailable as exc:
            _fail(str(exc), 1)
        typer.echo(format_peer_bench(peer_result))
        return
    from .bench import format_bench, run_bench
    typer.echo(format_bench(run_bench()))


@app.command()
def native(
    verb: Annotated[str, typer.Argument(
        help="build (compile when the engine's sources changed), status, check (status, with exit code 1 "
             "when the next start would run the Python engine) or clean.")] = "status",
    force: Annotated[bool, typer.Option(help="With build: compile even when the build is up to date.")] = False,
) -> None:
    """The native engine: the engine's hot modules compiled with mypyc (optional; scripts/setup.sh
    builds it). A build is used only while the sources it was built from are unchanged."""
    from . import native as native_build
    if verb == "build":
        try:
            typer.echo(native_build.build(force=force))
        except native_build.NativeBuildError as exc:
            _fail(f"native engine not built: {exc}", 1)
    elif verb in ("status", "check"):
        usable, why = native_build.status()
        typer.echo(why)
        if verb == "check" and not usable:   # scripts/run.sh: build in the background, then serve
            raise typer.Exit(1)
    elif verb == "clean":
        typer.echo(native_build.clean())
    else:
        _fail(f"unknown native command {verb!r}; use build, status, check or clean")


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    data: Annotated[Optional[Path], typer.Option(
        help="Folder of the SQLite file (default: $CHRISTIANITY_GAME_DATA or ./data).")] = None,
    database: Annotated[Optional[str], typer.Option(
        help="Where games are stored: postgresql://user@host/db (PostgreSQL, see docs/deploy.md), or a SQLite "
             "file (a path or sqlite:///path). Default: $CHRISTIANITY_GAME_DATABASE, else the SQLite file of "
             "--data.")] = None,
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before each move, so people can follow.")] = 0.3,
    public_url: Annotated[Optional[str], typer.Option(
        help="The address other devices reach this server at (e.g. http://192.168.1.20:8000): the rules "
             "page's QR code encodes it when the page is opened at a loopback address, and every seat "
             "and spectator link the lobby hands out starts with it.")] = None,
    variants: Annotated[Optional[str], typer.Option(
        help="Duel play-test variants every new duel plays unless its creator picks others (a preset such as "
             "recommended, or alias=value pairs). Default: the printed rules.")] = None,
    log_format: Annotated[str, typer.Option(
        help="Log lines as text (timestamp, level, logger, game id) or json: one JSON object a line, for log "
             "collectors.")] = "text",
    log_level: Annotated[str, typer.Option(help="Least level logged: debug, info, warning, error.")] = "info",
    workers: Annotated[int, typer.Option(
        help="Server processes on this port, sharing one PostgreSQL --database: each game is run by one of "
             "them, any of them serves it (docs/deploy.md). More than 1 needs PostgreSQL.")] = 1,
    cluster: Annotated[bool, typer.Option(
        help="Share the PostgreSQL --database with other servers (other hosts or ports), as --workers does.")] = False,
) -> None:
    """Run the game server: lobby, seats, WebSocket play, games stored in SQLite or PostgreSQL."""
    if log_format not in ("text", "json"):
        _fail("--log-format must be text or json")
    if log_level.lower() not in ("debug", "info", "warning", "error", "critical"):
        _fail("--log-level must be debug, info, warning, error or critical")
    if public_url is not None:
        if not public_url.startswith(("http://", "https://")):
            _fail("--public-url must start with http:// or https://")
        import os
        from .server.web import PUBLIC_URL_ENV
        os.environ[PUBLIC_URL_ENV] = public_url
    if variants is not None:
        _variants(variants)   # checked now: a bad value is refused before the server starts
        import os
        from .server.app import VARIANTS_ENV
        os.environ[VARIANTS_ENV] = variants
    if not 0 < port < 65536:
        _fail("--port must be between 1 and 65535")
    if bot_delay < 0:
        _fail("--bot-delay cannot be negative")
    if workers < 1:
        _fail("--workers must be 1 or more")
    if workers > 1 or cluster:
        import os
        from .server.store import DATABASE_ENV, is_postgres
        if not is_postgres(database or os.environ.get(DATABASE_ENV)):
            _fail("--workers above 1 and --cluster need PostgreSQL: give --database postgresql://user@host/db "
                  "(docs/deploy.md); the SQLite default serves from one process")
    try:
        from .server import run as run_server
    except ImportError as exc:
        _fail(f"the server is not available: {exc}", 1)
    if data is not None and data.exists() and not data.is_dir():
        _fail(f"--data: {data} is not a folder")
    if database is not None:
        from .server.store import StoreError, is_postgres, sqlite_location
        if not is_postgres(database):
            try:
                sqlite_location(database, data or Path("data"))
            except StoreError as exc:
                _fail(str(exc))
    from .engine import BUILD
    from .native import engine_build
    if log_format == "json":   # every line on stderr is then a JSON object, this one too
        from .server import logs
        logs.configure(log_level, log_format)
        logs.log.info("rules engine: %s", engine_build(BUILD))
    else:
        typer.echo(f"rules engine: {engine_build(BUILD)}", err=True)
    run_server(host=host, port=port, data_dir=str(data) if data is not None else None, bot_delay=bot_delay,
               log_level=log_level.lower(), log_format=log_format, database=database, workers=workers,
               cluster=cluster)


# ---------------------------------------------------------------------------------------- ladder
LADDER_LINEUPS = {"duel": "ER,EER,ERR", "coop": "RR,RRR", "solo": "R"}


@app.command()
def ladder(
    bots: Annotated[str, typer.Option(help="Entrants, comma-separated: levels (easy, normal, hard), bots with a "
                                           "budget (mcts:500it, search:8it) or outside bots by import path "
                                           "(mypkg.mybot:MyBot).")] = "easy,normal,hard",
    modes: Annotated[str, typer.Option(help="Modes, comma-separated: duel, coop, solo.")] = "duel,coop",
    lineups: Annotated[Optional[str], typer.Option(
        help="Line-ups, comma-separated; each plays in the modes it fits (E seats: duel). "
             "Default: duel ER,EER,ERR; co-op RR,RRR; solo R.")] = None,
    variants: Annotated[Optional[str], typer.Option(help=VARIANTS_HELP)] = None,
    games: Annotated[int, typer.Option(help="Seeds a table (each pair plays each seat of a seed: a duel pair "
                                            "twice, sides swapped).")] = 10,
    seed: Annotated[int, typer.Option(help="Run seed (every pair plays the same seeds).")] = 0,
    workers: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    out: Annotated[Path, typer.Option(help="Folder for ladder.json, ladder.md and ladder.png.")] = Path("ladder"),
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON on stdout.")] = False,
) -> None:
    """A rating ladder: a round robin of bots on mirrored seeds in each mode and line-up, rated with
    OpenSkill (mu with a 95% interval), with win matrices and a plot."""
    try:
        from .bots.ladder import report, run_ladder, tables_for
    except ImportError as exc:  # pragma: no cover
        _fail(f"the ladder needs the dev extra (openskill, matplotlib): {exc}", 1)
    entrants = [b.strip() for b in bots.split(",") if b.strip()]
    mode_list = [m.strip() for m in modes.split(",") if m.strip()]
    for m in mode_list:
        _check_mode(m)
    if games < 1:
        _fail("--games must be at least 1")
    if workers < 1:
        _fail("--workers must be at least 1")
    chosen = [x.strip() for x in lineups.split(",") if x.strip()] if lineups else None
    by_mode: dict[str, list[str]] = {}
    for m in mode_list:
        default = LADDER_LINEUPS.get(m, "").split(",")
        fits = [x for x in (chosen if chosen is not None else default)
                if ("E" in x) == (m == "duel") and (x == "R") == (m == "solo")]
        if fits:
            by_mode[m] = fits
    if not by_mode:
        _fail("no table: give line-ups that fit the modes (E seats play only in a duel)")
    try:
        tables = tables_for(list(by_mode), by_mode, _variants(variants))
    except ValueError as exc:
        _fail(str(exc))
    if importlib_missing("openskill"):
        _fail("the ladder rates with openskill: pip install openskill==6.2.0 (the dev extra)", 1)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    err = Console(stderr=True)
    with Progress(TextColumn("[bold]Ladder"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True) as progress:
        task = progress.add_task("games", total=None)

        def tick(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        try:
            result = run_ladder(entrants, tables, games, seed=seed, workers=workers, progress=tick)
        except ValueError as exc:
            _fail(str(exc))
    paths = report(result, out)
    if as_json:
        typer.echo(json.dumps(result.to_json(), indent=2))
        return
    console = Console(highlight=False)
    table = Table(title=f"Ladder · {', '.join(t.label for t in tables)} · {games} seeds a table", title_style="bold")
    for col in ("rank", "entrant", "bot", "mu", "95% interval", "ordinal"):
        table.add_column(col, justify="right" if col in ("rank", "mu", "ordinal") else "left")
    from .bots import level_of
    for i, r in enumerate(sorted(result.ratings, key=lambda r: -r["mu"]), 1):
        table.add_row(str(i), str(r["entrant"]), level_of(str(r["entrant"])), f"{r['mu']:.2f}",
                      f"{r['low']:.2f} to {r['high']:.2f}", f"{r['ordinal']:.2f}")
    console.print(table)
    names = result.entrants
    matrix = Table(title="Wins-losses-draws of the row against the column (all tables)", title_style="bold")
    matrix.add_column("")
    for n in names:
        matrix.add_column(n, justify="right")
    for i, row in enumerate(result.matrix()):
        matrix.add_row(names[i], *("—" if i == j else f"{w}-{l}-{d}" for j, (w, l, d) in enumerate(row)))
    console.print(matrix)
    console.print(f"{len(result.matches)} rated results in {result.seconds:.0f} s; wrote "
                  + ", ".join(str(p) for p in paths))


def importlib_missing(name: str) -> bool:
    import importlib.util
    return importlib.util.find_spec(name) is None


# ---------------------------------------------------------------------------------------- entry
def main(argv: list[str] | None = None) -> None:
    """The console script: usage errors become one line on stderr and exit code 2."""
    from typer.main import get_command

    command = get_command(app)
    try:
        rv = command.main(args=argv, prog_name=PROG, standalone_mode=False)
    except typer.Abort:
        typer.echo("Aborted.", err=True)
        sys.exit(1)
    except Exception as exc:  # noqa: BLE001 - click's usage errors: one line, no traceback
        from typer import _click
        if isinstance(exc, _click.exceptions.ClickException):
            hint = ""
            ctx = getattr(exc, "ctx", None)
            if ctx is not None:
                hint = f" (see {ctx.command_path} --help)"
            typer.echo(f"Error: {exc.format_message()}{hint}", err=True)
            sys.exit(exc.exit_code)
        raise
    sys.exit(rv if isinstance(rv, int) else 0)


if __name__ == "__main__":  # pragma: no cover
    main()
