"""The registry of game modes, by name (like python-chess's ``VARIANTS`` / ``find_variant``).

A mode answers the questions whose answers differ between co-op, solo and duel: which seats
exist, the turn order, the phases of a turn, draw counts, Cost Zone sizes, how many threats the
Evil deck plays, and when the game is won. The game asks its mode through the public hooks of
:class:`~.base.Mode` (each takes the game first) and holds no mode-specific branches of its own
where a hook fits; :class:`CoopMode` answers the hooks that carry out shared rules with the
functions of their modules. Each mode is a class here or in its own module
(:class:`~.duel_mode.DuelMode`), listed in :data:`MODES`; nothing registers itself on import.

Rules: CO-1, CO-3, CO-4 (co-op seats, draws, the Evil deck's plays by Maturity), Z-3, Z-4 (intake,
opening Cost Zone), D-1, D-TURN-1, D-TURN-2, D-CZ-1..3 (duel seats, turn order, phases, the
outnumbered handicap), A-3 (no buying in a duel), A-1 (Foresight is co-op only).
"""

from __future__ import annotations

from . import abilities, badges, coop, flow, legal, stack
from .actions import Action, PlayCard
from .base import EVIL_PLAYS_BY_MATURITY, GameBase, Mode
from .duel_mode import DUEL_ABILITIES, DuelMode
from .state import Threat

__all__ = ["DUEL_ABILITIES", "EVIL_PLAYS_BY_MATURITY", "MODES", "CoopMode", "DuelMode", "Mode", "SoloMode",
           "find_mode", "mode_by_name"]


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

    # The shared rules, called by name from their modules; the duel's hooks reach the same
    # functions around its own rules (duel_mode.DuelMode).
    def main_plays(self, game: GameBase, seat: int, free: int, playable: list[int]) -> list[Action]:
        return legal.main_plays(game, seat, free, playable)

    def held_resists(self, game: GameBase, seat: int, free: int) -> list[Action]:
        return legal.held_resists(game, seat, free)

    def ability_uses(self, game: GameBase, seat: int) -> list[Action]:
        return abilities.ability_uses(game, seat)

    def speed_plays(self, game: GameBase, seat: int, free: int, playable: list[int]) -> list[Action]:
        return legal.speed_plays(game, seat, free, playable)

    def why_illegal(self, game: GameBase, a: Action) -> tuple[str, str]:
        return legal.why_illegal(game, a)

    def do(self, game: GameBase, a: Action) -> None:
        flow.do(game, a)

    def do_play(self, game: GameBase, a: PlayCard) -> None:
        stack.do_play(game, a)

    def do_choose(self, game: GameBase, seat: int, option: int) -> None:
        flow.do_choose(game, seat, option)

    def resist_threat(self, game: GameBase, threat: Threat, seat: int, how: str) -> None:
        stack.resist_threat(game, threat, seat, how)

    def break_held(self, game: GameBase, uid: int, by_seat: int, how: str) -> None:
        stack.break_held(game, uid, by_seat, how)

    def after_level(self, game: GameBase, seat: int) -> None:
        badges.after_level(game, seat)

    def phase_order(self, game: GameBase) -> list[int]:
        return flow.phase_order(game)

    def judge_at_turn_start(self, game: GameBase, seat: int) -> None:
        coop.judge_at_turn_start(game, seat)


class SoloMode(CoopMode):
    """Co-op alone (one Righteous seat), with the Target-Change fee (P-7)."""

    name = "solo"

    def check_lineup(self, lineup: str) -> None:
        super().check_lineup(lineup)
        if lineup != "R":
            raise ValueError("solo is one Righteous seat: lineup R")


#: Every mode, by name: the one place a mode is declared.
MODES: dict[str, type[Mode]] = {"coop": CoopMode, "solo": SoloMode, "duel": DuelMode}


def find_mode(name: str) -> Mode:
    """The mode registered under ``name``; a ValueError naming the known modes for an unknown one."""
    try:
        return MODES[name]()
    except KeyError:
        raise ValueError(f"unknown mode {name!r}; known: {', '.join(sorted(MODES))}") from None


#: The older name of :func:`find_mode`.
mode_by_name = find_mode
