"""Events in words: :func:`describe_event` turns an event (``Event.for_seat``) into a sentence,
:func:`describe_events` a run of them into lines (repeats folded)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from ..cards.model import Boost
from .terminal_common import ABILITY_NAMES, PHASE_LABEL, CardLookup, _lone_righteous, _name, card_lookup, seat_label

if TYPE_CHECKING:
    from ..cards.loader import CardSet


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
