"""The balance lab's report: HTML (with PNG plots next to it) and a Markdown summary.

Everything is read back from the lab's SQLite file, so a report can be written again at any
time (``christianity-game lab ... --report DIR`` on a finished run plays nothing new).
The figures are :mod:`.report_stats`'s and the plots :mod:`.report_plots`'s; this module makes the
tables and writes both pages.
"""

from __future__ import annotations

import html
import json
import math
import os
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ..stats import wilson
from .lab_games import LOCK_TURNS
from .lab_grid import DUEL_TURN_CAP, LabError
from .report_plots import write_plots
from .report_stats import (COUNT_LABEL, ENDED_LABEL, ENDED_ORDER, CellStats, Effect, StrengthPoint, load_stats,
                           quantile, strength_points, variant_effects)

__all__ = [
    "COUNT_LABEL", "ENDED_LABEL", "ENDED_ORDER", "PLOTS_AFTER", "SECTIONS", "CellStats", "Effect", "Report",
    "StrengthPoint", "html_table", "load_stats", "markdown_summary", "md_table", "report_notes", "reproduce_command",
    "strength_points", "variant_effects", "wilson", "write_report",
]


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
                     f"{statistics.fmean(sr):.1f}" if sr else "–", f"{quantile(sr, 0.5):.0f}",
                     f"{statistics.fmean(se):.1f}" if se else "–", f"{quantile(se, 0.5):.0f}",
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
    images = write_plots(stats, out)
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
