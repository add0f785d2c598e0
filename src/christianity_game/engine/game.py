"""The game: the public face of the rules engine (docs/design.md, "The engine's contract").

``Game`` is the one public class: ``new`` / ``from_position`` / ``from_record`` start a game;
``pending`` and ``legal_actions`` say who may act and how; ``apply`` validates an action, changes
the state, runs every automatic step up to the next decision and returns the events; ``view`` is
what a seat may see; ``clone``, ``to_record`` and ``to_position`` copy it. All waiting is data;
nothing here prints, blocks or does I/O.

The rules themselves are modules of functions over the game, one module per part of the rules
(:mod:`.base` has their order; docs/design.md, "Where each rule lives", the map); ``Game`` calls
them by name. Rules here: G-6
(seeded, reproducible games; records), Z-4 and the opening hand (DECISION) at the deal.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Self

from ..cards.loader import CardSet, load_texts, starter_set
from . import versions
from .actions import TABLE_ACTIONS, Action, IllegalAction, action_from_json
from .base import GameBase, Result
from .numbers import ABILITIES, ABILITY_PRICE, HIGH_TIER, MAX_HUMILITY, MAX_MATURITY
from .events import Event
from .modes import find_mode
from .position import build_from_position
from .position_dump import to_position
from .record import RecordError, check_record, make_record, pinned_cards, record_cards, record_seed
from .settings import Settings
from .determinize import determinize
from .rng import Rng, game_rng
from .seatview import SeatView
from .state import Seat, State
from .view import make_view
from .badges import draw
from .flow import advance
from .legal import decider, legal_for, options
from .table import apply_table, end_waiting, finish_action, manual_actions, undo_refusal

__all__ = ["ABILITIES", "ABILITY_PRICE", "HIGH_TIER", "MAX_HUMILITY", "MAX_MATURITY", "Game", "Result"]

DEFAULT_RIGHTEOUS_DECKS = ("shepherd", "watchman", "servant")
DEFAULT_EVIL_DECK = "evil"


def check_start(mode: object, lineup: object, seed: object) -> None:
    """A ValueError naming the field when a game's mode, lineup or seed has the wrong type. Asked
    before the values reach typed code: compiled (the native engine), typed code refuses a wrong
    type with a TypeError that names no field, and takes True for 1."""
    if not isinstance(mode, str):
        raise ValueError(f"mode must be a name (coop, solo, duel), not {mode!r}")
    if not isinstance(lineup, str):
        raise ValueError(f"lineup must be text such as 'RR' or 'ER', not {lineup!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be a whole number, not {seed!r}")


def _listed(action: object, actions: list[Action]) -> bool:
    """``action`` is one of the very objects in ``actions`` (identity, not equality)."""
    for a in actions:
        if a is action:
            return True
    return False


class Game(GameBase):
    """One game of the Christianity Strategy Card Game (docs/design.md, "The engine's contract")."""

    __slots__ = ()

    def __repr__(self) -> str:
        return (f"<Game {self.mode.name} {self.lineup} seed={self.seed} round {self.state.round} "
                f"seat {self.turn_seat} {self.phase} state_id={self.state.state_id}>")

    @classmethod
    def new(cls, mode: str = "coop", lineup: str = "RR", seed: int = 0, settings: Settings | None = None,
            decks: Iterable[str] | None = None, card_set: CardSet | None = None,
            extra_deck_texts: Iterable[tuple[str, str]] = (), rules: int | None = None,
            log: bool = True) -> "Game":
        """A new game. ``decks``: one deck id per seat (Righteous seats, then the Evil deck in co-op);
        by default the starter decks in turn. ``extra_deck_texts``: user deck files (name, TOML).
        ``rules``: the rules version to play (default: this engine's; replay passes a record's).
        ``log=False``: keep no event log and make no Event objects (``apply`` then returns an empty
        list; ``event_counts`` still counts each kind): what bots' searches, the lab and the bench
        use. Records and replay are built from the actions and do not change."""
        game = cls._blank(mode, lineup, seed, settings, card_set, extra_deck_texts, rules)
        game._keep_log = bool(log)
        game.deck_lists = game._choose_decks(list(decks) if decks is not None else None)
        game.mode.deal(game)
        advance(game)
        if game._keep_log:
            game.log.extend(game._events)   # the opening events (first turn, phases) belong to the log
        game._events = []
        return game

    @classmethod
    def _blank(cls, mode: str, lineup: str, seed: int, settings: Settings | None, card_set: CardSet | None,
               extra_deck_texts: Iterable[tuple[str, str]], rules: int | None = None) -> Self:
        check_start(mode, lineup, seed)
        mode_obj = find_mode(mode)
        game = cls()
        game.mode = mode_obj
        lineup = lineup.upper()
        game.mode.check_lineup(lineup)
        game.lineup = lineup
        game.seed = seed
        if rules is None:
            rules = versions.RULES_VERSION
        why = versions.rules_support(rules)
        if why is not None:
            raise ValueError(why)
        game.rules = rules
        game.settings = settings or Settings()
        if mode_obj.name != "duel" and game.settings.variants:   # variants.py: the duel's play-test variants
            names = ", ".join(sorted(game.settings.variants))
            raise ValueError(f"play-test variants are for duels; a {mode_obj.name} game cannot take {names}")
        game.extra_deck_texts = tuple(extra_deck_texts)
        base = card_set or starter_set()
        game.cards = load_texts(game.extra_deck_texts, base) if game.extra_deck_texts else base
        game.defs = []
        game.owner = []
        game.log = []
        game.state = State(seed)
        game.state.rng = game_rng(seed, rules)   # G-6; from rules 2 a generator no player can invert
        game._order = game.mode.turn_order(lineup, game.settings)
        game.state.seats = [Seat("righteous" if ch == "R" else "evil") for ch in lineup]
        game._learn_seats()
        return game

    def _choose_decks(self, decks: list[str] | None) -> list[tuple[str, list[str]]]:
        seats = len(self.lineup)
        evil_needed = self.mode.name in ("coop", "solo")
        want = seats + (1 if evil_needed else 0)
        if decks is None:
            decks = []
            r = 0
            for ch in self.lineup:
                if ch == "R":
                    decks.append(DEFAULT_RIGHTEOUS_DECKS[r % len(DEFAULT_RIGHTEOUS_DECKS)])
                    r += 1
                else:
                    decks.append(self.mode.evil_seat_deck)
            if evil_needed:
                decks.append(DEFAULT_EVIL_DECK)
        if len(decks) != want:
            raise ValueError(f"need {want} deck ids (one a seat{', then the Evil deck' if evil_needed else ''}), "
                             f"got {len(decks)}")
        out = []
        for i, deck_id in enumerate(decks):
            deck = self.cards.decks.get(deck_id)
            if deck is None:
                raise ValueError(f"unknown deck {deck_id!r}; known: {', '.join(sorted(self.cards.decks))}")
            side = ("righteous" if self.lineup[i] == "R" else "evil") if i < seats else "evil"
            if deck.side != side:
                raise ValueError(f"deck {deck_id!r} is a {deck.side} deck; seat {i} needs a {side} deck")
            out.append((deck_id, list(deck.cards)))
        return out

    def _new_cards(self, card_ids: list[str], owner: int) -> list[int]:
        """Give each card a uid (the next free ones, in this order), owned by seat ``owner`` (-1: the
        co-op Evil deck); the uids."""
        known = self.cards.cards
        for card_id in card_ids:
            if card_id not in known:
                raise ValueError(f"unknown card {card_id!r}")
        start = len(self.defs)
        self._instants = None   # the card table grows
        self.defs.extend(map(known.__getitem__, card_ids))
        self.owner.extend([owner] * len(card_ids))
        return list(range(start, len(self.defs)))

    def _deal(self) -> None:
        """Opening: shuffle, opening Cost Zone (Z-4), opening hand (DECISION)."""
        st = self.state
        for seat_no, (deck_id, ids) in enumerate(self.deck_lists):
            # uids are handed out in a random order, then the deck is shuffled again: a uid tells
            # nothing about which card it is (the deck lists are public) nor where it lies
            ids = list(ids)
            st.rng.shuffle(ids)
            uids = self._new_cards(ids, seat_no if seat_no < len(self.lineup) else -1)
            st.rng.shuffle(uids)
            if seat_no < len(self.lineup):
                seat = st.seats[seat_no]
                seat.deck_id = deck_id
                seat.deck = uids
                for _ in range(self.mode.opening_cost_zone(self, seat_no)):
                    if seat.deck:
                        seat.cost_zone.append(seat.deck.pop())
                draw(self, seat_no, self.settings.opening_hand, quiet=True)
            else:
                st.evil_deck = uids
        st.step = "turn_start"

    @property
    def pending(self) -> list[tuple[int, list[Action]]]:
        """Who may act now, each with the full list of legal actions."""
        st = self.state
        if st.result is not None:
            return []
        cache = self._legal_cache
        if cache is not None and cache[0] == st.state_id and cache[3]:
            return [(cache[1], cache[2])]   # the decision the flow opened
        seat = decider(self)
        if seat is None:
            return []
        if cache is not None and cache[0] == st.state_id and cache[1] == seat:
            actions = cache[2]
        else:
            actions = options(self, seat)   # the seat is the decider: no need to ask again
        self._legal_cache = (st.state_id, seat, actions, True)
        return [(seat, actions)]

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it is not that seat's decision)."""
        cache = self._legal_cache
        if cache is not None and cache[0] == self.state.state_id and cache[1] == seat:
            return cache[2]
        actions = legal_for(self, seat)
        self._legal_cache = (self.state.state_id, seat, actions, False)
        return actions

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and every automatic step after it; return the events.

        Raises :class:`IllegalAction` (a ``ValueError``) and leaves the state unchanged when the
        action is not legal now.
        """
        st = self.state
        cache = self._legal_cache
        # an action taken from the legal list just listed is accepted by identity, before any
        # deeper check (the move generator hands out one shared object per distinct action)
        if cache is None or cache[0] != st.state_id or not _listed(action, cache[2]):
            if isinstance(action, dict):
                action = action_from_json(action)
            if not isinstance(action, Action):
                raise IllegalAction("malformed", f"not an action: {action!r}")
            action.check_types()
            if isinstance(action, TABLE_ACTIONS):
                return apply_table(self, action)
            self._check(action)
        return self._carry_out(action)

    def apply_unchecked(self, action: Action) -> None:
        """The fast path for bots and replays: no legality check (the action must be legal)."""
        if isinstance(action, TABLE_ACTIONS):
            apply_table(self, action)
            return
        self._carry_out(action)

    def manual_actions(self, seat: int) -> list[Action]:
        """S-8: the manual adjustments ``seat`` may make now (never in ``legal_actions``)."""
        return manual_actions(self, seat)

    def undo_refusal(self, seat: int) -> tuple[str, str] | None:
        """Why ``seat`` may not undo now (a reason code and words), or None when it may (G-7)."""
        return undo_refusal(self, seat)

    def end_waiting(self) -> list[int]:
        """G-8: the seats whose answer a standing offer to end still waits for."""
        return end_waiting(self)

    def _carry_out(self, action: Action) -> list[Event]:
        """Take a legal rules action: live seat views take their snapshot, the action is recorded
        (a new state id) and done, then every automatic step after it runs; its events."""
        if self._views:
            self._freeze_views()
        self._events = []
        self.state.state_id += 1
        self._record_action(action)
        self.mode.do(self, action)
        advance(self)
        return finish_action(self)

    def _check(self, action: Action) -> None:
        st = self.state
        if st.result is not None:
            res = st.result
            raise IllegalAction("game_over", f"the game is over: {'a draw' if res.winner == 'draw' else res.winner + ' won'} "
                                             f"({res.reason})")
        if not isinstance(action.seat, int) or not 0 <= action.seat < len(st.seats):
            raise IllegalAction("no_such_seat", f"there is no seat {action.seat!r}")
        waiting_for = decider(self)
        if action.seat != waiting_for:
            raise IllegalAction("not_your_decision",
                                f"seat {action.seat} may not act now; the game waits for seat {waiting_for}")
        legal = self.legal_actions(action.seat)
        if action in legal:
            return
        raise IllegalAction(*self.mode.why_illegal(self, action))

    def clone(self, log: bool = True) -> Self:
        """A fast independent copy (shares the immutable card table). ``log=False``: the copy keeps
        no event log (search worlds): the log is not copied and its events are not kept."""
        cls = type(self)
        g = cls.__new__(cls)
        g.mode = self.mode
        g.lineup = self.lineup
        g.seed = self.seed
        g.settings = self.settings
        g.cards = self.cards
        g.defs = self.defs
        g._card_plays = self._card_plays   # facts of the same card table
        g._instants = self._instants
        g._unlimited_cost = False
        g._clock_inputs = -1   # a copy looks at its win clocks again (the look changes nothing then)
        g.owner = self.owner
        g.deck_lists = self.deck_lists
        g.extra_deck_texts = self.extra_deck_texts
        g._order = self._order
        g._righteous = self._righteous
        g._evil = self._evil
        g._mates = self._mates
        g._rotations = self._rotations
        g.state = self.state.clone()
        g._history = self._history   # shared, never changed in place
        g._moves = self._moves
        g.reveals = self.reveals
        g.end_offer = self.end_offer
        g.end_accepted = self.end_accepted
        g.action_count = self.action_count
        g._keep_log = self._keep_log and log
        g.event_counts = dict(self.event_counts)
        g.log = self.log[:] if g._keep_log else []
        g._events = []
        g._legal_cache = None
        g._views = []
        g._position = self._position
        g.rules = self.rules
        g._pinned = self._pinned
        return g

    def _rebuilt(self, actions: list[Action]) -> "Game":
        """This game started again (same seed, settings, cards and rules, no log) and played with
        ``actions``: how an undo finds the state before the undone action."""
        if self._position is not None:
            again = type(self).from_position(self._position, mode=self.mode.name, lineup=self.lineup, seed=self.seed,
                                             settings=self.settings, card_set=self.cards, rules=self.rules)
        else:
            again = type(self).new(mode=self.mode.name, lineup=self.lineup, seed=self.seed, settings=self.settings,
                                   decks=[deck_id for deck_id, _ in self.deck_lists], card_set=self.cards,
                                   rules=self.rules, log=False)
        again._keep_log = False
        for a in actions:
            again.apply_unchecked(a)
        return again

    def pinned_cards(self) -> dict[str, Any]:
        """The definitions of every card and deck this game uses, with their SHA-256 (for records)."""
        if self._pinned is None:   # the card table never changes after the deal: work it out once
            self._pinned = pinned_cards(self)
        return self._pinned

    def to_record(self) -> dict[str, Any]:
        """Settings + seed + decks + actions: replaying it reproduces the game (G-6)."""
        return make_record(self)

    @classmethod
    def from_record(cls, record: Mapping[str, Any], upto: int | None = None) -> "Game":
        """The game a record describes, every action (or the first ``upto``) re-applied and checked.

        The record's head is checked first (:func:`.record.check_record`): a record under rules this
        engine does not play is refused before anything is replayed (``UnsupportedRules``)."""
        game = cls.start_from_record(record)
        actions = record["actions"]
        if not isinstance(actions, list):
            raise RecordError("record actions must be a list")
        for n, data in enumerate(actions[:upto] if upto is not None else actions):
            try:
                game.apply(action_from_json(data))
            except ValueError as exc:
                raise RecordError(f"action {n + 1} ({data!r}) does not apply: {exc}") from None
        return game

    @classmethod
    def start_from_record(cls, record: Mapping[str, Any]) -> "Game":
        """The game a record describes, before any of its actions (its head checked first)."""
        rules = check_record(record)
        seed = record_seed(record["seed"])   # an integer, or the decimal string the server writes
        cards, deck_files = record_cards(record)
        try:
            check_start(record["mode"], record["lineup"], seed)
            settings = Settings.from_dict(record["settings"])
            if record.get("position") is not None:
                game = cls.from_position(record["position"], mode=record["mode"], lineup=record["lineup"],
                                         seed=seed, settings=settings, card_set=cards, rules=rules)
            else:
                game = cls.new(mode=record["mode"], lineup=record["lineup"], seed=seed, settings=settings,
                               decks=record["decks"], card_set=cards, rules=rules)
        except (TypeError, ValueError) as exc:
            raise RecordError(f"record cannot start its game: {exc}") from None
        game.extra_deck_texts = deck_files   # already in the card set; kept for the record
        return game

    @classmethod
    def from_position(cls, position: dict[str, Any], mode: str = "coop", lineup: str | None = None,
                      seed: int = 0, settings: Settings | None = None, card_set: CardSet | None = None,
                      rules: int | None = None) -> "Game":
        """A game started from a described position (scenario tests, duel scenarios)."""
        return build_from_position(cls, position, mode, lineup, seed, settings, card_set, rules)

    def to_position(self) -> dict[str, Any]:
        """This game's state as a position: ``from_position`` of it (same mode, lineup, seed and
        settings) gives a game with the same views and legal actions. Holds hidden information
        (hands, deck order, the generator's state): an engine and test tool, not for clients."""
        return to_position(self)

    def determinize(self, seat: int, rng: Rng) -> "Game":
        """A copy re-dealt consistently with ``seat``'s view: every card it cannot see dealt again at
        random among the places it cannot see (engine/determinize.py). What search bots play."""
        return determinize(self, seat, rng)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator). Never another seat's hidden cards."""
        return make_view(self, seat)

    def seat_view(self, seat: int | None) -> SeatView:
        """``view(seat)`` as a read-only snapshot object for in-process bots: each key built on
        first read, the same content; its ``to_json()`` equals ``view(seat)`` (engine/seatview.py)."""
        return SeatView(self, seat)

    def card_zone_map(self) -> dict[int, str]:
        """Where each card is (for conservation checks): uid -> zone name."""
        st = self.state
        where: dict[int, str] = {}

        def put(uids: Iterable[int], zone: str) -> None:
            for u in uids:
                if u in where:
                    raise AssertionError(f"card {u} is in both {where[u]} and {zone}")
                where[u] = zone

        for i, sd in enumerate(st.seats):
            put(sd.hand, f"{i}.hand")
            put(sd.deck, f"{i}.deck")
            put(sd.cost_zone, f"{i}.cost_zone")
            put(sd.in_play, f"{i}.in_play")
            put(sd.held, f"{i}.held")
            put(sd.discard, f"{i}.discard")
        put(st.evil_deck, "evil_deck")
        put(st.resisted, "resisted")
        put(st.failed, "failed")
        put(st.field, "field")
        put((t.uid for t in st.threats), "threats")
        put((i.uid for i in st.stack if i.kind != "boost"), "stack")
        self._extra_zones(put)
        return where

    def _extra_zones(self, put: Any) -> None:
        """Hook: a mode's extra zones (duel Evil seats' own piles)."""

