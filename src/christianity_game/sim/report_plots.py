"""The balance lab report's PNG plots (matplotlib, drawn off screen): win rates, win rate against
the search bot's budget, how the games ended, game length, scores and what fired."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Sequence

from .report_stats import COUNT_LABEL, ENDED_LABEL, ENDED_ORDER, CellStats, StrengthPoint, strength_points

ENDED_COLOUR = {"righteous": "#3b7dd8", "round_limit_righteous": "#c4d8f4", "turn_cap_righteous": "#9cc0f0",
                "turn_cap_evil": "#f0a8a0", "round_limit_evil": "#f6cfc9", "evil": "#c8443a", "unfinished": "#999999"}


def _short(label: str, width: int = 44) -> str:
    return label if len(label) <= width else label[: width - 1] + "…"


def write_plots(stats: Sequence[CellStats], out: Path) -> list[tuple[str, str]]:
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
