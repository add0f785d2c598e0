"""scripts/load.py's flags: bad values are refused with words before anything starts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

LOAD = Path(__file__).resolve().parents[1] / "scripts" / "load.py"


def _refusal(*flags: str) -> str:
    out = subprocess.run([sys.executable, str(LOAD), *flags], capture_output=True, text=True, timeout=60)
    assert out.returncode != 0
    return out.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize("flags, words", [
    (("--attacker-cpus", "one"), "give CPU numbers, comma-separated"),
    (("--attacker-cpus", "4096"), "leave at least one to the server"),
    (("--attacks", "create,teleport"), "--attacks: unknown teleport"),
    (("--games", "0"), "--games must be 1..2000"),
])
def test_bad_flags_are_refused_with_words(flags: tuple[str, ...], words: str) -> None:
    assert words in _refusal(*flags)


def test_the_attacker_may_not_take_every_cpu() -> None:
    every = ",".join(str(c) for c in sorted(os.sched_getaffinity(0)))
    assert "leave at least one to the server" in _refusal("--attacker-cpus", every)
