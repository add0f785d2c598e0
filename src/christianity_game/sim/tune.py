"""The tuner (``christianity-game tune``): the smallest departure from the printed rules that makes
every chosen cell of the duel a contest.

It searches the play-test variants (:data:`~christianity_game.engine.variants.VARIANTS`, each at
its printed value or at a value of its range) with a multi-objective Optuna study (NSGA-II,
seeded). Every objective is minimised:

1. the worst distance of the Righteous win rate outside its cell's band over the cells (0 for a
   cell inside its band; the bands by line-up, :data:`BANDS`: ER 40-60 %, EER and ERR 30-70 %,
   ``tune --band`` replaces one; cells: line-ups x the ``--set`` axes, Evil Interrupt on and off
   say, x bot pairings), or with ``--objective from-50`` the worst distance from 50 % (the first
   tuner's objective, kept so its studies resume and compare);
2. the share of games the lab's safety turn cap ended (a game the printed duel never decides);
3. the median duel length in rounds (of the longest cell: every cell must be short, not their mix);
4. the number of departures (variants not at their printed value).

A *trial* is one set of variant values; it plays one lab grid (:func:`~.lab.build_grid`,
:func:`~.lab.run_lab`, on the process pool or a Ray cluster as the lab's
:class:`~.lab.RunOptions` say; a study holds one Ray session, :meth:`~.lab.RunOptions.session`)
into one lab SQLite file, so a cell that another trial already played (same settings, seed and
bots) is never played again. The
study lives in Optuna's storage (a SQLite file, or any database URL Optuna takes), so a run
resumes where it stopped and several machines can add trials to one study.

The best few trials are then played again on fresh *confirmation* seeds (another run seed): an
answer that holds only on the deals it was tuned on is not an answer. The report
(:func:`write_tune_report`: HTML, Markdown, JSON and PNG plots) shows tuning and confirmation side
by side, against the designers' targets (:data:`TARGETS`).
"""

from __future__ import annotations

import hashlib
import importlib.util
import html
import json
import math
import statistics
import time
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from ..cards.params import CardParam, card_params, changes_sentence, find_card_param
from ..engine.settings import Settings
from ..engine.variants import BY_ALIAS, BY_KEY, PRESETS, VARIANTS, Variant, parse_variants, table_plays
from .lab import RunOptions, build_grid, code_fingerprint, run_lab
from .report import html_table, md_table
from .report_stats import CellStats, load_stats, quantile

if TYPE_CHECKING:
    import optuna
    from optuna.trial import FrozenTrial

#: the first objective, by its ``--objective`` name: the worst distance of Righteous wins outside each
#: cell's band (the default), or from 50 % (the first tuner's; its studies resume with it)
FIRST_OBJECTIVES = {"band": "worst distance outside the band", "from-50": "worst distance from 50 %"}
#: the other objectives, in the order Optuna holds them after the first (all minimised)
OTHER_OBJECTIVES = ("safety-cap share", "median rounds (longest cell)", "departures")
#: the objectives of a study with the default first objective
OBJECTIVES = (FIRST_OBJECTIVES["band"], *OTHER_OBJECTIVES)
#: a wide int range is searched on these multiples of the variant's suggested value
SPREAD = (0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0)
#: an int range this narrow is searched value by value
NARROW = 12
CONFIRM_MODES = ("top", "front")
#: draws a wanted trial may take when the sampler keeps drawing variants already played
DUPLICATES = 10


class TuneError(ValueError):
    """A tuning run that cannot start (a bad option, or a study that holds another question)."""


# ---------------------------------------------------------------------------------------- targets
#: The band of Righteous wins a cell must fall in, by line-up (the designers' targets): as many seats a
#: side (ER) 40-60 %, one side outnumbered (EER, ERR) 30-70 %. A line-up is named by its seats (EER
#: and ERE are one line-up here); ``tune --band ER=45-55`` replaces a band or adds one for another
#: line-up (EERR).
BANDS: dict[str, tuple[float, float]] = {"ER": (0.40, 0.60), "EER": (0.30, 0.70), "ERR": (0.30, 0.70)}


def band_key(lineup: str) -> str:
    """The line-up a band is declared for: its Evil seats, then its Righteous ones (ERE -> EER)."""
    lineup = lineup.strip().upper()
    return "E" * lineup.count("E") + "R" * lineup.count("R")


def parse_bands(text: str | None) -> dict[str, tuple[float, float]]:
    """``ER=40-60,EER=30-70`` (Righteous wins in per cent, by line-up) as bands by line-up
    (fractions), the :data:`BANDS` of the line-ups it does not name kept; a :class:`TuneError`
    that names the bad item otherwise."""
    out = dict(BANDS)
    given: set[str] = set()
    for item in (p.strip() for p in (text or "").split(",")):
        if not item:
            continue
        name, sep, span = item.partition("=")
        low, dash, high = span.partition("-")
        key = band_key(name)
        if not sep or not dash or not name.strip() or any(ch not in "ER" for ch in name.strip().upper()) \
                or "E" not in key or "R" not in key:
            raise TuneError(f"--band takes line-up=low-high in per cent, comma-separated (for example "
                            f"ER=40-60,EER=30-70), not {item!r}")
        try:
            lo, hi = float(low), float(high)
        except ValueError:
            raise TuneError(f"--band {item}: low and high are per cents (for example ER=40-60)") from None
        if not 0 <= lo <= hi <= 100:
            raise TuneError(f"--band {item}: give 0 <= low <= high <= 100")
        if key in given:
            raise TuneError(f"--band names the line-up {key} twice")
        given.add(key)
        out[key] = (round(lo / 100, 4), round(hi / 100, 4))
    return out


def _pp(x: float) -> str:
    """A share as whole per cents where it is one (40), else to a tenth (42.5)."""
    v = 100 * x
    return f"{v:.0f}" if abs(v - round(v)) < 1e-9 else f"{v:.1f}"


def bands_text(bands: Mapping[str, tuple[float, float]]) -> str:
    """Bands as ``--band`` takes them: ``ER=40-60,EER=30-70,ERR=30-70``."""
    return ",".join(f"{k}={_pp(lo)}-{_pp(hi)}" for k, (lo, hi) in bands.items())


@dataclass(frozen=True)
class Targets:
    """What the designers asked of a duel table: a contest in every cell, short games,
    a first Evil turn that does not keep the table waiting, and the Evil Habitual win alive."""

    # Righteous wins, by line-up (:data:`BANDS`)
    bands: Mapping[str, tuple[float, float]] = field(default_factory=lambda: dict(BANDS))
    cap_share: float = 0.02                           # games at the safety turn cap: below this
    median_rounds: float = 25                         # rounds: median of every cell at most
    p90_rounds: float = 40                            # rounds: 90th percentile of every cell at most
    first_evil_median: float = 25                     # decisions of the first Evil turn: median at most
    habitual_share: float = 0.2                       # the Habitual win's share of Evil's wins: at least
    departures: int = 3                               # departures from the printed rules: at most

    def band(self, lineup: str) -> tuple[float, float]:
        """The Righteous win band a line-up must fall in; a :class:`TuneError` for a line-up with none."""
        found = self.bands.get(band_key(lineup))
        if found is None:
            raise TuneError(f"no band of Righteous wins for the line-up {band_key(lineup)} (bands: "
                            f"{bands_text(self.bands)}): give one with --band {band_key(lineup)}=LOW-HIGH")
        return found

    def outside(self, cell: Mapping[str, Any]) -> float:
        """How far a cell's Righteous wins (``win_rate``) lie outside its line-up's band (0 inside)."""
        lo, hi = self.band(cell["lineup"])
        return float(max(lo - cell["win_rate"], cell["win_rate"] - hi, 0.0))


TARGETS = Targets()


@dataclass(frozen=True)
class TargetCheck:
    """One target against one set of figures: met or not, the worst value, and by how much it misses."""

    name: str
    met: bool
    value: str
    miss: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"target": self.name, "met": self.met, "value": self.value, "miss": self.miss}


def check_targets(figures: Mapping[str, Any], departures: int, targets: Targets = TARGETS) -> list[TargetCheck]:
    """Each target against the figures of a trial's cells (:func:`grid_figures`)."""
    cells = figures["cells"]
    out: list[TargetCheck] = []
    outside = targets.outside
    worst = max(cells, key=lambda c: (outside(c), abs(c["win_rate"] - 0.5)))
    out_of_band = sum(1 for c in cells if outside(c) > 0)
    lo, hi = targets.band(worst["lineup"])
    out.append(TargetCheck("Righteous wins in the band of every cell", not out_of_band,
                           f"{worst['name']} {100 * worst['win_rate']:.1f} % (band {100 * lo:.0f}–{100 * hi:.0f} %)",
                           f"{out_of_band} of {len(cells)} cells out, worst by {100 * outside(worst):.1f} pp"
                           if out_of_band else ""))
    cap = figures["turn_cap_share"]
    out.append(TargetCheck(f"safety cap < {100 * targets.cap_share:.0f} %", cap < targets.cap_share, f"{100 * cap:.1f} %",
                           "" if cap < targets.cap_share else f"+{100 * (cap - targets.cap_share):.1f} pp"))
    for key, limit, name in (("median", targets.median_rounds, "median rounds"), ("p90", targets.p90_rounds, "p90 rounds")):
        top = max(cells, key=lambda c: c["rounds"][key])
        v = top["rounds"][key]
        out.append(TargetCheck(f"{name} ≤ {limit:.0f} in every cell", v <= limit, f"longest {top['name']} {v:.0f}",
                               "" if v <= limit else f"+{v - limit:.0f} rounds"))
    name = f"Evil's first turn ≤ {targets.first_evil_median:.0f} decisions (median)"
    firsts = [c for c in cells if c["first_evil_median"] is not None]
    if firsts:
        top = max(firsts, key=lambda c: c["first_evil_median"])
        v = top["first_evil_median"]
        out.append(TargetCheck(name, v <= targets.first_evil_median, f"longest {top['name']} {v:.0f}",
                               "" if v <= targets.first_evil_median else f"+{v - targets.first_evil_median:.0f}"))
    else:
        out.append(TargetCheck(name, True, "not measured"))
    name = f"Habitual win ≥ {100 * targets.habitual_share:.0f} % of Evil's wins"
    shares = [c for c in cells if c["habitual_share_of_evil_wins"] is not None]
    if shares:
        low = min(shares, key=lambda c: c["habitual_share_of_evil_wins"])
        v = low["habitual_share_of_evil_wins"]
        out.append(TargetCheck(name, v >= targets.habitual_share, f"lowest {low['name']} {100 * v:.0f} %",
                               "" if v >= targets.habitual_share else f"−{100 * (targets.habitual_share - v):.0f} pp"))
    else:
        out.append(TargetCheck(name, True, "no Evil win"))
    out.append(TargetCheck(f"≤ {targets.departures} departures", departures <= targets.departures, str(departures),
                           "" if departures <= targets.departures else f"+{departures - targets.departures}"))
    return out


# ---------------------------------------------------------------------------------------- the question
#: what the tuner searches: a play-test variant, or a card parameter of the duel Evil deck
Tunable = Variant | CardParam


def tunable(name: str) -> Tunable | None:
    """The variant (by alias or Settings key) or card parameter (``copies.the-broad-way``) called
    ``name``; None for neither. A card parameter's key and alias are both its name."""
    name = name.strip()
    return BY_ALIAS.get(name) or BY_KEY.get(name) or find_card_param(name)


def _tunable(name: str) -> Tunable:
    found = tunable(name)
    assert found is not None, name   # names reach here checked by make_config
    return found


def _split_departures(departures: Mapping[str, int | bool]) -> tuple[dict[str, int | bool], dict[str, int]]:
    """A trial's departures as (variants: Settings key -> value, card changes: name -> value)."""
    variants = {k: v for k, v in departures.items() if k in BY_KEY}
    cards = {k: int(v) for k, v in departures.items() if k not in BY_KEY}
    return variants, cards


def variant_choices(v: Tunable) -> list[int | bool]:
    """The values the tuner tries for ``v``: the printed value first, then values of its range (every
    value of a narrow range; multiples of the suggested value in a wide one)."""
    if v.kind == "bool":
        return [bool(v.printed), not v.printed]
    if v.high - v.low + 1 <= NARROW:
        values = list(range(v.low, v.high + 1))
    else:
        values = sorted({min(v.high, max(v.low, int(int(v.suggested) * f + 0.5))) for f in SPREAD})
    return [v.printed, *(x for x in values if x != v.printed)]


def _value_text(value: int | bool) -> str:
    """A variant value as ``--variants`` takes it."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _axis_text(value: int | bool) -> str:
    """A variant value as a lab ``--set`` axis takes it."""
    return str(int(value))


def variants_text(values: Mapping[str, int | bool]) -> str:
    """Departures (Settings key -> value) as a ``--variants`` string (``rewardCap=2,evilHabituals=5``),
    in the registry's order, then any card changes (``copies.the-broad-way=2``, in the deck's
    order); "printed" for none."""
    parts = [f"{v.alias}={_value_text(values[v.key])}" for v in VARIANTS if v.key in values]
    parts += [f"{p.key}={int(values[p.key])}" for p in card_params() if p.key in values]
    return ",".join(parts) or "printed"


@dataclass(frozen=True)
class TuneConfig:
    """What a study asks: the cells (line-ups x axes x bots), games a cell and the tuning seed,
    and the search space (variant alias -> the values tried), the first objective (``band`` or
    ``from-50``, :data:`FIRST_OBJECTIVES`) and the bands of its line-ups. Two runs share a study
    only if they ask the same (:meth:`fingerprint`)."""

    lineups: tuple[str, ...]
    axes: dict[str, list[str]]
    bots: tuple[str, ...]
    games: int
    seed: int
    choices: dict[str, list[int | bool]]   # alias -> values, the printed one first
    objective: str = "band"
    bands: dict[str, tuple[float, float]] = field(default_factory=lambda: dict(BANDS))   # of its line-ups

    def to_json(self) -> dict[str, Any]:
        out = {"mode": "duel", "lineups": list(self.lineups), "axes": self.axes, "bots": list(self.bots),
               "games": self.games, "seed": self.seed, "space": {a: list(v) for a, v in self.choices.items()}}
        if self.objective != "from-50":   # a from-50 study asks what the first tuner's studies asked
            out["objective"] = self.objective
            out["bands"] = {k: list(v) for k, v in self.bands.items()}
        return out

    @property
    def fixed_departures(self) -> int:
        """Departures every trial plays: a variant or card parameter the axes set to one value other
        than its printed one (``tune --variants``, or ``--set`` with one value). They count in each
        trial's departures (the fourth objective), as the searched ones do."""
        count = 0
        for name, values in self.axes.items():
            v = tunable(name)
            if v is None or len(values) != 1:
                continue
            try:
                value = v.parse(values[0]) if isinstance(v, CardParam) else \
                    parse_variants(f"{v.alias}={values[0]}")[v.key]
            except ValueError:
                continue
            count += value != v.printed
        return count

    @property
    def targets(self) -> Targets:
        """The designers' targets with this study's bands."""
        return Targets(bands=dict(self.bands))

    @property
    def objectives(self) -> tuple[str, ...]:
        """The names of the study's objectives, in Optuna's order."""
        return (FIRST_OBJECTIVES[self.objective], *OTHER_OBJECTIVES)

    def fingerprint(self) -> str:
        return hashlib.sha1(json.dumps(self.to_json(), sort_keys=True).encode()).hexdigest()[:10]

    @property
    def default_study_name(self) -> str:
        return f"tune-{self.fingerprint()}"

    def cell_names(self, games: int | None = None, seed: int | None = None) -> list[str]:
        """The cells' names (line-up · axes · bots), in the grid's order."""
        grid = build_grid("duel", self.lineups, self.axes, self.bots, games=games or self.games,
                          seed=self.seed if seed is None else seed)
        return [_cell_name(c.lineup, c.grid, c.bots, self.axes) for c in grid.cells]


def _cell_name(lineup: str, grid: Mapping[str, str], bots: Sequence[str], axes: Mapping[str, list[str]]) -> str:
    return " · ".join([lineup, *(f"{k}={grid[k]}" for k in axes if k in grid), ",".join(bots)])


def make_config(lineups: str | Sequence[str] = ("ER",), axes: Mapping[str, list[str]] | None = None,
                bots: Sequence[str] = ("heuristic",), games: int = 60, seed: int = 0,
                space: Sequence[str] | None = None, values: Sequence[str] | None = None,
                objective: str = "band", bands: str | Mapping[str, tuple[float, float]] | None = None) -> TuneConfig:
    """Check the tuner's options and return what the study asks; a clear :class:`TuneError` (or
    :class:`~.lab.LabError` for a bad grid) otherwise.

    ``space``: the variant aliases to search (default every variant the axes do not set).
    ``values``: ``alias=v1,v2,...`` items that replace a variant's tried values (its printed value
    is always tried). ``objective``: the first objective (:data:`FIRST_OBJECTIVES`). ``bands``:
    ``--band`` text (``ER=40-60,EER=30-70``) or bands by line-up, over :data:`BANDS`."""
    if objective not in FIRST_OBJECTIVES:
        raise TuneError(f"--objective must be one of {', '.join(FIRST_OBJECTIVES)}, not {objective!r}")
    all_bands = parse_bands(bands) if bands is None or isinstance(bands, str) \
        else {**BANDS, **{band_key(k): v for k, v in bands.items()}}
    axes = {k: list(v) for k, v in (axes or {}).items()}
    if isinstance(lineups, str):
        lineups = [p.strip() for p in lineups.split(",") if p.strip()]
    lineups = tuple(lu.strip().upper() for lu in lineups)
    grid = build_grid("duel", lineups, axes, list(bots), games=games, seed=seed)   # LabError if bad
    set_by_axes = {Settings.ALIASES.get(k, k) for k in axes}
    if space is None:
        chosen: list[Tunable] = [v for v in VARIANTS if v.key not in set_by_axes]
    else:
        chosen = []
        for name in space:
            v = tunable(name)
            if v is None:
                raise TuneError(f"unknown variant {name.strip()!r} in --space "
                                f"(variants: {', '.join(x.alias for x in VARIANTS)}; or a card parameter of the "
                                "duel Evil deck: cost.<card>, resistance.<card>, copies.<card>)")
            if v.key in set_by_axes:
                raise TuneError(f"--space {v.alias}: the grid's --set already sets it; search it or set it, not both")
            if v in chosen:
                raise TuneError(f"--space names {v.alias} twice")
            chosen.append(v)
    if not chosen:
        raise TuneError("nothing to search: --space names no variant (or --set sets every one)")
    choices = {v.alias: variant_choices(v) for v in chosen}
    for item in values or []:
        name, sep, text = item.partition("=")
        v = tunable(name)
        if not sep or v is None:
            raise TuneError(f"--values takes alias=v1,v2,... for a variant of the search space "
                            f"(for example rewardCap=1,2,3), not {item!r}")
        if v.alias not in choices:
            raise TuneError(f"--values {v.alias}: that variant is not in the search space ({', '.join(choices)})")
        tried: list[int | bool] = [v.printed]
        for raw in (p.strip() for p in text.split(",") if p.strip()):
            try:
                value = v.parse(raw) if isinstance(v, CardParam) else parse_variants(f"{v.alias}={raw}")[v.key]
            except ValueError as exc:
                raise TuneError(f"--values: {exc}") from None
            if value not in tried:
                tried.append(value)
        if len(tried) < 2:
            raise TuneError(f"--values {v.alias}: give at least one value besides the printed {_value_text(v.printed)}")
        choices[v.alias] = tried
    bot_lineups = tuple(dict.fromkeys(",".join(c.bots) for c in grid.cells))
    targets = Targets(bands=all_bands)
    used = {band_key(lu): targets.band(lu) for lu in lineups}   # TuneError for a line-up with no band
    return TuneConfig(lineups, axes, bot_lineups, games, seed, choices, objective, used)


# ---------------------------------------------------------------------------------------- one trial
def _figures_of_cell(c: CellStats, name: str) -> dict[str, Any]:
    r = c.rounds_summary()
    a = c.actions_summary()
    first = c.first_evil_summary
    passes = c.pass_turn_figures
    share = c.habitual_share_of_evil_wins
    lo, hi = c.ci
    return {"name": name, "lineup": c.spec["lineup"], "cell": c.id, "games": c.games,
            "righteous_wins": c.righteous_wins, "win_rate": round(c.win_rate, 4), "ci95": [round(lo, 4), round(hi, 4)],
            "turn_cap_share": round(c.capped_share, 4), "round_limit_share": round(c.round_limit_share, 4),
            "rounds": {k: round(v, 2) for k, v in r.items()}, "actions": {k: round(v, 2) for k, v in a.items()},
            "first_evil_median": None if first is None else first["median"],
            "habitual_share_of_evil_wins": None if share is None else round(share, 4),
            "pass_only_share": None if passes is None else round(passes["share"], 4),
            "ended": dict(c.ended)}


def band_figures(cells: Sequence[Mapping[str, Any]], targets: Targets = TARGETS) -> dict[str, Any]:
    """How a trial's cells (:func:`grid_figures`' ``cells``) stand against their bands: whether every
    one is in band, the cells out of band (name, Righteous wins, band, distance outside it), the
    worst and the mean distance outside the bands, and the worst and the mean distance from 50 %."""
    out = [{"cell": c["name"], "win_rate": c["win_rate"], "band": list(targets.band(c["lineup"])),
            "outside": round(targets.outside(c), 4)} for c in cells if targets.outside(c) > 0]
    return {"in_band": not out, "out_of_band": out,
            "worst_outside_band": round(max((targets.outside(c) for c in cells), default=0.5), 4),
            "mean_outside_band": round(statistics.fmean(targets.outside(c) for c in cells) if cells else 0.5, 4),
            "worst_from_50": round(max((abs(c["win_rate"] - 0.5) for c in cells), default=0.5), 4),
            "mean_distance": round(statistics.fmean(abs(c["win_rate"] - 0.5) for c in cells) if cells else 0.5, 4)}


def closeness(figures: Mapping[str, Any], objective: str = "band", targets: Targets = TARGETS) -> tuple[float, ...]:
    """The first objective's tie-break (it still moves when the worst cell sits at 0 or 100 %, or when
    every cell is in band): the mean distance outside the bands then from 50 % (``band``), or the
    mean distance from 50 % (``from-50``). Figures stored before the bands were measured are
    measured from their cells."""
    if "mean_outside_band" not in figures and "cells" in figures:
        figures = {**band_figures(figures["cells"], targets), **figures}
    mean = float(figures.get("mean_distance", 0.5))
    return (float(figures.get("mean_outside_band", 0.5)), mean) if objective == "band" else (mean,)


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
        axes[_tunable(key).alias] = [_axis_text(value)]   # a card change is a lab axis too
    grid = build_grid("duel", config.lineups, axes, list(config.bots), games=games, seed=seed)
    run = run_lab(grid, lab.db, progress=progress, options=lab.run)
    stats = load_stats(lab.db, run.cell_ids, max_games=games)
    names = [_cell_name(c.lineup, c.grid, c.bots, config.axes) for c in grid.cells]
    return Played(stats, grid_figures(stats, names, len(departures) + config.fixed_departures, config.objective,
                                      config.targets),
                  run.played, run.seconds)


def departures_of(config: TuneConfig, params: Mapping[str, Any]) -> dict[str, int | bool]:
    """A trial's params (alias -> value) as departures (Settings key -> value, printed ones left out)."""
    out: dict[str, int | bool] = {}
    for alias in config.choices:
        v = _tunable(alias)
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
        raise TuneError(f"the study {study_name!r} in {study} asks another question (it differs in "
                        f"{', '.join(diff)}): give the same options, or another --study-name")
    return s


def warm_start(config: TuneConfig) -> list[tuple[dict[str, Any], str]]:
    """The first trials of a new study: the printed rules, each variant alone at its suggested
    value, and each preset whose variants are all searched (params, and why it is tried)."""
    printed = {alias: _tunable(alias).printed for alias in config.choices}
    out: list[tuple[dict[str, Any], str]] = [(printed, "the printed rules")]
    for alias, tried in config.choices.items():
        v = _tunable(alias)
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


def _frozen(params: Mapping[str, Any]) -> str:
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
              progress: TuneProgress | None = None) -> int:
    """Add trials to ``study`` until it holds ``trials`` complete ones (those stored count: a rerun
    resumes). A trial that failed or was interrupted is tried again first. A trial the sampler
    draws with the variants of a complete one is pruned (it would only read the same games back)
    and another is drawn, up to :data:`DUPLICATES` a trial wanted. Returns how many trials this
    call completed."""
    import optuna
    from optuna.study import MaxTrialsCallback
    from optuna.trial import TrialState

    if trials < 1:
        raise TuneError(f"--trials must be at least 1, not {trials}")
    progress = progress or TuneProgress()
    every = study.get_trials(deepcopy=False)
    if not every and warm:
        for params, why in warm_start(config):
            study.enqueue_trial(params, user_attrs={"warm_start": why})
    pending = {_frozen(t.params) for t in every if t.state in (TrialState.COMPLETE, TrialState.WAITING)}
    for t in every:
        if t.state == TrialState.FAIL and t.params and _frozen(t.params) not in pending:
            study.enqueue_trial(dict(t.params), user_attrs={"retry_of": t.number})
            pending.add(_frozen(t.params))
    done = len(complete_trials(study))
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
        twin = seen.get(_frozen(params))
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
            seen.setdefault(_frozen(t.params), t.number)
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
                seen.setdefault(_frozen(t.params), t.number)
            study.optimize(objective, n_trials=left, callbacks=[after, MaxTrialsCallback(trials)],
                           gc_after_trial=False)
    return finished[0]


# ---------------------------------------------------------------------------------------- candidates
def front_trials(study: "optuna.Study") -> list["FrozenTrial"]:
    """The Pareto front: the complete trials no other trial beats on every objective."""
    if not complete_trials(study):
        return []
    return sorted(study.best_trials, key=lambda t: (t.values[3], t.values[0]) if t.values else (0, 0))


def _closeness(t: "FrozenTrial", objective: str, targets: Targets) -> tuple[float, ...]:
    """A trial's tie-break of the first objective (:func:`closeness` of its figures)."""
    return closeness(t.user_attrs.get("figures") or {}, objective, targets)


#: how the first objective's ties are broken, in words, by objective
TIE_BREAKS = {"band": "by the mean distance outside the bands, then from 50 %", "from-50": "by the mean distance from 50 %"}


def pick_candidates(study: "optuna.Study", mode: str = "top", top: int = 3, targets: Targets = TARGETS,
                    objective: str = "band") -> tuple[list["FrozenTrial"], str]:
    """The trials to confirm on fresh seeds, and how they were chosen.

    ``top``: the ``top`` best trials by the first objective among those with a cap share under
    the target, and the best of each size up to the target's departures (the best small sets);
    ties (the worst cell is often at 0 or 100 %, or every cell is in band) are broken by
    :func:`closeness`; ``front``: every trial of the Pareto front. Trials with the same variants
    count once. ``objective`` is the study's first objective (:data:`FIRST_OBJECTIVES`)."""
    if mode not in CONFIRM_MODES:
        raise TuneError(f"--confirm must be one of {', '.join(CONFIRM_MODES)}, not {mode!r}")
    done = complete_trials(study)
    if not done:
        return [], "no trial is complete"

    def values(t: "FrozenTrial") -> list[float]:
        return list(t.values or [1.0, 1.0, 0.0, 0.0])

    if mode == "front":
        chosen = front_trials(study)
        how = "every trial of the Pareto front"
    else:
        ok = [t for t in done if values(t)[1] < targets.cap_share]
        how = (f"the {top} best trials by the first objective ({FIRST_OBJECTIVES[objective]}; ties: "
               f"{TIE_BREAKS[objective]}) among those "
               f"with under {100 * targets.cap_share:.0f} % of games at the safety cap, and the best of each size up "
               f"to {targets.departures} departures")
        if not ok:
            ok = list(done)
            how = (f"no trial keeps the safety cap under {100 * targets.cap_share:.0f} %: the {top} best trials by "
                   "the first objective, and the best of each size")
        ranked = sorted(ok, key=lambda t: (values(t)[0], *_closeness(t, objective, targets), values(t)[3],
                                           values(t)[2], t.number))
        chosen = ranked[:top]
        for size in range(targets.departures + 1):
            best = next((t for t in ranked if values(t)[3] == size), None)
            if best is not None:
                chosen.append(best)
    seen: set[str] = set()
    out = []
    for t in chosen:
        key = _frozen(t.params)
        if key not in seen:
            seen.add(key)
            out.append(t)
    return out, how


@dataclass
class Candidate:
    """A trial played on the tuning seed and on the confirmation seed."""

    trial: "FrozenTrial"
    departures: dict[str, int | bool]
    tuning: Played
    confirmation: Played
    checks_tuning: list[TargetCheck] = field(default_factory=list)
    checks_confirmation: list[TargetCheck] = field(default_factory=list)
    objective: str = "band"
    targets: Targets = TARGETS

    @property
    def variants(self) -> str:
        return variants_text(self.departures)

    @property
    def sentence(self) -> str:
        variants, cards = _split_departures(self.departures)
        return " ".join(filter(None, [table_plays(Settings().updated(variants)), changes_sentence(cards)]))

    @property
    def failed(self) -> int:
        """Targets missed on either seed."""
        return sum(not a.met or not b.met for a, b in zip(self.checks_tuning, self.checks_confirmation))

    @property
    def worst_distance(self) -> float:
        return max(float(self.tuning.figures["objectives"][0]), float(self.confirmation.figures["objectives"][0]))

    @property
    def mean_distance(self) -> float:
        return max(float(self.tuning.figures["mean_distance"]), float(self.confirmation.figures["mean_distance"]))

    @property
    def in_band(self) -> bool:
        """Every cell in its band on both seeds."""
        return bool(self.tuning.figures.get("in_band")) and bool(self.confirmation.figures.get("in_band"))

    def closeness(self) -> tuple[float, ...]:
        """The first objective's tie-break (:func:`closeness`), the worse of the two seeds."""
        a = closeness(self.tuning.figures, self.objective, self.targets)
        b = closeness(self.confirmation.figures, self.objective, self.targets)
        return tuple(max(x, y) for x, y in zip(a, b))

    def rank(self) -> tuple[float, ...]:
        """Best first: within the departures the targets allow (a larger set is never the answer
        while a small one is there) and under the safety-cap target on both seeds (a table that
        stalls is no contest), the smallest first objective over both seeds (the worst distance
        outside the bands, or from 50 %; to the percentage point), then the smallest tie-break
        (:func:`closeness`), then fewest targets missed on either seed, then fewest departures,
        then the lower cap share."""
        cap = max(self.tuning.figures["turn_cap_share"], self.confirmation.figures["turn_cap_share"])
        return (int(len(self.departures) > self.targets.departures), int(cap >= self.targets.cap_share),
                round(self.worst_distance, 2), *(round(x, 2) for x in self.closeness()), self.failed,
                len(self.departures), cap, self.trial.number)

    def to_json(self) -> dict[str, Any]:
        return {"trial": self.trial.number, "variants": self.variants, "departures": len(self.departures),
                "in_band": self.in_band,
                "table_plays": self.sentence, "values": list(self.trial.values or []),
                "tuning": self.tuning.figures, "confirmation": self.confirmation.figures,
                "targets": {"tuning": [c.to_json() for c in self.checks_tuning],
                            "confirmation": [c.to_json() for c in self.checks_confirmation]},
                "targets_missed": self.failed}


def confirm(config: TuneConfig, study: "optuna.Study", lab: LabOptions, seed: int, games: int,
            trials: Sequence["FrozenTrial"], progress: TuneProgress | None = None) -> list[Candidate]:
    """Play each trial's cells on the confirmation seed (and read back its tuning games), best first."""
    progress = progress or TuneProgress()
    out = []
    with lab.run.session():
        for i, t in enumerate(trials):
            dep = departures_of(config, t.params)
            if progress.trial_started is not None:
                progress.trial_started(i, len(trials), f"confirming trial {t.number}: {variants_text(dep)}")
            tuning = play_trial(config, dep, lab, config.games, config.seed, progress.games)
            again = play_trial(config, dep, lab, games, seed, progress.games)
            out.append(Candidate(t, dep, tuning, again, check_targets(tuning.figures, len(dep), config.targets),
                                 check_targets(again.figures, len(dep), config.targets), config.objective,
                                 config.targets))
    out.sort(key=lambda c: c.rank())
    return out


def importance(study: "optuna.Study", minimum: int = 6, first: str = OBJECTIVES[0]) -> tuple[dict[str, float], str]:
    """Each variant's importance for the first objective (fANOVA where scikit-learn is installed,
    PED-ANOVA otherwise), and a note; empty with the reason for a study too small or too flat."""
    import optuna

    done = complete_trials(study)
    if len(done) < minimum:
        return {}, f"parameter importance needs at least {minimum} complete trials ({len(done)} so far)"
    if len({t.values[0] for t in done if t.values}) < 2:
        return {}, f"every trial has the same {first}: no parameter matters more than another"
    evaluator: Any
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")   # PED-ANOVA is marked experimental
            if importlib.util.find_spec("sklearn") is not None:
                evaluator = optuna.importance.FanovaImportanceEvaluator(seed=0)
                how = "fANOVA"
            else:
                evaluator = optuna.importance.PedAnovaImportanceEvaluator()
                how = "PED-ANOVA (scikit-learn is not installed for fANOVA)"
            found = optuna.importance.get_param_importances(study, evaluator=evaluator,
                                                            target=lambda t: float((t.values or [0.0])[0]))
    except Exception as exc:  # noqa: BLE001 - a small or odd study: say so, do not fail the report
        return {}, f"parameter importance could not be computed ({type(exc).__name__}: {exc})"
    clean = {k: float(v) for k, v in found.items() if not math.isnan(float(v))}
    return clean, f"importance of each variant for the {first} ({how}, {len(done)} trials)"


# ---------------------------------------------------------------------------------------- the report
@dataclass
class TuneReport:
    """What :func:`write_tune_report` wrote, and what it found."""

    html: Path
    markdown: Path
    json: Path
    images: list[Path]
    best: Candidate | None
    summary: str
    data: dict[str, Any]


def _departures(n: int) -> str:
    return f"{n} departure{'' if n == 1 else 's'}"


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f} %"


def trial_bands(t: "FrozenTrial", config: TuneConfig) -> dict[str, Any] | None:
    """How a trial's cells stand against the study's bands (:func:`band_figures`), measured from its
    stored cells (so a trial stored before the bands were reported has them too); None without figures."""
    cells = (t.user_attrs.get("figures") or {}).get("cells")
    return None if cells is None else band_figures(cells, config.targets)


def _band_span(band: Sequence[float]) -> str:
    return f"{_pp(band[0])}–{_pp(band[1])} %"


def _out_of_band_text(bands: Mapping[str, Any] | None) -> str:
    """The cells out of band, in words: ``ER · heuristic 35.0 % (band 40–60 %); ...``; "none"."""
    if bands is None:
        return "–"
    return "; ".join(f"{c['cell']} {_pct(c['win_rate'])} (band {_band_span(c['band'])})"
                     for c in bands["out_of_band"]) or "none"


def _in_band_text(bands: Mapping[str, Any] | None, cells: int) -> str:
    if bands is None:
        return "–"
    out = len(bands["out_of_band"])
    return "yes" if not out else f"no ({out} of {cells} out)"


def _trial_row(t: "FrozenTrial", config: TuneConfig, confirmed: set[int]) -> list[str]:
    v = list(t.values or [math.nan] * 4)
    dep = departures_of(config, t.params)
    figures = t.user_attrs.get("figures") or {}
    mean = figures.get("mean_distance")
    bands = trial_bands(t, config)
    return [str(t.number), str(len(dep)), variants_text(dep), f"{100 * v[0]:.1f} pp",
            "–" if mean is None else f"{100 * mean:.1f} pp", _in_band_text(bands, len(figures.get("cells") or [])),
            _out_of_band_text(bands), _pct(v[1]), f"{v[2]:.0f}",
            "yes" if t.number in confirmed else "–", str(t.user_attrs.get("warm_start", ""))]


def _trial_band_json(bands: Mapping[str, Any] | None) -> dict[str, Any]:
    """A trial's entry in ``tune.json``: every cell in band, and the cells out of band."""
    if bands is None:
        return {"in_band": None, "out_of_band": []}
    return {"in_band": bands["in_band"], "out_of_band": bands["out_of_band"]}


def _band_sentence(c: Candidate) -> str:
    """Whether a candidate's every cell is in band on both seeds, and which are not."""
    if c.in_band:
        return "Every cell is in its band on both seeds."
    parts = []
    for seed, played in (("tuning", c.tuning), ("confirmation", c.confirmation)):
        bands = band_figures(played.figures["cells"], c.targets)
        if not bands["in_band"]:
            parts.append(f"on the {seed} seed {_out_of_band_text(bands)}")
    return "Out of band: " + "; ".join(parts) + "."


def trial_head(config: TuneConfig) -> list[str]:
    """The columns of a table of trials (the first objective's name as the study has it)."""
    return ["trial", "departures", "variants", config.objectives[0], "mean distance from 50 %", "every cell in band",
            "cells out of band", "safety-cap share", "median rounds (longest cell)", "confirmed", "warm start"]


def _cell_rows(c: Candidate) -> tuple[list[str], list[list[str]]]:
    head = ["cell", "band", "R wins (tuning)", "95 % CI", "R wins (confirmation)", "95 % CI", "in band t / c",
            "safety cap t / c", "round limit t / c", "rounds median t / c", "rounds p90 t / c",
            "Evil's first turn t / c", "Habitual share of Evil wins t / c", "pass-only turns t / c"]
    rows = []
    for a, b in zip(c.tuning.figures["cells"], c.confirmation.figures["cells"]):
        band = c.targets.band(a["lineup"])

        def in_band(f: Mapping[str, Any]) -> str:
            out = c.targets.outside(f)
            return "✓" if not out else f"✗ {100 * out:.1f} pp"

        def wins(f: Mapping[str, Any]) -> str:
            return f"{f['righteous_wins']}/{f['games']} ({_pct(f['win_rate'])})"

        def ci(f: Mapping[str, Any]) -> str:
            return f"{_pct(f['ci95'][0])} – {_pct(f['ci95'][1])}"

        def pair(key: str, fmt: Callable[[Any], str]) -> str:
            return f"{fmt(a[key])} / {fmt(b[key])}"

        def num(x: Any) -> str:
            return "–" if x is None else f"{x:.0f}"

        rows.append([a["name"], _band_span(band), wins(a), ci(a), wins(b), ci(b), f"{in_band(a)} / {in_band(b)}",
                     pair("turn_cap_share", _pct), pair("round_limit_share", _pct),
                     f"{a['rounds']['median']:.0f} / {b['rounds']['median']:.0f}",
                     f"{a['rounds']['p90']:.0f} / {b['rounds']['p90']:.0f}",
                     pair("first_evil_median", num), pair("habitual_share_of_evil_wins", _pct),
                     pair("pass_only_share", _pct)])
    return head, rows


def _check_rows(c: Candidate) -> tuple[list[str], list[list[str]]]:
    rows = []
    for a, b in zip(c.checks_tuning, c.checks_confirmation):
        rows.append([a.name, ("✓ " if a.met else "✗ ") + a.value + (f" ({a.miss})" if a.miss else ""),
                     ("✓ " if b.met else "✗ ") + b.value + (f" ({b.miss})" if b.miss else "")])
    return ["target", "tuning seed", "confirmation seed"], rows


def lab_command(config: TuneConfig, departures: Mapping[str, int | bool], games: int, seed: int) -> str:
    """The ``lab`` command that plays a candidate's cells again."""
    parts = ["christianity-game lab --mode duel", f"--lineup {','.join(config.lineups)}"]
    parts += [f"--set {k}={','.join(v)}" for k, v in config.axes.items()]
    parts += [f"--set {_tunable(k).alias}={_axis_text(v)}" for k, v in departures.items()]
    parts += [f"--bots {b}" for b in config.bots]
    parts += [f"--games {games}", f"--seed {seed}"]
    return " ".join(parts)


def _plots(study: "optuna.Study", config: TuneConfig, candidates: Sequence[Candidate], imp: Mapping[str, float],
           out: Path) -> list[tuple[str, str]]:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    files: list[tuple[str, str]] = []

    def save(fig: Any, name: str, caption: str, top: float = 1.0) -> None:
        fig.tight_layout(rect=(0.0, 0.0, 1.0, top))
        fig.savefig(out / name, dpi=90)
        plt.close(fig)
        files.append((name, caption))

    done = complete_trials(study)
    front = {t.number for t in front_trials(study)}
    if done:
        fig, ax = plt.subplots(figsize=(8, 4.6))
        xs = [(t.values or [0, 0, 0, 0])[3] + ((t.number * 0.6180339) % 1 - 0.5) * 0.3 for t in done]
        ys = [100 * (t.values or [0.0])[0] for t in done]
        caps = [100 * (t.values or [0, 0])[1] for t in done]
        sc = ax.scatter(xs, ys, c=caps, cmap="viridis_r", s=36, edgecolors="none")
        fx = [x for x, t in zip(xs, done) if t.number in front]
        fy = [y for y, t in zip(ys, done) if t.number in front]
        ax.scatter(fx, fy, s=110, facecolors="none", edgecolors="#c8443a", linewidths=1.4, label="Pareto front")
        first = config.objectives[0]
        if config.objective == "from-50":
            spans = sorted({round(50 * (hi - lo), 1) for lo, hi in config.bands.values()})
            for span, ls in zip(spans, ("--", ":", "-.")):
                ax.axhline(span, color="grey", lw=0.8, ls=ls)
            lines = "; grey lines: the half-widths of the bands, " + ", ".join(f"±{x:g} pp" for x in spans)
        else:
            ax.axhline(0, color="grey", lw=0.8, ls="--")
            lines = "; at 0 every cell is in its band"
        fig.colorbar(sc, ax=ax, label="safety-cap share (%)")
        ax.set_xlabel("departures from the printed rules")
        ax.set_ylabel(f"{first} (pp)")
        ax.legend(fontsize=8, loc="upper right")
        save(fig, "pareto.png", f"Every trial: departures against the {first} ({bands_text(config.bands)}"
             f"{lines}), coloured by the safety-cap share; ringed: the Pareto front.")

        fig, ax = plt.subplots(figsize=(8, 3.6))
        nums = [t.number for t in done]
        best: list[float] = []
        for y in ys:
            best.append(min(best[-1], y) if best else y)
        ax.plot(nums, ys, "o", color="#3b7dd8", ms=4, label=f"{first} (pp)")
        ax.plot(nums, best, "-", color="#3b7dd8", lw=1, label="best so far")
        ax.plot(nums, caps, "s", color="#e0a030", ms=3, label="safety-cap share (%)")
        ax.set_xlabel("trial")
        ax.legend(fontsize=8)
        save(fig, "history.png", f"The study trial by trial: the first objective ({first}), its best so far, and "
             "the safety-cap share.")

    if imp:
        fig, ax = plt.subplots(figsize=(7, 0.4 * len(imp) + 1.4))
        names = list(imp)[::-1]
        ax.barh(names, [imp[n] for n in names], color="#5a8f3c")
        ax.set_xlabel(f"importance for the {config.objectives[0]}")
        save(fig, "importance.png", f"Parameter importance for the first objective ({config.objectives[0]}).")

    shown = list(candidates[:6])
    if shown:
        cols = min(2, len(shown))
        rows = math.ceil(len(shown) / cols)
        n_cells = len(shown[0].tuning.figures["cells"])
        fig, axes = plt.subplots(rows, cols, figsize=(6.2 * cols, (0.42 * n_cells + 1.3) * rows), squeeze=False)
        for ax, c in zip(axes.flat, shown):
            names = [f["name"] for f in c.tuning.figures["cells"]][::-1]
            y = list(range(len(names)))
            for figs, dy, colour, mark, label in ((c.tuning.figures, 0.14, "#3b7dd8", "o", "tuning"),
                                                   (c.confirmation.figures, -0.14, "#e07020", "s", "confirmation")):
                cells = figs["cells"][::-1]
                rates = [f["win_rate"] for f in cells]
                err = [[max(0.0, f["win_rate"] - f["ci95"][0]) for f in cells],
                       [max(0.0, f["ci95"][1] - f["win_rate"]) for f in cells]]
                ax.errorbar(rates, [v + dy for v in y], xerr=err, fmt=mark, color=colour, capsize=2, ms=4, label=label)
            for i, f in enumerate(c.tuning.figures["cells"][::-1]):
                lo, hi = config.targets.band(f["lineup"])
                ax.fill_betweenx([i - 0.4, i + 0.4], lo, hi, color="#5a8f3c", alpha=0.12, lw=0)
            ax.axvline(0.5, color="grey", lw=0.8, ls="--")
            ax.set_yticks(y, names, fontsize=7)
            ax.set_xlim(0, 1)
            ax.set_title(f"trial {c.trial.number}: {c.variants}", fontsize=8)
        for ax in list(axes.flat)[len(shown):]:
            ax.axis("off")
        handles, labels = axes.flat[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="upper center", fontsize=7, ncol=2, frameon=False)
        fig.supxlabel("Righteous wins (95 % Wilson interval); green: the target band", fontsize=8)
        save(fig, "candidates.png", "The confirmed candidates' cells: Righteous wins on the tuning seed (blue) and "
             "on the confirmation seed (orange), with 95 % Wilson intervals; green: the target band.",
             top=1 - 0.3 / fig.get_size_inches()[1])

        fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 2.6 * rows), squeeze=False)
        for ax, c in zip(axes.flat, shown):
            t_rounds = [r for s in c.tuning.stats for r in s.rounds]
            c_rounds = [r for s in c.confirmation.stats for r in s.rounds]
            top = max([*t_rounds, *c_rounds, 1])
            step = max(1, (top + 1) // 30)
            bins = list(range(0, top + step + 1, step))
            ax.hist(t_rounds, bins=bins, histtype="step", density=True, color="#3b7dd8", label="tuning")
            ax.hist(c_rounds, bins=bins, histtype="step", density=True, color="#e07020", label="confirmation")
            ax.axvline(config.targets.median_rounds, color="grey", lw=0.8, ls="--")
            ax.axvline(config.targets.p90_rounds, color="grey", lw=0.8, ls=":")
            ax.set_title(f"trial {c.trial.number}: {c.variants}", fontsize=8)
            ax.tick_params(labelsize=7)
            ax.legend(fontsize=7)
        for ax in list(axes.flat)[len(shown):]:
            ax.axis("off")
        fig.supxlabel(f"rounds per duel, every cell (dashed: median target {config.targets.median_rounds:.0f}, "
                      f"dotted: p90 target {config.targets.p90_rounds:.0f})", fontsize=8)
        save(fig, "rounds.png", "Length distributions: rounds per duel over every cell, tuning and confirmation seeds.")
    return files


def write_tune_report(study: "optuna.Study", config: TuneConfig, candidates: Sequence[Candidate], how: str,
                      out_dir: str | Path, lab_db: str | Path, confirm_seed: int, confirm_games: int,
                      study_path: str = "tune.sqlite") -> TuneReport:
    """Write ``index.html``, ``summary.md``, ``tune.json`` and the PNG plots into ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    done = complete_trials(study)
    front = front_trials(study)
    confirmed = {c.trial.number for c in candidates}
    imp, imp_note = importance(study, first=config.objectives[0])
    images = _plots(study, config, candidates, imp, out)
    names = [n for n, _ in images]
    captions = dict(images)
    best = candidates[0] if candidates else None
    facts = [f"study {study.study_name} in {study_path}", f"{len(done)} complete trials",
             f"line-ups {','.join(config.lineups)}", *(f"{k}={','.join(v)}" for k, v in config.axes.items()),
             f"bots {' | '.join(config.bots)}", f"{config.games} games a cell on tuning seed {config.seed}",
             f"{confirm_games} games a cell on confirmation seed {confirm_seed}", f"lab database {Path(lab_db).name}",
             f"objective {config.objective}", f"bands {bands_text(config.bands)}",
             f"written {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC"]
    targets = config.targets
    bands = "; ".join(f"{k} {_band_span(v)}" for k, v in config.bands.items())
    first = (f"the worst distance of Righteous wins outside each cell's band over the cells (0 for a cell inside "
             f"its band; bands of Righteous wins: {bands}) (--objective band, the default)"
             if config.objective == "band" else
             f"the worst distance of Righteous wins from 50 % over the cells (--objective from-50; the bands, {bands}, "
             "are reported but not searched for)")
    notes = [
        f"Objectives (all minimised): {first}; the share of games the lab's safety turn cap ended; the median rounds "
        "of the longest cell; the number of departures from the printed rules. NSGA-II, seeded; the first trials are "
        "the printed rules, each variant alone at its suggested value and the presets.",
        f"Confirmation: {how}; played again on run seed {confirm_seed} ({confirm_games} games a cell). The best trial "
        f"is the confirmed one with at most {targets.departures} departures and under "
        f"{100 * targets.cap_share:.0f} % of games at the safety cap on both seeds that has the smallest "
        f"{config.objectives[0]} over both seeds (to the point), then the smallest tie-break ("
        f"{TIE_BREAKS[config.objective].removeprefix('by ')}), then misses the fewest targets, then departs least.",
        "Games the roundLimit variant ends are decided on the stalemate score: they count in the win rates but are "
        "shown apart (round limit), as are the games the safety turn cap ended.",
        "Search space: " + "; ".join(f"{a} ∈ {{{', '.join(_value_text(x) for x in v)}}}"
                                     for a, v in config.choices.items()) + " (the printed value first).",
    ]
    codes = sorted({str(t.user_attrs["code"]) for t in done if "code" in t.user_attrs} - {code_fingerprint()})
    if codes:
        older = sum(1 for t in done if t.user_attrs.get("code") in codes)
        notes.append(f"{older} trials were played by other engine code (fingerprint {', '.join(codes)}; now "
                     f"{code_fingerprint()}): their objective values are that code's, while the candidates' tuning and "
                     "confirmation figures here are played with this code.")
    md: list[str] = ["# Tuner: the smallest departure from the printed rules", "", " · ".join(facts), ""]
    md += [f"- {n}" for n in notes] + [""]
    body: list[str] = ["<h1>Tuner: the smallest departure from the printed rules</h1>",
                       f"<p class='facts'>{html.escape(' · '.join(facts))}</p>", "<ul>"]
    body += [f"<li>{html.escape(n)}</li>" for n in notes] + ["</ul>"]

    def section(title: str, text: str = "", table: tuple[Sequence[str], Sequence[Sequence[str]]] | None = None,
                images_: Sequence[str] = (), level: int = 2) -> None:
        md.extend([f"{'#' * level} {title}", ""])
        body.append(f"<h{level}>{html.escape(title)}</h{level}>")
        if text:
            md.extend([text, ""])
            body.append(f"<p>{html.escape(text)}</p>")
        if table is not None and table[1]:
            md.extend([md_table(*table), ""])
            body.append(html_table(*table))
        for img in images_:
            if img in captions:
                md.extend([f"![{img}]({img})", ""])
                body.append(f"<figure><img src='{img}' alt='{html.escape(captions[img])}'>"
                            f"<figcaption>{html.escape(captions[img])}</figcaption></figure>")

    if best is not None:
        met = len(best.checks_tuning) - best.failed
        section("Best trial", f"Trial {best.trial.number}: --variants {best.variants} "
                f"({_departures(len(best.departures))}). {best.sentence} It meets {met} of {len(best.checks_tuning)} targets on both seeds. "
                f"{_band_sentence(best)} "
                f"Play its cells again: {lab_command(config, best.departures, confirm_games, confirm_seed)}.",
                _check_rows(best))
    else:
        section("Best trial", "No trial is complete yet.")
    section("Pareto front", "The complete trials no other trial beats on every objective.",
            (trial_head(config), [_trial_row(t, config, confirmed) for t in front]), ["pareto.png"])
    section("Candidates, tuning and confirmation seeds", "Each confirmed trial's cells on the tuning seed (t) and "
            "the confirmation seed (c), best first.")
    for c in candidates:
        section(f"Trial {c.trial.number}: {c.variants} ({_departures(len(c.departures))})",
                f"{c.sentence} Targets missed on either seed: {c.failed}. {_band_sentence(c)}", _cell_rows(c), level=3)
        md.extend([md_table(*_check_rows(c)), ""])
        body.append(html_table(*_check_rows(c)))
    if candidates:
        section("Win rates of the candidates", "", None, ["candidates.png"])
    length_rows = [[str(c.trial.number), c.variants,
                    f"{c.tuning.figures['rounds']['median']:.0f} / {c.confirmation.figures['rounds']['median']:.0f}",
                    f"{c.tuning.figures['rounds']['p90']:.0f} / {c.confirmation.figures['rounds']['p90']:.0f}",
                    f"{_pct(c.tuning.figures['turn_cap_share'])} / {_pct(c.confirmation.figures['turn_cap_share'])}",
                    f"{_pct(c.tuning.figures['round_limit_share'])} / {_pct(c.confirmation.figures['round_limit_share'])}"]
                   for c in candidates]
    section("Length distributions", "Rounds per duel over every cell (tuning / confirmation).",
            (["trial", "variants", "rounds median", "rounds p90", "safety cap", "round limit"], length_rows),
            ["rounds.png"])
    section("Parameter importance", imp_note,
            (["variant", "importance"], [[k, f"{v:.3f}"] for k, v in imp.items()]), ["importance.png"])
    section("All trials", "", (trial_head(config), [_trial_row(t, config, confirmed)
                                            for t in sorted(done, key=lambda t: t.number)]), ["history.png"])
    summary = "\n".join(md)
    md_path = out / "summary.md"
    md_path.write_text(summary + "\n", encoding="utf-8")
    data = {"study": study.study_name, "storage": study_path, "config": config.to_json(),
            "objective": {"key": config.objective, "name": config.objectives[0],
                          "bands": {k: list(v) for k, v in config.bands.items()}},
            "objectives": list(config.objectives), "targets": asdict(targets),
            "confirmation": {"seed": confirm_seed, "games": confirm_games, "chosen": how},
            "best": None if best is None else {**best.to_json(),
                                               "lab_command": lab_command(config, best.departures, confirm_games,
                                                                          confirm_seed)},
            "front": [t.number for t in front], "candidates": [c.to_json() for c in candidates],
            "importance": {"values": imp, "note": imp_note},
            "trials": [{"trial": t.number, "values": list(t.values or []), "params": dict(t.params),
                        "variants": variants_text(departures_of(config, t.params)),
                        "warm_start": t.user_attrs.get("warm_start"),
                        **_trial_band_json(trial_bands(t, config)), "figures": t.user_attrs.get("figures"),
                        "seconds": t.user_attrs.get("seconds")} for t in sorted(done, key=lambda t: t.number)]}
    json_path = out / "tune.json"
    json_path.write_text(json.dumps(data, indent=1, default=str) + "\n", encoding="utf-8")
    body.append("<details><summary>Figures as JSON</summary><pre>" + html.escape(json.dumps(data, indent=1, default=str))
                + "</pre></details>")
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tuner</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; padding: 0 1em; color: #222; }}
table {{ border-collapse: collapse; margin: 0.6em 0 1.2em; font-size: 0.84em; }}
th, td {{ border: 1px solid #ccc; padding: 0.25em 0.55em; text-align: right; }}
th {{ background: #f0f3f8; }} td:first-child {{ text-align: left; }}
.facts {{ color: #555; }} figure {{ margin: 0.5em 0 1.5em; }} img {{ max-width: 100%; }}
figcaption {{ color: #555; font-size: 0.85em; }} pre {{ font-size: 0.72em; }}
</style></head><body>
{chr(10).join(body)}
</body></html>
"""
    html_path = out / "index.html"
    html_path.write_text(page, encoding="utf-8")
    return TuneReport(html_path, md_path, json_path, [out / n for n in names], best, summary, data)


def default_lab_db(study: str | Path) -> Path:
    """The lab database a study's games go to unless told: beside the study file (``tune.sqlite`` ->
    ``tune-lab.sqlite``), or ``tune-lab.sqlite`` here for a database URL."""
    text = str(study)
    if "://" in text:
        return Path("tune-lab.sqlite")
    p = Path(text)
    return p.with_name(f"{p.stem}-lab.sqlite")

