"""The ``mcts`` bot: information-set Monte Carlo tree search for every seat, Righteous or Evil.

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012) on the real engine:

- **Worlds.** Each iteration samples one world of the deciding seat's information set with
  ``Determinizer`` (``engine/determinize.py``: the same worlds as ``Game.determinize``, the hidden
  places worked out once a decision); that is the bot's only way to hidden cards.
- **One tree, keyed by what the deciding seat knows.** A node is a sequence of moves as the
  observer sees them (:func:`edge_key`): its own moves by card (copies of a card are one move),
  other seats' plays by the card they reveal, their Cost Zone lays and choices by seat alone (the
  card stays hidden), every other move (passes, payments, boosts, rewards) as it is. The same
  node is reached in every world that agrees on those moves, whatever the hidden cards; a move
  that is legal in some worlds only is weighed by how often it was available (UCB with
  availability counts). Each side maximises its own chance: Evil nodes choose for Evil.
- **Long turns.** A duel turn is a dozen decisions and more. The heuristic bot's move is tried
  first at every node and keeps a bonus that fades with visits (progressive bias), and a node
  opens its other moves one at a time as it is visited (progressive widening, ``1.5 * sqrt(n)``
  moves after ``n`` visits), so the budget goes where the moves differ in value, not to the
  twentieth way of laying a card.
- **Rollouts that end.** Below the tree the heuristic plays every seat until ``horizon``
  decisions from the root, then :func:`~.evaluation.win_chance` scores the position: a logistic
  model fitted from thousands of lab games (``python -m christianity_game.bots.fit_eval``;
  Humility, Maturity, Habituals, clocks, Cost and the table's variants are its features).
  ``round_horizon=True`` (off by default; docs/decisions.md, "Play-test variants of the duel",
  the probe of the Righteous search) stops a duel
  rollout instead as the deciding turn's seat starts its next turn (one round on, ``DUEL_CAP``
  decisions at most), so every rollout of a decision is scored at the same point of the round.
- **Reuse.** After a decision the bot keeps the subtree of its move; at its next decision it
  follows the moves made since (read from the game's action history with the same keys) and, when
  the new position is inside that subtree, searches on from it instead of from nothing.
- **The move.** The most visited move at the root; the heuristic's unless another one was tried
  more and did better on average by more than one standard error of the difference (so a small
  budget, or a noisy position, keeps a sound move).
- **Budget**: wall time (``mcts:200ms``, ``mcts:1.5s``; plain ``mcts`` is 200 ms) or a number
  of iterations (``mcts:500it``: the same seed and view then give the same move).
"""

from __future__ import annotations

import math
import time
from typing import Any, Hashable, Mapping

from ..cards.loader import CardSet, starter_set
from ..engine.actions import TABLE_ACTIONS, Action, Choose, LayCostZone, PlayCard
from ..engine.determinize import Determinizer
from ..engine.game import Game
from ..engine.rng import Rng
from .base import Bot, parse_budget_name
from .evaluation import weights, win_chance
from .heuristic import HeuristicBot, rollout

DEFAULT_TIME_MS = 200.0
DEFAULT_HORIZON = 40      # decisions from the root (tree and rollout) before the evaluation scores
UCB_C = 0.25              # exploration, for values in [0, 1]
PRIOR_BONUS = 0.15        # the heuristic's move: a bonus that fades as 1 / (1 + visits)
WIDEN_C = 1.5             # progressive widening: a node tries ceil(WIDEN_C * sqrt(visits)) moves
MIN_WIDTH = 2
MARGIN = 0.002            # another move replaces the heuristic's only when its mean is higher by this
CONFIDENCE = 1.0          # ... and by this many standard errors of the difference
RETURN_S = 0.02           # of a time budget, kept for the way back (a worker's answer to the server)
DISCOUNT = 0.995          # a value moves toward 0.5 by this factor per decision from the root
DUEL_CAP = 150            # duel: the decisions a rollout may take to reach the round's end (a safety cap)
NO_TURN = 1 << 30

def parse_budget(name: str) -> tuple[float | None, int | None]:
    """``mcts``, ``mcts:200ms``, ``mcts:1.5s`` or ``mcts:500it`` -> (time_ms, iterations); a
    ``ValueError`` for anything else (:func:`~.base.parse_budget_name`)."""
    return parse_budget_name("mcts", name, DEFAULT_TIME_MS)


def edge_key(defs: Any, action: Action, observer: int) -> Hashable:
    """A move as ``observer`` sees it (see the module docstring): what a tree edge is keyed by.

    ``defs`` is the card table of the game the move is made in (a world's, or the real game's for
    moves already made: then a key reads only cards the move showed to everyone, or the
    observer's own)."""
    t = type(action)
    if t is PlayCard:
        a: Any = action
        return ("P", a.seat, defs[a.card].id, a.threat, a.to_seat)   # a played card is shown
    if t is LayCostZone:
        b: Any = action
        return ("L", b.seat, defs[b.card].id) if b.seat == observer else ("L", b.seat)
    if t is Choose:
        c: Any = action
        return ("C", c.seat, defs[c.option].id) if c.seat == observer else ("C", c.seat)
    return action


class Node:
    """A node of the tree, and the statistics of the move that leads to it (from the side that made
    it: ``righteous``)."""

    __slots__ = ("children", "order", "prior", "n", "w", "w2", "avail", "visits", "righteous")

    def __init__(self, righteous: bool) -> None:
        self.children: dict[Hashable, Node] = {}
        self.order: list[Hashable] = []      # moves in the order they open (the heuristic's first)
        self.prior: Hashable | None = None   # the heuristic's move here (the first world's)
        self.n = 0          # times the move into this node was played
        self.w = 0.0        # summed value of those, for the side that made the move
        self.w2 = 0.0       # summed squared value (the move's spread, for the final choice)
        self.avail = 0      # times the move was legal when its parent was visited
        self.visits = 0     # times this node decided (its parent count for widening)
        self.righteous = righteous

    def size(self) -> int:
        return 1 + sum(c.size() for c in self.children.values())

    def __repr__(self) -> str:
        mean = self.w / self.n if self.n else 0.0
        return f"<Node n={self.n} mean={mean:.3f} avail={self.avail} children={len(self.children)}>"


class MctsBot(Bot):
    """Information-set MCTS with a fitted evaluation (see the module docstring). Needs the game:
    use ``decide``."""

    name = "mcts"
    thinks = True   # drivers with an event loop run ``decide`` off it

    def __init__(self, seed: int = 0, cards: CardSet | None = None, time_ms: float | None = DEFAULT_TIME_MS,
                 iterations: int | None = None, horizon: int = DEFAULT_HORIZON, reuse: bool = True,
                 confidence: float = CONFIDENCE, round_horizon: bool = False) -> None:
        super().__init__(seed, cards)
        if time_ms is None and iterations is None:
            raise ValueError("an mcts bot needs a time or an iteration budget")
        self.time_ms = time_ms
        self.iterations = iterations
        self.horizon = horizon
        self.reuse = reuse
        self.confidence = confidence
        self.round_horizon = round_horizon   # duel: rollouts stop as the deciding turn's seat plays again
        self._stop_turn = NO_TURN
        self._cap = horizon
        self.policy = HeuristicBot(seed, self.cards)   # the rollouts and the prior
        self.model = weights()
        self.started_at: float | None = None   # set by ``think``: the time budget counts from then
        self._kept: tuple[int, int, Action, Node] | None = None   # (seat, action count, move, its subtree)
        self.last_iterations = 0
        self.last_reused = 0        # iterations the last decision found in the reused subtree
        self.last_root: Node | None = None
        self.last_seconds = 0.0

    def __repr__(self) -> str:
        budget = f"{self.iterations}it" if self.iterations is not None else f"{self.time_ms:g}ms"
        return f"<MctsBot {budget}>"

    def __getstate__(self) -> dict[str, Any]:
        """Pickled for a worker process (the server's ``think``, every decision): the kept subtree
        goes along; the last search's whole tree (kept for reports) does not, nor the starter card
        set and the heuristic policy, which the worker makes again (they cost more to pickle than
        the rest)."""
        state = dict(self.__dict__)
        state["last_root"] = None
        state["policy"] = None   # made again from the cards; its generator is re-seeded every decision
        if self.cards is starter_set():
            state["cards"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self.cards is None:
            self.cards = starter_set()
        if self.policy is None:
            self.policy = HeuristicBot(0, self.cards)

    def carry(self) -> Any:
        return self._kept

    def restore(self, carry: Any) -> None:
        self._kept = carry

    def choose(self, view: Mapping[str, Any], actions: list[Action]) -> Action:
        """Without the game there is nothing to search: the heuristic's choice."""
        return self.policy.choose(view, actions)

    # ------------------------------------------------------------------ the search
    def decide(self, game: Game, seat: int, actions: list[Action]) -> Action:
        started = time.perf_counter()
        self.last_iterations = 0
        self.last_reused = 0
        if len(actions) == 1:
            return actions[0]
        defs = game.defs
        reps: dict[Hashable, Action] = {}
        for a in actions:
            reps.setdefault(edge_key(defs, a, seat), a)
        if len(reps) == 1:
            return actions[0]
        righteous = game.state.seats[seat].side == "righteous"
        policy = self.policy
        policy.rng = Rng(self.rng.next64())
        pick = policy.choose(game.seat_view(seat), actions)
        prior = edge_key(defs, pick, seat)
        root = self._reused_root(game, seat) if self.reuse else None
        if root is None:
            root = Node(not righteous)
        self.last_reused = root.visits
        root.prior = prior
        root.order = [prior] + [k for k in reps if k != prior] + [k for k in root.order if k not in reps]
        budget_s = None if self.time_ms is None else self.time_ms / 1000.0 - RETURN_S
        if budget_s is not None and self.started_at is not None:   # waited in a queue: less time left
            budget_s -= max(0.0, time.time() - self.started_at)
            if budget_s <= 0:   # no time left at all: the heuristic's move, at once
                self.last_seconds = time.perf_counter() - started
                return pick
        deadline = None if budget_s is None else started + budget_s
        limit = self.iterations if self.iterations is not None else 1 << 30
        sampler = Determinizer(game, seat)
        if self.round_horizon and game.state.duel is not None:
            # one round on: every rollout stops as the same turn of the round starts, and is scored there
            self._stop_turn = game.state.turn_no + len(game.state.seats)
            self._cap = max(self.horizon, DUEL_CAP)
        else:
            self._stop_turn, self._cap = NO_TURN, self.horizon
        done = 0
        while done < limit:
            world = sampler.sample(self.rng)
            self._iterate(world, root, seat)
            done += 1
            if deadline is not None and done >= 2 and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        self.last_root = root
        key = self._best(root, prior, reps)
        action = reps[key]
        child = root.children.get(key)
        self._kept = (seat, game.action_count, action, child) if child is not None and self.reuse else None
        self.last_seconds = time.perf_counter() - started
        return action

    def _best(self, root: Node, prior: Hashable, reps: dict[Hashable, Action]) -> Hashable:
        """The most visited move; the heuristic's unless another was tried more and its mean is
        higher by more than MARGIN plus ``self.confidence`` standard errors of the difference."""
        base = root.children.get(prior)
        best, best_n = prior, (base.n if base is not None else 0)
        if base is None or base.n == 0:
            return max((k for k in root.children if k in reps and root.children[k].n), default=prior,
                       key=lambda k: root.children[k].n)
        base_mean = base.w / base.n
        base_var = max(0.0, base.w2 / base.n - base_mean * base_mean) / base.n
        for k, c in root.children.items():
            if k == prior or k not in reps or c.n <= best_n:
                continue
            mean = c.w / c.n
            var = max(0.0, c.w2 / c.n - mean * mean) / c.n
            if mean > base_mean + MARGIN + self.confidence * math.sqrt(var + base_var):
                best, best_n = k, c.n
        return best

    def _iterate(self, world: Game, root: Node, me: int) -> None:
        """One iteration: select and expand in the tree, roll out, evaluate, back up."""
        path: list[Node] = []
        node = root
        decisions = 0
        horizon = self._cap
        stop_turn = self._stop_turn
        policy = self.policy
        expanded = False
        while not expanded:
            pending = world.pending
            if not pending:
                break
            seat, actions = pending[0]
            defs = world.defs
            if len(actions) == 1:
                key = edge_key(defs, actions[0], me)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = Node(world.state.seats[seat].side == "righteous")
                    node.order.append(key)
                child.avail += 1
                world.apply_unchecked(actions[0])
                path.append(child)
                node = child
                continue
            if decisions >= horizon or world.state.turn_no >= stop_turn:
                break
            decisions += 1
            reps: dict[Hashable, Action] = {}
            for a in actions:
                reps.setdefault(edge_key(defs, a, me), a)
            node.visits += 1
            if node.prior is None:
                pick = policy.choose(world.seat_view(seat), actions)
                node.prior = edge_key(defs, pick, me)
                node.order = [node.prior] + [k for k in reps if k != node.prior]
            else:
                known = node.children
                order = node.order
                for k in reps:
                    if k not in known and k not in order:
                        order.append(k)
            width = max(MIN_WIDTH, math.ceil(WIDEN_C * math.sqrt(node.visits)))
            allowed: list[Hashable] = []
            for k in node.order:
                if k in reps:
                    allowed.append(k)
                    if len(allowed) >= width:
                        break
            children = node.children
            for k in allowed:
                c = children.get(k)
                if c is not None:
                    c.avail += 1
            chosen: Hashable | None = None
            for k in allowed:
                if k not in children:
                    chosen = k
                    children[k] = Node(world.state.seats[seat].side == "righteous")
                    children[k].avail = 1
                    expanded = True
                    break
            if chosen is None:
                best = -1.0
                prior = node.prior
                for k in allowed:
                    c = children[k]
                    score = c.w / c.n + UCB_C * math.sqrt(math.log(max(1, c.avail)) / c.n)
                    if k == prior:
                        score += PRIOR_BONUS / (1 + c.n)
                    if score > best:
                        best, chosen = score, k
            assert chosen is not None
            world.apply_unchecked(reps[chosen])
            node = children[chosen]
            path.append(node)
        # rollout: the heuristic for every seat, to the horizon
        decisions = rollout(world, policy, decisions, horizon, None if stop_turn == NO_TURN else stop_turn)
        value = win_chance(world, self.model)
        # a win sooner is worth more than one later (and a loss later less bad): every value moves
        # toward 0.5 with the decisions it took; positions scored at the horizon all move alike
        value = 0.5 + (value - 0.5) * DISCOUNT ** decisions
        for n in path:
            v = value if n.righteous else 1.0 - value
            n.n += 1
            n.w += v
            n.w2 += v * v

    # ------------------------------------------------------------------ reuse
    def _reused_root(self, game: Game, seat: int) -> Node | None:
        """The node of the kept subtree that the moves since the last decision lead to, if any."""
        kept, self._kept = self._kept, None
        if kept is None:
            return None
        kept_seat, count, action, node = kept
        since = game.action_count - count
        if kept_seat != seat or since < 1 or since > 400:
            return None
        moves: list[Action] = []
        link: Any = game._history
        for _ in range(since):
            if link is None:
                return None
            moves.append(link[0])
            link = link[1]
        moves.reverse()
        if moves[0] != action:
            return None
        defs = game.defs
        for a in moves[1:]:
            if isinstance(a, TABLE_ACTIONS):
                return None
            nxt = node.children.get(edge_key(defs, a, seat))
            if nxt is None:
                return None
            node = nxt
        if not node.children:
            return None
        return node


def make_mcts_bot(name: str, seed: int = 0, cards: CardSet | None = None) -> MctsBot:
    """An mcts bot from a level name such as ``mcts``, ``mcts:200ms`` or ``mcts:500it``."""
    time_ms, iterations = parse_budget(name)
    return MctsBot(seed, cards, time_ms=time_ms, iterations=iterations)
