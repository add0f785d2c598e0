"""The game's own seeded random generators (G-6, docs/design.md, "Determinism").

Two generators share one interface (``next64``, ``randbelow``, ``shuffle``, ``copy`` and a
``state`` that is one integer, so it lives in the game state and is cloned by copying an int);
neither touches module-level ``random``:

* :class:`Rng`, splitmix64: fast, for bots, search and simulations, and the game generator of
  rules version 1 (records played under it replay with it).
* :class:`SecureRng`, SHAKE-256 in counter mode keyed by a key derived from the seed: the game
  generator from rules version 2. What a player sees of its output (shuffles, random discards) does not let them work
  out its state or seed in any practical time, unlike splitmix64, whose outputs give its state
  away; with a 128-bit seed (the server draws one from ``secrets``) there is nothing to guess.
"""

from __future__ import annotations

import hashlib
import struct
from typing import MutableSequence, TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


class Rng:
    """Seeded splitmix64: ``randbelow``, ``shuffle``, ``copy``."""

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


_KEY_BITS = 256
_BLOCK_WORDS = 256   # one SHAKE-256 call gives 256 words (2 KiB): a hash per 256 draws, not per draw
_UNPACK = struct.Struct(f">{_BLOCK_WORDS}Q").unpack


class SecureRng(Rng):
    """SHAKE-256 of a 256-bit key derived from the seed and a block number, in counter mode.

    ``state`` packs the key and the number of 64-bit words used so far: ``key << 64 | used``.
    Word ``k`` is word ``k % 256`` of ``SHAKE-256(key, block k // 256)``; the current block is a
    cache, never part of the state.
    """

    __slots__ = ("_key", "_block_no", "_block")

    def __init__(self, seed: int) -> None:
        key = hashlib.blake2b(f"christianity-game seed {seed}".encode(), digest_size=_KEY_BITS // 8).digest()
        self._set(int.from_bytes(key, "big") << 64)

    @classmethod
    def from_state(cls, state: int) -> "SecureRng":
        """The generator whose ``state`` is given (a copy, or a position's saved generator)."""
        rng = cls.__new__(cls)
        rng._set(state)
        return rng

    def _set(self, state: int) -> None:
        if not 0 <= state < 1 << (_KEY_BITS + 64):
            raise ValueError("a SecureRng state is a 320-bit whole number")
        self.state = state
        self._key = (state >> 64).to_bytes(_KEY_BITS // 8, "big")
        self._block_no = -1
        self._block: tuple[int, ...] = ()

    def __repr__(self) -> str:
        return "<SecureRng>"

    def _block_at(self, block_no: int) -> tuple[int, ...]:
        """The words of block ``block_no`` (the current block is kept: most draws read it)."""
        if block_no != self._block_no:
            self._block = _UNPACK(hashlib.shake_256(self._key + block_no.to_bytes(8, "big")).digest(_BLOCK_WORDS * 8))
            self._block_no = block_no
        return self._block

    def next64(self) -> int:
        used = self.state & _MASK
        self.state += 1
        return self._block_at(used // _BLOCK_WORDS)[used % _BLOCK_WORDS]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place: the same draws as ``Rng.shuffle`` (one word per swap, in the
        same order), read from the block a run at a time instead of one call per word."""
        n = len(items)
        if n < 2:
            return
        words: list[int] = []
        need = n - 1
        while need:
            block_no, at = divmod(self.state & _MASK, _BLOCK_WORDS)
            take = min(need, _BLOCK_WORDS - at)
            words.extend(self._block_at(block_no)[at:at + take])
            self.state += take
            need -= take
        for i, w in zip(range(n - 1, 0, -1), words):
            j = w % (i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> "SecureRng":
        rng = SecureRng.__new__(SecureRng)
        rng.state = self.state
        rng._key = self._key
        rng._block_no = self._block_no
        rng._block = self._block
        return rng


def game_rng(seed: int, rules: int) -> Rng:
    """The game generator a rules version plays with, from the game's seed."""
    return Rng(seed) if rules < 2 else SecureRng(seed)


def game_rng_from_state(state: int, rules: int) -> Rng:
    """The game generator of a rules version in a saved ``state`` (positions)."""
    return Rng(state) if rules < 2 else SecureRng.from_state(state)
