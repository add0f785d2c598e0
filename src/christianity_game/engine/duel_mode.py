"""The duel as a mode (docs/rules.md, section D): its seats, turn order, phases and draws
(D-1, D-TURN-1, D-TURN-2, D-CZ-1..3), and the hooks through which the shared rules reach the
duel's own (:mod:`.duel`, :mod:`.duel_clocks`). Listed in :data:`~.modes.MODES`.
"""

from __future__ import annotations

from .actions import Action, PlayCard
from .base import GameBase, Mode
from .duel import (ability_uses, after_level, after_position, answerable, benevolence_ok, break_held, deal,
                   do, do_choose, do_play, early_decider, early_legal, held_resists, late_decider,
                   late_legal, late_pass, main_plays, may_level, mode_flow, on_card_played,
                   on_habitual_took_hold, on_left_cost_zone, on_temptation_failed, on_turn_start,
                   phase_order, resist_threat, speed_plays, why_illegal)
from .duel_clocks import judge_at_turn_start
from .numbers import ABILITIES
from .settings import Settings
from .state import StackItem, Threat

__all__ = ["DUEL_ABILITIES", "DuelMode"]


DUEL_ABILITIES = tuple(a for a in ABILITIES if a != "foresight")   # Foresight is co-op only


class DuelMode(Mode):
    """Hooks for duel: turn order, draws and Cost Zones per side with the outnumbered handicap."""

    name = "duel"
    steps = ("draw", "lay", "after_lay", "main", "end")   # D-TURN-2: no Evil or Resistance phase
    has_round_limit = False
    shared_levels = False
    can_buy_abilities = False
    evil_seat_deck = "duel-evil"

    def check_lineup(self, lineup: str) -> None:
        super().check_lineup(lineup)
        if "E" not in lineup or "R" not in lineup:
            raise ValueError("a duel needs at least one Evil seat (E) and one Righteous seat (R), e.g. ER")
        if len(lineup) > 8:
            raise ValueError("a duel takes at most 8 seats")

    def turn_order(self, lineup: str, settings: Settings | None = None) -> list[int]:
        """D-TURN-1: every Evil seat, then every Righteous seat. With the alternateTurns variant and
        fewer Righteous seats than Evil ones, a Righteous seat follows each Evil seat, the
        Righteous seats taken in turn (EER: E, R, E, R; EEERR: E, R, E, R', E, R), so a seat may
        take more than one turn a round."""
        evil = [i for i, ch in enumerate(lineup) if ch == "E"]
        righteous = [i for i, ch in enumerate(lineup) if ch == "R"]
        if settings is None or not settings.alternate_turns or len(righteous) >= len(evil) or not righteous:
            return evil + righteous
        return [seat for k, e in enumerate(evil) for seat in (e, righteous[k % len(righteous)])]

    @staticmethod
    def extra_opponents(lineup: str, side: str) -> int:
        """D-CZ-1: the other side's seat count minus your own, never below 0."""
        mine = lineup.count("R" if side == "righteous" else "E")
        theirs = len(lineup) - mine
        return max(0, theirs - mine)

    @classmethod
    def handicap(cls, game: GameBase, side: str) -> int:
        """What D-CZ-2 and D-CZ-3 add for ``side``'s extra opponents: one each as printed, N each
        with the outnumbered play-test variant."""
        return cls.extra_opponents(game.lineup, side) * game.settings.outnumbered

    def draw_count(self, game: GameBase, seat: int) -> int:
        sd = game.state.seats[seat]
        if sd.side == "righteous":   # D-CZ-2
            return sd.maturity + 2 + self.handicap(game, "righteous")
        righteous = [s for s in game.state.seats if s.side == "righteous"]   # D-CZ-3
        if self.extra_opponents(game.lineup, "evil"):
            return sum(s.maturity + 2 for s in righteous)
        return max(s.maturity for s in righteous) + 2

    def intake_cap(self, game: GameBase, seat: int) -> int:
        side = game.state.seats[seat].side
        if side == "righteous":
            return 4
        return 4 + 2 * self.handicap(game, "evil")

    def opening_cost_zone(self, game: GameBase, seat: int) -> int:
        return 3 + self.handicap(game, game.state.seats[seat].side)

    def evil_plays(self, game: GameBase, seat: int) -> int:
        return 0

    def abilities_available(self) -> tuple[str, ...]:
        return DUEL_ABILITIES

    # ------------------------------------------------------------------ the duel's rules (duel.py)
    def deal(self, game: GameBase) -> None:
        deal(game)

    def after_position(self, game: GameBase) -> None:
        after_position(game)

    def early_decider(self, game: GameBase) -> int | None:
        return early_decider(game)

    def early_legal(self, game: GameBase, seat: int) -> list[Action] | None:
        return early_legal(game, seat)

    def late_decider(self, game: GameBase) -> int | None:
        return late_decider(game)

    def late_legal(self, game: GameBase, seat: int) -> list[Action] | None:
        return late_legal(game, seat)

    def answerable(self, game: GameBase) -> list[Threat]:
        return answerable(game)

    def benevolence_ok(self, game: GameBase, seat: int) -> bool:
        return benevolence_ok(game, seat)

    def main_plays(self, game: GameBase, seat: int, free: int, playable: list[int]) -> list[Action]:
        return main_plays(game, seat, free, playable)

    def held_resists(self, game: GameBase, seat: int, free: int) -> list[Action]:
        return held_resists(game, seat, free)

    def ability_uses(self, game: GameBase, seat: int) -> list[Action]:
        return ability_uses(game, seat)

    def speed_plays(self, game: GameBase, seat: int, free: int, playable: list[int]) -> list[Action]:
        return speed_plays(game, seat, free, playable)

    def why_illegal(self, game: GameBase, a: Action) -> tuple[str, str]:
        return why_illegal(game, a)

    def do(self, game: GameBase, a: Action) -> None:
        do(game, a)

    def late_pass(self, game: GameBase, seat: int) -> bool:
        return late_pass(game, seat)

    def do_play(self, game: GameBase, a: PlayCard) -> None:
        do_play(game, a)

    def do_choose(self, game: GameBase, seat: int, option: int) -> None:
        do_choose(game, seat, option)

    def on_card_played(self, game: GameBase, seat: int, uid: int) -> None:
        on_card_played(game, seat, uid)

    def on_left_cost_zone(self, game: GameBase, seat: int, uid: int) -> None:
        on_left_cost_zone(game, seat, uid)

    def mode_flow(self, game: GameBase) -> str | None:
        return mode_flow(game)

    def resist_threat(self, game: GameBase, threat: Threat, seat: int, how: str) -> None:
        resist_threat(game, threat, seat, how)

    def break_held(self, game: GameBase, uid: int, by_seat: int, how: str) -> None:
        break_held(game, uid, by_seat, how)

    def on_temptation_failed(self, game: GameBase, item: StackItem) -> None:
        on_temptation_failed(game, item)

    def on_habitual_took_hold(self, game: GameBase, item: StackItem) -> None:
        on_habitual_took_hold(game, item)

    def may_level(self, game: GameBase, seat: int) -> bool:
        return may_level(game, seat)

    def after_level(self, game: GameBase, seat: int) -> None:
        after_level(game, seat)

    def on_turn_start(self, game: GameBase, seat: int) -> None:
        on_turn_start(game, seat)

    def phase_order(self, game: GameBase) -> list[int]:
        return phase_order(game)

    def judge_at_turn_start(self, game: GameBase, seat: int) -> None:
        judge_at_turn_start(game, seat)
