"""The commands that play many bot games and sum them up: ``simulate`` (a batch of one table) and
``ladder`` (a rating ladder of bots)."""

from __future__ import annotations

import json
import traceback
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.table import Table

from .options import (DEFAULT_LINEUPS, VARIANTS_HELP, bot_or_fail, check_mode, fail, scenario_or_fail,
                      settings_or_fail, variants_or_fail)

DUEL_SIM_TURN_CAP = 200   # simulate's default turn cap for duels (--set maxTurns=N changes it)


# ---------------------------------------------------------------------------------------- simulate
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
        preset = scenario_or_fail(scenario)
        mode, lineup = preset.mode, preset.lineup
    check_mode(mode)
    lineup = lineup or DEFAULT_LINEUPS.get(mode, "RR")
    settings = settings_or_fail(set_, variants)
    if mode == "duel" and not settings.max_turns:
        settings = settings.updated({"max_turns": DUEL_SIM_TURN_CAP})   # a duel has no round limit
    if games < 1:
        fail("--games must be at least 1")
    from ..engine.game import Game
    try:
        Game.new(mode=mode, lineup=lineup, seed=seed, settings=settings)
    except ValueError as exc:
        fail(str(exc))
    levels = [b.strip() for b in bots.split(",") if b.strip()]
    if not levels:
        fail("--bots needs a bot level: easy, normal, hard, heuristic, random, search:50ms or mcts:200ms")
    if len(levels) not in (1, len(lineup)):
        fail(f"--bots takes one level for every seat or one a seat ({len(lineup)}), not {len(levels)}")
    for level in levels:
        bot_or_fail(level, 0, None)
    bots_arg: str | list[str] = levels[0] if len(levels) == 1 else levels
    try:
        from ..sim import simulate as run_simulation
    except ImportError:
        fail("the sim package is not available", 1)

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
            fail(str(exc))
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


# ---------------------------------------------------------------------------------------- ladder
LADDER_LINEUPS = {"duel": "ER,EER,ERR", "coop": "RR,RRR", "solo": "R"}


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
    out: Annotated[Path, typer.Option(help="Folder for ladder.json, ladder.md, ladder.png and the game log "
                                           "games.jsonl, which a later run resumes from.")] = Path("ladder"),
    fresh: Annotated[bool, typer.Option("--fresh", help="Play every game again: empty the game log of --out "
                                                        "first.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON on stdout.")] = False,
) -> None:
    """A rating ladder: a round robin of bots on mirrored seeds in each mode and line-up, rated with
    OpenSkill (mu with a 95% interval), with win matrices and a plot. Each game is written to the
    game log as it ends; a run takes the games the log already holds (the same table, deal and
    entrants) from it, so a stopped ladder resumes and a larger --games plays only the new deals."""
    try:
        from ..bots.ladder import LadderGameFailed, run_ladder, tables_for
        from ..bots.ladder_report import report
    except ImportError as exc:  # pragma: no cover
        fail(f"the ladder needs the dev extra (openskill, choix, matplotlib): {exc}", 1)
    entrants = [b.strip() for b in bots.split(",") if b.strip()]
    mode_list = [m.strip() for m in modes.split(",") if m.strip()]
    for m in mode_list:
        check_mode(m)
    if games < 1:
        fail("--games must be at least 1")
    if workers < 1:
        fail("--workers must be at least 1")
    chosen = [x.strip() for x in lineups.split(",") if x.strip()] if lineups else None
    by_mode: dict[str, list[str]] = {}
    for m in mode_list:
        default = LADDER_LINEUPS.get(m, "").split(",")
        fits = [x for x in (chosen if chosen is not None else default)
                if ("E" in x) == (m == "duel") and (x == "R") == (m == "solo")]
        if fits:
            by_mode[m] = fits
    if not by_mode:
        fail("no table: give line-ups that fit the modes (E seats play only in a duel)")
    try:
        tables = tables_for(list(by_mode), by_mode, variants_or_fail(variants))
    except ValueError as exc:
        fail(str(exc))
    for package, pin in (("openskill", "openskill==6.2.0"), ("choix", "choix==0.4.1")):
        if importlib_missing(package):
            fail(f"the ladder rates with {package}: pip install {pin} (the dev extra)", 1)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    log = out / "games.jsonl"
    if fresh and log.exists():
        log.unlink()
    err = Console(stderr=True)
    with Progress(TextColumn("[bold]Ladder"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True) as progress:
        task = progress.add_task("games", total=None)

        def tick(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        try:
            result = run_ladder(entrants, tables, games, seed=seed, workers=workers, progress=tick, log=log)
        except ValueError as exc:
            fail(str(exc))
        except LadderGameFailed as exc:   # a bug, not bad input: the traceback, then what was kept
            if exc.__cause__ is not None:
                typer.echo("".join(traceback.format_exception(exc.__cause__)), err=True)
            fail(f"the ladder stopped: {exc}. The games played are in {log}; a rerun resumes from it", 1)
        except KeyboardInterrupt:   # Ctrl-C: every game that ended is in the log already
            progress.stop()
            err.print(f"Stopped (interrupted). The games played are in {log}; run the same command again "
                      "to resume.", style="yellow", highlight=False)
            raise typer.Exit(130) from None
    paths = report(result, out)
    if as_json:
        typer.echo(json.dumps(result.to_json(), indent=2))
        return
    console = Console(highlight=False)
    table = Table(title=f"Ladder · {', '.join(t.label for t in tables)} · {games} seeds a table", title_style="bold")
    for col in ("rank", "entrant", "bot", "mu", "95% interval", "ordinal"):
        table.add_column(col, justify="right" if col in ("rank", "mu", "ordinal") else "left")
    from ..bots import level_of
    for i, r in enumerate(sorted(result.ratings, key=lambda r: -r["mu"]), 1):
        table.add_row(str(i), str(r["entrant"]), level_of(str(r["entrant"])), f"{r['mu']:.2f}",
                      f"{r['low']:.2f} to {r['high']:.2f}", f"{r['ordinal']:.2f}")
    console.print(table)
    if result.strengths:
        bt = Table(title="Bradley-Terry strengths (Elo points, mean 0; 95% bootstrap intervals over the deals)",
                   title_style="bold")
        for col in ("entrant", "Elo", "95% interval", "gap over the next", "gap's interval"):
            bt.add_column(col, justify="left" if col == "entrant" else "right")
        for r in result.strengths:
            bt.add_row(str(r["entrant"]), f"{r['elo']:+.0f}",
                       f"{r['low']:+.0f} to {r['high']:+.0f}" if "low" in r else "—",
                       f"{r['gap']:+.0f} over {r['over']}" if "gap" in r else "—",
                       f"{r['gap_low']:+.0f} to {r['gap_high']:+.0f}" if "gap_low" in r else "—")
        console.print(bt)
    names = result.entrants
    matrix = Table(title="Wins-losses-draws of the row against the column (all tables)", title_style="bold")
    matrix.add_column("")
    for n in names:
        matrix.add_column(n, justify="right")
    for i, row in enumerate(result.matrix()):
        matrix.add_row(names[i], *("—" if i == j else f"{w}-{l}-{d}" for j, (w, l, d) in enumerate(row)))
    console.print(matrix)
    taken = f" ({result.resumed} games taken from {log})" if result.resumed else ""
    console.print(f"{len(result.matches)} rated results in {result.seconds:.0f} s{taken}; wrote "
                  + ", ".join(str(p) for p in paths))


def importlib_missing(name: str) -> bool:
    import importlib.util
    return importlib.util.find_spec(name) is None
