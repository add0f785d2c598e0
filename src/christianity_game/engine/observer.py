"""What a seat may see: the one walk of the game that decides it, for every kind of view
(docs/design.md, "Hidden information").

Every view of a game is written by this module into a **sink**, which only formats what it is
handed: ``view.JSON`` makes the server's JSON dicts (``Game.view``), ``view.FROZEN`` the read-only
parts of the bots' lazy snapshots (``seatview.SeatView``), and the learning environment's sink
its arrays (``env/observation.py``). A sink never sees the game: it gets card uids only for cards
the viewer may see, and a count, or :data:`HIDDEN_UID`, for the others. So what a seat may see is
decided here and nowhere else:

* its own hand and Cost Zone whole; another seat's hand as a count, its Cost Zone's face-up cards
  (and the tapped and face-up marks of every card); no deck but its size (the co-op Evil deck's
  Foresight cards on top are public); never the generator;
* every seat's Habituals and discard, the stack, the pending threats, the field and the piles;
* an open choice's options and the legal actions only to the seat that decides them (a spectator,
  ``viewer=None``, gets neither);
* the public bookkeeping: badges, counts, the score, the settings, and a duel's chains, discounts,
  tallies and clocks (of the Cost Zone cards a reward flipped, only those still face up).

A view is walked part by part (:data:`VIEW_KEYS`, each seat's :data:`SEAT_KEYS`, the duel's
:data:`DUEL_KEYS`), so a lazy snapshot builds only the parts its reader asks for; :func:`observe`
walks every part asked for at once. :func:`shown_zones`, :func:`own_cards` and
:func:`hidden_zones` answer the same question for the snapshot's card lookup and for
determinization (the places a world re-deals).

Rules shown (not carried out) here: D-COMBO-1..4 (the chain and the next discount), D-DOM-1/2
(dominance), D-MR-1..7 (plays, failed Temptations and rewards this turn), D-MB-1/2 (the phase tally
and the streaks), D-INT-4..6 (the Evil window, answering), D-W-R and D-W-E (the clocks).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

from .duel import dominance, evil_seats, next_discount, round_threats_left
from .duel_clocks import evil_limit
from .costs import remaining
from .legal import decider

if TYPE_CHECKING:
    from .actions import Action
    from .duel_state import DuelState
    from .base import GameBase as Game
    from .settings import Settings

#: the uid a sink is handed for a card the viewer may not see (a face-down Cost Zone card)
HIDDEN_UID = -1

#: the keys of a view, in the order of its JSON
VIEW_KEYS: tuple[str, ...] = (
    "state_id", "mode", "lineup", "round", "max_rounds", "turn_seat", "phase", "viewer", "decider", "seats",
    "stack", "threats", "evil_deck_size", "foresight", "field", "piles", "abilities", "clearing", "score",
    "score_parts", "result", "settings", "choice", "pending", "duel")
#: the keys of a seat in a view, in the order of its JSON
SEAT_KEYS: tuple[str, ...] = (
    "seat", "side", "deck", "humility", "maturity", "hand", "hand_size", "deck_size", "cost_zone", "untapped",
    "in_play", "held", "discard", "love_to")
#: the keys of a view's ``duel`` object, in the order of its JSON
DUEL_KEYS: tuple[str, ...] = (
    "chain", "dominance", "next_discount", "plays_this_turn", "failed_temptations_this_turn",
    "rewards_this_turn", "reward_pending", "phase_plays", "boost_every", "streaks", "evil_window",
    "answering", "righteous_clock", "evil_clock", "evil_limit", "round_threats_left", "replace_spent", "counts")

#: a stack item as a sink gets it: (uid, kind, controller, to_seat, boost index or None, target or None)
StackRow = tuple[int, str, int, "int | None", "int | None", "int | None"]
#: a pending threat as a sink gets it: (uid, target, by, resistance, paid, remaining, finale)
ThreatRow = tuple[int, int, "int | None", int, int, int, bool]


class Sink(Protocol):
    """Where a view is written. Each method formats one part from what the observer hands it and
    returns the part's value. Cards come as uids, and only those the viewer may see: a hidden card
    is :data:`HIDDEN_UID` or only counted."""

    def seat(self, seat: int, side: str, deck: str, humility: int, maturity: int, hand: Sequence[int] | None,
             hand_size: int, deck_size: int, cost_zone: Sequence[int], tapped: Sequence[bool],
             face_up: Sequence[bool], untapped: int, in_play: Sequence[int], held: Sequence[int],
             discard: Sequence[int], love_to: int | None) -> Any:
        """One seat, by :data:`SEAT_KEYS`: ``hand`` None when the viewer may not see it (``hand_size``
        cards); each Cost Zone card's uid (:data:`HIDDEN_UID` when hidden), tapped and face-up marks."""

    def seats(self, seats: list[Any]) -> Any:
        """Every seat, as :meth:`seat` made them."""

    def cards(self, where: str, seat: int, uids: Sequence[int]) -> Any:
        """Cards the viewer sees, in order: "foresight", "field" (``seat`` -1), or one zone of a seat
        for a lazy view ("hand", "in_play", "held", "discard")."""

    def hidden(self, where: str, seat: int, count: int) -> Any:
        """``count`` cards the viewer may not see, for a lazy view ("hand": another seat's hand)."""

    def cost_zone(self, seat: int, uids: Sequence[int], tapped: Sequence[bool], face_up: Sequence[bool]) -> Any:
        """A seat's Cost Zone, for a lazy view (as :meth:`seat` gets it)."""

    def stack(self, rows: list[StackRow]) -> Any:
        """The stack, bottom first."""

    def threats(self, rows: list[ThreatRow]) -> Any:
        """The pending threats, in order."""

    def piles(self, resisted: Sequence[int], failed: Sequence[int]) -> Any:
        """The resisted and failed piles."""

    def choice(self, purpose: str, count: int, minimum: int, options: Sequence[int]) -> Any:
        """The viewer's open choice."""

    def record(self, key: str, values: dict[str, Any]) -> Any:
        """A part made of named scalars and lists of scalars ("abilities", "clearing", "result")."""

    def plain(self, key: str, value: Any) -> Any:
        """A part of plain JSON facts ("score", "score_parts", one duel key): new dicts, lists, scalars."""

    def settings(self, settings: "Settings") -> Any:
        """The table's settings."""

    def pending(self, actions: Sequence["Action"]) -> Any:
        """The viewer's legal actions."""

    def duel(self, values: dict[str, Any]) -> Any:
        """A duel's bookkeeping: ``values`` by :data:`DUEL_KEYS` (those the walk was asked for),
        plain JSON facts."""


def check_viewer(game: "Game", viewer: int | None) -> None:
    """Refuse a viewer that is neither a seat of ``game`` nor None (a spectator)."""
    if viewer is not None and not (isinstance(viewer, int) and 0 <= viewer < len(game.state.seats)):
        raise ValueError(f"there is no seat {viewer!r}")


def moment(game: "Game") -> tuple[Any, int]:
    """What a snapshot remembers of the moment it shows: the state object and its ``state_id``."""
    st = game.state
    return st, st.state_id


def is_moment(game: "Game", st: Any, state_id: int) -> bool:
    """Whether ``game`` is still at the moment :func:`moment` gave (``st``, ``state_id``)."""
    return game.state is st and st.state_id == state_id


def has_duel(game: "Game") -> bool:
    """Whether a view of ``game`` has a ``duel`` part."""
    return game.state.duel is not None


#: the keys of a view that are plain facts of the moment, taken together (a snapshot takes them
#: when it is made)
HEAD_KEYS: tuple[str, ...] = (
    "state_id", "mode", "lineup", "round", "max_rounds", "turn_seat", "phase", "viewer", "evil_deck_size")


def view_head(game: "Game", viewer: int | None) -> dict[str, Any]:
    """The :data:`HEAD_KEYS` of ``viewer``'s view: every seat sees them."""
    st = game.state
    return {"state_id": st.state_id, "mode": game.mode.name, "lineup": game.lineup, "round": st.round,
            "max_rounds": game.settings.max_rounds if game.mode.has_round_limit else None,
            "turn_seat": game.turn_seat, "phase": game.phase, "viewer": viewer, "evil_deck_size": len(st.evil_deck)}


def observe(game: "Game", viewer: int | None, sink: Sink, keys: Sequence[str] = VIEW_KEYS,
            duel_keys: Sequence[str] = DUEL_KEYS) -> dict[str, Any]:
    """Every part of ``keys`` that ``viewer`` sees of ``game``, written into ``sink``: key -> value
    (of a duel's bookkeeping, the keys ``duel_keys``)."""
    check_viewer(game, viewer)
    if keys is VIEW_KEYS and duel_keys is DUEL_KEYS:
        return _whole_view(game, viewer, sink)
    head = view_head(game, viewer)
    out: dict[str, Any] = {}
    for key in keys:
        out[key] = head[key] if key in head else view_part(game, viewer, key, sink, duel_keys)
    return out


def _whole_view(game: "Game", viewer: int | None, sink: Sink) -> dict[str, Any]:
    """Every part of the view, in the order of :data:`VIEW_KEYS` (:func:`observe`'s whole walk)."""
    st = game.state
    return {
        "state_id": st.state_id, "mode": game.mode.name, "lineup": game.lineup, "round": st.round,
        "max_rounds": game.settings.max_rounds if game.mode.has_round_limit else None, "turn_seat": game.turn_seat,
        "phase": game.phase, "viewer": viewer, "decider": decider(game), "seats": _seats(game, viewer, sink),
        "stack": _stack(game, sink), "threats": _threats(game, sink), "evil_deck_size": len(st.evil_deck),
        "foresight": sink.cards("foresight", -1, st.foresight), "field": sink.cards("field", -1, st.field),
        "piles": sink.piles(st.resisted, st.failed), "abilities": _abilities(game, sink),
        "clearing": _clearing(game, sink), "score": sink.plain("score", list(game.score)),
        "score_parts": sink.plain("score_parts", game.score_parts()), "result": _result(game, sink),
        "settings": sink.settings(game.settings), "choice": _choice(game, viewer, sink),
        "pending": sink.pending(pending_actions(game, viewer)), "duel": _duel(game, sink, DUEL_KEYS)}


def view_part(game: "Game", viewer: int | None, key: str, sink: Sink, duel_keys: Sequence[str] = DUEL_KEYS) -> Any:
    """One part of the view (a key of :data:`VIEW_KEYS`; KeyError for any other)."""
    st = game.state
    if key == "seats":
        return _seats(game, viewer, sink)
    if key == "stack":
        return _stack(game, sink)
    if key == "threats":
        return _threats(game, sink)
    if key == "decider":
        return decider(game)
    if key == "choice":
        return _choice(game, viewer, sink)
    if key == "field":
        return sink.cards("field", -1, st.field)
    if key == "duel":
        return _duel(game, sink, duel_keys)
    if key == "abilities":
        return _abilities(game, sink)
    if key == "score":
        return sink.plain("score", list(game.score))
    if key == "piles":
        return sink.piles(st.resisted, st.failed)
    if key == "clearing":
        return _clearing(game, sink)
    if key == "foresight":
        return sink.cards("foresight", -1, st.foresight)
    if key == "settings":
        return sink.settings(game.settings)
    if key == "pending":
        return sink.pending(pending_actions(game, viewer))
    if key == "score_parts":
        return sink.plain("score_parts", game.score_parts())
    if key == "result":
        return _result(game, sink)
    if key in HEAD_KEYS:
        return view_head(game, viewer)[key]
    raise KeyError(key)


def _seats(game: "Game", viewer: int | None, sink: Sink) -> Any:
    return sink.seats([seat_entry(game, viewer, i, sink) for i in range(len(game.state.seats))])


def _stack(game: "Game", sink: Sink) -> Any:
    rows: list[StackRow] = []
    for item in game.state.stack:
        kind = item.kind
        rows.append((item.uid, kind, item.controller, item.to_seat, item.boost if kind == "boost" else None,
                     item.threat if kind == "threat" else None))
    return sink.stack(rows)


def _threats(game: "Game", sink: Sink) -> Any:
    st = game.state
    d = st.duel
    rows: list[ThreatRow] = []
    for t in st.threats:
        rows.append((t.uid, t.target, t.by, t.resistance, t.paid, remaining(game, t),
                     d is not None and t.uid in d.finale))
    return sink.threats(rows)


def _choice(game: "Game", viewer: int | None, sink: Sink) -> Any:
    c = game.state.choice
    if viewer is None or c is None or c.seat != viewer:   # an open choice is its chooser's alone
        return None
    return sink.choice(c.purpose, c.count, max(0, c.minimum), c.options)


def _duel(game: "Game", sink: Sink, keys: Sequence[str]) -> Any:
    if game.state.duel is None:
        return None
    return sink.duel({k: duel_part(game, k) for k in keys})


def _abilities(game: "Game", sink: Sink) -> Any:
    st = game.state
    return sink.record("abilities", {"held": list(st.abilities), "charged": sorted(st.charged),
                                     "team_level": st.team_level, "choosing": st.ability_picks > 0})


def _clearing(game: "Game", sink: Sink) -> Any:
    clearing = game.state.clearing
    return None if clearing is None else sink.record("clearing", {"seat": clearing[0], "opened_turn": clearing[1]})


def _result(game: "Game", sink: Sink) -> Any:
    res = game.state.result
    return None if res is None else sink.record("result", {"winner": res.winner, "reason": res.reason,
                                                           "round": res.round})


def pending_actions(game: "Game", viewer: int | None) -> list["Action"]:
    """The legal actions a view shows its viewer: its own (none for a spectator)."""
    return [] if viewer is None else game.legal_actions(viewer)


def boost_offer(game: "Game") -> int | None:
    """The card whose boosts are on offer now, or None (public: every seat saw it played; a view
    shows the offer only as the deciding seat's ``TakeBoost`` actions)."""
    offers = game.state.offers
    return offers[-1].uid if offers else None


def turn_step(game: "Game") -> str:
    """The step of the turn the game is in (public: a view's ``phase`` is made from it)."""
    return game.state.step


# ---------------------------------------------------------------------------------------- seats
def seat_facts(game: "Game", i: int) -> dict[str, Any]:
    """Seat ``i``'s public scalars: the keys of :data:`SEAT_KEYS` that are no zone."""
    sd = game.state.seats[i]
    return {"seat": i, "side": sd.side, "deck": sd.deck_id, "humility": sd.humility, "maturity": sd.maturity,
            "hand_size": len(sd.hand), "deck_size": len(sd.deck), "love_to": sd.love_to}


def shown_hand(game: "Game", viewer: int | None, i: int) -> Sequence[int] | None:
    """Seat ``i``'s hand if ``viewer`` may see it (its own), else None."""
    return game.state.seats[i].hand if viewer == i else None


def shown_cost_zone(game: "Game", viewer: int | None, i: int) -> tuple[Sequence[int], list[bool], list[bool]]:
    """Seat ``i``'s Cost Zone as ``viewer`` sees it: each card's uid (:data:`HIDDEN_UID` for
    another seat's face-down card), and whether it is tapped and face up."""
    st = game.state
    zone = st.seats[i].cost_zone
    tapped, face_up = st.tapped, st.face_up
    n = len(zone)
    marked = list(map(tapped.__contains__, zone)) if tapped else [False] * n
    if not face_up:
        return zone if viewer == i else [HIDDEN_UID] * n, marked, [False] * n
    up = list(map(face_up.__contains__, zone))
    if viewer == i or all(up):
        return zone, marked, up
    return [u if u_up else HIDDEN_UID for u, u_up in zip(zone, up)], marked, up


def seat_part(game: "Game", viewer: int | None, i: int, key: str, sink: Sink) -> Any:
    """A zone of seat ``i`` as ``viewer`` sees it ("hand", "cost_zone", "untapped", "in_play",
    "held", "discard"; KeyError for any other key), for a lazy view."""
    sd = game.state.seats[i]
    if key == "hand":
        hand = shown_hand(game, viewer, i)
        return sink.hidden("hand", i, len(sd.hand)) if hand is None else sink.cards("hand", i, hand)
    if key == "cost_zone":
        shown, tapped, up = shown_cost_zone(game, viewer, i)
        return sink.cost_zone(i, shown, tapped, up)
    if key == "untapped":
        return game._untapped(i)
    if key == "in_play":
        return sink.cards("in_play", i, sd.in_play)
    if key == "held":
        return sink.cards("held", i, sd.held)
    if key == "discard":
        return sink.cards("discard", i, sd.discard)
    raise KeyError(key)


def seat_entry(game: "Game", viewer: int | None, i: int, sink: Sink) -> Any:
    """Seat ``i`` whole, as ``viewer`` sees it, written into ``sink``."""
    sd = game.state.seats[i]
    shown, tapped, up = shown_cost_zone(game, viewer, i)
    return sink.seat(i, sd.side, sd.deck_id, sd.humility, sd.maturity, shown_hand(game, viewer, i), len(sd.hand),
                     len(sd.deck), shown, tapped, up, tapped.count(False), sd.in_play, sd.held, sd.discard, sd.love_to)


# ---------------------------------------------------------------------------------------- the duel
def duel_part(game: "Game", key: str) -> Any:
    """One key of a duel's bookkeeping (:data:`DUEL_KEYS`) as new plain JSON (KeyError for any other)."""
    table = game
    st = game.state
    d: DuelState = st.duel
    if key == "chain":
        return {"count": d.chain_count, "last": d.chain_last, "target": d.chain_target,
                "seats": list(d.chain_seats), "single_target": not d.chain_mixed}
    # keyed by the seat number as text, so the view is the same after a JSON round trip
    if key == "dominance":
        return {str(i): dominance(table, i) for i in evil_seats(table)}
    if key == "next_discount":
        return {str(i): next_discount(table, i) for i in evil_seats(table)}
    if key == "plays_this_turn":
        return d.plays[:]
    if key == "failed_temptations_this_turn":
        return d.failed_temptations
    if key == "rewards_this_turn":
        return d.rewards
    if key == "reward_pending":
        return [{"seat": s, "kind": k} for s, k in d.reward_queue]
    if key == "phase_plays":
        return d.phase_plays
    if key == "boost_every":
        return 3 + len(table.righteous_seats())
    if key == "streaks":
        return d.streak[:]
    if key == "evil_window":
        return d.evil_window[:]
    if key == "answering":
        return d.answering
    if key == "righteous_clock":
        return None if d.r_clock is None else {"seat": d.r_clock[0], "armed_turn": d.r_clock[1]}
    if key == "evil_clock":
        return None if d.e_clock is None else {
            "armed_turn": d.e_clock, "righteous_turns_since": d.e_righteous_turns,
            "limit": evil_limit(table), "in_play": table.evil_habituals_in_play()}
    if key == "evil_limit":
        return evil_limit(table)
    if key == "round_threats_left":   # the roundThreats variant: the Evil side's threats left this round
        return max(0, round_threats_left(table)) if table.settings.round_threats else None
    if key == "replace_spent":
        return sorted(u for u in d.replace_spent if u in st.face_up)
    if key == "counts":
        return dict(d.counts)
    raise KeyError(key)


# ---------------------------------------------------------------------------------------- which cards
def own_cards(game: "Game", viewer: int | None) -> tuple[Sequence[int], Sequence[int]]:
    """The viewer's hand and Cost Zone (empty for a spectator): the cards it sees whole."""
    if viewer is None:
        return (), ()
    sd = game.state.seats[viewer]
    return sd.hand, sd.cost_zone


def face_up_cards(game: "Game", i: int) -> list[int]:
    """Seat ``i``'s face-up Cost Zone cards, in order: every seat sees them."""
    st = game.state
    face_up = st.face_up
    return [u for u in st.seats[i].cost_zone if u in face_up] if face_up else []


def decks_top_first(game: "Game") -> tuple[list[list[int]], list[int]]:
    """Every seat's deck and the co-op Evil deck, top card first: what no view shows while a game
    is played, for the replay viewer's "all cards" of a record whose game is over (its actions
    reveal them anyway; the caller checks the end)."""
    st = game.state
    return [list(reversed(sd.deck)) for sd in st.seats], list(reversed(st.evil_deck))   # a deck's top is its end


def shown_zones(game: "Game", viewer: int | None, piles: bool = False) -> list[Sequence[int]]:
    """Every uid sequence whose cards a view of ``viewer`` shows in the seats' zones, the stack, the
    threats, the field and the viewer's open choice, the viewer's own cards first (``piles``: the
    Foresight cards and the piles too)."""
    st = game.state
    hand, cost_zone = own_cards(game, viewer)
    zones: list[Sequence[int]] = [hand, cost_zone] if viewer is not None else []
    face_up = st.face_up
    for i, sd in enumerate(st.seats):
        if viewer != i and face_up:   # another seat's face-up Cost Zone cards
            zones.append(face_up_cards(game, i))
        zones += (sd.in_play, sd.held, sd.discard)
    zones += ([item.uid for item in st.stack], [th.uid for th in st.threats], st.field)
    if piles:
        zones += (st.foresight, st.resisted, st.failed)
    c = st.choice
    if viewer is not None and c is not None and c.seat == viewer:
        zones.append(c.options)
    return zones


def hidden_zones(game: "Game", viewer: int | None) -> list[list[int]]:
    """The zones that may hold cards ``viewer`` cannot see: every deck, every other seat's hand and
    Cost Zone, and the co-op Evil deck. A card in them that :func:`shown_uids` names is seen (a
    face-up Cost Zone card, the Foresight cards on top of the Evil deck, a resolved card whose
    boost is on the stack)."""
    st = game.state
    zones: list[list[int]] = []
    for i, sd in enumerate(st.seats):
        zones.append(sd.deck)
        if i != viewer:
            zones.append(sd.hand)
            zones.append(sd.cost_zone)
    zones.append(st.evil_deck)
    return zones


def shown_uids(game: "Game", viewer: int | None) -> set[int]:
    """Every uid a view of ``viewer`` names: the cards it shows and the cards and threats of its
    legal actions."""
    out: set[int] = set()
    for zone in shown_zones(game, viewer, piles=True):
        out.update(zone)
    for action in pending_actions(game, viewer):
        for key in ("card", "option", "threat"):
            value = getattr(action, key, None)
            if isinstance(value, int):
                out.add(value)
    return out
