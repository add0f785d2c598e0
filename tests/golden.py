"""Golden records: seeded games of every mode and scenario, recorded once and replayed forever.

Each file under ``tests/records/`` is a game record (JSON) plus the fingerprint of the game's final
state when it was recorded. ``test_golden_records.py`` replays every one on every commit and checks
that it reaches the same fingerprint: a change that alters how any record replays must bump the
rules version (engine/versions.py) and keep the old behaviour behind it, or say in CHANGELOG.md
what the old records now do.

The fingerprint is built from what the rules define (badges, every zone in order with the printed
card ids, piles, the turn, the result, the score and who may act how), not from the engine's
internal layout, so a restructuring of the engine keeps it.

Regenerate (only for a deliberate change, never to make a failing test pass)::

    .venv/bin/python tests/golden.py --write
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RECORDS = HERE / "records"


def final_state(game: Any) -> dict[str, Any]:
    """The game's state in the rules' own terms (JSON data)."""
    st = game.state
    ids = [card.id for card in game.defs]
    seats = []
    for sd in st.seats:
        seats.append({
            "side": sd.side, "deck": sd.deck_id, "humility": sd.humility, "maturity": sd.maturity,
            "hand": [ids[u] for u in sd.hand], "deck_order": [ids[u] for u in sd.deck],
            "cost_zone": [[ids[u], u in st.tapped, u in st.face_up] for u in sd.cost_zone],
            "in_play": [ids[u] for u in sd.in_play], "held": [ids[u] for u in sd.held],
            "discard": [ids[u] for u in sd.discard],
        })
    res = game.result
    return {
        "state_id": game.state_id, "round": game.round, "turn_seat": game.turn_seat, "phase": game.phase,
        "seats": seats, "evil_deck": [ids[u] for u in st.evil_deck],
        "resisted": [ids[u] for u in st.resisted], "failed": [ids[u] for u in st.failed],
        "field": [ids[u] for u in st.field], "abilities": sorted(st.abilities),
        "threats": [[ids[t.uid], t.target] for t in st.threats],
        "result": None if res is None else [res.winner, res.reason, res.round],
        "score": list(game.score),
        "pending": [[seat, [a.to_json() for a in actions]] for seat, actions in game.pending],
        "zones": sorted(game.card_zone_map().items()),
    }


def fingerprint(game: Any) -> str:
    """SHA-256 of :func:`final_state`."""
    text = json.dumps(final_state(game), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


# name -> (mode, line-up, settings, bots, scenario, stop after N actions or None for the whole game)
GAMES: dict[str, tuple[str, str, dict[str, Any], str, str | None, int | None]] = {
    "solo-R": ("solo", "R", {}, "heuristic", None, None),
    "solo-R-fee3-no-abilities": ("solo", "R", {"solo_fee": 3, "mat_abilities": False}, "heuristic", None, None),
    "solo-R-random-unfinished": ("solo", "R", {}, "random", None, 40),
    "coop-RR": ("coop", "RR", {}, "heuristic", None, None),
    "coop-RR-random": ("coop", "RR", {"humility_rollover": False}, "random", None, None),
    "coop-RRR": ("coop", "RRR", {}, "heuristic", None, None),
    "coop-RRRR-unfinished": ("coop", "RRRR", {"max_rounds": 6}, "heuristic", None, 150),
    "duel-ER": ("duel", "ER", {"max_turns": 60}, "heuristic", None, None),
    "duel-ER-no-interrupt": ("duel", "ER", {"evil_interrupt": False, "max_turns": 60}, "heuristic", None, None),
    "duel-ER-random": ("duel", "ER", {"max_turns": 30}, "random", None, None),
    "duel-EER": ("duel", "EER", {"max_turns": 30}, "heuristic", None, None),
    "duel-ERR": ("duel", "ERR", {"max_turns": 60}, "heuristic", None, None),
    "duel-ERR-unfinished": ("duel", "ERR", {}, "heuristic", None, 100),
}


def scenario_games() -> dict[str, tuple[str, str, dict[str, Any], str, str | None, int | None]]:
    from christianity_game.scenarios import all_scenarios
    return {f"scenario-{sc.name}": ("duel", sc.lineup, {"max_turns": 40}, "heuristic", sc.name, None)
            for sc in all_scenarios().values()}


def record_game(name: str, seed: int = 20261130) -> dict[str, Any]:
    """Play one golden game with today's engine; its record plus the final fingerprint."""
    from christianity_game import Game, Settings
    from christianity_game.bots import make_bot
    from christianity_game.scenarios import scenario

    mode, lineup, settings, bots, sc, stop = {**GAMES, **scenario_games()}[name]
    s = Settings().updated(settings) if settings else Settings()
    game = scenario(sc).new_game(seed=seed, settings=s) if sc else Game.new(mode=mode, lineup=lineup, seed=seed,
                                                                            settings=s)
    players = {i: make_bot(bots, seed * 31 + i, game.cards) for i in range(len(game.lineup))}
    n = 0
    while game.pending and (stop is None or n < stop):
        seat, actions = game.pending[0]
        action = actions[0] if len(actions) == 1 else players[seat].choose(game.view(seat), actions)
        game.apply(action)
        n += 1
    return {"name": name, "fingerprint": fingerprint(game), "state_id": game.state_id,
            "result": None if game.result is None else game.result.reason, "record": game.to_record()}


def write_all() -> None:
    RECORDS.mkdir(exist_ok=True)
    for name in [*GAMES, *scenario_games()]:
        entry = record_game(name)
        (RECORDS / f"{name}.json").write_text(json.dumps(entry, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"{name}: {len(entry['record']['actions'])} actions, state {entry['state_id']}, {entry['result']}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: tests/golden.py --write   (rewrites tests/records/*.json from today's engine)")
    sys.path.insert(0, str(HERE.parent / "src"))
    write_all()
