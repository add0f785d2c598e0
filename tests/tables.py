"""The tables the API conformance test and the legal-list fixture play: every mode, every line-up
shape, and a few settings and play-test variants (engine/variants.py).

One list, so that "every mode and variant" means the same in ``tests/test_conformance.py`` and in
``tests/perft/legal_lists.py``. Each table is (mode, line-up, settings by ``Settings`` key). The
variants' values are written out, not taken from ``variants.PRESETS``, so that a change of the
recommended set does not change what the fixture recorded. Duels carry a turn cap (``max_turns``)
so that random play ends.
"""

from __future__ import annotations

from typing import Any

#: name -> (mode, line-up, settings)
TABLES: dict[str, tuple[str, str, dict[str, Any]]] = {
    "solo-R": ("solo", "R", {}),
    "solo-R-fee3-no-abilities": ("solo", "R", {"solo_fee": 3, "mat_abilities": False}),
    "coop-RR": ("coop", "RR", {}),
    "coop-RR-no-rollover": ("coop", "RR", {"humility_rollover": False}),
    "coop-RRR-no-abilities": ("coop", "RRR", {"mat_abilities": False}),
    "coop-RRRR": ("coop", "RRRR", {}),
    "duel-ER": ("duel", "ER", {"max_turns": 40}),
    "duel-ER-no-interrupt": ("duel", "ER", {"max_turns": 40, "evil_interrupt": False}),
    "duel-EER": ("duel", "EER", {"max_turns": 30}),
    "duel-ERR": ("duel", "ERR", {"max_turns": 40}),
    "duel-EERR-no-interrupt": ("duel", "EERR", {"max_turns": 30, "evil_interrupt": False}),
    # the recommended set as it stood when the fixture was recorded (variants.PRESETS["recommended"])
    "duel-ER-recommended": ("duel", "ER", {"max_turns": 40, "reward_cap": 3, "finale_reward": False,
                                           "outnumbered": 3, "evil_habituals": 2}),
    "duel-ERR-limits": ("duel", "ERR", {"max_turns": 40, "threat_limit": 2, "four_plays_once": True,
                                        "humility_win": 2}),
    "duel-EER-clocks": ("duel", "EER", {"max_turns": 40, "same_turn_bonus": False, "evil_hold": 2,
                                        "evil_habituals": 5, "round_limit": 12}),
    "duel-EER-round-threats": ("duel", "EER", {"max_turns": 40, "round_threats": 3, "reward_cap": 2,
                                               "evil_habituals": 2}),
    "duel-EER-alternate-turns": ("duel", "EER", {"max_turns": 40, "alternate_turns": True, "finale_reward": False,
                                                 "evil_habituals": 3}),
    "duel-EEERR-alternate-turns": ("duel", "EEERR", {"max_turns": 40, "alternate_turns": True}),
}
