"""The legend of marks ("The Marks on a Card", 001/000): every mark a card can carry, with its meaning.

Drawn by the very functions that print the cards (:mod:`.marks`), so it cannot fall out of date
with them. An effect op's rows (their section, name and meaning) come from its declaration
(:mod:`christianity_game.cards.effect_ops`); ``_LEGEND_LAYOUT`` says where they go among the
other marks.

Pure functions, standard library only.
"""

from __future__ import annotations

from ..cards.effect_ops import EFFECT_OP, EFFECT_OP_LIST, EffectOp
from .marks import (
    mark_ambush, mark_cost, mark_fast, mark_humility, mark_keyword, mark_payer, mark_resistance, place,
)
from .svg_text import INK, SANS, SERIF, num, text_width, wrap, xml_attr, xml_text

__all__ = ["legend_entries", "legend_svg"]


def _op_mark(op: EffectOp, value: int) -> str:
    """The mark an effect op is drawn with (Humility shows its number)."""
    return mark_humility(value) if op.keyword is None else mark_keyword(op.keyword)


#: where the effect ops' legend rows go among the other marks ("op:NAME": that op's rows, from its
#: declaration); an op not named here goes at the end of its rows' section
_LEGEND_LAYOUT: tuple[str, ...] = (
    "cost", "resistance", "rx", "op:rotate", "op:untap", "op:humility", "payer:you", "payer:teammate", "payer:any",
    "fast", "op:amplify", "op:redirect", "op:draw", "op:discard", "op:search", "op:reveal", "op:cost_zone",
    "op:flip", "op:attach", "op:if", "ambush", "resist_discount",
)


def _legend() -> list[tuple[str, str, str, str]]:
    """The legend, in order: (section, name, the mark (drawn by the card's own mark functions), meaning)."""
    marks = {
        "cost": ("Costs", "Cost C<n>", mark_cost(2),
                 "Top left of every card: rotate this many untapped Cost Zone cards to play it (C2 = rotate 2; C0 "
                 "is free)."),
        "resistance": ("Costs", "Resistance R<n>", mark_resistance(3),
                       "Top right of a threat: what resisting it takes, by rotating that many Cost Zone cards or "
                       "with a Resistance card that covers it. Resisted, nothing on the threat happens."),
        "rx": ("Costs", "Resistance RX", mark_resistance("X"),
               "X is worked out when the threat is played, as its text says (for example: cards in the target's "
               "Cost Zone - 4)."),
        "payer:you": ("Boosts", "Boost payer: you", mark_payer("you"),
                      "An optional extra on the card: only you, the card's player, may pay its cost."),
        "payer:teammate": ("Boosts", "Boost payer: teammate", mark_payer("teammate"),
                           "A teammate may pay the boost. Solo: pay the target-change fee and read it as you."),
        "payer:any": ("Boosts", "Boost payer: any", mark_payer("any"), "Any Righteous player may pay the boost."),
        "fast": ("Boosts", "Fast mark (bolt)", mark_fast(),
                 "Before the payer glyph: the boost is taken before the card's own action, as it changes what the "
                 "card does. No bolt: boosts come after the action."),
        "ambush": ("Keywords", "Ambush", mark_ambush(),
                   "A Temptation that lies in wait. Some Righteous cards reward resisting one."),
        "resist_discount": ("Keywords", "Resistance discount", mark_keyword("resist_discount"),
                            "While the Habitual is in play, the resistance costs this player pays are lower."),
    }

    def op_rows(op: EffectOp) -> list[tuple[str, str, str, str]]:
        return [(r.section, r.name, _op_mark(op, r.value), r.meaning) for r in op.legend]

    rows: list[tuple[str, str, str, str]] = []
    for key in _LEGEND_LAYOUT:
        rows += op_rows(EFFECT_OP[key[3:]]) if key.startswith("op:") else [marks[key]]
    for op in EFFECT_OP_LIST:
        if f"op:{op.name}" in _LEGEND_LAYOUT:
            continue
        for row in op_rows(op):
            ends = [i for i, r in enumerate(rows) if r[0] == row[0]]
            rows.insert(ends[-1] + 1 if ends else len(rows), row)
    return rows


def legend_entries() -> list[tuple[str, str, str]]:
    """The marks legend: (mark name, the mark's SVG fragment, one-line meaning), every mark of G-5.

    Each fragment is exactly what the mark functions return, so it is the same text a card embeds.
    """
    return [(name, frag, meaning) for _, name, frag, meaning in _legend()]


def legend_svg(*, width: float = 820) -> str:
    """The legend of marks as one SVG ("The Marks on a Card"), drawn with the card's mark functions."""
    W = 820.0
    pad, mark_col = 28.0, 108.0
    text_x = pad + mark_col + 12
    meaning_w = W - text_x - pad
    name_size, mean_size = 19.0, 15.5
    body: list[str] = []
    y = 112.0
    section = None
    for sec, name, frag, meaning in _legend():
        if sec != section:
            section = sec
            y += 14
            body.append(f'<text x="{pad}" y="{num(y + 20)}" font-family="{SERIF}" font-weight="bold" font-size="22" '
                        f'fill="#6e5214">{xml_text(sec)}</text>'
                        f'<path d="M{pad + text_width(sec, 22, bold=True, serif=True) + 14:.1f} {num(y + 13)} '
                        f'H{W - pad}" stroke="#c9a75a" stroke-width="1.5"/>')
            y += 34
        lines = wrap(meaning, mean_size, meaning_w)
        row_h = max(62.0, 12 + name_size + 8 + len(lines) * mean_size * 1.3 + 6)
        mw = getattr(frag, "width", 48)
        mx = pad + (mark_col - mw) / 2
        body.append(f'<g class="legend-entry" data-mark={xml_attr(getattr(frag, "key", ""))}>'
                    f'<rect x="{pad}" y="{num(y)}" width="{mark_col}" height="{num(row_h - 8)}" rx="10" '
                    'fill="#f3e9d2"/>'
                    + place(frag, mx, y + (row_h - 8) / 2 - 24)
                    + f'<text x="{num(text_x)}" y="{num(y + name_size + 4)}" font-family="{SANS}" '
                      f'font-weight="bold" font-size="{num(name_size)}" fill="{INK}">{xml_text(name)}</text>'
                    + "".join(f'<text x="{num(text_x)}" y="{num(y + name_size + 10 + (i + 1) * mean_size * 1.3 - 2)}" '
                              f'font-family="{SANS}" font-size="{num(mean_size)}" fill="#4a4036">{xml_text(ln)}</text>'
                              for i, ln in enumerate(lines))
                    + "</g>")
        y += row_h
    H = y + 24
    height = width * H / W
    head = (f'<rect x="2" y="2" width="{num(W - 4)}" height="{num(H - 4)}" rx="22" fill="#fbf7ec" stroke="#b38a2e" '
            'stroke-width="3"/>'
            f'<text x="{pad}" y="58" font-family="{SERIF}" font-weight="bold" font-size="34" fill="{INK}">'
            "The Marks on a Card</text>"
            f'<text x="{pad}" y="90" font-family="{SERIF}" font-style="italic" font-size="17" fill="#5b4d3c">'
            "Every symbol a card can carry, drawn by the same code that prints the cards.</text>")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}" height="{num(height)}" '
            f'viewBox="0 0 {num(W)} {num(H)}" role="img" aria-label="The marks on a card" class="marks-legend">'
            "<title>The Marks on a Card</title>" + head + "".join(body) + "</svg>")
