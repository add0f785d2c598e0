"""The tuner (``christianity-game tune``): the smallest departure from the printed rules that makes
every chosen cell of the duel a contest.

It searches the play-test variants (:data:`~christianity_game.engine.variants.VARIANTS`, each at
its printed value or at a value of its range) with a multi-objective Optuna study (NSGA-II,
seeded). Every objective is minimised:

1. the worst distance of the Righteous win rate outside its cell's band over the cells (0 for a
   cell inside its band; the bands by line-up, :data:`BANDS`: ER 40-60 %, EER and ERR 30-70 %,
   ``tune --band`` replaces one; cells: line-ups x the ``--set`` axes, Evil Interrupt on and off
   say, x bot pairings), or with ``--objective from-50`` the worst distance from 50 % (the first
   tuner's objective, kept so its studies resume and compare). Righteous wins are real wins (a game
   decided on the score at the safety cap or the round limit is neither side's); ``--wins scored``
   counts those decisions as the score fell, as studies made before real wins did;
2. the share of games the lab's safety turn cap ended (a game the printed duel never decides);
3. the median duel length in rounds (of the longest cell: every cell must be short, not their mix);
4. the number of departures (variants not at their printed value).

With ``tune --exhaustive K`` the sampler draws nothing: every set of at most K departures from the
search space (:func:`small_sets`) is a trial, which answers "which small sets come closest?" outright
where the space is small enough (at most :data:`EXHAUSTIVE_LIMIT` sets).

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

The parts: the targets (``tune_targets.py``), the question and its search space
(``tune_config.py``), a trial and the study (``tune_study.py``), the confirmation
(``tune_confirm.py``), and the report (``tune_report.py``, its plots ``tune_plots.py``). Their
public names are importable from here.
"""

from __future__ import annotations

from .tune_config import (FIRST_OBJECTIVES, NARROW, OBJECTIVES, OTHER_OBJECTIVES, SPREAD, Tunable, TuneConfig,
                          make_config, tunable, variant_choices, variants_text)
from .tune_confirm import CONFIRM_MODES, TIE_BREAKS, Candidate, confirm, front_trials, pick_candidates
from .tune_report import TuneReport, importance, lab_command, trial_bands, trial_head, write_tune_report
from .tune_study import (DUPLICATES, EXHAUSTIVE_LIMIT, LabOptions, Played, TuneProgress, complete_trials,
                         default_lab_db, departures_of, grid_figures, open_study, play_trial, run_study, small_sets,
                         warm_start)
from .tune_targets import (BANDS, TARGETS, WINS, TargetCheck, Targets, TuneError, band_figures, band_key,
                           bands_text, check_targets, closeness, parse_bands, real_win_rate)

__all__ = [
    "BANDS", "CONFIRM_MODES", "DUPLICATES", "EXHAUSTIVE_LIMIT", "FIRST_OBJECTIVES", "NARROW", "OBJECTIVES",
    "OTHER_OBJECTIVES", "SPREAD", "TARGETS", "TIE_BREAKS", "WINS", "Candidate", "LabOptions", "Played", "TargetCheck",
    "Targets", "Tunable", "TuneConfig", "TuneError", "TuneProgress", "TuneReport", "band_figures", "band_key",
    "bands_text", "check_targets", "closeness", "complete_trials", "confirm", "default_lab_db", "departures_of",
    "front_trials", "grid_figures", "importance", "lab_command", "make_config", "open_study", "parse_bands",
    "pick_candidates", "play_trial", "real_win_rate", "run_study", "small_sets", "trial_bands", "trial_head", "tunable",
    "variant_choices", "variants_text", "warm_start", "write_tune_report",
]
