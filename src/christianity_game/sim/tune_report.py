"""The tuner's report (:func:`write_tune_report`): HTML, Markdown, JSON and PNG plots of a study, its
Pareto front, the parameters' importance and the confirmed candidates on the tuning and the
confirmation seeds, against the designers' targets."""

from __future__ import annotations

import html
import importlib.util
import json
import math
import time
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from .lab_rows import code_fingerprint
from .report import html_table, md_table
from .tune_config import OBJECTIVES, TuneConfig, axis_text, checked_tunable, value_text, variants_text
from .tune_confirm import TIE_BREAKS, Candidate, front_trials
from .tune_plots import write_plots
from .tune_study import complete_trials, departures_of
from .tune_targets import band_figures, bands_text, percent

if TYPE_CHECKING:
    import optuna
    from optuna.trial import FrozenTrial

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
    return f"{percent(band[0])}–{percent(band[1])} %"


def _out_of_band_text(bands: Mapping[str, Any] | None) -> str:
    """The cells out of band, in words: ``ER · heuristic 35.0 % (band 40–60 %); ...``; "none"."""
    if bands is None:
        return "–"
    return "; ".join(f"{c['cell']} {_pct(c['righteous'])} (band {_band_span(c['band'])})"
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


def _how_drawn(done: Sequence["FrozenTrial"]) -> str:
    """How the study's trials were chosen: NSGA-II's draws after the warm start, an exhaustive search
    of the small sets (``tune --exhaustive K``), or both."""
    nsga = ("NSGA-II, seeded; the first trials are the printed rules, each variant alone at its suggested value and "
            "the presets")
    listed = [int(t.user_attrs["exhaustive"]) for t in done if "exhaustive" in t.user_attrs]
    if not listed:
        return nsga + "."
    drawn = len(done) - len(listed)
    return (f"Exhaustive: every set of at most {max(listed)} departures from the search space is a trial "
            f"(tune --exhaustive {max(listed)}; {len(listed)} trials)"
            + ("." if not drawn else f"; the other {drawn}: {nsga}."))


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
    counted = "R real wins" if c.targets.wins == "real" else "R wins"
    head = ["cell", "band", f"{counted} (tuning)", "95 % CI", f"{counted} (confirmation)", "95 % CI", "in band t / c",
            "safety cap t / c", "round limit t / c", "rounds median t / c", "rounds p90 t / c",
            "Evil's first turn t / c", "Habitual share of Evil wins t / c", "pass-only turns t / c"]
    rows = []
    for a, b in zip(c.tuning.figures["cells"], c.confirmation.figures["cells"]):
        band = c.targets.band(a["lineup"])

        def in_band(f: Mapping[str, Any]) -> str:
            out = c.targets.outside(f)
            return "✓" if not out else f"✗ {100 * out:.1f} pp"

        def wins(f: Mapping[str, Any]) -> str:
            rate = c.targets.rate(f)
            return f"{round(rate * f['games'])}/{f['games']} ({_pct(rate)})"

        def ci(f: Mapping[str, Any]) -> str:
            lo, hi = c.targets.interval(f)
            return f"{_pct(lo)} – {_pct(hi)}"

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
    parts += [f"--set {checked_tunable(k).alias}={axis_text(v)}" for k, v in departures.items()]
    parts += [f"--bots {b}" for b in config.bots]
    parts += [f"--games {games}", f"--seed {seed}"]
    return " ".join(parts)


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
    images = write_plots(study, config, candidates, imp, out)
    names = [n for n, _ in images]
    captions = dict(images)
    best = candidates[0] if candidates else None
    facts = [f"study {study.study_name} in {study_path}", f"{len(done)} complete trials",
             f"line-ups {','.join(config.lineups)}", *(f"{k}={','.join(v)}" for k, v in config.axes.items()),
             f"bots {' | '.join(config.bots)}", f"{config.games} games a cell on tuning seed {config.seed}",
             f"{confirm_games} games a cell on confirmation seed {confirm_seed}", f"lab database {Path(lab_db).name}",
             f"objective {config.objective}", f"bands {bands_text(config.bands)}", f"wins {config.wins}",
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
        "of the longest cell; the number of departures from the printed rules. " + _how_drawn(done),
        f"Confirmation: {how}; played again on run seed {confirm_seed} ({confirm_games} games a cell). The best trial "
        f"is the confirmed one with at most {targets.departures} departures and under "
        f"{100 * targets.cap_share:.0f} % of games at the safety cap on both seeds that has the smallest "
        f"{config.objectives[0]} over both seeds (to the point), then the smallest tie-break ("
        f"{TIE_BREAKS[config.objective].removeprefix('by ')}), then misses the fewest targets, then departs least.",
        ("Righteous wins are real wins (--wins real, the default): a game the safety turn cap or the roundLimit "
         "variant decided on the stalemate score counts for neither side, and is shown apart (safety cap, round "
         "limit)." if config.wins == "real" else
         "Righteous wins count the games decided on the stalemate score (--wins scored): those the roundLimit "
         "variant and the safety turn cap ended count as the score fell, and are also shown apart (round limit, "
         "safety cap)."),
        "Search space: " + "; ".join(f"{a} ∈ {{{', '.join(value_text(x) for x in v)}}}"
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
                        "warm_start": t.user_attrs.get("warm_start"), "exhaustive": t.user_attrs.get("exhaustive"),
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
