"""Shared by the property tests: a full fingerprint of a game's state, and a before/after snapshot."""

from __future__ import annotations

from typing import Any

from christianity_game import Game


def fingerprint(game: Game) -> Any:
    """Everything in the mutable state, as nested tuples (sets sorted): equal iff the states are."""

    def conv(x: Any) -> Any:
        if x is None or isinstance(x, (bool, int, str, float)):
            return x
        if isinstance(x, (list, tuple)):
            return tuple(conv(i) for i in x)
        if isinstance(x, (set, frozenset)):
            return ("set", tuple(sorted(x, key=repr)))
        if isinstance(x, dict):
            return ("dict", tuple(sorted(((k, conv(v)) for k, v in x.items()), key=repr)))
        # a class's attributes: its __slots__ (Python engine) or what mypyc lists for a compiled class
        slots = [s for klass in type(x).__mro__
                 for s in getattr(klass, "__slots__", None) or getattr(klass, "__mypyc_attrs__", ())]
        if slots:
            return (type(x).__name__,) + tuple((s, conv(getattr(x, s, None))) for s in slots)
        return x

    return conv(game.state), tuple(game.actions), len(game.log)


def snapshot(game: Game) -> tuple[Any, Any, Any]:
    """State fingerprint, spectator view and card zones: what a refused action must leave unchanged."""
    return fingerprint(game), game.view(None), game.card_zone_map()
