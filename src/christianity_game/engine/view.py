"""The formats of a view: JSON for the server and clients, read-only parts for the bots' snapshots
(docs/design.md, "Hidden information").

What a seat sees is decided by the observer (``engine/observer.py``); the two sinks here only
write it down:

* :class:`JsonSink` (``make_view``, ``Game.view``): new dicts and lists that the caller owns; a
  visible card is ``{"uid", "id", "name", "kind"}``, a hidden one ``{"hidden": true}``.
* :class:`FrozenSink` (the parts of ``seatview.SeatView``): the same content, read-only all the
  way down (mapping proxies and tuples), and shared where it never changes: a visible card is the
  same object in every view of a game, and so is each Cost Zone entry (one per card and tapped /
  face-up combination), the hidden placeholders and the settings.

Both keep their unchanging parts per card table (:class:`CardTable`, which clones share).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .observer import HIDDEN_UID, StackRow, ThreatRow, observe

if TYPE_CHECKING:
    from ..cards.model import CardDef
    from .actions import Action
    from .base import GameBase as Game
    from .settings import Settings

Frozen = Mapping[str, Any]

HIDDEN_CARD: Frozen = MappingProxyType({"hidden": True})


def card_json(game: "Game", uid: int) -> dict[str, Any]:
    """A visible card as a new JSON object: ``{"uid", "id", "name", "kind"}``."""
    card = game.defs[uid]
    return {"uid": uid, "id": card.id, "name": card.name, "kind": card.kind}


class CardTable:
    """The parts of views that never change during a game, kept per card table (``game.defs``,
    which clones share): each card's JSON object (copied for a JSON view, shared read-only by the
    snapshots), its Cost Zone variants, and a sink of each kind. Made on first use, card by card."""

    __slots__ = ("defs", "size", "ids", "json_cards", "frozen_cards", "frozen_cz_cards", "_settings", "json_sink",
                 "frozen_sink")

    def __init__(self, defs: "list[CardDef]") -> None:
        self.defs = defs   # kept alive: the cache is keyed by its id()
        self.size = len(defs)
        self.ids: list[str] = [card.id for card in defs]   # uid -> card id
        #: uid -> the card's JSON object (the table's own: copied before it is handed out)
        self.json_cards: dict[int, dict[str, Any]] = {}
        #: uid -> the card's read-only JSON object, shared by every snapshot of the game
        self.frozen_cards: dict[int, Frozen] = {}
        #: (uid or HIDDEN_UID, tapped, face up) -> a Cost Zone entry, read-only and shared
        self.frozen_cz_cards: dict[tuple[int, bool, bool], Frozen] = {
            (HIDDEN_UID, t, f): MappingProxyType({"hidden": True, "tapped": t, "face_up": f})
            for t in (False, True) for f in (False, True)}
        self._settings: tuple[Any, dict[str, Any], Frozen] | None = None
        self.json_sink = JsonSink(self)
        self.frozen_sink = FrozenSink(self)

    def json(self, uid: int) -> dict[str, Any]:
        """The card's JSON object (the table's own: copy it before handing it out)."""
        entry = self.json_cards.get(uid)
        if entry is None:
            card = self.defs[uid]
            entry = self.json_cards[uid] = {"uid": uid, "id": card.id, "name": card.name, "kind": card.kind}
        return entry

    def frozen(self, uid: int) -> Frozen:
        """The card's read-only JSON object, shared by every snapshot of the game."""
        entry = self.frozen_cards.get(uid)
        if entry is None:
            entry = self.frozen_cards[uid] = MappingProxyType(dict(self.json(uid)))
        return entry

    def frozen_cz(self, uid: int, tapped: bool, face_up: bool) -> Frozen:
        """A Cost Zone entry, read-only and shared (``uid`` :data:`HIDDEN_UID`: a hidden card)."""
        key = (uid, tapped, face_up)
        entry = self.frozen_cz_cards.get(key)
        if entry is None:
            entry = self.frozen_cz_cards[key] = MappingProxyType({**self.json(uid), "tapped": tapped, "face_up": face_up})
        return entry

    def settings_json(self, settings: "Settings") -> dict[str, Any]:
        """The settings' JSON object (the table's own: copy it before handing it out; settings are
        frozen values of scalars)."""
        kept = self._settings
        if kept is None or kept[0] is not settings:
            json = settings.to_dict()
            kept = self._settings = (settings, json, MappingProxyType(json))
        return kept[1]

    def frozen_settings(self, settings: "Settings") -> Frozen:
        """The settings' JSON object, read-only and shared."""
        kept = self._settings
        if kept is None or kept[0] is not settings:
            self.settings_json(settings)
            kept = self._settings
            assert kept is not None
        return kept[2]


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


def make_view(game: "Game", viewer: int | None) -> dict[str, Any]:
    """What ``viewer`` may see of ``game`` (None: a spectator) as a new JSON dict (``Game.view``)."""
    return observe(game, viewer, card_table(game).json_sink)


class JsonSink:
    """Writes a view as new JSON dicts and lists (the observer's sink for ``Game.view``)."""

    __slots__ = ("table",)

    def __init__(self, table: CardTable) -> None:
        self.table = table

    def cards(self, where: str, seat: int, uids: Sequence[int]) -> Any:
        table = self.table
        try:
            return [entry.copy() for entry in map(table.json_cards.__getitem__, uids)]
        except KeyError:   # a card not yet in the table
            return [table.json(u).copy() for u in uids]

    def hidden(self, where: str, seat: int, count: int) -> Any:
        return [{"hidden": True} for _ in range(count)]

    def cost_zone(self, seat: int, uids: Sequence[int], tapped: Sequence[bool], face_up: Sequence[bool]) -> Any:
        table = self.table
        out: list[dict[str, Any]] = []
        for k in range(len(uids)):
            u = uids[k]
            entry = {"hidden": True} if u == HIDDEN_UID else table.json(u).copy()
            entry["tapped"] = tapped[k]
            entry["face_up"] = face_up[k]
            out.append(entry)
        return out

    def seat(self, seat: int, side: str, deck: str, humility: int, maturity: int, hand: Sequence[int] | None,
             hand_size: int, deck_size: int, cost_zone: Sequence[int], tapped: Sequence[bool],
             face_up: Sequence[bool], untapped: int, in_play: Sequence[int], held: Sequence[int],
             discard: Sequence[int], love_to: int | None) -> Any:
        return {"seat": seat, "side": side, "deck": deck, "humility": humility, "maturity": maturity,
                "hand": self.hidden("hand", seat, hand_size) if hand is None else self.cards("hand", seat, hand),
                "hand_size": hand_size, "deck_size": deck_size,
                "cost_zone": self.cost_zone(seat, cost_zone, tapped, face_up), "untapped": untapped,
                "in_play": self.cards("in_play", seat, in_play), "held": self.cards("held", seat, held),
                "discard": self.cards("discard", seat, discard), "love_to": love_to}

    def seats(self, seats: list[Any]) -> Any:
        return seats

    def piles(self, resisted: Sequence[int], failed: Sequence[int]) -> Any:
        return {"resisted": self.cards("resisted", -1, resisted), "failed": self.cards("failed", -1, failed)}

    def choice(self, purpose: str, count: int, minimum: int, options: Sequence[int]) -> Any:
        return {"purpose": purpose, "count": count, "minimum": minimum, "options": self.cards("options", -1, options)}

    def stack(self, rows: list[StackRow]) -> Any:
        table = self.table
        out: list[dict[str, Any]] = []
        for uid, kind, controller, to_seat, boost, target in rows:
            entry = table.json(uid).copy()
            entry["item"] = kind
            entry["controller"] = controller
            entry["to_seat"] = to_seat
            if kind == "boost":
                entry["boost"] = boost
            if kind == "threat":
                entry["target"] = target
            out.append(entry)
        return out

    def threats(self, rows: list[ThreatRow]) -> Any:
        table = self.table
        out: list[dict[str, Any]] = []
        for uid, target, by, resistance, paid, remaining, finale in rows:
            entry = table.json(uid).copy()
            entry.update({"target": target, "by": by, "resistance": resistance, "paid": paid,
                          "remaining": remaining, "finale": finale})
            out.append(entry)
        return out

    def record(self, key: str, values: dict[str, Any]) -> Any:
        return values

    def plain(self, key: str, value: Any) -> Any:
        return value

    def settings(self, settings: "Settings") -> Any:
        return self.table.settings_json(settings).copy()

    def pending(self, actions: Sequence["Action"]) -> Any:
        return [a.to_json() for a in actions]

    def duel(self, values: dict[str, Any]) -> Any:
        return values


def freeze(obj: Any) -> Any:
    """A read-only copy of a JSON-like value: dicts become mapping proxies, lists tuples."""
    t = type(obj)
    if t is dict:
        return MappingProxyType({k: freeze(v) if type(v) in _CONTAINERS else v for k, v in obj.items()})
    if t is list or t is tuple:
        return tuple([freeze(v) if type(v) in _CONTAINERS else v for v in obj])
    return obj


_CONTAINERS = (dict, list, tuple)


class FrozenSink:
    """Writes a view's parts read-only (mapping proxies and tuples), sharing what never changes
    (the observer's sink for ``seatview.SeatView``)."""

    __slots__ = ("table",)

    def __init__(self, table: CardTable) -> None:
        self.table = table

    def cards(self, where: str, seat: int, uids: Sequence[int]) -> Any:
        table = self.table
        try:
            return tuple(map(table.frozen_cards.__getitem__, uids))
        except KeyError:   # a card not yet in the table
            return tuple([table.frozen(u) for u in uids])

    def hidden(self, where: str, seat: int, count: int) -> Any:
        return (HIDDEN_CARD,) * count

    def cost_zone(self, seat: int, uids: Sequence[int], tapped: Sequence[bool], face_up: Sequence[bool]) -> Any:
        table = self.table
        try:
            return tuple(map(table.frozen_cz_cards.__getitem__, zip(uids, tapped, face_up)))
        except KeyError:   # an entry not yet in the table
            return tuple([table.frozen_cz(u, t, f) for u, t, f in zip(uids, tapped, face_up)])

    def seat(self, seat: int, side: str, deck: str, humility: int, maturity: int, hand: Sequence[int] | None,
             hand_size: int, deck_size: int, cost_zone: Sequence[int], tapped: Sequence[bool],
             face_up: Sequence[bool], untapped: int, in_play: Sequence[int], held: Sequence[int],
             discard: Sequence[int], love_to: int | None) -> Any:
        return MappingProxyType({
            "seat": seat, "side": side, "deck": deck, "humility": humility, "maturity": maturity,
            "hand": self.hidden("hand", seat, hand_size) if hand is None else self.cards("hand", seat, hand),
            "hand_size": hand_size, "deck_size": deck_size,
            "cost_zone": self.cost_zone(seat, cost_zone, tapped, face_up), "untapped": untapped,
            "in_play": self.cards("in_play", seat, in_play), "held": self.cards("held", seat, held),
            "discard": self.cards("discard", seat, discard), "love_to": love_to})

    def seats(self, seats: list[Any]) -> Any:
        return tuple(seats)

    def piles(self, resisted: Sequence[int], failed: Sequence[int]) -> Any:
        return MappingProxyType({"resisted": self.cards("resisted", -1, resisted),
                                 "failed": self.cards("failed", -1, failed)})

    def choice(self, purpose: str, count: int, minimum: int, options: Sequence[int]) -> Any:
        return MappingProxyType({"purpose": purpose, "count": count, "minimum": minimum,
                                 "options": self.cards("options", -1, options)})

    def stack(self, rows: list[StackRow]) -> Any:
        table = self.table
        out: list[Frozen] = []
        for uid, kind, controller, to_seat, boost, target in rows:
            entry = {**table.frozen(uid), "item": kind, "controller": controller, "to_seat": to_seat}
            if kind == "boost":
                entry["boost"] = boost
            if kind == "threat":
                entry["target"] = target
            out.append(MappingProxyType(entry))
        return tuple(out)

    def threats(self, rows: list[ThreatRow]) -> Any:
        table = self.table
        return tuple([MappingProxyType({
            **table.frozen(uid), "target": target, "by": by, "resistance": resistance, "paid": paid,
            "remaining": remaining, "finale": finale}) for uid, target, by, resistance, paid, remaining, finale in rows])

    def record(self, key: str, values: dict[str, Any]) -> Any:
        return MappingProxyType({k: tuple(v) if type(v) is list else v for k, v in values.items()})

    def plain(self, key: str, value: Any) -> Any:
        return freeze(value)

    def settings(self, settings: "Settings") -> Any:
        return self.table.frozen_settings(settings)

    def pending(self, actions: Sequence["Action"]) -> Any:
        return tuple([freeze(a.to_json()) for a in actions])

    def duel(self, values: dict[str, Any]) -> Any:
        return MappingProxyType({k: freeze(v) for k, v in values.items()})

