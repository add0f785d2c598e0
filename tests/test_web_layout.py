"""Issue 20, defects 6 and 7: the board's layout in the browser (Debian Chromium, 1280x800 and 390x844).

* 6: every option of every decision is in view, or reachable in a decision box that visibly scrolls
  (a box with ``overflow-y: auto`` inside the viewport, saying how many options lie below); Pass is
  in view from the start; no button's text is cut. Checked at both sizes for every kind of decision
  met in seeded games (solo, co-op RR, a duel ER as each side), played through the WebSocket by a
  seeded random player with bots in the other seats, while two pages (one each size) show the seat.
* 7: a card on the board can be read: hovering (mouse) or long-pressing (touch, with no context
  menu and no tap) shows it large, inside the viewport, with its name and rules text; a quick tap
  still opens the card's actions; a face-down card never enlarges.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from test_web import (  # noqa: F401 - the fixtures are used by name
    CHROMIUM,
    SIZES,
    TIMEOUT,
    _post,
    _shot,
    browser,
    server,
)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed (scripts/install-browser.sh)")
ws_sync = pytest.importorskip("websockets.sync.client")

#: not decisions of the game: never picked by the random player
META = {"Undo", "OfferEnd", "AnswerEnd", "AdjustBadge"}


@pytest.fixture
def sized(browser: Any) -> Iterator[dict[str, Any]]:  # noqa: F811
    """One browser context per size, each of whose pages must raise no JavaScript error."""
    errors: list[str] = []
    ctxs = {}
    for w, h in SIZES:
        ctx = browser.new_context(viewport={"width": w, "height": h}, has_touch=w < 600)
        ctxs[f"{w}x{h}"] = ctx
    yield ctxs | {"errors": errors}
    for ctx in ctxs.values():
        ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


def _open(ctx: Any, url: str, errors: list[str]) -> Any:
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.locator("#hand .card").first.wait_for()
    return page


def _settled(page: Any) -> None:
    """Wait until the hand has been drawn again with the server's prices for this state.

    The board draws the hand at once, then once more when /explain answers; a card taken before that
    second drawing is detached from the page under the test's feet.
    """
    page.locator("#decider.yours").wait_for()
    page.wait_for_function("() => document.body.dataset.explained === document.body.dataset.stateId")


# =========================================================================== 6: the decision box
#: in the page: is every button of the decision box in view, or reachable in a box that visibly scrolls?
CHECK_DECIDE = """() => {
  const box = document.querySelector('#decide');
  const out = { problems: [], buttons: 0, overflowing: false };
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const bar = () => document.querySelector('.topbar').getBoundingClientRect().bottom;
  const name = (b) => (b.id ? '#' + b.id + ' ' : '') + JSON.stringify(b.textContent.trim().slice(0, 60));
  const inView = (r) => r.left >= -1 && r.right <= vw + 1 && r.top >= bar() - 1 && r.bottom <= vh + 1;
  const onTop = (b) => {
    const r = b.getBoundingClientRect();
    const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return e && (e === b || b.contains(e)) ? null : (e ? e.tagName + '#' + e.id + '.' + e.className : 'nothing');
  };
  const clippedBy = (b) => {
    const r = b.getBoundingClientRect();
    for (let n = b.parentElement; n && n !== document.body; n = n.parentElement) {
      const s = getComputedStyle(n);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const c = n.getBoundingClientRect();
      if (r.top < c.top - 1 || r.bottom > c.bottom + 1 || r.left < c.left - 1 || r.right > c.right + 1)
        return n.tagName + '#' + n.id + '.' + n.className;
    }
    return null;
  };
  const scrollers = [box, ...box.querySelectorAll('*')].filter((n) => n.scrollHeight > n.clientHeight + 1
      && n.clientHeight > 0 && getComputedStyle(n).overflowY !== 'visible');
  // as the decision first shows: the page and the box at their tops
  window.scrollTo(0, 0);
  scrollers.forEach((n) => { n.scrollTop = 0; });
  for (const sc of scrollers) {
    out.overflowing = true;
    const s = getComputedStyle(sc);
    if (!['auto', 'scroll'].includes(s.overflowY)) out.problems.push(`the box ${sc.id || sc.className} clips its options (overflow-y ${s.overflowY})`);
    const r = sc.getBoundingClientRect();
    if (r.height > vh - bar() + 1) out.problems.push(`the box ${sc.id || sc.className} is taller than the viewport: ${r.height}`);
    const more = box.querySelector('#decide-more');
    if (!more || more.hidden || !inView(more.getBoundingClientRect()) || onTop(more)
        || !/more/i.test(more.textContent)) out.problems.push(`options lie below in ${sc.id || sc.className} `
          + `(${sc.scrollHeight} > ${sc.clientHeight}) but nothing in view says so (${more ? more.hidden + ' ' + more.textContent : 'no hint'})`);
  }
  const pass = box.querySelector('#pass');
  if (pass) {
    const r = pass.getBoundingClientRect();
    if (!inView(r) || onTop(pass) || clippedBy(pass)) out.problems.push(`Pass is not in view as the decision shows: ${JSON.stringify(r)}, covered by ${onTop(pass)}, clipped by ${clippedBy(pass)}`);
  }
  for (const b of box.querySelectorAll('button')) {
    if (b.closest('[hidden]')) continue;
    out.buttons += 1;
    b.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const r = b.getBoundingClientRect();
    if (r.width < 4 || r.height < 4) { out.problems.push(`${name(b)} is not drawn`); continue; }
    if (!inView(r)) out.problems.push(`${name(b)} is out of view after scrolling to it: ${JSON.stringify(r)} (viewport ${vw}x${vh})`);
    const cover = onTop(b);
    if (cover) out.problems.push(`${name(b)} is covered by ${cover}`);
    const clip = clippedBy(b);
    if (clip) out.problems.push(`${name(b)} is cut off by ${clip}`);
    if (b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1)
      out.problems.push(`${name(b)}: its text is cut (${b.scrollWidth}x${b.scrollHeight} in ${b.clientWidth}x${b.clientHeight})`);
  }
  window.scrollTo(0, 0);
  scrollers.forEach((n) => { n.scrollTop = 0; });
  return out;
}"""


def _kinds(v: dict[str, Any]) -> frozenset[str]:
    """The kinds of decision in a view's pending actions (a card aimed at a seat or a threat: a target choice)."""
    out = set()
    for a in v["pending"]:
        t = a["type"]
        if t in META:
            continue
        if t == "PlayCard":
            if a.get("threat") is not None or (a.get("to_seat") is not None and len(v["seats"]) > 1):
                out.add("target")
            else:
                out.add("PlayCard")
        elif t == "Choose":
            out.add(f"Choose:{(v.get('choice') or {}).get('purpose')}")
        else:
            out.add(t)
    return frozenset(out)


class _Seat:
    """A seat played over the WebSocket by a seeded random player (the other seats are the server's bots)."""

    def __init__(self, ws: Any, token: str, seat: int, seed: int) -> None:
        self.ws, self.token, self.seat, self.rng = ws, token, seat, random.Random(seed)
        self.view: dict[str, Any] = {}
        self.sent = 0.0
        ws.send(json.dumps({"type": "hello", "token": token}))
        self._pump(-1)

    def _ours(self) -> bool:
        return bool(self.view.get("result")) or any(a["type"] not in META for a in self.view.get("pending", []))

    def _pump(self, after: int) -> None:
        """Read messages until the state passes ``after`` and the seat has a decision (or the game is over)."""
        while True:
            m = json.loads(self.ws.recv(timeout=20))
            if m["type"] in ("welcome", "update", "sync"):
                self.view = m["view"]
            elif m["type"] == "error":
                raise AssertionError(f"the server refused an action: {m}")
            if self.view and self.view["state_id"] > after and self._ours():
                return

    def act(self) -> None:
        """A random decision: Pass only now and then while there is something else to do (the game goes further)."""
        acts = [a for a in self.view["pending"] if a["type"] not in META]
        others = [a for a in acts if a["type"] != "Pass"]
        pool = others if others and self.rng.random() > 0.15 else acts
        a = dict(pool[self.rng.randrange(len(pool))])
        a["seat"] = self.seat
        sid = self.view["state_id"]
        time.sleep(max(0.0, self.sent + 0.06 - time.monotonic()))   # the server takes 20 messages a second
        self.sent = time.monotonic()
        self.ws.send(json.dumps({"type": "action", "token": self.token, "state_id": sid, "action": a, "ref": sid}))
        self._pump(sid)


#: the kinds of decision the games must show (each checked at both sizes); a target: a card aimed at a seat or a threat
REQUIRED = {"LayCostZone", "PlayCard", "Pass", "BuyAbility", "ChooseAbility", "Resist", "TakeBoost", "target",
            "Choose:search", "ChooseReward", "UseAbility"}
#: (mode, line-up, seed, the seat played by the random player, the kinds it plays on to): the other seats are bots.
#: Seeds whose games reach those kinds soon (with the heuristic bots); a game stops once it has shown them.
GAMES = [
    ("solo", "R", 2, 0, {"LayCostZone", "PlayCard", "Pass", "BuyAbility", "Resist", "TakeBoost", "target",
                         "Choose:search", "UseAbility"}),
    ("coop", "RR", 26, 0, {"target", "ChooseAbility", "Resist", "TakeBoost"}),   # the free choice at a shared level
    ("duel", "ER", 2, 0, {"ChooseReward", "target"}),                           # as Evil
    ("duel", "ER", 2, 1, {"Resist", "ChooseReward", "target"}),                 # as Righteous
]
SHOT_KINDS = {"BuyAbility", "ChooseAbility", "Choose:search", "Resist", "ChooseReward"}


def test_every_decision_option_is_in_view_or_visibly_scrollable(server: str, sized: dict[str, Any]) -> None:  # noqa: F811
    """Seeded games at both sizes: at each new kind of decision (and at each larger one), every button of
    the decision box is in view or reachable by scrolling a box that says more options lie below, is not
    covered, not cut off and its text not cut; Pass is in view as the decision shows."""
    started = time.time()
    seen: set[str] = set()
    shots: set[tuple[str, str]] = set()
    failures: list[str] = []
    checks = 0
    for mode, lineup, seed, seat, wanted in GAMES:
        bots = {i: "heuristic" for i in range(len(lineup)) if i != seat}
        g = _post(server, "/api/games", {"mode": mode, "lineup": lineup, "seed": seed, "bots": bots})
        link = next(s for s in g["seats"] if s["seat"] == seat)
        with ExitStack() as stack:
            player = _Seat(stack.enter_context(ws_sync.connect(g["ws"], open_timeout=10)), link["token"], seat, seed)
            pages = {size: _open(ctx, link["url"], sized["errors"]) for size, ctx in sized.items() if size != "errors"}
            biggest: dict[frozenset[str], int] = {}
            game_seen: set[str] = set()
            for _step in range(200):
                v = player.view
                if v["result"] or wanted <= game_seen:
                    break
                kinds = _kinds(v)
                n = len(v["pending"])
                if n > biggest.get(kinds, 0):
                    biggest[kinds] = n
                    checks += 1
                    for size, page in pages.items():
                        page.wait_for_function(f"() => document.body.dataset.stateId === '{v['state_id']}'")
                        got = page.evaluate(CHECK_DECIDE)
                        where = f"{mode} {lineup} seed {seed} seat {seat + 1}, {size}, state {v['state_id']}, {sorted(kinds)}"
                        failures += [f"{where}: {p}" for p in got["problems"]]
                        for k in kinds & SHOT_KINDS:
                            if (k, size) not in shots:
                                shots.add((k, size))
                                _shot(page, f"decide-{k.replace(':', '-')}-{size}")
                seen |= kinds
                game_seen |= kinds
                player.act()
            print(f"{mode} {lineup} seat {seat + 1}: {sorted(game_seen)}")
            for page in pages.values():
                page.close()
        assert not failures, "\n".join(failures[:12])
    print(f"{checks} decisions checked at {len(SIZES)} sizes in {time.time() - started:.1f} s")
    assert REQUIRED <= seen, f"decision kinds never met: {sorted(REQUIRED - seen)}"


# =========================================================================== 7: reading a card
def _card_words(page: Any, card_id: str) -> dict[str, Any]:
    """The card's name and rules text as the page has them (its catalog: the table's texts, e.g. solo)."""
    info = page.evaluate("async (id) => (await import('/static/common.js')).cardInfo(id)", card_id)
    assert info and info["name"] and info["text"], f"the page has no words for {card_id}: {info}"
    return info  # type: ignore[no-any-return]


PREVIEW_BOX = """() => { const p = document.querySelector('#card-preview');
  if (!p || p.hidden) return null;
  const r = p.getBoundingClientRect(), img = p.querySelector('img');
  return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width,
           img: img ? img.getBoundingClientRect().width : 0, text: p.innerText, id: p.dataset.id,
           vw: document.documentElement.clientWidth, vh: window.innerHeight }; }"""


def _assert_readable(page: Any, got: dict[str, Any] | None, card_id: str, thumb: float) -> None:
    assert got is not None, "no card preview"
    assert got["id"] == card_id
    assert got["left"] >= 0 and got["top"] >= 0 and got["right"] <= got["vw"] and got["bottom"] <= got["vh"], got
    assert got["img"] >= 2 * thumb, f"the preview's picture is {got['img']} px wide, the thumbnail {thumb}"
    info = _card_words(page, card_id)
    assert info["name"] in got["text"], got["text"]
    assert info["text"] in got["text"], got["text"]


def test_hover_shows_a_hand_card_large_with_its_text(server: str, sized: dict[str, Any]) -> None:  # noqa: F811
    g = _post(server, "/api/games", {"mode": "coop", "lineup": "RR", "seed": 5, "bots": {1: "heuristic"}})
    page = _open(sized["1280x800"], g["seats"][0]["url"], sized["errors"])
    _settled(page)
    for i, where in ((2, "#hand"), (0, ".seat.me .cost-zone")):
        card = page.locator(f"{where} .card").nth(i)
        card_id = card.get_attribute("data-id")
        thumb = card.bounding_box()["width"]
        card.hover()
        page.wait_for_function("() => { const p = document.querySelector('#card-preview'); return p && !p.hidden; }")
        _assert_readable(page, page.evaluate(PREVIEW_BOX), card_id, thumb)
        if where == "#hand":
            _shot(page, "card-preview-hover-1280x800", docs=True)
        page.mouse.move(1100, 400)    # the log, away from any card
        page.wait_for_function("() => document.querySelector('#card-preview').hidden")
    # a face-down card (the other seat's Cost Zone) never enlarges
    hidden = page.locator(".seat:not(.me) .cost-zone .card").first
    assert hidden.get_attribute("data-id") == ""
    hidden.hover()
    page.wait_for_timeout(300)
    assert page.evaluate(PREVIEW_BOX) is None
    page.close()


def _touch(page: Any, selector: str, kind: str, index: int = 0) -> None:
    """A TouchEvent of ``kind`` at the centre of the element (as a finger gives it)."""
    page.evaluate("""([sel, kind, i]) => {
        const t = document.querySelectorAll(sel)[i];
        const r = t.getBoundingClientRect();
        const touch = new Touch({ identifier: 7, target: t, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 });
        const list = kind === 'touchend' ? [] : [touch];
        t.dispatchEvent(new TouchEvent(kind, { touches: list, targetTouches: list, changedTouches: [touch],
                                               bubbles: true, cancelable: true }));
    }""", [selector, kind, index])


def test_long_press_shows_a_card_a_quick_tap_opens_its_actions(server: str, sized: dict[str, Any]) -> None:  # noqa: F811
    g = _post(server, "/api/games", {"mode": "solo", "lineup": "R", "seed": 1})
    page = _open(sized["390x844"], g["seats"][0]["url"], sized["errors"])
    _settled(page)
    card = page.locator("#hand .card").nth(1)
    card.scroll_into_view_if_needed()
    card_id = card.get_attribute("data-id")
    thumb = card.bounding_box()["width"]
    page.evaluate("""() => { window.menus = 0;
        document.addEventListener('contextmenu', (e) => { if (!e.defaultPrevented) window.menus += 1; }); }""")

    # a long press, as events: touchstart, 600 ms, touchend (then the click a browser would send)
    _touch(page, "#hand .card", "touchstart", 1)
    page.wait_for_timeout(600)
    got = page.evaluate(PREVIEW_BOX)
    _assert_readable(page, got, card_id, thumb)
    # the context menu a phone's browser opens on a long press is suppressed
    assert page.evaluate("""() => { const e = new MouseEvent('contextmenu', { bubbles: true, cancelable: true });
        document.querySelectorAll('#hand .card')[1].dispatchEvent(e); return e.defaultPrevented; }""")
    _shot(page, "card-preview-long-press-390x844", docs=True)
    _touch(page, "#hand .card", "touchend", 1)
    card.dispatch_event("click")
    page.wait_for_timeout(100)
    assert page.evaluate(PREVIEW_BOX) is None, "the preview stays after the finger is lifted"
    assert page.locator("#popover").is_hidden(), "a long press also tapped the card"

    # a long press with a real finger (the browser's own touch input): the preview, no context menu, no tap
    cdp = page.context.new_cdp_session(page)
    box = card.bounding_box()
    point = [{"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}]
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point})
    page.wait_for_timeout(700)
    _assert_readable(page, page.evaluate(PREVIEW_BOX), card_id, thumb)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_timeout(200)
    assert page.evaluate(PREVIEW_BOX) is None
    assert page.locator("#popover").is_hidden(), "a long press also tapped the card"
    assert page.evaluate("window.menus") == 0, "the browser's context menu was not suppressed"

    # a quick tap: the card's actions (the popover), never the preview
    page.wait_for_timeout(600)
    card.tap()
    page.locator("#popover").wait_for()
    assert page.evaluate(PREVIEW_BOX) is None
    assert page.locator("#popover", has_text=_card_words(page, card_id)["name"]).count() == 1
    _shot(page, "card-tap-popover-390x844")
    page.close()
