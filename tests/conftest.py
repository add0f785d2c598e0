"""Shared fixtures for the scenario tests (see tests/scenario.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from scenario import Scenario  # noqa: E402


@pytest.fixture
def scenario() -> type[Scenario]:
    """The Scenario class: ``s = scenario(mode="coop", lineup="RR", phase="main")``."""
    return Scenario


pytest_plugins = ["pg_fixture"]   # pg_cluster, pg_url, database: a throwaway PostgreSQL (tests/pg_fixture.py)
