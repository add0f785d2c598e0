"""The balance lab's commands: ``lab`` (a grid of bot games into SQLite, and its report) and ``tune``
(the tuner's study over the play-test variants, confirmed on fresh seeds)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..engine.settings import Settings
from .options import PROG, VARIANTS_HELP, fail, variants_or_fail

if TYPE_CHECKING:
    from ..sim.lab import RunOptions


def _grid_axes(pairs: list[str] | None, variants: str | None) -> dict[str, list[str]]:
    """A lab grid's (or the tuner's) axes: each ``--set`` with its values, and each variant
    ``--variants`` names as one value on every cell (``--set`` wins where both name one).
    Raises the lab's ``LabError`` for a bad ``--set``."""
    from ..engine.variants import BY_KEY
    from ..sim.lab import parse_axes
    axes = parse_axes(pairs)
    named = {Settings.ALIASES.get(k, k) for k in axes}
    for key, value in variants_or_fail(variants).items():
        if key not in named:
            axes[BY_KEY[key].alias] = [str(int(value))]
    return axes


def _run_options(backend: str, workers: int | None, address: str | None, chunk: int) -> RunOptions:
    """``--backend``, ``--workers``, ``--address`` and ``--chunk`` of ``lab`` and ``tune``, checked by
    the lab (:class:`~.sim.lab.RunOptions`); a clear error otherwise."""
    from ..sim.lab import LabError, RunOptions
    try:
        return RunOptions(backend, workers, address, chunk)
    except LabError as exc:
        fail(str(exc))


# ---------------------------------------------------------------------------------------- lab
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
    from ..sim.lab import LabError, LabInterrupted, build_grid, run_lab, stale_cells, connect
    options = _run_options(backend, workers, address, chunk)
    if games < 1:
        fail("--games must be at least 1")
    try:
        grid = build_grid(mode, lineup, _grid_axes(set_, variants), bots or ["heuristic"], games=games, seed=seed)
    except LabError as exc:
        fail(str(exc))
    if not out.parent.exists():
        fail(f"--out: the folder {out.parent} does not exist")
    if out.exists() and not out.is_file():
        fail(f"--out: {out} is not a file")
    if report is not None and report.exists() and not report.is_dir():
        fail(f"--report: {report} is not a folder")
    import sqlite3
    err = Console(stderr=True, highlight=False)
    try:
        conn = connect(out)
        stale = stale_cells(conn, grid.cells)
        conn.close()
    except sqlite3.DatabaseError as exc:
        fail(f"--out: {out} is not a lab database ({exc})")
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
            fail(str(exc))
    err.print(Text(f"{result.played} games played in {result.seconds:.1f} s "
                   f"({result.games_per_second:,.1f} games/s, {result.workers} worker(s), {backend})"
                   + (f"; {result.skipped} were already stored" if result.skipped else "")
                   + f". Results: {out}", style="green"))

    from ..sim.report import load_stats, write_report
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
    wins: Annotated[str, typer.Option(
        help="How a cell's Righteous wins are counted against its band: real (the clean-round win only; a game "
             "decided on the score at the safety cap or the round limit counts for neither side) or scored (those "
             "score decisions counted, as studies made before real wins were).")] = "real",
    population: Annotated[int, typer.Option(help="NSGA-II: trials a generation.")] = 10,
    warm_start: Annotated[bool, typer.Option(
        help="A new study starts with the printed rules, each variant alone and the presets.")] = True,
    exhaustive: Annotated[Optional[int], typer.Option(
        help="Play every set of at most this many departures from the search space instead of NSGA-II's draws "
             "(--trials and the warm start are then not used; narrow the space with --space and --values).")]
        = None,
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
    from ..sim.lab import LabError, LabInterrupted
    from ..sim.tune import (CONFIRM_MODES, LabOptions, TuneError, TuneProgress, confirm as confirm_trials,
                           default_lab_db, make_config, open_study, pick_candidates, run_study, small_sets,
                           trial_bands, write_tune_report)
    if trials < 1:
        fail(f"--trials must be at least 1, not {trials}")
    if games < 1:
        fail("--games must be at least 1")
    if seed < 0:
        fail("--seed must be 0 or more")
    confirm_seed = seed + 1000 if confirm_seed is None else confirm_seed
    confirm_games = games if confirm_games is None else confirm_games
    if confirm_seed < 0 or confirm_seed == seed:
        fail(f"--confirm-seed must be 0 or more and differ from --seed {seed} (fresh deals), not {confirm_seed}")
    if confirm_games < 1:
        fail("--confirm-games must be at least 1")
    if confirm not in CONFIRM_MODES:
        fail(f"--confirm must be one of {', '.join(CONFIRM_MODES)}, not {confirm!r}")
    if confirm_top < 1:
        fail("--confirm-top must be at least 1")
    if exhaustive is not None and exhaustive < 0:
        fail(f"--exhaustive must be 0 or more departures, not {exhaustive}")
    options = _run_options(backend, workers, address, chunk)
    if out.exists() and not out.is_dir():
        fail(f"--out: {out} is not a folder")
    db = lab_db or default_lab_db(study)
    if not db.parent.exists():
        fail(f"--lab: the folder {db.parent} does not exist")
    try:
        config = make_config(lineup, _grid_axes(set_, variants), bots or ["heuristic"], games=games, seed=seed,
                             space=None if space is None else [p for p in space.split(",") if p.strip()],
                             values=values, objective=objective, bands=band, wins=wins)
        if exhaustive is not None:
            # refused here, before a study is made; run_study queues the sets and counts what is left
            trials = len(small_sets(config, exhaustive))
        the_study = open_study(config, study, study_name, population)
    except (TuneError, LabError) as exc:
        fail(str(exc))

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
            ran = run_study(config, the_study, lab_options, trials, warm=warm_start, progress=hooks,
                            exhaustive=exhaustive)
            chosen, how = pick_candidates(the_study, confirm, confirm_top, config.targets, config.objective)
            progress.update(bar, completed=0, total=max(1, len(chosen)), description="confirming")
            candidates = confirm_trials(config, the_study, lab_options, confirm_seed, confirm_games, chosen, hooks)
        except (LabInterrupted, KeyboardInterrupt) as exc:
            progress.stop()
            err.print(Text(f"Stopped ({exc or 'interrupted'}). The trials done are stored in {study} and the games in "
                           f"{db}; run the same command again to resume.", style="yellow"))
            raise typer.Exit(130)
        except (TuneError, LabError) as exc:
            fail(str(exc))
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

