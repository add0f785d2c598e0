"""Play N games with bots in every seat and summarise: win rate, rounds, score, reasons."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..bots.match import play_out
from ..bots.registry import make_bot
from ..cards.loader import CardSet
from ..engine.game import Game
from ..engine.rng import Rng
from ..engine.settings import Settings


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game ``index`` of a run: derived, so any game can be replayed on its own."""
    rng = Rng(run_seed * 0x100000001B3 + index)
    return rng.next64() & 0x7FFFFFFF


@dataclass
class SimResult:
    """Summary of a batch of games."""

    mode: str
    lineup: str
    bots: str
    seed: int
    games: int = 0
    righteous_wins: int = 0
    rounds_total: int = 0
    turns_total: int = 0
    score_total: list[int] = field(default_factory=lambda: [0, 0])
    reasons: dict[str, int] = field(default_factory=dict)
    unfinished: int = 0

    @property
    def win_rate(self) -> float:
        return self.righteous_wins / self.games if self.games else 0.0

    @property
    def avg_rounds(self) -> float:
        return self.rounds_total / self.games if self.games else 0.0

    @property
    def avg_turns(self) -> float:
        return self.turns_total / self.games if self.games else 0.0

    @property
    def avg_score(self) -> tuple[float, float]:
        n = self.games or 1
        return self.score_total[0] / n, self.score_total[1] / n

    def add(self, game: Game) -> None:
        self.games += 1
        res = game.result
        if res is None:
            self.unfinished += 1
            reason = "unfinished"
        else:
            reason = res.reason
            if res.winner == "righteous":
                self.righteous_wins += 1
        self.reasons[reason] = self.reasons.get(reason, 0) + 1
        self.rounds_total += min(game.round, game.settings.max_rounds) if game.mode.has_round_limit else game.round
        self.turns_total += game.state.turn_no
        r, e = game.score
        self.score_total[0] += r
        self.score_total[1] += e

    def to_json(self) -> dict[str, Any]:
        return {"mode": self.mode, "lineup": self.lineup, "bots": self.bots, "seed": self.seed,
                "games": self.games, "righteous_wins": self.righteous_wins, "win_rate": round(self.win_rate, 4),
                "avg_rounds": round(self.avg_rounds, 3), "avg_turns": round(self.avg_turns, 3),
                "avg_score": [round(x, 3) for x in self.avg_score], "reasons": dict(sorted(self.reasons.items())),
                "unfinished": self.unfinished}


def play_one(mode: str, lineup: str, seed: int, bots: str | list[str], settings: Settings | None = None,
             scenario: str | None = None, watch: Callable[[Game, int, list[Any]], None] | None = None,
             log: bool = True, card_set: CardSet | None = None) -> Game:
    """One game with bots in every seat; ``bots`` is one level for all seats or one a seat
    (``watch``: see :func:`~christianity_game.bots.match.play_out`; ``log=False``: the game keeps
    no event log, as the lab's games do; ``card_set``: cards other than the starter set's, e.g.
    the lab's card changes)."""
    if scenario is not None:
        from ..scenarios import scenario as find_scenario
        game = find_scenario(scenario).new_game(seed=seed, settings=settings)
        lineup = game.lineup
    else:
        game = Game.new(mode=mode, lineup=lineup, seed=seed, settings=settings, log=log, card_set=card_set)
    levels = [bots] * len(lineup) if isinstance(bots, str) else list(bots)
    if len(levels) != len(lineup):
        raise ValueError(f"need one bot level a seat ({len(lineup)}), got {len(levels)}")
    players = {i: make_bot(level, seed * 31 + i, game.cards) for i, level in enumerate(levels)}
    return play_out(game, players, watch=watch)


def simulate(mode: str, lineup: str, games: int, seed: int = 0, bots: str | list[str] = "heuristic",
             settings: Settings | None = None, progress: Callable[[int], None] | None = None,
             scenario: str | None = None) -> SimResult:
    """Play ``games`` games; ``progress(n)`` is called after each with the number done."""
    if games < 1:
        raise ValueError("games must be at least 1")
    result = SimResult(mode, lineup, bots if isinstance(bots, str) else ",".join(bots), seed)
    for i in range(games):
        result.add(play_one(mode, lineup, game_seed(seed, i), bots, settings, scenario))
        if progress is not None:
            progress(i + 1)
    return result
