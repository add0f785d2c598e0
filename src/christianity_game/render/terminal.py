"""The terminal's words and board, for the CLI and the replay captions (every name imports from here).

* :func:`render_board` draws one seat's view (or a spectator's): the header (mode, round, turn,
  phase, score), one panel per seat (Humility and Maturity badges, Cost Zone, Habituals), the
  viewer's hand, pending threats, the stack, the open choice, piles, abilities, the clearing
  round, and the last events in words.
* :func:`describe_action` turns an action into a sentence with card names ("Play Beside Still
  Waters (C1)", "Resist Pride (R2) with 2 Cost", ...).
* :func:`describe_event` turns an event (``Event.for_seat``) into a sentence.

The board is ``render/board.py``, the event texts ``render/event_texts.py`` and what they share
with the action texts (here) ``render/terminal_common.py``; this module gives every name of them.

Seats are shown numbered from 1 ("Seat 1"); the engine numbers them from 0.
Nothing here changes the game or prints: the CLI prints what these functions return.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from rich import box
from rich.console import RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..engine.actions import (
    Action, AdjustBadge, AnswerEnd, BuyAbility, Choose, ChooseAbility, ChooseReward, LayCostZone, OfferEnd, Pass,
    PlayCard, Resist, TakeBoost, Undo, UseAbility,
)
from ..engine.observer import boost_offer, turn_step
from .board import render_board, render_card_table, render_result
from .event_texts import describe_event, describe_events
from .table_words import ability_text, card_text
from .terminal_common import (
    ABILITY_NAMES, ABILITY_TEXT, KIND_LABEL, KIND_STYLE, PHASE_LABEL, PURPOSE_TEXT, CardLookup, _boost_effect_text,
    _first, boost_line, card_lookup, righteous_count, righteous_seats_of, seat_label,
)

if TYPE_CHECKING:
    from ..engine.game import Game

__all__ = [
    "ABILITY_NAMES", "ABILITY_TEXT", "END_TURN", "KIND_LABEL", "KIND_STYLE", "PHASE_LABEL", "PURPOSE_TEXT",
    "CardLookup", "boost_line", "card_lookup", "describe_action", "describe_actions", "describe_event", "describe_events",
    "ends_turn", "render_actions", "render_board", "render_card_table", "render_result", "righteous_count",
    "righteous_seats_of", "seat_label",
]


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
    if isinstance(a, ChooseReward):
        words = _REWARD_WORDS.get(a.reward, a.reward)
        kind = "micro-boost" if game.lineup[seat] == "R" else "micro-reward"
        text = f"Take the {kind}: {words}"
        if a.to_seat is not None and a.to_seat != seat:
            text += f" → {seat_label(a.to_seat)}"
        return text
    if isinstance(a, Undo):
        return "Take back your last action"
    if isinstance(a, OfferEnd):
        return "Offer to end the game on the score"
    if isinstance(a, AnswerEnd):
        return "Accept the offer to end on the score" if a.answer == "accept" else "Decline the offer to end"
    return type(a).description or repr(a)   # a kind with no sentence of its own here: its declared one


#: what each duel reward (D-MR) or boost does, in the words of the rules page
_REWARD_WORDS: dict[str, str] = {
    "draw": "draw 2 cards",
    "humility": "gain 1 Humility",
    "untap": "ready 2 rotated Cost Zone cards",
    "flip": "turn 2 face-down Cost Zone cards face up",
    "destroy": "destroy a Righteous Habitual",
}


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
