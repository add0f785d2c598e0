"""The samples of ``docs/cards/``: the marks legend, the card back, a card of each kind and the
rules glossary, written by hand when the drawings change.

    python -m christianity_game.render.samples [folder]   (default: docs/cards)

It sits above both :mod:`~christianity_game.render.svg` (the pictures) and
:mod:`~christianity_game.render.glossary` (which names the marks the pictures draw).
"""

from __future__ import annotations

from pathlib import Path

from ..cards import starter_set
from .glossary import glossary_markdown
from .svg import card_back_svg, card_svg, legend_svg

#: one card of each kind
SAMPLE_CARDS: tuple[str, ...] = ("leave-the-ninety-nine", "rod-and-staff", "new-every-morning", "angel-of-light")


def write_samples(folder: str) -> list[str]:
    """Write the samples into ``folder`` (made when missing); the paths written."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    cards = starter_set()
    written = []
    files: list[tuple[str, str]] = [("legend.svg", legend_svg() + "\n"), ("back.svg", card_back_svg() + "\n")]
    files += [(f"{cid}.svg", card_svg(cards[cid]) + "\n") for cid in SAMPLE_CARDS]
    files.append(("glossary.md", glossary_markdown(cards)))
    for name, svg in files:
        (out / name).write_text(svg, encoding="utf-8")
        written.append(str(out / name))
    return written


if __name__ == "__main__":  # pragma: no cover
    import sys

    for path in write_samples(sys.argv[1] if len(sys.argv) > 1 else "docs/cards"):
        print(path)
