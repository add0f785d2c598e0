"""One game of a lab cell: played from its cell and seed (:func:`play_cell_game`), its pace
measured as it goes (:class:`LockWatch`), and its row; :func:`run_chunk` is the unit of work every
backend runs."""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from ..cards.loader import starter_set
from ..cards.params import with_card_changes
from ..engine.actions import Pass
from ..engine.settings import Settings
from .lab_rows import game_row
from .simulate import game_seed, play_one

#: A game is "locked" when some seat goes this many of its own turns in a row with no option but
#: to pass (the target: fewer than 1 % of games locked).
LOCK_TURNS = 5


class LockWatch:
    """Watches a game's decisions (``play_out(watch=...)``) to measure its pace.

    * *locked* (:meth:`longest`): the longest run of a seat's own turns in a row in which it never
      had an option but to pass (no decision of its own in that turn offered anything but
      ``Pass``; a turn with no decision at all counts too, since the engine skips decisions with
      one answer);
    * *pass-only turns* (:meth:`pass_turns`): how many own turns, of every seat, were like that;
    * *Evil's first turn* (:attr:`first_evil_decisions`): how many decisions (every seat's, the
      answers to its threats included) the first turn of an Evil seat took: how long the duel's
      opening turn keeps the table waiting.

    It needs no event log (lab games keep none): a game started by ``Game.new`` takes its turns in
    its turn order from the first seat, one turn number each, and ``event_counts["turn_started"]``
    says how many turns began."""

    __slots__ = ("options", "last_turn", "first_evil_turn", "first_evil_decisions")

    def __init__(self) -> None:
        self.options: set[tuple[int, int]] = set()   # (seat, turn_no): an own turn with an option
        self.last_turn = 0                           # the last turn in which a decision came
        self.first_evil_turn = 0                     # turn_no of the first Evil turn (0: none yet)
        self.first_evil_decisions = -1               # -1: no Evil turn (co-op, solo)

    def __call__(self, game: Any, seat: int, actions: Sequence[Any]) -> None:
        turn = game.state.turn_no
        self.last_turn = turn
        if turn == self.first_evil_turn:
            self.first_evil_decisions += 1
        elif not self.first_evil_turn and turn >= 1 and game.state.seats[game.turn_seat].side == "evil":
            self.first_evil_turn = turn
            self.first_evil_decisions = 1
        if seat != game.turn_seat:
            return
        key = (seat, game.state.turn_no)
        if key in self.options:
            return
        for a in actions:
            if type(a) is not Pass:
                self.options.add(key)
                return

    def longest(self, game: Any) -> int:
        """The longest run of locked own turns of any seat in ``game``."""
        order = game.turn_order
        runs: dict[int, int] = {}
        best = 0
        for turn in range(1, game.event_counts.get("turn_started", 0) + 1):
            seat = order[(turn - 1) % len(order)]
            if (seat, turn) in self.options:
                runs[seat] = 0
            else:
                runs[seat] = runs.get(seat, 0) + 1
                best = max(best, runs[seat])
        return best

    def pass_turns(self, game: Any) -> int:
        """How many own turns of every seat in ``game`` offered nothing but to pass. A last turn
        the game ended at the start of (a win, the round limit or the turn cap is judged as a turn
        starts) was never played and does not count."""
        order = game.turn_order
        begun = game.event_counts.get("turn_started", 0)
        if game.result is not None and begun > self.last_turn:
            begun -= 1
        return sum(1 for turn in range(1, begun + 1) if (order[(turn - 1) % len(order)], turn) not in self.options)


def play_cell_game(spec: dict[str, Any], index: int, watch: LockWatch | None = None) -> Any:
    """Play game ``index`` of a cell (``spec`` as :meth:`CellSpec.to_json`): the Game itself."""
    settings = Settings.from_dict(spec["settings"])
    bots = spec["bots"]
    changes = spec.get("cards") or {}
    return play_one(spec["mode"], spec["lineup"], game_seed(spec["seed"], index),
                    bots[0] if len(bots) == 1 else list(bots), settings, watch=watch, log=False,
                    card_set=_changed_cards(changes) if changes else None)


def _changed_cards(changes: Mapping[str, int]) -> Any:
    """The starter set with a cell's card changes, made once a worker process (a cell's games share it)."""
    key = json.dumps(dict(changes), sort_keys=True)
    found = _CHANGED.get(key)
    if found is None:
        found = _CHANGED[key] = with_card_changes(starter_set(), changes)
    return found


_CHANGED: dict[str, Any] = {}


def play_cell_row(cell_id: int, spec: dict[str, Any], index: int) -> tuple[Any, tuple[Any, ...]]:
    """Play game ``index`` of a cell: the Game and its row, the pace measures included."""
    watch = LockWatch()
    game = play_cell_game(spec, index, watch)
    return game, game_row(cell_id, index, game_seed(spec["seed"], index), game, watch.longest(game),
                          watch.first_evil_decisions, watch.pass_turns(game))


def run_chunk(cell_id: int, spec: dict[str, Any], indices: Sequence[int]) -> list[tuple[Any, ...]]:
    """Play some games of one cell and return their rows (the unit of work of every backend)."""
    return [play_cell_row(cell_id, spec, i)[1] for i in indices]
