"""The tuner's targets: the band of Righteous wins each line-up must fall in (:data:`BANDS`, ``tune
--band``), the designers' other targets (:class:`Targets`), each checked against a trial's figures
(:func:`check_targets`), and how a trial's cells stand against their bands (:func:`band_figures`,
:func:`closeness`). A cell's Righteous wins are counted as :data:`WINS` says (real wins by default)."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..stats import wilson

class TuneError(ValueError):
    """A tuning run that cannot start (a bad option, or a study that holds another question)."""


#: The band of Righteous wins a cell must fall in, by line-up (the designers' targets): as many seats a
#: side (ER) 40-60 %, one side outnumbered (EER, ERR) 30-70 %. A line-up is named by its seats (EER
#: and ERE are one line-up here); ``tune --band ER=45-55`` replaces a band or adds one for another
#: line-up (EERR).
BANDS: dict[str, tuple[float, float]] = {"ER": (0.40, 0.60), "EER": (0.30, 0.70), "ERR": (0.30, 0.70)}


#: how a cell's Righteous wins are counted against its band (``tune --wins``): ``real``, the default,
#: counts only the clean-round win (D-W-R), so a game the safety turn cap or the roundLimit variant
#: decided on the score is neither side's win; ``scored`` counts those score decisions as the score
#: fell (the tuner's count before real wins, kept so its studies resume and compare)
WINS = {"real": "Righteous real wins: the clean-round win only, a game decided on the score (the safety cap, "
                "the round limit) counting for neither side",
        "scored": "Righteous wins with the games decided on the score (the safety cap, the round limit) "
                  "counted as the score fell"}


def real_win_rate(cell: Mapping[str, Any]) -> float:
    """A cell's Righteous real wins (D-W-R) over its games, from its figures (``real_win_rate``, or
    for figures stored before it, the count of games that ended in the Righteous win)."""
    if "real_win_rate" in cell:
        return float(cell["real_win_rate"])
    games = int(cell.get("games") or 0)
    return (cell.get("ended") or {}).get("righteous", 0) / games if games else 0.0


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


def percent(x: float) -> str:
    """A share as whole per cents where it is one (40), else to a tenth (42.5)."""
    v = 100 * x
    return f"{v:.0f}" if abs(v - round(v)) < 1e-9 else f"{v:.1f}"


def bands_text(bands: Mapping[str, tuple[float, float]]) -> str:
    """Bands as ``--band`` takes them: ``ER=40-60,EER=30-70,ERR=30-70``."""
    return ",".join(f"{k}={percent(lo)}-{percent(hi)}" for k, (lo, hi) in bands.items())


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
    wins: str = "real"                                # how a cell's Righteous wins are counted (:data:`WINS`)

    def band(self, lineup: str) -> tuple[float, float]:
        """The Righteous win band a line-up must fall in; a :class:`TuneError` for a line-up with none."""
        found = self.bands.get(band_key(lineup))
        if found is None:
            raise TuneError(f"no band of Righteous wins for the line-up {band_key(lineup)} (bands: "
                            f"{bands_text(self.bands)}): give one with --band {band_key(lineup)}=LOW-HIGH")
        return found

    def rate(self, cell: Mapping[str, Any]) -> float:
        """A cell's Righteous wins, counted as :attr:`wins` says: real wins (:func:`real_win_rate`), or
        with the games decided on the score (``win_rate``)."""
        return float(cell["win_rate"]) if self.wins == "scored" else real_win_rate(cell)

    def interval(self, cell: Mapping[str, Any]) -> tuple[float, float]:
        """The 95 % Wilson interval of :meth:`rate` (the stored one, or from the cell's counts)."""
        key = "ci95" if self.wins == "scored" else "real_ci95"
        if key in cell:
            lo, hi = cell[key]
            return float(lo), float(hi)
        games = int(cell.get("games") or 0)
        return wilson(round(self.rate(cell) * games), games)

    def outside(self, cell: Mapping[str, Any]) -> float:
        """How far a cell's Righteous wins (:meth:`rate`) lie outside its line-up's band (0 inside)."""
        lo, hi = self.band(cell["lineup"])
        rate = self.rate(cell)
        return float(max(lo - rate, rate - hi, 0.0))


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
    """Each target against the figures of a trial's cells (:func:`~.tune_study.grid_figures`)."""
    cells = figures["cells"]
    out: list[TargetCheck] = []
    outside, rate = targets.outside, targets.rate
    worst = max(cells, key=lambda c: (outside(c), abs(rate(c) - 0.5)))
    out_of_band = sum(1 for c in cells if outside(c) > 0)
    lo, hi = targets.band(worst["lineup"])
    counted = "real wins" if targets.wins == "real" else "wins with the score's decisions"
    out.append(TargetCheck(f"Righteous {counted} in the band of every cell", not out_of_band,
                           f"{worst['name']} {100 * rate(worst):.1f} % (band {100 * lo:.0f}–{100 * hi:.0f} %)",
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


def band_figures(cells: Sequence[Mapping[str, Any]], targets: Targets = TARGETS) -> dict[str, Any]:
    """How a trial's cells (:func:`~.tune_study.grid_figures`' ``cells``) stand against their bands:
    whether every one is in band, the cells out of band (name, Righteous wins, band, distance
    outside it), the worst and the mean distance outside the bands, and the worst and the mean
    distance from 50 %, the Righteous wins counted as ``targets.wins`` says (:data:`WINS`; each
    cell out of band gives them as ``righteous``)."""
    rate = targets.rate
    out = [{"cell": c["name"], "righteous": round(rate(c), 4), "band": list(targets.band(c["lineup"])),
            "outside": round(targets.outside(c), 4)} for c in cells if targets.outside(c) > 0]
    return {"in_band": not out, "out_of_band": out, "wins": targets.wins,
            "worst_outside_band": round(max((targets.outside(c) for c in cells), default=0.5), 4),
            "mean_outside_band": round(statistics.fmean(targets.outside(c) for c in cells) if cells else 0.5, 4),
            "worst_from_50": round(max((abs(rate(c) - 0.5) for c in cells), default=0.5), 4),
            "mean_distance": round(statistics.fmean(abs(rate(c) - 0.5) for c in cells) if cells else 0.5, 4)}


def closeness(figures: Mapping[str, Any], objective: str = "band", targets: Targets = TARGETS) -> tuple[float, ...]:
    """The first objective's tie-break (it still moves when the worst cell sits at 0 or 100 %, or when
    every cell is in band): the mean distance outside the bands then from 50 % (``band``), or the
    mean distance from 50 % (``from-50``). Figures stored before the bands were measured are
    measured from their cells."""
    if "mean_outside_band" not in figures and "cells" in figures:
        figures = {**band_figures(figures["cells"], targets), **figures}
    mean = float(figures.get("mean_distance", 0.5))
    return (float(figures.get("mean_outside_band", 0.5)), mean) if objective == "band" else (mean,)
