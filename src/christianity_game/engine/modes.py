"""Game modes as rule modules selected by name (like python-chess variants).

A mode answers the questions whose answers differ between co-op, solo and duel: which seats
exist, the turn order, the phases of a turn, draw counts, Cost Zone sizes, how many threats the
Evil deck plays, and when the game is won. :class:`~christianity_game.engine.game.Game` asks
its mode through these hooks and holds no mode-specific branches of its own where a hook fits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from .game import Game

# CO-4 (DECISION): threats the Evil deck plays at the active seat, by that seat's Maturity.
EVIL_PLAYS_BY_MATURITY = (1, 2, 4, 5)


class Mode:
    """Hooks shared by every mode; subclasses override what differs."""

    name: ClassVar[str] = "base"
    #: phases in a turn, as steps (CO-2, D-TURN-2)
    steps: ClassVar[tuple[str, ...]] = ("draw", "lay", "after_lay", "main", "end")
    has_round_limit: ClassVar[bool] = False
    shared_levels: ClassVar[bool] = True   # A-2 (co-op) vs A-3 (duel: per seat)
    can_buy_abilities: ClassVar[bool] = True

    def check_lineup(self, lineup: str) -> None:
        if not lineup or any(ch not in "ER" for ch in lineup):
            raise ValueError(f"lineup must be letters E and R, one a seat, not {lineup!r}")

    def turn_order(self, lineup: str) -> list[int]:
        return [i for i, ch in enumerate(lineup) if ch == "R"]

    def righteous_count(self, lineup: str) -> int:
        return lineup.count("R")

    def draw_count(self, game: "Game", seat: int) -> int:
        """CO-3: Maturity + 2."""
        return game.state.seats[seat].maturity + 2

    def intake_cap(self, game: "Game", seat: int) -> int:
        """Z-3: Righteous 4."""
        return 4

    def opening_cost_zone(self, game: "Game", seat: int) -> int:
        """Z-4: 3 (+ extra opponents in a duel)."""
        return 3

    def evil_plays(self, game: "Game", seat: int) -> int:
        return EVIL_PLAYS_BY_MATURITY[game.state.seats[seat].maturity]

    def abilities_available(self) -> tuple[str, ...]:
        from .game import ABILITIES
        return ABILITIES

    def make_game(self) -> "Game":
        """The Game class that carries this mode's hooks (variants as subclasses)."""
        from .game import Game
        return Game()


class CoopMode(Mode):
    """The original game: Righteous seats against the self-running Evil deck (CO-*)."""

    name = "coop"
    steps = ("draw", "lay", "after_lay", "evil", "resistance", "main", "end")  # CO-2
    has_round_limit = True

    def check_lineup(self, lineup: str) -> None:
        super().check_lineup(lineup)
        if "E" in lineup:
            raise ValueError("co-op has no Evil seats: the Evil deck runs itself (lineup of R only, e.g. RR)")
        if not 1 <= len(lineup) <= 6:
            raise ValueError("co-op takes 1 to 6 Righteous seats")


class SoloMode(CoopMode):
    """Co-op alone (one Righteous seat), with the Target-Change fee (P-7)."""

    name = "solo"

    def check_lineup(self, lineup: str) -> None:
        super().check_lineup(lineup)
        if lineup != "R":
            raise ValueError("solo is one Righteous seat: lineup R")


MODES: dict[str, type[Mode]] = {"coop": CoopMode, "solo": SoloMode}


def mode_by_name(name: str) -> Mode:
    """The mode registered under ``name``; a clear error for an unknown one."""
    if "duel" not in MODES:
        from . import duel
        MODES["duel"] = duel.DuelMode
    try:
        return MODES[name]()
    except KeyError:
        raise ValueError(f"unknown mode {name!r}; known: {', '.join(sorted(MODES))}") from None
