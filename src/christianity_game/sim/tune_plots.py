"""The tuner report's PNG plots (matplotlib, drawn off screen): every trial against its departures,
the study's history, the parameters' importance, and the confirmed candidates' win rates and
lengths on both seeds."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from .tune_config import TuneConfig
from .tune_confirm import Candidate, front_trials
from .tune_study import complete_trials
from .tune_targets import bands_text

if TYPE_CHECKING:
    import optuna

def write_plots(study: "optuna.Study", config: TuneConfig, candidates: Sequence[Candidate], imp: Mapping[str, float],
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
                rates = [config.targets.rate(f) for f in cells]
                intervals = [config.targets.interval(f) for f in cells]
                err = [[max(0.0, r - iv[0]) for r, iv in zip(rates, intervals)],
                       [max(0.0, iv[1] - r) for r, iv in zip(rates, intervals)]]
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
        counted = "real wins" if config.wins == "real" else "wins, the score's decisions counted"
        fig.supxlabel(f"Righteous {counted} (95 % Wilson interval); green: the target band", fontsize=8)
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
