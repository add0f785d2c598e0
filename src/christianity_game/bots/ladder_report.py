"""The ladder's report (``christianity-game ladder --out``): ``ladder.json``, ``ladder.md`` and
``ladder.png`` from a :class:`~.ladder.LadderResult` (what each holds: ``bots/ladder.py``'s
docstring)."""

from __future__ import annotations

import json
from pathlib import Path

from ..stats import wilson
from .ladder import LadderResult
from .registry import level_of


def report(result: LadderResult, out: Path) -> list[Path]:
    """Write ladder.json, ladder.md and ladder.png into ``out``; the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    data = result.to_json()
    paths = [out / "ladder.json", out / "ladder.md", out / "ladder.png"]
    paths[0].write_text(json.dumps(data, indent=1) + "\n")
    paths[1].write_text(markdown(result))
    plot(result, paths[2])
    return paths


def _record_md(wins: int, losses: int, draws: int) -> str:
    """A record in a report: wins-losses-draws, with the win share of the decisive games and its
    95% Wilson interval."""
    lo, hi = wilson(wins, wins + losses)
    share = f" ({100 * wins / (wins + losses):.0f}%, {100 * lo:.0f}-{100 * hi:.0f})" if wins + losses else ""
    return f"{wins}-{losses}-{draws}{share}"


def markdown(result: LadderResult) -> str:
    names = result.entrants
    lines = [f"# Bot ladder: {', '.join(names)}", "",
             f"{result.games} seeds a table, run seed {result.seed}; tables: "
             + ", ".join(t.label + (f" ({', '.join(f'{k}={v}' for k, v in t.settings.variants.items())})"
                                    if t.settings.variants else "") for t in result.tables) + ".", "",
             "| rank | entrant | bot | mu | 95% interval | ordinal (mu - 3 sigma) |", "|---|---|---|---|---|---|"]
    for i, r in enumerate(sorted(result.ratings, key=lambda r: -r["mu"]), 1):
        lines.append(f"| {i} | {r['entrant']} | {level_of(str(r['entrant']))} | {r['mu']:.2f} | "
                     f"{r['low']:.2f} to {r['high']:.2f} | {r['ordinal']:.2f} |")

    if result.strengths:
        lines += ["", "Bradley-Terry strengths, fitted to every game at once, in Elo points (mean 0), with 95% "
                  "bootstrap intervals over the deals; the gap is over the entrant on the next line:", "",
                  "| rank | entrant | Elo | 95% interval | gap over the next | 95% interval of the gap |",
                  "|---|---|---|---|---|---|"]
        for i, r in enumerate(result.strengths, 1):
            span = f"{r['low']:+.0f} to {r['high']:+.0f}" if "low" in r else "—"
            gap = f"{r['gap']:+.0f} over {r['over']}" if "gap" in r else "—"
            gap_span = f"{r['gap_low']:+.0f} to {r['gap_high']:+.0f}" if "gap_low" in r else "—"
            lines.append(f"| {i} | {r['entrant']} | {r['elo']:+.0f} | {span} | {gap} | {gap_span} |")

    def table_md(title: str, m: list[list[tuple[int, int, int]]]) -> list[str]:
        rows = ["", f"## {title}", "", "wins-losses-draws of the row against the column (win share of the decisive "
                "games, 95% Wilson interval)", "", "| | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
        for i, row in enumerate(m):
            cells = ["—" if i == j else _record_md(*cell) for j, cell in enumerate(row)]
            rows.append(f"| {names[i]} | " + " | ".join(cells) + " |")
        return rows

    def sides_md(t: int) -> list[str]:
        rows = ["", "By side: each entrant's wins-losses-draws on the Evil seats and on the Righteous ones, "
                "against every other entrant (win share of the decisive games, 95% Wilson interval)", "",
                "| entrant | as Evil | as Righteous |", "|---|---|---|"]
        for name, by_side in zip(names, result.sides(t)):
            rows.append(f"| {name} | {_record_md(*by_side['evil'])} | {_record_md(*by_side['righteous'])} |")
        return rows

    def deals_md(t: int) -> list[str]:
        rows = ["", "Deal by deal (duplicate scoring): on each deal a pair played once each way; the entrant that "
                "did better over the two games takes the deal outright, and when the same side won both games "
                "the deal goes to the entrant whose winning side won in fewer turns (even: as long, or two "
                "draws; unknown: a length the game log lacks). The first entrant's deals taken-lost-even, with "
                "its share of the deals taken and the 95% Wilson interval", "",
                "| pair | deals | outright | same side won both: by length | even | unknown "
                "| first entrant: taken-lost-even (share) |",
                "|---|---|---|---|---|---|---|"]
        for r in result.deals(t):
            share = _record_md(r["outright"][0] + r["by_length"][0], r["outright"][1] + r["by_length"][1], r["even"])
            rows.append(f"| {r['a']} - {r['b']} | {r['deals']} | {r['outright'][0]}-{r['outright'][1]} | "
                        f"{r['by_length'][0]}-{r['by_length'][1]} | {r['even']} | {r['unknown']} | {share} |")
        return rows

    lines += table_md("All tables", result.matrix())
    for t, table in enumerate(result.tables):
        lines += table_md(table.label, result.matrix(t))
        if table.mode == "duel":
            lines += sides_md(t)
            lines += deals_md(t)
    played = f"{len(result.matches)} rated results in {result.seconds:.0f} s"
    if result.resumed:
        played += f" ({result.resumed} games taken from the game log, the others played in that time)"
    lines += ["", f"{played}; seconds a game: "
              + ", ".join(f"{k} {v:.2f}" for k, v in result.game_seconds.items()), ""]
    return "\n".join(lines)


def plot(result: LadderResult, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 0.6 * len(result.entrants) + 3))
    if result.strengths and all("low" in r for r in result.strengths):
        rows = list(reversed(result.strengths))   # the strongest at the top
        names = [str(r["entrant"]) for r in rows]
        at = [r["elo"] for r in rows]
        err = [[r["elo"] - r["low"] for r in rows], [r["high"] - r["elo"] for r in rows]]
        ax1.set_xlabel("Bradley-Terry strength, Elo points (95% bootstrap interval)")
    else:
        ratings = sorted(result.ratings, key=lambda r: r["mu"])
        names = [str(r["entrant"]) for r in ratings]
        at = [r["mu"] for r in ratings]
        err = [[1.96 * r["sigma"] for r in ratings]] * 2
        ax1.set_xlabel("OpenSkill mu (95% interval)")
    ax1.errorbar(at, range(len(names)), xerr=err, fmt="o", capsize=4)
    ax1.set_yticks(range(len(names)), names)
    ax1.set_title("Ratings")
    m = result.matrix()
    order = list(result.entrants)
    share = [[float("nan") if i == j or (m[i][j][0] + m[i][j][1]) == 0 else m[i][j][0] / (m[i][j][0] + m[i][j][1])
              for j in range(len(order))] for i in range(len(order))]
    im = ax2.imshow(share, vmin=0, vmax=1, cmap="RdYlGn")
    ax2.set_xticks(range(len(order)), order, rotation=30, ha="right")
    ax2.set_yticks(range(len(order)), order)
    for i in range(len(order)):
        for j in range(len(order)):
            if i != j:
                w, l, d = m[i][j]
                ax2.text(j, i, f"{w}-{l}" + (f"\n{d} draws" if d else ""), ha="center", va="center", fontsize=8)
    ax2.set_title("Win share of the row (decisive games)")
    fig.colorbar(im, ax=ax2, fraction=0.046)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
