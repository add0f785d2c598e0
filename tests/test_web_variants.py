"""The duel's play-test variants in the browser (Debian Chromium): the lobby's "Play-test variants"
section (the recommended set one click away, hidden outside a duel), the board's variants line,
the game menu and the rules page of that table ("This table plays: ..."), a duel played to its
score ending at the round limit (the status bar counts the rounds down, the end panel says what
decided it), and the offer to end on the score shown on the board once a duel is long.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from test_web import (  # noqa: F401 - the fixtures are used by name
    CHROMIUM,
    TIMEOUT,
    _post,
    _shot,
    browser,
    page,
    server,
)
from test_web_texts import DUEL_LATE, _position_game

from christianity_game.engine.variants import BY_KEY, PRESETS

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed (scripts/install-browser.sh)")

RECOMMENDED = {BY_KEY[k].alias: v for k, v in PRESETS["recommended"].items()}


def test_lobby_offers_the_variants_for_a_duel_only_and_the_recommended_set_in_one_click(server: str, page: Any) -> None:  # noqa: F811
    page.goto(server + "/")
    page.locator("#variants .variant-row").first.wait_for(state="attached")
    assert page.locator("#variants-box").is_hidden()          # solo is the lobby's first mode
    page.locator("input[name=mode][value=duel]").check()
    assert page.locator("#variants-box").is_visible()
    assert "printed rules" in page.locator("#variants-summary").inner_text()
    assert page.locator("#variants-recommended-text").inner_text().startswith("Recommended set: This table plays: ")
    page.locator("#variants-recommended").click()
    for alias, value in RECOMMENDED.items():
        assert page.locator(f"#variant-{alias}").is_checked(), alias
        if isinstance(value, int) and not isinstance(value, bool):
            assert page.locator(f"#variant-{alias}-value").input_value() == str(value)
    assert f"{len(RECOMMENDED)} variants" in page.locator("#variants-summary").inner_text()
    page.locator("#variants-box").scroll_into_view_if_needed()
    _shot(page, "lobby-variants-1280x800", docs=True)
    # seat 1 (Evil) a bot, seat 2 (Righteous) me
    page.locator(".seat-row[data-seat='0'] select.who").select_option("heuristic")
    page.locator("#hotseat").check()
    page.locator("#create").click()
    page.locator("#play-hotseat").click()
    page.wait_for_function("() => window.gameView && document.querySelector('#variants-line') && !document.querySelector('#variants-line').hidden")
    line = page.locator("#variants-line").inner_text()
    assert line.startswith("Play-test variants: ")
    if "round_limit" in PRESETS["recommended"]:
        assert f"of {PRESETS['recommended']['round_limit']} (" in page.locator("#round").inner_text()
    page.locator("#menu-button").click()
    assert page.locator("#menu-variants").inner_text().startswith("This table plays: ")
    href = page.locator("#menu-duel-rules").get_attribute("href") or ""
    assert "variants=" in href
    _shot(page, "variants-board-1280x800")
    page.goto(server + href)
    assert page.locator("#table-plays").inner_text().startswith("This table plays: ")
    assert page.locator("#table-variants li").count() == len(RECOMMENDED)


def test_lobby_takes_variants_from_the_link(server: str, page: Any) -> None:  # noqa: F811
    page.goto(server + "/?mode=duel&variants=rewardCap=3,sameTurnBonus=0")
    page.locator("#variants .variant-row").first.wait_for(state="attached")
    assert page.locator("#variant-rewardCap").is_checked()
    assert page.locator("#variant-rewardCap-value").input_value() == "3"
    assert page.locator("#variant-sameTurnBonus").is_checked()
    assert not page.locator("#variant-roundLimit").is_checked()
    page.locator("#variants-printed").click()
    assert not page.locator("#variant-rewardCap").is_checked()


def test_a_duel_with_a_round_limit_plays_to_its_score_ending(server: str, page: Any) -> None:  # noqa: F811
    """D-SCORE (variant roundLimit=3): a bots-only duel, watched: the status bar counts the rounds
    down, and the duel ends after round 3 on the stalemate score, which the end panel says."""
    game = _post(server, "/api/games", {"mode": "duel", "lineup": "ER", "bots": {"0": "heuristic", "1": "heuristic"},
                                        "settings": {"variants": "roundLimit=3,rewardCap=1"}})
    page.goto(game["spectator"]["url"])
    page.wait_for_function("() => window.gameView")
    page.locator("#end-panel:not([hidden])").wait_for(timeout=60_000)
    view = page.evaluate("() => window.gameView")
    assert view["result"]["reason"] == "round limit 3 reached: decided on the score at the round limit"
    r, e = view["score"]
    assert view["result"]["winner"] == ("righteous" if r > e else "evil")
    assert "round limit" in page.locator("#end-decided").inner_text()
    assert page.locator("#end-variants").inner_text().startswith("This table plays: ")
    again = page.locator("#end-again").get_attribute("href") or ""
    assert "variants=" in again and "roundLimit%3D3" in again
    _shot(page, "variants-round-limit-end-1280x800")


def test_a_long_duel_offers_to_end_on_the_score_on_the_board(server: str, page: Any,  # noqa: F811
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    game = _position_game(server, monkeypatch, DUEL_LATE, "duel", "ER", bots={0: "heuristic"})
    page.goto(game["seats"][1]["url"])
    page.locator("#long-duel:not([hidden])").wait_for()
    text = page.locator("#long-duel").inner_text()
    assert "round 20" in text and "offer to end it now on the stalemate score" in text
    page.locator("#long-offer-end").click()
    page.wait_for_function("() => document.querySelector('#long-offer-end').disabled")


def test_the_rules_page_refuses_a_bad_variants_link_with_a_code(server: str) -> None:  # noqa: F811
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(server + "/rules?mode=pvp&variants=rewardKap%3D2")
    assert err.value.code == 400
    body = err.value.read().decode()
    assert "bad_variants" in body and "unknown variant" in body
    with urllib.request.urlopen(server + "/rules?mode=pvp") as r:
        assert "This table plays the printed rules." in r.read().decode()
    with urllib.request.urlopen(server + "/api/variants") as r:
        assert json.loads(r.read())["presets"]["recommended"]["values"] == RECOMMENDED


def test_the_board_counts_the_evil_sides_threats_left_this_round(server: str, page: Any) -> None:  # noqa: F811
    """D-INT-4 (variant roundThreats=2): the Righteous player's board shows how many threats the Evil
    side may still play this round, the view's count; a table without the variant shows no such line."""
    game = _post(server, "/api/games", {"mode": "duel", "lineup": "ER", "bots": {"0": "heuristic"},
                                        "settings": {"variants": "roundThreats=2"}})
    page.goto(game["seats"][1]["url"])
    page.locator("#duel-round-threats").wait_for(state="attached")   # in the Evil side's clocks
    # the view and the board read in one go: a bot's threat may come between two reads
    left, text = page.evaluate("() => [window.gameView.duel.round_threats_left, "
                               "document.querySelector('#duel-round-threats').textContent]")
    assert 0 <= left <= 2
    assert text.startswith(f"Threats left to the Evil side this round: {left}") and "roundThreats: 2" in text
    printed = _post(server, "/api/games", {"mode": "duel", "lineup": "ER", "bots": {"0": "heuristic"}})
    page.goto(printed["seats"][1]["url"])
    page.locator("#duel-evil-progress").wait_for(state="attached")
    assert page.locator("#duel-round-threats").count() == 0
    assert page.evaluate("() => window.gameView.duel.round_threats_left") is None
