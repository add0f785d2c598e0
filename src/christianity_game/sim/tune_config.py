"""The tuner's question (:class:`TuneConfig`, checked by :func:`make_config`): the cells every trial
plays, the objectives, and the search space: the play-test variants and card parameters searched
(:data:`Tunable`) and the values tried of each (:func:`variant_choices`)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..cards.params import CardParam, card_params, find_card_param
from ..engine.settings import Settings
from ..engine.variants import BY_ALIAS, BY_KEY, VARIANTS, Variant, parse_variants
from .lab_grid import build_grid
from .tune_targets import BANDS, WINS, Targets, TuneError, band_key, parse_bands

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


#: what the tuner searches: a play-test variant, or a card parameter of the duel Evil deck
Tunable = Variant | CardParam


def tunable(name: str) -> Tunable | None:
    """The variant (by alias or Settings key) or card parameter (``copies.the-broad-way``) called
    ``name``; None for neither. A card parameter's key and alias are both its name."""
    name = name.strip()
    return BY_ALIAS.get(name) or BY_KEY.get(name) or find_card_param(name)


def checked_tunable(name: str) -> Tunable:
    found = tunable(name)
    assert found is not None, name   # names reach here checked by make_config
    return found


def split_departures(departures: Mapping[str, int | bool]) -> tuple[dict[str, int | bool], dict[str, int]]:
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


def value_text(value: int | bool) -> str:
    """A variant value as ``--variants`` takes it."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def axis_text(value: int | bool) -> str:
    """A variant value as a lab ``--set`` axis takes it."""
    return str(int(value))


def variants_text(values: Mapping[str, int | bool]) -> str:
    """Departures (Settings key -> value) as a ``--variants`` string (``rewardCap=2,evilHabituals=5``),
    in the registry's order, then any card changes (``copies.the-broad-way=2``, in the deck's
    order); "printed" for none."""
    parts = [f"{v.alias}={value_text(values[v.key])}" for v in VARIANTS if v.key in values]
    parts += [f"{p.key}={int(values[p.key])}" for p in card_params() if p.key in values]
    return ",".join(parts) or "printed"


@dataclass(frozen=True)
class TuneConfig:
    """What a study asks: the cells (line-ups x axes x bots), games a cell and the tuning seed,
    and the search space (variant alias -> the values tried), the first objective (``band`` or
    ``from-50``, :data:`FIRST_OBJECTIVES`), the bands of its line-ups, and how Righteous wins are
    counted (``real`` or ``scored``, :data:`WINS`). Two runs share a study only if they ask the
    same (:meth:`fingerprint`)."""

    lineups: tuple[str, ...]
    axes: dict[str, list[str]]
    bots: tuple[str, ...]
    games: int
    seed: int
    choices: dict[str, list[int | bool]]   # alias -> values, the printed one first
    objective: str = "band"
    bands: dict[str, tuple[float, float]] = field(default_factory=lambda: dict(BANDS))   # of its line-ups
    wins: str = "real"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"mode": "duel", "lineups": list(self.lineups), "axes": self.axes,
                               "bots": list(self.bots), "games": self.games, "seed": self.seed,
                               "space": {a: list(v) for a, v in self.choices.items()}}
        if self.objective != "from-50":   # a from-50 study asks what the first tuner's studies asked
            out["objective"] = self.objective
            out["bands"] = {k: list(v) for k, v in self.bands.items()}
        if self.wins != "scored":         # a scored study asks what the studies before real wins asked
            out["wins"] = self.wins
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
        """The designers' targets with this study's bands and count of wins."""
        return Targets(bands=dict(self.bands), wins=self.wins)

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
        return [cell_name(c.lineup, c.grid, c.bots, self.axes) for c in grid.cells]


def cell_name(lineup: str, grid: Mapping[str, str], bots: Sequence[str], axes: Mapping[str, list[str]]) -> str:
    return " · ".join([lineup, *(f"{k}={grid[k]}" for k in axes if k in grid), ",".join(bots)])


def make_config(lineups: str | Sequence[str] = ("ER",), axes: Mapping[str, list[str]] | None = None,
                bots: Sequence[str] = ("heuristic",), games: int = 60, seed: int = 0,
                space: Sequence[str] | None = None, values: Sequence[str] | None = None,
                objective: str = "band", bands: str | Mapping[str, tuple[float, float]] | None = None,
                wins: str = "real") -> TuneConfig:
    """Check the tuner's options and return what the study asks; a clear :class:`TuneError` (or
    :class:`~.lab.LabError` for a bad grid) otherwise.

    ``space``: the variant aliases to search (default every variant the axes do not set).
    ``values``: ``alias=v1,v2,...`` items that replace a variant's tried values (its printed value
    is always tried). ``objective``: the first objective (:data:`FIRST_OBJECTIVES`). ``bands``:
    ``--band`` text (``ER=40-60,EER=30-70``) or bands by line-up, over :data:`BANDS`. ``wins``: how
    a cell's Righteous wins are counted (:data:`WINS`)."""
    if objective not in FIRST_OBJECTIVES:
        raise TuneError(f"--objective must be one of {', '.join(FIRST_OBJECTIVES)}, not {objective!r}")
    if wins not in WINS:
        raise TuneError(f"--wins must be one of {', '.join(WINS)}, not {wins!r}")
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
            raise TuneError(f"--values {v.alias}: give at least one value besides the printed {value_text(v.printed)}")
        choices[v.alias] = tried
    bot_lineups = tuple(dict.fromkeys(",".join(c.bots) for c in grid.cells))
    targets = Targets(bands=all_bands)
    used = {band_key(lu): targets.band(lu) for lu in lineups}   # TuneError for a line-up with no band
    return TuneConfig(lineups, axes, bot_lineups, games, seed, choices, objective, used, wins)
