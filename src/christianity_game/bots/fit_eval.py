"""Fit the search bots' evaluation (``bots/evaluation.py``) from lab games; write ``bots/data/eval.json``.

    python -m christianity_game.bots.fit_eval --games 4000 --workers 2

plays ``--games`` duel games and half as many co-op and solo games with heuristic bots for every
seat (a share of the games with a few random moves mixed in, so the positions are not only the
heuristic's), over the duel line-ups ER, EER, ERR and four tables (the printed rules with the
lab's turn cap of 200, the ``recommended`` variants with the same cap, the set recommended before
it, ``rewardCap=2,evilHabituals=5,roundLimit=20``, and ``rewardCap=2,roundLimit=20``), and the
co-op line-ups RR, RRR and solo R. It keeps about one position in ``--every`` along each game,
labels it with how the game ended (a Righteous win 1, an Evil win 0, the turn cap 0.5), fits one
logistic model per family (duel, co-op) by Newton's method with a small L2 penalty, and reports
the held-out log loss and accuracy of the fit beside the hand-set ``search.evaluate`` and a
constant. The games are seeded: the same command writes the same file.

Needs numpy (the ``dev`` extra); playing with the fitted model does not.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

from ..engine.game import Game
from ..engine.rng import Rng
from ..engine.settings import Settings
from ..engine.variants import parse_variants
from .evaluation import COOP_FEATURES, COOP_SIGNS, DATA, DUEL_FEATURES, DUEL_SIGNS, coop_features, duel_features
from .heuristic import HeuristicBot
from ..workers import run_jobs_in_order

DUEL_TABLES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("printed", {"max_turns": 200}), ("recommended", {"max_turns": 200}),
    ("rewardCap=2,evilHabituals=5,roundLimit=20", {}), ("rewardCap=2,roundLimit=20", {}))
DUEL_LINEUPS = ("ER", "EER", "ERR")
COOP_TABLES = (("coop", "RR"), ("coop", "RRR"), ("solo", "R"))
EPSILONS = (0.0, 0.0, 0.03, 0.1)   # the share of random moves, by game (half the games: none)
MAX_ACTIONS = 20000


def _job(kind: str, n: int, seed: int) -> tuple[str, str, str, float]:
    """The table of game ``n``: (mode, line-up, variants, epsilon)."""
    if kind == "duel":
        table = DUEL_TABLES[(n // len(DUEL_LINEUPS)) % len(DUEL_TABLES)][0]
        return "duel", DUEL_LINEUPS[n % len(DUEL_LINEUPS)], table, EPSILONS[(n // 9) % len(EPSILONS)]
    mode, lineup = COOP_TABLES[n % len(COOP_TABLES)]
    return mode, lineup, "", EPSILONS[(n // 3) % len(EPSILONS)]


def play_game(kind: str, n: int, seed: int, every: int) -> list[tuple[list[float], float, float]]:
    """One game's sampled positions as (features, the hand-set evaluation there, label). ``every``
    0: the position as each turn starts (where the mcts bot's rollouts stop), else about one
    decision in ``every``."""
    from .search import evaluate as hand_set
    mode, lineup, table, epsilon = _job(kind, n, seed)
    extra: dict[str, Any] = {}
    if mode == "duel":
        extra = dict(next(e for t, e in DUEL_TABLES if t == table))
        extra.update(parse_variants("" if table == "printed" else table))
    game_seed = seed * 1_000_003 + n
    game = Game.new(mode=mode, lineup=lineup, seed=game_seed, settings=Settings(**extra), log=False)
    rng = Rng(game_seed ^ 0x5EED)
    bots = {i: HeuristicBot(game_seed + i) for i in range(len(lineup))}
    feats = duel_features if mode == "duel" else coop_features
    rows: list[tuple[list[float], float]] = []
    turn = -1
    for _ in range(MAX_ACTIONS):
        pending = game.pending
        if not pending:
            break
        seat, actions = pending[0]
        if not every and game.state.turn_no != turn:
            turn = game.state.turn_no
            rows.append((feats(game), hand_set(game)))
        if len(actions) == 1:
            game.apply_unchecked(actions[0])
            continue
        if every and rng.randbelow(every) == 0:
            rows.append((feats(game), hand_set(game)))
        if epsilon and rng.randbelow(1000) < epsilon * 1000:
            game.apply_unchecked(actions[rng.randbelow(len(actions))])
        else:
            game.apply_unchecked(bots[seat].choose(game.seat_view(seat), actions))
    res = game.state.result
    if res is None:
        label = 0.5
    elif res.reason.startswith("turn cap"):
        label = 0.5
    else:
        label = 1.0 if res.winner == "righteous" else 0.0
    return [(x, h, label) for x, h in rows]


Row = tuple[list[float], float, float, int]   # features, hand-set value, label, game


def _chunk(args: tuple[str, int, int, int, int]) -> list[Row]:
    kind, start, stop, seed, every = args
    out: list[Row] = []
    for n in range(start, stop):
        out.extend((x, h, y, n) for x, h, y in play_game(kind, n, seed, every))
    return out


def collect(kind: str, games: int, seed: int, every: int, workers: int) -> list[Row]:
    step = max(1, min(50, games // max(1, workers * 4)))
    jobs = [(kind, s, min(games, s + step), seed, every) for s in range(0, games, step)]
    rows: list[Row] = []
    for part in run_jobs_in_order(_chunk, [(job,) for job in jobs], workers):
        rows.extend(part)
    return rows


def fit_logistic(x: Any, y: Any, signs: list[int] | None = None, l2: float = 1e-3) -> Any:
    """Weights minimising the mean log loss of sigmoid(x @ w) against soft labels y, plus
    ``l2 * |w|^2 / 2``, with each weight of the sign ``signs`` gives it (+1, -1, 0: free): Newton's
    method on the free weights, the ones that would take the wrong sign held at 0 (an active set,
    released again when the loss would gain from moving them the allowed way)."""
    import numpy as np
    k = x.shape[1]
    signs = signs or [0] * k
    held: set[int] = set()
    w = np.zeros(k)
    for _ in range(4 * k):
        free = [i for i in range(k) if i not in held]
        w = np.zeros(k)
        w[free] = _newton(x[:, free], y, l2)
        wrong = [i for i in free if signs[i] * w[i] < 0]
        if wrong:
            held.add(max(wrong, key=lambda i: abs(w[i])))
            continue
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (p - y) / x.shape[0]
        release = [i for i in held if -grad[i] * signs[i] > 1e-6]   # the loss falls moving it the allowed way
        if not release:
            break
        held.discard(max(release, key=lambda i: abs(grad[i])))
    return w


def _newton(x: Any, y: Any, l2: float, iterations: int = 50) -> Any:
    import numpy as np
    n, k = x.shape
    w = np.zeros(k)
    reg = l2 * np.eye(k)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (p - y) / n + l2 * w
        h = (x * (p * (1 - p))[:, None]).T @ x / n + reg
        step = np.linalg.solve(h, grad)
        w -= step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return w


def _scores(p: Any, y: Any) -> dict[str, float]:
    import numpy as np
    p = np.clip(p, 1e-6, 1 - 1e-6)
    loss = float(np.mean(-(y * np.log(p) + (1 - y) * np.log(1 - p))))
    decided = y != 0.5
    acc = float(np.mean((p[decided] > 0.5) == (y[decided] > 0.5))) if decided.any() else float("nan")
    return {"log_loss": round(loss, 4), "accuracy": round(acc, 4)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m christianity_game.bots.fit_eval", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4000, help="duel games (co-op and solo: half as many)")
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--every", type=int, default=12,
                        help="keep about one position in this many decisions (0: every turn's start)")
    parser.add_argument("--only", choices=("duel", "coop"), default=None,
                        help="fit this family only; the other keeps its model from --out")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args(argv)
    import numpy as np
    from ..engine import BUILD

    started = time.time()
    command = "python -m christianity_game.bots.fit_eval " + " ".join(sys.argv[1:] if argv is None else argv)
    result: dict[str, Any] = {"command": command.strip(), "engine": BUILD, "models": {}}
    if args.only is not None and args.out.exists():   # the other family's model stays as it was fitted
        old = json.loads(args.out.read_text())
        result["models"] = dict(old["models"])
        result["commands"] = dict(old.get("commands") or {kind: old["command"] for kind in old["models"]})
    result.setdefault("commands", {})
    for kind, names, sign_of, games in (("duel", DUEL_FEATURES, DUEL_SIGNS, args.games),
                                        ("coop", COOP_FEATURES, COOP_SIGNS, max(3, args.games // 2))):
        if args.only is not None and kind != args.only:
            continue
        result["commands"][kind] = command.strip()
        signs = [sign_of.get(name, 0) for name in names]
        rows = collect(kind, games, args.seed, args.every, args.workers)
        x = np.array([r[0] for r in rows], dtype=float)
        hand = np.array([r[1] for r in rows], dtype=float)
        y = np.array([r[2] for r in rows], dtype=float)
        g = np.array([r[3] for r in rows])
        test = g % 5 == 0        # one game in five is held out, whole
        w = fit_logistic(x[~test], y[~test], signs)
        held = _scores(1 / (1 + np.exp(-np.clip(x[test] @ w, -30, 30))), y[test])
        base = _scores(np.full(int(test.sum()), float(np.mean(y[~test]))), y[test])
        old = _scores(hand[test], y[test])
        w_all = fit_logistic(x, y, signs)
        result["models"][kind] = {
            "features": list(names), "weights": [round(float(v), 6) for v in w_all],
            "signs": {name: s for name, s in zip(names, signs) if s},
            "games": games, "positions": int(len(rows)), "righteous_share": round(float(np.mean(y)), 4),
            "held_out": {"fitted": held, "hand_set": old, "constant": base,
                         "games": int(len(set(g[test].tolist()))), "positions": int(test.sum())},
        }
        print(f"{kind}: {games} games, {len(rows)} positions; held-out log loss {held['log_loss']} "
              f"(hand-set search.evaluate {old['log_loss']}, constant {base['log_loss']}), accuracy "
              f"{held['accuracy']} (hand-set {old['accuracy']})", flush=True)
    result["seconds"] = round(time.time() - started, 1)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {args.out} in {result['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
