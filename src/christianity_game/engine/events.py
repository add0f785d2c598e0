"""Events: what happened, in order, each stamped with the state id of the action that caused it."""

from __future__ import annotations

from typing import Any


class Event:
    """One thing that happened (``kind``) with its details.

    ``private_to`` is the seat that alone may see ``card`` (a drawn card); other seats get the
    event without it. Kinds: ``turn_started``, ``phase``, ``drew``, ``laid``, ``played``,
    ``threat_played``, ``resisted``, ``failed``, ``took_hold``, ``humility``, ``maturity``,
    ``overflow_discard``, ``discarded``, ``boost_taken``, ``resolved``, ``ability_gained``,
    ``ability_used``, ``revealed``, ``moved``, ``clearing_round``, ``game_over``, ``manual``, and
    the duel's ``reward_earned``, ``reward_taken``, ``boost_earned``, ``clean_round``, ``evil_hold``.

    A plain slotted class rather than a frozen dataclass: the engine makes several per action, and
    a frozen dataclass costs ten times as much to build. Treat it as immutable.
    """

    __slots__ = ("state_id", "kind", "seat", "card", "uid", "private_to", "data")

    def __init__(self, state_id: int = 0, kind: str = "", seat: int | None = None, card: str | None = None,
                 uid: int | None = None, private_to: int | None = None, data: dict[str, Any] | None = None) -> None:
        self.state_id = state_id
        self.kind = kind
        self.seat = seat
        self.card = card
        self.uid = uid
        self.private_to = private_to
        self.data: dict[str, Any] = data if data is not None else {}

    def _key(self) -> tuple[Any, ...]:
        return (self.state_id, self.kind, self.seat, self.card, self.uid, self.private_to, self.data)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # holds a dict: not hashable, like the dataclass was

    def __repr__(self) -> str:
        bits = [f"#{self.state_id}", self.kind]
        if self.seat is not None:
            bits.append(f"seat={self.seat}")
        if self.card is not None:
            bits.append(self.card)
        if self.data:
            bits.append(repr(self.data))
        return "<Event " + " ".join(bits) + ">"

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """This event as JSON, with the card hidden from anyone but ``private_to``."""
        out: dict[str, Any] = {"state_id": self.state_id, "kind": self.kind}
        if self.seat is not None:
            out["seat"] = self.seat
        visible = self.private_to is None or self.private_to == seat
        if visible and self.card is not None:
            out["card"] = self.card
            out["uid"] = self.uid
        if self.data:
            out.update(self.data)
        return out
