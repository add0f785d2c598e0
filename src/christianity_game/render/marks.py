"""The marks of a card as SVG (G-5, M-3), each drawn by one small function.

:func:`mark_cost`, :func:`mark_resistance`, :func:`mark_humility`, :func:`mark_payer`,
:func:`mark_fast`, and the keyword badges :func:`mark_keyword` / :func:`mark_search` ... A mark is a
:class:`Mark`: the SVG text of one ``<g>`` drawn in its own box (48 units tall, origin top left),
with its ``width`` and ``height``. :func:`place` positions a mark with a transform; the card faces
(:mod:`.svg`) and the legend (:mod:`.legend`) both embed the mark's text unchanged. An effect op's
badge is the keyword its declaration names (:mod:`christianity_game.cards.effect_ops`), titled as
declared; how each badge is drawn is here (``_DRAWINGS``).

Pure functions, standard library only.
"""

from __future__ import annotations

import math
from typing import Iterable, Iterator, Sequence

from ..cards.effect_ops import EFFECT_OP_LIST
from ..cards.model import Effect
from .svg_text import SANS, num, text_width, xml_attr, xml_text

__all__ = [
    "KEYWORDS", "MARK_H", "Mark", "OP_KEYWORD", "PAYER_COLOURS", "PAYER_TEXT", "mark_ambush", "mark_amplify",
    "mark_attach", "mark_conditional", "mark_cost", "mark_cost_zone", "mark_discard", "mark_draw", "mark_fast",
    "mark_flip", "mark_humility", "mark_keyword", "mark_payer", "mark_redirect", "mark_resistance", "mark_reveal",
    "mark_rotate", "mark_search", "mark_untap", "op_marks", "place",
]

MARK_H = 48                         # every mark is drawn 48 units tall


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
    scaled = "" if scale == 1 else f" scale({num(scale)})"
    return f'<g transform="translate({num(x)} {num(y)}){scaled}">{mark}</g>'


def _pos(mark: Mark, x: float | None, y: float | None, scale: float) -> str:
    if x is None and y is None and scale == 1:
        return mark
    return place(mark, x or 0.0, y or 0.0, scale)


def _mark(key: str, body: str, width: float, title: str, value: object = "") -> Mark:
    val = "" if value == "" else f" data-value={xml_attr(value)}"
    svg = (f'<g class="mark mark-{key}" data-mark="{key}"{val}>'
           f"<title>{xml_text(title)}</title>{body}</g>")
    return Mark(svg, key=key, width=width, value=str(value))


def _stroke(width: float = 3) -> str:
    """White line art for the badges' icons."""
    return (f'fill="none" stroke="#fff" stroke-width="{num(width)}" stroke-linecap="round" '
            'stroke-linejoin="round"')


_STROKE = _stroke()


def _label(x: float, y: float, parts: Sequence[tuple[str, float]], fill: str, *, anchor: str = "middle") -> str:
    """Bold text made of (text, size) runs, e.g. a small "C" then a large "2"."""
    runs = "".join(f'<tspan font-size="{num(size)}">{xml_text(text)}</tspan>' for text, size in parts)
    return (f'<text x="{num(x)}" y="{num(y)}" text-anchor="{anchor}" font-family="{SANS}" '
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
    body = (f'<rect x="1.25" y="6.5" width="{num(width - 2.5)}" height="35" rx="17.5" fill="{fill}" '
            f'stroke="{edge}" stroke-width="2.5"/>'
            f'<rect x="4.5" y="9.75" width="{num(width - 9)}" height="28.5" rx="14.25" fill="none" '
            'stroke="#fff" stroke-width="1.1" opacity=".45"/>'
            + _label(width / 2, 31, [("H", 14), (shown, 19)], "#fff"))
    ascii_value = f"{delta:+d}" if delta else "0"
    title = (f"Humility H{ascii_value}: gain {delta}" if delta > 0 else
             f"Humility H{ascii_value}: lose {-delta}" if delta < 0 else "Humility H0: at 0 (overflow)")
    return _pos(_mark("humility", body, width, title, ascii_value), x, y, scale)


def _figure(cx: float, top: float, s: float, fill: str, extra: str = "") -> str:
    """A person: a head and shoulders, ``30 * s`` tall from ``top``."""
    return (f'<circle cx="{num(cx)}" cy="{num(top + 6.5 * s)}" r="{num(6.5 * s)}" fill="{fill}"{extra}/>'
            f'<path d="M{num(cx - 11 * s)} {num(top + 30 * s)} a{num(11 * s)} {num(11.5 * s)} 0 0 1 '
            f'{num(22 * s)} 0 Z" fill="{fill}"{extra}/>')


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
    return (f'<path d="M{num(p0[0])} {num(p0[1])} A{num(r)} {num(r)} 0 {large} {sweep} '
            f'{num(p1[0])} {num(p1[1])}" fill="none" stroke="#fff" stroke-width="{num(width)}" '
            'stroke-linecap="round"/>'
            f'<path d="M{num(wings[0][0])} {num(wings[0][1])} L{num(p1[0])} {num(p1[1])} '
            f'L{num(wings[1][0])} {num(wings[1][1])}" fill="none" stroke="#fff" stroke-width="{num(width)}" '
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

#: each badge's title: an effect op's from the declaration of the op that brings it (cards/effect_ops.py;
#: an op that reuses another's badge declares no title), the others here
_TITLES: dict[str, str] = {
    **{op.keyword: op.badge for op in EFFECT_OP_LIST if op.keyword is not None and op.badge},
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


def walk_effects(effects: Iterable[Effect]) -> Iterator[Effect]:
    """Every effect of a list, a conditional's branches included, in card order (for the marks and the
    glossary terms a card's text needs)."""
    for e in effects:
        yield e
        if e.op == "if":
            yield from walk_effects(e.then)
            yield from walk_effects(e.otherwise)


def op_marks(effects: Iterable[Effect]) -> list[str]:
    """The marks of a list of effects (nested ``if`` included), each once, in order of first use."""
    out: list[str] = []
    for e in walk_effects(effects):
        if e.op == "humility":
            m = mark_humility(e.amount)
        elif e.op in OP_KEYWORD:
            m = mark_keyword(OP_KEYWORD[e.op])
        else:
            continue
        if m not in out:
            out.append(m)
    return out
