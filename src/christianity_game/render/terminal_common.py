"""What the terminal's texts share: the names of abilities, kinds, phases and choices, seat
labels, the card lookup and the Rich pieces of a card's name (for the board, action and event texts)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from rich.text import Text

from ..cards.model import Boost, CardDef
from ..engine.actions import Action
from .table_words import boost_text

if TYPE_CHECKING:
    from ..cards.loader import CardSet
    from ..engine.game import Game

CardLookup = Mapping[str, CardDef]

ABILITY_NAMES: dict[str, str] = {
    "benevolence": "Benevolence / Double Resistance",
    "brotherly_love": "Brotherly Love",
    "restoration": "Restoration",
    "deliverance": "Deliverance",
    "vibrancy": "Vibrancy",
    "cost_zone_power": "Cost Zone Power",
    "speed": "Speed",
    "foresight": "Foresight",
}
ABILITY_TEXT: dict[str, str] = {
    "benevolence": "any player may spend their own Cost Zone to help resist a temptation",
    "brotherly_love": "redirect your next card's beneficial effect to a teammate",
    "restoration": "every Righteous player shuffles up to 15 discards back into their deck (once a level)",
    "deliverance": "break up to 3 Evil Habituals in play (once a level)",
    "vibrancy": "flip 2 Cost Zone cards face up after your Cost Zone phase",
    "cost_zone_power": "gained 3+ Humility this turn? put your top card into your Cost Zone at end of turn",
    "speed": "play 1 Habitual or Maturity card at any time on your turn",
    "foresight": "reveal the Evil deck's next draws at the start of your Cost Zone phase",
}
KIND_LABEL: dict[str, str] = {
    "maturity": "Maturity", "resistance": "Resistance", "righteous_habitual": "Habitual", "action": "Action",
    "instant": "Instant", "temptation": "Temptation", "evil_habitual": "Evil Habitual",
}
KIND_STYLE: dict[str, str] = {
    "maturity": "magenta", "resistance": "cyan", "righteous_habitual": "green", "action": "yellow",
    "instant": "bright_yellow", "temptation": "red", "evil_habitual": "bold red",
}
PHASE_LABEL: dict[str, str] = {
    "draw": "Draw phase", "cost_zone": "Cost Zone phase", "evil": "Evil phase", "resistance": "Resistance phase",
    "main": "Main phase", "end": "End phase", "over": "Game over",
}
PURPOSE_TEXT: dict[str, str] = {
    "overflow": "discard for Humility lost at 0 (overflow, S-4): from hand or Cost Zone",
    "discard": "discard from hand",
    "search": "take from your deck (search)",
    "deliverance": "Evil Habituals to break (Deliverance)",
}
UPRIGHT, ROTATED = "▯", "▭"   # a Cost Zone card ready / rotated (tapped)


# ---------------------------------------------------------------------------------------- helpers
def seat_label(seat: int | None) -> str:
    """How a seat is called on screen: engine seat 0 is "Seat 1"."""
    return "the Evil deck" if seat is None else f"Seat {seat + 1}"


def righteous_seats_of(view: Mapping[str, Any]) -> list[int]:
    """The Righteous seats at the table of ``view`` (engine numbers). With only one (solo, or a
    duel line-up such as ER) the texts name that seat: there is no team to speak of."""
    return [int(s.get("seat", i)) for i, s in enumerate(view.get("seats") or []) if s.get("side") == "righteous"]


def _lone_righteous(righteous: Sequence[int] | None) -> int | None:
    """The one Righteous seat when the table has exactly one, else None (a team, or not known)."""
    return righteous[0] if righteous is not None and len(righteous) == 1 else None


def righteous_count(game: "Game") -> int:
    """How many Righteous seats ``game`` has: with one, card and ability texts speak of no
    teammate (render/table_words.py, P-7)."""
    return len(game.righteous_seats())


def boost_line(boost: Boost, righteous: int, fee: int) -> str:
    """A boost's printed line ("Boost (teammate C1): you draw 1 card.") as the table reads it: with
    one Righteous seat it has no teammate in it and says that the seat pays the fee (P-7)."""
    if righteous != 1 or "teammate" not in boost.text.lower():
        return boost.text
    needs_mate = any(e.needs_teammate() for e in boost.effects)
    lead = f"{'Fast boost' if boost.fast else 'Boost'} (C{boost.cost})"
    return f"{lead}: {boost_text(_boost_effect_text(boost.text), boost.payer, righteous, fee, needs_mate=needs_mate)}"


def card_lookup(cards: "CardSet | CardLookup | None") -> CardLookup:
    """A card-id -> CardDef mapping from a CardSet, a mapping, or None (the starter set)."""
    if cards is None:
        from ..cards.loader import starter_set
        return starter_set().cards
    inner = getattr(cards, "cards", None)
    if isinstance(inner, Mapping):
        return inner
    return cards  # type: ignore[return-value]


def _name(cards: CardLookup, card_id: str | None) -> str:
    if card_id is None:
        return "a card"
    card = cards.get(card_id)
    return card.name if card is not None else card_id


def _marks(card: CardDef | None, resistance: int | None = None) -> str:
    if card is None:
        return ""
    if card.is_threat:
        r = resistance if resistance is not None else card.resistance
        return f"R{r}" if r is not None else "RX"
    return f"C{card.cost}"


def _boost_effect_text(text: str) -> str:
    """The effect part of a printed boost ("Boost (teammate C1): you draw 1 card." -> "you draw 1 card.")."""
    head, sep, tail = text.partition("):")
    return tail.strip() if sep and head.lstrip().lower().split(" ")[0] in ("boost", "fast") else text.strip()


def _first(items: Iterable[Any], pred: Any) -> Any:
    return next((x for x in items if pred(x)), None)


def _card_style(kind: str | None) -> str:
    return KIND_STYLE.get(kind or "", "white")


def _card_text(entry: Mapping[str, Any], cards: CardLookup, marks: bool = False) -> Text:
    """A visible card as styled text (name, optionally its cost/resistance mark)."""
    if entry.get("hidden") or "id" not in entry:
        return Text("a hidden card", style="dim")
    card = cards.get(entry["id"])
    out = Text(entry.get("name") or _name(cards, entry["id"]), style=_card_style(entry.get("kind")))
    if marks and card is not None:
        out.append(f" {_marks(card, entry.get('resistance'))}", style="dim")
    return out


def _join(parts: Sequence[Text], sep: str = ", ") -> Text:
    out = Text()
    for i, p in enumerate(parts):
        if i:
            out.append(sep, style="dim")
        out.append_text(p)
    return out
