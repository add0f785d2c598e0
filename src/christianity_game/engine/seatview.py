"""A seat's view as a typed, read-only object, for in-process bots (docs/design.md, "Hidden
information"; what it saves: docs/developers.md, "Views for in-process bots, and the lab").

``Game.view(seat)`` builds a fresh JSON dict: the server sends it and must own it. A bot in the
same process needs only to read a view, so :class:`SeatView` skips most of that work. What it
shows is what the observer (``engine/observer.py``) writes for the seat into the read-only sink
(``view.FrozenSink``); this module only makes it lazy:

* **Static parts are shared.** A visible card is the same ``{"uid", "id", "name", "kind"}``
  object in every view of a game (a read-only ``MappingProxyType``), and so are the Cost Zone
  entries, the hidden placeholders and the settings (``view.CardTable``).
* **Built on first read, still a snapshot.** A key is built from the game when it is first
  read, so a bot pays only for what it reads (the heuristic never reads the piles, the score or
  ``pending``); so are each seat's zones and each key of the ``duel`` object. No part holds the
  view itself, so a dropped view is freed at once (no reference cycle). Before the game changes,
  every view of it still alive builds the keys it has not built (``Game._freeze_views``, weak
  references): a view kept after an action reads the moment it was made, and a view dropped
  before the next action costs nothing more.
* **Read-only all the way down.** Nested objects are ``MappingProxyType`` and lists are tuples.
  ``to_json()`` gives plain dicts and lists: exactly ``Game.view(seat)``, key order included
  (``tests/test_seatview.py`` checks it at every decision of many games of every mode).

:meth:`SeatView.card_ids` gives the card id of every uid the view shows, which bots otherwise
work out by walking the whole view; a lookup of one of the viewer's own cards does not list them all.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from .observer import (
    DUEL_KEYS, SEAT_KEYS, VIEW_KEYS, check_viewer, duel_part, has_duel, is_moment, moment, own_cards,
    pending_actions, seat_facts, seat_part, shown_zones, view_head, view_part,
)
from .view import CardTable, FrozenSink, card_table

if TYPE_CHECKING:
    from .actions import Action
    from .base import GameBase as Game

Frozen = Mapping[str, Any]

#: the keys of a view, in the order of Game.view's JSON
KEYS: tuple[str, ...] = VIEW_KEYS
_KEY_SET = frozenset(KEYS)


def thaw(obj: Any) -> Any:
    """The plain JSON value of a frozen one: new dicts and lists, nothing shared."""
    if isinstance(obj, Mapping):
        return {k: thaw(v) for k, v in obj.items()}
    if isinstance(obj, tuple):
        return [thaw(v) for v in obj]
    return obj


#: what ``_Lazy.__getitem__`` gets for a key not built yet (None is a value some keys have)
_UNBUILT = object()


def _live_game(game: "Game | None", st: Any, state_id: int) -> "Game":
    """``game``, if it is still at the moment a view shows (views are frozen before games change)."""
    if game is None or not is_moment(game, st, state_id):
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

    def __init__(self, game: "Game", data: dict[str, Any], at: tuple[Any, int] | None = None) -> None:
        self._game: Game | None = game
        self._st, self._state_id = moment(game) if at is None else at   # ``at``: the view's moment, for its parts
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

    __slots__ = ("_viewer", "_sink", "_seat")
    KEYS = SEAT_KEYS
    KEY_SET = frozenset(SEAT_KEYS)

    def __init__(self, game: "Game", viewer: int | None, sink: FrozenSink, i: int, at: tuple[Any, int]) -> None:
        super().__init__(game, seat_facts(game, i), at)
        self._viewer = viewer
        self._sink = sink
        self._seat = i

    def __repr__(self) -> str:
        return f"<seat {self._seat} of a view of state {self._state_id}>"

    def _make(self, key: str) -> Any:
        return seat_part(self._live(), self._viewer, self._seat, key, self._sink)


class _ShownIds(Mapping[int, str]):
    """uid -> card id of the cards a view shows (:meth:`SeatView.card_ids`). A lookup checks only
    whether that card is shown; iterating (or the snapshot taken before the game changes) lists
    them all. Holds the game, never the view, like :class:`_SeatMap`."""

    __slots__ = ("_game", "_st", "_state_id", "_viewer", "_table", "_all", "_own")

    def __init__(self, game: "Game", viewer: int | None, table: CardTable, at: tuple[Any, int]) -> None:
        self._game: Game | None = game
        self._st, self._state_id = at
        self._viewer = viewer
        self._table = table
        self._all: dict[int, str] | None = None
        self._own: frozenset[int] | None = None   # the viewer's hand and Cost Zone: most lookups

    def _everything(self) -> dict[int, str]:
        found = self._all
        if found is None:
            game = _live_game(self._game, self._st, self._state_id)
            ids = self._table.ids
            found = self._all = {u: ids[u] for zone in shown_zones(game, self._viewer) for u in zone}
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
            game = _live_game(self._game, self._st, self._state_id)   # raises: the game moved on unfrozen
            hand, cost_zone = own_cards(game, self._viewer)
            own = self._own = frozenset(hand).union(cost_zone)
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
    """A view's ``duel`` object: each key (``observer.DUEL_KEYS``) built on first read."""

    __slots__ = ("_sink",)
    KEYS = DUEL_KEYS
    KEY_SET = frozenset(DUEL_KEYS)

    def __init__(self, game: "Game", sink: FrozenSink, at: tuple[Any, int]) -> None:
        super().__init__(game, {}, at)
        self._sink = sink

    def __repr__(self) -> str:
        return f"<duel part of a view of state {self._state_id}>"

    def _make(self, key: str) -> Any:
        return self._sink.plain(key, duel_part(self._live(), key))


class SeatView(_Lazy):
    """What ``viewer`` may see of ``game`` at the moment it is made (None: a spectator), as a
    read-only mapping with the keys and values of ``Game.view(viewer)`` (frozen: mapping proxies
    and tuples). ``to_json()`` is ``Game.view(viewer)``; ``card_ids()`` maps each shown uid to its
    card id.

    A view is made lazily: each key is built from the game on its first read, so a bot pays only
    for what it reads. It is still a snapshot: before the game changes (``Game._freeze_views``),
    every view of it still alive builds what it has not yet built, so a view kept after an action
    reads the moment it was made; a view dropped before that costs nothing more."""

    __slots__ = ("_viewer", "_actions", "_table", "_sink", "_ids", "__weakref__")
    KEYS = KEYS
    KEY_SET = _KEY_SET

    def __init__(self, game: "Game", viewer: int | None) -> None:
        table = card_table(game)
        sink = table.frozen_sink
        check_viewer(game, viewer)
        super().__init__(game, view_head(game, viewer))   # the plain facts now; the rest on first read
        self._viewer = viewer
        self._table = table
        self._sink = sink
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
        if key == "seats":
            viewer, sink = self._viewer, self._sink
            at = (self._st, self._state_id)
            return tuple([_SeatMap(game, viewer, sink, i, at) for i in range(len(game.lineup))])
        if key == "duel":
            return _DuelMap(game, self._sink, (self._st, self._state_id)) if has_duel(game) else None
        if key == "pending":
            return self._sink.pending(self.actions)
        return view_part(game, self._viewer, key, self._sink)

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
            acts = self._actions = tuple(pending_actions(self._live(), viewer))
        return acts

    def card_ids(self) -> "_ShownIds":
        """uid -> card id of every card this view shows in a seat's zones, the stack, the threats,
        the field and the viewer's open choice (read-only; one lookup does not walk the whole view)."""
        ids = self._ids
        if ids is None:
            ids = self._ids = _ShownIds(self._live(), self._viewer, self._table, (self._st, self._state_id))
        return ids

    def to_json(self) -> dict[str, Any]:
        """The view as plain JSON (new dicts and lists): equal to ``Game.view(viewer)``."""
        return {k: thaw(self[k]) for k in KEYS}
