"""The browser client's pages: the lobby, the board, the card images and the rules pages.

``install_web(app)`` adds the routes to the server app (``create_app`` calls it). Everything the
browser needs is served from here and from ``static/``: plain HTML, CSS and JavaScript modules,
with no build step and nothing fetched from elsewhere at run time.

* ``GET /``: the lobby (``static/lobby.html``); its URL parameters (``?evilInterrupt=0``,
  ``?matAbilities=0``, ``?mode=duel``, ``?scenario=NAME``) preset the new-game form.
* ``GET /play/{game_id}``: the board (``static/board.html``); the seat's token is in the fragment.
* ``GET /cards/{card_id}.svg`` and ``GET /cards/back.svg?side=``: cards drawn by the renderer.
* ``GET /api/cards``: every card's id, name, kind and side (the client's names for the log).
* ``GET /api/scenarios``: the duel scenarios, for the menus.
* ``GET /api/variants``: the duel's play-test variants, their presets and the server's default.
* ``GET /rules?mode=coop|pvp``: the rules in the project's words, the marks legend, a glossary
  generated from the card data, and a QR code that opens the page (the ``--public-url`` the server
  was started with when the page was reached at a loopback address).
* ``GET /api/abilities``: each Maturity Ability's name, text, tier and price.
* ``GET /api/games/{game_id}/explain?token=``: for the token's seat, why each card it holds cannot
  be played now (the engine's code and words) and what each legal play costs (server/explain.py).
* ``GET /replay`` and ``POST /api/replays``, ``GET /api/replays/{id}/{step}?seat=``: the replay
  viewer, stepping through a finished game's record or an uploaded one, as any seat saw it (or,
  for a game that is over, with all cards shown); each step's action also in words.
* ``GET /favicon.ico``.
"""

from __future__ import annotations

import html
import ipaddress
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response

# the replay viewer's records are opened and stepped in a worker process (server/replays.py)
from .replays import ALL_SHOWN, ReplayNotOver, ReplayPool, ReplayRefused, Replays, full_view, step_text  # noqa: F401

STATIC_DIR = Path(__file__).parent / "static"
PAGE_PATHS = ("/", "/play/{game_id}", "/rules", "/replay", "/favicon.ico")
#: The address the server is reached at from other devices (``serve --public-url``): the rules
#: page's QR code encodes it when the page itself was opened at a loopback address.
PUBLIC_URL_ENV = "CHRISTIANITY_GAME_PUBLIC_URL"


@lru_cache(maxsize=1)
def _cards() -> Any:
    from ..cards import starter_set
    return starter_set()


@lru_cache(maxsize=512)
def _card_svg(card_id: str, righteous: int | None = None, fee: int = 1) -> str | None:
    from ..render.svg import card_svg
    cs = _cards()
    try:
        card = cs[card_id]
    except (KeyError, LookupError):
        return None
    return card_svg(card, righteous=righteous, fee=fee)


@lru_cache(maxsize=4)
def _back_svg(side: str | None) -> str:
    from ..render.svg import card_back_svg
    return card_back_svg(side=side)


@lru_cache(maxsize=8)
def card_catalog(righteous: int | None = None, fee: int = 1) -> dict[str, dict[str, Any]]:
    """Every card of the starter set: id -> name, kind, side, cost, resistance, text. ``righteous``
    (the table's number of Righteous seats) 1: the texts as that seat reads them, with the
    target-change fee ``fee`` (P-7, render/table_words.py)."""
    from ..render.table_words import card_text
    out: dict[str, dict[str, Any]] = {}
    for c in _cards():
        text = c.text if righteous is None else card_text(c.text, righteous, fee, needs_mate=c.aims_at_mate)
        out[c.id] = {"id": c.id, "name": c.name, "kind": c.kind, "side": c.side, "cost": c.cost,
                     "resistance": c.resistance, "text": text}
    return out


def variant_catalog(default: str = "") -> dict[str, Any]:
    """What the lobby, the menu and the rules page show of the play-test variants (one source:
    engine/variants.py): each declaration, each preset by alias with its sentence, the default."""
    from ..engine.settings import Settings
    from ..engine.variants import BY_KEY, PRESETS, VARIANTS, parse_variants, table_plays
    presets = {name: {"values": {BY_KEY[k].alias: v for k, v in values.items()},
                      "text": table_plays(Settings().updated(values))} for name, values in PRESETS.items()}
    chosen = parse_variants(default)
    return {"variants": [v.to_json() for v in VARIANTS], "presets": presets,
            "default": {BY_KEY[k].alias: v for k, v in chosen.items()}}


def scenario_list() -> list[dict[str, Any]]:
    try:
        from ..scenarios import all_scenarios
        return [s.to_json() for s in all_scenarios().values()]
    except Exception:  # pragma: no cover - scenarios are optional for the pages
        return []


SVG_HEADERS = {"Cache-Control": "public, max-age=3600"}


def install_web(app: FastAPI) -> None:
    """Add the browser client's routes (replacing any earlier page at the same paths)."""
    app.router.routes[:] = [r for r in app.router.routes if getattr(r, "path", None) not in PAGE_PATHS]

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC_DIR / "lobby.html", media_type="text/html")

    @app.get("/play/{game_id}", include_in_schema=False)
    async def board_page(game_id: str) -> FileResponse:
        return FileResponse(STATIC_DIR / "board.html", media_type="text/html")

    @app.get("/cards/back.svg", include_in_schema=False)
    async def card_back(side: str | None = None) -> Response:
        if side not in (None, "righteous", "evil"):
            side = None
        return Response(_back_svg(side), media_type="image/svg+xml", headers=SVG_HEADERS)

    @app.get("/cards/{card_id}.svg", include_in_schema=False)
    async def card_image(card_id: str, righteous: int | None = None, fee: int = 1) -> Response:
        # ?righteous=1&fee=N: the card as the one Righteous seat of a table reads it (P-7)
        lone = 1 if righteous == 1 else None
        svg = _card_svg(card_id, lone, max(0, min(fee, 9)) if lone else 1)
        if svg is None:
            raise HTTPException(404, f"no card {card_id!r}")
        return Response(svg, media_type="image/svg+xml", headers=SVG_HEADERS)

    @app.get("/api/cards", tags=["web"])
    async def cards(righteous: int | None = None, fee: int = 1) -> JSONResponse:
        """Every card's id, name, kind, side, cost, resistance and text (for the browser client).
        ``?righteous=1&fee=N``: the texts as the one Righteous seat of a table reads them (P-7)."""
        lone = righteous == 1
        return JSONResponse(card_catalog(1 if lone else None, max(0, min(fee, 9)) if lone else 1), headers=SVG_HEADERS)

    @app.get("/api/scenarios", tags=["web"])
    async def scenarios() -> list[dict[str, Any]]:
        """The duel scenarios (name, title, description, mode, line-up, settings)."""
        return scenario_list()

    @app.get("/api/variants", tags=["web"])
    async def variants(request: Request) -> dict[str, Any]:
        """The duel's play-test variants as declared (engine/variants.py), the presets with their
        "This table plays: ..." line, and this server's default for new duels (``serve --variants``)."""
        server = getattr(request.app.state, "server", None)
        return variant_catalog(getattr(server, "default_variants", ""))

    @app.get("/rules", response_class=HTMLResponse, include_in_schema=False)
    async def rules(request: Request, mode: str = "coop", variants: str | None = None) -> HTMLResponse:
        """``?variants=...``: the rules of a table that plays play-test variants ("This table plays: ...")."""
        try:
            return HTMLResponse(rules_page(mode, str(request.url), public_url(request.app), variants))
        except ValueError as exc:   # a bad variants text: the page says what is wrong, with a code
            return HTMLResponse(f"<!doctype html><title>Bad link</title><p id=\"error\">bad_variants: "
                                f"{html.escape(str(exc))}. <a href=\"/rules?mode=pvp\">The duel rules</a></p>",
                                status_code=400)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(FAVICON_SVG, media_type="image/svg+xml", headers=SVG_HEADERS)

    @app.get("/replay", include_in_schema=False)
    async def replay_page() -> FileResponse:
        return FileResponse(STATIC_DIR / "replay.html", media_type="text/html")

    @app.get("/api/abilities", tags=["web"])
    async def abilities(righteous: int | None = None) -> dict[str, Any]:
        """Each Maturity Ability: name, text, tier (high/low) and the price to buy it.
        ``righteous``: the table's number of Righteous seats (with one, no text speaks of a teammate)."""
        return ability_catalog(righteous)

    @app.get("/api/games/{game_id}/explain", tags=["web"])
    async def explain_seat(game_id: str, request: Request, token: str = "") -> JSONResponse:
        """For the token's seat: why each card it holds cannot be played now, what each legal play
        costs (discounts and fees included) and the abilities it may buy, with their prices."""
        from .explain import explain
        server = request.app.state.server
        room = server.room(game_id)
        if room is None:
            return JSONResponse({"code": "no_such_game", "message": f"there is no game {game_id!r}"}, 404)
        ident = room.identify(token) if token else None
        if ident is None:
            return JSONResponse({"code": "wrong_token", "message": "that token is not one of this game's"}, 403)
        return JSONResponse(explain(room.game, ident[1]))

    if getattr(app.state, "replays", None) is None:   # create_app's lifespan shuts it down
        app.state.replays = ReplayPool()

    def replay_limits(request: Request) -> Any:
        server = getattr(request.app.state, "server", None)
        if server is not None:
            return server.limits
        from .limits import Limits
        return Limits()

    @app.post("/api/replays", tags=["web"])
    async def replay_open(request: Request) -> JSONResponse:
        """Open a game record for the replay viewer: its id, line-up and every action. The record
        is replayed in a worker process, within the server's limits on its bytes, its actions and
        the time it takes (``413 record_too_large``, ``413 too_many_actions``, ``503 replay_timeout``)."""
        try:
            status, answer = await request.app.state.replays.open(request, replay_limits(request))
        except ReplayRefused as exc:
            # an upload refused before its end: close the connection rather than read the rest
            return JSONResponse(exc.answer(), exc.status, headers={"Connection": "close", "Retry-After": "1"}
                                if exc.status == 503 else {"Connection": "close"})
        return JSONResponse(answer, status)

    @app.get("/api/replays/{replay_id}/{step}", tags=["web"])
    async def replay_step(request: Request, replay_id: str, step: int, seat: str = "spectator") -> JSONResponse:
        """The board after ``step`` actions as ``seat`` saw it: a seat number, ``spectator``, or
        ``all`` (every card face up: only for a record of a game that is over). ``text``: the
        step's action in words, as the game's describer says it."""
        try:
            viewer: int | str | None = None if seat == "spectator" else ALL_SHOWN if seat == ALL_SHOWN else int(seat)
        except ValueError as exc:
            return JSONResponse({"code": "bad_step", "message": str(exc)}, 400)
        try:
            status, answer = await request.app.state.replays.step(replay_id, step, viewer, replay_limits(request))
        except ReplayRefused as exc:
            return JSONResponse(exc.answer(), exc.status, headers={"Retry-After": "1"})
        return JSONResponse(answer, status)


# --------------------------------------------------------------------------- rules pages

COMMON_TOP = """
<section id="badges"><h2>Humility and Maturity</h2>
<p>Every Righteous player starts at <b>Humility 3 of 10</b> (Humility is also called Power) and
<b>Maturity L0</b>. Maturity climbs L0 &rarr; L1 &rarr; L2 &rarr; L3 and no higher: each Maturity card
that resolves raises its player's level by one. Humility changes only through card effects, failed
temptations{duel_boost} and manual adjustment; putting cards in your Cost Zone never changes it.
Reaching 10 Humility rolls over into the next level (Humility drops by 10).</p>
<p><b>A failed temptation costs its target 1 Humility.</b> At 0 the loss overflows: discard one card
per point you could not lose, each from your hand or your Cost Zone, as you choose.</p>
<p>Right-click (or long-press) your Humility or Maturity badge to set it by hand, for house rules or
testing. The game log shows every such change as a manual one.</p>
</section>
<section id="cost-zone"><h2>The Cost Zone</h2>
<p>Your Cost Zone is how you pay. Cards go there face down from your hand; rotating one untapped
card gives 1 Cost. Costs (<b>C</b>) and resistance costs (<b>R</b>) are paid by rotating. You untap
your whole Cost Zone at the start of your own turn. You start with {opening} cards there and may
lay at most {intake} a turn. Nobody plays anything while a player is laying their Cost Zone.</p>
</section>
<section id="playing"><h2>Playing a card: the order of things</h2>
<ol>
<li>Pay the card's Cost and play it.</li>
<li>If it is a threat it may be resisted by paying its resistance cost (R5, RX...). A resisted card
never reaches the stack, and nothing on it happens: it goes to the Resisted pile.</li>
<li>Unresisted, it goes on the stack.</li>
<li>If nothing is played onto the stack in response (an instant, a fast card), it resolves: its
rules text first,</li>
<li>then its boosts, in any order its player likes. A boost is taken only if someone its glyph
allows pays for it.</li>
</ol>
<p>A paid boost goes on the stack like a card and opens the same response window; it cannot be
countered. A boost with the <b>fast mark</b> (a bolt) is offered before the card's own action,
because it changes what the card is about to do; every other boost comes after.</p>
</section>
"""

COOP = """
<section id="mode"><h2>Co-op and solo</h2>
<p>Any number of players form the Righteous team against the Evil deck, which runs itself by fixed
rules: it makes no choices. The table wins or loses together. <b>Solo</b> is the same game with one
player: a card that needs a teammate (a boost a teammate pays, an effect aimed at one) can still be
used by paying a <b>target-change fee</b> of C1 (rotate one Cost Zone card) and reading it as
pointing at you. Raise the fee to C2 or C3 for a harder game.</p>
</section>
<section id="turn"><h2>A turn</h2>
<p>Players take turns in seat order; a round is one turn each, and the game lasts 10 rounds.</p>
<ol>
<li><b>Draw</b> your Maturity + 2 cards.</li>
<li><b>Cost Zone</b>: lay up to 4 cards face down.</li>
<li><b>Evil</b>: the Evil deck turns over cards and plays them at you: 1 at L0, 2 at L1, 4 at L2,
5 at L3 (your Maturity).</li>
<li><b>Resistance</b>: resist each threat on its own by rotating Cost Zone cards to its resistance
cost and/or playing Resistance cards. A threat you do not resist fails: you lose 1 Humility, a
Temptation goes to the Failed pile, and an Evil Habitual takes hold on you and stays in play.</li>
<li><b>Main</b>: play your cards; you may also resist an Evil Habitual that holds you by paying its
resistance cost.</li>
<li><b>End</b>.</li>
</ol>
</section>
<section id="abilities"><h2>Maturity Abilities: "Mature Together"</h2>
<p>Each time every player has reached the next level (L1, L2, L3) the team chooses one ability,
free. A player may also buy one right after their own Cost Zone phase by rotating Cost: 11 for a
high-tier ability (Deliverance, Restoration, Benevolence, Foresight), 7 for a low-tier one. They are
on the abilities bar at the bottom left of the board.</p>
<ul>
<li><b>Benevolence / Double Resistance</b>: any player may rotate their own Cost Zone to help resist a
threat aimed at someone else.</li>
<li><b>Brotherly Love</b>: redirect your next card's beneficial effect to a teammate.</li>
<li><b>Restoration</b>: once per new level, every player shuffles up to 15 random cards from their
discard pile into their deck.</li>
<li><b>Deliverance</b>: once per new level, break up to 3 Evil Habituals in play.</li>
<li><b>Vibrancy</b>: after your Cost Zone phase, flip 2 of your Cost Zone cards face up.</li>
<li><b>Cost Zone Power</b>: gained 3 or more Humility this turn? At the end of it, put your deck's
top card into your Cost Zone.</li>
<li><b>Speed</b>: once per turn, play a Habitual or Maturity card at any time in your turn.</li>
<li><b>Foresight</b>: at the start of your Cost Zone phase, see the Evil deck's next draws.</li>
</ul>
<p>The game menu's <b>Maturity Abilities</b> switch (or <code>?matAbilities=0</code>) turns the
whole system off.</p>
</section>
<section id="win"><h2>Winning</h2>
<p><b>Righteous win:</b> every player at Maturity L3 and no Evil Habitual in play, held for one full
round: the <b>clearing round</b>. It opens when the last player reaches L3 and runs from the start of
that player's turn to the start of their next one, and it is judged when it closes. If it closes
unclean before round 10 is over, play goes on to the end of round 10; if it opens late in round 10,
it still runs its full length.</p>
<p><b>Evil wins</b> when round 10 is over (and any clearing round has closed) without a Righteous
win.</p>
</section>
"""

PVP = """
<section id="mode"><h2>Duel</h2>
<p>People on both sides: one or more Righteous players against one or more Evil players, who choose
which Temptations and Evil Habituals to play and at whom. Seats of a side share its win. The duel
rules are still being play-tested.</p>
</section>
<section id="turn"><h2>Turns</h2>
<p><b>Evil goes first</b>, and sides do not alternate seat by seat: every Evil seat takes its turn,
then every Righteous seat, then every Evil seat again. Every turn is Draw &rarr; Cost Zone &rarr;
Main &rarr; End; there is no Evil or Resistance phase.</p>
<p><b>Evil interrupts.</b> An Evil player may play a Temptation or Evil Habitual at almost any
time, even in a Righteous player's turn, aimed at any Righteous player (never while a Cost Zone is
being laid). The target answers at once: rotate Cost Zone cards and/or play a Resistance card, even
on someone else's turn. Resistance cards are played only in answer to a threat. Evil may keep
playing as long as it can pay; each threat is answered on its own. What gets through costs
1 Humility, and an Evil Habitual takes hold and blocks that player's part of the win until it is
resisted. The game menu's <b>Evil Interrupt</b> switch (or <code>?evilInterrupt=0</code>) restores
the classic rule: Evil acts only on its own turn.</p>
</section>
<section id="sizes"><h2>Cost Zone and draws</h2>
<p>A side's <b>extra opponents</b> are the other side's seat count minus its own (never below 0):
only the smaller side has any. Both sides open with 3 + extra opponents Cost Zone cards. Righteous
draw their Maturity + 2 + extra opponents each turn and lay at most 4. Evil draws the highest
Righteous Maturity + 2 (when outnumbered: the sum of every Righteous player's Maturity + 2) and lays
at most 4 + 2 &times; extra opponents.</p>
</section>
<section id="evil-tools"><h2>Evil's tools</h2>
<ul>
<li><b>Combo:</b> back-to-back threats get cheaper: full price, then C1 less, C2 less, and so on. A
free (C0) play restarts the chain; it also resets when the Righteous side answers (resists, or takes
the hit) and at the next turn. With several Evil seats a partner must play the next card.</li>
<li><b>Habitual dominance:</b> C1 off all of a seat's cards per 3 of its own Evil Habituals in play.
Resistance costs are never discounted.</li>
<li><b>Micro-rewards</b>, earned by a pair of your own Habituals in play, every 4th card you play in
a turn, every 3 Temptations that get through in a turn, or a combo carried down to an unresisted
free finale. Each reward: draw 2, untap 2 Cost Zone cards, or flip 2 Cost Zone cards face up
(playable; when played, the top card of the deck replaces it, rotated). Every 5th reward of a turn
may instead destroy a Righteous Habitual. Two rewards in one turn earn one extra.</li>
</ul>
</section>
<section id="righteous-tools"><h2>Righteous tools</h2>
<ul>
<li><b>Micro-boosts:</b> every (3 + number of Righteous players) cards the side plays in one phase,
and every clean streak of 3 resisted threats in one turn with no Temptation failed, earn a boost:
draw 2, or +1 Humility, given to any Righteous player.</li>
<li><b>Maturity</b> rises at most one level per turn.</li>
<li><b>Maturity Abilities:</b> each time a Righteous player reaches the next level they choose one,
free (no buying in a duel). Double Resistance needs L2. Foresight is co-op only. The
<b>Maturity Abilities</b> switch (or <code>?matAbilities=0</code>) turns them off.</li>
</ul>
</section>
<section id="win"><h2>Winning (no round limit)</h2>
<p><b>Righteous win:</b> every Righteous player at L3 and no Evil Habitual in play, held for one full
round. Any Evil Habitual entering play during that round restarts the count.</p>
<p><b>Evil win:</b> 7 Evil Habituals in play per Evil player (those that took hold and those on the
field), held for a full round: once the count is reached, the Righteous side has its next turns to
bring it below the limit.</p>
<p><b>Stalemate score</b>, always shown: Righteous = Maturity &times; 5 summed + Resisted pile;
Evil = Failed pile + Evil Habituals in play &times; 5.</p>
<p>Start one with <b>New Duel</b> in the game menu, or pick a duel scenario.</p>
</section>
"""


def _qr_svg(url: str) -> str:
    try:
        import segno
    except ImportError:  # pragma: no cover - segno is a dependency
        return ""
    qr = segno.make(url, error="m")
    return qr.svg_inline(scale=4, dark="#2b2118", light="#ffffff", border=2, title="QR code: " + url)


@lru_cache(maxsize=1)
def _glossary_html() -> str:
    from ..render.glossary import glossary
    rows: list[str] = []
    category = None
    for entry in glossary(_cards()):
        if entry["category"] != category:
            category = entry["category"]
            rows.append(f'<tr class="gl-cat"><th colspan="3">{html.escape(category)}</th></tr>')
        mark = entry.get("mark_svg") or ""
        mark_cell = (f'<svg class="gl-mark" viewBox="-4 -4 128 56" width="76" height="34" aria-hidden="true">'
                     f"{mark}</svg>") if mark else ""
        names = entry.get("names") or []
        shown = ", ".join(html.escape(n) for n in names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
        rows.append(f'<tr class="gl-entry" data-key="{html.escape(entry["key"])}"><td>{mark_cell}</td>'
                    f'<td><b>{html.escape(entry["term"])}</b><br>{html.escape(entry["meaning"])}</td>'
                    f'<td class="gl-cards">{shown}</td></tr>')
    return '<table class="glossary" id="glossary-table">' + "".join(rows) + "</table>"


FAVICON_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" '
               'fill="#2b2118"/><path d="M14 5h4v7h7v4h-7v11h-4V16H7v-4h7z" fill="#e2b33c"/></svg>')


def ability_catalog(righteous: int | None = None) -> dict[str, Any]:
    from ..engine.game import ABILITY_PRICE, HIGH_TIER
    from ..render.table_words import ability_text
    from ..render.terminal import ABILITY_NAMES, ABILITY_TEXT
    n = 2 if righteous is None else righteous
    return {a: {"id": a, "name": ABILITY_NAMES.get(a, a), "text": ability_text(a, n, ABILITY_TEXT.get(a, "")),
                "tier": "high" if a in HIGH_TIER else "low", "price": ABILITY_PRICE[a]} for a in ABILITY_PRICE}




def _is_loopback(url: str) -> bool:
    from urllib.parse import urlsplit
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def public_url(app: Any = None) -> str | None:
    """The address other devices reach this server at, without a trailing ``/``:
    ``create_app(public_url=...)``, else ``$CHRISTIANITY_GAME_PUBLIC_URL`` (``serve --public-url``,
    read at each request); None when neither is set."""
    given = getattr(getattr(app, "state", None), "public_url", None)
    found = str(given or os.environ.get(PUBLIC_URL_ENV, "")).strip().rstrip("/")
    return found or None


def link_base(request: Request) -> str:
    """The base (ending in ``/``) of every link the server hands out: seat, spectator and join
    links and the WebSocket address. The public URL when one is set, so a link sent to a friend
    opens on their device; else the address the request came to."""
    public = public_url(request.app)
    return public + "/" if public else str(request.base_url)


def qr_target(url: str, public: str | None = None) -> tuple[str, str | None]:
    """The address the QR code encodes, and a warning when a phone cannot open it. ``public``:
    the server's public URL (by default :func:`public_url` without an app)."""
    if not _is_loopback(url):
        return url, None
    public = public or public_url()
    if public:
        from urllib.parse import urlsplit
        parts = urlsplit(url)
        return public.rstrip("/") + parts.path + (f"?{parts.query}" if parts.query else ""), None
    return url, ("This page was opened at a loopback address, which a phone cannot reach: the QR code "
                 "will not work from a phone. Start the server with --public-url http://YOUR-ADDRESS:8000 "
                 "(and --host 0.0.0.0) to share it.")


def table_variants_html(variants: str | None) -> str:
    """The duel rules page's "This table plays: ..." box: the printed rules, or each play-test
    variant the table plays with the rule it departs from (engine/variants.py). A ValueError for a
    bad ``variants`` text."""
    from ..engine.settings import Settings
    from ..engine.variants import departures, parse_variants, table_plays
    settings = Settings().updated(parse_variants(variants or ""))
    on = departures(settings)
    items = "".join(f"<li><b>{html.escape(v.title)}</b>: {html.escape(v.sentence(value))} "
                    f"(departs from {html.escape(', '.join(v.rules))})</li>" for v, value in on)
    more = ('<p class="note">Play-test variants are table settings that depart from a stated rule; '
            'the printed rules below are the default. <code>christianity-game variants</code> lists them all.</p>')
    return (f'<section id="table-variants" class="table-variants"><h2>This table</h2>'
            f'<p id="table-plays">{html.escape(table_plays(settings))}</p>'
            f'{"<ul>" + items + "</ul>" if items else ""}{more}</section>')


def rules_page(mode: str, url: str, public: str | None = None, variants: str | None = None) -> str:
    """The rules page for ``coop`` (also ``solo``) or ``pvp`` (also ``duel``); ``variants``: the
    play-test variants of the table the page was opened from (duel only)."""
    from ..render.svg import legend_svg
    pvp = mode in ("pvp", "duel")
    table = table_variants_html(variants) if pvp else ""
    title = "Duel rules" if pvp else "Co-op and solo rules"
    body = COMMON_TOP.format(duel_boost=", Righteous micro-boosts" if pvp else "",
                             opening="3 + extra opponents" if pvp else "3",
                             intake="4 (Evil: 4 + 2 per extra opponent)" if pvp else "4")
    body += PVP if pvp else COOP
    qr_url, qr_warning = qr_target(url, public)
    other = ('<a href="/rules?mode=coop">Co-op rules</a>' if pvp else '<a href="/rules?mode=pvp">Duel rules</a>')
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} - Christianity Strategy Card Game</title>
<link rel="stylesheet" href="/static/style.css"></head>
<body class="rules-page"><main class="rules">
<nav class="rules-nav"><a href="/">Lobby</a> &middot; {other} &middot; <a href="#legend">Marks</a> &middot;
<a href="#glossary">Glossary</a></nav>
<h1>{title}</h1>
<p class="lead">Christianity Strategy Card Game: {"Righteous against Evil, people on both sides" if pvp else
"the Righteous team against the Evil deck"}.</p>
{table}
{body}
<section id="legend"><h2>The marks on a card</h2>
<p>Every mark a card can carry, drawn by the same code that draws the cards.</p>
<div class="legend-wrap">{legend_svg()}</div></section>
<section id="glossary"><h2>Glossary</h2>
<p>Every keyword, cost pattern and trigger on the cards, generated from the card data.</p>
{_glossary_html()}</section>
<section id="share"><h2>Share this page</h2>
<figure class="qr" id="qr">{_qr_svg(qr_url)}<figcaption>Scan to open these rules:
<code>{html.escape(qr_url)}</code></figcaption></figure>
{f'<p class="note" id="qr-warning">{html.escape(qr_warning)}</p>' if qr_warning else ""}</section>
</main></body></html>"""
