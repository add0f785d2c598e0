"""The tuner's study: one trial played as a lab grid (:func:`play_trial`) and its figures
(:func:`grid_figures`), the Optuna study that holds the trials (:func:`open_study`, resumed from
its storage), its first trials (:func:`warm_start`), every small set for an exhaustive search
(:func:`small_sets`) and the run that adds trials to it (:func:`run_study`)."""

from __future__ import annotations

import itertools
import json
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from ..engine.variants import BY_KEY, PRESETS
from .lab import run_lab
from .lab_backends import RunOptions
from .lab_grid import build_grid
from .lab_rows import code_fingerprint
from ..stats import wilson
from .report_stats import CellStats, load_stats, quantile
from .tune_config import TuneConfig, axis_text, cell_name, checked_tunable, variants_text
from .tune_targets import TARGETS, Targets, TuneError, band_figures

if TYPE_CHECKING:
    import optuna
    from optuna.trial import FrozenTrial

#: draws a wanted trial may take when the sampler keeps drawing variants already played
DUPLICATES = 10

#: the most sets an exhaustive search (``tune --exhaustive K``) plays: past it the space is refused,
#: to be narrowed with --space and --values (each set is a lab grid of its own)
EXHAUSTIVE_LIMIT = 2000


# ---------------------------------------------------------------------------------------- one trial
def _figures_of_cell(c: CellStats, name: str) -> dict[str, Any]:
    r = c.rounds_summary()
    a = c.actions_summary()
    first = c.first_evil_summary
    passes = c.pass_turn_figures
    share = c.habitual_share_of_evil_wins
    lo, hi = c.ci
    real_r, real_e = c.real_wins
    real_lo, real_hi = wilson(real_r, c.games)
    return {"name": name, "lineup": c.spec["lineup"], "cell": c.id, "games": c.games,
            "righteous_wins": c.righteous_wins, "win_rate": round(c.win_rate, 4), "ci95": [round(lo, 4), round(hi, 4)],
            "real_wins": {"righteous": real_r, "evil": real_e},
            "real_win_rate": round(real_r / c.games, 4) if c.games else 0.0,
            "real_ci95": [round(real_lo, 4), round(real_hi, 4)],
            "turn_cap_share": round(c.capped_share, 4), "round_limit_share": round(c.round_limit_share, 4),
            "rounds": {k: round(v, 2) for k, v in r.items()}, "actions": {k: round(v, 2) for k, v in a.items()},
            "first_evil_median": None if first is None else first["median"],
            "habitual_share_of_evil_wins": None if share is None else round(share, 4),
            "pass_only_share": None if passes is None else round(passes["share"], 4),
            "ended": dict(c.ended)}


def grid_figures(stats: Sequence[CellStats], names: Sequence[str], departures: int, objective: str = "band",
                 targets: Targets = TARGETS) -> dict[str, Any]:
    """A trial's figures: each cell's, the pooled ones, how the cells stand against their bands
    (:func:`band_figures`), and the four objectives (the first by ``objective``)."""
    cells = [_figures_of_cell(c, n) for c, n in zip(stats, names)]
    games = sum(c.games for c in stats)
    capped = sum(c.capped_share * c.games for c in stats)
    limited = sum(c.round_limit_share * c.games for c in stats)
    rounds = sorted(r for c in stats for r in c.rounds)
    bands = band_figures(cells, targets)
    first = bands["worst_outside_band"] if objective == "band" else bands["worst_from_50"]
    longest = max((c["rounds"]["median"] for c in cells), default=0.0)
    return {"cells": cells, "games": games, "turn_cap_share": round(capped / games, 4) if games else 0.0,
            "round_limit_share": round(limited / games, 4) if games else 0.0,
            "rounds": {"median": quantile(rounds, 0.5), "p90": quantile(rounds, 0.9)}, **bands,
            "objective": objective,
            "objectives": [first, round(capped / games, 4) if games else 1.0, longest, departures]}


@dataclass
class Played:
    """A trial's cells played on one seed: the lab's figures, and the trial's figures of them."""

    stats: list[CellStats]
    figures: dict[str, Any]
    games_played: int
    seconds: float


@dataclass(frozen=True)
class LabOptions:
    """Where the lab stores a study's games, and where and how it plays them (the lab's own
    :class:`~.lab.RunOptions`, checked there)."""

    db: Path
    run: RunOptions = field(default_factory=RunOptions)


def play_trial(config: TuneConfig, departures: Mapping[str, int | bool], lab: LabOptions, games: int, seed: int,
               progress: Callable[[int, int], None] | None = None) -> Played:
    """Play (or read back) the cells of ``config`` with ``departures`` (Settings key -> value) on run
    seed ``seed``: the cells already stored are not played again."""
    axes = dict(config.axes)
    for key, value in departures.items():
        axes[checked_tunable(key).alias] = [axis_text(value)]   # a card change is a lab axis too
    grid = build_grid("duel", config.lineups, axes, list(config.bots), games=games, seed=seed)
    run = run_lab(grid, lab.db, progress=progress, options=lab.run)
    stats = load_stats(lab.db, run.cell_ids, max_games=games)
    names = [cell_name(c.lineup, c.grid, c.bots, config.axes) for c in grid.cells]
    return Played(stats, grid_figures(stats, names, len(departures) + config.fixed_departures, config.objective,
                                      config.targets),
                  run.played, run.seconds)


def departures_of(config: TuneConfig, params: Mapping[str, Any]) -> dict[str, int | bool]:
    """A trial's params (alias -> value) as departures (Settings key -> value, printed ones left out)."""
    out: dict[str, int | bool] = {}
    for alias in config.choices:
        v = checked_tunable(alias)
        value = params[alias]
        if value != v.printed:
            out[v.key] = value
    return out


# ---------------------------------------------------------------------------------------- the study
def _storage_url(study: str | Path) -> str:
    text = str(study)
    if "://" in text:
        return text
    p = Path(text)
    if not p.parent.exists():
        raise TuneError(f"--study: the folder {p.parent} does not exist")
    if p.exists() and not p.is_file():
        raise TuneError(f"--study: {p} is not a file")
    return f"sqlite:///{p.resolve()}"


def open_study(config: TuneConfig, study: str | Path, name: str | None = None, population: int = 10) -> "optuna.Study":
    """The study in ``study`` (an Optuna SQLite file, or a database URL), created if need be; a
    :class:`TuneError` if the stored study of that name asks another question.

    Its NSGA-II sampler (``population`` trials a generation) is seeded from the tuning seed and
    the number of trials stored, so a resumed run goes on from where the study stands rather than
    drawing its first children again."""
    try:
        import optuna
        from optuna.samplers import NSGAIISampler
    except ImportError:
        raise TuneError("the tuner needs Optuna: pip install 'christianity-game[tune]'") from None

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    if population < 2:
        raise TuneError(f"--population must be at least 2, not {population}")
    url = _storage_url(study)
    try:
        storage = optuna.storages.RDBStorage(url, engine_kwargs={"connect_args": {"timeout": 60}}
                                             if url.startswith("sqlite") else None)
    except Exception as exc:  # noqa: BLE001 - SQLAlchemy's and Optuna's own errors
        raise TuneError(f"--study: cannot open {study} as an Optuna study storage ({exc})") from None
    study_name = name or config.default_study_name
    s = optuna.create_study(storage=storage, study_name=study_name, load_if_exists=True,
                            sampler=NSGAIISampler(population_size=population, seed=config.seed % 2**32),
                            directions=["minimize"] * len(config.objectives))
    if len(s.directions) != len(config.objectives):
        raise TuneError(f"the study {study_name!r} in {study} is not a tuner's study (it has "
                        f"{len(s.directions)} objectives)")
    stored_trials = len(s.get_trials(deepcopy=False))
    # a sampler seed of its own for each resumption (numpy takes seeds below 2**32 only)
    s.sampler = NSGAIISampler(population_size=population, seed=(config.seed * 1_000_003 + stored_trials) % 2**32)
    stored = s.user_attrs.get("config")
    if stored is None:
        s.set_user_attr("config", config.to_json())
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            s.set_metric_names(list(config.objectives))
    elif stored != config.to_json():
        asked = config.to_json()
        diff = [k for k in dict.fromkeys([*asked, *stored]) if stored.get(k) != asked.get(k)]
        # a study stored before real wins were the default counts the score's decisions as wins
        hint = " (a study made before the tuner counted real wins resumes with --wins scored)" \
            if "wins" in diff and "wins" not in stored else ""
        raise TuneError(f"the study {study_name!r} in {study} asks another question (it differs in "
                        f"{', '.join(diff)}): give the same options, or another --study-name{hint}")
    return s


def warm_start(config: TuneConfig) -> list[tuple[dict[str, Any], str]]:
    """The first trials of a new study: the printed rules, each variant alone at its suggested
    value, and each preset whose variants are all searched (params, and why it is tried)."""
    printed = {alias: checked_tunable(alias).printed for alias in config.choices}
    out: list[tuple[dict[str, Any], str]] = [(printed, "the printed rules")]
    for alias, tried in config.choices.items():
        v = checked_tunable(alias)
        value = v.suggested if v.suggested in tried else tried[1]
        out.append(({**printed, alias: value}, f"{alias} alone"))
    for preset, values in PRESETS.items():
        if not values:
            continue
        params = dict(printed)
        for key, value in values.items():
            alias = BY_KEY[key].alias
            if alias not in config.choices or value not in config.choices[alias]:
                break
            params[alias] = value
        else:
            out.append((params, f"preset {preset}"))
    return out


def small_sets(config: TuneConfig, most: int) -> list[dict[str, Any]]:
    """Every set of the search space (alias -> value) with at most ``most`` departures from the
    printed rules, fewest first: the printed rules, then each searched variant at each of its
    values, then each pair, and so on. The departures every trial plays (``tune --variants``,
    :attr:`TuneConfig.fixed_departures`) count towards ``most``, as they do in the fourth
    objective. Answers the question NSGA-II's draws only sample: which small sets come closest?"""
    searched = most - config.fixed_departures
    if searched < 0:
        raise TuneError(f"--exhaustive {most}: every trial already plays {config.fixed_departures} departure(s) "
                        f"(--variants or --set), more than {most}")
    printed = {alias: tried[0] for alias, tried in config.choices.items()}
    out: list[dict[str, Any]] = []
    for size in range(min(searched, len(printed)) + 1):
        for names in itertools.combinations(printed, size):
            for values in itertools.product(*(config.choices[alias][1:] for alias in names)):
                out.append({**printed, **dict(zip(names, values))})
                if len(out) > EXHAUSTIVE_LIMIT:
                    raise TuneError(f"--exhaustive {most}: the search space holds more than {EXHAUSTIVE_LIMIT} sets "
                                    f"of at most {most} departures; narrow it with --space and --values")
    return out


def frozen_params(params: Mapping[str, Any]) -> str:
    return json.dumps(dict(params), sort_keys=True)


def complete_trials(study: "optuna.Study") -> list["FrozenTrial"]:
    from optuna.trial import TrialState
    return [t for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)) if t.values is not None]


@dataclass
class TuneProgress:
    """What a tuning run tells its caller as it goes (the command line draws a progress bar)."""

    trial_started: Callable[[int, int, str], None] | None = None   # (trials done, trials wanted, what is tried)
    games: Callable[[int, int], None] | None = None                # (games done, games) of the current grid
    trial_done: Callable[[int, int, "FrozenTrial"], None] | None = None


def run_study(config: TuneConfig, study: "optuna.Study", lab: LabOptions, trials: int, warm: bool = True,
              progress: TuneProgress | None = None, exhaustive: int | None = None) -> int:
    """Add trials to ``study`` until it holds ``trials`` complete ones (those stored count: a rerun
    resumes). A trial that failed or was interrupted is tried again first. A trial the sampler
    draws with the variants of a complete one is pruned (it would only read the same games back)
    and another is drawn, up to :data:`DUPLICATES` a trial wanted. Returns how many trials this
    call completed.

    With ``exhaustive`` = K, the sampler draws nothing: every set of at most K departures
    (:func:`small_sets`) that the study does not hold yet is queued and played, ``trials`` and the
    warm start aside (the printed rules and each variant alone are among the sets)."""
    import optuna
    from optuna.study import MaxTrialsCallback
    from optuna.trial import TrialState

    if trials < 1:
        raise TuneError(f"--trials must be at least 1, not {trials}")
    progress = progress or TuneProgress()
    every = study.get_trials(deepcopy=False)
    if not every and warm and exhaustive is None:
        for params, why in warm_start(config):
            study.enqueue_trial(params, user_attrs={"warm_start": why})
    pending = {frozen_params(t.params) for t in every if t.state in (TrialState.COMPLETE, TrialState.WAITING)}
    for t in every:
        if t.state == TrialState.FAIL and t.params and frozen_params(t.params) not in pending:
            study.enqueue_trial(dict(t.params), user_attrs={"retry_of": t.number})
            pending.add(frozen_params(t.params))
    done = len(complete_trials(study))
    if exhaustive is not None:
        for params in small_sets(config, exhaustive):
            if frozen_params(params) not in pending:
                study.enqueue_trial(params, user_attrs={"exhaustive": exhaustive})
                pending.add(frozen_params(params))
        # everything queued (the sets, and the retries above) and nothing the sampler would draw
        trials = done + len(study.get_trials(deepcopy=False, states=(TrialState.WAITING,)))
    todo = trials - done
    if todo <= 0:
        return 0
    finished = [0]
    seen: dict[str, int] = {}   # the variants of every complete trial -> its number

    def objective(trial: "optuna.Trial") -> tuple[float, ...]:
        # NSGA-II gives a trial its generation when it samples it; a trial with fixed params (the warm
        # start, a retry) is not sampled, so ask for its generation here: the warm start is then the
        # first generation, the parents of the next, rather than a side-line the sampler never sees
        _ = trial.relative_params
        params = {alias: trial.suggest_categorical(alias, tried) for alias, tried in config.choices.items()}
        twin = seen.get(frozen_params(params))
        if twin is not None:
            trial.set_user_attr("duplicate_of", twin)
            raise optuna.TrialPruned(f"the variants of trial {twin}")
        dep = departures_of(config, params)
        trial.set_user_attr("variants", variants_text(dep))
        if progress.trial_started is not None:
            progress.trial_started(done + finished[0], trials, f"trial {trial.number}: {variants_text(dep)}")
        played = play_trial(config, dep, lab, config.games, config.seed, progress.games)
        trial.set_user_attr("figures", played.figures)
        trial.set_user_attr("games_played", played.games_played)
        trial.set_user_attr("seconds", round(played.seconds, 2))
        trial.set_user_attr("code", code_fingerprint())
        return tuple(float(x) for x in played.figures["objectives"])

    def after(s: "optuna.Study", t: "FrozenTrial") -> None:
        if t.state == TrialState.COMPLETE:
            seen.setdefault(frozen_params(t.params), t.number)
            finished[0] += 1
            if progress.trial_done is not None:
                progress.trial_done(done + finished[0], trials, t)

    with lab.run.session(), warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        for _ in range(DUPLICATES * todo):
            left = trials - len(complete_trials(study))
            if left <= 0:
                break
            for t in complete_trials(study):   # another machine's trials too
                seen.setdefault(frozen_params(t.params), t.number)
            study.optimize(objective, n_trials=left, callbacks=[after, MaxTrialsCallback(trials)],
                           gc_after_trial=False)
    return finished[0]


def default_lab_db(study: str | Path) -> Path:
    """The lab database a study's games go to unless told: beside the study file (``tune.sqlite`` ->
    ``tune-lab.sqlite``), or ``tune-lab.sqlite`` here for a database URL."""
    text = str(study)
    if "://" in text:
        return Path("tune-lab.sqlite")
    p = Path(text)
    return p.with_name(f"{p.stem}-lab.sqlite")
