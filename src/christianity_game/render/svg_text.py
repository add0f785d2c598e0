"""Text in the card pictures: the fonts, their advance widths, coordinates and XML escapes, and
rules text wrapped to a width with the marks it writes (H+1, C1, R3, RX) set in bold colour.

Pure functions, standard library only; used by the marks (:mod:`.marks`), the card faces
(:mod:`.svg`) and the legend (:mod:`.legend`).
"""

from __future__ import annotations

import re
from typing import Sequence
from xml.sax.saxutils import escape, quoteattr

__all__ = [
    "INK", "SANS", "SERIF", "boost_words", "fit_title", "num", "text_block", "text_width", "widest_line", "wrap",
    "xml_attr", "xml_text",
]

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


def num(v: float) -> str:
    """A coordinate, short: 12, 12.5, 12.25."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def xml_text(text: str) -> str:
    """Text content, XML-escaped."""
    return escape(text)


def xml_attr(value: object) -> str:
    """An attribute value, quoted and escaped."""
    return quoteattr(str(value))



# -------------------------------------------------------------------------------- text on the card
_TOKEN = re.compile(r"^(\(?)(H[+\-−]\d+|H0|C\d+|R\d+|RX|X-?\d*)([).,;:]*)$")


def _styled_word(word: str) -> str:
    """A word of rules text; marks written in the text (H+1, C1, R3, RX) are set in bold colour."""
    m = _TOKEN.match(word)
    if not m:
        if word in ("Ambush.", "Ambush"):
            return f'<tspan font-weight="bold">{xml_text(word)}</tspan>'
        return xml_text(word)
    pre, tok, post = m.groups()
    colour = ("#2f7d4a" if tok.startswith("H+") else "#b02a37" if tok.startswith("H") else
              "#7a5a10" if tok.startswith("C") else "#8c1c2b")
    return f'{xml_text(pre)}<tspan font-weight="bold" fill="{colour}">{xml_text(tok)}</tspan>{xml_text(post)}'


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


def widest_line(lines: Sequence[str], size: float) -> float:
    space = text_width(" ", size)
    return max((sum(_word_width(w, size) for w in ln.split()) + space * (len(ln.split()) - 1) for ln in lines),
               default=0.0)


def text_block(lines: Sequence[str], x: float, y: float, size: float, lh: float, *, anchor: str = "start",
                fill: str = INK, family: str = SANS) -> str:
    out = []
    for i, line in enumerate(lines):
        words = " ".join(_styled_word(w) for w in line.split())
        out.append(f'<text x="{num(x)}" y="{num(y + i * lh)}" font-family="{family}" font-size="{num(size)}" '
                   f'fill="{fill}" text-anchor="{anchor}">{words}</text>')
    return "".join(out)


_BOOST_PREFIX = re.compile(r"^\s*(?:fast\s+)?boost\s*(?:\([^)]*\))?\s*:\s*", re.IGNORECASE)


def boost_words(text: str) -> str:
    """A boost's printed text without its "Boost (teammate C1):" lead, which the glyphs show."""
    words = _BOOST_PREFIX.sub("", text).strip()
    return words[:1].upper() + words[1:] if words else ""


def fit_title(name: str, max_w: float) -> tuple[float, list[str]]:
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
