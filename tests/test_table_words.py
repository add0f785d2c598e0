"""Issue 20, the texts built in Python:

* defect 2 (D-SCORE): the view carries the numbers the stalemate score is made of
  (``score_parts``), and they add up to the score in every state, also once the piles were refilled
  into an Evil deck and hold fewer cards than ever entered them;
* defect 5 (P-7): render/table_words.py says the printed texts for a table with one Righteous seat
  (no teammate, no team: the card aimed at you, for the target-change fee), the card pictures
  (render/svg.py), the card and ability catalogs (server/web.py) and the board's refusal reasons
  (server/explain.py) use it; with two or more Righteous seats nothing changes.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from christianity_game.cards import starter_set
from christianity_game.engine.game import Game
from christianity_game.render.svg import CARD_W, boost_words, card_svg, text_width
from christianity_game.render.table_words import (
    LONE_ABILITY_TEXT, ability_text, alone, boost_text, card_text, engine_message,
)
from christianity_game.server.explain import explain
from christianity_game.server.web import ability_catalog, card_catalog

NS = "{http://www.w3.org/2000/svg}"
TEAM = re.compile(r"teammate|\bteam\b", re.IGNORECASE)
CARDS = list(starter_set())
MATE_CARDS = [c for c in CARDS if TEAM.search(c.text) or c.aims_at_mate
              or any(TEAM.search(b.text) or b.payer == "teammate" or b.needs_mate for b in c.boosts)]


# ------------------------------------------------------------------------------------ the score
def _score_of(view: dict[str, Any]) -> list[int]:
    p = view["score_parts"]
    return [p["maturity"] * 5 + p["resisted"], p["failed"] + p["evil_habituals"] * 5]


def test_the_view_says_what_the_score_is_made_of() -> None:  # D-SCORE
    position = {"round": 20, "turn_seat": 1, "phase": "main",
                "seats": [{"deck_from": "duel-evil"}, {"maturity": 2, "deck_from": "shepherd"}],
                "resisted": [{"id": "pride", "owner": 0}] * 3, "failed": [{"id": "envy", "owner": 0}] * 8,
                "resisted_total": 29, "failed_total": 106}
    game = Game.from_position(position, mode="duel", lineup="ER", seed=1)
    for viewer in (None, 0, 1):
        view = game.view(viewer)
        assert view["score_parts"] == {"maturity": 2, "resisted": 29, "failed": 106, "evil_habituals": 0}
        assert view["score"] == [39, 106] == _score_of(view)
        assert (len(view["piles"]["resisted"]), len(view["piles"]["failed"])) == (3, 8)
        assert dict(game.seat_view(viewer)["score_parts"]) == view["score_parts"]   # the lazy view too


def test_the_score_parts_add_up_in_every_state_of_a_long_duel() -> None:  # D-SCORE
    """Random play of a duel long enough that the Evil deck is refilled from the piles (rules 3):
    the parts add up to the score at every step, and at the end more cards entered the piles than
    they hold."""
    rnd = random.Random(7)
    game = Game.new(mode="duel", lineup="ER", seed=7)
    refilled = False
    for _ in range(4000):
        if game.is_over():
            break
        view = game.view(None)
        assert view["score"] == _score_of(view)
        p = view["score_parts"]
        refilled = refilled or p["resisted"] + p["failed"] > len(view["piles"]["resisted"]) + len(view["piles"]["failed"])
        seat, actions = game.pending[0]
        game.apply(rnd.choice(list(actions)))
    assert any(e.kind == "evil_deck_refilled" for e in game.log)
    assert refilled, "the piles never held fewer cards than entered them"


# ---------------------------------------------------------------------------- texts for the table
def test_with_a_team_every_text_is_as_printed() -> None:
    assert not alone(2) and not alone(0) and alone(1)
    for c in CARDS:
        assert card_text(c.text, 2, 1, needs_mate=c.aims_at_mate) == c.text
        for b in c.boosts:
            assert boost_text(b.text, b.payer, 3, 1, needs_mate=b.needs_mate) == b.text
    assert ability_text("brotherly_love", 2, "usual") == "usual"
    assert engine_message("choose the team's free Maturity Ability first", 2) == \
        "choose the team's free Maturity Ability first"


@pytest.mark.parametrize("printed,fee,needs_mate,lone", [
    ("A teammate gets H+2.", 1, True, "You get H+2. Target-change fee: C1 more."),
    ("A teammate draws 2 cards.", 2, True, "You draw 2 cards. Target-change fee: C2 more."),
    ("A teammate gets H+1. Untap 1 of a teammate's Cost Zone cards.", 1, True,
     "You get H+1. Untap 1 of your Cost Zone cards. Target-change fee: C1 more."),
    ("Attach to a teammate. They draw 1 more card in each Draw phase.", 1, True,
     "Attach to yourself. You draw 1 more card in each Draw phase. Target-change fee: C1 more."),
    ("Attach to a teammate. They may lay 1 more card into their Cost Zone each turn.", 3, True,
     "Attach to yourself. You may lay 1 more card into your Cost Zone each turn. Target-change fee: C3 more."),
    ("Maturity +1. Put the top card of a teammate's deck into their Cost Zone.", 1, True,
     "Maturity +1. Put the top card of your deck into your Cost Zone. Target-change fee: C1 more."),
    ("If unresisted: each Righteous player discards 1 card.", 1, False,
     "If unresisted: each Righteous player discards 1 card."),
    ("H+1. Draw 1 card.", 1, False, "H+1. Draw 1 card."),
])
def test_a_card_alone_reads_as_aimed_at_you_with_the_fee(printed: str, fee: int, needs_mate: bool, lone: str) -> None:
    assert card_text(printed, 1, fee, needs_mate=needs_mate) == lone


def test_a_boost_alone_is_yours_to_pay_with_the_fee() -> None:  # P-7
    assert boost_text("You draw 1 card.", "teammate", 1, 1) == "You draw 1 card (you pay it, +C1 target-change fee)."
    assert boost_text("This card's effects go to a teammate instead.", "any", 1, 2, needs_mate=True) == (
        "This card's effects stay with you (you pay it, +C2 target-change fee).")
    assert boost_text("You draw 1 card.", "any", 1, 1) == "You draw 1 card."
    assert boost_text("+1 to every number on this card.", "you", 1, 1) == "+1 to every number on this card."


def test_every_card_alone_speaks_of_no_teammate() -> None:
    assert len(MATE_CARDS) >= 10
    for c in MATE_CARDS:
        assert not TEAM.search(card_text(c.text, 1, 1, needs_mate=c.aims_at_mate)), c.id
        for b in c.boosts:
            words = boost_words(b.text)   # the words a boost row draws, without the printed lead
            assert not TEAM.search(boost_text(words, b.payer, 1, 1, needs_mate=b.needs_mate)), (c.id, b.text)


def test_abilities_and_refusals_alone() -> None:
    from christianity_game.render.terminal import ABILITY_TEXT
    for a, usual in ABILITY_TEXT.items():
        assert not TEAM.search(ability_text(a, 1, usual)), a
    assert "stays yours" in LONE_ABILITY_TEXT["brotherly_love"]
    assert engine_message("choose the team's free Maturity Ability first", 1) == "choose your free Maturity Ability first"
    assert engine_message("the team already holds speed", 1) == "you already hold speed"
    assert engine_message("the team does not hold 'speed'", 1) == "you do not hold 'speed'"
    assert not TEAM.search(engine_message("The Good Shepherd is aimed at a teammate: say which (to_seat)", 1))


# --------------------------------------------------------------------------------- card pictures
def _drawn(svg: str) -> tuple[ET.Element, str]:
    root = ET.fromstring(svg)
    words = " ".join(" ".join("".join(t.itertext()) for t in g.iter(f"{NS}text"))
                     for g in root.iter(f"{NS}g") if g.get("class") in ("rules", "boost"))
    return root, words


@pytest.mark.parametrize("card", MATE_CARDS, ids=[c.id for c in MATE_CARDS])
def test_a_card_picture_for_one_righteous_seat(card: Any) -> None:  # P-7, G-5
    root, words = _drawn(card_svg(card, righteous=1, fee=2))
    assert not TEAM.search(words), words
    if card.aims_at_mate:
        assert "Target-change fee: C2 more." in " ".join(words.split())
    payers = [g.get("data-value") for g in root.iter(f"{NS}g") if g.get("data-mark") == "payer"]
    assert "teammate" not in payers                 # a teammate's boost: the "you" glyph
    # every line still inside the card (as test_svg.py measures it)
    in_marks = {id(t) for g in root.iter(f"{NS}g") if g.get("data-mark") for t in g.iter(f"{NS}text")}
    for t in root.iter(f"{NS}text"):
        if t.get("letter-spacing") or id(t) in in_marks:
            continue
        size = float(t.get("font-size") or 0) or max(float(s.get("font-size")) for s in t.iter() if s.get("font-size"))
        content = "".join(t.itertext())
        serif = "Georgia" in (t.get("font-family") or "")
        width = text_width(content, size, bold=t.get("font-weight") == "bold", serif=serif)
        x = float(t.get("x"))
        left = x - width / 2 if t.get("text-anchor", "start") == "middle" else x
        assert left >= 30 - 8 and left + width <= CARD_W - 30 + 8, (card.id, content)
    # a team's picture is the printed card
    assert card_svg(card, righteous=2) == card_svg(card)


def test_the_catalogs_for_one_righteous_seat() -> None:
    printed, lone = card_catalog(), card_catalog(1, 1)
    assert printed["leave-the-ninety-nine"]["text"] == "A teammate gets H+2."
    assert lone["leave-the-ninety-nine"]["text"] == "You get H+2. Target-change fee: C1 more."
    assert not any(TEAM.search(c["text"]) for c in lone.values())
    assert ability_catalog()["brotherly_love"]["text"] != ability_catalog(1)["brotherly_love"]["text"]
    assert not any(TEAM.search(a["text"]) for a in ability_catalog(1).values())
    assert ability_catalog(3) == ability_catalog()


def test_the_card_routes_take_the_table() -> None:
    from fastapi.testclient import TestClient
    from christianity_game.server.app import create_app
    import tempfile
    with tempfile.TemporaryDirectory() as d, TestClient(create_app(d, bot_delay=0)) as client:
        svg = client.get("/cards/leave-the-ninety-nine.svg?righteous=1&fee=3").text
        assert "Target-change fee: C3 more." in " ".join(_drawn(svg)[1].split())
        printed = card_svg(starter_set()["leave-the-ninety-nine"])
        assert client.get("/cards/leave-the-ninety-nine.svg?righteous=2").text == printed
        assert client.get("/api/cards?righteous=1&fee=2").json()["the-good-samaritan"]["text"] == \
            "You draw 2 cards. Target-change fee: C2 more."
        assert "stays yours" in client.get("/api/abilities?righteous=1").json()["brotherly_love"]["text"]
        assert "teammate" in client.get("/api/abilities").json()["brotherly_love"]["text"]


# ------------------------------------------------------------------------- refusals on the board
def test_solo_refusals_name_the_real_reason_and_no_team() -> None:  # P-7
    """A solo card aimed at a teammate is asked about as aimed at yourself: its refusal is the real
    one (not "say which teammate"); an open ability choice says "your", not "the team's"."""
    position = {"round": 1, "turn_seat": 0, "phase": "resistance",
                "seats": [{"hand": ["the-good-shepherd", "leave-the-ninety-nine", "still-waters"],
                           "cost_zone": ["rod-and-staff"] * 8, "deck_from": "shepherd"}],
                "threats": [{"card": "pride", "target": 0}], "evil_deck": ["envy", "worry"]}
    game = Game.from_position(position, mode="solo", lineup="R", seed=1)
    reasons = explain(game, 0)["cards"]
    assert reasons, "no card refused"
    for uid, why in reasons.items():
        assert why["code"] != "needs_target", why
        assert not TEAM.search(why["message"]), why
    picking = Game.from_position({"round": 1, "turn_seat": 0, "phase": "main", "ability_picks": 1,
                                  "ability_chooser": 0,
                                  "seats": [{"maturity": 1, "hand": ["still-waters"],
                                             "cost_zone": ["rod-and-staff"] * 3, "deck_from": "shepherd"}]},
                                 mode="solo", lineup="R", seed=1)
    why = next(iter(explain(picking, 0)["cards"].values()))
    assert why == {"code": "must_choose", "message": "choose your free Maturity Ability first"}
