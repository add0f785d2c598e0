"""The ``search`` bot: determinized Monte Carlo search over sampled worlds, anchored on the heuristic.

What it is for: a bot that looks ahead instead of following rules of thumb, for every seat (co-op
Righteous; duel Righteous and Evil). Each *world* is asked of the engine
(``determinize(game, seat, rng)``: the hidden cards re-dealt consistently with the deciding seat's
view, the generator re-seeded); the bot reads the game only through that function and through the
legal actions; it never looks at hidden state in another way.

- **Candidates.** The legal actions are grouped: actions that differ only in which copy of the
  same card they use (same card id, same place, same tapped/face-up marks) are one group, so a
  hand of three "Idle Words" is one choice, not three. The heuristic bot's own pick comes first.
- **Common random numbers.** Every sampled world is played from each candidate group with the
  same rollout seed, so two candidates are compared on the same hidden cards and the same future
  draws: their difference, not each one's noise, decides. A candidate replaces the heuristic's pick
  only when its mean gain over it, on the worlds both were played in, exceeds a margin that shrinks
  as worlds accumulate (``MARGIN / sqrt(worlds)``); otherwise the heuristic's pick stands, so a
  small budget never does worse than chance on what the rollouts cannot tell apart.
- **Progressive widening.** After ``n`` worlds the first ``2 + sqrt(n)`` groups are played: long
  legal lists (boost offers, Cost Zone lays, many targets) are searched around the sensible move
  before the odd ones.
- **Rollouts** play the heuristic bot for every seat for ``horizon`` decisions (or to the end),
  then :func:`evaluate` scores the position for the Righteous side (both win conditions, co-op
  progress against the rounds left); a game decided sooner counts a little more (``LATE``).
- **Budget**: wall time (``search:50ms``, ``search:1.5s``; plain ``search`` is 200 ms) or a fixed
  number of rollouts (``search:2000it``, which also makes a decision depend only on the seed and
  the seat's view).
"""

from __future__ import annotations

import math
import time
from typing import Any, Mapping

from ..cards.loader import CardSet
from ..engine.actions import Action, Choose, LayCostZone, PlayCard
from ..engine.determinize import determinize
from ..engine.game import Game
from ..engine.rng import Rng
from .base import Bot, parse_budget_name
from .heuristic import HeuristicBot, rollout

DEFAULT_TIME_MS = 200.0
DEFAULT_HORIZON = 24
LATE = 0.002     # a decided game's value moves this much toward 0.5 per decision it took
MARGIN = 0.02     # the mean gain a candidate needs over the prior's pick, times 1/sqrt(worlds)

def parse_budget(name: str) -> tuple[float | None, int | None]:
    """``search``, ``search:200ms``, ``search:1.5s`` or ``search:500it`` -> (time_ms, iterations); a
    ``ValueError`` for anything else (:func:`~.base.parse_budget_name`)."""
    return parse_budget_name("search", name, DEFAULT_TIME_MS)


# --------------------------------------------------------------------------- evaluation
PACE = 0.45          # co-op: levels a seat gains in a round, about (the heuristic's winning games)
MATURITY_IN_HAND = 0.35   # a Maturity card held below L3 is most of a level still to come
CZ_CARD = 0.03       # a Cost Zone card pays every turn (up to CZ_USEFUL of them)
CZ_USEFUL = 12


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def _seat_progress(game: Game, seat: int) -> float:
    """A Righteous seat's way to L3, in levels (3: there): Maturity, then Humility toward the next
    level (S-7: 10 Humility is a level), Maturity cards in hand, and Cost Zone cards to pay with."""
    sd = game.state.seats[seat]
    if sd.maturity >= 3:
        return 3.0
    progress = sd.maturity + min(10, sd.humility) / 10.0
    defs = game.defs
    in_hand = sum(1 for u in sd.hand if defs[u].kind == "maturity")
    progress += MATURITY_IN_HAND * min(in_hand, 3 - sd.maturity)
    progress += CZ_CARD * (min(CZ_USEFUL, len(sd.cost_zone)) - 6)
    return min(2.95, progress)


def evaluate(game: Game) -> float:
    """How good a position is for the Righteous side, in [0, 1] (1: a Righteous win).

    It knows both win conditions. Righteous: every Righteous seat at L3 with no Evil Habitual in
    play, held for a round (CO-W-1, D-W-R). Evil: in a duel, 7 Evil Habituals in play per Evil seat
    held for a round (D-W-E); in co-op, the clock (CO-W-4: Evil wins when round 10 ends without a
    Righteous win).

    Co-op: each seat's way to L3 (Maturity, Humility toward the next level, Maturity cards in hand,
    its Cost Zone) is weighed against the rounds left at a pace of :data:`PACE` levels a round, less
    the Habituals holding it; the seats' chances multiply (every seat must get there), and
    Habituals in play weigh more as the end nears. Duel: progress against Habituals in play, and
    the armed clocks count for a lot.
    """
    st = game.state
    res = st.result
    if res is not None:
        return 0.5 if res.winner == "draw" else 1.0 if res.winner == "righteous" else 0.0   # G-8: a draw is half
    righteous = [i for i, s in enumerate(st.seats) if s.side == "righteous"]
    if not righteous:
        return 0.5
    habituals = len(st.field) + sum(len(s.held) for s in st.seats)
    all_l3 = all(st.seats[i].maturity >= 3 for i in righteous)
    duel = st.duel
    if duel is not None:
        progress = sum(min(3.0, _seat_progress(game, i)) for i in righteous) / (3.0 * len(righteous))
        limit = 7 * max(1, sum(1 for s in st.seats if s.side == "evil"))
        value = 0.5 + 0.3 * (progress - 0.5) - 0.45 * (habituals / limit - 0.3)
        if all_l3:
            value += 0.1 - 0.05 * habituals
        if duel.r_clock is not None:
            value += 0.2
        if duel.e_clock is not None:
            value -= 0.25
        return min(0.98, max(0.02, value))
    n = len(st.seats)
    rounds_left = max(0.0, game.settings.max_rounds - st.round + 1 - game.turn_seat / n)
    if all_l3:
        # the clearing round: only Habituals stand in the way (each needs Cost or Deliverance)
        value = 0.9 - 0.12 * habituals * (1.0 + 1.0 / (0.5 + rounds_left))
        if st.clearing is not None and habituals == 0:
            value += 0.05
        return min(0.98, max(0.02, value))
    value = 1.0
    for i in righteous:
        sd = st.seats[i]
        deficit = 3.0 - _seat_progress(game, i)
        margin = PACE * rounds_left - deficit - 0.3 * len(sd.held)
        value *= _sigmoid(2.5 * margin)
    value *= max(0.2, 1.0 - 0.05 * len(st.field))
    return min(0.98, max(0.02, 0.05 + 0.9 * value))


# --------------------------------------------------------------------------- action groups
def action_key(game: Game, action: Action) -> tuple[Any, ...]:
    """The group an action belongs to: the action with its card uid replaced by the card's id and
    the marks that make copies differ (in hand or not, tapped, face up)."""
    card = None
    if isinstance(action, (PlayCard, LayCostZone)):
        card = action.card
    elif isinstance(action, Choose):
        card = action.option
    if card is None:
        return (action,)
    st = game.state
    where = (game.defs[card].id, card in st.seats[action.seat].hand, card in st.tapped, card in st.face_up)
    if isinstance(action, PlayCard):
        return ("play", action.seat, where, action.threat, action.to_seat)
    if isinstance(action, LayCostZone):
        return ("lay", action.seat, where)
    return ("choose", action.seat, where)


def group_actions(game: Game, actions: list[Action]) -> dict[tuple[Any, ...], Action]:
    """One representative action per group, in the order of the legal list."""
    groups: dict[tuple[Any, ...], Action] = {}
    for a in actions:
        groups.setdefault(action_key(game, a), a)
    return groups


class SearchBot(Bot):
    """Determinized Monte Carlo search with heuristic rollouts (see the module docstring). Needs
    the game: use ``decide``."""

    name = "search"
    thinks = True   # drivers with an event loop run ``decide`` off it (see ``think``, ``thinking_pool``)

    def __init__(self, seed: int = 0, cards: CardSet | None = None, time_ms: float | None = DEFAULT_TIME_MS,
                 iterations: int | None = None, horizon: int = DEFAULT_HORIZON,
                 margin: float = MARGIN) -> None:
        super().__init__(seed, cards)
        if time_ms is None and iterations is None:
            raise ValueError("a search bot needs a time or an iteration budget")
        self.time_ms = time_ms
        self.iterations = iterations
        self.horizon = horizon
        self.margin = margin
        self.policy = HeuristicBot(seed, self.cards)   # rollouts and the prior
        self.last_iterations = 0   # how many rollouts the last decision ran (for tests and reports)
        self.last_scores: dict[tuple[Any, ...], tuple[int, float]] = {}   # group -> (worlds, mean gain)

    def __repr__(self) -> str:
        budget = f"{self.iterations}it" if self.iterations is not None else f"{self.time_ms:g}ms"
        return f"<SearchBot {budget}>"

    def choose(self, view: Mapping[str, Any], actions: list[Action]) -> Action:
        """Without the game there is nothing to search: fall back to the heuristic's choice."""
        return self.policy.choose(view, actions)

    def decide(self, game: Game, seat: int, actions: list[Action]) -> Action:
        """Search from ``seat``'s information set; the heuristic's own pick unless another group
        does better on the same sampled worlds (see the module docstring)."""
        self.last_iterations = 0
        self.last_scores = {}
        if len(actions) == 1:
            return actions[0]
        groups = group_actions(game, actions)
        if len(groups) == 1:
            return actions[0]
        policy = self.policy
        policy.rng = Rng(self.rng.next64())
        pick = policy.choose(game.seat_view(seat), actions)
        prior = action_key(game, pick)
        order = [prior] + [k for k in groups if k != prior]
        deadline = None if self.time_ms is None else time.perf_counter() + self.time_ms / 1000.0
        limit = self.iterations if self.iterations is not None else 1 << 30
        righteous = game.state.seats[seat].side == "righteous"
        gains: dict[tuple[Any, ...], list[float]] = {k: [0.0, 0.0] for k in order}   # [worlds, summed gain]
        done = 0
        worlds = 0
        out_of_budget = False
        while not out_of_budget:
            width = min(len(order), 2 + int(math.sqrt(worlds)))
            base = determinize(game, seat, self.rng)
            seed = self.rng.next64()
            values: dict[tuple[Any, ...], float] = {}
            for k in order[:width]:
                world = base.clone() if k is not order[width - 1] else base
                world.apply_unchecked(groups[k])
                policy.rng = Rng(seed)   # the same rollout for every candidate (common random numbers)
                v = self._rollout(world)
                values[k] = v if righteous else 1.0 - v
                done += 1
                if done >= limit or (deadline is not None and time.perf_counter() >= deadline and done >= 2):
                    out_of_budget = True
                    break
            worlds += 1
            base_value = values.get(prior)
            if base_value is None:
                break
            for k, v in values.items():
                if k != prior:
                    g = gains[k]
                    g[0] += 1
                    g[1] += v - base_value
        self.last_iterations = done
        best, best_gain = prior, 0.0
        for k in order[1:]:
            n, total = gains[k]
            if n == 0:
                continue
            mean = total / n
            self.last_scores[k] = (int(n), mean)
            # a candidate replaces the prior's pick only when it gains on the same worlds, by more
            # than a margin that shrinks with the worlds seen
            if mean > self.margin / math.sqrt(n) and mean > best_gain:
                best, best_gain = k, mean
        return groups[best]

    def _rollout(self, world: Game) -> float:
        decisions = rollout(world, self.policy, 0, self.horizon)
        value = evaluate(world)
        if world.state.result is not None:   # a win sooner is worth a little more than one later
            value += (0.5 - value) * LATE * decisions
        return value


def make_search_bot(name: str, seed: int = 0, cards: CardSet | None = None) -> SearchBot:
    """A search bot from a level name such as ``search``, ``search:50ms`` or ``search:2000it``."""
    time_ms, iterations = parse_budget(name)
    return SearchBot(seed, cards, time_ms=time_ms, iterations=iterations)


# --------------------------------------------------------------------------- off the event loop
_POOL: Any = None
KEEP_HISTORY = 400   # actions of the history a worker's copy keeps (the mcts bot reads the last few)


def worker_copy(game: Game, keep: int = KEEP_HISTORY) -> Game:
    """A copy of ``game`` to send to a worker process: its action history (a chain of shared
    cells, one an action, that pickle walks by recursion) is cut to the last ``keep`` actions, its
    undo chain dropped and its event log left behind. A whole long duel's chain, thousands deep, does not pickle (a
    RecursionError: the search bot fell back to the heuristic's move), and a bot needs neither."""
    copy = game.clone(log=False)   # nor the event log: a bot reads the state and its view
    cells: list[Any] = []
    link: Any = game._history
    while link is not None and len(cells) < keep:
        cells.append(link[0])
        link = link[1]
    chain: Any = None
    for action in reversed(cells):
        chain = (action, chain)
    copy._history = chain
    copy._moves = None
    return copy


def think(bot: Bot, game: Game, seat: int, actions: list[Action],
          asked_at: float | None = None) -> tuple[Action, int, Any]:
    """One decision in a worker process: the action, the bot's generator state afterwards and what
    the bot keeps for its next decision (``Bot.carry``: the mcts bot's subtree); the caller copies
    the last two back (``Bot.restore``), so the next decision neither repeats this one's samples
    nor starts from nothing. ``asked_at`` (``time.time()`` when the move was asked for): a bot with
    a time budget counts it from then, so a decision that waited for a free worker still arrives
    within its budget."""
    started = getattr(bot, "started_at", None)
    if asked_at is not None and hasattr(bot, "started_at"):
        setattr(bot, "started_at", asked_at)
    try:
        action = bot.decide(game, seat, actions)
    finally:
        if asked_at is not None and hasattr(bot, "started_at"):
            setattr(bot, "started_at", started)
    return action, bot.rng.state, bot.carry()


def thinking_pool() -> Any:
    """The process pool that search bots think in when a server runs them (made on first use).

    Processes, not threads: a search holds the interpreter for its whole budget, so in a thread it
    would still slow the event loop that serves every other game. ``spawn`` workers import the
    package afresh (no fork of a running event loop); one worker a core.
    """
    global _POOL
    if _POOL is None:
        import atexit
        import os

        from ..workers import spawn_pool
        _POOL = spawn_pool(max(1, os.cpu_count() or 1))
        atexit.register(_close_thinking_pool)
    return _POOL


def _close_thinking_pool() -> None:
    """Shut the thinking pool down at exit, while the interpreter is whole: a pool left in a module
    global is collected only as the modules are torn down, and its wake-up callback then fails on a
    ``multiprocessing`` that is already gone (an ``Exception ignored ... weakref_cb`` traceback)."""
    global _POOL
    pool, _POOL = _POOL, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)
