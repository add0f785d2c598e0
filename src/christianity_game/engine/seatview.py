"""A seat's view as a typed, read-only object, for in-process bots (docs/design.md, "Hidden
information"; what it saves: docs/developers.md, "Views for in-process bots, and the lab").

``Game.view(seat)`` builds a fresh JSON dict: the server sends it and must own it. A bot in the
same process needs only to read a view, so :class:`SeatView` skips most of that work:

* **Static parts are cached per card table.** A visible card is the same ``{"uid", "id", "name",
  "kind"}`` object in every view of a game (a read-only ``MappingProxyType``), and so are the
  Cost Zone entries (one per card and tapped / face-up combination), the hidden placeholders and
  the settings. Shared objects are read-only: no consumer can change another view through them.
* **Built on first read, still a snapshot.** A key is built from the game when it is first
  read, so a bot pays only for what it reads (the heuristic never reads the piles, the score or
  ``pending``); so are each seat's zones and each key of the ``duel`` object. No part holds the
  view itself, so a dropped view is freed at once (no reference cycle). Before the game changes, every view of it still alive builds the keys it has not
  built (``Game._freeze_views``, weak references): a view kept after an action reads the moment it
  was made, and a view dropped before the next action costs nothing more.
* **Read-only all the way down.** Nested objects are ``MappingProxyType`` and lists are tuples.
  ``to_json()`` gives plain dicts and lists: exactly ``Game.view(seat)``, key order included
  (``tests/test_seatview.py`` checks it at every decision of many games of every mode).

:meth:`SeatView.card_ids` gives the card id of every uid the view shows, which bots otherwise
work out by walking the whole view; a lookup of one of the viewer's own cards does not list them all.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from .duel_view import DUEL_VIEW_KEYS

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
    "score_parts", "result", "settings", "choice", "pending", "duel")
_KEY_SET = frozenset(KEYS)


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

    __slots__ = ("defs", "size", "cards", "own_cz", "other_cz", "ids")

    def __init__(self, defs: "list[CardDef]") -> None:
        self.defs = defs   # kept alive: the cache is keyed by its id()
        self.size = len(defs)
        self.ids = [card.id for card in defs]   # uid -> card id
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


# the keys of a seat in a view, in the order of Game.view's JSON
SEAT_KEYS: tuple[str, ...] = (
    "seat", "side", "deck", "humility", "maturity", "hand", "hand_size", "deck_size", "cost_zone", "untapped",
    "in_play", "held", "discard", "love_to")
_SEAT_KEY_SET = frozenset(SEAT_KEYS)


#: what ``_Lazy.__getitem__`` gets for a key not built yet (None is a value some keys have)
_UNBUILT = object()


def _live_game(game: "Game | None", st: Any, state_id: int) -> "Game":
    """``game``, if it is still at the moment a view shows (views are frozen before games change)."""
    if game is None or game.state is not st or st.state_id != state_id:
        raise RuntimeError(f"a view of state {state_id} read after its game changed without "
                           "freezing it (change a game only through apply)")
    return game


class _Lazy(Mapping[str, Any]):
    """A read-only part of a view whose values are built on first read, from the game as it was
    when the view was made (``KEYS``, in the order of the view's JSON). ``_freeze`` builds the rest
    and lets go of the game: a view does so before its game changes. A part holds the game, never
    the view it belongs to (no reference cycle: a dropped view is freed at once)."""

    __slots__ = ("_game", "_st", "_state_id", "_data")
    KEYS: ClassVar[tuple[str, ...]] = ()
    KEY_SET: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, game: "Game", data: dict[str, Any]) -> None:
        self._game: Game | None = game
        self._st = game.state
        self._state_id = game.state.state_id
        self._data = data   # what is already built

    def _live(self) -> "Game":
        """The game, still at the moment this part shows (a view is frozen before it changes)."""
        return _live_game(self._game, self._st, self._state_id)

    def _make(self, key: str) -> Any:
        """The frozen value of ``key`` (one of ``KEYS``), from the game as it is now."""
        raise NotImplementedError

    def _freeze(self) -> None:
        if self._game is None:
            return
        data = self._data
        for key in self.KEYS:
            if key not in data:
                data[key] = self._make(key)
        self._game = None

    def __getitem__(self, key: str) -> Any:
        data = self._data
        value = data.get(key, _UNBUILT)   # a first read is common: no exception round trip for it
        if value is _UNBUILT:
            if key not in self.KEY_SET:
                raise KeyError(key)
            value = data[key] = self._make(key)
        return value

    def get(self, key: str, default: Any = None) -> Any:
        """``part.get(key, default)``, without the Mapping mixin's exception round trip."""
        data = self._data
        if key in data:
            return data[key]
        return self[key] if key in self.KEY_SET else default

    def __contains__(self, key: object) -> bool:
        return key in self.KEY_SET

    def __iter__(self) -> Iterator[str]:
        return iter(self.KEYS)

    def __len__(self) -> int:
        return len(self.KEYS)


class _SeatMap(_Lazy):
    """One seat of a :class:`SeatView`: its badges and sizes taken when the seats are first read,
    its zones (hand, Cost Zone, in play, held, discard) and untapped count built on first read."""

    __slots__ = ("_viewer", "_table", "_seat")
    KEYS = SEAT_KEYS
    KEY_SET = frozenset(SEAT_KEYS)

    def __init__(self, game: "Game", viewer: int | None, table: CardTable, i: int) -> None:
        sd = game.state.seats[i]
        super().__init__(game, {"seat": i, "side": sd.side, "deck": sd.deck_id, "humility": sd.humility,
                                "maturity": sd.maturity, "hand_size": len(sd.hand),
                                "deck_size": len(sd.deck), "love_to": sd.love_to})
        self._viewer = viewer
        self._table = table
        self._seat = i

    def __repr__(self) -> str:
        return f"<seat {self._seat} of a view of state {self._state_id}>"

    def _make(self, key: str) -> Any:
        game = self._live()
        st = self._st
        i = self._seat
        sd = st.seats[i]
        table = self._table
        if key == "untapped":
            return game._untapped(i)
        if key == "cost_zone":
            zone = sd.cost_zone
            keys = zip(zone, map(st.tapped.__contains__, zone), map(st.face_up.__contains__, zone))
            if self._viewer == i:
                return tuple(map(table.own_cz.__getitem__, keys))
            return tuple(map(table.other_cz.__getitem__, keys))   # face-down cards hidden
        if key == "hand":
            if self._viewer == i:
                return tuple(map(table.cards.__getitem__, sd.hand))
            return (HIDDEN_CARD,) * len(sd.hand)
        return tuple(map(table.cards.__getitem__, getattr(sd, key)))   # in_play, held, discard


class _ShownIds(Mapping[int, str]):
    """uid -> card id of the cards a view shows (:meth:`SeatView.card_ids`). A lookup checks only
    whether that card is shown; iterating (or the snapshot taken before the game changes) lists
    them all. Holds the game, never the view, like :class:`_SeatMap`."""

    __slots__ = ("_game", "_st", "_state_id", "_viewer", "_table", "_all", "_shown", "_own")

    def __init__(self, game: "Game", viewer: int | None, table: CardTable) -> None:
        self._game: Game | None = game
        self._st = game.state
        self._state_id = game.state.state_id
        self._viewer = viewer
        self._table = table
        self._all: dict[int, str] | None = None
        self._shown: list[Any] | None = None
        self._own: frozenset[int] | None = None   # the viewer's hand and Cost Zone: most lookups

    def _zones(self) -> list[Any]:
        """Every uid sequence whose cards the view shows (worked out on the first lookup)."""
        _live_game(self._game, self._st, self._state_id)
        st = self._st
        viewer = self._viewer
        zones: list[Any] = []
        if viewer is not None:   # the viewer's own cards first: what a bot looks up most
            own = st.seats[viewer]
            zones += (own.hand, own.cost_zone)
        face_up = st.face_up
        for i, sd in enumerate(st.seats):
            if viewer != i and face_up:   # another seat's face-up Cost Zone cards
                zones.append([u for u in sd.cost_zone if u in face_up])
            zones += (sd.in_play, sd.held, sd.discard)
        zones += ([item.uid for item in st.stack], [th.uid for th in st.threats], st.field)
        c = st.choice
        if viewer is not None and c is not None and c.seat == viewer:
            zones.append(c.options)
        if self._shown is None:
            self._shown = zones
        return zones

    def _everything(self) -> dict[int, str]:
        found = self._all
        if found is None:
            ids = self._table.ids
            found = self._all = {u: ids[u] for zone in self._zones() for u in zone}
        return found

    def _freeze(self) -> None:
        self._everything()
        self._game = None

    def __getitem__(self, uid: int) -> str:
        found = self._all
        if found is not None:
            return found[uid]
        own = self._own
        if own is None or self._game is None or self._st.state_id != self._state_id:
            _live_game(self._game, self._st, self._state_id)   # raises: the game moved on unfrozen
            viewer = self._viewer
            if viewer is None:
                own = self._own = frozenset()
            else:
                sd = self._st.seats[viewer]
                own = self._own = frozenset(sd.hand).union(sd.cost_zone)
        if uid in own:
            return self._table.ids[uid]
        if isinstance(uid, int) and 0 <= uid < len(self._table.ids):
            return self._everything()[uid]   # anywhere else: list them all once
        raise KeyError(uid)

    def __iter__(self) -> Iterator[int]:
        return iter(self._everything())

    def __len__(self) -> int:
        return len(self._everything())

    def __repr__(self) -> str:
        return f"<card ids shown in a view of state {self._state_id}>"


class _DuelMap(_Lazy):
    """A view's ``duel`` object: each key (``duel_view.DUEL_VIEW_KEYS``) built on first read."""

    __slots__ = ()
    KEYS = DUEL_VIEW_KEYS
    KEY_SET = frozenset(DUEL_VIEW_KEYS)

    def __repr__(self) -> str:
        return f"<duel part of a view of state {self._state_id}>"

    def _make(self, key: str) -> Any:
        return freeze(self._live().duel_view_part(key))  # type: ignore[attr-defined]


class SeatView(_Lazy):
    """What ``viewer`` may see of ``game`` at the moment it is made (None: a spectator), as a
    read-only mapping with the keys and values of ``Game.view(viewer)`` (frozen: mapping proxies
    and tuples). ``to_json()`` is ``Game.view(viewer)``; ``card_ids()`` maps each shown uid to its
    card id.

    A view is made lazily: each key is built from the game on its first read, so a bot pays only
    for what it reads. It is still a snapshot: before the game changes (``Game._freeze_views``),
    every view of it still alive builds what it has not yet built, so a view kept after an action
    reads the moment it was made; a view dropped before that costs nothing more."""

    __slots__ = ("_viewer", "_actions", "_table", "_ids", "__weakref__")
    KEYS = KEYS
    KEY_SET = _KEY_SET

    def __init__(self, game: "Game", viewer: int | None) -> None:
        st = game.state
        n_seats = len(st.seats)
        if viewer is not None and not (isinstance(viewer, int) and 0 <= viewer < n_seats):
            raise ValueError(f"there is no seat {viewer!r}")
        # the cheap scalars now; everything else on first read (see _make)
        super().__init__(game, {
            "state_id": st.state_id,
            "mode": game.mode.name,
            "lineup": game.lineup,
            "round": st.round,
            "max_rounds": game.settings.max_rounds if game.mode.has_round_limit else None,
            "turn_seat": game.turn_seat,
            "phase": game.phase,
            "viewer": viewer,
            "evil_deck_size": len(st.evil_deck),
        })
        self._viewer = viewer
        self._table = card_table(game)
        self._ids: _ShownIds | None = None
        self._actions: tuple[Action, ...] | None = None
        game._watch_view(self)

    def _freeze(self) -> None:
        """Build every key and part not built yet and let go of the game: called just before it
        changes."""
        if self._game is None:
            return
        data = self._data
        for key in KEYS:
            if key not in data:
                data[key] = self._make(key)
        for seat in data["seats"]:
            seat._freeze()
        if data["duel"] is not None:
            data["duel"]._freeze()
        self.card_ids()._freeze()
        self.actions
        self._game = None

    def _make(self, key: str) -> Any:
        """The frozen value of one key, from the game as it is now (the moment of the view)."""
        game = self._live()
        st = game.state
        viewer = self._viewer
        card = self._table.cards.__getitem__
        if key == "seats":
            return self._seats(game)
        if key == "stack":
            cards = self._table.cards
            stack = []
            for item in st.stack:
                entry = {**cards[item.uid], "item": item.kind, "controller": item.controller, "to_seat": item.to_seat}
                if item.kind == "boost":
                    entry["boost"] = item.boost
                if item.kind == "threat":
                    entry["target"] = item.threat
                stack.append(MappingProxyType(entry))
            return tuple(stack)
        if key == "threats":
            cards = self._table.cards
            finale = st.duel.finale if st.duel is not None else ()
            return tuple(MappingProxyType({
                **cards[th.uid], "target": th.target, "by": th.by, "resistance": th.resistance, "paid": th.paid,
                "remaining": game._remaining(th), "finale": st.duel is not None and th.uid in finale})
                for th in st.threats)
        if key == "decider":
            return game._decider()
        if key == "foresight":
            return tuple(map(card, st.foresight))
        if key == "field":
            return tuple(map(card, st.field))
        if key == "piles":
            return MappingProxyType({"resisted": tuple(map(card, st.resisted)), "failed": tuple(map(card, st.failed))})
        if key == "abilities":
            return MappingProxyType({"held": tuple(st.abilities), "charged": tuple(sorted(st.charged)),
                                     "team_level": st.team_level, "choosing": st.ability_picks > 0})
        if key == "clearing":
            return None if st.clearing is None else MappingProxyType(
                {"seat": st.clearing[0], "opened_turn": st.clearing[1]})
        if key == "score":
            return tuple(game.score)
        if key == "score_parts":
            return MappingProxyType(game.score_parts())
        if key == "result":
            res = game.result
            return None if res is None else MappingProxyType(
                {"winner": res.winner, "reason": res.reason, "round": res.round})
        if key == "choice":
            c = st.choice
            if viewer is None or c is None or c.seat != viewer:
                return None
            return MappingProxyType({"purpose": c.purpose, "count": c.count, "minimum": max(0, c.minimum),
                                     "options": tuple(map(card, c.options))})
        if key == "pending":
            return tuple(freeze(a.to_json()) for a in self.actions)
        if key == "duel":
            return None if st.duel is None else _DuelMap(game, {})
        if key == "settings":
            return settings_json(game.settings)
        raise KeyError(key)

    def _seats(self, game: "Game") -> tuple[Frozen, ...]:
        viewer, table = self._viewer, self._table
        return tuple([_SeatMap(game, viewer, table, i) for i in range(len(game.state.seats))])

    # ------------------------------------------------------------------ Mapping
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
        acts = self._actions
        if acts is None:
            viewer = self._viewer
            acts = self._actions = () if viewer is None else tuple(self._live().legal_actions(viewer))
        return acts

    def card_ids(self) -> "_ShownIds":
        """uid -> card id of every card this view shows in a seat's zones, the stack, the threats,
        the field and the viewer's open choice (read-only; one lookup does not walk the whole view)."""
        ids = self._ids
        if ids is None:
            ids = self._ids = _ShownIds(self._live(), self._viewer, self._table)
        return ids

    def to_json(self) -> dict[str, Any]:
        """The view as plain JSON (new dicts and lists): equal to ``Game.view(viewer)``."""
        return {k: thaw(self[k]) for k in KEYS}
