"""The rules glossary (M-3): every keyword, cost pattern and trigger on the cards, from the card data.

:func:`glossary` walks a card set (its kinds and subtypes, costs and resistance marks, RX rules,
every effect op including those nested in ``if``, the conditions tested, who an effect reaches,
boosts with their payers and the fast mark, the standing effects of Habituals, what Resistance
cards resist) and returns one entry per term found, each naming the cards that use it. Nothing
is listed by hand: a term appears exactly when some card uses it, so the glossary cannot fall out
of date with the cards. The meanings are written here, once per term (an effect op's in its
declaration, :mod:`~christianity_game.cards.effect_ops`); a term the cards use that
has no meaning yet still appears, marked as such (and a test fails until it gets one).

Pure functions, standard library only.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from ..cards.effect_ops import EFFECT_OP, EFFECT_OP_LIST
from ..cards.model import CardDef, Effect
from .legend import legend_entries
from .marks import walk_effects
from .svg import KIND_LABELS

__all__ = ["CATEGORIES", "MEANINGS", "NO_MEANING", "glossary", "glossary_markdown", "terms_of"]

NO_MEANING = "(no description yet)"

#: the sections of the glossary, in order
CATEGORIES: tuple[str, ...] = (
    "Card kinds", "Marks", "Keywords", "Conditions", "Who it reaches", "Boosts", "Standing effects", "RX rules",
    "Rules",
)

_MEANINGS: dict[str, tuple[str, str, str, str]] = {
    # card kinds (G-4)
    "kind:maturity": ("Card kinds", "Maturity", "",
                      "Righteous card played on your turn; when it resolves your Maturity rises by 1 (L0 to L3)."),
    "kind:resistance": ("Card kinds", "Resistance", "",
                        "Righteous card played to resist a threat aimed at you: it pays the threat's whole "
                        "resistance cost, within the limit it prints."),
    "kind:righteous_habitual": ("Card kinds", "Righteous Habitual", "",
                                "Righteous card that stays in play, attached to a player, and works while it is there."),
    "kind:action": ("Card kinds", "Action", "", "Righteous card played on your own turn; it resolves and is discarded."),
    "kind:instant": ("Card kinds", "Instant", "",
                     "A fast Righteous card: it may be played onto the stack in any response window, even on "
                     "another player's turn."),
    "kind:temptation": ("Card kinds", "Temptation", "",
                        "Evil threat aimed at a Righteous player. Unresisted, it costs its target H-1 (on top of "
                        "what it prints) and goes to the Failed pile."),
    "kind:evil_habitual": ("Card kinds", "Evil Habitual", "",
                           "Evil threat that, unresisted, takes hold on its target and stays in play, working "
                           "against them until it is resisted or broken. While one is in play the Righteous side "
                           "cannot win."),
    "subtype:ambush": ("Card kinds", "Ambush", "Ambush",
                       "A Temptation that lies in wait. Some Righteous cards reward resisting one."),
    # marks (G-5)
    "mark:cost": ("Marks", "Cost C<n>", "Cost C<n>",
                  "Rotate that many untapped Cost Zone cards to play the card (C0: free)."),
    "mark:resistance": ("Marks", "Resistance R<n>", "Resistance R<n>",
                        "What resisting the threat takes: rotate that many Cost Zone cards, or play a Resistance "
                        "card that covers it."),
    "mark:rx": ("Marks", "Resistance RX", "Resistance RX",
                "The resistance cost is X, worked out when the threat is played as its text says."),
}

#: the effect ops' terms (Humility's marks, then ``op:NAME``), from their declarations (cards/effect_ops.py)
_OP_MEANINGS: dict[str, tuple[str, str, str, str]] = {
    t.key: (t.category, t.term, t.mark, t.meaning) for op in EFFECT_OP_LIST for t in op.glossary
}

_MORE_MEANINGS: dict[str, tuple[str, str, str, str]] = {
    "op:resist": ("Keywords", "Resist", "",
                  "Play the card to resist a threat of the resistance printed or less (\"any threat\": no "
                  "limit). The threat is resisted whole: nothing on it happens."),
    # conditions
    "cond:maturity_at_least": ("Conditions", "If Maturity is L<n> or more", "Conditional",
                               "Holds when the player's Maturity level is at least n."),
    "cond:maturity_at_most": ("Conditions", "If Maturity is L<n> or less", "Conditional",
                              "Holds when the player's Maturity level is at most n."),
    "cond:humility_at_least": ("Conditions", "If Humility is <n> or more", "Conditional",
                               "Holds when the player's Humility is at least n."),
    "cond:humility_at_most": ("Conditions", "If Humility is <n> or less", "Conditional",
                              "Holds when the player's Humility is at most n."),
    "cond:hand_at_least": ("Conditions", "If the hand holds <n> or more cards", "Conditional",
                           "Holds when the player has at least n cards in hand."),
    "cond:hand_at_most": ("Conditions", "If the hand holds <n> or fewer cards", "Conditional",
                          "Holds when the player has at most n cards in hand."),
    "cond:holds_habitual": ("Conditions", "If the player holds an Evil Habitual", "Conditional",
                            "Holds when an Evil Habitual has taken hold on the player."),
    "cond:cost_zone_at_least": ("Conditions", "If the Cost Zone has <n> or more cards", "Conditional",
                                "Holds when the player has at least n cards in their Cost Zone."),
    # who an effect reaches
    "who:teammate": ("Who it reaches", "A teammate", "",
                     "Another Righteous player, chosen by the card's player. Solo: pay the target-change fee and "
                     "read it as you."),
    "who:target": ("Who it reaches", "Target", "",
                   "The Righteous player the threat is aimed at."),
    "who:each_righteous": ("Who it reaches", "Each Righteous player", "",
                           "Every Righteous player, the card's player included."),
    # boosts (P-2 .. P-5)
    "boost": ("Boosts", "Boost", "",
              "An optional extra printed on the card: someone the glyph allows pays its cost (C<n>) and its "
              "action goes on the stack like a card. It cannot be countered. The card's player decides which "
              "boosts are taken, in any order."),
    "payer:you": ("Boosts", "Boost payer: you", "Boost payer: you", "Only the card's player may pay the boost."),
    "payer:teammate": ("Boosts", "Boost payer: teammate", "Boost payer: teammate",
                       "A teammate may pay the boost. Solo: pay the target-change fee and pay it yourself."),
    "payer:any": ("Boosts", "Boost payer: any", "Boost payer: any", "Any Righteous player may pay the boost."),
    "fast": ("Boosts", "Fast mark (bolt)", "Fast mark (bolt)",
             "The boost is taken before the card's own action, because it changes what the card is about to "
             "do. A boost without the bolt is offered after the action."),
    # standing effects of Habituals (Passive)
    "passive:draw": ("Standing effects", "Cards drawn each Draw phase", "Draw",
                     "While the Habitual is in play, its holder draws that many more (+) or fewer (-) cards in "
                     "each Draw phase."),
    "passive:intake": ("Standing effects", "Cost Zone intake", "Cost Zone",
                       "While the Habitual is in play, its holder may lay that many more (+) or fewer (-) cards "
                       "into their Cost Zone each turn."),
    "passive:upkeep_humility": ("Standing effects", "Start of turn Humility", "Humility gain H+<n>",
                                "While the Habitual is in play, its holder gains (H+) or loses (H-) that much "
                                "Humility at the start of each of their turns."),
    "passive:resist_discount": ("Standing effects", "Resistance discount", "Resistance discount",
                                "While the Habitual is in play, the resistance costs its holder pays are that "
                                "much lower."),
    "passive:ambush_reward": ("Standing effects", "Ambush reward (gain X - n)", "Ambush",
                              "When its holder resists an Ambush, they gain Humility: the Ambush's resistance X "
                              "less the number printed."),
    "trigger:unresisted": ("Standing effects", "If unresisted", "",
                           "What a threat does when nobody resists it, on top of the H-1 every failed threat "
                           "costs its target."),
    "trigger:takes_hold": ("Standing effects", "If it takes hold", "",
                           "An unresisted Evil Habitual stays on its target; this is what it does to them while "
                           "it holds."),
    # RX rules (XRule.of)
    "x:target_cost_zone": ("RX rules", "X: cards in the target's Cost Zone", "Resistance RX",
                           "X is the number of cards in the target's Cost Zone when the threat is played, plus "
                           "or minus the number printed (never below 0)."),
    "x:target_hand": ("RX rules", "X: cards in the target's hand", "Resistance RX",
                      "X is the number of cards in the target's hand when the threat is played, plus or minus "
                      "the number printed."),
    "x:target_maturity": ("RX rules", "X: the target's Maturity", "Resistance RX",
                          "X is the target's Maturity level, plus or minus the number printed."),
    "x:target_humility": ("RX rules", "X: the target's Humility", "Resistance RX",
                          "X is the target's Humility, plus or minus the number printed."),
    "x:held_habituals": ("RX rules", "X: Evil Habituals the target holds", "Resistance RX",
                         "X is the number of Evil Habituals holding the target, plus or minus the number printed."),
    # rules a card can call up
    "rule:target_change_fee": ("Rules", "Target-change fee (solo)", "Cost C<n>",
                               "Solo: a card or boost that needs a teammate (a teammate pays, or the effect "
                               "reaches a teammate) can be used by paying C1 more (or the fee set) and reading "
                               "it as pointing at you."),
}

#: key -> (category, term, legend mark name or "", meaning)
MEANINGS: dict[str, tuple[str, str, str, str]] = {**_MEANINGS, **_OP_MEANINGS, **_MORE_MEANINGS}


def _effect_terms(effects: Iterable[Effect]) -> Iterator[str]:
    for e in walk_effects(effects):
        if e.op == "humility":
            if e.amount:
                yield "mark:humility_gain" if e.amount > 0 else "mark:humility_loss"
        else:
            yield f"op:{e.op}"
        if e.op == "discard" and e.random:
            yield "op:discard_random"
        if e.op == "if" and e.cond is not None:
            yield f"cond:{e.cond.test}"
        if e.who in ("teammate", "target", "each_righteous") and "who" not in dict(EFFECT_OP[e.op].fixed):
            yield f"who:{e.who}"


def terms_of(card: CardDef) -> list[str]:
    """Every glossary key one card uses, each once, in the order found."""
    keys: list[str] = [f"kind:{card.kind}"]
    keys += [f"subtype:{s}" for s in card.subtypes]
    keys.append("mark:cost")
    if card.is_threat:
        if card.x_rule is not None:
            keys += ["mark:rx", f"x:{card.x_rule.of}"]
        elif card.resistance is not None:
            keys.append("mark:resistance")
        if card.effects:
            keys.append("trigger:unresisted")
        if card.kind == "evil_habitual" and not card.passive.is_empty():
            keys.append("trigger:takes_hold")
    if card.resists is not None:
        keys.append("op:resist")
    keys += list(_effect_terms(card.effects))
    for b in card.boosts:
        keys += ["boost", f"payer:{b.payer}"]
        if b.fast:
            keys.append("fast")
        keys += list(_effect_terms(b.effects))
    p = card.passive
    for field in ("draw", "intake", "upkeep_humility", "resist_discount", "ambush_reward"):
        value = getattr(p, field)
        if value:
            keys.append(f"passive:{field}")
            if field == "upkeep_humility":
                keys.append("mark:humility_gain" if value > 0 else "mark:humility_loss")
            if field == "ambush_reward":
                keys.append("subtype:ambush")
    if card.needs_teammate() or any(b.payer == "teammate" or b.needs_mate for b in card.boosts):
        keys.append("rule:target_change_fee")
    seen: dict[str, None] = {}
    for k in keys:
        seen.setdefault(k, None)
    return list(seen)


def _cards_of(card_set: Any) -> list[CardDef]:
    cards = getattr(card_set, "cards", card_set)
    if isinstance(cards, dict):
        return list(cards.values())
    return list(cards)


def _fallback(key: str) -> tuple[str, str, str, str]:
    kind, _, name = key.partition(":")
    if kind == "kind":
        return ("Card kinds", KIND_LABELS.get(name, name.replace("_", " ").title()), "", NO_MEANING)
    category = {"op": "Keywords", "cond": "Conditions", "who": "Who it reaches", "payer": "Boosts",
                "passive": "Standing effects", "x": "RX rules", "subtype": "Card kinds"}.get(kind, "Rules")
    return (category, (name or key).replace("_", " ").capitalize(), "", NO_MEANING)


def glossary(card_set: Any) -> list[dict[str, Any]]:
    """One entry per term the cards use, sorted by section then as listed in :data:`MEANINGS`.

    ``card_set`` is a :class:`~christianity_game.cards.CardSet` (or any iterable of cards). Each
    entry: ``key``, ``term``, ``category``, ``meaning``, ``mark`` (the legend's name for the mark
    drawn for it, or ``""``), ``mark_svg`` (that mark's SVG fragment, or ``""``), ``cards`` (the ids
    of the cards that use it) and ``names`` (their names), in card order.
    """
    found: dict[str, list[CardDef]] = {}
    for card in _cards_of(card_set):
        for key in terms_of(card):
            found.setdefault(key, []).append(card)
    marks = {name: frag for name, frag, _ in legend_entries()}
    order = {k: i for i, k in enumerate(MEANINGS)}
    entries: list[dict[str, Any]] = []
    for key, cards in found.items():
        category, term, mark, meaning = MEANINGS.get(key) or _fallback(key)
        entries.append({
            "key": key, "term": term, "category": category, "meaning": meaning,
            "mark": mark, "mark_svg": str(marks.get(mark, "")),
            "cards": [c.id for c in cards], "names": [c.name for c in cards],
        })
    cat = {c: i for i, c in enumerate(CATEGORIES)}
    entries.sort(key=lambda e: (cat.get(e["category"], len(cat)), order.get(e["key"], len(order)), e["term"]))
    return entries


def glossary_markdown(card_set: Any) -> str:
    """The glossary as a Markdown page: a section per category, each term with its meaning and cards."""
    cards = _cards_of(card_set)
    entries = glossary(cards)
    out = ["# Rules glossary", "",
           f"Every keyword, cost pattern and trigger on the cards, generated from the card data "
           f"({len(cards)} cards), with the cards that use it.", ""]
    section = None
    for e in entries:
        if e["category"] != section:
            section = e["category"]
            out += [f"## {section}", ""]
        names = sorted(set(e["names"]))
        used = "every card" if len(e["cards"]) == len(cards) else " · ".join(names)
        out += [f"**{_md(e['term'])}**: {_md(e['meaning'])}", "", f"*Cards ({len(names)}):* {_md(used)}", ""]
    return "\n".join(out).rstrip() + "\n"


def _md(text: str) -> str:
    """Text safe in Markdown: the marks' angle brackets and emphasis characters escaped."""
    for ch in ("\\", "*", "_", "`", "<", ">", "[", "]"):
        text = text.replace(ch, "\\" + ch)
    return text
