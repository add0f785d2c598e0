"""The tuner's confirmation: the trials chosen to be played again on fresh seeds
(:func:`pick_candidates`: the best few, or the Pareto front), each played on both seeds
(:func:`confirm`) and ranked as a :class:`Candidate`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from ..cards.params import changes_sentence
from ..engine.settings import Settings
from ..engine.variants import table_plays
from .tune_config import FIRST_OBJECTIVES, TuneConfig, split_departures, variants_text
from .tune_study import LabOptions, Played, TuneProgress, complete_trials, departures_of, frozen_params, play_trial
from .tune_targets import TARGETS, TargetCheck, Targets, TuneError, check_targets, closeness

if TYPE_CHECKING:
    import optuna
    from optuna.trial import FrozenTrial

CONFIRM_MODES = ("top", "front")


# ---------------------------------------------------------------------------------------- candidates
def front_trials(study: "optuna.Study") -> list["FrozenTrial"]:
    """The Pareto front: the complete trials no other trial beats on every objective."""
    if not complete_trials(study):
        return []
    return sorted(study.best_trials, key=lambda t: (t.values[3], t.values[0]) if t.values else (0, 0))


def _closeness(t: "FrozenTrial", objective: str, targets: Targets) -> tuple[float, ...]:
    """A trial's tie-break of the first objective (:func:`closeness` of its figures)."""
    return closeness(t.user_attrs.get("figures") or {}, objective, targets)


#: how the first objective's ties are broken, in words, by objective
TIE_BREAKS = {"band": "by the mean distance outside the bands, then from 50 %", "from-50": "by the mean distance from 50 %"}


def pick_candidates(study: "optuna.Study", mode: str = "top", top: int = 3, targets: Targets = TARGETS,
                    objective: str = "band") -> tuple[list["FrozenTrial"], str]:
    """The trials to confirm on fresh seeds, and how they were chosen.

    ``top``: the ``top`` best trials by the first objective among those with a cap share under
    the target, and the best of each size up to the target's departures (the best small sets);
    ties (the worst cell is often at 0 or 100 %, or every cell is in band) are broken by
    :func:`closeness`; ``front``: every trial of the Pareto front. Trials with the same variants
    count once. ``objective`` is the study's first objective (:data:`FIRST_OBJECTIVES`)."""
    if mode not in CONFIRM_MODES:
        raise TuneError(f"--confirm must be one of {', '.join(CONFIRM_MODES)}, not {mode!r}")
    done = complete_trials(study)
    if not done:
        return [], "no trial is complete"

    def values(t: "FrozenTrial") -> list[float]:
        return list(t.values or [1.0, 1.0, 0.0, 0.0])

    if mode == "front":
        chosen = front_trials(study)
        how = "every trial of the Pareto front"
    else:
        ok = [t for t in done if values(t)[1] < targets.cap_share]
        how = (f"the {top} best trials by the first objective ({FIRST_OBJECTIVES[objective]}; ties: "
               f"{TIE_BREAKS[objective]}) among those "
               f"with under {100 * targets.cap_share:.0f} % of games at the safety cap, and the best of each size up "
               f"to {targets.departures} departures")
        if not ok:
            ok = list(done)
            how = (f"no trial keeps the safety cap under {100 * targets.cap_share:.0f} %: the {top} best trials by "
                   "the first objective, and the best of each size")
        ranked = sorted(ok, key=lambda t: (values(t)[0], *_closeness(t, objective, targets), values(t)[3],
                                           values(t)[2], t.number))
        chosen = ranked[:top]
        for size in range(targets.departures + 1):
            best = next((t for t in ranked if values(t)[3] == size), None)
            if best is not None:
                chosen.append(best)
    seen: set[str] = set()
    out = []
    for t in chosen:
        key = frozen_params(t.params)
        if key not in seen:
            seen.add(key)
            out.append(t)
    return out, how


@dataclass
class Candidate:
    """A trial played on the tuning seed and on the confirmation seed."""

    trial: "FrozenTrial"
    departures: dict[str, int | bool]
    tuning: Played
    confirmation: Played
    checks_tuning: list[TargetCheck] = field(default_factory=list)
    checks_confirmation: list[TargetCheck] = field(default_factory=list)
    objective: str = "band"
    targets: Targets = TARGETS

    @property
    def variants(self) -> str:
        return variants_text(self.departures)

    @property
    def sentence(self) -> str:
        variants, cards = split_departures(self.departures)
        return " ".join(filter(None, [table_plays(Settings().updated(variants)), changes_sentence(cards)]))

    @property
    def failed(self) -> int:
        """Targets missed on either seed."""
        return sum(not a.met or not b.met for a, b in zip(self.checks_tuning, self.checks_confirmation))

    @property
    def worst_distance(self) -> float:
        return max(float(self.tuning.figures["objectives"][0]), float(self.confirmation.figures["objectives"][0]))

    @property
    def mean_distance(self) -> float:
        return max(float(self.tuning.figures["mean_distance"]), float(self.confirmation.figures["mean_distance"]))

    @property
    def in_band(self) -> bool:
        """Every cell in its band on both seeds."""
        return bool(self.tuning.figures.get("in_band")) and bool(self.confirmation.figures.get("in_band"))

    def closeness(self) -> tuple[float, ...]:
        """The first objective's tie-break (:func:`closeness`), the worse of the two seeds."""
        a = closeness(self.tuning.figures, self.objective, self.targets)
        b = closeness(self.confirmation.figures, self.objective, self.targets)
        return tuple(max(x, y) for x, y in zip(a, b))

    def rank(self) -> tuple[float, ...]:
        """Best first: within the departures the targets allow (a larger set is never the answer
        while a small one is there) and under the safety-cap target on both seeds (a table that
        stalls is no contest), the smallest first objective over both seeds (the worst distance
        outside the bands, or from 50 %; to the percentage point), then the smallest tie-break
        (:func:`closeness`), then fewest targets missed on either seed, then fewest departures,
        then the lower cap share."""
        cap = max(self.tuning.figures["turn_cap_share"], self.confirmation.figures["turn_cap_share"])
        return (int(len(self.departures) > self.targets.departures), int(cap >= self.targets.cap_share),
                round(self.worst_distance, 2), *(round(x, 2) for x in self.closeness()), self.failed,
                len(self.departures), cap, self.trial.number)

    def to_json(self) -> dict[str, Any]:
        return {"trial": self.trial.number, "variants": self.variants, "departures": len(self.departures),
                "in_band": self.in_band,
                "table_plays": self.sentence, "values": list(self.trial.values or []),
                "tuning": self.tuning.figures, "confirmation": self.confirmation.figures,
                "targets": {"tuning": [c.to_json() for c in self.checks_tuning],
                            "confirmation": [c.to_json() for c in self.checks_confirmation]},
                "targets_missed": self.failed}


def confirm(config: TuneConfig, study: "optuna.Study", lab: LabOptions, seed: int, games: int,
            trials: Sequence["FrozenTrial"], progress: TuneProgress | None = None) -> list[Candidate]:
    """Play each trial's cells on the confirmation seed (and read back its tuning games), best first."""
    progress = progress or TuneProgress()
    out = []
    with lab.run.session():
        for i, t in enumerate(trials):
            dep = departures_of(config, t.params)
            if progress.trial_started is not None:
                progress.trial_started(i, len(trials), f"confirming trial {t.number}: {variants_text(dep)}")
            tuning = play_trial(config, dep, lab, config.games, config.seed, progress.games)
            again = play_trial(config, dep, lab, games, seed, progress.games)
            out.append(Candidate(t, dep, tuning, again, check_targets(tuning.figures, len(dep), config.targets),
                                 check_targets(again.figures, len(dep), config.targets), config.objective,
                                 config.targets))
    out.sort(key=lambda c: c.rank())
    return out
