"""Game modes as rule modules selected by name (like python-chess variants).

A mode answers the questions whose answers differ between co-op, solo and duel: which seats
exist, the turn order, the phases of a turn, draw counts, Cost Zone sizes, how many threats the
Evil deck plays, and when the game is won. The game asks its mode through these hooks and holds no
mode-specific branches of its own where a hook fits; the duel's rules that need more than a hook
are in :mod:`.duel`.

Rules: CO-1, CO-3, CO-4 (co-op seats, draws, the Evil deck's plays by Maturity), Z-3, Z-4 (intake,
opening Cost Zone), D-1, D-TURN-1, D-TURN-2, D-CZ-1..3 (duel seats, turn order, phases, the
outnumbered handicap), A-3 (no buying in a duel), A-1 (Foresight is co-op only).
"""

from __future__ import annotations

from typing import ClassVar, Protocol

from .numbers import ABILITIES
from .settings import Settings
from .state import State


class Table(Protocol):
    """What a mode's hooks read of a game: its line-up, settings and state."""

    lineup: str
    settings: Settings
    state: State

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

    def draw_count(self, game: Table, seat: int) -> int:
        """CO-3: Maturity + 2."""
        return game.state.seats[seat].maturity + 2

    def intake_cap(self, game: Table, seat: int) -> int:
        """Z-3: Righteous 4."""
        return 4

    def opening_cost_zone(self, game: Table, seat: int) -> int:
        """Z-4: 3 (+ extra opponents in a duel)."""
        return 3

    def evil_plays(self, game: Table, seat: int) -> int:
        return EVIL_PLAYS_BY_MATURITY[game.state.seats[seat].maturity]

    def abilities_available(self) -> tuple[str, ...]:
        return ABILITIES


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


DUEL_ABILITIES = tuple(a for a in ABILITIES if a != "foresight")   # Foresight is co-op only


class DuelMode(Mode):
    """Hooks for duel: turn order, draws and Cost Zones per side with the outnumbered handicap."""

    name = "duel"
    steps = ("draw", "lay", "after_lay", "main", "end")   # D-TURN-2: no Evil or Resistance phase
    has_round_limit = False
    shared_levels = False
    can_buy_abilities = False

    def check_lineup(self, lineup: str) -> None:
        super().check_lineup(lineup)
        if "E" not in lineup or "R" not in lineup:
            raise ValueError("a duel needs at least one Evil seat (E) and one Righteous seat (R), e.g. ER")
        if len(lineup) > 8:
            raise ValueError("a duel takes at most 8 seats")

    def turn_order(self, lineup: str) -> list[int]:
        """D-TURN-1: every Evil seat, then every Righteous seat."""
        return [i for i, ch in enumerate(lineup) if ch == "E"] + [i for i, ch in enumerate(lineup) if ch == "R"]

    @staticmethod
    def extra_opponents(lineup: str, side: str) -> int:
        """D-CZ-1: the other side's seat count minus your own, never below 0."""
        mine = lineup.count("R" if side == "righteous" else "E")
        theirs = len(lineup) - mine
        return max(0, theirs - mine)

    @classmethod
    def handicap(cls, game: Table, side: str) -> int:
        """What D-CZ-2 and D-CZ-3 add for ``side``'s extra opponents: one each as printed, N each
        with the outnumbered play-test variant."""
        return cls.extra_opponents(game.lineup, side) * game.settings.outnumbered

    def draw_count(self, game: Table, seat: int) -> int:
        sd = game.state.seats[seat]
        if sd.side == "righteous":   # D-CZ-2
            return sd.maturity + 2 + self.handicap(game, "righteous")
        righteous = [s for s in game.state.seats if s.side == "righteous"]   # D-CZ-3
        if self.extra_opponents(game.lineup, "evil"):
            return sum(s.maturity + 2 for s in righteous)
        return max(s.maturity for s in righteous) + 2

    def intake_cap(self, game: Table, seat: int) -> int:
        side = game.state.seats[seat].side
        if side == "righteous":
            return 4
        return 4 + 2 * self.handicap(game, "evil")

    def opening_cost_zone(self, game: Table, seat: int) -> int:
        return 3 + self.handicap(game, game.state.seats[seat].side)

    def evil_plays(self, game: Table, seat: int) -> int:
        return 0

    def abilities_available(self) -> tuple[str, ...]:
        return DUEL_ABILITIES


MODES: dict[str, type[Mode]] = {"coop": CoopMode, "solo": SoloMode, "duel": DuelMode}


def mode_by_name(name: str) -> Mode:
    """The mode registered under ``name``; a clear error for an unknown one."""
    try:
        return MODES[name]()
    except KeyError:
        raise ValueError(f"unknown mode {name!r}; known: {', '.join(sorted(MODES))}") from None
