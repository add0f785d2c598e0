"""Type hints everywhere, checked: the whole package passes ``mypy --strict`` (the ``[tool.mypy]``
section of pyproject.toml), so a change that breaks a hint fails the suite, not only a review."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_package_passes_mypy_strict() -> None:
    ran = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, ran.stdout + ran.stderr
