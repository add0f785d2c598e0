"""Our engine beside a peer's: OpenSpiel's pure-Python ``block_dominoes``, measured the same
way in the same run, so anyone can rerun the comparison::

    christianity-game bench --against block_dominoes [--seconds 2] [--repeats 5]

What is measured, for both games alike: random legal play from a fresh game to its end, over and
over, CPU time (``time.process_time``) per action, game creation and legal-action enumeration
included, through each game's public checked apply:

* ours: ``seat, actions = game.pending[0]`` (enumerates ``game.legal_actions(seat)``), then
  ``game.apply(choice(actions))``, which validates the action;
* the peer: ``state.legal_actions()`` then ``state.apply_action(choice(...))`` (OpenSpiel's public
  apply; it does not refuse illegal actions), and at chance nodes an outcome drawn from
  ``state.chance_outcomes()`` by its probability. **Chance actions count as actions**: a
  ``block_dominoes`` game is 14 chance actions (the deal) and about 13 moves, and the deal is
  part of its cost as ``Game.new``'s deal is part of ours. The per-decision cost (chance actions
  not counted) is printed too.

Duel games stop at a turn cap of 200 (:data:`DUEL_MAX_TURNS`, the lab's): random play can
otherwise stall for ever.

Runs are interleaved (ours, peer, ours, peer ...) so a busy spell on the machine hits both alike;
each figure is the median over the runs, and the ratio is ours / peer cost per action; the paired
ratio (the median, over our runs, of each one's cost over that of the peer's run right after it)
moves less with the machine's load. The load average is printed at the start and the end. Targets: ours at most 0.6x the peer's cost
per action in co-op RR, at most 0.75x in duel ER.

Our engine runs as this process has it: the native build (the engine's hot modules compiled with
mypyc, :mod:`christianity_game.native`) when scripts/setup.sh made it, else the Python engine; the
output says which. ``CHRISTIANITY_GAME_ENGINE=python`` measures the Python engine.

OpenSpiel is the optional ``bench`` extra: ``pip install 'christianity-game[bench]'``.
"""

from __future__ import annotations

import platform
import random
import statistics
import sys
import time
from typing import Any, Sequence

from .engine.game import Game
from .engine.settings import Settings
from .engine import BUILD
from .native import engine_build
from .sim.lab import load_average

PEERS = ("block_dominoes",)
#: (label, mode, line-up, target ratio ours / peer)
LINEUPS: tuple[tuple[str, str, str, float], ...] = (
    ("co-op RR", "coop", "RR", 0.6),
    ("duel ER", "duel", "ER", 0.75),
)
#: Duels have no round limit and random play can stall for ever (both decks empty, nobody able to
#: win): duel games here stop at the lab's turn cap (D-SCORE decides), which few random games reach.
DUEL_MAX_TURNS = 200
EXTRA = "bench"
INSTALL_HINT = f"pip install 'christianity-game[{EXTRA}]'  (or: pip install open_spiel)"


class PeerUnavailable(RuntimeError):
    """The peer's package (OpenSpiel) is not installed: the message names the extra to install."""


def load_peer(name: str) -> Any:
    """The OpenSpiel game ``name`` (a pyspiel.Game); :class:`PeerUnavailable` without OpenSpiel."""
    if name not in PEERS:
        raise ValueError(f"unknown peer {name!r}; known: {', '.join(PEERS)}")
    try:
        import pyspiel  # type: ignore[import-not-found]
        from open_spiel.python.games import block_dominoes  # type: ignore[import-untyped]  # noqa: F401  (registers python_block_dominoes)
    except ImportError as exc:
        raise PeerUnavailable(f"the {name} comparison needs OpenSpiel, the optional '{EXTRA}' extra: "
                              f"{INSTALL_HINT} ({exc})") from None
    return pyspiel.load_game(f"python_{name}")


def ours_run(mode: str, lineup: str, budget_s: float, seed: int) -> dict[str, float]:
    """Whole random-play games of ours until ``budget_s`` of CPU time has passed."""
    rnd = random.Random(seed)
    choice = rnd.choice
    clock = time.process_time
    games = actions = 0
    start = clock()
    settings = Settings(max_turns=DUEL_MAX_TURNS) if mode == "duel" else None
    while True:
        game = Game.new(mode=mode, lineup=lineup, seed=seed + games, settings=settings, log=False)
        while True:
            pending = game.pending
            if not pending:
                break
            game.apply(choice(pending[0][1]))
            actions += 1
        games += 1
        spent = clock() - start
        if spent >= budget_s:
            break
    return {"games": games, "actions": actions, "decisions": actions, "cpu_s": spent}


def peer_run(peer: Any, budget_s: float, seed: int) -> dict[str, float]:
    """Whole random-play games of the peer (chance outcomes drawn by probability) until
    ``budget_s`` of CPU time has passed."""
    rnd = random.Random(seed)
    choice = rnd.choice
    uniform = rnd.random
    clock = time.process_time
    new_state = peer.new_initial_state
    games = actions = decisions = 0
    start = clock()
    while True:
        state = new_state()
        while not state.is_terminal():
            if state.is_chance_node():
                x = uniform()
                outcomes = state.chance_outcomes()
                pick = outcomes[-1][0]
                for action, p in outcomes:
                    x -= p
                    if x < 0:
                        pick = action
                        break
                state.apply_action(pick)
            else:
                state.apply_action(choice(state.legal_actions()))
                decisions += 1
            actions += 1
        games += 1
        spent = clock() - start
        if spent >= budget_s:
            break
    return {"games": games, "actions": actions, "decisions": decisions, "cpu_s": spent}


def run_peer_bench(against: str = "block_dominoes", seconds: float = 2.0, repeats: int = 5, seed: int = 1,
                   lineups: Sequence[tuple[str, str, str, float]] = LINEUPS) -> dict[str, Any]:
    """Our line-ups beside the peer; ``seconds`` of CPU time per run, ``repeats`` runs of each
    (interleaved). A JSON-able dict (see :func:`format_peer_bench`)."""
    if seconds <= 0 or repeats < 1:
        raise ValueError("seconds must be positive and repeats at least 1")
    peer = load_peer(against)
    load_start = load_average()
    started = time.perf_counter()
    budget = seconds / repeats
    # warm-up: imports, card data, caches
    peer_run(peer, min(0.2, budget), seed + 999)
    for _label, mode, lineup, _target in lineups:
        ours_run(mode, lineup, min(0.2, budget), seed + 999)
    runs: dict[str, list[dict[str, float]]] = {label: [] for label, *_ in lineups}
    runs[against] = []
    # each of our runs with the peer's run that follows it: a pair shares the machine's moment
    pairs: dict[str, list[float]] = {label: [] for label, *_ in lineups}
    for r in range(repeats):
        for label, mode, lineup, _target in lineups:
            ours_row = ours_run(mode, lineup, budget, seed + 7919 * r)
            peer_row = peer_run(peer, budget, seed + 7919 * r + len(runs[against]) + 1)
            runs[label].append(ours_row)
            runs[against].append(peer_row)
            pairs[label].append((ours_row["cpu_s"] / ours_row["actions"]) / (peer_row["cpu_s"] / peer_row["actions"]))

    def med(rows: list[dict[str, float]], per: str) -> float:
        return statistics.median(x["cpu_s"] / x[per] * 1e6 for x in rows)

    peer_rows = runs[against]
    peer_us = med(peer_rows, "actions")
    rows = []
    for label, mode, lineup, target in lineups:
        ours = runs[label]
        us = med(ours, "actions")
        rows.append({"label": label, "mode": mode, "lineup": lineup, "target": target,
                     "games": sum(int(x["games"]) for x in ours), "actions": sum(int(x["actions"]) for x in ours),
                     "us_per_action": us, "ratio": us / peer_us, "meets_target": us / peer_us <= target,
                     "paired_ratio": statistics.median(pairs[label])})
    return {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "engine": engine_build(BUILD),
        "peer": against,
        "peer_version": _peer_version(),
        "seconds": seconds,
        "repeats": repeats,
        "seed": seed,
        "peer_row": {"games": sum(int(x["games"]) for x in peer_rows),
                     "actions": sum(int(x["actions"]) for x in peer_rows),
                     "decisions": sum(int(x["decisions"]) for x in peer_rows),
                     "us_per_action": peer_us, "us_per_decision": med(peer_rows, "decisions")},
        "rows": rows,
        "load_start": load_start,
        "load_end": load_average(),
        "wall_s": time.perf_counter() - started,
    }


def _peer_version() -> str:
    try:
        from importlib.metadata import version
        return version("open_spiel")
    except Exception:  # pragma: no cover - metadata missing
        return "?"


def format_peer_bench(result: dict[str, Any]) -> str:
    """Plain text: the peer's cost per action, ours per line-up, the ratios against their targets."""
    p = result["peer_row"]
    peer = result["peer"]
    lines = [
        f"Engine beside OpenSpiel {result['peer_version']} python_{peer}: Python {result['python']} "
        f"({result['implementation']}, {result['machine']}), random legal play from a fresh game to the end, "
        f"CPU time, median of {result['repeats']} interleaved runs ({result['seconds'] / result['repeats']:g} s each)",
        "checked apply on both sides; game creation and legal-action enumeration included; "
        "the peer's chance actions (the deal) count as actions",
        f"our engine: {result['engine']}"
        + (" (CHRISTIANITY_GAME_ENGINE=python runs the Python engine)" if result["engine"].startswith("native") else ""),
        f"load average (1, 5, 15 min): start {result['load_start']}, end {result['load_end']}",
        "",
        f"{'game':<22} {'games':>6} {'actions':>8} {'us/action':>10} {'ours/peer':>10} {'target':>7}",
        f"{peer + ' (peer)':<22} {p['games']:>6} {p['actions']:>8} {p['us_per_action']:>10.1f} {'':>10} {'':>7}",
    ]
    for r in result["rows"]:
        verdict = "ok" if r["meets_target"] else "missed"
        lines.append(f"{r['label'] + ' (ours)':<22} {r['games']:>6} {r['actions']:>8} {r['us_per_action']:>10.1f} "
                     f"{r['ratio']:>9.2f}x {'<=' + format(r['target'], 'g') + 'x':>7} {verdict}")
    lines.append("")
    lines.append(f"peer per decision (chance actions not counted): {p['us_per_decision']:.1f} us "
                 f"({p['decisions']} of its {p['actions']} actions were decisions)")
    for r in result["rows"]:
        lines.append(f"ratio {r['label']}: {r['ratio']:.2f}x the peer's cost per action "
                     f"({r['ratio'] * p['us_per_action'] / p['us_per_decision']:.2f}x per peer decision; "
                     f"median of each run over the peer's run right after it: {r['paired_ratio']:.2f}x)")
    return "\n".join(lines)
