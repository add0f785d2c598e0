"""The engine plays exactly as it did before it was split into rule modules (issue 9): 1,000
seeded random-play games of each mode reach the final-state fingerprints recorded before the change
(``tests/seeded_games.py``)."""

from __future__ import annotations

import json

import pytest
from seeded_games import FIXTURE, MODES, fingerprints


@pytest.mark.parametrize("name", list(MODES))
def test_seeded_games_reach_the_recorded_final_states(name: str) -> None:
    expected = json.loads(FIXTURE.read_text(encoding="utf-8"))[name]
    assert len(expected) == 1000
    got = fingerprints(name, len(expected))
    differ = [i for i, (a, b) in enumerate(zip(got, expected)) if a != b]
    assert not differ, f"{len(differ)} of {len(expected)} {name} games end differently, first: game {differ[:5]}"
