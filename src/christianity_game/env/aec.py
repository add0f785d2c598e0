"""The game as a PettingZoo ``AECEnv``: co-op, solo and duel, every seat an agent or a bot.

Agents are named ``seat_<n>``. The agent to act is the seat the game waits for; seats given to
bots are played inside :meth:`ChristianityEnv.step` until an agent's decision comes up. Rewards
are +1 / -1 for each agent's side at the end of the game and 0 otherwise; a duel that reaches its
turn cap is truncated (reward 0; ``info`` still carries the stalemate score and its verdict).
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from ..bots import Bot, make_bot
from ..bots.match import play
from ..engine.actions import Action
from ..engine.game import Game
from ..engine.settings import Settings
from .actions import ACTION_COUNT, MAX_SEATS, encode_legal
from .observation import observation_of, observation_space

#: The duel's turn cap when the settings give none (duels have no round limit, D-W-R).
DEFAULT_DUEL_MAX_TURNS = 200
TURN_CAP_REASON = "turn cap"
#: what ``render_mode`` may be (PettingZoo's metadata lists them too)
RENDER_MODES = ("ansi",)
#: The mask of a seat that has no decision now.
_NO_ACTIONS = np.zeros(ACTION_COUNT, np.int8)
_NO_ACTIONS.flags.writeable = False


def agent_name(seat: int) -> str:
    return f"seat_{seat}"


class ChristianityEnv(AECEnv):  # type: ignore[misc]
    """The Christianity Strategy Card Game as an agent-environment-cycle environment.

    * ``mode``: ``coop``, ``solo`` or ``duel``; ``lineup``: one letter a seat (``R``/``E``).
    * ``settings``: table settings (:class:`~christianity_game.Settings`); in a duel without a
      ``max_turns`` the env sets :data:`DEFAULT_DUEL_MAX_TURNS`.
    * ``bots``: seats played by the project's bots, ``{seat: "heuristic" | "random" | Bot}``;
      every other seat is an agent. A bot named by level is re-made at each reset, seeded from
      the game's seed, so ``reset(seed=...)`` reproduces the whole game.
    * ``checked``: apply actions with the engine's validating ``Game.apply`` (default) or its
      unchecked fast path (the index was already checked against the mask).
    """

    metadata = {"name": "christianity_game_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(self, mode: str = "coop", lineup: str = "RR", settings: Settings | None = None,
                 bots: Mapping[int, str | Bot] | None = None, checked: bool = True,
                 render_mode: str | None = None) -> None:
        super().__init__()
        settings = settings or Settings()
        if mode == "duel" and settings.max_turns == 0:
            settings = settings.updated({"max_turns": DEFAULT_DUEL_MAX_TURNS})
        Game.new(mode=mode, lineup=lineup, seed=0, settings=settings, log=False)   # refuse a bad table now
        if len(lineup) > MAX_SEATS:
            raise ValueError(f"the environment takes at most {MAX_SEATS} seats, not {len(lineup)}")
        self.bots_spec: dict[int, str | Bot] = dict(bots or {})
        for seat in self.bots_spec:
            if not 0 <= seat < len(lineup):
                raise ValueError(f"there is no seat {seat} for a bot in line-up {lineup}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {list(RENDER_MODES)}, not {render_mode!r}")
        self.mode = mode
        self.lineup = lineup.upper()
        self.settings = settings
        self.checked = checked
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in range(len(lineup)) if s not in self.bots_spec]
        if not self.possible_agents:
            raise ValueError("every seat is a bot: leave at least one seat to an agent")
        self.seat_of = {agent_name(s): s for s in range(len(lineup))}
        self._names = [agent_name(s) for s in range(len(lineup))]
        obs_space = observation_space()
        act_space = spaces.Discrete(ACTION_COUNT)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._seeder = np.random.default_rng()
        self.game: Game | None = None
        self.seed_used: int | None = None
        self._bots: dict[int, Bot] = {}
        self._table: tuple[int, int, list[int], list[Action], np.ndarray] | None = None
        self._pending: tuple[int, list[tuple[int, list[Action]]]] | None = None
        self._rewarded = False   # some reward may be non-zero (the game ended)

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ life cycle
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` fixes the deal, every shuffle and every bot: the same seed and the
        same agent actions give the same game."""
        if seed is not None:
            self._seeder = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._seeder.integers(0, 2**31 - 1))
        self.seed_used = game_seed
        self.game = Game.new(mode=self.mode, lineup=self.lineup, seed=game_seed, settings=self.settings, log=False)
        self._bots = {seat: (make_bot(b, seed=game_seed * 7919 + seat) if isinstance(b, str) else b)
                      for seat, b in self.bots_spec.items()}
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._table = None
        self._pending = None
        self._rewarded = False
        self._play_bots()
        self._after_move()

    def close(self) -> None:
        self.game = None

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        g = self.game
        r, e = g.score
        lines = [f"{g.mode.name} {g.lineup} round {g.round} seat {g.turn_seat} {g.phase}  score R{r} E{e}"]
        for seat, s in enumerate(g.view(None)["seats"]):
            lines.append(f"  seat {seat} {s['side']}: H{s['humility']} L{s['maturity']} hand {s['hand_size']} "
                         f"cost zone {len(s['cost_zone'])} held {len(s['held'])}")
        if g.result is not None:
            lines.append(f"  over: {g.result.winner} ({g.result.reason})")
        return "\n".join(lines)

    # ------------------------------------------------------------------ decisions
    def _decision(self) -> tuple[int, int, list[int], list[Action], np.ndarray]:
        """(state_id, seat, indexes, legal actions, mask) of the decision the game waits for."""
        game = self.game
        assert game is not None
        state_id = game.state.state_id
        if self._table is not None and self._table[0] == state_id:
            return self._table
        seen = self._pending
        pending = seen[1] if seen is not None and seen[0] == state_id else game.pending
        if not pending:
            self._table = (state_id, -1, [], [], _NO_ACTIONS)
            return self._table
        seat, actions = pending[0]
        codes = encode_legal(game, seat, actions)
        assert len(set(codes)) == len(codes), f"two legal actions share an index: {actions!r} -> {codes!r}"
        mask = bytearray(ACTION_COUNT)
        for i in codes:
            mask[i] = 1
        # read-only (a view of bytes): handed out as it is to every observe() of this state
        self._table = (state_id, seat, codes, actions, np.frombuffer(bytes(mask), np.int8))
        return self._table

    def action_mask(self, agent: str) -> np.ndarray:
        """The mask of legal indexes for ``agent`` (all zeros when it is not its decision); a
        read-only array, the same one for every call in one state."""
        _, seat, _, _, mask = self._decision()
        if seat == self.seat_of[agent]:
            return mask
        return _NO_ACTIONS

    def legal_action(self, index: int) -> Action:
        """The engine action behind ``index`` for the agent to act (``ValueError`` if masked out)."""
        _, _, codes, actions, _ = self._decision()
        try:
            return actions[codes.index(int(index))]
        except ValueError:
            raise ValueError(f"action {index} is not legal for {self.agent_selection} now") from None

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self.game
        assert game is not None
        _, decider, _, _, mask = self._decision()
        seat = self.seat_of[agent]
        return observation_of(game, seat, mask if seat == decider else _NO_ACTIONS, decider)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is still playing: give an action index, not None")
        game = self.game
        assert game is not None
        engine_action = self.legal_action(int(action))
        self._cumulative_rewards[agent] = 0.0
        if self.checked:
            game.apply(engine_action)
        else:
            game.apply_unchecked(engine_action)
        if self._bots:
            self._play_bots()
        self._after_move()
        if self._rewarded:   # rewards are 0 until the game ends
            self._accumulate_rewards()

    # ------------------------------------------------------------------ inside a step
    def _play_bots(self) -> None:
        """Let bot seats take their decisions until an agent's comes up or the game ends (the
        match driver, uncapped: a game ends by its own rules)."""
        assert self.game is not None
        play(self.game, self._bots, max_actions=None)

    def _after_move(self) -> None:
        game = self.game
        assert game is not None
        if self._rewarded:
            for a in self.agents:
                self.rewards[a] = 0.0
            self._rewarded = False
        result = game.result
        if result is None:
            pending = game.pending
            self._pending = (game.state.state_id, pending)   # for _decision
            if pending:
                self.agent_selection = self._names[pending[0][0]]
                return
            raise RuntimeError("the game waits for nobody and is not over")   # the engine contract
        capped = result.reason.startswith(TURN_CAP_REASON)
        info = {"winner": result.winner, "reason": result.reason, "score": tuple(game.score),
                "round": game.round, "turn_cap": capped}
        self._rewarded = True
        for a in self.agents:
            side = "righteous" if self.lineup[self.seat_of[a]] == "R" else "evil"
            if capped:
                self.truncations[a] = True
            else:
                self.terminations[a] = True
                self.rewards[a] = 0.0 if result.winner == "draw" else 1.0 if side == result.winner else -1.0
            self.infos[a] = dict(info)
        if getattr(self, "agent_selection", None) not in self.agents:
            self.agent_selection = self.agents[0]


def env(**kwargs: Any) -> ChristianityEnv:
    """A new :class:`ChristianityEnv` (PettingZoo's ``env()`` convention)."""
    return ChristianityEnv(**kwargs)


raw_env = env
