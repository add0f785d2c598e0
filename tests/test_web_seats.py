"""Issue 12, seats and fairness in the browser (Debian Chromium, at 1280x800 and 390x844):

* the lobby's per-seat access: an *open* seat is listed under Open games and a stranger joins it;
  an *invited* seat never shows there;
* ``manualAdjust: ask`` in a duel between people: a badge set by hand on one page is a request
  the other page accepts or declines; it is applied only after Accept;
* the server's close codes in words: 4429 (too many connections on a seat, with Try again) and
  4410 (a game that cannot be resumed after an upgrade: its record can be downloaded); after 1013
  (the page fell behind) the board reconnects by itself.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from test_web import (  # noqa: F401 - the fixtures are used by name
    CHROMIUM,
    SIZE_IDS,
    SIZES,
    TIMEOUT,
    _post,
    _shot,
    browser,
    server,
)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed (scripts/install-browser.sh)")
ws_sync = pytest.importorskip("websockets.sync.client")


@pytest.fixture(params=SIZES, ids=SIZE_IDS)
def ctx(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:  # noqa: F811
    """A browser context at one of the two sizes; its pages must raise no JavaScript error."""
    w, h = request.param
    c = browser.new_context(viewport={"width": w, "height": h})
    errors: list[str] = []

    def new_page() -> Any:
        pg = c.new_page()
        pg.set_default_timeout(TIMEOUT)
        pg.on("pageerror", lambda e: errors.append(str(e)))
        return pg

    c.fresh = new_page
    c.size_id = f"{w}x{h}"
    yield c
    c.close()
    assert not errors, f"JavaScript errors: {errors}"


def _open_games(base: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(base + "/api/games?limit=50") as r:
        return json.loads(r.read())  # type: ignore[no-any-return]


def test_lobby_open_seat_is_listed_and_joinable_an_invited_one_never(server: str, ctx: Any) -> None:  # noqa: F811
    page = ctx.fresh()
    page.goto(server + "/")
    page.get_by_role("radio", name="Co-op").check()
    assert page.locator("#access-0").input_value() == "invited"   # the default
    assert "never listed" in page.locator("#access-note-0").inner_text()
    page.locator("#access-1").select_option("open")
    assert "first person to join takes it" in page.locator("#access-note-1").inner_text()
    name = f"open-{ctx.size_id}"
    page.locator("#game-name").fill(name)
    page.get_by_role("button", name="Create game").click()
    page.locator("#links a.seat-link").first.wait_for()
    assert page.locator("#links li[data-access=open]").count() == 1
    assert page.locator("#links li[data-access=invited]").count() == 1
    row = page.locator("#open-games li.open-game", has_text=name)
    row.wait_for()
    assert row.locator("button.join").count() == 1                  # seat 2 only; seat 1 is invited
    assert row.locator("button.join").inner_text() == "Join seat 2 (Righteous)"
    _shot(page, f"lobby-open-seat-{ctx.size_id}")
    # an all-invited game is never listed
    invited = _post(server, "/api/games", {"mode": "coop", "lineup": "RR", "name": f"invited-{ctx.size_id}"})
    page.reload()
    page.locator("#open-games li.open-game", has_text=name).wait_for()
    assert page.locator("#open-games li", has_text=f"invited-{ctx.size_id}").count() == 0
    assert invited["game_id"] not in {g["game_id"] for g in _open_games(server)}
    # a stranger joins the open seat: the board, as seat 2; the game leaves the list
    stranger = ctx.fresh()
    stranger.goto(server + "/")
    stranger.locator("#open-games li.open-game", has_text=name).locator("button.join").click()
    stranger.wait_for_url("**/play/**")
    stranger.wait_for_function("() => window.gameView !== undefined")
    assert stranger.locator(".seat.me").get_attribute("data-seat") == "1"
    assert name not in {g["name"] for g in _open_games(server)}


def _humility(page: Any) -> int:
    return int(page.evaluate("() => window.gameView.seats[1].humility"))


def _ask(page: Any, value: int) -> None:
    page.locator(".seat.me .badge-humility").click(button="right")
    assert "it is a request" in page.locator("#badge-how").inner_text()
    page.locator("#badge-value").fill(str(value))
    page.locator("#badge-set", has_text="Ask").click()


def test_an_adjustment_at_an_ask_table_waits_for_the_other_side(server: str, ctx: Any) -> None:  # noqa: F811
    g = _post(server, "/api/games", {"mode": "duel", "lineup": "ER", "manualAdjust": "ask"})
    assert g["manualAdjust"] == "ask"
    evil, good = ctx.fresh(), ctx.fresh()
    evil.goto(g["seats"][0]["url"])
    good.goto(g["seats"][1]["url"])
    for p in (evil, good):
        p.locator("#hand .card").first.wait_for()
    good.locator("#menu-button").click()
    assert "ask" in good.locator("#menu-adjust").get_attribute("data-adjust")
    assert "the other side accepts or declines" in good.locator("#menu-adjust").inner_text()
    good.keyboard.press("Escape")
    start = _humility(good)

    # declined: nothing changes, both logs say so
    _ask(good, start + 2)
    good.locator("#adjust-waiting").wait_for()
    evil.locator("#adjust-accept").wait_for()
    assert f"Humility to {start + 2}/10" in evil.locator(".adjust-request").inner_text()
    _shot(evil, f"adjust-request-{ctx.size_id}")
    evil.locator("#adjust-decline").click()
    for p in (evil, good):
        p.locator("#log li.ev-adjust-declined").wait_for()
        assert p.locator(".adjust-request").count() == 0
    assert _humility(good) == start and _humility(evil) == start

    # accepted: applied, as the requesting seat's manual change
    _ask(good, start + 3)
    evil.locator("#adjust-accept").click()
    good.wait_for_function(f"() => window.gameView.seats[1].humility === {start + 3}")
    for p in (evil, good):
        p.locator("#log li.ev-adjust-accepted").wait_for()
    assert f"{start + 3}/10" in good.locator(".seat.me .badge-humility").inner_text()
    assert _humility(evil) == start + 3


def test_close_codes_in_words(server: str, ctx: Any) -> None:  # noqa: F811
    """4429: too many connections on one seat, in words, with Try again; 4410 (mocked): the record,
    no reconnect; 1013 (mocked): one reconnect, and play goes on."""
    g = _post(server, "/api/games", {"mode": "solo", "lineup": "R", "seed": 3})
    token = g["seats"][0]["token"]

    def joined(stack: ExitStack) -> Any:
        ws = stack.enter_context(ws_sync.connect(g["ws"], open_timeout=10))
        ws.send(json.dumps({"type": "hello", "token": token}))
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        return ws

    page = ctx.fresh()
    with ExitStack() as held:
        for _ in range(3):
            joined(held)
        with ExitStack() as fourth:   # the per-seat cap is 4
            joined(fourth)
            page.goto(g["seats"][0]["url"])
            banner = page.locator("#link-dead[data-close='4429']")
            banner.wait_for()
            assert "Too many connections" in banner.inner_text()
            assert banner.locator("a", has_text="Back to the lobby").count() == 1
            _shot(page, f"close-4429-{ctx.size_id}")
        banner.locator("#close-retry").click()   # one closed: Try again joins
        page.locator("#hand .card").first.wait_for()

    # 4410, as the server sends it (error, then close): words, the record, the lobby; no reconnect
    page = ctx.fresh()
    opened = []

    def refuse(route: Any) -> None:
        opened.append(1)
        route.on_message(lambda _m: (route.send(json.dumps({"type": "error", "code": "game_not_resumable",
                                                            "message": "stored under rules 1"})),
                                     route.close(code=4410, reason="game_not_resumable")))

    page.route_web_socket("**/ws/**", refuse)
    page.goto(g["seats"][0]["url"])
    banner = page.locator("#link-dead[data-close='4410']")
    banner.wait_for()
    assert "cannot go on" in banner.inner_text() and "record" in banner.inner_text()
    assert banner.locator("#close-download").count() == 1
    page.wait_for_timeout(1500)
    assert len(opened) == 1, "a final close must not reconnect"

    # 1013 (the page fell behind): it reconnects by itself and plays on
    page = ctx.fresh()
    tries: list[int] = []

    def behind_once(route: Any) -> None:
        tries.append(1)
        if len(tries) == 1:
            route.on_message(lambda _m: route.close(code=1013, reason="stopped reading: reconnect to resync"))
        else:
            route.connect_to_server()

    page.route_web_socket("**/ws/**", behind_once)
    page.goto(g["seats"][0]["url"])
    page.locator("#hand .card").first.wait_for()
    assert len(tries) == 2 and page.locator("#link-dead").count() == 0
