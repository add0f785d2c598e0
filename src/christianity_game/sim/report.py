"""The balance lab's report: HTML (with PNG plots next to it) and a Markdown summary.

Everything is read back from the lab's SQLite file, so a report can be written again at any
time (``christianity-game lab ... --report DIR`` on a finished run plays nothing new).
"""

from __future__ import annotations

import html
import json
import math
import os
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from ..engine.settings import Settings
from ..engine.variants import variants_json
from .lab import (COUNT_COLUMNS, DUEL_TURN_CAP, LOCK_TURNS, ROW_COLUMNS, LabError, cell_spec, fetch_rows,
                  open_existing)

Z95 = 1.959963984540054
#: how a game ended (lab.py ``_end_kind``): a real win, the roundLimit variant's score decision,
#: or the lab's safety turn cap (also a score decision), in the order tables and plots show them
ENDED_ORDER = ("righteous", "round_limit_righteous", "turn_cap_righteous", "turn_cap_evil", "round_limit_evil", "evil",
               "unfinished")
ENDED_LABEL = {"righteous": "Righteous win (clean round)", "evil": "Evil win (Habituals held)",
               "round_limit_righteous": "round limit, Righteous ahead",
               "round_limit_evil": "round limit, Evil ahead or tied",
               "turn_cap_righteous": "turn cap, Righteous ahead", "turn_cap_evil": "turn cap, Evil ahead or tied",
               "unfinished": "unfinished"}
#: words of the engine's end reasons (duel_clocks.py) that tell the two real Evil wins of a duel apart
HABITUAL_WIN = "Evil Habituals in play held"
HUMILITY_WIN = "at Humility 0"
ENDED_COLOUR = {"righteous": "#3b7dd8", "round_limit_righteous": "#c4d8f4", "turn_cap_righteous": "#9cc0f0",
                "turn_cap_evil": "#f0a8a0", "round_limit_evil": "#f6cfc9", "evil": "#c8443a", "unfinished": "#999999"}
COUNT_LABEL = {
    "threats_played": "threats played", "threats_resisted": "threats resisted", "threats_failed": "threats failed",
    "habituals_taken": "Habituals took hold", "habituals_broken": "Habituals broken",
    "abilities_gained": "abilities gained", "abilities_used": "abilities used",
    "overflow_discards": "overflow discards", "temptations_failed": "Temptations failed",
    "combo_plays": "combo plays (D-COMBO)", "finales": "combo finales", "micro_rewards": "micro-rewards (D-MR)",
    "mr_four_plays": "MR: four plays", "mr_three_failed": "MR: three failed", "mr_habitual_pair": "MR: Habitual pair",
    "mr_finale": "MR: combo finale", "mr_same_turn_bonus": "MR: same-turn bonus",
    "reward_draw": "reward: draw 2", "reward_untap": "reward: untap 2", "reward_flip": "reward: flip 2",
    "reward_destroy": "reward: destroy", "micro_boosts": "micro-boosts (D-MB)",
    "mb_cards_per_phase": "MB: cards per phase", "mb_clean_streak": "MB: clean streak",
    "boost_draw": "boost: draw 2", "boost_humility": "boost: +1 Humility",
}


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion k/n (95 % by default)."""
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= k <= n:
        raise ValueError(f"wilson: need 0 <= k <= n, not k={k}, n={n}")
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # exact ends: no rounding leaves 0/n or n/n outside its own interval
    return (0.0 if k == 0 else max(0.0, centre - half)), (1.0 if k == n else min(1.0, centre + half))


def _quantile(sorted_vals: Sequence[float], q: float) -> float:
    if not sorted_vals:
        return 0.0
    pos = (len(sorted_vals) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_vals) - 1)
    return sorted_vals[lo] + (sorted_vals[hi] - sorted_vals[lo]) * (pos - lo)


def _summary(vals: Sequence[float]) -> dict[str, float]:
    """Mean, median, 90th percentile and largest of a list of counts (zeros when empty)."""
    s = sorted(vals)
    return {"mean": statistics.fmean(s) if s else 0.0, "median": _quantile(s, 0.5), "p90": _quantile(s, 0.9),
            "max": float(s[-1]) if s else 0.0}


@dataclass
class CellStats:
    """One cell's figures."""

    id: int
    label: str
    spec: dict[str, Any]
    games: int
    righteous_wins: int
    ended: dict[str, int]
    reasons: dict[str, int]
    turns: list[int]
    rounds: list[int]
    actions: list[int]
    score_r: list[int]
    score_e: list[int]
    counts_mean: dict[str, float]
    counts_share: dict[str, float]
    ended_list: list[str] = field(repr=False, default_factory=list)
    locked: list[int] = field(repr=False, default_factory=list)   # per game; -1: not measured
    first_evil: list[int] = field(repr=False, default_factory=list)   # decisions of the first Evil turn; -1: none
    pass_turns: list[int] = field(repr=False, default_factory=list)   # pass-only own turns a game; -1: not measured
    wins_by_idx: dict[int, int] = field(repr=False, default_factory=dict)
    turns_by_idx: dict[int, int] = field(repr=False, default_factory=dict)

    @property
    def win_rate(self) -> float:
        return self.righteous_wins / self.games if self.games else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.righteous_wins, self.games)

    @property
    def capped_share(self) -> float:
        """The share of games the lab's safety turn cap ended (decided on the score)."""
        n = self.ended.get("turn_cap_righteous", 0) + self.ended.get("turn_cap_evil", 0)
        return n / self.games if self.games else 0.0

    @property
    def round_limit_share(self) -> float:
        """The share of games the roundLimit variant ended (decided on the score, not a real win)."""
        n = self.ended.get("round_limit_righteous", 0) + self.ended.get("round_limit_evil", 0)
        return n / self.games if self.games else 0.0

    @property
    def variants(self) -> dict[str, Any]:
        """The play-test variants the cell's table plays (``variants_json``: by alias, and the sentence)."""
        return variants_json(Settings.from_dict(self.spec["settings"]))

    def rounds_summary(self) -> dict[str, float]:
        """Rounds per game: mean, median, 90th percentile, longest."""
        return _summary(self.rounds)

    def actions_summary(self) -> dict[str, float]:
        """Decisions (actions taken, every seat's) per game: mean, median, 90th percentile, most."""
        return _summary(self.actions)

    @property
    def first_evil_summary(self) -> dict[str, float] | None:
        """Decisions the first Evil turn took (median, 90th percentile, most); None when not
        measured or the games have no Evil seat."""
        vals = [v for v in self.first_evil if v >= 0]
        if not vals or len(vals) < len(self.first_evil):
            return None
        return _summary(vals)

    @property
    def pass_turn_figures(self) -> dict[str, float] | None:
        """Own turns in which a seat could only pass: mean a game, and share of all turns begun
        (None when the games were stored before the lab measured it)."""
        if not self.pass_turns or any(v < 0 for v in self.pass_turns):
            return None
        begun = sum(self.turns)
        return {"mean": statistics.fmean(self.pass_turns), "share": sum(self.pass_turns) / begun if begun else 0.0,
                "games_with_any": sum(1 for v in self.pass_turns if v) / len(self.pass_turns)}

    @property
    def real_wins(self) -> tuple[int, int]:
        """(Righteous, Evil) wins by a win condition (D-W-R, D-W-E), the turn cap's decisions apart."""
        return self.ended.get("righteous", 0), self.ended.get("evil", 0)

    @property
    def habitual_evil_wins(self) -> int:
        """Evil wins by the Habitual count held (D-W-E); in a duel the humilityWin variant's Evil win
        (Humility 0) is a real win too, but not this one."""
        if self.spec.get("mode") != "duel":
            return self.ended.get("evil", 0)
        return sum(n for reason, n in self.reasons.items() if HABITUAL_WIN in reason)

    @property
    def humility_evil_wins(self) -> int:
        """Evil wins by the humilityWin variant (every Righteous seat at Humility 0 for N rounds)."""
        return sum(n for reason, n in self.reasons.items() if HUMILITY_WIN in reason)

    @property
    def habitual_share_of_evil_wins(self) -> float | None:
        """The Evil win by Habituals (D-W-E) as a share of all Evil wins (turn-cap, round-limit and
        Humility-pressure ones included)."""
        evil = self.games - self.righteous_wins - self.ended.get("unfinished", 0)
        return self.habitual_evil_wins / evil if evil > 0 else None

    @property
    def locked_games(self) -> int | None:
        """Games in which some seat went LOCK_TURNS or more of its own turns in a row with no
        option but to pass (None when the games were stored before the lab measured it)."""
        measured = [v for v in self.locked if v >= 0]
        if not measured or len(measured) < len(self.locked):
            return None
        return sum(1 for v in measured if v >= LOCK_TURNS)

    @property
    def locked_share(self) -> float | None:
        n = self.locked_games
        return n / self.games if n is not None and self.games else None

    def turns_summary(self) -> dict[str, float]:
        s = sorted(self.turns)
        return {"mean": statistics.fmean(s) if s else 0.0, "median": _quantile(s, 0.5), "p10": _quantile(s, 0.1),
                "p90": _quantile(s, 0.9), "min": s[0] if s else 0, "max": s[-1] if s else 0}

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.ci
        t = self.turns_summary()
        first = self.first_evil_summary
        passes = self.pass_turn_figures
        return {"cell": self.id, "label": self.label, "games": self.games, "righteous_wins": self.righteous_wins,
                "variants": self.variants,
                "win_rate": round(self.win_rate, 4), "ci95": [round(lo, 4), round(hi, 4)],
                "turn_cap_share": round(self.capped_share, 4), "round_limit_share": round(self.round_limit_share, 4),
                "ended": self.ended, "reasons": self.reasons,
                "real_wins": {"righteous": self.real_wins[0], "evil": self.real_wins[1],
                              "evil_by_habituals": self.habitual_evil_wins,
                              "evil_by_humility": self.humility_evil_wins},
                "habitual_share_of_evil_wins": None if self.habitual_share_of_evil_wins is None
                else round(self.habitual_share_of_evil_wins, 4),
                "locked_games": self.locked_games,
                "locked_share": None if self.locked_share is None else round(self.locked_share, 4),
                "turns": {k: round(v, 2) for k, v in t.items()},
                "rounds": {k: round(v, 2) for k, v in self.rounds_summary().items()},
                "actions": {k: round(v, 2) for k, v in self.actions_summary().items()},
                "first_evil_turn_decisions": None if first is None else {k: round(v, 2) for k, v in first.items()},
                "pass_only_turns": None if passes is None else {k: round(v, 4) for k, v in passes.items()},
                "avg_rounds": round(statistics.fmean(self.rounds), 2) if self.rounds else 0.0,
                "avg_score": [round(statistics.fmean(self.score_r), 2) if self.score_r else 0.0,
                              round(statistics.fmean(self.score_e), 2) if self.score_e else 0.0],
                "per_game": {k: round(v, 3) for k, v in self.counts_mean.items()},
                "share_of_games": {k: round(v, 4) for k, v in self.counts_share.items()}}


def load_stats(db: str | os.PathLike[str], cell_ids: Sequence[int] | None = None,
               max_games: int | None = None) -> list[CellStats]:
    """Figures of the given cells (default: every cell with games), from games ``0 .. max_games-1``."""
    conn = open_existing(db)
    try:
        if cell_ids is None:
            cell_ids = [r[0] for r in conn.execute("SELECT DISTINCT cell FROM games ORDER BY cell")]
        specs = {cid: cell_spec(conn, cid) for cid in cell_ids}
        rows = fetch_rows(conn, cell_ids)
    finally:
        conn.close()
    col = {c: i for i, c in enumerate(ROW_COLUMNS)}
    by_cell: dict[int, list[tuple[Any, ...]]] = {cid: [] for cid in cell_ids}
    for r in rows:
        if max_games is None or r[col["idx"]] < max_games:
            by_cell[r[0]].append(r)
    out = []
    for cid in cell_ids:
        rs = by_cell[cid]
        n = len(rs)
        ended: dict[str, int] = {}
        reasons: dict[str, int] = {}
        extra_tot: dict[str, int] = {}
        extra_hit: dict[str, int] = {}
        for r in rs:
            ended[r[col["ended"]]] = ended.get(r[col["ended"]], 0) + 1
            reasons[r[col["reason"]]] = reasons.get(r[col["reason"]], 0) + 1
            for k, v in json.loads(r[col["extra"]]).items():
                extra_tot[k] = extra_tot.get(k, 0) + int(v)
                extra_hit[k] = extra_hit.get(k, 0) + (1 if v else 0)
        means = {c: (sum(r[col[c]] for r in rs) / n if n else 0.0) for c in COUNT_COLUMNS}
        shares = {c: (sum(1 for r in rs if r[col[c]]) / n if n else 0.0) for c in COUNT_COLUMNS}
        for k in sorted(extra_tot):
            means[k] = extra_tot[k] / n
            shares[k] = extra_hit[k] / n
        wins = {r[col["idx"]]: int(r[col["winner"]] == "righteous") for r in rs}
        out.append(CellStats(
            id=cid, label=specs[cid]["label"], spec=specs[cid], games=n, righteous_wins=sum(wins.values()),
            ended=dict(sorted(ended.items(), key=lambda kv: ENDED_ORDER.index(kv[0]) if kv[0] in ENDED_ORDER else 99)),
            reasons=dict(sorted(reasons.items(), key=lambda kv: -kv[1])),
            turns=[r[col["turns"]] for r in rs], rounds=[r[col["rounds"]] for r in rs],
            actions=[r[col["actions"]] for r in rs], score_r=[r[col["score_r"]] for r in rs],
            score_e=[r[col["score_e"]] for r in rs], counts_mean=means, counts_share=shares,
            ended_list=[r[col["ended"]] for r in rs], locked=[r[col["locked"]] for r in rs],
            first_evil=[r[col["first_evil_decisions"]] for r in rs], pass_turns=[r[col["pass_turns"]] for r in rs],
            wins_by_idx=wins, turns_by_idx={r[col["idx"]]: r[col["turns"]] for r in rs}))
    return out


def reproduce_command(stats: Sequence[CellStats]) -> str | None:
    """The ``lab`` command that plays these cells again (None when they are not one grid)."""
    if not stats:
        return None
    modes = {c.spec["mode"] for c in stats}
    seeds = {c.spec["seed"] for c in stats}
    games = {c.games for c in stats}
    keys = {tuple(c.spec["grid"]) for c in stats}
    if len(modes) != 1 or len(seeds) != 1 or len(games) != 1 or len(keys) != 1:
        return None
    lineups = list(dict.fromkeys(c.spec["lineup"] for c in stats))
    bots = list(dict.fromkeys(",".join(c.spec["bots"]) for c in stats))
    axes = {k: list(dict.fromkeys(c.spec["grid"][k] for c in stats)) for k in next(iter(keys))}
    size = len(lineups) * len(bots) * math.prod(len(v) for v in axes.values())
    if size != len(stats):
        return None
    parts = ["christianity-game lab", f"--mode {modes.pop()}", f"--lineup {','.join(lineups)}"]
    parts += [f"--set {k}={','.join(v)}" for k, v in axes.items()]
    parts += [f"--bots {b}" for b in bots]
    parts += [f"--games {games.pop()}", f"--seed {seeds.pop()}"]
    return " ".join(parts)


def report_notes(stats: Sequence[CellStats], db: str = "LAB.sqlite") -> list[str]:
    """What the reader must know: turn caps, seeds, how to play the games again."""
    notes = []
    command = reproduce_command(stats)
    if command:
        notes.append(f"Played with: {command} (add --out FILE.sqlite --report DIR).")
    capped = sorted({c.spec["settings"].get("max_turns", 0) for c in stats
                     if c.spec["mode"] == "duel" and not ({"maxTurns", "max_turns"} & set(c.spec["grid"]))})
    if capped:
        cap = capped[0] if len(capped) == 1 else DUEL_TURN_CAP
        notes.append(f"The printed duel has no round limit (a cell that plays the roundLimit variant ends at its "
                     f"own first), so every duel cell ran with a turn cap of {cap} "
                     f"(maxTurns={cap}, the lab's default; the grid did not set maxTurns). A game that reaches "
                     "the cap is decided by the stalemate score (D-SCORE), ties going to Evil; the tables "
                     "show how many games ended that way.")
    seeds = sorted({c.spec["seed"] for c in stats})
    if len(seeds) == 1:
        notes.append(f"Run seed {seeds[0]}: game i of every cell has the seed game_seed({seeds[0]}, i), so the "
                     "cells play the same shuffles (common random numbers) and differences between variants "
                     "are measured on paired games.")
    notes.append("Win rate is the Righteous side's share of games won (turn-cap and round-limit decisions included); "
                 "the interval is a 95 % Wilson score interval.")
    notes.append(f"Any game can be played again from the database ({db}): "
                 f"christianity-game replay --db {db} --cell N --game I.")
    return notes


# ---------------------------------------------------------------------------------------- effects
@dataclass
class Effect:
    """Cell ``b`` against cell ``a``, differing in one setting, on paired games."""

    setting: str
    a: CellStats
    b: CellStats
    pairs: int
    diff: float
    lo: float
    hi: float
    turns_diff: float


def variant_effects(stats: Sequence[CellStats]) -> list[Effect]:
    """For each pair of cells that differ in exactly one grid setting (same line-up, bots and
    seed), the change in win rate (paired games, 95 % normal interval) and in mean turns."""
    out = []
    for i, a in enumerate(stats):
        for b in stats[i + 1:]:
            sa, sb = a.spec, b.spec
            if (sa["mode"], sa["lineup"], sa["bots"], sa["seed"]) != (sb["mode"], sb["lineup"], sb["bots"], sb["seed"]):
                continue
            if set(sa["grid"]) != set(sb["grid"]):
                continue
            diff_keys = [k for k in sa["grid"] if sa["grid"][k] != sb["grid"][k]]
            if len(diff_keys) != 1:
                continue
            common = sorted(set(a.wins_by_idx) & set(b.wins_by_idx))
            n = len(common)
            if n < 2:
                continue
            d = [b.wins_by_idx[k] - a.wins_by_idx[k] for k in common]
            mean = sum(d) / n
            sd = statistics.stdev(d)
            half = Z95 * sd / math.sqrt(n)
            td = sum(b.turns_by_idx[k] - a.turns_by_idx[k] for k in common) / n
            key = diff_keys[0]
            out.append(Effect(f"{key}: {sa['grid'][key]} → {sb['grid'][key]}", a, b, n, mean, mean - half,
                              mean + half, td))
    return out


# ---------------------------------------------------------------------------------------- strength
@dataclass
class StrengthPoint:
    """One cell on the strength plot: which side the search bot played, at what budget."""

    side: str          # "Righteous" or "Evil"
    budget: float      # ms a decision, or iterations (0: heuristic against heuristic)
    budget_label: str
    bots: str
    cell: CellStats


def _seat_levels(spec: dict[str, Any]) -> list[str]:
    bots = list(spec["bots"])
    return bots * len(spec["lineup"]) if len(bots) == 1 else bots


def strength_points(stats: Sequence[CellStats]) -> list[StrengthPoint]:
    """Cells where every seat of one side is the search bot (one budget) and every other seat the
    heuristic bot, and the all-heuristic cells of the same line-up (budget 0, on both lines)."""
    from ..bots.search import parse_budget

    points: list[StrengthPoint] = []
    searched: set[str] = set()
    base: list[CellStats] = []
    for c in stats:
        if c.spec["mode"] != "duel":
            continue
        levels = _seat_levels(c.spec)
        sides = {"Righteous": {lv for lv, ch in zip(levels, c.spec["lineup"]) if ch == "R"},
                 "Evil": {lv for lv, ch in zip(levels, c.spec["lineup"]) if ch == "E"}}
        if sides["Righteous"] == sides["Evil"] == {"heuristic"}:
            base.append(c)
            continue
        for side, other in (("Righteous", "Evil"), ("Evil", "Righteous")):
            lv = sides[side]
            if len(lv) == 1 and next(iter(lv)).startswith("search") and sides[other] == {"heuristic"}:
                name = next(iter(lv))
                ms, its = parse_budget(name)
                points.append(StrengthPoint(side, float(ms if ms is not None else its or 0),
                                            name.partition(":")[2] or name, ",".join(c.spec["bots"]), c))
                searched.add(c.spec["lineup"])
    for c in base:
        if c.spec["lineup"] in searched:
            for side in ("Righteous", "Evil"):
                points.append(StrengthPoint(side, 0.0, "0 (heuristic)", ",".join(c.spec["bots"]), c))
    points.sort(key=lambda p: (p.cell.spec["lineup"], p.side, p.budget, p.cell.id))
    return points


# ---------------------------------------------------------------------------------------- plots
def _short(label: str, width: int = 44) -> str:
    return label if len(label) <= width else label[: width - 1] + "…"


def _plots(stats: Sequence[CellStats], out: Path) -> list[tuple[str, str]]:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    files: list[tuple[str, str]] = []
    labels = [f"{c.id}: {_short(c.label)}" for c in stats]
    n = len(stats)
    height = max(2.4, 0.42 * n + 1.2)

    def save(fig: Any, name: str, caption: str) -> None:
        fig.tight_layout()
        fig.savefig(out / name, dpi=90)
        plt.close(fig)
        files.append((name, caption))

    # win rate with Wilson intervals
    fig, ax = plt.subplots(figsize=(8, height))
    y = list(range(n))[::-1]
    rates = [c.win_rate for c in stats]
    lo = [max(0.0, c.win_rate - c.ci[0]) for c in stats]
    hi = [max(0.0, c.ci[1] - c.win_rate) for c in stats]
    ax.barh(y, rates, color="#3b7dd8", alpha=0.75)
    ax.errorbar(rates, y, xerr=[lo, hi], fmt="none", ecolor="black", capsize=3)
    ax.axvline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_yticks(y, labels)
    ax.set_xlim(0, 1)
    ax.set_xlabel("Righteous win rate (95 % Wilson interval)")
    save(fig, "win_rate.png", "Righteous win rate per cell, with 95 % Wilson intervals.")

    # win rate against the search bot's budget, one line a side (and line-up, settings)
    points = strength_points(stats)
    if points:
        fig, ax = plt.subplots(figsize=(8, 4.2))
        lines: dict[tuple[str, str], list[StrengthPoint]] = {}
        for p in points:
            key = (p.side, " · ".join([p.cell.spec["lineup"], *(f"{k}={v}" for k, v in p.cell.spec["grid"].items())]))
            lines.setdefault(key, []).append(p)
        for (side, where), pts in sorted(lines.items()):
            pts.sort(key=lambda p: p.budget)
            xs = [p.budget for p in pts]
            ys = [p.cell.win_rate for p in pts]
            err = [[max(0.0, p.cell.win_rate - p.cell.ci[0]) for p in pts], [max(0.0, p.cell.ci[1] - p.cell.win_rate) for p in pts]]
            ax.errorbar(xs, ys, yerr=err, marker="o" if side == "Righteous" else "s", capsize=3,
                        color="#3b7dd8" if side == "Righteous" else "#c8443a", alpha=0.85,
                        label=f"search bot on the {side} side ({where})")
        ax.axhline(0.5, color="grey", lw=0.8, ls="--")
        ax.set_ylim(0, 1)
        ax.set_xlabel("search budget a decision (0: heuristic against heuristic)")
        ax.set_ylabel("Righteous win rate")
        ax.legend(fontsize=7, loc="best")
        save(fig, "strength.png", "Righteous win rate against the search bot's budget, for each side it plays "
             "(the other side heuristic), with 95 % Wilson intervals.")

    # how the games ended
    fig, ax = plt.subplots(figsize=(8, height))
    left = [0.0] * n
    kinds = [k for k in ENDED_ORDER if any(c.ended.get(k) for c in stats)]
    for k in kinds:
        vals = [c.ended.get(k, 0) / c.games if c.games else 0 for c in stats]
        ax.barh(y, vals, left=left, color=ENDED_COLOUR[k], label=ENDED_LABEL[k])
        left = [a + b for a, b in zip(left, vals)]
    ax.set_yticks(y, labels)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of games")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18 if n < 6 else -0.08), ncol=2, fontsize=8, frameon=False)
    save(fig, "endings.png", "How the games ended.")

    # game length
    fig, ax = plt.subplots(figsize=(8, height))
    ax.boxplot([c.turns or [0] for c in stats][::-1], orientation="horizontal", showfliers=True, showmeans=True,
               flierprops={"markersize": 2, "alpha": 0.3}, meanprops={"marker": "D", "markersize": 4})
    ax.set_yticks(range(1, n + 1), labels[::-1])
    ax.set_xlabel("turns per game (box: quartiles, line: median, diamond: mean)")
    save(fig, "turns_box.png", "Game length in turns (every seat's turn counts).")

    if n <= 12:
        cols = min(3, n)
        rows = math.ceil(n / cols)
        fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 2.2 * rows), sharex=True, squeeze=False)
        top = max((max(c.turns) for c in stats if c.turns), default=1)
        step = max(1, (top + 1) // 40)
        bins = list(range(0, top + step + 1, step))   # the last bin holds the longest game
        for ax, c in zip(axes.flat, stats):
            capped = [t for t, e in zip(c.turns, c.ended_list) if e.startswith("turn_cap")]
            ax.hist([[t for t, e in zip(c.turns, c.ended_list) if not e.startswith("turn_cap")], capped],
                    bins=bins, stacked=True, color=["#5a8f3c", "#e0a030"])
            ax.set_title(_short(f"{c.id}: {c.label}", 34), fontsize=8)
            ax.tick_params(labelsize=7)
        for ax in list(axes.flat)[n:]:
            ax.axis("off")
        fig.supxlabel("turns per game (orange: games the turn cap ended)", fontsize=8)
        save(fig, "turns_hist.png", "Distribution of game length (turns), one panel a cell; orange: games the "
             "turn cap ended.")

    # scores
    fig, ax = plt.subplots(figsize=(8, height + 0.4))
    pos_r = [2 * i + 0.8 for i in range(n)][::-1]
    pos_e = [2 * i + 1.3 for i in range(n)][::-1]
    br = ax.boxplot([c.score_r or [0] for c in stats], positions=pos_r, widths=0.4, orientation="horizontal", patch_artist=True,
                    showfliers=False)
    be = ax.boxplot([c.score_e or [0] for c in stats], positions=pos_e, widths=0.4, orientation="horizontal", patch_artist=True,
                    showfliers=False)
    for patch in br["boxes"]:
        patch.set_facecolor("#9cc0f0")
    for patch in be["boxes"]:
        patch.set_facecolor("#f0a8a0")
    ax.set_yticks([2 * i + 1.05 for i in range(n)][::-1], labels)
    ax.set_xlabel("stalemate score at the end (D-SCORE): blue Righteous, red Evil")
    save(fig, "scores.png", "Final stalemate scores (D-SCORE), Righteous (blue) and Evil (red).")

    # what fired: mean per game, coloured per column
    keys = [k for k in stats[0].counts_mean if any(c.counts_mean.get(k, 0) for c in stats)] if stats else []
    if keys:
        import numpy as np
        data = np.array([[c.counts_mean.get(k, 0.0) for k in keys] for c in stats])
        top_col = data.max(axis=0)
        top_col[top_col == 0] = 1
        fig, ax = plt.subplots(figsize=(max(8, 0.42 * len(keys) + 3), height + 1.6))
        ax.imshow(data / top_col, aspect="auto", cmap="Blues", vmin=0, vmax=1.15)
        for i in range(data.shape[0]):
            for j in range(data.shape[1]):
                v = data[i, j]
                ax.text(j, i, f"{v:.1f}" if v < 100 else f"{v:.0f}", ha="center", va="center", fontsize=6.5)
        ax.set_xticks(range(len(keys)), [COUNT_LABEL.get(k, k) for k in keys], rotation=60, ha="right", fontsize=7)
        ax.set_yticks(range(n), labels, fontsize=8)
        ax.set_title("rules that fired: mean per game (shade: relative to the column's highest)", fontsize=9)
        save(fig, "firing.png", "What fired, mean per game.")
    return files


# ---------------------------------------------------------------------------------------- tables
def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _tables(stats: Sequence[CellStats]) -> dict[str, tuple[list[str], list[list[str]]]]:
    t: dict[str, tuple[list[str], list[list[str]]]] = {}
    t["variants"] = (["cell", "variant", "play-test variants (departures from the printed rules)"],
                     [[str(c.id), c.label, c.variants["text"]] for c in stats])
    t["win"] = (["cell", "variant", "games", "Righteous wins", "win rate", "95 % CI", "by turn cap", "by round limit",
                 "unfinished"],
                [[str(c.id), c.label, str(c.games), str(c.righteous_wins), _pct(c.win_rate),
                  f"{_pct(c.ci[0])} – {_pct(c.ci[1])}", _pct(c.capped_share), _pct(c.round_limit_share),
                  str(c.ended.get("unfinished", 0))]
                 for c in stats])
    rows = []
    for c in stats:
        rw, _ = c.real_wins
        cap_r, cap_e = c.ended.get("turn_cap_righteous", 0), c.ended.get("turn_cap_evil", 0)
        lim_r, lim_e = c.ended.get("round_limit_righteous", 0), c.ended.get("round_limit_evil", 0)
        share = c.habitual_share_of_evil_wins
        locked = c.locked_games
        hw, uw = c.habitual_evil_wins, c.humility_evil_wins
        rows.append([str(c.id), c.label, str(c.games), f"{rw} ({_pct(rw / c.games)})", f"{hw} ({_pct(hw / c.games)})",
                     f"{uw} ({_pct(uw / c.games)})" if uw else "–",
                     f"{cap_r + cap_e} ({_pct((cap_r + cap_e) / c.games)})", f"{cap_r} / {cap_e}",
                     f"{lim_r + lim_e} ({_pct((lim_r + lim_e) / c.games)})", f"{lim_r} / {lim_e}",
                     "–" if share is None else _pct(share),
                     "not measured" if locked is None else f"{locked} ({_pct(locked / c.games)})"])
    t["real"] = (["cell", "variant", "games", "Righteous wins (clean round)", "Evil wins (Habituals)",
                  "Evil wins (Humility 0)",
                  "ended by the turn cap", "cap: Righteous / Evil ahead", "ended by the round limit",
                  "limit: Righteous / Evil ahead", "Habitual wins of Evil wins",
                  f"locked ({LOCK_TURNS}+ own turns)"], rows)
    strength = strength_points(stats)
    t["strength"] = (["side with the search bot", "bots", "budget", "cell", "games", "Righteous win rate", "95 % CI"],
                     [[p.side, p.bots, p.budget_label, str(p.cell.id), str(p.cell.games), _pct(p.cell.win_rate),
                       f"{_pct(p.cell.ci[0])} – {_pct(p.cell.ci[1])}"] for p in strength])
    rows = []
    for c in stats:
        s = c.turns_summary()
        rows.append([str(c.id), c.label, f"{s['mean']:.1f}", f"{s['median']:.0f}", f"{s['p10']:.0f} – {s['p90']:.0f}",
                     f"{s['min']:.0f} – {s['max']:.0f}",
                     f"{statistics.fmean(c.rounds):.1f}" if c.rounds else "–",
                     f"{statistics.fmean(c.actions):.0f}" if c.actions else "–"])
    t["length"] = (["cell", "variant", "mean turns", "median", "10–90 %", "min – max", "mean rounds", "mean actions"],
                   rows)
    rows = []
    for c in stats:
        r, a = c.rounds_summary(), c.actions_summary()
        first, passes = c.first_evil_summary, c.pass_turn_figures
        rows.append([str(c.id), c.label, f"{r['median']:.0f}", f"{r['p90']:.0f}", f"{a['median']:.0f}", f"{a['p90']:.0f}",
                     "–" if first is None else f"{first['median']:.0f}",
                     "–" if first is None else f"{first['p90']:.0f}",
                     "not measured" if passes is None else f"{passes['mean']:.1f}",
                     "not measured" if passes is None else _pct(passes["share"])])
    t["pace"] = (["cell", "variant", "rounds: median", "p90", "decisions: median", "p90",
                  "Evil's first turn: median decisions", "p90", "pass-only turns a game", "share of turns"], rows)
    rows = []
    for c in stats:
        sr, se = sorted(c.score_r), sorted(c.score_e)
        margin = [a - b for a, b in zip(c.score_r, c.score_e)]
        rows.append([str(c.id), c.label,
                     f"{statistics.fmean(sr):.1f}" if sr else "–", f"{_quantile(sr, 0.5):.0f}",
                     f"{statistics.fmean(se):.1f}" if se else "–", f"{_quantile(se, 0.5):.0f}",
                     f"{statistics.fmean(margin):+.1f}" if margin else "–"])
    t["score"] = (["cell", "variant", "Righteous mean", "median", "Evil mean", "median", "mean margin (R − E)"], rows)
    kinds = [k for k in ENDED_ORDER if any(c.ended.get(k) for c in stats)]
    t["ended"] = (["cell", "variant", *[ENDED_LABEL[k] for k in kinds]],
                  [[str(c.id), c.label, *[f"{c.ended.get(k, 0)} ({_pct(c.ended.get(k, 0) / c.games)})"
                                          if c.games else "0" for k in kinds]] for c in stats])
    keys = [k for k in stats[0].counts_mean if any(c.counts_mean.get(k, 0) for c in stats)] if stats else []
    t["firing"] = (["what fired", *[f"cell {c.id}" for c in stats]],
                   [[COUNT_LABEL.get(k, k), *[f"{c.counts_mean.get(k, 0):.2f} ({_pct(c.counts_share.get(k, 0))})"
                                              for c in stats]] for k in keys])
    effects = variant_effects(stats)
    t["effects"] = (["setting changed", "line-up · others", "cells", "paired games", "Δ win rate", "95 % CI",
                     "Δ mean turns"],
                    [[e.setting, _others(e), f"{e.a.id} → {e.b.id}", str(e.pairs), f"{100 * e.diff:+.1f} pp",
                      f"{100 * e.lo:+.1f} – {100 * e.hi:+.1f} pp", f"{e.turns_diff:+.1f}"] for e in effects])
    return t


def _others(e: Effect) -> str:
    key = e.setting.split(":")[0]
    rest = [f"{k}={v}" for k, v in e.a.spec["grid"].items() if k != key]
    return " · ".join([e.a.spec["lineup"], *rest, ",".join(e.a.spec["bots"])])


SECTIONS = (
    ("variants", "Play-test variants", "What each cell's table plays: the printed rules, or the play-test "
     "variants it turns on (engine/variants.py), each a departure from a stated rule."),
    ("win", "Win rate", "The Righteous side's wins; the 95 % interval is Wilson's. “By turn cap”: games the turn "
     "cap ended, decided on the stalemate score; “by round limit”: games the roundLimit variant ended, decided "
     "on the score too."),
    ("real", "Real wins, turn caps and locked seats", "Wins by a win condition (the Righteous clean round, D-W-R; "
     "the Evil Habitual count held for a round, D-W-E) apart from games the lab's safety turn cap or the "
     f"roundLimit variant ended (decided on the stalemate score). “Locked”: games in which some seat went {LOCK_TURNS} or more of its own turns in a row "
     "with no option but to pass."),
    ("strength", "Win rate against bot strength", "Cells in which one side's seats are played by the search bot "
     "(budget per decision) and the other side's by the heuristic bot; budget 0 is heuristic against heuristic. "
     "The Righteous win rate should rise with the Righteous side's budget and fall with the Evil side's."),
    ("effects", "Variant effects", "Cells that differ in one setting only, compared game by game on the same "
     "seeds: the change in the Righteous win rate (95 % normal interval on the paired differences) and in "
     "game length."),
    ("ended", "How the games ended", ""),
    ("length", "Game length", "Turns count every seat's turn (turns started: a game the turn cap of N stops "
     "shows N + 1); a round is one turn for every seat."),
    ("pace", "Length and pace", "Rounds and decisions per game (median and 90th percentile; a decision is one "
     "action taken, by any seat); how many decisions the first Evil turn took (every seat's, answers to its "
     "threats included); and own turns in which the seat had no option but to pass (mean a game, and their "
     "share of all turns begun; a last turn the game ended at the start of is not counted)."),
    ("score", "Score", "The stalemate score at the end of the game (D-SCORE): Righteous = Σ Maturity × 5 + "
     "Resisted pile; Evil = Failed pile + Evil Habituals in play × 5."),
    ("firing", "What fired", "Mean per game, and in brackets the share of games in which it fired at least "
     "once. Threats, Habituals, abilities and overflow discards are counted from the event log (every mode); "
     "the combo, micro-reward (MR) and micro-boost (MB) rows from the duel's own counters."),
)
PLOTS_AFTER = {"win": ["win_rate.png"], "strength": ["strength.png"], "ended": ["endings.png"], "length": ["turns_box.png", "turns_hist.png"],
               "score": ["scores.png"], "firing": ["firing.png"]}


def md_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table (the lab's and the tuner's reports)."""
    def esc(s: str) -> str:
        return s.replace("|", "\\|")
    lines = ["| " + " | ".join(esc(h) for h in head) + " |", "|" + "|".join(["---"] * len(head)) + "|"]
    lines += ["| " + " | ".join(esc(x) for x in r) + " |" for r in rows]
    return "\n".join(lines)


def html_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """An HTML table (the lab's and the tuner's reports)."""
    out = ["<table><thead><tr>", *[f"<th>{html.escape(h)}</th>" for h in head], "</tr></thead><tbody>"]
    for r in rows:
        out.append("<tr>" + "".join(f"<td>{html.escape(x)}</td>" for x in r) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _header(stats: Sequence[CellStats], title: str) -> tuple[str, list[str]]:
    modes = sorted({c.spec["mode"] for c in stats})
    bots = sorted({",".join(c.spec["bots"]) for c in stats})
    games = sorted({c.games for c in stats})
    codes = sorted({c.spec["code"] for c in stats})
    facts = [f"mode {', '.join(modes)}", f"{len(stats)} cells",
             f"{games[0]} games a cell" if len(games) == 1 else f"{games[0]}–{games[-1]} games a cell",
             f"{sum(c.games for c in stats)} games in all", f"bots {', '.join(bots)}",
             f"engine fingerprint {', '.join(codes)}", f"written {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC"]
    return title, facts


@dataclass
class Report:
    html: Path
    markdown: Path
    images: list[Path]
    stats: list[CellStats]
    summary: str   # the Markdown summary's text


def markdown_summary(stats: Sequence[CellStats], title: str = "Balance lab", images: Sequence[str] = (),
                     extra_notes: Sequence[str] = (), db: str = "LAB.sqlite") -> str:
    """The summary as Markdown (also what the terminal shows)."""
    title, facts = _header(stats, title)
    tables = _tables(stats)
    parts = [f"# {title}", "", " · ".join(facts), ""]
    for note in [*extra_notes, *report_notes(stats, db)]:
        parts.append(f"- {note}")
    parts.append("")
    for key, name, text in SECTIONS:
        head, rows = tables[key]
        if not rows:
            continue
        parts += [f"## {name}", ""]
        if text:
            parts += [text, ""]
        parts += [md_table(head, rows), ""]
        for img in PLOTS_AFTER.get(key, []):
            if img in images:
                parts += [f"![{img}]({img})", ""]
    return "\n".join(parts)


def write_report(db: str | os.PathLike[str], out_dir: str | os.PathLike[str], cell_ids: Sequence[int] | None = None,
                 title: str = "Balance lab", max_games: int | None = None,
                 extra_notes: Sequence[str] = ()) -> Report:
    """Write ``index.html``, ``summary.md`` and the PNG plots into ``out_dir``."""
    stats = load_stats(db, cell_ids, max_games)
    stats = [c for c in stats if c.games]
    if not stats:
        raise LabError("no games stored for these cells: nothing to report")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    images = _plots(stats, out)
    names = [n for n, _ in images]
    captions = dict(images)
    md = markdown_summary(stats, title, names, extra_notes, Path(db).name)
    md_path = out / "summary.md"
    md_path.write_text(md + "\n", encoding="utf-8")
    # HTML
    title, facts = _header(stats, title)
    tables = _tables(stats)
    body = [f"<h1>{html.escape(title)}</h1>", f"<p class='facts'>{html.escape(' · '.join(facts))}</p>", "<ul>"]
    body += [f"<li>{html.escape(n)}</li>" for n in [*extra_notes, *report_notes(stats, Path(db).name)]]
    body.append("</ul>")
    body.append("<h2>Cells</h2>" + html_table(
        ["cell", "mode", "line-up", "bots", "settings set by the grid", "full settings"],
        [[str(c.id), c.spec["mode"], c.spec["lineup"], ",".join(c.spec["bots"]),
          " ".join(f"{k}={v}" for k, v in c.spec["grid"].items()) or "–",
          ", ".join(f"{k}={v}" for k, v in c.spec["settings"].items())] for c in stats]))
    for key, name, text in SECTIONS:
        head, rows = tables[key]
        if not rows:
            continue
        body.append(f"<h2>{html.escape(name)}</h2>")
        if text:
            body.append(f"<p>{html.escape(text)}</p>")
        body.append(html_table(head, rows))
        for img in PLOTS_AFTER.get(key, []):
            if img in captions:
                body.append(f"<figure><img src='{img}' alt='{html.escape(captions[img])}'>"
                            f"<figcaption>{html.escape(captions[img])}</figcaption></figure>")
    reasons = sorted({r for c in stats for r in c.reasons})
    body.append("<h2>End reasons, as the engine gives them</h2>" + html_table(
        ["reason", *[f"cell {c.id}" for c in stats]],
        [[r, *[str(c.reasons.get(r, 0)) for c in stats]] for r in reasons]))
    body.append("<details><summary>Figures as JSON</summary><pre>"
                + html.escape(json.dumps([c.to_json() for c in stats], indent=1)) + "</pre></details>")
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; padding: 0 1em; color: #222; }}
table {{ border-collapse: collapse; margin: 0.6em 0 1.2em; font-size: 0.88em; }}
th, td {{ border: 1px solid #ccc; padding: 0.25em 0.55em; text-align: right; }}
th {{ background: #f0f3f8; }} td:nth-child(2), th:nth-child(2), td:first-child {{ text-align: left; }}
.facts {{ color: #555; }} figure {{ margin: 0.5em 0 1.5em; }} img {{ max-width: 100%; }}
figcaption {{ color: #555; font-size: 0.85em; }} pre {{ font-size: 0.75em; }}
</style></head><body>
{chr(10).join(body)}
</body></html>
"""
    html_path = out / "index.html"
    html_path.write_text(page, encoding="utf-8")
    return Report(html_path, md_path, [out / n for n in names], stats, md)
