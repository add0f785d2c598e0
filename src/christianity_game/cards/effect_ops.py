"""The effect ops of the card vocabulary (G-5), each declared once: what a card file writes for it
(its fields, their limits and defaults), the badge drawn for it, its rows in the marks legend and
its terms in the rules glossary.

One :class:`EffectOp` per op, in :data:`EFFECT_OP_LIST`; the fields a card file writes after
``op`` are the op's :class:`Shape` (ops of one shape share one schema entry). The rest of the
project reads these declarations instead of listing the ops again:

* :data:`christianity_game.cards.model.EFFECT_OPS` is their names, in this order;
* :mod:`christianity_game.cards.schema` makes each shape's entry (``SPECS``: its ``op`` values,
  its fields with their limits and defaults) and the fast-boost checks (``fast_only`` /
  ``only_on``) from them; :mod:`christianity_game.cards.loader` builds the
  :class:`~christianity_game.cards.model.Effect` from the shape's fields and ``fixed``;
* ``render/marks.py`` draws the badge named by ``keyword`` (titled ``badge``), ``render/legend.py``
  lays out ``legend`` and ``render/glossary.py`` takes its ``op:`` terms (and Humility's marks)
  from ``glossary``.

What carries an op out is the engine's (``engine/effects.py``, a table op -> function checked
against ``EFFECT_OPS``): this package imports nothing of the project, so the interpreter cannot sit
here (docs/decisions.md, "One declaration per effect op").

Plain data, standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "EFFECT_OP", "EFFECT_OP_LIST", "EffectOp", "GlossaryTerm", "LegendRow", "Param", "SHAPES", "Shape",
    "ops_of_shape",
]

#: who an effect reaches (the values of ``who``)
WHO: tuple[str, ...] = ("self", "teammate", "target", "each_righteous")
#: the card kinds a search or a reveal looks for
KINDS_SOUGHT: tuple[str, ...] = ("maturity", "resistance", "righteous_habitual", "action", "instant", "any")


@dataclass(frozen=True, slots=True)
class Param:
    """One field a card file writes for an op, after ``op``.

    * ``values``: ``"int"``, ``"bool"``, the words it may be (a tuple), or, for a conditional's
      parts, ``"condition"`` (a test on a seat) and ``"effects"`` (a list of effect entries);
    * ``low`` / ``high``: the limits of an ``"int"`` (``None``: no limit);
    * ``default``: the value when the file leaves it out (``None``: the file must give it; ``()``:
      an empty list of effects);
    * ``note``: what the number means, where its name does not say (the schema's description).
    """

    name: str
    values: str | tuple[str, ...]
    low: int | None = None
    high: int | None = None
    default: int | bool | str | tuple[()] | None = None
    note: str = ""

    @property
    def required(self) -> bool:
        return self.default is None

    def __repr__(self) -> str:
        values = "|".join(self.values) if isinstance(self.values, tuple) else self.values
        limits = "" if self.low is None and self.high is None else \
            f" {'' if self.low is None else self.low}..{'' if self.high is None else self.high}"
        default = "" if self.required else f" = {self.default!r}"
        return f"{self.name}: {values}{limits}{default}"


@dataclass(frozen=True, slots=True)
class Shape:
    """The entry a card file writes for the ops of this shape: its fields after ``op``, in order.

    Each shape is one spec of ``cards/schema.py`` (``SPECS[name]``, the class ``<Name>Spec``).
    """

    name: str
    params: tuple[Param, ...]

    def __repr__(self) -> str:
        return f"<Shape {self.name}({', '.join(map(repr, self.params))})>"


_WHO = Param("who", WHO, default="self")
_COUNT = Param("count", "int", 1, 10)

HUMILITY = Shape("humility", (Param("amount", "int", note="signed: H+X gains, H-X loses"), _WHO))
COUNT = Shape("count", (_COUNT, _WHO))
DISCARD = Shape("discard", (_COUNT, _WHO, Param("random", "bool", default=False)))
SEARCH = Shape("search", (Param("kind", KINDS_SOUGHT), Param("count", "int", 1, 3, default=1)))
REVEAL = Shape("reveal", (_COUNT, Param("kind", KINDS_SOUGHT)))
ATTACH = Shape("attach", (Param("who", ("self", "teammate"), default="self"),))
AMPLIFY = Shape("amplify", (Param("amount", "int", 1, 5),))
REDIRECT = Shape("redirect", ())
IF = Shape("if", (Param("cond", "condition"), Param("then", "effects"), Param("otherwise", "effects", default=())))

#: every shape, in the order the schema tries them (a card file's unknown ``op`` is told the ops so)
SHAPES: tuple[Shape, ...] = (HUMILITY, COUNT, DISCARD, SEARCH, REVEAL, ATTACH, AMPLIFY, REDIRECT, IF)


@dataclass(frozen=True, slots=True)
class LegendRow:
    """One row of the marks legend: its section, the mark's name, what it means.

    ``value`` is the number the mark shows, for a mark drawn with its value (Humility).
    """

    section: str
    name: str
    meaning: str
    value: int = 0


@dataclass(frozen=True, slots=True)
class GlossaryTerm:
    """One term of the rules glossary: its key, section, words, the legend mark shown, meaning."""

    key: str
    category: str
    term: str
    mark: str
    meaning: str


@dataclass(frozen=True, slots=True)
class EffectOp:
    """One effect op, declared once.

    * ``name``: the ``op`` a card file writes, and :attr:`Effect.op`.
    * ``shape``: the fields a card file writes for it, with their limits and defaults (one of
      :data:`SHAPES`); each is a field of :class:`~christianity_game.cards.model.Effect` of the same
      name. ``fixed``: fields set whatever the file says (a redirect always reaches a teammate).
    * ``keyword``: the keyword badge drawn for it (``None``: drawn by its own mark, as Humility's
      H+n); ``badge``: the badge's title, declared by the op that brings the badge (``""`` for an op
      that reuses another op's badge); ``legend``: its rows in the marks legend; ``glossary``: its
      terms.
    * ``fast_only``: only on fast boosts (it changes the card's own action); ``only_on``: the one
      card kind whose own effects may use it, with the error's words.
    """

    name: str
    shape: Shape
    keyword: str | None
    badge: str
    legend: tuple[LegendRow, ...]
    glossary: tuple[GlossaryTerm, ...]
    fixed: tuple[tuple[str, str], ...] = ()
    fast_only: bool = False
    only_on: tuple[str, str] | None = None

    @property
    def fields(self) -> tuple[str, ...]:
        """The names of the fields a card file writes for it (the :class:`Effect` fields it sets)."""
        return tuple(p.name for p in self.shape.params)

    def __repr__(self) -> str:
        return f"<EffectOp {self.name} {self.shape.name}({', '.join(map(repr, self.shape.params))})>"


def _term(key: str, category: str, term: str, mark: str, meaning: str) -> GlossaryTerm:
    return GlossaryTerm(key, category, term, mark, meaning)


#: every effect op, in the vocabulary's order
EFFECT_OP_LIST: tuple[EffectOp, ...] = (
    EffectOp(
        "humility", HUMILITY, None, "",
        legend=(
            LegendRow("Humility", "Humility gain H+<n>", "Gain that much Humility (Power), up to 10.", 1),
            LegendRow("Humility", "Humility loss H-<n>",
                      "Lose that much Humility (Power). A failed threat also costs its target H-1.", -1),
            LegendRow("Humility", "Humility at 0 H0",
                      "Overflow: a loss at H0 makes you discard 1 card, from hand or Cost Zone, per point you "
                      "cannot lose.", 0),
        ),
        glossary=(
            _term("mark:humility_gain", "Marks", "Humility gain H+<n>", "Humility gain H+<n>",
                  "Gain that much Humility (Power), up to 10."),
            _term("mark:humility_loss", "Marks", "Humility loss H-<n>", "Humility loss H-<n>",
                  "Lose that much Humility (Power). At 0 (H0) each point you cannot lose makes you "
                  "discard a card from hand or Cost Zone (overflow)."),
        ),
    ),
    EffectOp(
        "draw", COUNT, "draw", "Draw: take cards from the top of the deck into the hand",
        legend=(LegendRow("Keywords", "Draw", "Take cards from the top of the deck into the hand."),),
        glossary=(_term("op:draw", "Keywords", "Draw", "Draw", "Take cards from the top of the deck into the hand."),),
    ),
    EffectOp(
        "discard", DISCARD, "discard",
        "Discard: put cards from the hand into the discard pile",
        legend=(LegendRow("Keywords", "Discard",
                          "Put cards from the hand into the discard pile (by choice, or at random if the card "
                          "says so)."),),
        glossary=(
            _term("op:discard", "Keywords", "Discard", "Discard",
                  "Put cards from the hand into the discard pile, chosen by the player who discards."),
            _term("op:discard_random", "Keywords", "Discard at random", "Discard",
                  "The cards discarded are picked at random from the hand."),
        ),
    ),
    EffectOp(
        "search", SEARCH, "search", "Search: look through your deck for a card and take it",
        legend=(LegendRow("Keywords", "Search",
                          "Look through your deck for a card of the kind named, put it into your hand, shuffle."),),
        glossary=(_term("op:search", "Keywords", "Search", "Search",
                        "Look through your deck for a card of the kind named, put it into your hand, then "
                        "shuffle."),),
    ),
    EffectOp(
        "reveal", REVEAL, "reveal",
        "Reveal: turn cards from the top of your deck face up for all to see",
        legend=(LegendRow("Keywords", "Reveal",
                          "Turn the top cards of your deck face up: the kind named goes to your hand, the rest to "
                          "the bottom."),),
        glossary=(_term("op:reveal", "Keywords", "Reveal", "Reveal",
                        "Turn the top cards of your deck face up: cards of the kind named go to your hand, the "
                        "rest to the bottom of the deck."),),
    ),
    EffectOp(
        "rotate", COUNT, "rotate",
        "Rotate: turn a Cost Zone card sideways (tap it); each one gives 1 Cost",
        legend=(LegendRow("Costs", "Rotate",
                          "Turn a Cost Zone card sideways (tap it): each rotated card gives 1 Cost. A threat that "
                          "rotates your cards spends them for you."),),
        glossary=(_term("op:rotate", "Keywords", "Rotate", "Rotate",
                        "Turn Cost Zone cards sideways (tap them). A threat that rotates your cards spends them: "
                        "they cannot pay again until untapped."),),
    ),
    EffectOp(
        "untap", COUNT, "untap", "Untap: turn rotated Cost Zone cards upright again",
        legend=(LegendRow("Costs", "Untap", "Turn rotated Cost Zone cards upright again, ready to pay."),),
        glossary=(_term("op:untap", "Keywords", "Untap", "Untap",
                        "Turn rotated Cost Zone cards upright, ready to pay again."),),
    ),
    EffectOp(
        "flip", COUNT, "flip",
        "Flip: turn face-down Cost Zone cards face up (they may then be played)",
        legend=(LegendRow("Keywords", "Flip",
                          "Turn face-down Cost Zone cards face up: they can be played from there, or still "
                          "rotated for Cost."),),
        glossary=(_term("op:flip", "Keywords", "Flip", "Flip",
                        "Turn face-down Cost Zone cards face up: they may be played from the Cost Zone, or still "
                        "be rotated for Cost."),),
    ),
    EffectOp(
        "cost_zone", COUNT, "cost_zone",
        "Cost Zone: put cards from the top of the deck into the Cost Zone, face down",
        legend=(LegendRow("Keywords", "Cost Zone", "Put cards from the top of the deck into the Cost Zone."),),
        glossary=(_term("op:cost_zone", "Keywords", "Into the Cost Zone", "Cost Zone",
                        "Put cards from the top of the deck into the Cost Zone, face down."),),
    ),
    EffectOp(
        "attach", ATTACH, "attach",
        "Attach: the Habitual stays in play on a player, and works while it is there",
        legend=(LegendRow("Keywords", "Attach",
                          "A Habitual stays in play on the player it is attached to and works while it is "
                          "there."),),
        glossary=(_term("op:attach", "Keywords", "Attach", "Attach",
                        "The Habitual stays in play on the player named (yourself or a teammate) and its "
                        "standing effects apply to them."),),
        only_on=("righteous_habitual", "only a Righteous Habitual attaches"),
    ),
    EffectOp(
        "if", IF, "conditional",
        "Conditional: the effect happens only if the condition holds (otherwise what follows)",
        legend=(LegendRow("Keywords", "Conditional",
                          "\"If ...\": the effect happens only when the condition holds; \"otherwise\" says what "
                          "happens if not."),),
        glossary=(_term("op:if", "Keywords", "Conditional (If ... otherwise ...)", "Conditional",
                        "The effect happens only when the condition holds when the card resolves; \"otherwise\" "
                        "says what happens when it does not."),),
    ),
    EffectOp(
        "amplify", AMPLIFY, "amplify", "Amplify: +1 to every number on this card",
        legend=(LegendRow("Boosts", "Amplify", "Fast boost: +1 to every number on this card."),),
        glossary=(_term("op:amplify", "Boosts", "Amplify (+1 to every number)", "Amplify",
                        "Fast boost: every number of the card's own action is 1 higher."),),
        fast_only=True,
    ),
    EffectOp(
        "redirect", REDIRECT, "redirect", "Redirect: the card's effects go to a teammate instead",
        legend=(LegendRow("Boosts", "Redirect", "Fast boost: the card's effects go to a teammate instead of you."),),
        glossary=(_term("op:redirect", "Boosts", "Redirect to a teammate", "Redirect",
                        "Fast boost: the card's own action reaches a teammate instead of its player."),),
        fixed=(("who", "teammate"),), fast_only=True,
    ),
)

#: op name -> its declaration
EFFECT_OP: dict[str, EffectOp] = {op.name: op for op in EFFECT_OP_LIST}


def ops_of_shape(shape: Shape) -> tuple[str, ...]:
    """The names of the ops a card file writes with the entry ``shape``, in order."""
    return tuple(op.name for op in EFFECT_OP_LIST if op.shape is shape)
