"""The ``search`` bot: information-set Monte Carlo tree search over sampled worlds.

What it is for: a bot that looks ahead instead of following rules of thumb, for every seat (co-op
Righteous; duel Righteous and Evil). It is single-observer ISMCTS (Cowling, Powley & Whitehouse
2012): every iteration asks the engine for a fresh *world* (``determinize(game, seat, rng)``: the
hidden cards re-dealt consistently with the deciding seat's view, the generator re-seeded) and walks
one shared tree with it. The bot reads the game only through that function and through the legal
actions; it never looks at hidden state in another way.

- **Tree.** Nodes are decisions with more than one option, for any seat (opponents and teammates
  too); forced moves are played through. Edges are *action groups*: actions that differ only in
  which copy of the same card they use (same card id, same place, same tapped/face-up marks) are
  one edge, so a hand of three "Idle Words" is one choice, not three. A child is scored from the
  view of the side that chose it; selection is UCB1 over the children available in this world
  (availability counts, as ISMCTS does).
- **Progressive widening.** A node visited ``n`` times considers only its first
  ``2 + sqrt(n)`` groups, the heuristic bot's own choice first: long legal lists (boost offers,
  Cost Zone lays, many targets) are searched around the sensible move before the odd ones.
- **Rollouts** play the heuristic bot for every seat for ``horizon`` decisions (or to the end),
  then :func:`evaluate` scores the position for the Righteous side.
- **Budget**: wall time (``search:50ms``, ``search:1.5s``; plain ``search`` is 200 ms) or a fixed
  number of iterations (``search:2000it``, which also makes a decision depend only on the seed and
  the seat's view).
"""

from __future__ import annotations

import math
import re
import time
from typing import Any, Mapping

from ..cards.loader import CardSet
from ..engine.actions import Action, Choose, LayCostZone, PlayCard
from ..engine.determinize import determinize
from ..engine.game import Game
from ..engine.rng import Rng
from .base import Bot
from .heuristic import HeuristicBot

DEFAULT_TIME_MS = 200.0
DEFAULT_HORIZON = 24
EXPLORATION = 0.7

_BUDGET = re.compile(r"^(?:(\d+(?:\.\d+)?)(ms|s)|(\d+)it)$")


def parse_budget(name: str) -> tuple[float | None, int | None]:
    """``search``, ``search:50ms``, ``search:1.5s`` or ``search:2000it`` -> (time_ms, iterations).

    Raises ``ValueError`` for anything else (the lab, the CLI and the server report it as an
    unknown bot).
    """
    if name == "search":
        return DEFAULT_TIME_MS, None
    head, sep, spec = name.partition(":")
    m = _BUDGET.match(spec) if head == "search" and sep else None
    if m is None:
        raise ValueError(f"bad search budget {name!r}: use search, search:50ms, search:1.5s or search:2000it")
    if m.group(3) is not None:
        iterations = int(m.group(3))
        if iterations < 1:
            raise ValueError(f"bad search budget {name!r}: at least 1 iteration")
        return None, iterations
    ms = float(m.group(1)) * (1000.0 if m.group(2) == "s" else 1.0)
    if ms <= 0:
        raise ValueError(f"bad search budget {name!r}: the time must be positive")
    return ms, None


# --------------------------------------------------------------------------- evaluation
def evaluate(game: Game) -> float:
    """How good a position is for the Righteous side, in [0, 1] (1: a Righteous win).

    It knows both win conditions. Righteous: every Righteous seat at L3 with no Evil Habitual in
    play, held for a round (CO-W-1, D-W-R); progress is Maturity (10 points a level) plus Humility
    (1 a point). Evil: in a duel, 7 Evil Habituals in play per Evil seat held for a round (D-W-E);
    in co-op, the clock (CO-W-4: Evil wins when round 10 ends without a Righteous win), so progress
    is weighed against the rounds used. Armed clocks count for a lot.
    """
    res = game.state.result
    if res is not None:
        return 1.0 if res.winner == "righteous" else 0.0
    st = game.state
    righteous = [s for s in st.seats if s.side == "righteous"]
    if not righteous:
        return 0.5
    progress = sum(min(3, s.maturity) * 10 + s.humility for s in righteous) / (40.0 * len(righteous))
    all_l3 = all(s.maturity >= 3 for s in righteous)
    habituals = len(st.field) + sum(len(s.held) for s in st.seats)
    duel = st.duel
    if duel is not None:
        limit = 7 * max(1, sum(1 for s in st.seats if s.side == "evil"))
        value = 0.5 + 0.3 * (progress - 0.5) - 0.45 * (habituals / limit - 0.3)
        if all_l3:
            value += 0.1 - 0.05 * habituals
        if duel.r_clock is not None:
            value += 0.2
        if duel.e_clock is not None:
            value -= 0.25
    else:
        rounds = max(1, game.settings.max_rounds)
        used = min(1.0, (st.round - 1) / rounds)
        value = 0.5 + 0.5 * (progress - used) - 0.08 * habituals
        if all_l3:
            value += 0.1 - 0.05 * habituals
        if st.clearing is not None and habituals == 0:
            value += 0.1
    return min(0.98, max(0.02, value))


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


class _Node:
    """One decision in the shared tree; ``value`` is summed from the view of the side that chose it."""

    __slots__ = ("visits", "value", "avail", "children", "order", "righteous")

    def __init__(self, righteous: bool) -> None:
        self.visits = 0
        self.value = 0.0
        self.avail = 0
        self.children: dict[tuple[Any, ...], _Node] = {}
        self.order: list[tuple[Any, ...]] | None = None   # the groups by prior, heuristic's pick first
        self.righteous = righteous   # the side whose choice led here


class SearchBot(Bot):
    """ISMCTS with heuristic rollouts (see the module docstring). Needs the game: use ``decide``."""

    name = "search"
    thinks = True   # drivers with an event loop run ``decide`` off it (see ``think``, ``thinking_pool``)

    def __init__(self, seed: int = 0, cards: CardSet | None = None, time_ms: float | None = DEFAULT_TIME_MS,
                 iterations: int | None = None, horizon: int = DEFAULT_HORIZON,
                 exploration: float = EXPLORATION) -> None:
        super().__init__(seed, cards)
        if time_ms is None and iterations is None:
            raise ValueError("a search bot needs a time or an iteration budget")
        self.time_ms = time_ms
        self.iterations = iterations
        self.horizon = horizon
        self.exploration = exploration
        self.policy = HeuristicBot(seed, self.cards)   # rollouts and the prior
        self.last_iterations = 0   # how many iterations the last decision ran (for tests and reports)

    def __repr__(self) -> str:
        budget = f"{self.iterations}it" if self.iterations is not None else f"{self.time_ms:g}ms"
        return f"<SearchBot {budget}>"

    def choose(self, view: Mapping[str, Any], actions: list[Action]) -> Action:
        """Without the game there is nothing to search: fall back to the heuristic's choice."""
        return self.policy.choose(view, actions)

    def decide(self, game: Game, seat: int, actions: list[Action]) -> Action:
        """Search from ``seat``'s information set and return the most visited root group."""
        if len(actions) == 1:
            return actions[0]
        root_groups = group_actions(game, actions)
        if len(root_groups) == 1:
            return actions[0]
        self.policy.rng = Rng(self.rng.next64())
        root = _Node(game.state.seats[seat].side == "righteous")
        deadline = None if self.time_ms is None else time.perf_counter() + self.time_ms / 1000.0
        limit = self.iterations if self.iterations is not None else 1 << 30
        done = 0
        while done < limit:
            world = determinize(game, seat, self.rng)
            self._iterate(root, world)
            done += 1
            if deadline is not None and time.perf_counter() >= deadline and done >= 2:
                break
        self.last_iterations = done
        best = max((k for k in root.children if k in root_groups),
                   key=lambda k: (root.children[k].visits, root.children[k].value), default=None)
        return root_groups[best] if best is not None else self.policy.choose(game.seat_view(seat), actions)

    # ------------------------------------------------------------------ one iteration
    def _ordered(self, node: _Node, world: Game, seat: int, groups: dict[tuple[Any, ...], Action],
                 actions: list[Action]) -> list[tuple[Any, ...]]:
        """The node's groups by prior: the heuristic's pick first, then the legal list's order.
        Groups first seen in a later world are appended."""
        if node.order is None:
            pick = self.policy.choose(world.seat_view(seat), actions)
            first = action_key(world, pick)
            node.order = [first] + [k for k in groups if k != first]
        else:
            known = set(node.order)
            node.order.extend(k for k in groups if k not in known)
        return node.order

    def _iterate(self, root: _Node, world: Game) -> None:
        node = root
        path = [root]
        expanded = False
        while not expanded:
            pending = world.pending
            if not pending:
                break
            seat, actions = pending[0]
            if len(actions) == 1:
                world.apply_unchecked(actions[0])
                continue
            groups = group_actions(world, actions)
            if len(groups) == 1:
                world.apply_unchecked(actions[0])
                continue
            order = self._ordered(node, world, seat, groups, actions)
            width = 2 + int(math.sqrt(node.visits))
            allowed = [k for k in order[:width] if k in groups] or [next(iter(groups))]
            righteous = world.state.seats[seat].side == "righteous"
            untried = [k for k in allowed if k not in node.children]
            if untried:
                key = untried[0]
                child = _Node(righteous)
                node.children[key] = child
                expanded = True
            else:
                best_key, best_score = allowed[0], -1.0
                for k in allowed:
                    c = node.children[k]
                    c.avail += 1
                    score = c.value / c.visits + self.exploration * math.sqrt(
                        math.log(max(1, c.avail)) / c.visits) if c.visits else 1e9
                    if score > best_score:
                        best_key, best_score = k, score
                key = best_key
                child = node.children[key]
            world.apply_unchecked(groups[key])
            node = child
            path.append(node)
        value = self._rollout(world)
        for n in path:
            n.visits += 1
            n.value += value if n.righteous else 1.0 - value

    def _rollout(self, world: Game) -> float:
        decisions = 0
        policy = self.policy
        while decisions < self.horizon:
            pending = world.pending
            if not pending:
                break
            seat, actions = pending[0]
            if len(actions) == 1:
                world.apply_unchecked(actions[0])
                continue
            world.apply_unchecked(policy.choose(world.seat_view(seat), actions))
            decisions += 1
        return evaluate(world)


def make_search_bot(name: str, seed: int = 0, cards: CardSet | None = None) -> SearchBot:
    """A search bot from a level name such as ``search``, ``search:50ms`` or ``search:2000it``."""
    time_ms, iterations = parse_budget(name)
    return SearchBot(seed, cards, time_ms=time_ms, iterations=iterations)


# --------------------------------------------------------------------------- off the event loop
_POOL: Any = None


def think(bot: Bot, game: Game, seat: int, actions: list[Action]) -> tuple[Action, int]:
    """One decision in a worker process: the action and the bot's generator state afterwards (the
    caller copies it back, so the bot's next decision does not repeat this one's samples)."""
    action = bot.decide(game, seat, actions)
    return action, bot.rng.state


def thinking_pool() -> Any:
    """The process pool that search bots think in when a server runs them (made on first use).

    Processes, not threads: a search holds the interpreter for its whole budget, so in a thread it
    would still slow the event loop that serves every other game. ``spawn`` workers import the
    package afresh (no fork of a running event loop); one worker a core.
    """
    global _POOL
    if _POOL is None:
        import multiprocessing
        import os
        from concurrent.futures import ProcessPoolExecutor
        _POOL = ProcessPoolExecutor(max_workers=max(1, os.cpu_count() or 1),
                                    mp_context=multiprocessing.get_context("spawn"))
    return _POOL
