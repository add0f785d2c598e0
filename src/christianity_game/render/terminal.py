"""The terminal board: pure functions from a view (and a card lookup) to Rich renderables.

* :func:`render_board` draws one seat's view (or a spectator's): the header (mode, round, turn,
  phase, score), one panel per seat (Humility and Maturity badges, Cost Zone, Habituals), the
  viewer's hand, pending threats, the stack, the open choice, piles, abilities, the clearing
  round, and the last events in words.
* :func:`describe_action` turns an action into a sentence with card names ("Play Beside Still
  Waters (C1)", "Resist Pride (R2) with 2 Cost", ...).
* :func:`describe_event` turns an event (``Event.for_seat``) into a sentence.

Seats are shown numbered from 1 ("Seat 1"); the engine numbers them from 0.
Nothing here changes the game or prints: the CLI prints what these functions return.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..cards.model import Boost, CardDef
from ..engine.actions import (
    Action, AdjustBadge, BuyAbility, Choose, ChooseAbility, LayCostZone, Pass, PlayCard, Resist, TakeBoost,
    UseAbility,
)
from ..engine.observer import boost_offer, turn_step
from .table_words import ability_text, boost_text, card_text

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


# ---------------------------------------------------------------------------------------- actions
def describe_actions(game: "Game", actions: Sequence[Action], *, public: bool = False) -> list[str]:
    """The readable text of each action (one view is computed for all of them)."""
    views: dict[int, dict[str, Any]] = {}
    out = []
    for a in actions:
        seat = a.seat if isinstance(a.seat, int) and 0 <= a.seat < len(game.lineup) else None
        if seat is not None and seat not in views:
            views[seat] = game.view(seat)
        out.append(describe_action(game, a, public=public, view=views.get(seat) if seat is not None else None))
    return out


def describe_action(game: "Game", action: Action, *, public: bool = False,
                    view: Mapping[str, Any] | None = None) -> str:
    """A readable sentence for ``action`` in ``game``'s current state (describe before applying).

    ``public=True`` leaves out what only the acting seat may know (which card goes into its Cost
    Zone face down, which card a search finds): use it to show another seat's move.
    """
    try:
        return _describe_action(game, action, public, view)
    except Exception:  # noqa: BLE001 - a description must never crash the UI
        return repr(action)


def _own_entry(view: Mapping[str, Any], seat: int, zone: str, uid: int) -> Mapping[str, Any] | None:
    """The entry of card ``uid`` in ``zone`` of ``seat`` in ``view`` (the seat's own view shows
    its hand and Cost Zone whole), or None when it is not there."""
    seats = view.get("seats") or []
    if not 0 <= seat < len(seats):
        return None
    found: Mapping[str, Any] | None = _first(seats[seat].get(zone) or [], lambda c: c.get("uid") == uid)
    return found


def _threat_entry(view: Mapping[str, Any], uid: int) -> Mapping[str, Any] | None:
    found: Mapping[str, Any] | None = _first(view.get("threats") or [], lambda t: t.get("uid") == uid)
    return found


def _describe_action(game: "Game", a: Action, public: bool, view: Mapping[str, Any] | None) -> str:
    seat = a.seat
    defs = game.defs
    n_seats = len(game.lineup)

    def name_of(uid: int) -> str:
        return defs[uid].name if isinstance(uid, int) and 0 <= uid < len(defs) else f"card {uid}"

    def other(s: int | None) -> str:
        return "yourself" if s == seat else seat_label(s)

    if isinstance(a, AdjustBadge):
        return f"Set your {a.badge.capitalize()} to {'L' if a.badge == 'maturity' else ''}{a.value} by hand (S-8)"
    if isinstance(a, LayCostZone):
        if public:
            return "Lay a card in the Cost Zone (face down)"
        return f"Lay {name_of(a.card)} in the Cost Zone (face down)"
    if view is None:
        view = game.view(seat) if isinstance(seat, int) and 0 <= seat < n_seats else {}
    if isinstance(a, PlayCard):
        card = defs[a.card]
        fee = 0
        if card.needs_teammate() and a.to_seat == seat and game.is_solo():
            fee = game.settings.solo_fee
        cost = f"C{card.cost}" + (f" + C{fee} target-change fee" if fee else "")
        text = f"Play {card.name} ({cost})"
        if _own_entry(view, seat, "cost_zone", a.card) is not None:
            text += " from your Cost Zone"
        if a.threat is not None:
            t = _threat_entry(view, a.threat)
            if t is not None:
                who = "" if t.get("target") == seat else f" at {seat_label(t.get('target'))}"
                text += f" to resist {name_of(a.threat)} (R{t.get('resistance')}){who}"
            else:
                text += f" to break {name_of(a.threat)} holding you"
        elif card.kind == "resistance":
            text += ", resisting nothing"
        if a.to_seat is not None:
            text += " aimed at yourself" if a.to_seat == seat else f" → {seat_label(a.to_seat)}"
        stack = view.get("stack") or []
        if stack and card.kind == "instant":
            top = stack[-1]
            what = top.get("name", "the stack")
            if top.get("item") == "boost":
                what = f"the boost of {what}"
            text += f" in response to {what}"
        return text
    if isinstance(a, Resist):
        t = _threat_entry(view, a.threat)
        name = name_of(a.threat)
        if t is None:   # CO-7: an Evil Habitual holding the seat
            return f"Break {name} holding you: pay {a.amount} Cost"
        r = t.get("resistance")
        paid = t.get("paid") or 0
        remaining = t.get("remaining")
        label = f"{name} (R{r}" + (f", {paid} paid" if paid else "") + ")"
        target = t.get("target")
        verb = "Resist" if target == seat else f"Help {seat_label(target)} resist"
        if a.amount == 0:
            return f"{verb} {label} for free" + (" (your discount covers it)" if r else "")
        text = f"{verb} {label} with {a.amount} Cost"
        if isinstance(remaining, int) and a.amount < remaining:
            text += " (partial)"
        return text
    if isinstance(a, TakeBoost):
        uid = boost_offer(game)
        if uid is None:
            return f"Take boost {a.index + 1} (paid by {other(a.payer)})"
        card = defs[uid]
        boost = card.boosts[a.index]
        needs_mate = any(e.needs_teammate() for e in boost.effects)
        fee = game.settings.solo_fee if game.is_solo() and (boost.payer == "teammate" or needs_mate) else 0
        payer = "you pay" if a.payer == seat else f"teammate {seat_label(a.payer)} pays"
        cost = f"C{boost.cost}" + (f" + C{fee} fee" if fee else "")
        bolt = "⚡ fast " if boost.fast else ""
        words = card_text(_boost_effect_text(boost.text), righteous_count(game), fee)   # the fee is in `cost`
        text = f"Take {bolt}boost {a.index + 1} of {card.name} ({payer} {cost}): {words}"
        if a.to_seat is not None and a.to_seat != seat:
            text += f" → {seat_label(a.to_seat)}"
        return text
    if isinstance(a, UseAbility):
        label = ABILITY_NAMES.get(a.ability, a.ability)
        if a.ability == "brotherly_love":
            return f"Use {label}: your next card's benefit goes to {other(a.to_seat)}"
        return f"Use {label}: {ABILITY_TEXT.get(a.ability, '')}".rstrip(": ")
    if isinstance(a, BuyAbility):
        from ..engine.game import ABILITY_PRICE
        label = ABILITY_NAMES.get(a.ability, a.ability)
        return f"Buy {label} for {ABILITY_PRICE.get(a.ability, '?')} Cost: {_ability_text(game, a.ability)}"
    if isinstance(a, ChooseAbility):
        label = ABILITY_NAMES.get(a.ability, a.ability)
        return f"Choose {label} (free): {_ability_text(game, a.ability)}"
    if isinstance(a, Choose):
        choice = view.get("choice") or {}
        purpose = choice.get("purpose")
        name = name_of(a.option)
        where = "your hand"
        entry = _own_entry(view, seat, "cost_zone", a.option)
        if entry is not None:
            where = "your Cost Zone, " + ("rotated" if entry.get("tapped") else "ready")
            if entry.get("face_up"):
                where += ", face up"
        if purpose == "overflow":
            return f"Discard {name} from {where} (overflow)"
        if purpose == "discard":
            return f"Discard {name} from {where}"
        if purpose == "search":
            return "Take a card from the deck (search)" if public else f"Take {name} into your hand (search)"
        if purpose == "deliverance":
            holder = _first(range(n_seats), lambda i: _own_entry(view, i, "held", a.option) is not None)
            return f"Break {name}" + (f" (holding {seat_label(holder)})" if holder is not None else "")
        return f"Choose {name}"
    if isinstance(a, Pass):
        return _describe_pass(game, a, view)
    return repr(a)


def _ability_text(game: "Game", ability: str) -> str:
    """What ``ability`` does, in the words that fit the table (one Righteous seat: no teammate)."""
    return ability_text(ability, righteous_count(game), ABILITY_TEXT.get(ability, ""))


def _describe_pass(game: "Game", a: Pass, view: Mapping[str, Any]) -> str:
    seat = a.seat
    pending = view.get("pending") or []
    choice = view.get("choice")
    if choice:
        return {"search": "Stop searching (take no more)", "deliverance": "Break no more Habituals"}.get(
            choice.get("purpose"), "Finish choosing")
    if any(p.get("type") == "TakeBoost" for p in pending):
        uid = boost_offer(game)
        return f"Done with the boosts of {game.defs[uid].name}" if uid is not None else "Take no more boosts"
    stack = view.get("stack") or []
    if stack:
        top = stack[-1]
        what = top.get("name", "the top item")
        if top.get("item") == "boost":
            what = f"the boost of {what}"
        elif top.get("item") == "threat":
            what = f"{what} (unresisted)"
        return f"Pass: let {what} resolve (no response)"
    phase = view.get("phase")
    if phase == "cost_zone":
        if any(p.get("type") == "LayCostZone" for p in pending):
            return "Done laying the Cost Zone"
        if turn_step(game) == "lay":
            return "Done laying the Cost Zone (it takes no more this turn)"
        return "Continue: end the Cost Zone phase"
    if phase == "resistance":
        if seat != view.get("turn_seat"):
            return f"Done helping {seat_label(view.get('turn_seat'))}"
        open_threats = [t for t in view.get("threats") or [] if t.get("target") == seat]
        if open_threats:
            n = len(open_threats)
            return f"Done resisting: {n} unresisted threat{'s' if n != 1 else ''} will fail"
        return "End the Resistance phase"
    if phase == "main" and seat == view.get("turn_seat"):
        return END_TURN
    return "Pass"


#: the words of the pass that ends the active seat's turn (its main phase)
END_TURN = "End your turn"


def ends_turn(game: "Game", action: Action) -> bool:
    """Whether ``action`` is the pass that ends the active seat's turn ("End your turn"): the one
    a player may take by reflex while a card could still be played."""
    if not isinstance(action, Pass) or not isinstance(action.seat, int):
        return False
    if not 0 <= action.seat < len(game.lineup):
        return False
    return _describe_pass(game, action, game.view(action.seat)) == END_TURN


def _action_hint(game: "Game", a: Action) -> str:
    """A short reminder shown after an action in the list: the rules text of a card that is not
    in the acting seat's hand (the hand panel shows those)."""
    try:
        uid = a.card if isinstance(a, (PlayCard, LayCostZone)) else a.option if isinstance(a, Choose) else None
        if uid is not None:
            if _own_entry(game.seat_view(a.seat), a.seat, "hand", uid) is not None:
                return ""
            return card_text(game.defs[uid].text, righteous_count(game), game.settings.solo_fee)
    except Exception:  # noqa: BLE001
        return ""
    return ""


def render_actions(game: "Game", actions: Sequence[Action], *, texts: Sequence[str] | None = None,
                   hints: bool = True, title: str | None = None) -> RenderableType:
    """The numbered list of legal actions (numbers from 1), in two columns when it is long."""
    texts = list(texts) if texts is not None else describe_actions(game, actions)
    rows: list[Text] = []
    for i, (a, text) in enumerate(zip(actions, texts), start=1):
        line = Text()
        line.append(f"{i:>2}", style="bold cyan")
        line.append("  ")
        style = "bold" if not isinstance(a, Pass) else "italic"
        line.append(text, style=style)
        if hints and len(actions) <= 12:
            hint = _action_hint(game, a)
            if hint:
                line.append(f"  · {hint}", style="dim")
        rows.append(line)
    if len(rows) > 12:
        half = (len(rows) + 1) // 2
        grid = Table.grid(expand=True, padding=(0, 2))
        grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        for left, right in zip(rows[:half], rows[half:] + [Text()]):
            grid.add_row(left, right)
        body: RenderableType = grid
    else:
        grid = Table.grid(expand=True)
        grid.add_column(no_wrap=True, overflow="ellipsis")
        for row in rows:
            grid.add_row(row)
        body = grid
    return Panel(body, title=title or "Your options", title_align="left", border_style="cyan", box=box.ROUNDED,
                 padding=(0, 1))


# ---------------------------------------------------------------------------------------- events
def describe_event(ev: Mapping[str, Any], cards: "CardSet | CardLookup | None" = None,
                   uid_names: Mapping[int, str] | None = None, *,
                   righteous: Sequence[int] | None = None) -> str | None:
    """One event (as ``Event.for_seat`` gives it) in words; None for bookkeeping events.

    ``uid_names`` names public cards that an event gives only by uid (the threat of a payment).
    ``righteous``: the table's Righteous seats (:func:`righteous_seats_of`); with only one, shared
    levels and abilities are that seat's, never "the team's" (None: not known, the team wording).
    """
    lone = _lone_righteous(righteous)
    cards = card_lookup(cards)
    kind = ev.get("kind")
    seat = ev.get("seat")
    who = seat_label(seat) if seat is not None else "The Evil deck"
    card = _name(cards, ev.get("card")) if ev.get("card") else None
    if kind == "turn_started":
        return f"── Round {ev.get('round')}: {seat_label(seat)}'s turn ──"
    if kind == "phase":
        return f"{who}: {PHASE_LABEL.get(ev.get('phase', ''), ev.get('phase'))}"
    if kind == "drew":
        return f"{who} drew {card}" if card else f"{who} drew a card"
    if kind == "laid":
        return f"{who} laid a card in the Cost Zone"
    if kind == "threat_played":
        by = "The Evil deck" if seat is None else seat_label(seat)
        return f"{by} plays {card} (R{ev.get('resistance')}) at {seat_label(ev.get('target'))}"
    if kind == "resist_paid":
        threat = (uid_names or {}).get(ev.get("threat"))  # type: ignore[arg-type]
        return f"{who} paid {ev.get('amount')} Cost to resist" + (f" {threat}" if threat else "")
    if kind == "resisted":
        how = {"paid": "with Cost", "card": "with a Resistance card"}.get(ev.get("how", ""), "")
        return f"{card} resisted by {who} {how}".rstrip()
    if kind == "failed":
        return f"{card} was not resisted: it fails on {who}"
    if kind == "took_hold":
        return f"{card} takes hold on {who}"
    if kind == "humility":
        delta = ev.get("delta", 0)
        if ev.get("rollover"):
            return f"{who} rolls over Humility 10 into a level (Humility now {ev.get('humility')})"
        if not delta:
            return None   # a loss at Humility 0: the overflow discards say what it cost
        return f"{who} Humility {delta:+d} → {ev.get('humility')}/10"
    if kind == "maturity":
        return f"{who} reaches Maturity L{ev.get('maturity')}"
    if kind == "overflow_discard":
        return f"{who} discards {card} (overflow)"
    if kind == "discarded":
        return f"{who} discards {card}"
    if kind == "played":
        text = f"{who} plays {card}"
        if ev.get("to_seat") is not None and ev.get("to_seat") != seat:
            text += f" → {seat_label(ev.get('to_seat'))}"
        threat = (uid_names or {}).get(ev.get("threat"))  # type: ignore[arg-type]
        if threat:
            text += f" to resist {threat}"
        if ev.get("fee"):
            text += f" (target-change fee C{ev.get('fee')})"
        return text
    if kind == "boost_taken":
        payer = ev.get("payer")
        paid = "" if payer == seat else f", paid by {seat_label(payer)}"
        return f"{who} takes boost {int(ev.get('index', 0)) + 1} of {card}{paid}"
    if kind == "resolved":
        return f"Boost {int(ev.get('boost') or 0) + 1} of {card} resolves" if "boost" in ev else f"{card} resolves"
    if kind == "attached":
        return f"{card} is in play on {who}"
    if kind == "ability_gained":
        how = {"chosen": "chosen free", "bought": "bought"}.get(ev.get("how", ""), ev.get("how", ""))
        ability = ABILITY_NAMES.get(ev.get('ability', ''), ev.get('ability'))
        if lone is not None:
            return f"{seat_label(lone)} gains {ability} ({how})"
        return f"The team gains {ability} ({how} by {who})"
    if kind == "ability_used":
        return f"{who} uses {ABILITY_NAMES.get(ev.get('ability', ''), ev.get('ability'))}"
    if kind == "habitual_broken":
        held = ev.get("held_by")
        on = f" (was holding {seat_label(held)})" if held is not None else ""
        return f"{card} is broken by {who}{on}"
    if kind == "revealed":
        if "foresight" in ev:
            names = ", ".join(_name(cards, c) for c in ev.get("foresight") or []) or "nothing"
            return f"Foresight: the Evil deck will play {names}"
        names = ", ".join(_name(cards, c) for c in ev.get("cards") or []) or "nothing"
        return f"{who} reveals {names}"
    if kind == "found":
        return f"{who} finds {card} in the deck" if card else f"{who} finds a card in the deck"
    if kind == "searched":
        return f"{who} searched the deck and found nothing"
    if kind == "flipped":
        return f"{who} flips {card} face up"
    if kind == "untapped":
        return f"{who} untaps Cost Zone cards"
    if kind == "cost_zone_added" or kind == "cost_zone_power":
        return f"{who} puts the top card of the deck into the Cost Zone"
    if kind == "restored":
        return f"{who} shuffles {ev.get('cards')} discards back into the deck (Restoration)"
    if kind == "reshuffled":
        return f"{who} reshuffles the discard pile into a new deck"
    if kind == "shared_level":
        if lone is not None:
            return f"★ {seat_label(lone)} has reached L{ev.get('level')}"
        return f"★ The whole team has reached L{ev.get('level')}"
    if kind == "clearing_round":
        if ev.get("opened"):
            return f"★ Clearing round opens (it closes when {seat_label(seat)}'s next turn begins)"
        return "The clearing round closed with an Evil Habitual still in play"
    if kind == "evil_deck_refilled":
        return f"The Evil deck is remade from the piles ({ev.get('cards')} cards)"
    if kind == "manual":
        mark = "L" if ev.get("badge") == "maturity" else ""
        return (f"{who} set {str(ev.get('badge', '')).capitalize()} by hand: "
                f"{mark}{ev.get('from')} → {mark}{ev.get('to')} (S-8)")
    if kind in ("end_offered", "end_answered", "end_accepted"):
        score = ev.get("score") or [0, 0]
        on = f"the stalemate score (Righteous {score[0]} : Evil {score[1]})"
        if kind == "end_offered":
            return f"{who} offered to end the duel now on {on}"
        if kind == "end_answered":
            waiting = ", ".join(seat_label(s) for s in ev.get("waiting") or [])
            return f"{who} accepted to end the duel on {on}; waiting for {waiting} (G-8)"
        return f"{who} accepted: the duel ends by agreement on {on}"
    if kind == "end_declined":
        return f"{who} declined the offer to end the duel: play goes on"
    if kind == "game_over":
        if ev.get("winner") == "draw":
            return f"Game over: a draw ({ev.get('reason')})"
        return f"Game over: {str(ev.get('winner', '')).capitalize()} wins ({ev.get('reason')})"
    if kind == "rotated":
        return None   # every payment rotates: the paying event already says so
    return f"{who}: {str(kind).replace('_', ' ')}"


def describe_events(events: Iterable[Mapping[str, Any]], cards: "CardSet | CardLookup | None" = None,
                    uid_names: Mapping[int, str] | None = None, *,
                    righteous: Sequence[int] | None = None) -> list[str]:
    """Events in words, with runs of draws and lays by one seat merged into one line
    (``righteous``: the table's Righteous seats, as for :func:`describe_event`)."""
    lookup = card_lookup(cards)
    out: list[str] = []
    run_kind: tuple[Any, Any] | None = None
    run: list[Mapping[str, Any]] = []

    def flush() -> None:
        if not run:
            return
        kind, seat = run_kind or (None, None)
        who = seat_label(seat)
        if len(run) == 1:
            text = describe_event(run[0], lookup, uid_names, righteous=righteous)
            if text:
                out.append(text)
        elif kind == "drew":
            known = [_name(lookup, e["card"]) for e in run if e.get("card")]
            out.append(f"{who} drew {', '.join(known)}" if len(known) == len(run) else f"{who} drew {len(run)} cards")
        else:
            out.append(f"{who} laid {len(run)} cards in the Cost Zone")
        run.clear()

    for ev in events:
        key = (ev.get("kind"), ev.get("seat"))
        if key[0] in ("drew", "laid"):
            if run and key != run_kind:
                flush()
            run_kind = key
            run.append(ev)
            continue
        flush()
        text = describe_event(ev, lookup, uid_names, righteous=righteous)
        if text:
            out.append(text)
    flush()
    return out


# ---------------------------------------------------------------------------------------- board
def _badges(seat: Mapping[str, Any]) -> Text:
    if seat.get("side") != "righteous":
        return Text(" EVIL SEAT ", style="bold white on dark_red")
    h = int(seat.get("humility", 0))
    m = int(seat.get("maturity", 0))
    out = Text()
    out.append(f" Humility {h}/10 ", style="bold white on blue")
    out.append(" ")
    out.append("●" * h, style="bright_blue")
    out.append("○" * max(0, 10 - h), style="grey42")
    out.append("  ")
    out.append(f" Maturity L{m} ", style="bold white on magenta" if m < 3 else "bold black on bright_green")
    out.append(" ")
    out.append("▰" * m, style="magenta")
    out.append("▱" * max(0, 3 - m), style="grey42")
    return out


def _cost_zone(seat: Mapping[str, Any], cards: CardLookup) -> Text:
    cz = seat.get("cost_zone") or []
    ready = sum(1 for c in cz if not c.get("tapped"))
    out = Text()
    out.append("Cost Zone ", style="bold")
    out.append(f"{ready} ready", style="bold green" if ready else "dim")
    out.append(f" / {len(cz)}  ", style="dim")
    if not cz:
        out.append("(empty)", style="dim")
        return out
    faces: list[Text] = []
    for c in cz:
        glyph = ROTATED if c.get("tapped") else UPRIGHT
        if c.get("face_up"):
            out.append(glyph, style="bold yellow")
            faces.append(_card_text(c, cards))
        else:
            out.append(glyph, style="grey62" if c.get("tapped") else "bold green")
    if faces:
        out.append("  ★", style="bold yellow")
        out.append_text(_join(faces))
    return out


def _grouped(entries: Sequence[Mapping[str, Any]], cards: CardLookup, marks: bool = False) -> list[Text]:
    """Visible cards as text, copies of one card shown once with "×n"."""
    counts: dict[str, int] = {}
    first: dict[str, Mapping[str, Any]] = {}
    for c in entries:
        key = str(c.get("id", id(c)))
        counts[key] = counts.get(key, 0) + 1
        first.setdefault(key, c)
    out = []
    for key, c in first.items():
        t = _card_text(c, cards, marks=marks)
        if counts[key] > 1:
            t.append(f" ×{counts[key]}", style="bold")
        out.append(t)
    return out


def _seat_panel(view: Mapping[str, Any], seat: Mapping[str, Any], cards: CardLookup,
                deck_names: Mapping[str, str]) -> Panel:
    i = int(seat.get("seat", 0))
    lines: list[RenderableType] = [_badges(seat)]
    counts = Text()
    counts.append(f"Hand {seat.get('hand_size', 0)}", style="bold")
    counts.append(f" · Deck {seat.get('deck_size', 0)} · Discard {len(seat.get('discard') or [])}", style="dim")
    if seat.get("love_to") is not None:
        counts.append(f" · Brotherly Love → {seat_label(seat['love_to'])}", style="green")
    lines.append(counts)
    lines.append(_cost_zone(seat, cards))
    in_play = seat.get("in_play") or []
    if in_play:
        t = Text("In play: ", style="bold green")
        t.append_text(_join(_grouped(in_play, cards)))
        lines.append(t)
    held = seat.get("held") or []
    if held:
        t = Text("Held by Evil: ", style="bold red")
        t.append_text(_join(_grouped(held, cards, marks=True)))
        lines.append(t)
    title = Text(f" {seat_label(i)} ", style="bold")
    deck = seat.get("deck") or ""
    if deck:
        title.append(f"· {deck_names.get(deck, deck)} ", style="")
    decider = view.get("decider")
    turn = view.get("turn_seat")
    if i == turn:
        title.append("· turn ", style="bold green")
    if i == decider and view.get("result") is None:
        title.append("◀ to act ", style="bold black on yellow")
    if i == view.get("viewer"):
        title.append("(you) ", style="bold cyan")
    border = "yellow" if i == decider else ("green" if i == turn else "grey50")
    return Panel(Group(*lines), title=title, title_align="left", border_style=border, box=box.ROUNDED,
                 padding=(0, 1))


def _header(view: Mapping[str, Any]) -> Table:
    mode = str(view.get("mode", "")).upper().replace("COOP", "CO-OP")
    rnd = view.get("round")
    max_rounds = view.get("max_rounds")
    if max_rounds and isinstance(rnd, int) and rnd > max_rounds:
        rounds = f"Round {rnd} (past {max_rounds})"
    else:
        rounds = f"Round {rnd}" + (f"/{max_rounds}" if max_rounds else "")
    phase = PHASE_LABEL.get(str(view.get("phase")), str(view.get("phase")))
    left = Text(f" {mode} · {rounds} · {seat_label(view.get('turn_seat'))}'s turn · {phase}", style="bold")
    score = view.get("score") or [0, 0]
    right = Text()
    right.append("Score ", style="bold")
    right.append(f"Righteous {score[0]}", style="bold bright_green")
    right.append(" : ")
    right.append(f"Evil {score[1]}", style="bold red")
    if view.get("mode") in ("coop", "solo"):
        right.append(f" · Evil deck {view.get('evil_deck_size', 0)}", style="bold")
    right.append(" ")
    grid = Table.grid(expand=True, padding=(0, 1))
    grid.add_column(justify="left", no_wrap=True, overflow="ellipsis", ratio=1)
    grid.add_column(justify="right", no_wrap=True, min_width=right.cell_len)
    grid.add_row(left, right)
    grid.style = "white on grey19"
    return grid


def _hand_panel(view: Mapping[str, Any], seat: Mapping[str, Any], cards: CardLookup) -> Panel:
    table = Table(box=None, expand=True, show_header=False, show_edge=False, pad_edge=False, padding=(0, 1))
    table.add_column("Card", no_wrap=True, ratio=3)
    table.add_column("Kind", no_wrap=True, width=13)
    table.add_column("Cost", no_wrap=True, width=3, justify="right")
    table.add_column("Text", no_wrap=True, overflow="ellipsis", ratio=6)
    hand = seat.get("hand") or []
    righteous = len(righteous_seats_of(view))
    fee = int((view.get("settings") or {}).get("solo_fee", 1))
    for c in hand:
        card = cards.get(c.get("id", ""))
        kind = c.get("kind") or (card.kind if card else "")
        text = card_text(card.text, righteous, fee, needs_mate=card.aims_at_mate) if card else ""
        table.add_row(_card_text(c, cards), Text(KIND_LABEL.get(kind, kind), style=_card_style(kind)),
                      f"C{card.cost}" if card else "", Text(text, style="dim"))
    if not hand:
        table.add_row(Text("(no cards)", style="dim"), "", "", "")
    return Panel(table, title=Text(f" Your hand · {seat_label(seat.get('seat'))} ({len(hand)}) ", style="bold"),
                 title_align="left", border_style="cyan", box=box.ROUNDED, padding=(0, 1))


def _table_panel(view: Mapping[str, Any], cards: CardLookup) -> Panel | None:
    """Pending threats, the stack and the open choice (None when all are empty)."""
    parts: list[RenderableType] = []
    threats = view.get("threats") or []
    if threats:
        t = Table(box=box.SIMPLE_HEAD, expand=True, show_edge=False, pad_edge=False, padding=(0, 1),
                  title=None)
        t.add_column("Threat", no_wrap=True, overflow="ellipsis", ratio=3)
        t.add_column("At", no_wrap=True, width=7)
        t.add_column("Resist", no_wrap=True, width=6, justify="right")
        t.add_column("Paid", no_wrap=True, width=4, justify="right")
        t.add_column("Left", no_wrap=True, width=4, justify="right")
        t.add_column("If unresisted (besides H-1)", no_wrap=True, overflow="ellipsis", ratio=5)
        for th in threats:
            card = cards.get(th.get("id", ""))
            name = _card_text(th, cards)
            if card is not None and card.is_ambush:
                name.append(" ambush", style="dim")
            text = _threat_text(card.text if card else "")
            t.add_row(name, seat_label(th.get("target")), f"R{th.get('resistance')}", str(th.get("paid", 0)),
                      Text(str(th.get("remaining", "")), style="bold yellow"), Text(text, style="dim"))
        parts.append(t)
    stack = view.get("stack") or []
    if stack:
        line = Text("Stack (top first): ", style="bold")
        items = []
        for item in reversed(stack):
            x = Text()
            if item.get("item") == "boost":
                x.append(f"boost {int(item.get('boost') or 0) + 1} of ", style="dim")
            x.append_text(_card_text(item, cards))
            if item.get("item") == "threat":
                x.append(f" failing on {seat_label(item.get('target'))}", style="red")
            else:
                x.append(f" ({seat_label(item.get('controller'))})", style="dim")
            items.append(x)
        line.append_text(_join(items, "  ▸  "))
        parts.append(line)
    choice = view.get("choice")
    if choice:
        line = Text("Choose: ", style="bold yellow")
        purpose = choice.get("purpose", "")
        line.append(f"{PURPOSE_TEXT.get(purpose, purpose)} — pick {choice.get('count')}", style="yellow")
        if choice.get("minimum", 0) == 0:
            line.append(" (or fewer)", style="yellow")
        parts.append(line)
    if view.get("abilities", {}).get("choosing") and view.get("decider") == view.get("viewer"):
        if _lone_righteous(righteous_seats_of(view)) is not None:
            parts.append(Text("★ New Maturity level: choose one free ability.", style="bold yellow"))
        else:
            parts.append(Text("★ New shared Maturity level: choose one free ability for the whole team.",
                              style="bold yellow"))
    if not parts:
        return None
    return Panel(Group(*parts), title=Text(" The table ", style="bold"), title_align="left", border_style="red",
                 box=box.ROUNDED, padding=(0, 1))


def _threat_text(text: str) -> str:
    """A threat's rules text without what the table shows already (Ambush, RX, 'If unresisted:')."""
    sentences = [x.strip() for x in text.replace(". ", ".\n").split("\n") if x.strip()]
    kept = [x for x in sentences if not x.startswith(("Ambush", "RX:", "RX "))]
    out = " ".join(kept)
    return out[len("If unresisted: "):] if out.startswith("If unresisted: ") else out


def _status_lines(view: Mapping[str, Any], cards: CardLookup) -> list[Text]:
    out: list[Text] = []
    field = view.get("field") or []
    if field:
        line = Text("Evil Habituals on the field: ", style="bold red")
        line.append_text(_join([_card_text(c, cards) for c in field]))
        out.append(line)
    ab = view.get("abilities") or {}
    settings = view.get("settings") or {}
    line = Text()
    piles = view.get("piles") or {}
    for key, label, style in (("resisted", "Resisted", "green"), ("failed", "Failed", "red")):
        pile = piles.get(key) or []
        line.append(f"{label} {len(pile)}", style=f"bold {style}")
        if pile:
            line.append(" (last ", style="dim")
            line.append_text(_card_text(pile[-1], cards))
            line.append(")", style="dim")
        line.append(" · ", style="dim")
    line.append("Abilities", style="bold")
    if view.get("mode") == "duel":   # a duel's levels are each seat's (its badge shows them)
        line.append(": ", style="dim")
    elif _lone_righteous(righteous_seats_of(view)) is not None:
        line.append(f" (L{ab.get('team_level', 0)}): ", style="dim")
    else:
        line.append(f" (team L{ab.get('team_level', 0)}): ", style="dim")
    if settings.get("mat_abilities") is False:
        line.append("off (matAbilities=0)", style="dim")
    elif ab.get("held"):
        names = []
        for a in ab["held"]:
            t = Text(ABILITY_NAMES.get(a, a).split(" / ")[0], style="green")
            if a in (ab.get("charged") or []):
                t.append(" ⚡ready", style="bold yellow")
            elif a in ("deliverance", "restoration"):
                t.append(" (spent)", style="dim")
            names.append(t)
        line.append_text(_join(names))
    else:
        line.append("none yet", style="dim")
    out.append(line)
    clearing = view.get("clearing")
    if clearing:
        out.append(Text(f"★ Clearing round open: clear every Evil Habitual before {seat_label(clearing.get('seat'))}'s"
                        " next turn begins (judged then)", style="bold yellow"))
    foresight = view.get("foresight") or []
    if foresight:
        t = Text("Foresight — the Evil deck's next cards: ", style="bold magenta")
        t.append_text(_join([_card_text(c, cards, marks=True) for c in foresight]))
        out.append(t)
    return out


def render_board(view: Mapping[str, Any], cards: "CardSet | CardLookup | None" = None, *,
                 events: Sequence[str] = (), deck_names: Mapping[str, str] | None = None,
                 max_events: int = 8) -> RenderableType:
    """The whole board as seen in ``view``: header, seats, hand, table, piles, events.

    ``events`` are lines already in words (see :func:`describe_events`); the last ``max_events``
    are shown. Only the viewer's own hand appears: the view hides every other hand.
    """
    lookup = card_lookup(cards)
    if deck_names is None:
        decks = getattr(cards, "decks", None)
        deck_names = {k: d.name for k, d in decks.items()} if isinstance(decks, Mapping) else {}
    parts: list[RenderableType] = [_header(view)]
    seats = view.get("seats") or []
    per_row = 3 if len(seats) > 4 or len(seats) == 3 else 2
    for start in range(0, len(seats), per_row):
        row = seats[start:start + per_row]
        grid = Table.grid(expand=True, padding=0)
        for _ in row:
            grid.add_column(ratio=1)
        grid.add_row(*[_seat_panel(view, s, lookup, deck_names) for s in row])
        parts.append(grid)
    viewer = view.get("viewer")
    if isinstance(viewer, int) and 0 <= viewer < len(seats):
        parts.append(_hand_panel(view, seats[viewer], lookup))
    table = _table_panel(view, lookup)
    if table is not None:
        parts.append(table)
    parts.extend(_status_lines(view, lookup))
    if events and max_events > 0:
        shown = list(events)[-max_events:]
        body = Text()
        for j, line in enumerate(shown):
            if j:
                body.append("\n")
            style = "bold" if line.startswith("──") or line.startswith("★") else ""
            body.append(line, style=style)
        parts.append(Panel(body, title=Text(" What happened ", style="bold"), title_align="left",
                           border_style="grey50", box=box.ROUNDED, padding=(0, 1)))
    if view.get("result"):
        parts.append(render_result(view))
    return Group(*parts)


def render_result(view: Mapping[str, Any]) -> Panel:
    """The end of the game: who won (or a draw, G-8), why, in which round, and the score."""
    res = view.get("result") or {}
    score = view.get("score") or [0, 0]
    winner = str(res.get("winner", ""))
    style = "bold bright_green" if winner == "righteous" else "bold" if winner == "draw" else "bold red"
    body = Text()
    body.append("A draw" if winner == "draw" else f"{winner.capitalize()} win", style=style)
    body.append(f" — {res.get('reason', '')} (round {res.get('round', '?')})\n")
    body.append("Final score  ", style="bold")
    body.append(f"Righteous {score[0]}", style="bright_green")
    body.append("  :  ")
    body.append(f"Evil {score[1]}", style="red")
    return Panel(body, title=Text(" Game over ", style="bold"), title_align="left",
                 border_style="bright_green" if winner == "righteous" else "white" if winner == "draw" else "red",
                 box=box.DOUBLE, padding=(0, 1))


# ---------------------------------------------------------------------------------------- cards
def render_card_table(cards: Iterable[CardDef], decks_of: Mapping[str, list[str]] | None = None,
                      title: str | None = None) -> Table:
    """A table of cards: name, id, kind, cost / resistance, boosts, decks, rules text."""
    table = Table(title=title, box=box.SIMPLE_HEAVY, expand=True, show_lines=False, padding=(0, 1))
    table.add_column("Card", ratio=3, overflow="fold")
    table.add_column("Kind", no_wrap=True, width=13)
    table.add_column("Cost", no_wrap=True, width=4, justify="right")
    table.add_column("R", no_wrap=True, width=3, justify="right")
    table.add_column("Text", ratio=6, overflow="fold")
    table.add_column("Decks", ratio=1, overflow="fold")
    for card in cards:
        r = "" if not card.is_threat else ("X" if card.x_rule is not None else str(card.resistance))
        name = Text(card.name, style=_card_style(card.kind))
        name.append(f"\n{card.id}", style="dim")
        text = Text(card.text)
        for b in card.boosts:
            text.append(f"\n{'⚡ ' if b.fast else ''}{b.text}", style="italic cyan")
        table.add_row(name, Text(KIND_LABEL.get(card.kind, card.kind), style=_card_style(card.kind)),
                      f"C{card.cost}", r, text, ", ".join((decks_of or {}).get(card.id, [])))
    return table
