"""A seat's view as a typed, read-only object, for in-process bots (DESIGN "Hidden information by
construction"; issue 9, "views that cost little").

``Game.view(seat)`` builds a fresh JSON dict: the server sends it and must own it. A bot in the
same process needs only to read a view, so :class:`SeatView` skips most of that work:

* **Static parts are cached per card table.** A visible card is the same ``{"uid", "id", "name",
  "kind"}`` object in every view of a game (a read-only ``MappingProxyType``), and so are the
  Cost Zone entries (one per card and tapped / face-up combination), the hidden placeholders and
  the settings. Shared objects are read-only: no consumer can change another view through them.
* **It is a snapshot.** Everything is taken from the state when the view is made; later actions
  do not change it. Two keys are turned into their read-only form on first read, from what was
  taken then: ``pending`` (the tuple of legal, frozen, action values) and ``duel`` (the new dict
  ``duel_view()`` returned).
* **Read-only all the way down.** Nested objects are ``MappingProxyType`` and lists are tuples.
  ``to_json()`` gives plain dicts and lists: exactly ``Game.view(seat)``, key order included
  (``tests/test_seatview.py`` checks it at every decision of many games of every mode).

:meth:`SeatView.card_ids` gives the card id of every uid the view shows, which bots otherwise
work out by walking the whole view.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache
from itertools import compress
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..cards.model import CardDef
    from .actions import Action
    from .flow import FlowRules as Game
    from .settings import Settings

Frozen = Mapping[str, Any]

HIDDEN_CARD: Frozen = MappingProxyType({"hidden": True})
# hidden Cost Zone cards, by (tapped, face_up); a face-up card is never hidden
_HIDDEN_CZ: dict[tuple[bool, bool], Frozen] = {
    (t, f): MappingProxyType({"hidden": True, "tapped": t, "face_up": f}) for t in (False, True) for f in (False, True)}

# the keys of a view, in the order of Game.view's JSON
KEYS: tuple[str, ...] = (
    "state_id", "mode", "lineup", "round", "max_rounds", "turn_seat", "phase", "viewer", "decider", "seats",
    "stack", "threats", "evil_deck_size", "foresight", "field", "piles", "abilities", "clearing", "score",
    "result", "settings", "choice", "pending", "duel")
_KEY_SET = frozenset(KEYS)
_LATER = frozenset(("pending", "duel"))   # made on first read


class _Cards(dict[int, Frozen]):
    """uid -> the card's read-only JSON object, each made on first use (``defs``: the card table)."""

    __slots__ = ("defs",)

    def __init__(self, defs: "list[CardDef]") -> None:
        super().__init__()
        self.defs = defs

    def __missing__(self, uid: int) -> Frozen:
        card = self.defs[uid]
        entry: Frozen = MappingProxyType({"uid": uid, "id": card.id, "name": card.name, "kind": card.kind})
        self[uid] = entry
        return entry


class _CostZone(dict[tuple[int, bool, bool], Frozen]):
    """(uid, tapped, face_up) -> a Cost Zone card's read-only JSON object, each made on first use:
    the card plus ``tapped`` and ``face_up`` when the viewer sees it (``shown``: its own Cost Zone;
    otherwise face-up cards only), else the hidden placeholder."""

    __slots__ = ("cards", "own")

    def __init__(self, cards: _Cards, own: bool) -> None:
        super().__init__()
        self.cards = cards
        self.own = own

    def __missing__(self, key: tuple[int, bool, bool]) -> Frozen:
        uid, tapped, face_up = key
        if self.own or face_up:
            entry: Frozen = MappingProxyType({**self.cards[uid], "tapped": tapped, "face_up": face_up})
        else:
            entry = _HIDDEN_CZ[tapped, face_up]
        self[key] = entry
        return entry


class CardTable:
    """The parts of views that never change during a game, kept per card table (``game.defs``,
    which clones share): each card's JSON object and its Cost Zone variants, made on first use."""

    __slots__ = ("defs", "size", "cards", "own_cz", "other_cz")

    def __init__(self, defs: "list[CardDef]") -> None:
        self.defs = defs   # kept alive: the cache is keyed by its id()
        self.size = len(defs)
        self.cards = _Cards(defs)
        self.own_cz = _CostZone(self.cards, own=True)      # the viewer's own Cost Zone
        self.other_cz = _CostZone(self.cards, own=False)   # another seat's


_TABLES: dict[int, CardTable] = {}
_TABLES_MAX = 256


def card_table(game: "Game") -> CardTable:
    """The cached :class:`CardTable` of ``game``'s card table (at most 256 are kept, oldest out)."""
    defs = game.defs
    table = _TABLES.get(id(defs))
    if table is None or table.defs is not defs or table.size != len(defs):
        table = CardTable(defs)
        while len(_TABLES) >= _TABLES_MAX:
            try:
                del _TABLES[next(iter(_TABLES))]
            except (KeyError, RuntimeError, StopIteration):   # another thread got there first
                break
        _TABLES[id(defs)] = table
    return table


@lru_cache(maxsize=64)
def settings_json(settings: "Settings") -> Frozen:
    """The settings' JSON object, read-only and shared (settings are frozen values)."""
    return MappingProxyType(settings.to_dict())


def freeze(obj: Any) -> Any:
    """A read-only copy of a JSON-like value: dicts become mapping proxies, lists tuples."""
    t = type(obj)
    if t is dict:
        return MappingProxyType({k: freeze(v) if type(v) in _CONTAINERS else v for k, v in obj.items()})
    if t is list or t is tuple:
        return tuple([freeze(v) if type(v) in _CONTAINERS else v for v in obj])
    return obj


_CONTAINERS = (dict, list, tuple)


def thaw(obj: Any) -> Any:
    """The plain JSON value of a frozen one: new dicts and lists, nothing shared."""
    if isinstance(obj, Mapping):
        return {k: thaw(v) for k, v in obj.items()}
    if isinstance(obj, tuple):
        return [thaw(v) for v in obj]
    return obj


class SeatView(Mapping[str, Any]):
    """What ``viewer`` may see of ``game`` at the moment it is made (None: a spectator), as a
    read-only mapping with the keys and values of ``Game.view(viewer)`` (frozen: mapping proxies
    and tuples). ``to_json()`` is ``Game.view(viewer)``; ``card_ids()`` maps each shown uid to its
    card id."""

    __slots__ = ("_data", "_actions", "_duel", "_visible", "_table", "_ids")

    def __init__(self, game: "Game", viewer: int | None) -> None:
        st = game.state
        n_seats = len(st.seats)
        if viewer is not None and not (isinstance(viewer, int) and 0 <= viewer < n_seats):
            raise ValueError(f"there is no seat {viewer!r}")
        table = card_table(game)
        cards = table.cards
        card = cards.__getitem__
        own_cz, other_cz = table.own_cz.__getitem__, table.other_cz.__getitem__
        tapped, face_up = st.tapped, st.face_up
        is_tapped, is_up = tapped.__contains__, face_up.__contains__
        visible: list[Any] = []   # uid sequences whose cards the view shows (for card_ids)
        seats = []
        for i, sd in enumerate(st.seats):
            mine = viewer == i
            zone = sd.cost_zone
            flags_t = list(map(is_tapped, zone))
            flags_f = list(map(is_up, zone))
            keys = zip(zone, flags_t, flags_f)
            if mine:
                cz = tuple(map(own_cz, keys))
                hand = tuple(map(card, sd.hand))
                visible += (zone[:], sd.hand[:])
            else:
                cz = tuple(map(other_cz, keys))   # face-down cards hidden
                hand = (HIDDEN_CARD,) * len(sd.hand)
                visible.append(list(compress(zone, flags_f)))
            in_play, held, discard = sd.in_play[:], sd.held[:], sd.discard[:]
            visible += (in_play, held, discard)
            seats.append(MappingProxyType({
                "seat": i,
                "side": sd.side,
                "deck": sd.deck_id,
                "humility": sd.humility,
                "maturity": sd.maturity,
                "hand": hand,
                "hand_size": len(sd.hand),
                "deck_size": len(sd.deck),
                "cost_zone": cz,
                "untapped": len(zone) - sum(flags_t),
                "in_play": tuple(map(card, in_play)),
                "held": tuple(map(card, held)),
                "discard": tuple(map(card, discard)),
                "love_to": sd.love_to,
            }))
        stack = []
        for item in st.stack:
            entry = {**cards[item.uid], "item": item.kind, "controller": item.controller, "to_seat": item.to_seat}
            if item.kind == "boost":
                entry["boost"] = item.boost
            if item.kind == "threat":
                entry["target"] = item.threat
            stack.append(MappingProxyType(entry))
        visible.append([item.uid for item in st.stack])
        threats = []
        finale = st.duel.finale if st.duel is not None else ()
        for th in st.threats:
            threats.append(MappingProxyType({
                **cards[th.uid], "target": th.target, "by": th.by, "resistance": th.resistance, "paid": th.paid,
                "remaining": game._remaining(th), "finale": st.duel is not None and th.uid in finale}))
        visible.append([th.uid for th in st.threats])
        field = st.field[:]
        visible.append(field)
        actions: tuple[Action, ...] = ()
        choice = None
        if viewer is not None:
            actions = tuple(game.legal_actions(viewer))
            c = st.choice
            if c is not None and c.seat == viewer:
                options = c.options[:]
                visible.append(options)
                choice = MappingProxyType({"purpose": c.purpose, "count": c.count, "minimum": max(0, c.minimum),
                                           "options": tuple(map(card, options))})
        res = game.result
        self._data: dict[str, Any] = {
            "state_id": st.state_id,
            "mode": game.mode.name,
            "lineup": game.lineup,
            "round": st.round,
            "max_rounds": game.settings.max_rounds if game.mode.has_round_limit else None,
            "turn_seat": game.turn_seat,
            "phase": game.phase,
            "viewer": viewer,
            "decider": game._decider(),
            "seats": tuple(seats),
            "stack": tuple(stack),
            "threats": tuple(threats),
            "evil_deck_size": len(st.evil_deck),
            "foresight": tuple(map(card, st.foresight)),
            "field": tuple(map(card, field)),
            "piles": MappingProxyType({"resisted": tuple(map(card, st.resisted)),
                                       "failed": tuple(map(card, st.failed))}),
            "abilities": MappingProxyType({"held": tuple(st.abilities), "charged": tuple(sorted(st.charged)),
                                           "team_level": st.team_level, "choosing": st.ability_picks > 0}),
            "clearing": None if st.clearing is None else MappingProxyType(
                {"seat": st.clearing[0], "opened_turn": st.clearing[1]}),
            "score": tuple(game.score),
            "result": None if res is None else MappingProxyType(
                {"winner": res.winner, "reason": res.reason, "round": res.round}),
            "settings": settings_json(game.settings),
            "choice": choice,
        }
        # made on first read: "pending" from the (frozen) legal actions, "duel" from the duel's view,
        # taken now (duel_view returns new objects, never the state's own)
        self._actions = actions
        self._duel: dict[str, Any] | None = game.duel_view() if st.duel is not None else None  # type: ignore[attr-defined]
        self._visible = visible
        self._table = table
        self._ids: Mapping[int, str] | None = None

    # ------------------------------------------------------------------ Mapping
    def __getitem__(self, key: str) -> Any:
        try:
            return self._data[key]
        except KeyError:
            return self._later(key)

    def get(self, key: str, default: Any = None) -> Any:
        """``view.get(key, default)``, without the Mapping mixin's exception round trip."""
        data = self._data
        if key in data:
            return data[key]
        return self._later(key) if key in _LATER else default

    def _later(self, key: str) -> Any:
        """A key made on first read (``pending``, ``duel``); KeyError for a key views lack."""
        if key == "pending":
            value: Any = tuple(freeze(a.to_json()) for a in self._actions)
        elif key == "duel":
            value = None if self._duel is None else freeze(self._duel)
            self._duel = None
        else:
            raise KeyError(key)
        self._data[key] = value
        return value

    def __contains__(self, key: object) -> bool:
        return key in _KEY_SET

    def __iter__(self) -> Iterator[str]:
        return iter(KEYS)

    def __len__(self) -> int:
        return len(KEYS)

    def __eq__(self, other: object) -> bool:
        """Equal to another view or a view's JSON with the same content."""
        if isinstance(other, SeatView):
            return self.to_json() == other.to_json()
        if isinstance(other, Mapping):
            return self.to_json() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        d = self._data
        return f"<SeatView viewer={d['viewer']} state_id={d['state_id']} {d['mode']} {d['lineup']}>"

    # ------------------------------------------------------------------ the rest
    @property
    def actions(self) -> tuple["Action", ...]:
        """The viewer's legal actions when the view was made (``pending`` as action values)."""
        return self._actions

    def card_ids(self) -> Mapping[int, str]:
        """uid -> card id of every card this view shows in a seat's zones, the stack, the threats,
        the field and the viewer's open choice (read-only; made on first call)."""
        ids = self._ids
        if ids is None:
            defs = self._table.defs
            ids = MappingProxyType({u: defs[u].id for uids in self._visible for u in uids})
            self._ids = ids
        return ids

    def to_json(self) -> dict[str, Any]:
        """The view as plain JSON (new dicts and lists): equal to ``Game.view(viewer)``."""
        return {k: thaw(self[k]) for k in KEYS}
