"""Issue 11, the table actions in the browser (Debian Chromium, at 1280x800 and 390x844):

* Undo in the decision area: disabled with the reason up front, accepted inside a turn (the board
  is as before), and disabled with the reason after a card that draws;
* ending a duel by agreement: the other side's offer shows a prompt with Accept / Decline; a
  decline goes on; an offer from the game menu, accepted, ends the duel, and the end panel says
  it was decided by agreement.

The other seat (or a second connection of the same seat) is a plain WebSocket client here, which
keeps each test short.
"""

from __future__ import annotations

import json
from typing import Any, Iterator

import pytest
from test_server_table_actions import draw_line
from test_web import (  # noqa: F401 - the fixtures are used by name
    CHROMIUM,
    SIZE_IDS,
    SIZES,
    _decision,
    _post,
    _shot,
    browser,
    server,
    sized_page,
)


pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed (scripts/install-browser.sh)")
ws_sync = pytest.importorskip("websockets.sync.client")


class Seat:
    """A second client of a game over a real WebSocket: joins with a token, acts, follows state ids."""

    def __init__(self, ws_url: str, token: str) -> None:
        self.token = token
        self._cm = ws_sync.connect(ws_url, open_timeout=10)
        self.conn = self._cm.__enter__()
        self.conn.send(json.dumps({"type": "hello", "token": token}))
        self.last = self._next("welcome")

    def _next(self, *types: str) -> dict[str, Any]:
        while True:
            msg = json.loads(self.conn.recv(timeout=10))
            if msg["type"] in ("welcome", "update", "sync"):
                self.last = msg
            if msg["type"] in types:
                return msg  # type: ignore[no-any-return]

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        """Send ``action`` at the latest state seen; the acknowledged update, or the error."""
        self.conn.send(json.dumps({"type": "action", "token": self.token, "state_id": self.last["state_id"],
                                   "action": action, "ref": "t"}))
        while True:
            msg = self._next("update", "error")
            if msg["type"] == "error" or msg["ack"]:
                return msg

    def wait_state(self, state_id: int) -> dict[str, Any]:
        while self.last["state_id"] < state_id:
            self._next("update", "sync")
        return self.last

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


@pytest.fixture(params=SIZES, ids=SIZE_IDS)
def sized(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:  # noqa: F811
    w, h = request.param
    with sized_page(browser, w, h) as pg:
        yield pg


def _state(page: Any, n: int) -> None:
    page.wait_for_function(f"() => Number(document.body.dataset.stateId) >= {n}")


def test_undo_accepted_inside_a_turn_and_refused_after_a_draw(server: str, sized: Any) -> None:  # noqa: F811
    page = sized
    seed, line = draw_line()   # a seed whose first turn has a Pass, an undoable action, a drawing card
    g = _post(server, "/api/games", {"mode": "solo", "lineup": "R", "seed": seed})
    page.goto(g["seats"][0]["url"])
    _decision(page)
    undo = page.locator("#undo")
    assert undo.is_disabled() and "Nothing to take back" in page.locator("#undo-why").inner_text()
    assert page.locator("#hand .card").count() == 7
    # lay a card, take it back: the hand and the Cost Zone are as before
    page.locator("#hand .card").first.click()
    page.get_by_role("button", name="Lay in Cost Zone").click()
    _state(page, 1)
    assert page.locator("#hand .card").count() == 6 and undo.is_enabled()
    undo.click()
    _state(page, 2)
    assert page.locator("#log li.ev-undone", has_text="took back their last action").count() == 1
    assert page.locator("#hand .card").count() == 7 and undo.is_disabled()
    # the same turn on, from a second connection of the seat: Pass, an undoable action, a card that draws
    other = Seat(g["ws"], g["seats"][0]["token"])
    try:
        for n, action in enumerate(line):
            up = other.act(action)
            assert up["type"] == "update", up
            _state(page, up["state_id"])
            if n == 1:   # that one may still be taken back
                page.wait_for_function("() => !document.querySelector('#undo').disabled")
        page.locator("#log li.ev-drew").first.wait_for()
        page.wait_for_function("() => document.querySelector('#undo').disabled")
        assert undo.get_attribute("data-reason") == "hidden_revealed"
        assert "drawn" in undo.get_attribute("title")
        assert "hidden card was shown" in page.locator("#undo-why").inner_text()
        err = other.act({"type": "Undo"})   # and the server refuses it with the reason
        assert (err["code"], err["reason"]) == ("illegal_action", "hidden_revealed")
        undo.scroll_into_view_if_needed()
        _shot(page, f"undo-refused-{page.size_id}")
    finally:
        other.close()


def test_a_duel_ended_by_agreement(server: str, sized: Any) -> None:  # noqa: F811
    page = sized
    g = _post(server, "/api/games", {"mode": "duel", "lineup": "ER"})
    page.goto(g["seats"][0]["url"])          # the Evil side in the browser
    page.locator("#hand .card").first.wait_for()
    righteous = Seat(g["ws"], g["seats"][1]["token"])
    try:
        # the other side offers: a prompt with Accept / Decline; declined, play goes on
        up = righteous.act({"type": "OfferEnd"})
        assert up["end_offer"] == "righteous"
        prompt = page.locator("#end-offer")
        prompt.wait_for()
        assert "Righteous side offers to end" in prompt.inner_text() and "the duel is a draw" in prompt.inner_text()   # G-8: 0-0
        _shot(page, f"end-offer-{page.size_id}")
        page.locator("#end-decline").click()
        page.locator("#log li.ev-end_declined").wait_for()
        assert prompt.count() == 0 and page.locator("#end-panel").is_hidden()
        # the Evil side offers from the game menu; the Righteous side accepts
        page.locator("#menu-button").click()
        offer = page.locator("#menu-offer-end")
        assert offer.inner_text() == "Offer to end on the score (0–0)"
        offer.click()
        page.locator("#end-offer-waiting").wait_for()
        page.locator("#menu-button").click()
        assert page.locator("#menu-offer-end").is_disabled()
        page.keyboard.press("Escape")
        righteous.wait_state(up["state_id"] + 2)
        assert righteous.last["end_offer"] == "evil"
        done = righteous.act({"type": "AnswerEnd", "answer": "accept"})
        assert done["view"]["result"]["reason"].startswith("ended by agreement")
        page.locator("#end-panel").wait_for()
        assert "agreement" in page.locator("#end-decided").inner_text()
        assert "Ended by agreement on the stalemate score 0-0" in page.locator("#end-reason").inner_text()
        assert page.locator("#end-winner").inner_text() == "A draw"   # G-8: a tie on the score
        assert page.locator("#log li.ev-end_accepted", has_text="by agreement").count() == 1
        _shot(page, f"end-by-agreement-{page.size_id}")
    finally:
        righteous.close()


def test_G8_a_2v1_side_is_asked_seat_by_seat(server: str, sized: Any) -> None:  # noqa: F811
    """ERR: Evil offers at 0-0; the Righteous player in the browser accepts and is told the offer
    waits for the teammate; the teammate's accept ends the duel as a draw."""
    page = sized
    g = _post(server, "/api/games", {"mode": "duel", "lineup": "ERR"})
    page.goto(g["seats"][1]["url"])          # a Righteous seat in the browser
    page.locator("#hand .card").first.wait_for()
    evil = Seat(g["ws"], g["seats"][0]["token"])
    mate = Seat(g["ws"], g["seats"][2]["token"])
    try:
        up = evil.act({"type": "OfferEnd"})
        assert up["end_waiting"] == [1, 2]
        prompt = page.locator("#end-offer")
        prompt.wait_for()
        assert "every player of your side accepts" in prompt.inner_text() and "the duel is a draw" in prompt.inner_text()
        page.locator("#end-accept").click()
        waiting = page.locator("#end-offer-waiting")
        waiting.wait_for()
        assert "You accepted" in waiting.inner_text() and "waiting for" in waiting.inner_text()
        assert page.locator("#log li.ev-end_answered").count() == 1
        mate.wait_state(up["state_id"] + 1)
        assert mate.last["end_waiting"] == [2] and mate.last["view"]["result"] is None
        done = mate.act({"type": "AnswerEnd", "answer": "accept"})
        assert done["view"]["result"]["winner"] == "draw"
        page.locator("#end-panel").wait_for()
        assert page.locator("#end-winner").inner_text() == "A draw"
    finally:
        evil.close()
        mate.close()
