"""The balance lab's figures, read back from its SQLite file: each cell's (:class:`CellStats`, made
by :func:`load_stats`: win rate with its Wilson interval, how the games ended, length, pace, what
fired), the effect of one setting on paired games (:func:`variant_effects`) and the win rate
against the search bot's budget (:func:`strength_points`)."""

from __future__ import annotations

import json
import math
import os
import statistics
from dataclasses import dataclass, field
from typing import Any, Sequence

from ..engine.settings import Settings
from ..engine.variants import variants_json
from ..stats import Z95, wilson
from .lab_games import LOCK_TURNS
from .lab_rows import COUNT_COLUMNS, ROW_COLUMNS, cell_spec, fetch_rows, open_existing

#: how a game ended (lab_rows.py ``_end_kind``): a real win, the roundLimit variant's score decision,
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


def quantile(sorted_vals: Sequence[float], q: float) -> float:
    if not sorted_vals:
        return 0.0
    pos = (len(sorted_vals) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_vals) - 1)
    return sorted_vals[lo] + (sorted_vals[hi] - sorted_vals[lo]) * (pos - lo)


def _summary(vals: Sequence[float]) -> dict[str, float]:
    """Mean, median, 90th percentile and largest of a list of counts (zeros when empty)."""
    s = sorted(vals)
    return {"mean": statistics.fmean(s) if s else 0.0, "median": quantile(s, 0.5), "p90": quantile(s, 0.9),
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
        return {"mean": statistics.fmean(s) if s else 0.0, "median": quantile(s, 0.5), "p10": quantile(s, 0.1),
                "p90": quantile(s, 0.9), "min": s[0] if s else 0, "max": s[-1] if s else 0}

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
