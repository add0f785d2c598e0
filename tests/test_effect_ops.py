"""The effect ops are declared once (cards/effect_ops.py) and every per-op table derives from them.

* every op has its shape (the fields a card file writes, their limits and defaults), its badge
  (glyph and title), its legend rows and glossary text;
* ``EFFECT_OPS``, the schema's specs (tags, fields, limits, defaults), the loader's fields, the svg
  tables and the glossary's ``op:`` terms are the declarations' (nothing restates an op by hand).
"""

from __future__ import annotations

import typing

import pytest

from christianity_game.cards import CardFileError, load_texts, starter_set
from christianity_game.cards.effect_ops import (
    EFFECT_OP, EFFECT_OP_LIST, SHAPES, WHO, EffectOp, Param, Shape, ops_of_shape,
)
from christianity_game.cards.model import EFFECT_OPS, Effect, Who
from christianity_game.cards.schema import FAST_OPS, SPECS, EffectSpec
from christianity_game.render import glossary as gl
from christianity_game.render import svg


def test_effect_ops_are_the_declared_names_in_order() -> None:
    assert EFFECT_OPS == tuple(op.name for op in EFFECT_OP_LIST)
    # the ops the cards had when the table was made keep their names and order (a new op may go anywhere)
    first = ("humility", "draw", "discard", "search", "reveal", "rotate", "untap", "flip", "cost_zone",
             "attach", "if", "amplify", "redirect")
    assert [name for name in EFFECT_OPS if name in first] == list(first)
    assert len(set(EFFECT_OPS)) == len(EFFECT_OPS)
    assert list(EFFECT_OP) == list(EFFECT_OPS)
    assert all(isinstance(op, EffectOp) for op in EFFECT_OP_LIST)


def test_a_declaration_reads_well() -> None:
    assert repr(EFFECT_OP["discard"]) == (
        "<EffectOp discard discard(count: int 1..10, who: self|teammate|target|each_righteous = 'self', "
        "random: bool = False)>")
    assert repr(EFFECT_OP["search"]) == (
        "<EffectOp search search(kind: maturity|resistance|righteous_habitual|action|instant|any, "
        "count: int 1..3 = 1)>")
    assert repr(EFFECT_OP["redirect"]) == "<EffectOp redirect redirect()>"
    assert repr(Param("amount", "int", None, 5)) == "amount: int ..5"
    assert EFFECT_OP["if"].fields == ("cond", "then", "otherwise")


def test_every_op_has_glyph_legend_and_glossary_text() -> None:
    for op in EFFECT_OP_LIST:
        assert op.legend, op.name
        assert all(row.section and row.name and row.meaning for row in op.legend), op.name
        assert op.glossary, op.name
        assert all(t.key and t.category and t.term and t.meaning for t in op.glossary), op.name
        if op.keyword is None:        # drawn by its own mark (Humility's H+n)
            assert op.name == "humility"
        else:
            assert op.keyword in svg.KEYWORDS, f"{op.name}: no drawing for its badge {op.keyword!r}"
            titled = [o.name for o in EFFECT_OP_LIST if o.keyword == op.keyword and o.badge]
            assert len(titled) == 1, (f"the badge {op.keyword!r} needs its title from exactly one op, not "
                                      f"{titled or 'none'}: an op that reuses another's badge leaves badge empty")
        assert f"op:{op.name}" in gl.MEANINGS or op.name == "humility", op.name


def test_schema_entries_come_from_the_declarations() -> None:
    assert {op.shape for op in EFFECT_OP_LIST} == set(SHAPES)
    assert [shape.name for shape in SHAPES] == list(SPECS)
    for shape in SHAPES:
        spec = SPECS[shape.name]
        assert spec.__name__ == "".join(w.capitalize() for w in shape.name.split("_")) + "Spec"
        assert typing.get_args(spec.model_fields["op"].annotation) == ops_of_shape(shape), shape
        assert list(spec.model_fields) == ["op"] + [p.name for p in shape.params], shape
        schema = spec.model_json_schema()
        props = schema["properties"] if "properties" in schema else schema["$defs"][spec.__name__]["properties"]
        for p in shape.params:
            field = spec.model_fields[p.name]
            assert field.is_required() == p.required, (shape.name, p.name)
            if isinstance(p.values, tuple):
                assert tuple(props[p.name]["enum"]) == p.values, (shape.name, p.name)
            if p.low is not None:
                assert props[p.name]["minimum"] == p.low, (shape.name, p.name)
            if p.high is not None:
                assert props[p.name]["maximum"] == p.high, (shape.name, p.name)
            assert props[p.name].get("description", "") == p.note
    for op in EFFECT_OP_LIST:
        assert set(op.fields) | {name for name, _ in op.fixed} <= set(Effect.__dataclass_fields__), op.name
    union = typing.get_args(typing.get_args(EffectSpec)[0])
    tags = [t for spec in union for t in typing.get_args(spec.model_fields["op"].annotation)]
    assert sorted(tags) == sorted(EFFECT_OPS)
    assert FAST_OPS == ("amplify", "redirect")
    assert typing.get_args(Who) == WHO


#: a deck file of one action card, its ``effects`` line left for the test to add
ONE_CARD = """\
[deck]
id = "mine"
name = "Mine"
side = "righteous"

[[cards]]
id = "my-card"
name = "My Card"
kind = "action"
cost = 1
text = "x"
"""

def test_a_shape_is_checked_as_declared() -> None:
    """The limits and defaults a card file meets are the declared ones (draw: count 1..10, who = self)."""
    def load(effect: str) -> tuple[Effect, ...]:
        return load_texts([("my.toml", ONE_CARD + f"effects = [{effect}]\n")])["my-card"].effects

    count = next(p for p in EFFECT_OP["draw"].shape.params if p.name == "count")
    assert (count.low, count.high) == (1, 10)
    assert load('{op = "draw", count = 10}') == (Effect(op="draw", count=10, who="self"),)
    for bad in ('{op = "draw", count = 11}', '{op = "draw", count = 0}', '{op = "draw"}',
                '{op = "draw", count = 1, who = "nobody"}', '{op = "draw", count = 1, random = true}'):
        with pytest.raises(CardFileError, match="my-card"):
            load(bad)
    assert load('{op = "search", kind = "action"}') == (Effect(op="search", count=1, kind="action"),)


def test_the_loader_builds_effects_from_the_declared_fields() -> None:
    text = ONE_CARD + """\
effects = [{op = "discard", count = 2, who = "target", random = true}, {op = "search", kind = "action"}]

[[cards.boosts]]
payer = "you"
cost = 1
fast = true
text = "x"
effects = [{op = "redirect"}, {op = "amplify", amount = 2}]
"""
    card = load_texts([("my.toml", text)])["my-card"]
    assert card.effects == (Effect(op="discard", count=2, who="target", random=True),
                            Effect(op="search", count=1, kind="action"))
    assert card.boosts[0].effects == (Effect(op="redirect", who="teammate"), Effect(op="amplify", amount=2))


def test_svg_tables_come_from_the_declarations() -> None:
    assert svg.OP_KEYWORD == {op.name: op.keyword for op in EFFECT_OP_LIST if op.keyword is not None}
    for op in EFFECT_OP_LIST:
        if op.keyword is not None and op.badge:
            assert svg.KEYWORDS[op.keyword][1] == op.badge
            assert f"<title>{op.badge}</title>" in svg.mark_keyword(op.keyword).replace("&#x27;", "'")
    legend = {(name, meaning) for name, _, meaning in svg.legend_entries()}
    for op in EFFECT_OP_LIST:
        for row in op.legend:
            assert (row.name, row.meaning) in legend, (op.name, row.name)


def test_glossary_terms_come_from_the_declarations() -> None:
    for op in EFFECT_OP_LIST:
        for t in op.glossary:
            assert gl.MEANINGS[t.key] == (t.category, t.term, t.mark, t.meaning)
    legend_names = {name for name, _, _ in svg.legend_entries()}
    for op in EFFECT_OP_LIST:
        for t in op.glossary:
            assert not t.mark or t.mark in legend_names, (op.name, t.mark)
    used = {e["key"] for e in gl.glossary(starter_set())}
    assert {f"op:{name}" for name in EFFECT_OPS if name != "humility"} <= used
