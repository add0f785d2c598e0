"""Issue 20, defects 1 and 9, in the browser (Debian Chromium): a lobby game's record and its replay.

* 1: a game created from the lobby with no seed has 128 random bits of seed. Its record, downloaded
  through the board's end panel, holds the seed as the exact decimal string the server has (the page
  saves the server's bytes; it no longer parses and re-writes them, which made a float of the seed);
  ``christianity-game replay`` reads the file; "Watch the replay" opens it without an error and steps.
* 9: the replay's captions are the game's sentences, with card and ability names (no ``#46``, no raw
  ids); every seat of the line-up and a spectator can be chosen; once the game is over an "all cards
  shown" view shows the other seat's hand.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from test_web import (  # noqa: F401 - the fixtures are used by name
    CHROMIUM,
    _get,
    _post,
    _shot,
    browser,
    page,
    server,
)
from typer.testing import CliRunner

from christianity_game.cli import app as cli_app

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed (scripts/install-browser.sh)")

#: What the old captions held: a uid after '#' ("Choose (option #46)") or a snake_case name
#: ("to_seat", "cost_zone_power").
RAW = re.compile(r"#\d|\b[a-z]+_[a-z_]+\b")


def _raw(base: str, path: str) -> bytes:
    with urllib.request.urlopen(base + path) as r:
        return r.read()  # type: ignore[no-any-return]


def _lobby_bots_game(server: str, page: Any) -> str:  # noqa: F811
    """A co-op game of two random bots created by clicking in the lobby, no seed typed; its id,
    once the bots have played it to the end."""
    page.goto(server + "/")
    page.get_by_role("radio", name="Co-op").check()
    for i in (1, 2):
        page.get_by_label(f"Seat {i} player").select_option("random")
    assert page.locator("#seed").input_value() == ""
    page.get_by_role("button", name="Create game").click()
    watch = page.locator("#links .spectator a.seat-link")
    watch.wait_for()
    gid = re.search(r"/play/([^/#?]+)", watch.get_attribute("href") or "").group(1)  # type: ignore[union-attr]
    deadline = time.time() + 90
    while _get(server, f"/api/games/{gid}").get("result") is None:
        assert time.time() < deadline, "the bots' game did not end"
        time.sleep(0.2)
    page.goto(watch.get_attribute("href"))
    return gid


def _step_to(page: Any, n: int) -> None:
    page.evaluate("(n) => { const s = document.querySelector('#slider'); s.value = String(n); "
                  "s.dispatchEvent(new Event('change')); }", n)
    page.wait_for_function(f"() => document.body.dataset.step === '{n}'")


def _see_as(page: Any, seat: str) -> None:
    page.locator("#seat").select_option(seat)
    page.wait_for_function(f"() => document.body.dataset.seat === '{seat}'")


def _names(page: Any, selector: str) -> list[str]:
    return page.eval_on_selector_all(selector, "els => els.map((e) => e.getAttribute('alt'))")  # type: ignore[no-any-return]


def test_lobby_game_record_keeps_its_seed_and_replays_with_sentences(server: str, page: Any,  # noqa: F811
                                                                     tmp_path: Path) -> None:
    gid = _lobby_bots_game(server, page)
    served_bytes = _raw(server, f"/api/games/{gid}/record")
    served = json.loads(served_bytes)
    seed = served["seed"]
    assert isinstance(seed, str) and int(seed) > 2**53, seed   # 128 random bits, as a decimal string

    # defect 1: the download is the server's record, byte for byte, seed and all
    page.locator("#end-panel").wait_for()
    with page.expect_download() as dl:
        page.locator("#end-download").click()
    assert dl.value.suggested_filename == f"game-{gid}.json"
    path = tmp_path / dl.value.suggested_filename
    dl.value.save_as(path)
    saved = path.read_bytes()
    record = json.loads(saved)
    assert record["seed"] == seed and f'"seed":"{seed}"' in saved.decode().replace(" ", "")
    assert saved == served_bytes
    result = CliRunner().invoke(cli_app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "Replay of" in result.output and "Traceback" not in result.output

    # "Watch the replay" forwards the record as served: it opens and steps, with no error
    _shot(page, "end-panel-random-seed-1280x800", docs=True)
    page.locator("#end-replay").click()
    page.wait_for_url("**/replay?game=*")
    page.wait_for_function("() => document.body.dataset.step === '0'")
    assert page.locator("#error").inner_text() == ""
    total = len(record["actions"])
    assert page.locator("#step-label").inner_text() == f"Step 0 of {total}"
    for n in (1, 2):
        page.locator("#forward").click()
        page.wait_for_function(f"() => document.body.dataset.step === '{n}'")
    assert page.locator("#error").inner_text() == ""

    # defect 9: every seat of the line-up, a spectator, and (the game is over) all cards shown
    options = page.eval_on_selector_all("#seat option", "els => els.map((e) => e.value)")
    assert options == ["spectator", "0", "1", "all"]

    # captions: sentences with card and ability names, never a uid or a raw id
    cards = _get(server, "/api/cards")
    names = {c["name"] for c in cards.values()}
    ids = {i for i in cards if "-" in i}   # card ids such as a-roaring-lion (never part of a sentence)
    abilities = _get(server, "/api/abilities")
    _see_as(page, "all")
    plays = [i for i, a in enumerate(record["actions"], 1) if a["type"] in ("PlayCard", "Resist", "LayCostZone")]
    picks = [i for i, a in enumerate(record["actions"], 1)
             if a["type"] in ("Choose", "BuyAbility", "ChooseAbility", "UseAbility")]
    captions: dict[int, str] = {}
    for n in sorted({1, 2, 3, total, *plays[:6], *plays[-3:], *picks[:6]}):
        _step_to(page, n)
        captions[n] = page.locator("#action").inner_text()
    for n, caption in captions.items():
        action = record["actions"][n - 1]
        assert re.fullmatch(r"(Seat \d|The Evil deck): [A-Z].*\.", caption), caption
        assert not RAW.search(caption) and not any(i in caption for i in ids), caption
        if action["type"] in ("PlayCard", "Resist", "LayCostZone", "Choose"):
            assert any(name in caption for name in names), caption
        if "ability" in action:   # "Buy Vibrancy for 7 Cost: ...", not "Buy Ability (ability vibrancy)"
            assert abilities[action["ability"]]["name"] in caption, caption
    print("captions:", captions)

    # each seat's own point of view, then all cards shown: the other seat's hand face up, at a
    # step in mid-game where both seats hold cards (asked of the server's replay answers)
    rid = _post(server, "/api/replays", served)["replay_id"]

    def holding(n: int) -> bool:
        view = _get(server, f"/api/replays/{rid}/{n}?seat=spectator")["view"]
        return all(s["hand_size"] > 0 for s in view["seats"])

    mid = next(n for n in range(total // 2, total) if holding(n))
    _step_to(page, mid)
    hands: dict[str, list[str]] = {}
    for s in ("0", "1"):
        _see_as(page, s)
        assert page.locator("#hand-title").text_content().startswith(f"Seat {int(s) + 1}'s hand")
        hands[s] = _names(page, "#hand img")
        assert "a face-down card" not in hands[s]
    _see_as(page, "spectator")
    assert "hidden" in page.locator("#hand-title").text_content()
    assert page.locator("#seats .hand-row").count() == 0
    _see_as(page, "all")
    assert page.locator("#hand-title").text_content().startswith("All cards shown")
    for s in ("0", "1"):
        shown = _names(page, f"#seats .seat[data-seat='{s}'] .hand-row img")
        assert shown == hands[s], (s, shown, hands[s])
        assert page.locator(f"#seats .seat[data-seat='{s}'] .deck-row img").count() > 0
        assert "a face-down card" not in _names(page, f"#seats .seat[data-seat='{s}'] .deck-row img")
    assert hands["0"] and hands["1"]
    _shot(page, "replay-random-seed-1280x800", docs=True)   # the README's: a lobby game, random seed
