"""A fitted evaluation: the chance that the Righteous side wins from a position, for the search bots.

The ``mcts`` bot (``bots/mcts.py``) stops its rollouts after a few dozen decisions and scores the
position it reached with :func:`win_chance`. Instead of hand-set constants (``search.evaluate``),
the score is a logistic model on a few dozen features of the position (:func:`features`), fitted
from thousands of lab games by ``python -m christianity_game.bots.fit_eval`` and stored as data in
``bots/data/eval.json``, with the command that made it, the games it saw and its held-out error.

The features know both win conditions and every badge: the Evil Habituals in play against the
number the table needs (the ``evilHabituals`` variant), the armed win clocks, each Righteous
seat's Maturity **and Humility** (mean, lowest, seats at 0, the level Humility 10 brings), Cost
Zones, hands and decks, the score and the round limit where the table has one, and the table
itself (line-up, variants: the Habituals the Evil win needs, its hold, the outnumbered handicap). Co-op and solo have their own model (the rounds left against each
seat's way to L3, the Habituals holding it). Everything is read from a game the bot may look at
in full: a *world* (``determinize``), never the real game.

Only the standard library runs here (the fit needs numpy; playing does not).
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..engine.game import Game

DATA = Path(__file__).resolve().parent / "data" / "eval.json"

DUEL_FEATURES = (
    "bias", "habituals", "habituals_sq", "e_clock", "r_clock", "held_on_righteous",
    "maturity_mean", "maturity_min", "at_l3", "all_l3", "all_l3_x_habituals", "r_clock_x_clean",
    "humility_mean", "humility_min", "humility_zero", "humility_high", "progress_mean", "progress_min",
    "r_cost_zone", "e_cost_zone", "r_untapped", "e_untapped", "r_hand", "e_hand",
    "r_maturity_cards", "e_habitual_cards", "r_deck", "e_deck",
    "score_diff", "score_x_late", "late", "evil_turn", "two_evil", "two_righteous",
    "zero_rounds", "hold_rounds", "need", "handicap_righteous", "handicap_evil",
)

#: The sign a feature's weight must have, for the Righteous side (+1: it can only help the Righteous,
#: -1: only Evil; absent: either), so that a fit on correlated features cannot read, say, more
#: Humility or fewer Evil Habituals as bad news for the Righteous (the fit keeps these signs).
DUEL_SIGNS = {
    "habituals": -1, "habituals_sq": -1, "e_clock": -1, "held_on_righteous": -1, "all_l3_x_habituals": -1,
    "humility_zero": -1, "e_habitual_cards": -1, "zero_rounds": -1,
    "r_clock": 1, "r_clock_x_clean": 1, "maturity_mean": 1, "maturity_min": 1, "at_l3": 1, "all_l3": 1,
    "humility_mean": 1, "humility_min": 1, "humility_high": 1, "progress_mean": 1, "progress_min": 1,
    "score_diff": 1, "score_x_late": 1, "r_maturity_cards": 1,
    # resources: more Cost Zone, untapped Cost, cards in hand or deck can only help their side (a fit
    # left free read them backwards, from when they are left over, and a search then threw them away)
    "r_cost_zone": 1, "r_untapped": 1, "r_hand": 1, "r_deck": 1,
    "e_cost_zone": -1, "e_untapped": -1, "e_hand": -1, "e_deck": -1,
}

COOP_FEATURES = (
    "bias", "rounds_left", "progress_mean", "progress_min", "margin_min", "margin_mean",
    "at_l3", "all_l3", "held", "field", "habituals_x_all_l3", "humility_mean", "humility_min",
    "humility_zero", "cost_zone", "hand", "maturity_cards", "deck", "clearing", "seats",
    "solo", "abilities", "last_round",
)


COOP_SIGNS = {
    "held": -1, "field": -1, "habituals_x_all_l3": -1, "humility_zero": -1,
    "rounds_left": 1, "progress_mean": 1, "progress_min": 1, "margin_min": 1, "margin_mean": 1, "at_l3": 1,
    "all_l3": 1, "humility_mean": 1, "humility_min": 1, "clearing": 1, "maturity_cards": 1,
}


def _clip(x: float, lo: float = 0.0, hi: float = 1.0) -> float:
    return lo if x < lo else hi if x > hi else x


def duel_features(game: Game) -> list[float]:
    """The duel features (:data:`DUEL_FEATURES`), for the Righteous side, roughly in [0, 1]."""
    st = game.state
    seats = st.seats
    defs = game.defs
    tapped = st.tapped
    righteous = [s for s in seats if s.side == "righteous"]
    evil = [s for s in seats if s.side == "evil"]
    nr, ne = max(1, len(righteous)), max(1, len(evil))
    settings = game.settings
    need = max(1, settings.evil_habituals * ne)
    field = len(st.field)
    held_r = sum(len(s.held) for s in righteous)
    habituals = (field + sum(len(s.held) for s in seats)) / need
    d = st.duel
    e_clock = 1.0 if d is not None and d.e_clock is not None else 0.0
    r_clock = 1.0 if d is not None and d.r_clock is not None else 0.0
    mats = [min(3, s.maturity) for s in righteous] or [0]
    hums = [s.humility for s in righteous] or [0]
    at_l3 = sum(1 for m in mats if m >= 3) / nr
    all_l3 = 1.0 if at_l3 >= 1.0 else 0.0
    clean = 1.0 if habituals == 0 else 0.0
    progress = [3.0 if s.maturity >= 3 else min(2.95, s.maturity + min(10, s.humility) / 10.0)
                for s in righteous] or [0.0]

    def untapped(s: Any) -> int:
        return sum(1 for u in s.cost_zone if u not in tapped)

    r_mat_cards = sum(min(3 - min(3, s.maturity), sum(1 for u in s.hand if defs[u].kind == "maturity"))
                      for s in righteous) / nr
    e_hab_cards = sum(sum(1 for u in s.hand if defs[u].kind == "evil_habitual") for s in evil) / ne
    r_score, e_score = game.score
    limit = settings.round_limit
    cap = settings.max_turns
    late = 0.0
    if limit:
        late = _clip(st.round / limit)
    elif cap:
        late = _clip(st.turn_no / cap)
    score_diff = math.tanh((r_score - e_score) / 20.0)
    turn_seat = game.turn_seat
    handicap = int(getattr(settings, "outnumbered", 1))
    zero = (d.zero_rounds / settings.humility_win) if d is not None and settings.humility_win else 0.0
    return [
        1.0, habituals, habituals * habituals, e_clock, r_clock, held_r / need,
        sum(mats) / (3.0 * nr), min(mats) / 3.0, at_l3, all_l3, all_l3 * habituals, r_clock * clean,
        sum(min(10, h) for h in hums) / (10.0 * nr), min(10, min(hums)) / 10.0,
        sum(1 for h in hums if h == 0) / nr, sum(1 for h in hums if h >= 7) / nr,
        sum(progress) / (3.0 * nr), min(progress) / 3.0,
        sum(len(s.cost_zone) for s in righteous) / (12.0 * nr), sum(len(s.cost_zone) for s in evil) / (12.0 * ne),
        sum(untapped(s) for s in righteous) / (12.0 * nr), sum(untapped(s) for s in evil) / (12.0 * ne),
        sum(len(s.hand) for s in righteous) / (8.0 * nr), sum(len(s.hand) for s in evil) / (8.0 * ne),
        r_mat_cards, e_hab_cards / 3.0,
        sum(len(s.deck) for s in righteous) / (30.0 * nr), sum(len(s.deck) for s in evil) / (30.0 * ne),
        score_diff, score_diff * late, late, 1.0 if seats[turn_seat].side == "evil" else 0.0,
        1.0 if len(evil) >= 2 else 0.0, 1.0 if len(righteous) >= 2 else 0.0,
        _clip(zero), (settings.evil_hold - 1) / 2.0, need / 14.0,
        # the outnumbered variant: the outnumbered side's handicap counted this many times over
        (handicap - 1) * max(0, len(evil) - len(righteous)) / 3.0,
        (handicap - 1) * max(0, len(righteous) - len(evil)) / 3.0,
    ]


def coop_features(game: Game) -> list[float]:
    """The co-op and solo features (:data:`COOP_FEATURES`), for the Righteous side."""
    st = game.state
    seats = st.seats
    defs = game.defs
    n = max(1, len(seats))
    rounds_left = max(0.0, game.settings.max_rounds - st.round + 1 - game.turn_seat / n)
    progress = []
    margins = []
    for s in seats:
        p = 3.0 if s.maturity >= 3 else min(2.95, s.maturity + min(10, s.humility) / 10.0)
        progress.append(p)
        margins.append(0.45 * rounds_left - (3.0 - p) - 0.3 * len(s.held))
    held = sum(len(s.held) for s in seats)
    field = len(st.field)
    at_l3 = sum(1 for s in seats if s.maturity >= 3) / n
    all_l3 = 1.0 if at_l3 >= 1.0 else 0.0
    hums = [s.humility for s in seats]
    mat_cards = sum(min(3 - min(3, s.maturity), sum(1 for u in s.hand if defs[u].kind == "maturity"))
                    for s in seats) / n
    max_rounds = max(1, game.settings.max_rounds)
    return [
        1.0, rounds_left / max_rounds, sum(progress) / (3.0 * n), min(progress) / 3.0,
        math.tanh(min(margins) / 2.0), math.tanh(sum(margins) / (2.0 * n)),
        at_l3, all_l3, held / 3.0, field / 3.0, all_l3 * (held + field) / 3.0,
        sum(min(10, h) for h in hums) / (10.0 * n), min(10, min(hums)) / 10.0,
        sum(1 for h in hums if h == 0) / n,
        sum(len(s.cost_zone) for s in seats) / (12.0 * n), sum(len(s.hand) for s in seats) / (8.0 * n),
        mat_cards, sum(len(s.deck) for s in seats) / (30.0 * n),
        1.0 if st.clearing is not None else 0.0, n / 4.0, 1.0 if n == 1 else 0.0,
        len(st.abilities) / 4.0, 1.0 if st.round >= max_rounds else 0.0,
    ]


def family(game: Game) -> str:
    """Which model scores a game: ``duel`` or ``coop`` (co-op and solo)."""
    return "duel" if game.state.duel is not None else "coop"


def features(game: Game) -> list[float]:
    return duel_features(game) if family(game) == "duel" else coop_features(game)


@lru_cache(maxsize=4)
def _load(path: str) -> dict[str, tuple[float, ...]]:
    data = json.loads(Path(path).read_text())
    out: dict[str, tuple[float, ...]] = {}
    for name, names in (("duel", DUEL_FEATURES), ("coop", COOP_FEATURES)):
        model = data["models"][name]
        known = tuple(model["features"])
        if known != names[:len(known)]:   # features added at the end since the fit weigh 0 until the next
            raise ValueError(f"{path}: the {name} model's features are not this code's; fit it again "
                             f"(python -m christianity_game.bots.fit_eval)")
        weights = [float(w) for w in model["weights"]]
        out[name] = tuple(weights + [0.0] * (len(names) - len(weights)))
    return out


def weights(path: Path | None = None) -> dict[str, tuple[float, ...]]:
    """The fitted weights by family (read once from ``bots/data/eval.json``)."""
    return _load(str(path or DATA))


def win_chance(game: Game, model: dict[str, tuple[float, ...]] | None = None) -> float:
    """The fitted chance that the Righteous side wins, in (0, 1); a finished game scores 1 or 0.

    A duel that ended at the turn cap (a safety cap of test games, not a rule) scores 0.5."""
    res = game.state.result
    if res is not None:
        if res.reason.startswith("turn cap") or res.winner == "draw":   # a draw (G-8) too
            return 0.5
        return 1.0 if res.winner == "righteous" else 0.0
    fam = family(game)
    w = (model or weights())[fam]
    x = duel_features(game) if fam == "duel" else coop_features(game)
    z = sum(a * b for a, b in zip(w, x))
    if z < -30:
        return 1e-13
    if z > 30:
        return 1.0 - 1e-13
    return 1.0 / (1.0 + math.exp(-z))
