"""Events: what happened, in order, each stamped with the state id of the action that caused it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened (``kind``) with its details.

    ``private_to`` is the seat that alone may see ``card`` (a drawn card); other seats get the
    event without it. Kinds: ``turn_started``, ``phase``, ``drew``, ``laid``, ``played``,
    ``threat_played``, ``resisted``, ``failed``, ``took_hold``, ``humility``, ``maturity``,
    ``overflow_discard``, ``discarded``, ``boost_taken``, ``resolved``, ``ability_gained``,
    ``ability_used``, ``revealed``, ``moved``, ``clearing_round``, ``game_over``, ``manual``.
    """

    state_id: int
    kind: str
    seat: int | None = None
    card: str | None = None
    uid: int | None = None
    private_to: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

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
