"""The lobby's bot levels (issue 24) in the browser (Debian Chromium): every seat and every
scenario's "against a bot" choice offers easy, normal and hard with what each one thinks for, and
a game made with "normal" on a seat has that level on the server."""

from __future__ import annotations

from typing import Any

import pytest
from test_web import (  # noqa: F401 - the fixtures are used by name
    CHROMIUM,
    browser,
    page,
    server,
)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed (scripts/install-browser.sh)")

LEVELS = {"heuristic": "easy (heuristic, instant)", "normal": "normal (ISMCTS, thinks 0.03 s a move)",
          "hard": "hard (ISMCTS, thinks 1 s a move)"}


def test_the_lobby_offers_the_levels_with_their_budgets(server: str, page: Any) -> None:  # noqa: F811
    page.goto(server + "/")
    page.locator("input[name=mode][value=duel]").check()
    who = page.locator(".seat-row[data-seat='0'] select.who")
    who.wait_for()
    options = who.locator("option")
    found = {options.nth(i).get_attribute("value"): options.nth(i).inner_text() for i in range(options.count())}
    for value, label in LEVELS.items():
        assert label in found[value], (value, found)
    assert "human" in found and "random" in found and "search" not in found
    scenario_bot = page.locator("select.scenario-bot").first
    if scenario_bot.count():
        values = scenario_bot.locator("option").evaluate_all("els => els.map(e => e.value)")
        assert {"heuristic", "normal", "hard"} <= set(values)
    who.select_option("normal")
    page.locator("#create").click()
    page.locator("#links li", has_text="bot (normal)").wait_for()   # the server took the level
