"""Card pictures as SVG: the marks, the cards, the card back and the marks legend (G-5, M-3).

Pure functions, standard library only: every function takes card data (or a mark's value) and
returns SVG text. Nothing here reads or writes files (:mod:`~christianity_game.render.samples`, run
by hand, writes the samples of ``docs/cards/``).

**One drawing of each mark.** Every mark a card can carry is drawn by one small function
(:func:`mark_cost`, :func:`mark_resistance`, :func:`mark_rotate`, :func:`mark_humility`,
:func:`mark_payer`, :func:`mark_fast`, and the keyword badges :func:`mark_keyword` /
:func:`mark_search` ...). A mark is a :class:`Mark`: the SVG text of one ``<g>`` drawn in its own
box (48 units tall, origin top left), with its ``width`` and ``height``. :func:`place` positions a
mark with a transform, and the card and the legend both embed the mark's text unchanged: the
legend of marks (:func:`legend_entries`, :func:`legend_svg`) is drawn by the very functions that
print the cards, so it cannot fall out of date with them (001/000 "The Marks on a Card").

Cards are drawn in a 630 x 880 box (a 63 x 88 mm playing card at 10 units a millimetre) and scaled
to the ``width`` asked for. Text is wrapped and sized with the advance widths of the DejaVu fonts,
the widest of the fonts the SVG names, so it fits in any of them.
"""

from __future__ import annotations

import math
import re
from typing import Iterable, Iterator, Sequence
from xml.sax.saxutils import escape, quoteattr

from ..cards.effect_ops import EFFECT_OP, EFFECT_OP_LIST, EffectOp
from ..cards.model import CardDef, Effect, Passive
from .table_words import alone, boost_text, card_text

__all__ = [
    "CARD_H", "CARD_W", "KEYWORDS", "Mark", "card_back_svg", "card_marks", "card_svg", "legend_entries",
    "legend_svg", "mark_ambush", "mark_amplify", "mark_attach", "mark_conditional", "mark_cost", "mark_cost_zone",
    "mark_discard", "mark_draw", "mark_fast", "mark_flip", "mark_humility", "mark_keyword", "mark_payer",
    "mark_redirect", "mark_resistance", "mark_reveal", "mark_rotate", "mark_search", "mark_untap", "op_marks",
    "passive_lines", "place", "text_width",
]

CARD_W, CARD_H = 630, 880          # 63 x 88 mm at 10 units a millimetre
MARK_H = 48                         # every mark is drawn 48 units tall

SANS = "'DejaVu Sans', Verdana, 'Segoe UI', sans-serif"
SERIF = "Georgia, 'DejaVu Serif', 'Times New Roman', serif"
INK = "#221c15"

# ------------------------------------------------------------------------------------ text metrics
# Advance widths (thousandths of an em) of the printable ASCII characters, then − — – ’ ‘ “ ” · …,
# read from the DejaVu fonts (the widest of the families named above).
_METRIC_CHARS = "".join(chr(c) for c in range(32, 127)) + "−—–’‘“”·…"
_METRICS: dict[str, tuple[int, ...]] = {
    "sans": (318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838, 838, 1000, 500, 318, 318, 518, 518, 318, 1000),  # noqa: E501
    "sans_bold": (348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838, 838, 1000, 500, 380, 380, 657, 657, 380, 1000),  # noqa: E501
    "serif": (318, 402, 460, 838, 636, 950, 890, 275, 390, 390, 500, 838, 318, 338, 318, 337, 636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 536, 1000, 722, 735, 765, 802, 730, 694, 799, 872, 395, 401, 747, 664, 1024, 875, 820, 673, 820, 753, 685, 667, 843, 722, 1028, 712, 660, 695, 390, 337, 390, 838, 500, 500, 596, 640, 560, 640, 592, 370, 640, 644, 320, 310, 606, 320, 948, 644, 602, 640, 640, 478, 513, 402, 644, 565, 856, 564, 565, 527, 636, 337, 636, 838, 838, 1000, 500, 318, 318, 511, 511, 318, 1000),  # noqa: E501
    "serif_bold": (348, 439, 521, 838, 696, 950, 903, 306, 473, 473, 523, 838, 348, 415, 348, 365, 696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 369, 369, 838, 838, 838, 586, 1000, 776, 845, 796, 867, 762, 710, 854, 945, 468, 473, 869, 703, 1107, 914, 871, 752, 871, 831, 722, 744, 872, 776, 1123, 776, 714, 730, 473, 365, 473, 838, 500, 500, 648, 699, 609, 699, 636, 430, 699, 727, 380, 362, 693, 380, 1058, 727, 667, 699, 699, 527, 563, 462, 727, 581, 861, 596, 581, 568, 643, 364, 643, 838, 838, 1000, 500, 348, 348, 575, 575, 348, 1000),  # noqa: E501
}
_WIDTHS: dict[str, dict[str, float]] = {
    face: {ch: w / 1000 for ch, w in zip(_METRIC_CHARS, table)} for face, table in _METRICS.items()
}


def text_width(text: str, size: float, *, bold: bool = False, serif: bool = False) -> float:
    """How wide ``text`` is at font size ``size`` (DejaVu advance widths; unknown characters: 1 em)."""
    table = _WIDTHS[("serif" if serif else "sans") + ("_bold" if bold else "")]
    return sum(table.get(ch, 1.0) for ch in text) * size


def _num(v: float) -> str:
    """A coordinate, short: 12, 12.5, 12.25."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _t(text: str) -> str:
    """Text content, XML-escaped."""
    return escape(text)


def _a(value: object) -> str:
    """An attribute value, quoted and escaped."""
    return quoteattr(str(value))


# ------------------------------------------------------------------------------------------ marks
class Mark(str):
    """The SVG text of one mark (a ``<g>``), drawn in its own box from (0, 0); knows its size.

    A ``str``: it compares equal to its text and can be embedded anywhere. ``key`` names the mark
    (``cost``, ``payer``, ``search`` ...), ``value`` what it shows (``2``, ``X``, ``you`` ...).
    """

    width: float
    height: float
    key: str
    value: str

    def __new__(cls, svg: str, *, key: str, width: float, height: float = MARK_H, value: str = "") -> "Mark":
        obj = super().__new__(cls, svg)
        obj.width, obj.height, obj.key, obj.value = width, height, key, value
        return obj


def place(mark: str, x: float, y: float, scale: float = 1.0) -> str:
    """Position a mark: ``mark`` unchanged inside a ``<g>`` with a translate (and scale) transform."""
    scaled = "" if scale == 1 else f" scale({_num(scale)})"
    return f'<g transform="translate({_num(x)} {_num(y)}){scaled}">{mark}</g>'


def _pos(mark: Mark, x: float | None, y: float | None, scale: float) -> str:
    if x is None and y is None and scale == 1:
        return mark
    return place(mark, x or 0.0, y or 0.0, scale)


def _mark(key: str, body: str, width: float, title: str, value: object = "") -> Mark:
    val = "" if value == "" else f" data-value={_a(value)}"
    svg = (f'<g class="mark mark-{key}" data-mark="{key}"{val}>'
           f"<title>{_t(title)}</title>{body}</g>")
    return Mark(svg, key=key, width=width, value=str(value))


def _stroke(width: float = 3) -> str:
    """White line art for the badges' icons."""
    return (f'fill="none" stroke="#fff" stroke-width="{_num(width)}" stroke-linecap="round" '
            'stroke-linejoin="round"')


_STROKE = _stroke()


def _label(x: float, y: float, parts: Sequence[tuple[str, float]], fill: str, *, anchor: str = "middle") -> str:
    """Bold text made of (text, size) runs, e.g. a small "C" then a large "2"."""
    runs = "".join(f'<tspan font-size="{_num(size)}">{_t(text)}</tspan>' for text, size in parts)
    return (f'<text x="{_num(x)}" y="{_num(y)}" text-anchor="{anchor}" font-family="{SANS}" '
            f'font-weight="bold" fill="{fill}">{runs}</text>')


def _fit_runs(parts: Sequence[tuple[str, float]], max_w: float) -> list[tuple[str, float]]:
    w = sum(text_width(t, s, bold=True) for t, s in parts)
    k = min(1.0, max_w / w) if w else 1.0
    return [(t, s * k) for t, s in parts]


def mark_cost(n: int, *, x: float | None = None, y: float | None = None, scale: float = 1.0) -> str:
    """``C<n>``: the card's cost, a gold coin (rotate n Cost Zone cards to pay)."""
    runs = _fit_runs([("C", 15), (str(n), 22)], 36)
    body = ('<circle cx="24" cy="24" r="22.5" fill="#e9bf4c" stroke="#5e4310" stroke-width="2.5"/>'
            '<circle cx="24" cy="24" r="18" fill="none" stroke="#fbe7a6" stroke-width="1.6"/>'
            + _label(24, 31.5, runs, "#3a2905"))
    return _pos(_mark("cost", body, 48, f"Cost C{n}: rotate {n} Cost Zone card{'s' if n != 1 else ''} to play",
                      n), x, y, scale)


def mark_resistance(n: int | str, *, x: float | None = None, y: float | None = None, scale: float = 1.0) -> str:
    """``R<n>`` or ``RX``: what resisting a threat takes, a dark red shield."""
    shown = "X" if str(n).upper() == "X" else str(int(n))
    runs = _fit_runs([("R", 13), (shown, 20)], 30)
    body = ('<path d="M22 1.5 L41.5 7.5 V22 C41.5 35 32.5 42.5 22 46.5 C11.5 42.5 2.5 35 2.5 22 V7.5 Z" '
            'fill="#8c1c2b" stroke="#3b0910" stroke-width="2.5" stroke-linejoin="round"/>'
            '<path d="M22 6 L37.5 10.8 V22 C37.5 32.5 30.5 38.5 22 42 C13.5 38.5 6.5 32.5 6.5 22 V10.8 Z" '
            'fill="none" stroke="#e8a0a8" stroke-width="1.3" opacity=".8"/>'
            + _label(22, 29.5, runs, "#fff"))
    meaning = ("Resistance RX: X is set by the card's text" if shown == "X"
               else f"Resistance R{shown}: resisting this threat takes {shown}")
    return _pos(_mark("resistance", body, 44, meaning, shown), x, y, scale)


def mark_humility(delta: int, *, x: float | None = None, y: float | None = None, scale: float = 1.0) -> str:
    """``H+<n>`` / ``H-<n>`` (``H0`` for zero): a Humility change, green for a gain, red for a loss."""
    sign = "+" if delta > 0 else ("−" if delta < 0 else "")
    shown = f"{sign}{abs(delta)}"
    width = 30 + text_width(shown, 19, bold=True) + 10
    fill, edge = (("#2f7d4a", "#17452a") if delta > 0 else ("#b02a37", "#5a0f18") if delta < 0
                  else ("#6b6f76", "#33363b"))
    body = (f'<rect x="1.25" y="6.5" width="{_num(width - 2.5)}" height="35" rx="17.5" fill="{fill}" '
            f'stroke="{edge}" stroke-width="2.5"/>'
            f'<rect x="4.5" y="9.75" width="{_num(width - 9)}" height="28.5" rx="14.25" fill="none" '
            'stroke="#fff" stroke-width="1.1" opacity=".45"/>'
            + _label(width / 2, 31, [("H", 14), (shown, 19)], "#fff"))
    ascii_value = f"{delta:+d}" if delta else "0"
    title = (f"Humility H{ascii_value}: gain {delta}" if delta > 0 else
             f"Humility H{ascii_value}: lose {-delta}" if delta < 0 else "Humility H0: at 0 (overflow)")
    return _pos(_mark("humility", body, width, title, ascii_value), x, y, scale)


def _figure(cx: float, top: float, s: float, fill: str, extra: str = "") -> str:
    """A person: a head and shoulders, ``30 * s`` tall from ``top``."""
    return (f'<circle cx="{_num(cx)}" cy="{_num(top + 6.5 * s)}" r="{_num(6.5 * s)}" fill="{fill}"{extra}/>'
            f'<path d="M{_num(cx - 11 * s)} {_num(top + 30 * s)} a{_num(11 * s)} {_num(11.5 * s)} 0 0 1 '
            f'{_num(22 * s)} 0 Z" fill="{fill}"{extra}/>')


PAYER_COLOURS = {"you": "#2b6cb0", "teammate": "#2f855a", "any": "#b7791f"}
PAYER_TEXT = {"you": "you", "teammate": "a teammate", "any": "any Righteous player"}


def mark_payer(glyph: str, *, x: float | None = None, y: float | None = None, scale: float = 1.0) -> str:
    """A boost's payer glyph: ``you`` (one figure), ``teammate`` (the figure beside you), ``any`` (a group)."""
    if glyph not in PAYER_COLOURS:
        raise ValueError(f"unknown payer glyph {glyph!r}: expected you, teammate or any")
    col = PAYER_COLOURS[glyph]
    frame = (f'<rect x="1.5" y="1.5" width="45" height="45" rx="10" fill="#fffdf7" stroke="{col}" '
             'stroke-width="3"/>')
    if glyph == "you":
        people = _figure(24, 8, 1.1, col)
    elif glyph == "teammate":
        people = (_figure(16, 14, 0.82, "none", f' stroke="{col}" stroke-width="2" opacity=".75"')
                  + _figure(30.5, 9, 1.0, col))
    else:
        people = (_figure(13.5, 13, 0.72, col, ' opacity=".7"') + _figure(34.5, 13, 0.72, col, ' opacity=".7"')
                  + _figure(24, 9, 0.95, col, ' stroke="#fffdf7" stroke-width="1.5"'))
    body = frame + people
    return _pos(_mark("payer", body, 48, f"Boost payer: {PAYER_TEXT[glyph]} may pay", glyph), x, y, scale)


def mark_fast(*, x: float | None = None, y: float | None = None, scale: float = 1.0) -> str:
    """The fast mark: a bolt before a boost's glyph (the boost is taken before the card's action)."""
    body = ('<path d="M20 1.5 L4 27.5 H13.5 L9.5 46.5 L26.5 18.5 H16.8 L21.5 1.5 Z" fill="#f7c531" '
            'stroke="#6d4700" stroke-width="2.2" stroke-linejoin="round"/>'
            '<path d="M18 7 L8.5 24" stroke="#fff5c2" stroke-width="1.6" stroke-linecap="round" opacity=".9"/>')
    return _pos(_mark("fast", body, 30, "Fast mark: this boost is taken before the card's own action"),
                x, y, scale)


def _arc_arrow(cx: float, cy: float, r: float, a0: float, a1: float, head: float = 5.5, width: float = 3) -> str:
    """An arc from angle ``a0`` to ``a1`` (degrees, clockwise on screen when a1 > a0), arrowhead at a1."""
    p0 = (cx + r * math.cos(math.radians(a0)), cy + r * math.sin(math.radians(a0)))
    p1 = (cx + r * math.cos(math.radians(a1)), cy + r * math.sin(math.radians(a1)))
    clockwise = a1 > a0
    large = 1 if abs(a1 - a0) > 180 else 0
    sweep = 1 if clockwise else 0
    # tangent at the end, in the direction of travel
    tx, ty = -math.sin(math.radians(a1)), math.cos(math.radians(a1))
    if not clockwise:
        tx, ty = -tx, -ty
    wings = []
    for turn in (150, -150):
        c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
        wx, wy = tx * c - ty * s, tx * s + ty * c
        wings.append((p1[0] + head * wx, p1[1] + head * wy))
    return (f'<path d="M{_num(p0[0])} {_num(p0[1])} A{_num(r)} {_num(r)} 0 {large} {sweep} '
            f'{_num(p1[0])} {_num(p1[1])}" fill="none" stroke="#fff" stroke-width="{_num(width)}" '
            'stroke-linecap="round"/>'
            f'<path d="M{_num(wings[0][0])} {_num(wings[0][1])} L{_num(p1[0])} {_num(p1[1])} '
            f'L{_num(wings[1][0])} {_num(wings[1][1])}" fill="none" stroke="#fff" stroke-width="{_num(width)}" '
            'stroke-linecap="round" stroke-linejoin="round"/>')


_CARD_FLOW, _ZONE, _LOGIC, _FASTOPS, _THREAT, _PASSIVE = (
    "#2c4a6e", "#7a5526", "#54407e", "#8a5a00", "#9b2c2c", "#24605f")

#: how each keyword badge is drawn: key -> (badge colour, icon drawn in the 48 box)
_DRAWINGS: dict[str, tuple[str, str]] = {
    "search": (_CARD_FLOW,
               '<circle cx="21" cy="21" r="9.5" fill="none" stroke="#fff" stroke-width="3.6"/>'
               '<path d="M28 28 L36.5 36.5" stroke="#fff" stroke-width="5.5" stroke-linecap="round"/>'),
    "reveal": (_CARD_FLOW,
               '<path d="M6.5 24 Q24 8 41.5 24 Q24 40 6.5 24 Z" ' + _STROKE + '/>'
               '<circle cx="24" cy="24" r="6.5" fill="#fff"/><circle cx="24" cy="24" r="2.6" fill="' + _CARD_FLOW
               + '"/>'),
    "draw": (_CARD_FLOW,
             '<rect x="10.5" y="17" width="16" height="22" rx="2.5" fill="none" stroke="#fff" stroke-width="2.5" '
             'opacity=".6"/>'
             '<rect x="19.5" y="8" width="17" height="23" rx="2.5" fill="' + _CARD_FLOW + '" stroke="#fff" '
             'stroke-width="2.8"/>'
             '<path d="M28 25.5 V14.5 M23.5 19 L28 14.5 L32.5 19" ' + _stroke(2.6) + '/>'),
    "discard": (_CARD_FLOW,
                '<rect x="16" y="5.5" width="16" height="22" rx="2.5" fill="none" stroke="#fff" stroke-width="2.8"/>'
                '<path d="M24 10.5 V21.5 M19.5 17 L24 21.5 L28.5 17" ' + _stroke(2.6) + '/>'
                '<path d="M9 29.5 V38.5 H39 V29.5" ' + _stroke(3.2) + '/>'),
    "conditional": (_LOGIC,
                    '<path d="M24 5.5 L42.5 24 L24 42.5 L5.5 24 Z" ' + _stroke(2.8) + '/>'
                    '<path d="M19.2 19.5 a4.9 4.9 0 1 1 7.2 4.3 c-1.5 .8 -2.4 1.7 -2.4 3.4 v.9" ' + _stroke(3)
                    + '/><circle cx="24" cy="32.8" r="2" fill="#fff"/>'),
    "attach": (_LOGIC,
               '<g transform="rotate(38 24 24)"><path d="M28.5 14 V30 a5 5 0 0 1 -10 0 V12.5 a3.4 3.4 0 0 1 6.8 0 '
               'V28.5 a1.6 1.6 0 0 1 -3.2 0 V16" ' + _stroke(2.7) + '/></g>'),
    "rotate": (_ZONE,
               '<rect x="12.5" y="24" width="23" height="15.5" rx="2.5" fill="#fff"/>'
               + _arc_arrow(24, 29, 15.5, 200, 330)),
    "untap": (_ZONE,
              '<rect x="17" y="18" width="14" height="21" rx="2.5" fill="#fff"/>'
              + _arc_arrow(24, 28, 16, 335, 205)),
    "flip": (_ZONE,
             '<rect x="14.5" y="17" width="19" height="24" rx="2.5" fill="none" stroke="#fff" stroke-width="2.6"/>'
             '<path d="M16.5 18.5 H24 V39.5 H16.5 Z" fill="#fff"/>'
             + _arc_arrow(24, 24, 14, 215, 325, head=5)),
    "cost_zone": (_ZONE,
                  '<path d="M24 5.5 V21.5 M18.5 16 L24 21.5 L29.5 16" ' + _stroke(3) + '/>'
                  '<rect x="6" y="28" width="10.5" height="12" rx="1.8" fill="#fff"/>'
                  '<rect x="18.75" y="28" width="10.5" height="12" rx="1.8" fill="#fff"/>'
                  '<rect x="31.5" y="28" width="10.5" height="12" rx="1.8" fill="#fff" opacity=".55"/>'),
    "amplify": (_FASTOPS,
                '<path d="M13 24 L24 13 L35 24 M13 35 L24 24 L35 35" ' + _stroke(3.6) + '/>'),
    "redirect": (_FASTOPS,
                 '<path d="M8.5 37 C8.5 21 15 15.5 29 15.5" ' + _STROKE + '/>'
                 '<path d="M24 10 L30 15.5 L24 21" ' + _STROKE + '/>'
                 + _figure(34, 20.5, 0.5, "#fff")),
    "ambush": (_THREAT,
               '<path d="M24 6.5 L42 38.5 H6 Z" ' + _stroke(3) + '/>'
               '<path d="M24 17.5 V28.5" stroke="#fff" stroke-width="3.6" stroke-linecap="round"/>'
               '<circle cx="24" cy="33.6" r="2.2" fill="#fff"/>'),
    "resist_discount": (_PASSIVE,
                        '<path d="M24 6.5 L37.5 11 V22 C37.5 31.5 31 37.5 24 41 C17 37.5 10.5 31.5 10.5 22 V11 Z" '
                        + _stroke(2.8) + '/>'
                        '<path d="M18 23 H30" stroke="#fff" stroke-width="3.6" stroke-linecap="round"/>'),
}

#: each badge's title: an effect op's from its declaration (cards/effect_ops.py), the others here
_TITLES: dict[str, str] = {
    **{op.keyword: op.badge for op in EFFECT_OP_LIST if op.keyword is not None},
    "ambush": "Ambush: a Temptation that lies in wait; some Righteous cards reward resisting one",
    "resist_discount": "Resistance discount: the resistance costs this player pays are lower",
}

#: the keyword badges: key -> (badge colour, title, icon drawn in the 48 box)
KEYWORDS: dict[str, tuple[str, str, str]] = {
    key: (colour, _TITLES[key], icon) for key, (colour, icon) in _DRAWINGS.items()
}


def mark_keyword(name: str, *, x: float | None = None, y: float | None = None, scale: float = 1.0) -> str:
    """A keyword badge (search, attach, reveal, draw, discard, conditional, rotate, untap, flip ...)."""
    if name not in KEYWORDS:
        raise ValueError(f"unknown keyword {name!r}: expected one of {', '.join(KEYWORDS)}")
    colour, title, icon = KEYWORDS[name]
    body = (f'<circle cx="24" cy="24" r="22.5" fill="{colour}" stroke="#11161d" stroke-width="2"/>'
            '<circle cx="24" cy="24" r="19.8" fill="none" stroke="#fff" stroke-width="1" opacity=".35"/>' + icon)
    return _pos(_mark(name, body, 48, title), x, y, scale)


def mark_rotate(*, x: float | None = None, y: float | None = None, scale: float = 1.0) -> str:
    """Rotate: turn a Cost Zone card sideways (how costs are paid; some threats rotate yours)."""
    return mark_keyword("rotate", x=x, y=y, scale=scale)


def mark_search(*, x: float | None = None, y: float | None = None, scale: float = 1.0) -> str:
    """Search: look through your deck for a card."""
    return mark_keyword("search", x=x, y=y, scale=scale)


def mark_reveal(*, x: float | None = None, y: float | None = None, scale: float = 1.0) -> str:
    """Reveal: turn the top cards of the deck face up."""
    return mark_keyword("reveal", x=x, y=y, scale=scale)


def mark_draw(*, x: float | None = None, y: float | None = None, scale: float = 1.0) -> str:
    """Draw: cards from the deck into the hand."""
    return mark_keyword("draw", x=x, y=y, scale=scale)


def mark_discard(*, x: float | None = None, y: float | None = None, scale: float = 1.0) -> str:
    """Discard: cards from the hand to the discard pile."""
    return mark_keyword("discard", x=x, y=y, scale=scale)


def mark_conditional(*, x: float | None = None, y: float | None = None, scale: float = 1.0) -> str:
    """Conditional effects: "if ...: ...; otherwise ..."."""
    return mark_keyword("conditional", x=x, y=y, scale=scale)


def mark_attach(*, x: float | None = None, y: float | None = None, scale: float = 1.0) -> str:
    """Attach: a Habitual that stays on a player."""
    return mark_keyword("attach", x=x, y=y, scale=scale)


def mark_untap(*, x: float | None = None, y: float | None = None, scale: float = 1.0) -> str:
    """Untap: rotated Cost Zone cards upright again."""
    return mark_keyword("untap", x=x, y=y, scale=scale)


def mark_flip(*, x: float | None = None, y: float | None = None, scale: float = 1.0) -> str:
    """Flip: face-down Cost Zone cards face up."""
    return mark_keyword("flip", x=x, y=y, scale=scale)


def mark_cost_zone(*, x: float | None = None, y: float | None = None, scale: float = 1.0) -> str:
    """Cost Zone: top cards of the deck into the Cost Zone."""
    return mark_keyword("cost_zone", x=x, y=y, scale=scale)


def mark_ambush(*, x: float | None = None, y: float | None = None, scale: float = 1.0) -> str:
    """Ambush: the Temptation subtype."""
    return mark_keyword("ambush", x=x, y=y, scale=scale)


def mark_amplify(*, x: float | None = None, y: float | None = None, scale: float = 1.0) -> str:
    """Amplify (fast boosts): +1 to every number on the card."""
    return mark_keyword("amplify", x=x, y=y, scale=scale)


def mark_redirect(*, x: float | None = None, y: float | None = None, scale: float = 1.0) -> str:
    """Redirect (fast boosts): the card's effects go to a teammate."""
    return mark_keyword("redirect", x=x, y=y, scale=scale)


#: effect op -> keyword badge, from the declarations (``humility`` is drawn by :func:`mark_humility`)
OP_KEYWORD: dict[str, str] = {op.name: op.keyword for op in EFFECT_OP_LIST if op.keyword is not None}


def _walk(effects: Iterable[Effect]) -> Iterator[Effect]:
    for e in effects:
        yield e
        if e.op == "if":
            yield from _walk(e.then)
            yield from _walk(e.otherwise)


def op_marks(effects: Iterable[Effect]) -> list[str]:
    """The marks of a list of effects (nested ``if`` included), each once, in order of first use."""
    out: list[str] = []
    for e in _walk(effects):
        if e.op == "humility":
            m = mark_humility(e.amount)
        elif e.op in OP_KEYWORD:
            m = mark_keyword(OP_KEYWORD[e.op])
        else:
            continue
        if m not in out:
            out.append(m)
    return out


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
        pts.append(f"{_num(cx + r * math.cos(a))},{_num(cy + r * math.sin(a))}")
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


# -------------------------------------------------------------------------------- text on the card
_TOKEN = re.compile(r"^(\(?)(H[+\-−]\d+|H0|C\d+|R\d+|RX|X-?\d*)([).,;:]*)$")


def _styled_word(word: str) -> str:
    """A word of rules text; marks written in the text (H+1, C1, R3, RX) are set in bold colour."""
    m = _TOKEN.match(word)
    if not m:
        if word in ("Ambush.", "Ambush"):
            return f'<tspan font-weight="bold">{_t(word)}</tspan>'
        return _t(word)
    pre, tok, post = m.groups()
    colour = ("#2f7d4a" if tok.startswith("H+") else "#b02a37" if tok.startswith("H") else
              "#7a5a10" if tok.startswith("C") else "#8c1c2b")
    return f'{_t(pre)}<tspan font-weight="bold" fill="{colour}">{_t(tok)}</tspan>{_t(post)}'


def _word_width(word: str, size: float) -> float:
    bold = bool(_TOKEN.match(word)) or word.startswith("Ambush")
    return text_width(word, size, bold=bold)


def wrap(text: str, size: float, max_width: float) -> list[str]:
    """Greedy word wrap of ``text`` at font ``size`` into lines no wider than ``max_width``."""
    lines: list[str] = []
    cur: list[str] = []
    cur_w = 0.0
    space = text_width(" ", size)
    for word in text.split():
        w = _word_width(word, size)
        if cur and cur_w + space + w > max_width:
            lines.append(" ".join(cur))
            cur, cur_w = [word], w
        else:
            cur_w = cur_w + space + w if cur else w
            cur.append(word)
    if cur:
        lines.append(" ".join(cur))
    return lines


def _widest(lines: Sequence[str], size: float) -> float:
    space = text_width(" ", size)
    return max((sum(_word_width(w, size) for w in ln.split()) + space * (len(ln.split()) - 1) for ln in lines),
               default=0.0)


def _text_block(lines: Sequence[str], x: float, y: float, size: float, lh: float, *, anchor: str = "start",
                fill: str = INK, family: str = SANS) -> str:
    out = []
    for i, line in enumerate(lines):
        words = " ".join(_styled_word(w) for w in line.split())
        out.append(f'<text x="{_num(x)}" y="{_num(y + i * lh)}" font-family="{family}" font-size="{_num(size)}" '
                   f'fill="{fill}" text-anchor="{anchor}">{words}</text>')
    return "".join(out)


_BOOST_PREFIX = re.compile(r"^\s*(?:fast\s+)?boost\s*(?:\([^)]*\))?\s*:\s*", re.IGNORECASE)


def boost_words(text: str) -> str:
    """A boost's printed text without its "Boost (teammate C1):" lead, which the glyphs show."""
    words = _BOOST_PREFIX.sub("", text).strip()
    return words[:1].upper() + words[1:] if words else ""


def _fit_title(name: str, max_w: float) -> tuple[float, list[str]]:
    for size in (40, 38, 36, 34, 32):
        if text_width(name, size, bold=True, serif=True) <= max_w:
            return size, [name]
    for size in (32, 30, 28, 26, 24, 22):
        lines = _wrap_serif(name, size, max_w)
        if len(lines) <= 2 and all(text_width(ln, size, bold=True, serif=True) <= max_w for ln in lines):
            return size, lines
    lines = _wrap_serif(name, 22, max_w)[:2]
    widest = max(text_width(ln, 22, bold=True, serif=True) for ln in lines)
    return 22 * min(1.0, max_w / widest), lines      # no size fits: smaller still


def _wrap_serif(text: str, size: float, max_w: float) -> list[str]:
    """Balanced two-line split for a title (the break that makes the longer line shortest)."""
    words = text.split()
    if len(words) < 2:
        return [text]
    best = min(range(1, len(words)), key=lambda i: max(
        text_width(" ".join(words[:i]), size, bold=True, serif=True),
        text_width(" ".join(words[i:]), size, bold=True, serif=True)))
    return [" ".join(words[:best]), " ".join(words[best:])]


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
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width)}" height="{_num(height)}" '
        f'viewBox="0 0 {W} {H}" role="img" aria-label={_a(label)} class="card card-{k} side-{side}" '
        f'data-card-id={_a(card.id)}>'
        f"<title>{_t(card.name)}</title>" + _defs(card))

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
    size, lines = _fit_title(card.name, name_right - name_left)
    cx = (name_left + name_right) / 2
    lh = size * 1.08
    top = banner_y + banner_h / 2 - (len(lines) * lh) / 2 + size * 0.78
    for i, line in enumerate(lines):
        for dy, fill, extra in ((2.2, "#000", ' opacity=".35"'), (0, "#fff", "")):
            parts.append(f'<text x="{_num(cx + dy * 0.6)}" y="{_num(top + i * lh + dy)}" text-anchor="middle" '
                         f'font-family="{SERIF}" font-weight="bold" font-size="{_num(size)}" '
                         f'fill="{fill}"{extra}>{_t(line)}</text>')

    # the bottom: scripture, then boost rows above it
    scripture_y = H - 44
    if card.scripture:
        parts.append(f'<text x="{W / 2}" y="{scripture_y + 8}" text-anchor="middle" font-family="{SERIF}" '
                     f'font-style="italic" font-size="23" fill="{dark}">{_t(card.scripture)}</text>')
        sw = text_width(card.scripture, 23, serif=True) / 2 + 18
        for sgn in (-1, 1):
            x0 = W / 2 + sgn * sw
            parts.append(f'<path d="M{_num(x0)} {scripture_y} H{_num(x0 + sgn * 60)}" stroke="{dark}" '
                         'stroke-width="1.5" opacity=".5"/>'
                         f'<circle cx="{_num(x0 + sgn * 66)}" cy="{scripture_y}" r="3" fill="{dark}" opacity=".5"/>')
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
        if bottom >= art_min_bottom and _widest(lines, size) <= text_w:
            tsize, tlines, art_bottom = size, lines, bottom
            break

    # art: gradient, emblem, and the badges of the marks the card's effects use
    art_h = art_bottom - art_top
    parts.append(f'<rect x="40" y="{art_top}" width="{W - 80}" height="{_num(art_h)}" rx="12" '
                 f'fill="url(#cg-art-{k}-{side})" stroke="{dark}" stroke-width="2.5"/>')
    badges = card_marks(card)
    b_scale = 1.2
    strip_h = 48 * b_scale + 16 if badges else 0
    em_size = min(art_h - strip_h - 24, 210)
    em_scale = em_size / 200
    em_x = W / 2 - 100 * em_scale
    em_y = art_top + 12 + (art_h - strip_h - 24 - em_size) / 2
    parts.append(f'<g transform="translate({_num(em_x)} {_num(em_y)}) scale({_num(em_scale)})" '
                 f'color="{dark}" opacity=".85">{_emblem(card.kind)}</g>')
    if badges:
        by = art_bottom - 10 - 48 * b_scale
        row, total = _row_of_marks(badges, W / 2, by, b_scale, 12)
        parts.append(f'<rect x="{_num(W / 2 - total / 2 - 14)}" y="{_num(by - 6)}" '
                     f'width="{_num(total + 28)}" height="{_num(48 * b_scale + 12)}" rx="{_num(24 * b_scale + 6)}" '
                     f'fill="#fff" fill-opacity=".8" stroke="{dark}" stroke-width="1.5" stroke-opacity=".6"/>')
        parts.append(f'<g class="badges">{row}</g>')

    # kind ribbon
    ry = art_bottom + 8
    kl = kind_line(card).upper()
    ksize = 20
    kw = text_width(kl, ksize, bold=True) + len(kl) * 2.2
    parts.append(f'<rect x="{_num(W / 2 - kw / 2 - 26)}" y="{_num(ry)}" width="{_num(kw + 52)}" '
                 f'height="{ribbon_h - 8}" rx="18" fill="{main}" stroke="{dark}" stroke-width="2"/>'
                 f'<text x="{W / 2}" y="{_num(ry + 25)}" text-anchor="middle" font-family="{SANS}" '
                 f'font-weight="bold" font-size="{ksize}" letter-spacing="2.2" fill="#fff">{_t(kl)}</text>')
    for sgn in (-1, 1):
        x0 = W / 2 + sgn * (kw / 2 + 34)
        parts.append(f'<path d="M{_num(x0)} {_num(ry + 18)} H{_num(W / 2 + sgn * (W / 2 - 52))}" '
                     f'stroke="{main}" stroke-width="2" opacity=".6"/>')

    # rules text, centred in the room left between the ribbon and the boosts
    box_top = art_bottom + text_top_gap
    lh = tsize * 1.3
    body_h = len(tlines) * lh + passive_h
    y0 = box_top + max(0.0, (text_bottom - box_top - body_h) / 2)
    parts.append(f'<g class="rules">{_text_block(tlines, W / 2, y0 + tsize * 0.95, tsize, lh, anchor="middle")}</g>')
    if passives:
        py = y0 + len(tlines) * lh + 18
        head = "WHILE IT HOLDS" if card.is_threat else "WHILE ATTACHED"
        hw = text_width(head, 17, bold=True) + 17 * 1.5 + 24
        parts.append(f'<path d="M70 {_num(py)} H{_num(W / 2 - hw / 2)} M{_num(W / 2 + hw / 2)} {_num(py)} '
                     f'H{W - 70}" stroke="{main}" stroke-width="1.5" opacity=".7"/>'
                     f'<text x="{W / 2}" y="{_num(py + 5.5)}" text-anchor="middle" font-family="{SANS}" '
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
                         f'<text x="{_num(x0 + mw + 12)}" y="{_num(mid + psize * 0.36)}" font-family="{SANS}" '
                         f'font-size="{_num(psize)}" fill="{INK}">{_t(words)}</text></g>')
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
            if len(lines) <= most and _widest(lines, size) <= avail:
                bsize, blines = size, lines
                break
        row_h = max(48 * g + 18, len(blines) * bsize * 1.2 + 22)
        y -= row_h
        mid = y + row_h / 2
        gy = mid - 24 * g
        gx = float(bx0 + 12)
        row = [f'<g class="boost" data-payer={_a(b.payer)} data-cost="{b.cost}" data-fast="{int(b.fast)}">',
               f'<rect x="{bx0}" y="{_num(y + 3)}" width="{bx1 - bx0}" height="{_num(row_h - 6)}" rx="14" '
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
        row.append(_text_block(blines, text_x, ty, bsize, tl))
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
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width)}" height="{_num(height)}" '
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


# ----------------------------------------------------------------------------------------- legend
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
            body.append(f'<text x="{pad}" y="{_num(y + 20)}" font-family="{SERIF}" font-weight="bold" font-size="22" '
                        f'fill="#6e5214">{_t(sec)}</text>'
                        f'<path d="M{pad + text_width(sec, 22, bold=True, serif=True) + 14:.1f} {_num(y + 13)} '
                        f'H{W - pad}" stroke="#c9a75a" stroke-width="1.5"/>')
            y += 34
        lines = wrap(meaning, mean_size, meaning_w)
        row_h = max(62.0, 12 + name_size + 8 + len(lines) * mean_size * 1.3 + 6)
        mw = getattr(frag, "width", 48)
        mx = pad + (mark_col - mw) / 2
        body.append(f'<g class="legend-entry" data-mark={_a(getattr(frag, "key", ""))}>'
                    f'<rect x="{pad}" y="{_num(y)}" width="{mark_col}" height="{_num(row_h - 8)}" rx="10" '
                    'fill="#f3e9d2"/>'
                    + place(frag, mx, y + (row_h - 8) / 2 - 24)
                    + f'<text x="{_num(text_x)}" y="{_num(y + name_size + 4)}" font-family="{SANS}" '
                      f'font-weight="bold" font-size="{_num(name_size)}" fill="{INK}">{_t(name)}</text>'
                    + "".join(f'<text x="{_num(text_x)}" y="{_num(y + name_size + 10 + (i + 1) * mean_size * 1.3 - 2)}" '
                              f'font-family="{SANS}" font-size="{_num(mean_size)}" fill="#4a4036">{_t(ln)}</text>'
                              for i, ln in enumerate(lines))
                    + "</g>")
        y += row_h
    H = y + 24
    height = width * H / W
    head = (f'<rect x="2" y="2" width="{_num(W - 4)}" height="{_num(H - 4)}" rx="22" fill="#fbf7ec" stroke="#b38a2e" '
            'stroke-width="3"/>'
            f'<text x="{pad}" y="58" font-family="{SERIF}" font-weight="bold" font-size="34" fill="{INK}">'
            "The Marks on a Card</text>"
            f'<text x="{pad}" y="90" font-family="{SERIF}" font-style="italic" font-size="17" fill="#5b4d3c">'
            "Every symbol a card can carry, drawn by the same code that prints the cards.</text>")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width)}" height="{_num(height)}" '
            f'viewBox="0 0 {_num(W)} {_num(H)}" role="img" aria-label="The marks on a card" class="marks-legend">'
            "<title>The Marks on a Card</title>" + head + "".join(body) + "</svg>")
