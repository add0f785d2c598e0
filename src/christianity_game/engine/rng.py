"""The game's own seeded random generator (G-6, DESIGN "Determinism").

A splitmix64 generator whose whole state is one integer: it lives in the game state, is cloned
by copying an int, and never touches module-level ``random``.
"""

from __future__ import annotations

from typing import MutableSequence, TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


class Rng:
    """Seeded splitmix64: ``randbelow``, ``shuffle``, ``sample_indices``."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def __repr__(self) -> str:
        return "<Rng>"

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n) (n >= 1)."""
        return self.next64() % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.next64() % (i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> "Rng":
        return Rng(self.state)
