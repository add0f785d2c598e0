"""The game generators (G-6): a shuffle reads the same words, in the same order, whichever way it
reads them, so records made before the block-at-a-time shuffle replay unchanged."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from christianity_game.engine.rng import Rng, SecureRng


def _shuffle_word_by_word(rng: Rng, items: list[int]) -> None:
    """Fisher-Yates with one ``next64`` per swap: the definition every generator's shuffle keeps."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.next64() % (i + 1)
        items[i], items[j] = items[j], items[i]


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**128), skip=st.integers(min_value=0, max_value=600),
       sizes=st.lists(st.integers(min_value=0, max_value=300), min_size=1, max_size=6))
def test_G_6_secure_shuffle_draws_as_word_by_word_across_blocks(seed: int, skip: int, sizes: list[int]) -> None:
    fast, slow = SecureRng(seed), SecureRng(seed)
    for _ in range(skip):   # start anywhere in a block, so runs cross block boundaries
        assert fast.next64() == slow.next64()
    for n in sizes:
        a, b = list(range(n)), list(range(n))
        fast.shuffle(a)
        _shuffle_word_by_word(slow, b)
        assert a == b
        assert fast.state == slow.state
    assert fast.next64() == slow.next64()   # and the generator goes on from the same place
    assert fast.copy().next64() == slow.copy().next64()
