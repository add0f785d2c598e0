"""The bundled starter card set and the card-file loader (G-4, G-5; docs/design.md, "A card effect").

* the starter set loads, deck sizes and shapes are right;
* every mark and keyword of G-5 appears on at least one card;
* each card's printed text agrees with its effects, boosts, passive and marks;
* broken card files give errors naming the file, the card and the field.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections import Counter
from importlib import resources
from typing import Iterator

import pytest

from christianity_game.cards.loader import CardFileError, CardSet, load_texts, starter_set
from christianity_game.cards.model import (
    CONDITION_TESTS, EFFECT_OPS, EVIL_KINDS, RIGHTEOUS_KINDS, Boost, CardDef, Effect,
)

RIGHTEOUS_DECKS = ("shepherd", "watchman", "servant")


# --- helpers ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def cards() -> CardSet:
    return starter_set()


def walk(effects: tuple[Effect, ...]) -> Iterator[Effect]:
    """Every effect, including those nested in ``if`` branches."""
    for e in effects:
        yield e
        if e.op == "if":
            yield from walk(e.then)
            yield from walk(e.otherwise)


def all_effects(card: CardDef) -> Iterator[tuple[Effect, Boost | None]]:
    """Every effect on a card, with the boost it sits on (None for the card's own effects)."""
    for e in walk(card.effects):
        yield e, None
    for b in card.boosts:
        for e in walk(b.effects):
            yield e, b


def data_files() -> list[tuple[str, str]]:
    folder = resources.files("christianity_game.cards") / "data"
    return sorted((f.name, f.read_text(encoding="utf-8")) for f in folder.iterdir() if f.name.endswith(".toml"))


# --- the starter set loads --------------------------------------------------------------------

def test_starter_set_loads(cards: CardSet) -> None:
    assert set(cards.decks) == {"shepherd", "watchman", "servant", "evil", "duel-evil"}
    assert len(cards.cards) > 60
    assert {d.id for d in cards.decks_of("righteous")} == set(RIGHTEOUS_DECKS)
    assert sorted(d.id for d in cards.decks_of("evil")) == ["duel-evil", "evil"]


def test_duel_evil_deck_shape(cards: CardSet) -> None:
    """The duel Evil deck (issue 3): 40 cards of Evil kinds, with cheap threats for chains."""
    deck = cards.decks["duel-evil"]
    assert deck.side == "evil" and len(deck.cards) == 40
    kinds = Counter(cards[c].kind for c in deck.cards)
    assert set(kinds) <= set(EVIL_KINDS) and kinds["evil_habitual"] >= 8
    assert sum(1 for c in deck.cards if cards[c].cost == 1) >= 15


def test_starter_set_is_cached(cards: CardSet) -> None:
    assert starter_set() is cards


@pytest.mark.parametrize("deck_id", RIGHTEOUS_DECKS)
def test_righteous_deck_shape(cards: CardSet, deck_id: str) -> None:
    deck = cards.decks[deck_id]
    assert deck.side == "righteous"
    assert deck.name and deck.description
    assert len(deck.cards) == 40
    kinds = Counter(cards[c].kind for c in deck.cards)
    assert set(kinds) <= set(RIGHTEOUS_KINDS)
    assert 8 <= kinds["maturity"] <= 10, kinds
    assert kinds["resistance"] >= 8, kinds
    assert kinds["righteous_habitual"] >= 2, kinds
    assert kinds["instant"] >= 3, kinds
    assert all(cards[c].side == "righteous" for c in deck.cards)


def test_evil_deck_shape(cards: CardSet) -> None:  # CO-4
    deck = cards.decks["evil"]
    assert deck.side == "evil"
    assert len(deck.cards) == 45
    kinds = Counter(cards[c].kind for c in deck.cards)
    assert set(kinds) <= set(EVIL_KINDS)
    assert 24 <= kinds["temptation"] <= 38, kinds
    assert 8 <= kinds["evil_habitual"] <= 20, kinds
    ambushes = sum(1 for c in deck.cards if cards[c].is_ambush)
    assert ambushes >= 4
    assert all(cards[c].side == "evil" for c in deck.cards)


def test_righteous_decks_have_distinct_characters(cards: CardSet) -> None:
    signatures = {d: frozenset(cards.decks[d].cards) for d in RIGHTEOUS_DECKS}
    for a in RIGHTEOUS_DECKS:
        for b in RIGHTEOUS_DECKS:
            if a < b:
                shared = signatures[a] & signatures[b]
                assert len(shared) <= 2, (a, b, shared)
    watchman = Counter(cards[c].kind for c in cards.decks["watchman"].cards)
    others = [Counter(cards[c].kind for c in cards.decks[d].cards) for d in ("shepherd", "servant")]
    assert all(watchman["resistance"] > o["resistance"] for o in others)


def test_card_ids_are_defined_once_across_files() -> None:
    where: dict[str, list[str]] = {}
    for name, text in data_files():
        for entry in tomllib.loads(text)["cards"]:
            if "name" in entry:
                where.setdefault(entry["id"], []).append(name)
    twice = {cid: files for cid, files in where.items() if len(files) > 1}
    assert not twice


def test_every_defined_card_is_in_a_deck(cards: CardSet) -> None:
    used = {c for d in cards.decks.values() for c in d.cards}
    assert set(cards.cards) == used


def test_every_card_has_a_scripture_reference(cards: CardSet) -> None:
    ref = re.compile(r"^(\d )?[A-Z][a-z]+( [A-Z][a-z]+)* \d+:\d+(-\d+)?$")
    for card in cards:
        assert ref.match(card.scripture), (card.id, card.scripture)


# --- sensible numbers (tuned later by simulation) ------------------------------------------------

def test_numbers_in_sensible_ranges(cards: CardSet) -> None:
    for card in cards:
        if card.side == "evil":
            assert 1 <= card.cost <= 3, card
            assert not card.boosts, card
        if card.kind == "temptation" and card.x_rule is None:
            assert card.resistance is not None and 1 <= card.resistance <= 5, card
        if card.kind == "evil_habitual" and card.x_rule is None:
            assert card.resistance is not None and 2 <= card.resistance <= 4, card
        if card.x_rule is not None:
            assert -5 <= card.x_rule.plus <= 3, card
        if card.kind == "maturity":
            assert 3 <= card.cost <= 5, card
        if card.kind == "resistance":
            assert 0 <= card.cost <= 2, card
        if card.side == "righteous":
            assert card.cost <= 5, card


def test_evil_cards_aim_at_righteous_players(cards: CardSet) -> None:
    """On Evil cards every effect lands on the target (or every Righteous player), never on 'self'."""
    for card in cards:
        if card.side != "evil":
            continue
        for e, _ in all_effects(card):
            if e.op == "if":
                assert e.cond is not None and e.cond.who == "target", card
            else:
                assert e.who in ("target", "each_righteous"), (card.id, e)


def test_righteous_habituals_attach_and_have_a_passive(cards: CardSet) -> None:
    for card in cards:
        if card.kind == "righteous_habitual":
            assert [e.op for e in card.effects].count("attach") == 1, card
            assert not card.passive.is_empty(), card


# --- coverage of every mark and keyword (G-5) ---------------------------------------------------

def test_every_effect_op_appears(cards: CardSet) -> None:  # G-5
    ops = {e.op for card in cards for e, _ in all_effects(card)}
    assert set(EFFECT_OPS) <= ops, set(EFFECT_OPS) - ops


def test_every_condition_test_appears(cards: CardSet) -> None:  # G-5 conditional effects
    tests = {e.cond.test for card in cards for e, _ in all_effects(card) if e.op == "if" and e.cond}
    assert set(CONDITION_TESTS) <= tests, set(CONDITION_TESTS) - tests
    with_otherwise = [card.id for card in cards for e, _ in all_effects(card) if e.op == "if" and e.otherwise]
    assert with_otherwise


def test_every_kind_appears(cards: CardSet) -> None:  # G-4
    kinds = {card.kind for card in cards}
    assert set(RIGHTEOUS_KINDS) | set(EVIL_KINDS) <= kinds


def test_costs_c0_to_c4_appear(cards: CardSet) -> None:  # G-5 cost C<n>
    assert {0, 1, 2, 3, 4} <= {card.cost for card in cards}


def test_resistance_marks_appear(cards: CardSet) -> None:  # G-5 R<n> and RX
    threats = [card for card in cards if card.is_threat]
    assert {2, 3, 4, 5} <= {c.resistance for c in threats if c.x_rule is None}
    rx = [c for c in threats if c.x_rule is not None]
    assert rx and any(c.kind == "evil_habitual" for c in rx) and any(c.kind == "temptation" for c in rx)
    assert all(c.resistance is None for c in rx)
    assert all(c.marks_suffix() == " RX" for c in rx)


def test_rotate_on_evil_and_righteous_cards(cards: CardSet) -> None:  # G-5 rotate
    sides = {(card.side, e.who) for card in cards for e, _ in all_effects(card) if e.op == "rotate"}
    assert ("evil", "target") in sides
    assert any(side == "righteous" for side, _ in sides)


def test_humility_gain_and_loss_appear(cards: CardSet) -> None:  # G-5 H+X / H-X
    amounts = {e.amount for card in cards for e, _ in all_effects(card) if e.op == "humility"}
    assert any(a > 0 for a in amounts) and any(a < 0 for a in amounts)
    assert 0 not in amounts


def test_boost_payers_and_fast_boosts(cards: CardSet) -> None:  # G-5, P-3, P-5
    boosts = [b for card in cards for b in card.boosts]
    assert {b.payer for b in boosts} == {"you", "teammate", "any"}
    fast_ops = {e.op for b in boosts if b.fast for e in b.effects}
    assert {"amplify", "redirect"} <= fast_ops
    assert any(not b.fast for b in boosts)
    for b in boosts:
        if any(e.op in ("amplify", "redirect") for e in b.effects):
            assert b.fast, b


def test_instants_and_righteous_habituals_and_maturity(cards: CardSet) -> None:
    for deck_id in RIGHTEOUS_DECKS:
        kinds = {cards[c].kind for c in cards.decks[deck_id].cards}
        assert {"maturity", "resistance", "righteous_habitual", "action", "instant"} <= kinds, deck_id


def test_search_reveal_attach_draw_discard(cards: CardSet) -> None:  # G-5 keywords
    effects = [e for card in cards for e, _ in all_effects(card)]
    assert any(e.op == "search" and e.kind for e in effects)
    assert any(e.op == "reveal" and e.kind for e in effects)
    assert {e.who for e in effects if e.op == "attach"} == {"self", "teammate"}
    assert any(e.op == "discard" and e.random for e in effects)
    assert any(e.op == "discard" and not e.random for e in effects)
    for op in ("draw", "untap", "flip", "cost_zone"):
        assert any(e.op == op for e in effects), op


def test_ambush_and_ambush_reward(cards: CardSet) -> None:  # G-4 Ambush
    ambushes = [card for card in cards if card.is_ambush]
    assert ambushes and all(c.kind == "temptation" for c in ambushes)
    rewarders = [card for card in cards if card.passive.ambush_reward]
    assert rewarders and all(c.side == "righteous" for c in rewarders)


def test_resistance_cards_with_max_and_any(cards: CardSet) -> None:
    resistance = [card for card in cards if card.kind == "resistance"]
    assert all(c.resists is not None for c in resistance)
    assert any(c.resists and c.resists.max is not None for c in resistance)
    assert any(c.resists and c.resists.max is None for c in resistance)
    assert any(c.resists and set(c.resists.kinds) != set(EVIL_KINDS) for c in resistance)


def test_evil_habitual_passives(cards: CardSet) -> None:
    habituals = [card for card in cards if card.kind == "evil_habitual"]
    with_passive = [c for c in habituals if not c.passive.is_empty()]
    assert len(with_passive) * 2 > len(habituals)
    kinds = set()
    for c in with_passive:
        p = c.passive
        assert p.draw <= 0 and p.intake <= 0 and p.upkeep_humility <= 0 and not p.ambush_reward, c
        kinds |= {f for f in ("draw", "intake", "upkeep_humility") if getattr(p, f)}
    assert kinds == {"draw", "intake", "upkeep_humility"}


def test_righteous_passives(cards: CardSet) -> None:
    passives = [card.passive for card in cards if card.kind == "righteous_habitual"]
    for field in ("draw", "intake", "resist_discount", "upkeep_humility", "ambush_reward"):
        assert any(getattr(p, field) > 0 for p in passives), field


# --- printed text agrees with the data -----------------------------------------------------------

KIND_LABEL = {
    "maturity": "Maturity", "resistance": "Resistance", "righteous_habitual": "Righteous Habitual",
    "action": "Action", "instant": "Instant", "any": "card",
}
X_LABEL = {
    "target_hand": "cards in target's hand", "target_cost_zone": "target's Cost Zone",
    "target_maturity": "target's Maturity", "target_humility": "target's Humility",
    "held_habituals": "Evil Habituals target holds",
}
WHO_PATTERN = {"teammate": r"teammate", "each_righteous": r"each Righteous player", "target": r"\btarget\b"}
H_TOKEN = re.compile(r"\bH[+-]\d+")
COND_PATTERN = {
    "maturity_at_least": r"Maturity is L{v} or more", "maturity_at_most": r"Maturity is L{v} or less",
    "humility_at_least": r"Humility is {v} or more", "humility_at_most": r"Humility is {v} or less",
    "hand_at_least": r"\b{v} or more cards in hand", "hand_at_most": r"\b{v} or fewer cards in hand",
    "cost_zone_at_least": r"\b{v} or more Cost Zone cards", "holds_habitual": r"holds an Evil Habitual",
}


def effect_patterns(e: Effect) -> list[str]:
    """Regular expressions the printed text must match for this effect (case-insensitive)."""
    pats: list[str] = []
    n = e.count
    if e.op == "humility":
        pats.append(re.escape(f"H{e.amount:+d}") + r"(?!\d)")
    elif e.op == "draw":
        pats.append(rf"\bdraws? {n} cards?\b")
    elif e.op == "discard":
        pats.append(rf"\bdiscards? {n} cards?" + (r" at random" if e.random else r"(?! at random)"))
    elif e.op in ("rotate", "untap"):
        pats.append(rf"\b{e.op} {n} of .*Cost Zone card")
    elif e.op == "flip":
        pats.append(rf"\bflip {n} of .*Cost Zone cards? face up")
    elif e.op == "cost_zone":
        top = "top card" if n == 1 else f"top {n} cards"
        pats.append(rf"\b{top} of [^.]*deck into [^.]*Cost Zone")
    elif e.op == "search":
        pats.append(rf"\bsearch your deck for (a|an|{n}) {KIND_LABEL[e.kind or 'any']}")
    elif e.op == "reveal":
        pats.append(rf"\breveal the top {n} cards? of your deck: put the {KIND_LABEL[e.kind or 'any']} cards")
    elif e.op == "attach":
        pats.append(r"\battach to yourself" if e.who == "self" else r"\battach to a teammate")
    elif e.op == "amplify":
        pats.append(rf"\+{e.amount} to every number on this card")
    elif e.op == "redirect":
        pats.append(r"this card's effects go to a teammate instead")
    elif e.op == "if":
        assert e.cond is not None
        pats.append(r"\bif [^.:;]*" + COND_PATTERN[e.cond.test].format(v=e.cond.value))
        if e.cond.who == "target":
            pats.append(r"\bif target")
        if e.otherwise:
            pats.append(r"\botherwise\b")
        for sub in e.then + e.otherwise:
            pats.extend(effect_patterns(sub))
    if e.op not in ("if", "attach", "redirect") and e.who in WHO_PATTERN:
        pats.append(WHO_PATTERN[e.who])
    return pats


def h_tokens(effects: tuple[Effect, ...]) -> set[str]:
    return {f"H{e.amount:+d}" for e in walk(effects) if e.op == "humility"}


def card_text_problems(card: CardDef) -> list[str]:
    problems: list[str] = []

    def need(pattern: str, text: str, what: str) -> None:
        if not re.search(pattern, text, re.IGNORECASE):
            problems.append(f"{what}: text {text!r} lacks /{pattern}/")

    text = card.text
    for e in card.effects:
        for pat in effect_patterns(e):
            need(pat, text, f"{card.id} effect {e.op}")
    expected_h = h_tokens(card.effects)
    p = card.passive
    if p.upkeep_humility:
        token = f"H{p.upkeep_humility:+d}"
        expected_h.add(token)
        need(r"at the start of [^.]*turn[:,] [^.]*" + re.escape(token), text, f"{card.id} upkeep")
    if p.draw:
        need(rf"{abs(p.draw)} {'more' if p.draw > 0 else 'fewer'} cards? in each Draw phase", text, f"{card.id} draw")
    if p.intake:
        need(rf"lay {abs(p.intake)} {'more' if p.intake > 0 else 'fewer'} cards? into [^.]*Cost Zone each turn",
             text, f"{card.id} intake")
    if p.resist_discount:
        need(rf"resistance costs are {p.resist_discount} less", text, f"{card.id} resist_discount")
    if p.ambush_reward:
        need(rf"Resist an Ambush: gain X-{p.ambush_reward} Humility", text, f"{card.id} ambush_reward")
    if set(H_TOKEN.findall(text)) != expected_h:
        problems.append(f"{card.id}: H marks in text {sorted(H_TOKEN.findall(text))} != data {sorted(expected_h)}")

    if card.kind == "maturity":
        need(r"^Maturity \+1\.", text, f"{card.id} maturity")
    elif "Maturity +1" in text:
        problems.append(f"{card.id}: only Maturity cards raise Maturity")
    if card.resists is not None:
        label = "threat"
        if tuple(card.resists.kinds) == ("temptation",):
            label = "Temptation"
        elif tuple(card.resists.kinds) == ("evil_habitual",):
            label = "Evil Habitual"
        if card.resists.max is None:
            need(rf"^Resist any {label}\.", text, f"{card.id} resists")
        else:
            need(rf"^Resist an? {label} of R{card.resists.max} or less\.", text, f"{card.id} resists")
    if card.side == "evil":
        if card.is_ambush != text.startswith("Ambush."):
            problems.append(f"{card.id}: Ambush subtype and text disagree")
        if card.effects:
            need(r"If unresisted: ", text, f"{card.id} unresisted")
        if card.kind == "evil_habitual" and not card.passive.is_empty():
            need(r"If it takes hold: ", text, f"{card.id} takes hold")
    if card.x_rule is not None:
        need(r"\bRX: X is [^.]*" + re.escape(X_LABEL[card.x_rule.of]), text, f"{card.id} RX")
        if card.x_rule.plus:
            sign = "+" if card.x_rule.plus > 0 else "-"
            need(rf"X is [^.]*{re.escape(sign)} {abs(card.x_rule.plus)}\b", text, f"{card.id} RX plus")
    elif re.search(r"\bRX\b", text):
        problems.append(f"{card.id}: text says RX but the card has a fixed resistance")

    for b in card.boosts:
        head = f"{'Fast boost' if b.fast else 'Boost'} ({b.payer} C{b.cost}): "
        if not b.text.startswith(head):
            problems.append(f"{card.id}: boost text {b.text!r} should start with {head!r}")
        for e in b.effects:
            for pat in effect_patterns(e):
                need(pat, b.text, f"{card.id} boost {e.op}")
        if set(H_TOKEN.findall(b.text)) != h_tokens(b.effects):
            problems.append(f"{card.id}: boost H marks disagree: {b.text!r}")
    return problems


def test_card_texts_agree_with_effects(cards: CardSet) -> None:  # G-5, docs/design.md, "A card effect"
    problems = [p for card in cards for p in card_text_problems(card)]
    assert not problems, "\n".join(problems)


def test_every_printed_number_is_checked(cards: CardSet) -> None:
    """Changing any digit of any card's or boost's text makes the text disagree with the data."""
    missed = []
    for card in cards:
        for m in re.finditer(r"\d", card.text):
            wrong = card.text[:m.start()] + str((int(m.group()) + 1) % 10) + card.text[m.end():]
            if not card_text_problems(dataclasses.replace(card, text=wrong)):
                missed.append((card.id, wrong))
        for i, b in enumerate(card.boosts):
            for m in re.finditer(r"\d", b.text):
                wrong = b.text[:m.start()] + str((int(m.group()) + 1) % 10) + b.text[m.end():]
                boosts = card.boosts[:i] + (dataclasses.replace(b, text=wrong),) + card.boosts[i + 1:]
                if not card_text_problems(dataclasses.replace(card, boosts=boosts)):
                    missed.append((card.id, wrong))
    assert not missed, missed


def test_humility_amounts_printed(cards: CardSet) -> None:  # G-5 H+X / H-X
    """Each humility effect's signed amount is printed as H+n / H-n (the card's or boost's text)."""
    for card in cards:
        for e, boost in all_effects(card):
            if e.op == "humility":
                text = boost.text if boost else card.text
                assert f"H{e.amount:+d}" in text, (card.id, e, text)


def test_text_checker_catches_a_wrong_number() -> None:
    bad = load_texts([("bad.toml", BASE.replace('text = "Draw 1 card."', 'text = "Draw 2 cards."'))])
    assert card_text_problems(bad["my-card"])
    bad = load_texts([("bad.toml", BASE.replace(
        'effects = [{op = "draw", count = 1}]', 'effects = [{op = "draw", count = 1}, {op = "humility", amount = -1}]'
    ).replace('text = "Draw 1 card."', 'text = "Draw 1 card. H+1."'))])
    assert card_text_problems(bad["my-card"])
    good = load_texts([("good.toml", BASE)])
    assert not card_text_problems(good["my-card"])


# --- broken files: the error names file, card and field ------------------------------------------

BASE = """\
[deck]
id = "mine"
name = "Mine"
side = "righteous"

[[cards]]
id = "my-card"
name = "My Card"
kind = "action"
cost = 1
text = "Draw 1 card."
effects = [{op = "draw", count = 1}]
"""


def load_error(text: str) -> str:
    with pytest.raises(CardFileError) as info:
        load_texts([("my.toml", text)])
    return str(info.value)


def test_base_file_loads() -> None:
    card_set = load_texts([("my.toml", BASE)])
    assert card_set["my-card"].effects == (Effect(op="draw", count=1),)
    assert card_set.decks["mine"].cards == ("my-card",)


def test_error_unknown_key() -> None:
    msg = load_error(BASE.replace("cost = 1", 'cost = 1\ncolour = "red"'))
    assert "my.toml" in msg and "'my-card'" in msg and "colour" in msg


def test_error_wrong_type() -> None:
    msg = load_error(BASE.replace("cost = 1", 'cost = "two"'))
    assert "my.toml" in msg and "'my-card'" in msg and "field cost" in msg


def test_error_missing_text() -> None:
    msg = load_error(BASE.replace('text = "Draw 1 card."\n', ""))
    assert "my.toml" in msg and "'my-card'" in msg and "field text" in msg


def test_error_resistance_on_a_non_threat() -> None:
    msg = load_error(BASE.replace("cost = 1", "cost = 1\nresistance = 2"))
    assert "my.toml" in msg and "'my-card'" in msg and "field resistance" in msg


def test_error_unknown_op() -> None:
    msg = load_error(BASE.replace('op = "draw"', 'op = "heal"'))
    assert "my.toml" in msg and "'my-card'" in msg and "effects" in msg and "heal" in msg


def test_error_bad_boost_payer() -> None:
    text = BASE + '\n[[cards.boosts]]\npayer = "someone"\ncost = 1\ntext = "x"\neffects = [{op = "draw", count = 1}]\n'
    msg = load_error(text)
    assert "my.toml" in msg and "'my-card'" in msg and "boosts.0.payer" in msg


def test_error_amplify_on_a_slow_boost() -> None:
    text = BASE + '\n[[cards.boosts]]\npayer = "you"\ncost = 1\ntext = "x"\neffects = [{op = "amplify", amount = 1}]\n'
    msg = load_error(text)
    assert "my.toml" in msg and "'my-card'" in msg and "boosts.0.fast" in msg


def test_error_reference_to_an_undefined_card() -> None:
    msg = load_error(BASE + '\n[[cards]]\nid = "no-such-card"\ncopies = 2\n')
    assert "my.toml" in msg and "'no-such-card'" in msg and "field id" in msg


def test_error_invalid_toml() -> None:
    msg = load_error(BASE.replace("cost = 1", "cost = = 1"))
    assert "my.toml" in msg and "TOML" in msg


def test_error_evil_card_in_a_righteous_deck(cards: CardSet) -> None:
    text = BASE + '\n[[cards]]\nid = "pride"\ncopies = 1\n'
    with pytest.raises(CardFileError) as info:
        load_texts([("my.toml", text)], base=cards)
    assert "my.toml" in str(info.value) and "'pride'" in str(info.value) and "side" in str(info.value)


def test_user_deck_may_repeat_starter_cards(cards: CardSet) -> None:
    text = BASE + '\n[[cards]]\nid = "still-waters"\ncopies = 3\n'
    merged = load_texts([("my.toml", text)], base=cards)
    assert merged.decks["mine"].cards == ("my-card",) + ("still-waters",) * 3
    assert set(cards.decks) < set(merged.decks)
