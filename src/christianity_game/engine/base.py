"""The table every rule module works on: the game's pieces and the questions every rule asks.

``GameBase`` holds what a game is made of (its mode, seats and settings, the immutable card table
shared by clones, the mutable :class:`~.state.State`) and the small questions all rules ask (whose
turn, which seats are Righteous, untapped Cost Zone cards). The rules are modules of functions over
it, one module per part of the rules, each calling only the modules below it:

    base -> costs (Z) -> abilities (A) -> badges (S) -> effects (G-5) -> stack (P, CO-5..7)
         -> legal (the move generator) -> coop (CO-4, CO-W) -> flow (CO-1..3, turns and
         decisions) -> table (G-7, G-8, S-8); duel_rewards, duel_clocks (D-W) and duel (D) are
         the duel's; modes and game (the public Game) tie them together.

``Mode`` declares the hooks through which the rules ask their mode, and through which a lower
module reaches a rule carried out higher up (``game.mode.do_play(game, a)``): every call is typed
and no module imports another's private names. Which module carries out each rule: docs/design.md,
"Where each rule lives".

Rules: G-1..G-4 (seats, sides, kinds), S-1 and S-7 (badge limits; the numbers are in
:mod:`.numbers`).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Iterable, Self

from ..cards.loader import CardSet
from ..cards.model import CardDef
from .events import Event
from .numbers import ABILITIES, MAX_MATURITY, REVEALING, SHOWN_TO_TABLE
from .settings import Settings
from .state import PHASE_OF_STEP, State

if TYPE_CHECKING:
    from .actions import Action, PlayCard
    from .state import StackItem, Threat


#: what ``GameBase._untapped`` answers while the move generator is asked to ignore every price
#: (``legal.options_at_any_cost``): more than any card, boost, ability or resistance costs
UNLIMITED_COST = 1_000

# CO-4 (DECISION): threats the Evil deck plays at the active seat, by that seat's Maturity.
EVIL_PLAYS_BY_MATURITY = (1, 2, 4, 5)


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended: ``winner`` is "righteous", "evil" or, for a duel ended by agreement on a
    tied stalemate score (G-8, rules 4), "draw" (nobody won); ``reason`` says why."""

    winner: str
    reason: str
    round: int

    def __repr__(self) -> str:
        return f"<Result {self.winner}: {self.reason} (round {self.round})>"

    def __reduce__(self) -> tuple[type[Result], tuple[str, str, int]]:
        # pickled by its fields, which works compiled too (native.py: frozen and made by __new__)
        return Result, (self.winner, self.reason, self.round)


class GameBase:
    """What a game is made of, and the questions every rule asks. See the module docstring."""

    __slots__ = ("mode", "lineup", "seed", "settings", "cards", "defs", "owner", "state", "log",
                 "_order", "deck_lists", "extra_deck_texts", "_events", "_legal_cache", "_position", "rules",
                 "_pinned", "_keep_log", "event_counts", "_history", "action_count", "_moves", "reveals",
                 "end_offer", "end_accepted", "_righteous", "_evil", "_mates", "_rotations", "_views", "_card_plays", "_instants",
                 "_clock_inputs", "_unlimited_cost")

    mode: Mode
    lineup: str
    seed: int
    settings: Settings
    cards: CardSet
    defs: list[CardDef]
    owner: list[int]
    state: State
    log: list[Event]
    _order: list[int]
    deck_lists: list[tuple[str, list[str]]]
    extra_deck_texts: tuple[tuple[str, str], ...]
    #: the rules version this game is played under (engine/versions.py): a record replays under its own
    rules: int
    # Seat facts fixed by the line-up, worked out once (``_learn_seats``) because every rule asks
    # them: the Righteous and Evil seats, each seat's Righteous teammates, and the seats in turn
    # order starting from each seat.
    _righteous: tuple[int, ...]
    _evil: tuple[int, ...]
    _mates: tuple[tuple[int, ...], ...]
    _rotations: tuple[tuple[int, ...], ...]

    def __init__(self) -> None:  # use Game.new / Game.from_position / Game.from_record
        self._events: list[Event] = []
        # (state_id, seat, its legal actions, whether that seat is the one the game waits for)
        self._legal_cache: tuple[int, int, list[Action], bool] | None = None
        self._position: dict[str, Any] | None = None
        self._pinned: dict[str, Any] | None = None
        #: False: no Event objects are made or kept (``Game.new(log=False)``): bench, lab, search
        self._keep_log = True
        #: how many events of each kind the game has emitted (kept with or without the log)
        self.event_counts: dict[str, int] = {}
        # the actions applied so far, newest first, as shared (action, older) cells: a clone shares
        # them, so copying a game costs the same at its first action and its thousandth
        self._history: tuple[Any, Any] | None = None
        #: the number of actions applied so far
        self.action_count = 0
        # the actions in effect (undone ones taken out), newest first, as shared cells
        # (action, older, turn_no, generator state before, reveals before): what undo reads
        self._moves: tuple[Any, ...] | None = None
        #: events so far that showed someone a card that was hidden (draws, reveals, flips...)
        self.reveals = 0
        #: duel: the side that offered to end on the stalemate score, while the offer stands
        self.end_offer: str | None = None
        #: duel, rules 4 (G-8): the seats of the answering side that accepted the standing offer so
        #: far, in the order they answered; the game ends once every seat of that side has
        self.end_accepted: tuple[int, ...] = ()
        # weak references to the lazy seat views made of this moment (seatview.SeatView): each one
        # still alive builds its snapshot before the game changes (``_freeze_views``)
        self._views: list[Any] = []
        # what the move generator knows of each card it has listed, which never changes while the
        # card table does not: per seat, uid -> (kind, Cost needed, its PlayCard actions), and
        # (uid, threat) -> the same for a Resistance card aimed at a threat. Shared by clones; made
        # per seat by ``_learn_seats``; a new card table (``_set_card_table``) starts it again.
        self._card_plays: list[dict[Any, tuple[str, int, tuple[Action, ...]]]] = []
        # the uids of the Instants in the card table, when first asked (``_instant_cards``)
        self._instants: frozenset[int] | None = None
        # duel: the changes the win clocks last looked at (``duel._check_clocks``); -1: look again
        self._clock_inputs = -1
        # True only while ``legal.why_illegal`` asks the move generator what it would list if
        # every Cost Zone could pay anything (``legal.options_at_any_cost``)
        self._unlimited_cost = False

    def _set_card_table(self, defs: list[CardDef]) -> None:
        """Give this game its own card table (determinize re-deals which card each hidden uid is):
        what the move generator knew of the old table's cards is forgotten."""
        self.defs = defs
        self._card_plays = [{} for _ in self.state.seats]
        self._instants = None

    def _instant_cards(self) -> frozenset[int]:
        """The uids of every Instant in the card table (P-6: what may answer in a window)."""
        if self._instants is None:
            self._instants = frozenset(u for u, card in enumerate(self.defs) if card.kind == "instant")
        return self._instants

    @property
    def actions(self) -> list["Action"]:
        """Every action applied so far, oldest first (a new list each time: the record's actions)."""
        out: list[Action] = []
        node = self._history
        while node is not None:
            out.append(node[0])
            node = node[1]
        out.reverse()
        return out

    @actions.setter
    def actions(self, actions: list["Action"]) -> None:
        self._history = None
        self._moves = None
        self.action_count = 0
        for a in actions:
            self._record_action(a)

    def _watch_view(self, view: Any) -> None:
        """Remember a lazy seat view of this moment (weakly: a dropped view costs nothing more)."""
        self._views.append(weakref.ref(view))

    def _freeze_views(self) -> None:
        """The game is about to change: every seat view of it still alive takes its snapshot now."""
        views = self._views
        self._views = []
        for ref in views:
            view = ref()
            if view is not None:
                view._freeze()

    def _record_action(self, action: "Action", in_effect: bool = True) -> None:
        """Add an action to the record; ``in_effect``: also to the moves an undo may take back
        (not for an undo itself)."""
        self._history = (action, self._history)
        self.action_count += 1
        if in_effect:
            st = self.state
            self._moves = (action, self._moves, st.turn_no, st.rng.state, self.reveals)

    @property
    def round(self) -> int:
        return self.state.round

    @property
    def turn_seat(self) -> int:
        return self._order[self.state.turn_index]

    @property
    def turn_order(self) -> tuple[int, ...]:
        """The seats in the order they take their turns (CO-1, D-TURN-1), the first seat first."""
        return tuple(self._order)

    @property
    def phase(self) -> str:
        return PHASE_OF_STEP[self.state.step]

    @property
    def state_id(self) -> int:
        return self.state.state_id

    @property
    def result(self) -> Result | None:
        return self.state.result  # type: ignore[no-any-return]

    def is_over(self) -> bool:
        return self.state.result is not None

    @property
    def score(self) -> tuple[int, int]:
        """D-SCORE: (Righteous, Evil). DECISION: the piles count every card that entered them."""
        st = self.state
        righteous = sum(s.maturity * 5 for s in st.seats if s.side == "righteous") + st.resisted_total
        evil = st.failed_total + self.evil_habituals_in_play() * 5
        return righteous, evil

    def score_parts(self) -> dict[str, int]:
        """The numbers :attr:`score` is made of (D-SCORE), for a board that lets a player add them up:
        ``maturity`` (the Righteous seats' Maturity summed, counted x5), ``resisted`` and ``failed``
        (every card that ever entered the pile: a refill takes cards out of the piles, never out of
        the score) and ``evil_habituals`` (in play now, counted x5)."""
        st = self.state
        return {"maturity": sum(s.maturity for s in st.seats if s.side == "righteous"),
                "resisted": st.resisted_total, "failed": st.failed_total,
                "evil_habituals": self.evil_habituals_in_play()}

    def evil_habituals_in_play(self) -> int:
        st = self.state
        n = len(st.field)
        for s in st.seats:
            n += len(s.held)
        return n

    def card(self, uid: int) -> CardDef:
        return self.defs[uid]

    def righteous_seats(self) -> list[int]:
        return list(self._righteous)

    def _learn_seats(self) -> None:
        """Work out the seat facts the line-up fixes (sides never change during a game)."""
        seats = self.state.seats
        n = len(seats)
        self._righteous = tuple(i for i, s in enumerate(seats) if s.side == "righteous")
        self._evil = tuple(i for i, s in enumerate(seats) if s.side == "evil")
        self._mates = tuple(tuple(i for i in self._righteous if i != seat) for seat in range(n))
        self._rotations = tuple(tuple((start + k) % n for k in range(n)) for start in range(n))
        self._card_plays = [{} for _ in range(n)]

    def is_solo(self) -> bool:
        """P-7: a game with one Righteous seat pays the Target-Change fee."""
        return len(self._righteous) == 1

    def _teammates(self, seat: int) -> tuple[int, ...]:
        return self._mates[seat]

    def _passive_cards(self, seat: int) -> list[int]:
        sd = self.state.seats[seat]
        return sd.in_play + sd.held

    def _passive_total(self, seat: int, name: str) -> int:
        """One passive number (a field of ``Passive``: resist_discount, intake, draw...) summed over
        the seat's cards in play and the Habituals holding it."""
        sd = self.state.seats[seat]
        if not sd.in_play and not sd.held:
            return 0
        defs = self.defs
        total = 0
        for u in sd.in_play:
            total += getattr(defs[u].passive, name)
        for u in sd.held:
            total += getattr(defs[u].passive, name)
        return total

    def _untapped(self, seat: int) -> int:
        if self._unlimited_cost:
            return UNLIMITED_COST
        st = self.state
        cost_zone = st.seats[seat].cost_zone
        tapped = st.tapped
        if not tapped:
            return len(cost_zone)
        return len(cost_zone) - len(tapped.intersection(cost_zone))

    def _turn_order_from(self, start: int) -> tuple[int, ...]:
        return self._rotations[start]

    def _all_l3(self) -> bool:
        seats = self.state.seats
        for i in self._righteous:
            if seats[i].maturity < MAX_MATURITY:
                return False
        return True

    def _emit(self, kind: str, seat: int | None, uid: int | None = None, private_to: int | None = None,
              data: dict[str, Any] | None = None) -> None:
        """Record that something happened (an :class:`Event`); without a log only its kind is counted."""
        counts = self.event_counts
        counts[kind] = counts.get(kind, 0) + 1
        if kind in REVEALING:
            self.reveals += 1
        elif kind in SHOWN_TO_TABLE and self.rules >= 4 and len(self.state.seats) > 1:
            self.reveals += 1   # G-7 (rules 4): a card from a hand or a Cost Zone shown to the other seats
        if self._keep_log:
            self._events.append(Event(self.state.state_id, kind, seat,
                                      self.defs[uid].id if uid is not None and uid >= 0 else None, uid, private_to, data))


    # ------------------------------------------------------------------ the Game's own
    # What Game (game.py) carries out and the rules modules ask of it: declared here so that
    # they are typed on GameBase, which every rule function takes.

    def _finish(self, winner: str, reason: str) -> None:
        st = self.state
        st.result = Result(winner, reason, min(st.round, self.settings.max_rounds) if self.mode.has_round_limit else st.round)
        st.step = "over"
        st.window = []
        st.phase_passes = []
        self._emit("game_over", None, data={"winner": winner, "reason": reason})

    def _deal(self) -> None:
        """Shuffle and deal the opening Cost Zones and hands (``game.Game._deal``)."""
        raise NotImplementedError

    def legal_actions(self, seat: int) -> list["Action"]:
        """Every action ``seat`` may take now (``game.Game.legal_actions``)."""
        raise NotImplementedError

    def pinned_cards(self) -> dict[str, Any]:
        """The card definitions this game uses, for its record (``game.Game.pinned_cards``)."""
        raise NotImplementedError

    @classmethod
    def _blank(cls, mode: str, lineup: str, seed: int, settings: Settings | None, card_set: CardSet | None,
               extra_deck_texts: Iterable[tuple[str, str]], rules: int | None = None) -> Self:
        """An empty game of a mode and line-up, before the deal (``game.Game._blank``)."""
        raise NotImplementedError

    def clone(self, log: bool = True) -> Self:
        """A fast independent copy (``game.Game.clone``)."""
        raise NotImplementedError

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``game.Game.view``)."""
        raise NotImplementedError

    def _rebuilt(self, actions: list["Action"]) -> Self:
        """This game started again and played with ``actions`` (``game.Game._rebuilt``)."""
        raise NotImplementedError


class Mode:
    """A game mode: the answers that differ between co-op, solo and duel (like a python-chess
    variant). Every hook takes the game first. This class answers what needs no rules module the
    co-op way; a hook that carries out a shared rule (``do``, ``do_play``, ``main_plays``...) is
    answered by ``modes.CoopMode`` with the function of that rule's module, and ``duel_mode.DuelMode``
    answers every hook the duel changes (the registry is ``modes.MODES``)."""

    name: ClassVar[str] = "base"
    #: phases in a turn, as steps (CO-2, D-TURN-2)
    steps: ClassVar[tuple[str, ...]] = ("draw", "lay", "after_lay", "main", "end")
    has_round_limit: ClassVar[bool] = False
    shared_levels: ClassVar[bool] = True   # A-2 (co-op) vs A-3 (duel: per seat)
    can_buy_abilities: ClassVar[bool] = True
    #: the deck an Evil seat plays by default (the co-op Evil deck's id)
    evil_seat_deck: ClassVar[str] = "evil"

    def check_lineup(self, lineup: str) -> None:
        if not lineup or any(ch not in "ER" for ch in lineup):
            raise ValueError(f"lineup must be letters E and R, one a seat, not {lineup!r}")

    def turn_order(self, lineup: str, settings: Settings | None = None) -> list[int]:
        """The seats in the order they take their turns in a round (a seat may appear more than once)."""
        return [i for i, ch in enumerate(lineup) if ch == "R"]

    def righteous_count(self, lineup: str) -> int:
        return lineup.count("R")

    def draw_count(self, game: GameBase, seat: int) -> int:
        """CO-3: Maturity + 2."""
        return game.state.seats[seat].maturity + 2

    def intake_cap(self, game: GameBase, seat: int) -> int:
        """Z-3: Righteous 4."""
        return 4

    def opening_cost_zone(self, game: GameBase, seat: int) -> int:
        """Z-4: 3 (+ extra opponents in a duel)."""
        return 3

    def evil_plays(self, game: GameBase, seat: int) -> int:
        return EVIL_PLAYS_BY_MATURITY[game.state.seats[seat].maturity]

    def abilities_available(self) -> tuple[str, ...]:
        return ABILITIES

    # ------------------------------------------------------------------ set-up
    def deal(self, game: GameBase) -> None:
        """The opening deal (Z-4)."""
        game._deal()

    def after_position(self, game: GameBase) -> None:
        """The mode's own set-up after a position is built."""

    # ------------------------------------------------------------------ decisions
    def early_decider(self, game: GameBase) -> int | None:
        """A decision of the mode's that comes before stack windows (duel rewards)."""
        return None

    def early_legal(self, game: GameBase, seat: int) -> list["Action"] | None:
        return None

    def late_decider(self, game: GameBase) -> int | None:
        """A decision of the mode's after stack windows and boosts (duel interrupts, answers)."""
        return None

    def late_legal(self, game: GameBase, seat: int) -> list["Action"] | None:
        return None

    def answerable(self, game: GameBase) -> list["Threat"]:
        """The pending threats that may be resisted now (co-op: all of them, in any order)."""
        return game.state.threats

    def benevolence_ok(self, game: GameBase, seat: int) -> bool:
        return True

    def main_plays(self, game: GameBase, seat: int, free: int, playable: list[int]) -> list["Action"]:
        raise NotImplementedError   # modes.CoopMode

    def held_resists(self, game: GameBase, seat: int, free: int) -> list["Action"]:
        raise NotImplementedError   # modes.CoopMode

    def ability_uses(self, game: GameBase, seat: int) -> list["Action"]:
        raise NotImplementedError   # modes.CoopMode

    def speed_plays(self, game: GameBase, seat: int, free: int, playable: list[int]) -> list["Action"]:
        raise NotImplementedError   # modes.CoopMode

    def why_illegal(self, game: GameBase, a: "Action") -> tuple[str, str]:
        raise NotImplementedError   # modes.CoopMode

    # ------------------------------------------------------------------ doing
    def do(self, game: GameBase, a: "Action") -> None:
        raise NotImplementedError   # modes.CoopMode

    def late_pass(self, game: GameBase, seat: int) -> bool:
        """A pass in a mode's own decision (duel). True when it was one."""
        return False

    def do_play(self, game: GameBase, a: "PlayCard") -> None:
        raise NotImplementedError   # modes.CoopMode

    def do_choose(self, game: GameBase, seat: int, option: int) -> None:
        raise NotImplementedError   # modes.CoopMode

    def on_card_played(self, game: GameBase, seat: int, uid: int) -> None:
        """A card (uid >= 0) or a boost (-1) was played."""

    def on_left_cost_zone(self, game: GameBase, seat: int, uid: int) -> None:
        """A card left a Cost Zone."""

    def mode_flow(self, game: GameBase) -> str | None:
        """The mode's own automatic steps with an empty stack: "wait" (a decision waits), "again"
        (something changed, look again) or None (carry on with the turn)."""
        return None

    def resist_threat(self, game: GameBase, threat: "Threat", seat: int, how: str) -> None:
        raise NotImplementedError   # modes.CoopMode

    def break_held(self, game: GameBase, uid: int, by_seat: int, how: str) -> None:
        raise NotImplementedError   # modes.CoopMode

    def on_temptation_failed(self, game: GameBase, item: "StackItem") -> None:
        """A Temptation failed."""

    def on_habitual_took_hold(self, game: GameBase, item: "StackItem") -> None:
        """An Evil Habitual took hold."""

    # ------------------------------------------------------------------ levels and turns
    def may_level(self, game: GameBase, seat: int) -> bool:
        """S-6: co-op has no per-turn limit."""
        return True

    def after_level(self, game: GameBase, seat: int) -> None:
        raise NotImplementedError   # modes.CoopMode

    def on_turn_start(self, game: GameBase, seat: int) -> None:
        """The mode's counters as a turn starts."""

    def phase_order(self, game: GameBase) -> list[int]:
        raise NotImplementedError   # modes.CoopMode

    def judge_at_turn_start(self, game: GameBase, seat: int) -> None:
        """The wins and losses judged as each turn starts."""
        raise NotImplementedError   # modes.CoopMode
