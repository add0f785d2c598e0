"""Card pictures as SVG: the card faces and the card back (G-5, M-3); the marks and the legend too.

Pure functions, standard library only: every function takes card data (or a mark's value) and
returns SVG text. Nothing here reads or writes files (:mod:`~christianity_game.render.samples`, run
by hand, writes the samples of ``docs/cards/``).

**One drawing of each mark.** Every mark a card can carry is drawn by one small function of
:mod:`.marks` (:func:`mark_cost`, :func:`mark_humility`, the keyword badges :func:`mark_keyword`
...), and the card and the legend (:mod:`.legend`: :func:`legend_entries`, :func:`legend_svg`)
both embed the mark's text unchanged, so the legend cannot fall out of date with the cards (001/000
"The Marks on a Card"). Text metrics and wrapping are :mod:`.svg_text`'s. This module also gives
the names of those three, as before the split.

Cards are drawn in a 630 x 880 box (a 63 x 88 mm playing card at 10 units a millimetre) and scaled
to the ``width`` asked for. Text is wrapped and sized with the advance widths of the DejaVu fonts,
the widest of the fonts the SVG names, so it fits in any of them.
"""
from __future__ import annotations

import math
import re
from typing import Sequence

from ..cards.model import CardDef, Passive
from .legend import legend_entries, legend_svg
from .marks import (
    KEYWORDS, MARK_H, OP_KEYWORD, PAYER_COLOURS, PAYER_TEXT, Mark, mark_ambush, mark_amplify, mark_attach,
    mark_conditional, mark_cost, mark_cost_zone, mark_discard, mark_draw, mark_fast, mark_flip, mark_humility,
    mark_keyword, mark_payer, mark_redirect, mark_resistance, mark_reveal, mark_rotate, mark_search, mark_untap,
    op_marks, place,
)
from .svg_text import (
    INK, SANS, SERIF, boost_words, fit_title, num, text_block, text_width, widest_line, wrap, xml_attr, xml_text,
)
from .table_words import alone, boost_text, card_text

__all__ = [
    "CARD_H", "CARD_W", "KEYWORDS", "MARK_H", "Mark", "OP_KEYWORD", "PAYER_COLOURS", "PAYER_TEXT", "boost_words",
    "card_back_svg", "card_marks", "card_svg", "legend_entries", "legend_svg", "mark_ambush", "mark_amplify",
    "mark_attach", "mark_conditional", "mark_cost", "mark_cost_zone", "mark_discard", "mark_draw", "mark_fast",
    "mark_flip", "mark_humility", "mark_keyword", "mark_payer", "mark_redirect", "mark_resistance", "mark_reveal",
    "mark_rotate", "mark_search", "mark_untap", "op_marks", "passive_lines", "place", "text_width", "wrap",
]

CARD_W, CARD_H = 630, 880          # 63 x 88 mm at 10 units a millimetre


def card_marks(card: CardDef) -> list[str]:
    """The badges a card shows under its picture: Ambush, then the marks its own effects use."""
    out = [mark_ambush()] if card.is_ambush else []
    return out + [m for m in op_marks(card.effects) if m not in out]


def passive_lines(card: CardDef) -> list[tuple[str, str]]:
    """A Habitual's standing effects as (mark, words), one line each, from its :class:`Passive`.

    They apply to the player the Habitual is on (its holder; for an Evil Habitual, its target).
    """
    p: Passive = card.passive
    out: list[tuple[str, str]] = []

    def signed(v: int) -> str:
        return f"{'+' if v > 0 else '−'}{abs(v)}"

    if p.draw:
        out.append((mark_draw(), f"{signed(p.draw)} card{'s' if abs(p.draw) != 1 else ''} each Draw phase"))
    if p.intake:
        out.append((mark_cost_zone(), f"{signed(p.intake)} Cost Zone card{'s' if abs(p.intake) != 1 else ''} "
                                      "each turn"))
    if p.upkeep_humility:
        out.append((mark_humility(p.upkeep_humility), "at the start of each turn"))
    if p.resist_discount:
        out.append((mark_keyword("resist_discount"), f"resistance costs {p.resist_discount} less"))
    if p.ambush_reward:
        out.append((mark_ambush(), f"resisted Ambush: gain X−{p.ambush_reward} Humility"))
    return out


# ------------------------------------------------------------------------------------ card styles
#: kind -> (main colour, dark, light)
KIND_COLOURS: dict[str, tuple[str, str, str]] = {
    "maturity": ("#6b46c1", "#3f2a78", "#e6dcfa"),
    "resistance": ("#2b6cb0", "#1a3d66", "#d8e8f7"),
    "righteous_habitual": ("#2f855a", "#1b4d34", "#d7efe0"),
    "action": ("#c05621", "#7a3210", "#fbe3cf"),
    "instant": ("#0e7c86", "#0a4b52", "#d2eff2"),
    "temptation": ("#b83232", "#6b1a1a", "#f8d9d9"),
    "evil_habitual": ("#5d2249", "#300f25", "#ecd7e4"),
}
KIND_LABELS: dict[str, str] = {
    "maturity": "Maturity", "resistance": "Resistance", "righteous_habitual": "Righteous Habitual",
    "action": "Action", "instant": "Instant", "temptation": "Temptation", "evil_habitual": "Evil Habitual",
}
#: side -> (frame light, frame dark, frame edge, panel, boost band)
SIDE_STYLE: dict[str, tuple[str, str, str, str, str]] = {
    "righteous": ("#ecd48f", "#b38a2e", "#6e5214", "#fbf7ec", "#f3e9d2"),
    "evil": ("#4a3038", "#17090e", "#050203", "#f5eeea", "#ecdfdb"),
}


def _kind_style(kind: str) -> tuple[str, str, str]:
    return KIND_COLOURS.get(kind, ("#4a5568", "#2d3748", "#e2e8f0"))


def kind_line(card: CardDef) -> str:
    """The kind line: "Temptation — Ambush", "Righteous Habitual" ..."""
    label = KIND_LABELS.get(card.kind, card.kind.replace("_", " ").title())
    extra = [s.replace("_", " ").title() for s in card.subtypes]
    return " — ".join([label, *extra])


def _star(cx: float, cy: float, outer: float, inner: float, points: int, rot: float = -90) -> str:
    pts = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        a = math.radians(rot + i * 180 / points)
        pts.append(f"{num(cx + r * math.cos(a))},{num(cy + r * math.sin(a))}")
    return "M" + " L".join(pts) + " Z"


def _emblem(kind: str) -> str:
    """A simple picture for the kind, drawn in a 200 x 200 box (white, laid over the art)."""
    w = 'fill="#fff"'
    if kind == "maturity":           # three steps up (L1, L2, L3) and a star
        return (f'<rect x="28" y="128" width="44" height="46" rx="4" {w} opacity=".55"/>'
                f'<rect x="78" y="96" width="44" height="78" rx="4" {w} opacity=".75"/>'
                f'<rect x="128" y="64" width="44" height="110" rx="4" {w}/>'
                f'<path d="{_star(150, 30, 20, 8.5, 5)}" {w}/>')
    if kind == "resistance":         # a shield with a cross
        return ('<path d="M100 16 L168 40 V92 C168 140 138 168 100 186 C62 168 32 140 32 92 V40 Z" fill="#fff"/>'
                '<path d="M100 50 V150 M68 88 H132" stroke="currentColor" stroke-width="16" stroke-linecap="round"/>')
    if kind == "righteous_habitual":  # an anchor (Hebrews 6:19)
        return ('<g fill="none" stroke="#fff" stroke-width="13" stroke-linecap="round" stroke-linejoin="round">'
                '<circle cx="100" cy="36" r="15"/><path d="M100 51 V176 M66 78 H134"/>'
                '<path d="M40 126 Q52 176 100 176 Q148 176 160 126"/>'
                '<path d="M28 138 L40 122 L56 136 M172 138 L160 122 L144 136"/></g>')
    if kind == "action":              # a flame
        return ('<path d="M100 14 C132 52 166 84 158 128 C151 164 126 184 100 186 C74 184 49 164 42 128 '
                'C38 100 56 78 74 58 C76 84 86 98 98 104 C92 74 92 44 100 14 Z" fill="#fff"/>'
                '<path d="M100 100 C114 120 126 136 120 156 C116 170 108 176 100 176 C92 176 84 170 80 156 '
                'C76 140 88 126 100 100 Z" fill="currentColor" opacity=".55"/>')
    if kind == "instant":             # a burst of light
        return (f'<path d="{_star(100, 100, 90, 30, 8, -90)}" fill="#fff"/>'
                '<circle cx="100" cy="100" r="30" fill="currentColor" opacity=".35"/>'
                '<circle cx="100" cy="100" r="18" fill="#fff"/>')
    if kind == "temptation":          # the fruit, with its leaf
        return ('<path d="M100 60 C80 36 30 40 30 96 C30 146 64 186 100 172 C136 186 170 146 170 96 '
                'C170 40 120 36 100 60 Z" fill="#fff"/>'
                '<path d="M100 62 C100 42 104 30 114 18" fill="none" stroke="#fff" stroke-width="8" '
                'stroke-linecap="round"/>'
                '<path d="M108 40 C118 16 146 12 160 20 C150 42 128 48 108 40 Z" fill="#fff" opacity=".8"/>'
                '<path d="M56 92 C58 74 70 66 82 66" fill="none" stroke="currentColor" stroke-width="8" '
                'stroke-linecap="round" opacity=".45"/>')
    if kind == "evil_habitual":       # chains
        return ('<g fill="none" stroke="#fff" stroke-width="14" transform="rotate(-32 100 100)">'
                '<rect x="6" y="76" width="78" height="48" rx="24"/>'
                '<rect x="61" y="76" width="78" height="48" rx="24" opacity=".8"/>'
                '<rect x="116" y="76" width="78" height="48" rx="24"/></g>')
    return f'<circle cx="100" cy="100" r="60" {w}/>'


# ------------------------------------------------------------------------------------------ cards
def _defs(card: CardDef) -> str:
    """Gradients; ids are named after what they draw, so the same id always means the same paint
    (several cards inlined in one HTML page share them safely)."""
    main, dark, _ = _kind_style(card.kind)
    side = card.side if card.side in SIDE_STYLE else "righteous"
    f_light, f_dark, _, _, _ = SIDE_STYLE[side]
    k = re.sub(r"[^a-z0-9_-]", "", card.kind) or "card"
    glow = "#fff6d8" if side == "righteous" else "#f3c9c9"
    return (
        "<defs>"
        f'<linearGradient id="cg-frame-{side}" x1="0" y1="0" x2="1" y2="1">'
        f'<stop offset="0" stop-color="{f_light}"/><stop offset=".55" stop-color="{f_dark}"/>'
        f'<stop offset="1" stop-color="{f_light}"/></linearGradient>'
        f'<linearGradient id="cg-banner-{k}" x1="0" y1="0" x2="0" y2="1">'
        f'<stop offset="0" stop-color="{main}"/><stop offset="1" stop-color="{dark}"/></linearGradient>'
        f'<radialGradient id="cg-art-{k}-{side}" cx=".5" cy=".42" r=".75">'
        f'<stop offset="0" stop-color="{glow}"/><stop offset=".45" stop-color="{main}"/>'
        f'<stop offset="1" stop-color="{dark}"/></radialGradient>'
        "</defs>"
    )


def _row_of_marks(marks: Sequence[str], cx: float, y: float, scale: float, gap: float) -> tuple[str, float]:
    widths = [getattr(m, "width", 48) * scale for m in marks]
    total = sum(widths) + gap * (len(marks) - 1)
    x = cx - total / 2
    out = []
    for m, w in zip(marks, widths):
        out.append(place(m, x, y, scale))
        x += w + gap
    return "".join(out), total


def card_svg(card: CardDef, *, width: float = 250, righteous: int | None = None, fee: int = 1) -> str:
    """A complete standalone SVG picture of ``card`` (63 x 88), ``width`` pixels wide.

    ``righteous``: the number of Righteous seats at the table, when the picture is for one. With
    one, the texts read as that seat plays the card (P-7, render/table_words.py): a teammate is
    "you", a card or boost that needs one says it costs the target-change fee ``fee`` more, and a
    boost a teammate pays shows the "you" glyph. Otherwise the card as printed.

    Frame by side, banner and art by kind; the cost mark top left, the resistance mark top right on
    threats; the name; the badges of the marks its effects use; the kind line; the rules text;
    a Habitual's standing effects; one row per boost (fast bolt, payer glyph, cost, words); the
    scripture reference. Every mark is drawn by the mark functions of this module.
    """
    W, H = CARD_W, CARD_H
    main, dark, _ = _kind_style(card.kind)
    side = card.side if card.side in SIDE_STYLE else "righteous"
    _, _, f_edge, panel, band = SIDE_STYLE[side]
    k = re.sub(r"[^a-z0-9_-]", "", card.kind) or "card"
    parts: list[str] = []
    height = width * H / W
    label = f"{card.name} ({kind_line(card)}, C{card.cost}{card.marks_suffix().replace(' ', ', ')})"
    parts.append(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}" height="{num(height)}" '
        f'viewBox="0 0 {W} {H}" role="img" aria-label={xml_attr(label)} class="card card-{k} side-{side}" '
        f'data-card-id={xml_attr(card.id)}>'
        f"<title>{xml_text(card.name)}</title>" + _defs(card))

    # frame and panel
    parts.append(
        f'<rect x="2" y="2" width="{W - 4}" height="{H - 4}" rx="34" fill="url(#cg-frame-{side})" '
        f'stroke="{f_edge}" stroke-width="4"/>'
        f'<rect x="20" y="20" width="{W - 40}" height="{H - 40}" rx="22" fill="{panel}" stroke="{dark}" '
        'stroke-width="3"/>')
    if side == "evil":
        parts.append(f'<rect x="12" y="12" width="{W - 24}" height="{H - 24}" rx="28" fill="none" '
                     'stroke="#8c1c2b" stroke-width="2" opacity=".9"/>')

    # banner with the name; cost top left, resistance top right
    banner_y, banner_h = 32, 100
    parts.append(f'<rect x="32" y="{banner_y}" width="{W - 64}" height="{banner_h}" rx="16" '
                 f'fill="url(#cg-banner-{k})" stroke="{dark}" stroke-width="2.5"/>'
                 f'<rect x="38" y="{banner_y + 6}" width="{W - 76}" height="{banner_h - 12}" rx="12" fill="none" '
                 'stroke="#fff" stroke-width="1.5" opacity=".3"/>')
    cost_scale = 1.9
    parts.append(mark_cost(card.cost, x=24, y=banner_y + banner_h / 2 - 24 * cost_scale, scale=cost_scale))
    name_left, name_right = 24 + 48 * cost_scale + 8, float(W - 48)
    if card.is_threat:
        shown: int | str = "X" if card.x_rule is not None else (card.resistance or 0)
        res = mark_resistance(shown)
        r_scale = 1.9
        rx = W - 24 - 44 * r_scale
        parts.append(place(res, rx, banner_y + banner_h / 2 - 24 * r_scale, r_scale))
        name_right = rx - 8
    # the name, centred in the free band between the marks
    size, lines = fit_title(card.name, name_right - name_left)
    cx = (name_left + name_right) / 2
    lh = size * 1.08
    top = banner_y + banner_h / 2 - (len(lines) * lh) / 2 + size * 0.78
    for i, line in enumerate(lines):
        for dy, fill, extra in ((2.2, "#000", ' opacity=".35"'), (0, "#fff", "")):
            parts.append(f'<text x="{num(cx + dy * 0.6)}" y="{num(top + i * lh + dy)}" text-anchor="middle" '
                         f'font-family="{SERIF}" font-weight="bold" font-size="{num(size)}" '
                         f'fill="{fill}"{extra}>{xml_text(line)}</text>')

    # the bottom: scripture, then boost rows above it
    scripture_y = H - 44
    if card.scripture:
        parts.append(f'<text x="{W / 2}" y="{scripture_y + 8}" text-anchor="middle" font-family="{SERIF}" '
                     f'font-style="italic" font-size="23" fill="{dark}">{xml_text(card.scripture)}</text>')
        sw = text_width(card.scripture, 23, serif=True) / 2 + 18
        for sgn in (-1, 1):
            x0 = W / 2 + sgn * sw
            parts.append(f'<path d="M{num(x0)} {scripture_y} H{num(x0 + sgn * 60)}" stroke="{dark}" '
                         'stroke-width="1.5" opacity=".5"/>'
                         f'<circle cx="{num(x0 + sgn * 66)}" cy="{scripture_y}" r="3" fill="{dark}" opacity=".5"/>')
    lone = righteous is not None and alone(righteous)
    text = card_text(card.text, 1, fee, needs_mate=card.aims_at_mate) if lone else card.text
    boost_svg, boosts_top = _boost_rows(card, H - 78, band, main, fee if lone else None)

    # the text box: rules text and standing effects; the art shrinks when the text needs room
    passives = passive_lines(card) if card.is_habitual else []
    text_w = W - 96
    p_scale, p_line_h = 1.0, 56
    passive_h = len(passives) * p_line_h + 44 if passives else 0
    art_top, art_max_bottom, art_min_bottom = 146, 460, 300
    ribbon_h = 44
    text_top_gap = ribbon_h + 16          # from the art's bottom to the text box
    text_bottom = boosts_top - 6
    tsize, tlines, art_bottom = 18.0, wrap(text, 18, text_w), float(art_min_bottom)
    for size in (32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18):
        lines = wrap(text, size, text_w)
        need = len(lines) * size * 1.3 + passive_h + 36
        bottom = min(art_max_bottom, text_bottom - need - text_top_gap)
        if bottom >= art_min_bottom and widest_line(lines, size) <= text_w:
            tsize, tlines, art_bottom = size, lines, bottom
            break

    # art: gradient, emblem, and the badges of the marks the card's effects use
    art_h = art_bottom - art_top
    parts.append(f'<rect x="40" y="{art_top}" width="{W - 80}" height="{num(art_h)}" rx="12" '
                 f'fill="url(#cg-art-{k}-{side})" stroke="{dark}" stroke-width="2.5"/>')
    badges = card_marks(card)
    b_scale = 1.2
    strip_h = 48 * b_scale + 16 if badges else 0
    em_size = min(art_h - strip_h - 24, 210)
    em_scale = em_size / 200
    em_x = W / 2 - 100 * em_scale
    em_y = art_top + 12 + (art_h - strip_h - 24 - em_size) / 2
    parts.append(f'<g transform="translate({num(em_x)} {num(em_y)}) scale({num(em_scale)})" '
                 f'color="{dark}" opacity=".85">{_emblem(card.kind)}</g>')
    if badges:
        by = art_bottom - 10 - 48 * b_scale
        row, total = _row_of_marks(badges, W / 2, by, b_scale, 12)
        parts.append(f'<rect x="{num(W / 2 - total / 2 - 14)}" y="{num(by - 6)}" '
                     f'width="{num(total + 28)}" height="{num(48 * b_scale + 12)}" rx="{num(24 * b_scale + 6)}" '
                     f'fill="#fff" fill-opacity=".8" stroke="{dark}" stroke-width="1.5" stroke-opacity=".6"/>')
        parts.append(f'<g class="badges">{row}</g>')

    # kind ribbon
    ry = art_bottom + 8
    kl = kind_line(card).upper()
    ksize = 20
    kw = text_width(kl, ksize, bold=True) + len(kl) * 2.2
    parts.append(f'<rect x="{num(W / 2 - kw / 2 - 26)}" y="{num(ry)}" width="{num(kw + 52)}" '
                 f'height="{ribbon_h - 8}" rx="18" fill="{main}" stroke="{dark}" stroke-width="2"/>'
                 f'<text x="{W / 2}" y="{num(ry + 25)}" text-anchor="middle" font-family="{SANS}" '
                 f'font-weight="bold" font-size="{ksize}" letter-spacing="2.2" fill="#fff">{xml_text(kl)}</text>')
    for sgn in (-1, 1):
        x0 = W / 2 + sgn * (kw / 2 + 34)
        parts.append(f'<path d="M{num(x0)} {num(ry + 18)} H{num(W / 2 + sgn * (W / 2 - 52))}" '
                     f'stroke="{main}" stroke-width="2" opacity=".6"/>')

    # rules text, centred in the room left between the ribbon and the boosts
    box_top = art_bottom + text_top_gap
    lh = tsize * 1.3
    body_h = len(tlines) * lh + passive_h
    y0 = box_top + max(0.0, (text_bottom - box_top - body_h) / 2)
    parts.append(f'<g class="rules">{text_block(tlines, W / 2, y0 + tsize * 0.95, tsize, lh, anchor="middle")}</g>')
    if passives:
        py = y0 + len(tlines) * lh + 18
        head = "WHILE IT HOLDS" if card.is_threat else "WHILE ATTACHED"
        hw = text_width(head, 17, bold=True) + 17 * 1.5 + 24
        parts.append(f'<path d="M70 {num(py)} H{num(W / 2 - hw / 2)} M{num(W / 2 + hw / 2)} {num(py)} '
                     f'H{W - 70}" stroke="{main}" stroke-width="1.5" opacity=".7"/>'
                     f'<text x="{W / 2}" y="{num(py + 5.5)}" text-anchor="middle" font-family="{SANS}" '
                     f'font-weight="bold" font-size="17" letter-spacing="1.5" fill="{main}">{head}</text>')
        py += 20
        for mark, words in passives:
            mw = getattr(mark, "width", 48) * p_scale
            psize = 25.0
            while psize > 15 and mw + 12 + text_width(words, psize) > text_w:
                psize -= 1
            x0 = W / 2 - (mw + 12 + text_width(words, psize)) / 2
            mid = py + p_line_h / 2
            parts.append(f'<g class="passive">{place(mark, x0, mid - 24 * p_scale, p_scale)}'
                         f'<text x="{num(x0 + mw + 12)}" y="{num(mid + psize * 0.36)}" font-family="{SANS}" '
                         f'font-size="{num(psize)}" fill="{INK}">{xml_text(words)}</text></g>')
            py += p_line_h
    parts.extend(boost_svg)
    parts.append("</svg>")
    return "".join(parts)


def _boost_rows(card: CardDef, bottom: float, band: str, edge: str,
                lone_fee: int | None = None) -> tuple[list[str], float]:
    """One row per boost, stacked up from ``bottom``: [bolt] payer glyph, cost, words.

    ``lone_fee``: the table has one Righteous seat and this target-change fee (P-7): the words read
    as that seat pays, and a boost a teammate pays shows the "you" glyph.

    The bolt comes before the payer glyph (the fast mark, P-5); its slot stays empty on a boost
    without one, so the glyphs line up. Returns the rows (top to bottom) and the top of the first.
    """
    W = CARD_W
    g = 1.15                                   # the marks of a boost row, a little larger than drawn
    bx0, bx1 = 36, W - 36
    text_x = bx0 + 12 + (30 + 6 + 48 + 6 + 48) * g + 14
    rows: list[str] = []
    y = bottom
    for b in reversed(card.boosts):
        words = boost_words(b.text) or "(boost)"
        if lone_fee is not None:
            words = boost_text(words, b.payer, 1, lone_fee, needs_mate=b.needs_mate)
        op_badges = op_marks(b.effects)          # what the boost does, at the row's end
        o = 0.9
        badges_w = sum(getattr(m, "width", 48) * o + 6 for m in op_badges)
        avail = bx1 - 12 - badges_w - 8 - text_x
        bsize, blines = 17.0, wrap(words, 17, avail)
        tries = [(size, 2) for size in (25, 24, 23, 22, 21, 20)] + [(size, 3) for size in (22, 21, 20, 19, 18, 17)]
        for size, most in tries:
            lines = wrap(words, size, avail)
            if len(lines) <= most and widest_line(lines, size) <= avail:
                bsize, blines = size, lines
                break
        row_h = max(48 * g + 18, len(blines) * bsize * 1.2 + 22)
        y -= row_h
        mid = y + row_h / 2
        gy = mid - 24 * g
        gx = float(bx0 + 12)
        row = [f'<g class="boost" data-payer={xml_attr(b.payer)} data-cost="{b.cost}" data-fast="{int(b.fast)}">',
               f'<rect x="{bx0}" y="{num(y + 3)}" width="{bx1 - bx0}" height="{num(row_h - 6)}" rx="14" '
               f'fill="{band}" stroke="{edge}" stroke-width="1.5" stroke-opacity=".55"/>']
        if b.fast:
            row.append(mark_fast(x=gx, y=gy, scale=g))
        gx += (30 + 6) * g
        row.append(mark_payer("you" if lone_fee is not None and b.payer == "teammate" else b.payer,
                              x=gx, y=gy, scale=g))
        gx += (48 + 6) * g
        row.append(mark_cost(b.cost, x=gx, y=gy, scale=g))
        tl = bsize * 1.2
        ty = mid - (len(blines) - 1) * tl / 2 + bsize * 0.36
        row.append(text_block(blines, text_x, ty, bsize, tl))
        ox = bx1 - 12 - badges_w + 6
        for m in op_badges:
            row.append(place(m, ox, mid - 24 * o, o))
            ox += getattr(m, "width", 48) * o + 6
        row.append("</g>")
        rows.append("".join(row))
        y -= 4
    rows.reverse()
    return rows, (y + 4 if card.boosts else bottom + 8)


def card_back_svg(*, width: float = 250, side: str | None = None) -> str:
    """The back of a card (for hidden cards): the same for every card of a side (or for all)."""
    W, H = CARD_W, CARD_H
    height = width * H / W
    if side == "evil":
        bg0, bg1, gold, edge, sid = "#3a1020", "#12060a", "#c9a3a8", "#050203", "evil"
    else:
        bg0, bg1, gold, edge, sid = "#233463", "#0c1430", "#e3c270", "#3d2e0b", "righteous" if side else "any"
    cx, cy = W / 2, H / 2
    lattice = "".join(
        f'<path d="M{x} 40 L{x + 800} 840 M{x} 840 L{x + 800} 40" />' for x in range(-760, 630, 56))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}" height="{num(height)}" '
        f'viewBox="0 0 {W} {H}" role="img" aria-label="A hidden card" class="card-back side-{sid}">'
        "<title>A hidden card</title><defs>"
        f'<radialGradient id="cg-back-{sid}" cx=".5" cy=".5" r=".7"><stop offset="0" stop-color="{bg0}"/>'
        f'<stop offset="1" stop-color="{bg1}"/></radialGradient>'
        f'<clipPath id="cg-back-clip"><rect x="40" y="40" width="{W - 80}" height="{H - 80}" rx="16"/></clipPath>'
        "</defs>"
        f'<rect x="2" y="2" width="{W - 4}" height="{H - 4}" rx="34" fill="url(#cg-back-{sid})" stroke="{edge}" '
        'stroke-width="4"/>'
        f'<rect x="22" y="22" width="{W - 44}" height="{H - 44}" rx="24" fill="none" stroke="{gold}" stroke-width="4"/>'
        f'<rect x="40" y="40" width="{W - 80}" height="{H - 80}" rx="16" fill="none" stroke="{gold}" '
        'stroke-width="1.5" opacity=".7"/>'
        f'<g clip-path="url(#cg-back-clip)" stroke="{gold}" stroke-width="1.2" opacity=".22" fill="none">{lattice}</g>'
        f'<circle cx="{cx}" cy="{cy}" r="150" fill="{bg1}" stroke="{gold}" stroke-width="5"/>'
        f'<circle cx="{cx}" cy="{cy}" r="136" fill="none" stroke="{gold}" stroke-width="1.5" opacity=".7"/>'
        f'<path d="{_star(cx, cy, 128, 112, 16, -90)}" fill="{gold}" opacity=".12"/>'
        f'<path d="M{cx - 14} {cy - 96} H{cx + 14} V{cy - 38} H{cx + 52} V{cy - 10} H{cx + 14} V{cy + 100} '
        f'H{cx - 14} V{cy - 10} H{cx - 52} V{cy - 38} H{cx - 14} Z" fill="{gold}"/>'
        f'<text x="{cx}" y="118" text-anchor="middle" font-family="{SERIF}" font-weight="bold" font-size="40" '
        f'letter-spacing="6" fill="{gold}">CHRISTIANITY</text>'
        f'<text x="{cx}" y="{H - 96}" text-anchor="middle" font-family="{SERIF}" font-size="24" letter-spacing="5" '
        f'fill="{gold}">STRATEGY CARD GAME</text>'
        "</svg>")
