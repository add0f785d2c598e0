"""The card renderer (G-5, M-3): card SVGs, the marks legend drawn by the same mark functions, the
card back, and the rules glossary generated from the card data."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest

from christianity_game.cards import CardSet, load_texts, starter_set
from christianity_game.cards.model import Boost, CardDef, Condition, Effect, Passive
from christianity_game.render import glossary as gl
from christianity_game.render import samples
from christianity_game.render import svg
from christianity_game.render.svg import (
    CARD_W, Mark, card_back_svg, card_marks, card_svg, legend_entries, legend_svg, mark_ambush, mark_attach,
    mark_conditional, mark_cost, mark_cost_zone, mark_discard, mark_draw, mark_fast, mark_flip, mark_humility,
    mark_keyword, mark_payer, mark_resistance, mark_reveal, mark_rotate, mark_search, mark_untap, place, text_width,
)

NS = "{http://www.w3.org/2000/svg}"
CARDS = list(starter_set())


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    return root


def marks_in(el: ET.Element, key: str) -> list[ET.Element]:
    return [g for g in el.iter(f"{NS}g") if g.get("data-mark") == key]


def visible_text(el: ET.Element) -> str:
    """The text drawn (title elements left out), words joined by single spaces."""
    words: list[str] = []
    for t in el.iter(f"{NS}text"):
        words += "".join(t.itertext()).split()
    return " ".join(words)


def walk(effects):  # type: ignore[no-untyped-def]
    for e in effects:
        yield e
        if e.op == "if":
            yield from walk(e.then)
            yield from walk(e.otherwise)


# ------------------------------------------------------------------------------------------ marks
def test_marks_are_groups_with_their_key_and_size() -> None:  # G-5
    for m in (mark_cost(3), mark_resistance(4), mark_resistance("X"), mark_rotate(), mark_humility(2),
              mark_humility(-1), mark_payer("you"), mark_payer("teammate"), mark_payer("any"), mark_fast(),
              mark_search(), mark_attach(), mark_reveal(), mark_draw(), mark_discard(), mark_conditional(),
              mark_untap(), mark_flip(), mark_cost_zone(), mark_ambush()):
        assert isinstance(m, Mark) and m.width > 0 and m.height == 48
        el = ET.fromstring(m.replace("<g ", f'<g xmlns="{NS[1:-1]}" ', 1))
        assert el.tag == f"{NS}g" and el.get("data-mark") == m.key


def test_mark_values_and_positioning() -> None:  # G-5
    assert ET.fromstring(mark_cost(3)).get("data-value") == "3"
    assert ET.fromstring(mark_resistance(4)).get("data-value") == "4"
    assert ET.fromstring(mark_resistance("X")).get("data-value") == "X"
    assert ET.fromstring(mark_humility(2)).get("data-value") == "+2"
    assert ET.fromstring(mark_humility(-1)).get("data-value") == "-1"
    assert ET.fromstring(mark_payer("teammate")).get("data-value") == "teammate"
    # positioned by a transform around the unchanged mark
    placed = mark_cost(2, x=10, y=20, scale=1.5)
    assert placed == place(mark_cost(2), 10, 20, 1.5)
    assert placed.startswith('<g transform="translate(10 20) scale(1.5)">') and mark_cost(2) in placed
    assert mark_search(x=5, y=6) == place(mark_search(), 5, 6)
    with pytest.raises(ValueError):
        mark_payer("everyone")
    with pytest.raises(ValueError):
        mark_keyword("pray")


def test_humility_marks_differ_by_sign() -> None:
    assert mark_humility(1) != mark_humility(-1) != mark_humility(0)
    assert "#2f7d4a" in mark_humility(1) and "#b02a37" in mark_humility(-2)


# ------------------------------------------------------------------------------------------ cards
@pytest.mark.parametrize("card", CARDS, ids=[c.id for c in CARDS])
def test_every_starter_card_renders(card: CardDef) -> None:  # G-5
    text = card_svg(card)
    root = parse(text)
    # a playing card's shape, at the width asked for
    assert root.get("viewBox") == "0 0 630 880"
    assert float(root.get("width")) == 250 and abs(float(root.get("height")) / 250 - 88 / 63) < 0.01
    assert root.get("data-card-id") == card.id
    # its name: the title, and the words drawn in the banner
    assert root.find(f"{NS}title").text == card.name
    drawn = visible_text(root)
    assert " ".join(card.name.split()) in drawn
    # its cost mark, drawn by mark_cost
    assert mark_cost(card.cost) in text
    assert marks_in(root, "cost")[0].get("data-value") == str(card.cost)
    # resistance for threats only
    res = marks_in(root, "resistance")
    if card.is_threat:
        shown = "X" if card.x_rule is not None else str(card.resistance)
        assert mark_resistance(shown) in text and [r.get("data-value") for r in res] == [shown]
    else:
        assert res == []
    # one row per boost, with its payer glyph, its cost, and a bolt exactly on fast boosts
    rows = [g for g in root.iter(f"{NS}g") if g.get("class") == "boost"]
    assert len(rows) == len(card.boosts)
    for row, boost in zip(rows, card.boosts):
        assert [p.get("data-value") for p in marks_in(row, "payer")] == [boost.payer]
        assert mark_payer(boost.payer) in text
        assert [c.get("data-value") for c in marks_in(row, "cost")] == [str(boost.cost)]
        assert len(marks_in(row, "fast")) == (1 if boost.fast else 0)
        assert row.get("data-fast") == str(int(boost.fast))
    assert len(marks_in(root, "fast")) == sum(b.fast for b in card.boosts)
    # the keyword badges its effects use (nested ifs included) and its Humility changes
    for m in card_marks(card):
        assert m in text
    ops = {e.op for e in walk(card.effects)}
    for op, key in (("if", "conditional"), ("search", "search"), ("reveal", "reveal"), ("draw", "draw"),
                    ("discard", "discard"), ("attach", "attach"), ("rotate", "rotate"), ("untap", "untap"),
                    ("flip", "flip"), ("cost_zone", "cost_zone")):
        if op in ops:
            assert mark_keyword(key) in text, op
    for e in walk(card.effects):
        if e.op == "humility":
            assert mark_humility(e.amount) in text
    if card.is_ambush:
        assert card_marks(card)[0] == mark_ambush() and "AMBUSH" in drawn
    # Habituals: one passive line per standing effect
    passives = [g for g in root.iter(f"{NS}g") if g.get("class") == "passive"]
    fields = [f for f in ("draw", "intake", "upkeep_humility", "resist_discount", "ambush_reward")
              if getattr(card.passive, f)]
    assert len(passives) == (len(fields) if card.is_habitual else 0)
    # the scripture reference
    if card.scripture:
        assert card.scripture in drawn


@pytest.mark.parametrize("card", CARDS, ids=[c.id for c in CARDS])
def test_text_fits_the_card(card: CardDef) -> None:
    """Every line drawn stays inside the card (estimated with the widest font named)."""
    assert_text_inside(card)


def test_a_name_too_long_for_any_size_still_fits() -> None:
    assert_text_inside(replace(starter_set()["pride"], name="Supercalifragilistic-" * 4))
    assert_text_inside(replace(starter_set()["still-waters"], name="A Name Of Very Many Words " * 3))


def assert_text_inside(card: CardDef) -> None:
    root = parse(card_svg(card))
    in_marks = {id(t) for g in root.iter(f"{NS}g") if g.get("data-mark") for t in g.iter(f"{NS}text")}
    for t in root.iter(f"{NS}text"):
        if t.get("letter-spacing") or id(t) in in_marks:   # marks draw in their own boxes
            continue
        size = float(t.get("font-size") or 0) or max(float(s.get("font-size")) for s in t.iter() if s.get("font-size"))
        content = "".join(t.itertext())
        bold = t.get("font-weight") == "bold"
        width = text_width(content, size, bold=bold, serif="Georgia" in (t.get("font-family") or ""))
        x = float(t.get("x"))
        anchor = t.get("text-anchor", "start")
        left = x - width / 2 if anchor == "middle" else x
        # the tspans of marks written in the text are bold: allow for them
        assert left >= 30 - 8 and left + width <= CARD_W - 30 + 8, (card.id, content, left, width)


def test_rules_text_is_wrapped_and_all_there() -> None:
    long = starter_set()["covetousness"]
    root = parse(card_svg(long))
    rules = next(g for g in root.iter(f"{NS}g") if g.get("class") == "rules")
    lines = ["".join(t.itertext()) for t in rules.iter(f"{NS}text")]
    assert len(lines) > 3
    assert " ".join(lines) == " ".join(long.text.split())


def test_marks_written_in_the_text_are_set_in_colour() -> None:
    root = parse(card_svg(starter_set()["still-waters"]))
    tspans = [t for t in root.iter(f"{NS}tspan") if t.text == "H+1"]
    assert tspans and tspans[0].get("font-weight") == "bold"


def test_width_scales_the_picture() -> None:
    root = parse(card_svg(starter_set()["pride"], width=630))
    assert root.get("width") == "630" and root.get("height") == "880"


def test_text_is_escaped() -> None:
    base = starter_set()["still-waters"]
    card = replace(base, id="a&b", name='Faith & <Works> "too"', text="If x < 3 & y > 2: H+1.",
                   scripture="Jas 2:17 <&>")
    text = card_svg(card)
    root = parse(text)
    assert root.find(f"{NS}title").text == 'Faith & <Works> "too"'
    assert root.get("data-card-id") == "a&b"
    assert 'Faith & <Works> "too"' in visible_text(root)
    assert "If x < 3 & y > 2: H+1." in visible_text(root)
    assert "Jas 2:17 <&>" in visible_text(root)
    assert "<Works>" not in text


def test_a_card_built_by_hand_renders() -> None:
    """Every effect op and payer at once, fast and slow boosts, a long name: still well formed."""
    card = CardDef(
        id="everything", name="A Very Long Card Name That Needs Two Lines To Fit In", side="righteous",
        kind="instant", cost=10, text="Search, reveal, draw, discard, rotate, untap, flip. " * 3,
        effects=(Effect(op="search", count=1, kind="maturity"), Effect(op="reveal", count=2, kind="any"),
                 Effect(op="draw", count=1), Effect(op="discard", count=1, random=True),
                 Effect(op="if", cond=Condition("hand_at_least", 2), then=(Effect(op="flip", count=1),),
                        otherwise=(Effect(op="humility", amount=-2),))),
        boosts=(Boost("you", 1, (Effect(op="amplify", amount=1),), fast=True, text="Fast boost (you C1): +1."),
                Boost("teammate", 2, (Effect(op="draw", count=1),), text="Boost (teammate C2): draw 1 card."),
                Boost("any", 0, (Effect(op="redirect", who="teammate"),), fast=True,
                      text="Fast boost (any C0): this card's effects go to a teammate instead.")),
    )
    root = parse(card_svg(card))
    assert [m.get("data-value") for m in marks_in(root, "payer")] == ["you", "teammate", "any"]
    assert len(marks_in(root, "fast")) == 2
    assert marks_in(root, "cost")[0].get("data-value") == "10"
    assert {g.get("data-mark") for g in root.iter(f"{NS}g")} >= {"search", "reveal", "draw", "discard",
                                                                  "conditional", "flip", "humility"}


def test_boost_rows_leave_out_the_printed_lead() -> None:
    assert svg.boost_words("Fast boost (you C1): +1 to every number on this card.") == \
        "+1 to every number on this card."
    assert svg.boost_words("Boost (teammate C1): you draw 1 card.") == "You draw 1 card."


def test_card_back_hides_everything() -> None:
    for side in (None, "righteous", "evil"):
        root = parse(card_back_svg(side=side))
        text = ET.tostring(root, encoding="unicode")
        assert "data-card-id" not in text and "data-mark" not in text
    assert card_back_svg(side="evil") != card_back_svg(side="righteous")


# ----------------------------------------------------------------------------------------- legend
G5_MARKS = {
    # legend name -> what the mark function draws for it (G-5)
    "Cost C<n>": mark_cost(2),
    "Resistance R<n>": mark_resistance(3),
    "Resistance RX": mark_resistance("X"),
    "Rotate": mark_rotate(),
    "Humility gain H+<n>": mark_humility(1),
    "Humility loss H-<n>": mark_humility(-1),
    "Boost payer: you": mark_payer("you"),
    "Boost payer: teammate": mark_payer("teammate"),
    "Boost payer: any": mark_payer("any"),
    "Fast mark (bolt)": mark_fast(),
    "Search": mark_search(),
    "Attach": mark_attach(),
    "Reveal": mark_reveal(),
    "Draw": mark_draw(),
    "Discard": mark_discard(),
    "Conditional": mark_conditional(),
}


def test_legend_has_every_mark_of_g5_drawn_by_the_mark_functions() -> None:  # G-5
    entries = {name: (frag, meaning) for name, frag, meaning in legend_entries()}
    for name, frag in G5_MARKS.items():
        assert name in entries, name
        assert entries[name][0] == frag, name
        assert len(entries[name][1]) > 20
    for name in ("Untap", "Flip", "Cost Zone", "Ambush", "Amplify", "Redirect"):
        assert name in entries


def test_legend_fragments_are_the_ones_the_cards_use() -> None:  # G-5
    """The same text: each legend mark appears, unchanged, in a card that carries it."""
    rendered = [card_svg(c) for c in CARDS]
    for name, frag, _ in legend_entries():
        if name == "Humility at 0 H0":      # the overflow mark is shown on the board, not on cards
            continue
        assert any(frag in r for r in rendered), name
    text = card_svg(starter_set()["leave-the-ninety-nine"])     # C2, a fast boost paid by you, C1, amplify
    entries = {name: frag for name, frag, _ in legend_entries()}
    for name in ("Fast mark (bolt)", "Boost payer: you", "Cost C<n>", "Amplify"):
        assert entries[name] in text, name


def test_legend_svg_draws_every_entry() -> None:
    text = legend_svg()
    root = parse(text)
    drawn = visible_text(root)
    for name, frag, meaning in legend_entries():
        assert frag in text
        assert name in drawn
        assert " ".join(meaning.split()) in drawn
    assert len([g for g in root.iter(f"{NS}g") if g.get("class") == "legend-entry"]) == len(legend_entries())


# --------------------------------------------------------------------------------------- glossary
def used_terms(cards: list[CardDef]) -> dict[str, set[str]]:
    """What the glossary must hold, worked out here independently: key -> card ids."""
    want: dict[str, set[str]] = {}

    def add(key: str, card: CardDef) -> None:
        want.setdefault(key, set()).add(card.id)

    for c in cards:
        add(f"kind:{c.kind}", c)
        for b in c.boosts:
            add(f"payer:{b.payer}", c)
            if b.fast:
                add("fast", c)
        for e in walk(list(c.effects) + [e for b in c.boosts for e in b.effects]):
            if e.op == "humility":
                add("mark:humility_gain" if e.amount > 0 else "mark:humility_loss", c)
            else:
                add(f"op:{e.op}", c)
            if e.op == "if":
                add(f"cond:{e.cond.test}", c)
        if c.x_rule is not None:
            add("mark:rx", c)
            add(f"x:{c.x_rule.of}", c)
        elif c.is_threat:
            add("mark:resistance", c)
        if c.is_ambush:
            add("subtype:ambush", c)
        for f in ("draw", "intake", "upkeep_humility", "resist_discount", "ambush_reward"):
            if getattr(c.passive, f):
                add(f"passive:{f}", c)
    return want


def test_glossary_covers_every_keyword_of_the_starter_set() -> None:  # M-3
    entries = {e["key"]: e for e in gl.glossary(starter_set())}
    want = used_terms(CARDS)
    # the ops of G-5, named
    assert {"op:search", "op:attach", "op:reveal", "op:draw", "op:discard", "op:if", "op:rotate",
            "mark:humility_gain", "mark:humility_loss", "payer:you", "payer:teammate", "payer:any", "fast",
            "mark:rx", "mark:resistance", "mark:cost", "subtype:ambush"} <= set(want) | {"mark:cost"}
    for key, ids in want.items():
        assert key in entries, key
        assert ids <= set(entries[key]["cards"]), key
    for e in entries.values():
        assert e["meaning"] != gl.NO_MEANING, e["key"]
        assert e["names"] == [starter_set()[i].name for i in e["cards"]]
        assert len(set(e["cards"])) == len(e["cards"])
    assert set(entries["mark:cost"]["cards"]) == {c.id for c in CARDS}
    assert set(entries["op:search"]["cards"]) == want["op:search"]


def test_glossary_entries_show_the_legend_marks() -> None:  # M-3
    legend = {name: frag for name, frag, _ in legend_entries()}
    for e in gl.glossary(starter_set()):
        if e["mark"]:
            assert e["mark_svg"] == legend[e["mark"]], e["key"]


def test_glossary_follows_the_card_data() -> None:  # M-3
    """Take the flip cards out: no Flip entry. Add a card: it is named under every term it uses."""
    full = starter_set()
    no_flip = CardSet({cid: c for cid, c in full.cards.items()
                       if "flip" not in {e.op for e in walk(c.effects)}}, {})
    assert "op:flip" not in {e["key"] for e in gl.glossary(no_flip)}
    extra = load_texts([("extra.toml", """
[deck]
id = "extra"
name = "Extra"
side = "righteous"
description = "one card"

[[cards]]
id = "turn-the-page"
name = "Turn the Page"
kind = "action"
cost = 1
text = "Flip 1 of your Cost Zone cards face up. If your Maturity is L2 or more: draw 1 card."
effects = [{op = "flip", count = 1},
           {op = "if", cond = {test = "maturity_at_least", value = 2}, then = [{op = "draw", count = 1}]}]
""")])
    grown = CardSet({**no_flip.cards, **extra.cards}, {})
    entries = {e["key"]: e for e in gl.glossary(grown)}
    assert entries["op:flip"]["cards"] == ["turn-the-page"]
    assert entries["op:flip"]["names"] == ["Turn the Page"]
    for key in ("op:if", "cond:maturity_at_least", "op:draw", "kind:action", "mark:cost"):
        assert "turn-the-page" in entries[key]["cards"], key
    assert "Turn the Page" in gl.glossary_markdown(grown)
    assert "Turn the Page" not in gl.glossary_markdown(no_flip)


def test_glossary_never_drops_a_new_term() -> None:
    card = CardDef(id="odd", name="Odd", side="righteous", kind="action", effects=(Effect(op="pray", count=1),),
                   passive=Passive())
    entries = {e["key"]: e for e in gl.glossary([card])}
    assert entries["op:pray"]["meaning"] == gl.NO_MEANING
    assert entries["op:pray"]["cards"] == ["odd"]


def test_glossary_markdown() -> None:  # M-3
    md = gl.glossary_markdown(starter_set())
    assert md.startswith("# Rules glossary")
    for section in ("## Card kinds", "## Marks", "## Keywords", "## Boosts"):
        assert section in md
    assert "**Search**" in md and "The Lost Sheep" in md
    assert "Cost C\\<n\\>" in md          # the marks' angle brackets are escaped
    assert f"*Cards ({len(starter_set().cards)}):* every card" in md
    assert re.search(r"\*\*Fast mark \(bolt\)\*\*", md)


def test_samples_are_written(tmp_path: Path) -> None:
    written = samples.write_samples(str(tmp_path))
    names = {Path(p).name for p in written}
    assert {"legend.svg", "back.svg", "glossary.md"} <= names
    assert len([n for n in names if n.endswith(".svg")]) == 2 + len(samples.SAMPLE_CARDS)
    kinds = {starter_set()[cid].kind for cid in samples.SAMPLE_CARDS}
    assert len(kinds) == len(samples.SAMPLE_CARDS)
    for p in written:
        if p.endswith(".svg"):
            parse(Path(p).read_text(encoding="utf-8"))
