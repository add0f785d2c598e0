"""The game: public API (DESIGN.md), flow, legality and the effect interpreter.

``Game`` holds an immutable card table (shared by clones) and a mutable :class:`State`. All
waiting is data: ``pending`` lists who may act and how; ``apply`` validates an action against
``legal_actions``, changes the state, runs every automatic step up to the next decision, and
returns the events. Nothing here prints, blocks or does I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable

from ..cards.loader import CardSet, load_texts, starter_set
from ..cards.model import CardDef, Effect, Passive
from .actions import (
    AdjustBadge, Action, BuyAbility, Choose, ChooseAbility, IllegalAction, LayCostZone, Pass, PlayCard,
    Resist, TakeBoost, UseAbility, action_from_json,
)
from .events import Event
from .modes import Mode, mode_by_name
from .settings import Settings
from . import versions
from .state import PHASE_OF_STEP, Choice, Ctx, Offer, Seat, StackItem, State, Threat

# Actions are values: the lists of legal actions reuse one object per distinct action instead of
# building thousands of frozen dataclasses per game (a constructor call costs about 1 us).
_Pass = lru_cache(maxsize=None)(Pass)
_LayCostZone = lru_cache(maxsize=None)(LayCostZone)
_PlayCard = lru_cache(maxsize=None)(PlayCard)
_Resist = lru_cache(maxsize=None)(Resist)
_Choose = lru_cache(maxsize=None)(Choose)
_TakeBoost = lru_cache(maxsize=None)(TakeBoost)

# the eight Maturity Abilities. A-2 (DECISION): high tier costs 11, low tier 7.
ABILITIES: tuple[str, ...] = (
    "benevolence", "brotherly_love", "restoration", "deliverance", "vibrancy", "cost_zone_power", "speed",
    "foresight",
)
HIGH_TIER = frozenset({"deliverance", "restoration", "benevolence", "foresight"})
ABILITY_PRICE = {a: (11 if a in HIGH_TIER else 7) for a in ABILITIES}
ONCE_PER_LEVEL = ("restoration", "deliverance")
MAX_HUMILITY = 10   # S-7
MAX_MATURITY = 3    # S-1

DEFAULT_RIGHTEOUS_DECKS = ("shepherd", "watchman", "servant")
DEFAULT_EVIL_DECK = "evil"


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended: ``winner`` is "righteous" or "evil"; ``reason`` says why."""

    winner: str
    reason: str
    round: int

    def __repr__(self) -> str:
        return f"<Result {self.winner}: {self.reason} (round {self.round})>"


class Game:
    """One game of the Christianity Strategy Card Game. See DESIGN.md for the contract."""

    __slots__ = ("mode", "lineup", "seed", "settings", "cards", "defs", "owner", "state", "log", "actions",
                 "_order", "deck_lists", "extra_deck_texts", "_events", "_legal_cache", "_position", "rules",
                 "_pinned")

    mode: Mode
    lineup: str
    seed: int
    settings: Settings
    cards: CardSet
    defs: list[CardDef]
    owner: list[int]
    state: State
    log: list[Event]
    actions: list[Action]
    _order: list[int]
    deck_lists: list[tuple[str, list[str]]]
    extra_deck_texts: tuple[tuple[str, str], ...]
    #: the rules version this game is played under (engine/versions.py): a record replays under its own
    rules: int

    # ------------------------------------------------------------------ construction
    def __init__(self) -> None:  # use Game.new / Game.from_position / Game.from_record
        self._events: list[Event] = []
        self._legal_cache: tuple[int, int, list[Action]] | None = None
        self._position: dict[str, Any] | None = None
        self._pinned: dict[str, Any] | None = None

    def __repr__(self) -> str:
        return (f"<Game {self.mode.name} {self.lineup} seed={self.seed} round {self.state.round} "
                f"seat {self.turn_seat} {self.phase} state_id={self.state.state_id}>")

    @classmethod
    def new(cls, mode: str = "coop", lineup: str = "RR", seed: int = 0, settings: Settings | None = None,
            decks: Iterable[str] | None = None, card_set: CardSet | None = None,
            extra_deck_texts: Iterable[tuple[str, str]] = (), rules: int | None = None) -> "Game":
        """A new game. ``decks``: one deck id per seat (Righteous seats, then the Evil deck in co-op);
        by default the starter decks in turn. ``extra_deck_texts``: user deck files (name, TOML).
        ``rules``: the rules version to play (default: this engine's; replay passes a record's)."""
        game = cls._blank(mode, lineup, seed, settings, card_set, extra_deck_texts, rules)
        game.deck_lists = game._choose_decks(list(decks) if decks is not None else None)
        game._deal()
        game._advance()
        game.log.extend(game._events)   # the opening events (first turn, phases) belong to the log
        game._events = []
        return game

    @classmethod
    def _blank(cls, mode: str, lineup: str, seed: int, settings: Settings | None, card_set: CardSet | None,
               extra_deck_texts: Iterable[tuple[str, str]], rules: int | None = None) -> "Game":
        if not isinstance(mode, str):
            raise ValueError(f"mode must be a name (coop, solo, duel), not {mode!r}")
        if not isinstance(lineup, str):
            raise ValueError(f"lineup must be text such as 'RR' or 'ER', not {lineup!r}")
        mode_obj = mode_by_name(mode)
        game = mode_obj.make_game()
        game.mode = mode_obj
        lineup = lineup.upper()
        game.mode.check_lineup(lineup)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"seed must be a whole number, not {seed!r}")
        game.lineup = lineup
        game.seed = seed
        if rules is None:
            rules = versions.RULES_VERSION
        why = versions.rules_support(rules)
        if why is not None:
            raise ValueError(why)
        game.rules = rules
        game.settings = settings or Settings()
        game.extra_deck_texts = tuple(extra_deck_texts)
        base = card_set or starter_set()
        game.cards = load_texts(game.extra_deck_texts, base) if game.extra_deck_texts else base
        game.defs = []
        game.owner = []
        game.actions = []
        game.log = []
        game.state = State(seed)
        game._order = game.mode.turn_order(lineup)
        game.state.seats = [Seat("righteous" if ch == "R" else "evil") for ch in lineup]
        return game

    def _choose_decks(self, decks: list[str] | None) -> list[tuple[str, list[str]]]:
        seats = len(self.lineup)
        evil_needed = self.mode.name in ("coop", "solo")
        want = seats + (1 if evil_needed else 0)
        if decks is None:
            decks = []
            r = e = 0
            for ch in self.lineup:
                if ch == "R":
                    decks.append(DEFAULT_RIGHTEOUS_DECKS[r % len(DEFAULT_RIGHTEOUS_DECKS)])
                    r += 1
                else:
                    decks.append(self._default_evil_seat_deck(e))
                    e += 1
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

    def _default_evil_seat_deck(self, index: int) -> str:
        return DEFAULT_EVIL_DECK

    def _new_card(self, card_id: str, owner: int) -> int:
        if card_id not in self.cards.cards:
            raise ValueError(f"unknown card {card_id!r}")
        self.defs.append(self.cards.cards[card_id])
        self.owner.append(owner)
        return len(self.defs) - 1

    def _deal(self) -> None:
        """Opening: shuffle, opening Cost Zone (Z-4), opening hand (DECISION)."""
        st = self.state
        for seat_no, (deck_id, ids) in enumerate(self.deck_lists):
            # uids are handed out in a random order, then the deck is shuffled again: a uid tells
            # nothing about which card it is (the deck lists are public) nor where it lies
            ids = list(ids)
            st.rng.shuffle(ids)
            uids = [self._new_card(cid, seat_no if seat_no < len(self.lineup) else -1) for cid in ids]
            st.rng.shuffle(uids)
            if seat_no < len(self.lineup):
                seat = st.seats[seat_no]
                seat.deck_id = deck_id
                seat.deck = uids
                for _ in range(self.mode.opening_cost_zone(self, seat_no)):
                    if seat.deck:
                        seat.cost_zone.append(seat.deck.pop())
                self._draw(seat_no, self.settings.opening_hand, quiet=True)
            else:
                st.evil_deck = uids
        st.step = "turn_start"

    # ------------------------------------------------------------------ public properties
    @property
    def round(self) -> int:
        return self.state.round

    @property
    def turn_seat(self) -> int:
        return self._order[self.state.turn_index]

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

    def evil_habituals_in_play(self) -> int:
        return len(self.state.field) + sum(len(s.held) for s in self.state.seats)

    def card(self, uid: int) -> CardDef:
        return self.defs[uid]

    def righteous_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.state.seats) if s.side == "righteous"]

    def is_solo(self) -> bool:
        """P-7: a game with one Righteous seat pays the Target-Change fee."""
        return len(self.righteous_seats()) == 1

    # ------------------------------------------------------------------ decisions
    @property
    def pending(self) -> list[tuple[int, list[Action]]]:
        """Who may act now, each with the full list of legal actions."""
        if self.state.result is not None:
            return []
        seat = self._decider()
        if seat is None:
            return []
        return [(seat, self.legal_actions(seat))]

    def _decider(self) -> int | None:
        """The one seat whose decision the game waits for."""
        st = self.state
        if st.result is not None:
            return None
        if st.choice is not None:
            return st.choice.seat
        if st.ability_picks:
            return st.ability_chooser
        early = self._early_decider()
        if early is not None:
            return early
        if st.window:
            return st.window[0]
        offer = self._active_offer()
        if offer is not None:
            return offer.controller
        late = self._late_decider()
        if late is not None:
            return late
        if st.step in ("lay", "after_lay"):
            return self.turn_seat
        if st.phase_passes:
            return st.phase_passes[0]
        return None

    def _early_decider(self) -> int | None:
        """Hook: a mode's decisions that come before stack windows (duel rewards)."""
        return None

    def _late_decider(self) -> int | None:
        """Hook: a mode's decisions after stack windows and boosts (duel interrupts, answers)."""
        return None

    def _early_legal(self, seat: int) -> list[Action] | None:
        return None

    def _late_legal(self, seat: int, free: int) -> list[Action] | None:
        return None

    def _active_offer(self) -> Offer | None:
        st = self.state
        if st.offers and st.offers[-1].depth == len(st.stack) and not st.effects:
            return st.offers[-1]
        return None

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it is not that seat's decision)."""
        cache = self._legal_cache
        if cache is not None and cache[0] == self.state.state_id and cache[1] == seat:
            return cache[2]
        actions = self._legal(seat)
        self._legal_cache = (self.state.state_id, seat, actions)
        return actions

    def _legal(self, seat: int) -> list[Action]:
        st = self.state
        if st.result is not None or seat != self._decider():
            return []
        if st.choice is not None:
            c = st.choice
            acts: list[Action] = [_Choose(seat, o) for o in c.options]
            if c.minimum <= 0:
                acts.append(_Pass(seat))
            return acts
        if st.ability_picks:
            return [ChooseAbility(seat, a) for a in self._free_abilities()]
        early = self._early_legal(seat)
        if early is not None:
            return early
        free = self._untapped(seat)
        if st.window:
            acts = [_Pass(seat)]
            acts.extend(self._instant_plays(seat, free))
            return acts
        offer = self._active_offer()
        if offer is not None:
            return self._boost_actions(offer)
        late = self._late_legal(seat, free)
        if late is not None:
            return late
        step = st.step
        if step == "lay":
            sd = st.seats[seat]
            acts = [_Pass(seat)]
            if sd.laid < self._intake(seat):
                acts.extend(_LayCostZone(seat, u) for u in sd.hand)
            return acts
        acts = [_Pass(seat)]
        if step == "after_lay":
            if self.settings.mat_abilities and self.mode.can_buy_abilities:
                for a in self.mode.abilities_available():
                    if a not in st.abilities and ABILITY_PRICE[a] <= free:
                        acts.append(BuyAbility(seat, a))
            acts.extend(self._speed_plays(seat, free))
            acts.extend(self._ability_uses(seat))
            return acts
        if step == "resistance":
            acts.extend(self._resist_actions(seat, free))
            if seat == self.turn_seat:
                acts.extend(self._resistance_phase_plays(seat, free))
                acts.extend(self._speed_plays(seat, free))
                acts.extend(self._ability_uses(seat))
            return acts
        if step == "main":
            acts.extend(self._main_plays(seat, free))
            acts.extend(self._held_resists(seat, free))
            acts.extend(self._ability_uses(seat))
            return acts
        return acts

    # --- legal-action helpers
    def _untapped(self, seat: int) -> int:
        tapped = self.state.tapped
        return sum(1 for u in self.state.seats[seat].cost_zone if u not in tapped)

    def _intake(self, seat: int) -> int:
        bonus = sum(self.defs[u].passive.intake for u in self._passive_cards(seat))
        return max(0, self.mode.intake_cap(self, seat) + bonus)

    def _passive_cards(self, seat: int) -> list[int]:
        sd = self.state.seats[seat]
        return sd.in_play + sd.held

    def _playable_cards(self, seat: int) -> list[int]:
        """Cards the seat could play: its hand and its face-up Cost Zone cards (Z-6)."""
        sd = self.state.seats[seat]
        face_up = self.state.face_up
        if not face_up:
            return sd.hand
        return sd.hand + [u for u in sd.cost_zone if u in face_up]

    def _teammates(self, seat: int) -> list[int]:
        return [i for i in self.righteous_seats() if i != seat]

    def _play_variants(self, seat: int, uid: int, free: int, threat: int | None = None) -> list[Action]:
        """The PlayCard actions for one card: one per teammate when it aims at one (P-7 in solo)."""
        card = self.defs[uid]
        if card.aims_at_mate:
            mates = self._teammates(seat)
            if not mates:
                if card.cost + self.settings.solo_fee <= free:
                    return [_PlayCard(seat, uid, threat, seat)]
                return []
            if card.cost <= free:
                return [_PlayCard(seat, uid, threat, m) for m in mates]
            return []
        if card.cost <= free:
            return [_PlayCard(seat, uid, threat)]
        return []

    def _instant_plays(self, seat: int, free: int) -> list[Action]:
        out: list[Action] = []
        for u in self._playable_cards(seat):
            if self.defs[u].kind == "instant":
                out.extend(self._play_variants(seat, u, free))
        return out

    def _can_respond(self, seat: int) -> bool:
        free = -1
        for u in self._playable_cards(seat):
            card = self.defs[u]
            if card.kind == "instant":
                if free < 0:
                    free = self._untapped(seat)
                fee = self.settings.solo_fee if (card.aims_at_mate and not self._teammates(seat)) else 0
                if card.cost + fee <= free:
                    return True
        return False

    def _speed_plays(self, seat: int, free: int) -> list[Action]:
        st = self.state
        sd = st.seats[seat]
        if "speed" not in st.abilities or not self.settings.mat_abilities or sd.speed_used or seat != self.turn_seat:
            return []
        out: list[Action] = []
        for u in self._playable_cards(seat):
            if self.defs[u].kind in ("maturity", "righteous_habitual"):
                out.extend(self._play_variants(seat, u, free))
        return out

    def _main_plays(self, seat: int, free: int) -> list[Action]:
        out: list[Action] = []
        sd = self.state.seats[seat]
        for u in self._playable_cards(seat):
            kind = self.defs[u].kind
            if kind == "resistance":
                for h in sd.held:   # CO-7 (DECISION): a Resistance card may break a Habitual holding you
                    if self._card_resists(u, h, self._held_resistance(seat, h)):
                        out.extend(self._play_variants(seat, u, free, h))
            elif kind in ("maturity", "action", "righteous_habitual", "instant"):
                out.extend(self._play_variants(seat, u, free))
        return out

    def _resistance_phase_plays(self, seat: int, free: int) -> list[Action]:
        out: list[Action] = []
        for u in self._playable_cards(seat):
            kind = self.defs[u].kind
            if kind == "resistance":
                out.extend(self._play_variants(seat, u, free))   # CO-5: with nothing to resist
                for t in self.state.threats:
                    if t.target == seat and self._card_resists(u, t.uid, t.resistance):
                        out.extend(self._play_variants(seat, u, free, t.uid))
            elif kind == "instant":
                out.extend(self._play_variants(seat, u, free))
        return out

    def _card_resists(self, card_uid: int, threat_uid: int, resistance: int) -> bool:
        spec = self.defs[card_uid].resists
        if spec is None:
            return False
        if self.defs[threat_uid].kind not in spec.kinds:
            return False
        return spec.max is None or resistance <= spec.max

    def _discount(self, seat: int) -> int:
        return sum(self.defs[u].passive.resist_discount for u in self._passive_cards(seat))

    def _remaining(self, t: Threat) -> int:
        return max(0, t.resistance - self._discount(t.target) - t.paid)

    def _may_help(self, seat: int, target: int) -> bool:
        """Benevolence / Double Resistance (A-1): help resist a threat aimed at another seat."""
        if seat == target:
            return True
        st = self.state
        return (self.settings.mat_abilities and "benevolence" in st.abilities
                and st.seats[seat].side == "righteous" and self._benevolence_ok(seat))

    def _benevolence_ok(self, seat: int) -> bool:
        return True

    def _answerable(self) -> list[Threat]:
        """The pending threats that may be resisted now (co-op: all of them, in any order)."""
        return self.state.threats

    def _resist_actions(self, seat: int, free: int) -> list[Action]:
        out: list[Action] = []
        for t in self._answerable():
            if not self._may_help(seat, t.target):
                continue
            rem = self._remaining(t)
            if rem == 0:
                if seat == t.target:
                    out.append(_Resist(seat, t.uid, 0))
                continue
            for n in range(1, min(free, rem) + 1):
                out.append(_Resist(seat, t.uid, n))
        return out

    def _held_resistance(self, seat: int, uid: int) -> int:
        card = self.defs[uid]
        base = card.resistance if card.resistance is not None else self._x_value(card, seat)
        return max(0, base - self._discount(seat))

    def _held_resists(self, seat: int, free: int) -> list[Action]:
        """CO-7 (DECISION): on your Main phase, pay a holding Habitual's full resistance to break it."""
        out: list[Action] = []
        for h in self.state.seats[seat].held:
            cost = self._held_resistance(seat, h)
            if cost <= free:
                out.append(_Resist(seat, h, cost))
        return out

    def _ability_uses(self, seat: int) -> list[Action]:
        st = self.state
        if not self.settings.mat_abilities or seat != self.turn_seat:
            return []
        out: list[Action] = []
        if "deliverance" in st.charged and self.evil_habituals_in_play():
            out.append(UseAbility(seat, "deliverance"))
        if "restoration" in st.charged and any(st.seats[i].discard for i in self.righteous_seats()):
            out.append(UseAbility(seat, "restoration"))
        if "brotherly_love" in st.abilities and st.seats[seat].love_to is None:
            mates = self._teammates(seat) or [seat]
            out.extend(UseAbility(seat, "brotherly_love", m) for m in mates)
        return out

    def _free_abilities(self) -> list[str]:
        return [a for a in self.mode.abilities_available() if a not in self.state.abilities]

    def _boost_actions(self, offer: Offer) -> list[Action]:
        card = self.defs[offer.uid]
        seat = offer.controller
        out: list[Action] = [_Pass(seat)]
        for i, b in enumerate(card.boosts):
            if b.fast != offer.fast or i in offer.taken:
                continue
            needs_mate = b.needs_mate
            for payer in self._payers(seat, b.payer):
                fee = self.settings.solo_fee if self.is_solo() and (b.payer == "teammate" or needs_mate) else 0
                if b.cost + fee > self._untapped(payer):
                    continue
                if needs_mate:
                    for m in (self._teammates(seat) or [seat]):
                        out.append(_TakeBoost(seat, i, payer, m))
                else:
                    out.append(_TakeBoost(seat, i, payer))
        return out

    def _payers(self, seat: int, glyph: str) -> list[int]:
        """P-3: who may pay a boost with this glyph."""
        if glyph == "you":
            return [seat]
        if glyph == "teammate":
            return self._teammates(seat) or [seat]   # P-7: in solo you pay, with the fee
        return self.righteous_seats()

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and every automatic step after it; return the events.

        Raises :class:`IllegalAction` (a ``ValueError``) and leaves the state unchanged when the
        action is not legal now.
        """
        if isinstance(action, dict):
            action = action_from_json(action)
        if not isinstance(action, Action):
            raise IllegalAction("malformed", f"not an action: {action!r}")
        action.check_types()
        if isinstance(action, AdjustBadge):
            return self._apply_manual(action)
        self._check(action)
        self._events = []
        st = self.state
        st.state_id += 1
        self.actions.append(action)
        self._do(action)
        self._advance()
        events = self._events
        self.log.extend(events)
        self._events = []
        return events

    def apply_unchecked(self, action: Action) -> None:
        """The fast path for bots and replays: no legality check (the action must be legal)."""
        if isinstance(action, AdjustBadge):
            self._apply_manual(action)
            return
        self._events = []
        self.state.state_id += 1
        self.actions.append(action)
        self._do(action)
        self._advance()
        self.log.extend(self._events)
        self._events = []

    def _check(self, action: Action) -> None:
        st = self.state
        if st.result is not None:
            raise IllegalAction("game_over", f"the game is over: {st.result.winner} won ({st.result.reason})")
        if not isinstance(action.seat, int) or not 0 <= action.seat < len(st.seats):
            raise IllegalAction("no_such_seat", f"there is no seat {action.seat!r}")
        decider = self._decider()
        if action.seat != decider:
            raise IllegalAction("not_your_decision",
                                f"seat {action.seat} may not act now; the game waits for seat {decider}")
        legal = self.legal_actions(action.seat)
        if action in legal:
            return
        raise IllegalAction(*self._why_illegal(action))

    def _why_illegal(self, a: Action) -> tuple[str, str]:
        """A specific reason for a refused action (the seat is the decider)."""
        st = self.state
        sd = st.seats[a.seat]
        if st.choice is not None and not isinstance(a, (Choose, Pass)):
            return "choice_open", f"seat {a.seat} must first finish choosing ({st.choice.purpose})"
        if isinstance(a, Choose):
            if st.choice is None:
                return "no_choice", "there is nothing to choose now"
            return "not_an_option", f"{a.option} is not one of the options"
        if isinstance(a, Pass):
            if st.choice is not None:
                return "must_choose", f"pick {st.choice.minimum} more before passing"
            if st.ability_picks:
                return "must_choose", "choose the team's free Maturity Ability first"
        if isinstance(a, ChooseAbility):
            if not st.ability_picks:
                return "no_choice", "no free ability is waiting to be chosen"
            return "unknown_ability", f"{a.ability!r} is not an ability the team can still choose"
        if st.ability_picks:
            return "must_choose", "choose the team's free Maturity Ability first"
        if isinstance(a, (PlayCard, LayCostZone)):
            uid = a.card
            if not isinstance(uid, int) or uid < 0 or uid >= len(self.defs):
                return "no_such_card", f"there is no card {uid!r}"
            in_cz_face_up = uid in sd.cost_zone and uid in st.face_up
            if uid not in sd.hand and not (isinstance(a, PlayCard) and in_cz_face_up):
                return "not_in_hand", f"card {uid} is not in seat {a.seat}'s hand"
            if isinstance(a, LayCostZone):
                if st.step != "lay":
                    return "wrong_phase", "cards go into the Cost Zone only in the Cost Zone phase"
                return "intake_full", f"the Cost Zone takes at most {self._intake(a.seat)} cards this turn"
            card = self.defs[uid]
            if st.step == "lay":
                return "cost_zone_being_laid", "nothing is played while a Cost Zone is being laid (Z-5)"
            if st.window and card.kind != "instant":
                return "wrong_timing", "only an Instant may be played in response"
            fee = self.settings.solo_fee if (card.aims_at_mate and not self._teammates(a.seat)) else 0
            if card.cost + fee > self._untapped(a.seat):
                return "cannot_afford", f"{card.name} costs C{card.cost + fee}; seat {a.seat} has {self._untapped(a.seat)} untapped"
            if card.kind == "resistance" and st.step == "main" and a.threat is None:
                return "wrong_timing", "in the Main phase a Resistance card needs an Evil Habitual holding you"
            if card.aims_at_mate and a.to_seat is None:
                return "needs_target", f"{card.name} is aimed at a teammate: say which (to_seat)"
            if a.threat is not None and card.kind == "resistance":
                return "cannot_resist", f"{card.name} cannot resist card {a.threat}"
            return "wrong_timing", f"{card.name} ({card.kind}) cannot be played now"
        if isinstance(a, Resist):
            threat = next((t for t in st.threats if t.uid == a.threat), None)
            if threat is None and a.threat not in sd.held:
                return "no_such_threat", f"card {a.threat} is not a threat you can resist now"
            if threat is not None and not self._may_help(a.seat, threat.target):
                return "not_your_threat", "only the target resists (others need Benevolence)"
            if a.amount > self._untapped(a.seat):
                return "cannot_afford", f"seat {a.seat} has only {self._untapped(a.seat)} untapped Cost Zone cards"
            return "wrong_amount", f"cannot pay {a.amount} toward card {a.threat} now"
        if isinstance(a, TakeBoost):
            if self._active_offer() is None:
                return "no_boosts", "no boosts are on offer now"
            return "boost_not_allowed", "that boost cannot be taken now (taken, wrong payer or not affordable)"
        if isinstance(a, BuyAbility):
            if st.step != "after_lay":
                return "wrong_timing", "abilities are bought right after your Cost Zone phase"
            if not self.settings.mat_abilities:
                return "abilities_off", "Maturity Abilities are turned off"
            if a.ability not in ABILITIES:
                return "unknown_ability", f"no ability named {a.ability!r}"
            if a.ability in st.abilities:
                return "already_held", f"the team already holds {a.ability}"
            return "cannot_afford", f"{a.ability} costs {ABILITY_PRICE.get(a.ability, 0)}"
        if isinstance(a, UseAbility):
            if not self.settings.mat_abilities:
                return "abilities_off", "Maturity Abilities are turned off"
            if a.ability not in st.abilities:
                return "ability_not_held", f"the team does not hold {a.ability!r}"
            return "ability_not_ready", f"{a.ability} cannot be used now"
        return "not_legal", f"{a!r} is not legal now"

    # ------------------------------------------------------------------ doing actions
    def _do(self, a: Action) -> None:
        st = self.state
        if isinstance(a, Pass):
            self._do_pass(a.seat)
        elif isinstance(a, Choose):
            self._do_choose(a.seat, a.option)
        elif isinstance(a, LayCostZone):
            sd = st.seats[a.seat]
            sd.hand.remove(a.card)
            sd.cost_zone.append(a.card)
            sd.laid += 1
            self._emit("laid", a.seat)
        elif isinstance(a, PlayCard):
            self._do_play(a)
            self._reset_phase_passes()
        elif isinstance(a, Resist):
            self._do_resist(a)
            self._reset_phase_passes()
        elif isinstance(a, TakeBoost):
            self._do_boost(a)
        elif isinstance(a, ChooseAbility):
            st.ability_picks -= 1
            self._gain_ability(a.ability, a.seat, "chosen")
        elif isinstance(a, BuyAbility):
            self._pay(a.seat, ABILITY_PRICE[a.ability])
            self._gain_ability(a.ability, a.seat, "bought")
        elif isinstance(a, UseAbility):
            self._use_ability(a)
            self._reset_phase_passes()
        else:  # pragma: no cover - every listed action type is handled above
            raise IllegalAction("not_legal", f"unhandled action {a!r}")

    def _reset_phase_passes(self) -> None:
        st = self.state
        if st.step in ("resistance", "main"):
            st.phase_passes = self._phase_order()

    def _phase_order(self) -> list[int]:
        st = self.state
        active = self.turn_seat
        order = [active]
        if st.step == "resistance" and st.threats:
            for i in self._turn_order_from(active):
                if i != active and self._may_help(i, active) and self._untapped(i) > 0:
                    order.append(i)
        return order

    def _turn_order_from(self, start: int) -> list[int]:
        n = len(self.state.seats)
        return [(start + k) % n for k in range(n)]

    def _do_pass(self, seat: int) -> None:
        st = self.state
        if st.choice is not None:
            self._finish_choice()
            return
        if st.window:
            st.window.pop(0)
            return
        offer = self._active_offer()
        if offer is not None:
            st.offers.pop()
            if offer.fast and st.stack and st.stack[-1].uid == offer.uid:
                st.stack[-1].fast_done = True
            return
        if self._late_pass(seat):
            return
        if st.step == "lay":
            st.step = "after_lay"
            if self.settings.mat_abilities and "vibrancy" in st.abilities:
                self._flip_random(seat, 2)   # Vibrancy: DECISION random face-down cards
            return
        if st.step == "after_lay":
            self._enter_step(self._next_step("after_lay"))
            return
        if st.phase_passes:
            st.phase_passes.pop(0)

    def _late_pass(self, seat: int) -> bool:
        """Hook: a pass in a mode's own decision (duel). True when it was one."""
        return False

    def _enter_step(self, step: str) -> None:
        st = self.state
        st.step = step
        if step == "main":
            st.phase_passes = [self.turn_seat]
            self._emit("phase", self.turn_seat, data={"phase": "main"})
        self._on_phase_change()

    def _on_phase_change(self) -> None:
        """Hook: duel micro-boost tallies reset each phase (D-MB-1)."""

    def _next_step(self, step: str) -> str:
        steps = self.mode.steps
        return steps[steps.index(step) + 1]

    def _pay(self, seat: int, n: int, prefer: int | None = None) -> None:
        """Rotate ``n`` untapped Cost Zone cards (Z-1). DECISION: face-down cards first, in order."""
        if n <= 0:
            return
        st = self.state
        tapped = st.tapped
        cz = st.seats[seat].cost_zone
        if prefer is not None and prefer in cz and prefer not in tapped:
            tapped.add(prefer)
            n -= 1
        if n > 0:
            face_up = st.face_up
            for u in cz:
                if u not in tapped and u not in face_up:
                    tapped.add(u)
                    n -= 1
                    if n == 0:
                        break
        if n > 0:
            for u in cz:
                if u not in tapped:
                    tapped.add(u)
                    n -= 1
                    if n == 0:
                        break
        if n > 0:
            raise AssertionError("paid more than the seat had: legality check missed it")
        self._emit("rotated", seat)

    def _take_from_play_zone(self, seat: int, uid: int) -> None:
        sd = self.state.seats[seat]
        if uid in sd.hand:
            sd.hand.remove(uid)
        else:
            sd.cost_zone.remove(uid)
            self.state.tapped.discard(uid)
            self.state.face_up.discard(uid)
            self._on_left_cost_zone(seat, uid)

    def _on_left_cost_zone(self, seat: int, uid: int) -> None:
        """Hook: duel's play-replace-spent flag (Z-6)."""

    def _do_play(self, a: PlayCard) -> None:
        st = self.state
        card = self.defs[a.card]
        fee = self.settings.solo_fee if (card.aims_at_mate and not self._teammates(a.seat)) else 0
        from_cz = a.card in st.seats[a.seat].cost_zone
        self._pay(a.seat, card.cost + fee, prefer=a.card if from_cz else None)
        self._take_from_play_zone(a.seat, a.card)
        if st.step != "main" and card.kind in ("maturity", "righteous_habitual") and a.seat == self.turn_seat \
                and not st.window:
            st.seats[a.seat].speed_used = True   # Speed: once per turn outside Main
        item = StackItem("card", a.card, a.seat, a.to_seat, a.threat)
        self._emit("played", a.seat, a.card, data={"to_seat": a.to_seat, "threat": a.threat, "fee": fee})
        self._on_card_played(a.seat, a.card)
        self._push(item)

    def _on_card_played(self, seat: int, uid: int) -> None:
        """Hook: duel counts plays for micro-boosts and micro-rewards."""

    def _push(self, item: StackItem) -> None:
        """P-4, P-6: put an item on the stack and open the response window."""
        st = self.state
        st.stack.append(item)
        st.window = self._responders()

    def _responders(self) -> list[int]:
        return [i for i in self._turn_order_from(self.turn_seat)
                if self.state.seats[i].side == "righteous" and self._can_respond(i)]

    def _do_resist(self, a: Resist) -> None:
        st = self.state
        threat = next((t for t in st.threats if t.uid == a.threat), None)
        self._pay(a.seat, a.amount)
        if threat is None:   # CO-7: a holding Habitual, paid in full
            self._break_held(a.threat, by_seat=a.seat, how="paid")
            return
        threat.paid += a.amount
        self._emit("resist_paid", a.seat, data={"threat": a.threat, "amount": a.amount})
        if self._remaining(threat) == 0:
            self._resist_threat(threat, a.seat, "paid")

    def _resist_threat(self, threat: Threat, seat: int, how: str) -> None:
        """P-1 step 2: a resisted threat never reaches the stack; it goes to the Resisted pile."""
        st = self.state
        st.threats.remove(threat)
        self._to_pile(threat.uid, "resisted", threat.by, threat.target)
        self._emit("resisted", seat, threat.uid, data={"target": threat.target, "how": how})
        card = self.defs[threat.uid]
        if card.is_ambush:
            for u in self._passive_cards(threat.target):
                n = self.defs[u].passive.ambush_reward
                if n and threat.resistance - n > 0:
                    self._change_humility(threat.target, threat.resistance - n, u)
        self._on_threat_resisted(threat, seat)

    def _on_threat_resisted(self, threat: Threat, seat: int) -> None:
        """Hook: duel combo resets, streaks."""

    def _to_pile(self, uid: int, pile: str, by: int | None, at: int | None) -> None:
        st = self.state
        if pile == "resisted":
            st.resisted.append(uid)
            st.resisted_total += 1
        else:
            st.failed.append(uid)
            st.failed_total += 1
        st.pile_info[uid] = (by, at)

    def _break_held(self, uid: int, by_seat: int, how: str) -> None:
        st = self.state
        for i, sd in enumerate(st.seats):
            if uid in sd.held:
                sd.held.remove(uid)
                self._to_pile(uid, "resisted", None, i)
                self._emit("habitual_broken", by_seat, uid, data={"held_by": i, "how": how})
                return
        if uid in st.field:
            st.field.remove(uid)
            self._to_pile(uid, "resisted", None, None)
            self._emit("habitual_broken", by_seat, uid, data={"held_by": None, "how": how})

    def _do_boost(self, a: TakeBoost) -> None:
        st = self.state
        offer = st.offers[-1]
        card = self.defs[offer.uid]
        boost = card.boosts[a.index]
        needs_mate = boost.needs_mate
        fee = self.settings.solo_fee if self.is_solo() and (boost.payer == "teammate" or needs_mate) else 0
        self._pay(a.payer, boost.cost + fee)
        offer.taken = offer.taken + (a.index,)
        self._emit("boost_taken", a.seat, offer.uid, data={"index": a.index, "payer": a.payer, "fee": fee})
        self._on_card_played(a.seat, -1)
        self._push(StackItem("boost", offer.uid, offer.controller, a.to_seat, None, a.index))

    def _gain_ability(self, ability: str, seat: int, how: str) -> None:
        st = self.state
        st.abilities.append(ability)
        if ability in ONCE_PER_LEVEL:
            st.charged.add(ability)   # DECISION: a once-per-level ability is ready when gained
        self._emit("ability_gained", seat, data={"ability": ability, "how": how})

    def _use_ability(self, a: UseAbility) -> None:
        st = self.state
        self._emit("ability_used", a.seat, data={"ability": a.ability, "to_seat": a.to_seat})
        if a.ability == "deliverance":
            st.charged.discard("deliverance")
            habituals = [u for sd in st.seats for u in sd.held] + st.field
            st.choice = Choice(a.seat, "deliverance", habituals, 3, 0)
        elif a.ability == "restoration":
            st.charged.discard("restoration")
            for i in self.righteous_seats():
                sd = st.seats[i]
                st.rng.shuffle(sd.discard)
                back = sd.discard[:15]
                del sd.discard[:15]
                sd.deck.extend(back)
                st.rng.shuffle(sd.deck)
                self._emit("restored", i, data={"cards": len(back)})
        elif a.ability == "brotherly_love":
            st.seats[a.seat].love_to = a.to_seat

    # ------------------------------------------------------------------ choices
    def _do_choose(self, seat: int, option: int) -> None:
        st = self.state
        c = st.choice
        assert c is not None
        c.options.remove(option)
        c.count -= 1
        c.minimum -= 1
        if c.purpose in ("overflow", "discard"):
            self._discard(seat, option, overflow=c.purpose == "overflow")
        elif c.purpose == "search":
            sd = st.seats[seat]
            sd.deck.remove(option)
            sd.hand.append(option)
            self._emit("found", seat, option, private_to=seat)
        elif c.purpose == "deliverance":
            self._break_held(option, seat, "deliverance")
        if c.count <= 0 or not c.options:
            self._finish_choice()

    def _finish_choice(self) -> None:
        st = self.state
        c = st.choice
        st.choice = None
        if c is not None and c.purpose == "search":
            st.rng.shuffle(st.seats[c.seat].deck)

    def _discard(self, seat: int, uid: int, overflow: bool = False) -> None:
        st = self.state
        sd = st.seats[seat]
        if uid in sd.hand:
            sd.hand.remove(uid)
        else:
            sd.cost_zone.remove(uid)
            st.tapped.discard(uid)
            st.face_up.discard(uid)
        sd.discard.append(uid)
        self._emit("overflow_discard" if overflow else "discarded", seat, uid)

    # ------------------------------------------------------------------ the flow
    def _advance(self) -> None:
        """Run automatic steps until a decision is needed or the game is over."""
        st = self.state
        guard = 0
        while st.result is None:
            guard += 1
            if guard > 100000:  # pragma: no cover - a flow bug, never a game state
                raise RuntimeError("the game flow did not reach a decision")
            if st.choice is not None:
                return
            if st.effects:
                effect, ctx = st.effects.pop(0)
                self._run_effect(effect, ctx)
                continue
            if st.ability_picks:
                if self.settings.mat_abilities and self._free_abilities():
                    return
                st.ability_picks = 0
                continue
            if self._early_decider() is not None:
                return
            if st.window:
                return
            offer = self._active_offer()
            if offer is not None:
                if len(self._boost_actions(offer)) > 1:
                    return
                self._do_pass(offer.controller)
                continue
            if not st.stack:
                flow = self._mode_flow()
                if flow == "wait":
                    return
                if flow == "again":
                    continue
            if st.stack:
                top = st.stack[-1]
                if top.kind == "card" and not top.fast_done:
                    top.fast_done = True
                    if any(b.fast for b in self.defs[top.uid].boosts):
                        st.offers.append(Offer(top.uid, top.controller, True, len(st.stack), top.to_seat))
                    continue
                st.stack.pop()
                self._resolve(top)
                continue
            if self._flow_step():
                return

    def _mode_flow(self) -> str | None:
        """Hook: a mode's own automatic steps with an empty stack: "wait" (a decision waits),
        "again" (something changed, look again) or None (carry on with the turn)."""
        return None

    def _flow_step(self) -> bool:
        """Advance the turn's steps. True when a decision is now waiting."""
        st = self.state
        step = st.step
        seat = self.turn_seat
        if step == "turn_start":
            self._start_turn()
            if st.result is None and st.step == "turn_start":
                st.step = "draw"
            return False
        if step == "draw":
            self._draw(seat, max(0, self.mode.draw_count(self, seat)
                                  + sum(self.defs[u].passive.draw for u in self._passive_cards(seat))))
            st.step = "lay"
            self._on_cost_zone_phase(seat)
            return False
        if step == "lay":
            return True
        if step == "after_lay":
            legal = self._legal(seat)
            if len(legal) > 1:
                self._legal_cache = (st.state_id, seat, legal)   # the state stays as it is now
                return True
            self._enter_step(self._next_step("after_lay"))   # nothing to do but pass: move on
            return False
        if step == "evil":
            self._evil_phase(seat)
            st.step = "resistance"
            st.phase_passes = self._phase_order()
            self._emit("phase", seat, data={"phase": "resistance"})
            return False
        if step == "resistance":
            if self._phase_decision_waits():
                return True
            st.step = "fail"
            return False
        if step == "fail":
            if st.threats:   # CO-6: unresisted threats fail, in the order they were played
                t = st.threats.pop(0)
                item = StackItem("threat", t.uid, seat, None, t.target)
                item.by = t.by
                self._emit("failed", t.target, t.uid)
                self._push(item)
                return False
            self._enter_step("main")
            return False
        if step == "main":
            if self._phase_decision_waits():
                return True
            st.step = "end"
            return False
        if step == "end":
            self._end_turn(seat)
            return False
        return True  # pragma: no cover

    def _phase_decision_waits(self) -> bool:
        """Skip seats whose only choice in the phase is to pass; True when someone must decide."""
        st = self.state
        while st.phase_passes:
            seat = st.phase_passes[0]
            legal = self._legal(seat)
            if len(legal) > 1:
                self._legal_cache = (st.state_id, seat, legal)   # the state stays as it is now
                return True
            st.phase_passes.pop(0)
        return False

    def _on_cost_zone_phase(self, seat: int) -> None:
        st = self.state
        self._emit("phase", seat, data={"phase": "cost_zone"})
        if self.settings.mat_abilities and "foresight" in st.abilities:
            n = self.mode.evil_plays(self, seat)
            st.foresight = st.evil_deck[-n:][::-1]
            self._emit("revealed", seat, data={"foresight": [self.defs[u].id for u in st.foresight]})

    def _start_turn(self) -> None:
        st = self.state
        seat = self.turn_seat
        st.turn_no += 1
        sd = st.seats[seat]
        self._judge_at_turn_start(seat)
        if st.result is not None:
            return
        self._emit("turn_started", seat, data={"round": st.round, "turn": st.turn_no})
        for other in st.seats:
            other.gained = 0
        sd.levels_this_turn = 0
        sd.speed_used = False
        sd.laid = 0
        for u in sd.cost_zone:   # Z-2 (DECISION): untap the whole Cost Zone
            st.tapped.discard(u)
        self._on_turn_start(seat)
        for u in self._passive_cards(seat):
            up = self.defs[u].passive.upkeep_humility
            if up:
                self._change_humility(seat, up, u)

    def _on_turn_start(self, seat: int) -> None:
        """Hook: duel counters and level-ups that had to wait (S-6)."""

    def _judge_at_turn_start(self, seat: int) -> None:
        """CO-W-2..4, judged at the start of each turn."""
        st = self.state
        max_rounds = self.settings.max_rounds
        if st.clearing is not None and st.clearing[0] == seat and st.turn_no > st.clearing[1]:
            if self._all_l3() and self.evil_habituals_in_play() == 0:
                self._finish("righteous", "every seat at L3 with no Evil Habitual for a full round")
                return
            self._emit("clearing_round", seat, data={"closed": "unclean"})
            st.clearing = None
            if st.round > max_rounds:
                self._finish("evil", "the clearing round closed unclean after round 10")
                return
            st.last_chance = True   # CO-W-3: play goes on to the end of round 10
            if self._all_l3() and st.round < max_rounds:
                # DECISION: a fresh clearing round, so a later clean close wins; only while it can
                # still close by the end of round 10 (only a first one may run past it)
                st.clearing = (seat, st.turn_no)
                self._emit("clearing_round", seat, data={"opened": True})
        if st.round > max_rounds and st.clearing is None:
            if st.last_chance and self._all_l3() and self.evil_habituals_in_play() == 0:
                self._finish("righteous", f"every seat at L3 with no Evil Habitual at the end of round {max_rounds}")
            else:
                self._finish("evil", f"round {max_rounds} ended without a Righteous win")

    def _all_l3(self) -> bool:
        return all(s.maturity >= MAX_MATURITY for s in self.state.seats if s.side == "righteous")

    def _end_turn(self, seat: int) -> None:
        st = self.state
        sd = st.seats[seat]
        if self.settings.mat_abilities and "cost_zone_power" in st.abilities and sd.gained >= 3 and sd.deck:
            sd.cost_zone.append(sd.deck.pop())   # Cost Zone Power
            self._emit("cost_zone_power", seat)
        st.foresight = []
        sd.love_to = sd.love_to  # Brotherly Love lasts until the next card
        self._next_turn()

    def _next_turn(self) -> None:
        st = self.state
        st.turn_index += 1
        if st.turn_index >= len(self._order):
            st.turn_index = 0
            st.round += 1
        st.step = "turn_start"

    def _finish(self, winner: str, reason: str) -> None:
        st = self.state
        st.result = Result(winner, reason, min(st.round, self.settings.max_rounds) if self.mode.has_round_limit else st.round)
        st.step = "over"
        st.window = []
        st.phase_passes = []
        self._emit("game_over", None, data={"winner": winner, "reason": reason})

    # ------------------------------------------------------------------ Evil deck (co-op)
    def _evil_phase(self, seat: int) -> None:
        """CO-4: the Evil deck turns over its top cards and plays each at the active seat."""
        st = self.state
        self._emit("phase", seat, data={"phase": "evil"})
        for _ in range(self.mode.evil_plays(self, seat)):
            if not st.evil_deck:
                self._refill_evil_deck()
                if not st.evil_deck:
                    break
            uid = st.evil_deck.pop()
            self._play_threat(uid, seat, None)
        st.foresight = []

    def _refill_evil_deck(self) -> None:
        """DECISION: an empty Evil deck is remade from the Evil cards of both piles, shuffled."""
        st = self.state
        cards = st.resisted + st.failed
        st.resisted = []
        st.failed = []
        for u in cards:
            st.pile_info.pop(u, None)
        st.rng.shuffle(cards)
        st.evil_deck = cards
        self._emit("evil_deck_refilled", None, data={"cards": len(cards)})

    def _x_value(self, card: CardDef, target: int) -> int:
        rule = card.x_rule
        if rule is None:
            return card.resistance or 0
        sd = self.state.seats[target]
        base = {"target_hand": len(sd.hand), "target_cost_zone": len(sd.cost_zone),
                "target_maturity": sd.maturity, "target_humility": sd.humility,
                "held_habituals": len(sd.held)}[rule.of]
        return max(0, base + rule.plus)

    def _play_threat(self, uid: int, target: int, by: int | None) -> None:
        card = self.defs[uid]
        resistance = self._x_value(card, target)
        self.state.threats.append(Threat(uid, target, by, resistance))
        self._emit("threat_played", by, uid, data={"target": target, "resistance": resistance})

    # ------------------------------------------------------------------ resolution
    def _resolve(self, item: StackItem) -> None:
        """P-1 steps 4-5: rules text first; the boost offer opens after."""
        st = self.state
        card = self.defs[item.uid]
        if item.kind == "threat":
            self._resolve_failed_threat(item)
            return
        if item.kind == "boost":
            boost = card.boosts[item.boost or 0]
            ctx = self._ctx(item, boost_to=item.to_seat)
            fast_target = next((s for s in reversed(st.stack) if s.kind == "card" and s.uid == item.uid), None)
            for e in boost.effects:
                if e.op == "amplify" and fast_target is not None:
                    fast_target.amplify += e.amount
                elif e.op == "redirect" and fast_target is not None:
                    fast_target.redirect_to = item.to_seat if item.to_seat is not None else item.controller
                else:
                    st.effects.append((e, ctx))
            self._emit("resolved", item.controller, item.uid, data={"boost": item.boost})
            return
        ctx = self._ctx(item)
        seat = item.controller
        sd = st.seats[seat]
        self._emit("resolved", seat, item.uid)
        if card.kind == "maturity":
            self._raise_maturity(ctx.me if item.redirect_to is not None else seat, 1, item.uid)   # S-5
        if card.kind == "resistance" and item.threat is not None:
            threat = next((t for t in st.threats if t.uid == item.threat), None)
            if threat is not None:
                self._resist_threat(threat, seat, "card")
            elif item.threat in sd.held:
                self._break_held(item.threat, seat, "card")
        attached = False
        for e in card.effects:
            if e.op == "attach":
                attached = True
                dest = ctx.mate if (e.who == "teammate" and ctx.mate is not None) else ctx.me
                st.seats[dest].in_play.append(item.uid)
                self._emit("attached", dest, item.uid)
            else:
                st.effects.append((e, ctx))
        if card.kind == "righteous_habitual" and not attached:
            sd.in_play.append(item.uid)
            self._emit("attached", seat, item.uid)
        elif card.kind != "righteous_habitual":
            self.state.seats[self.owner[item.uid]].discard.append(item.uid)
        if card.boosts and any(not b.fast for b in card.boosts):
            st.offers.append(Offer(item.uid, seat, False, len(st.stack), item.to_seat))

    def _ctx(self, item: StackItem, boost_to: int | None = None) -> Ctx:
        st = self.state
        seat = item.controller
        me = seat
        mate = item.to_seat if item.to_seat is not None else boost_to
        if item.kind == "card":
            if item.redirect_to is not None:
                me = item.redirect_to
            else:
                love_to = st.seats[seat].love_to
                if love_to is not None:
                    me = love_to   # Brotherly Love: the next card's benefit
                    st.seats[seat].love_to = None
        if mate is None:
            mates = self._teammates(seat)
            mate = mates[0] if mates else seat   # P-7: in solo the card points at you
        return Ctx(me, mate, None, item.amplify if item.kind == "card" else 0, item.uid, seat)

    def _resolve_failed_threat(self, item: StackItem) -> None:
        """CO-6, S-3: the target loses 1 Humility; the card's text; Habituals take hold."""
        st = self.state
        target = item.threat if item.threat is not None else self.turn_seat
        card = self.defs[item.uid]
        self._change_humility(target, -1, item.uid)
        ctx = Ctx(target, None, target, 0, item.uid, target)
        for e in card.effects:
            st.effects.append((e, ctx))
        if card.kind == "evil_habitual":
            st.seats[target].held.append(item.uid)
            self._emit("took_hold", target, item.uid)
            self._on_habitual_took_hold(item)
        else:
            self._to_pile(item.uid, "failed", item.by, target)
            self._on_temptation_failed(item)

    def _on_habitual_took_hold(self, item: StackItem) -> None:
        """Hook: duel dominance, pairs, win clocks."""

    def _on_temptation_failed(self, item: StackItem) -> None:
        """Hook: duel failed-temptation rewards."""

    # ------------------------------------------------------------------ effects
    def _seat_for(self, who: str, ctx: Ctx) -> list[int]:
        if who == "self":
            return [ctx.me]
        if who == "teammate":
            return [ctx.mate if ctx.mate is not None else ctx.me]
        if who == "target":
            return [ctx.target if ctx.target is not None else ctx.me]
        return self.righteous_seats()

    def _run_effect(self, e: Effect, ctx: Ctx) -> None:
        st = self.state
        op = e.op
        amp = ctx.amplify
        if op == "humility":
            amount = e.amount + (amp if e.amount > 0 else -amp if e.amount < 0 else 0)
            for s in self._seat_for(e.who, ctx):
                self._change_humility(s, amount, ctx.source)
        elif op == "draw":
            for s in self._seat_for(e.who, ctx):
                self._draw(s, e.count + amp)
        elif op == "discard":
            for s in self._seat_for(e.who, ctx):
                sd = st.seats[s]
                n = min(e.count + amp, len(sd.hand))
                if n <= 0:
                    continue
                if e.random:
                    for _ in range(n):
                        self._discard(s, sd.hand[st.rng.randbelow(len(sd.hand))])
                elif n >= len(sd.hand):
                    for u in sd.hand[:]:
                        self._discard(s, u)
                else:
                    st.choice = Choice(s, "discard", sd.hand[:], n, n)
                    return
        elif op == "search":
            sd = st.seats[ctx.me]
            matches = [u for u in sd.deck if e.kind in (None, "any") or self.defs[u].kind == e.kind]
            if matches:
                st.choice = Choice(ctx.me, "search", matches, e.count + amp, 0)
            else:
                st.rng.shuffle(sd.deck)
                self._emit("searched", ctx.me, data={"found": 0})
        elif op == "reveal":
            sd = st.seats[ctx.me]
            n = min(e.count + amp, len(sd.deck))
            top = [sd.deck.pop() for _ in range(n)]
            self._emit("revealed", ctx.me, data={"cards": [self.defs[u].id for u in top]})
            rest = []
            for u in top:
                if e.kind in (None, "any") or self.defs[u].kind == e.kind:
                    sd.hand.append(u)
                else:
                    rest.append(u)
            sd.deck[0:0] = rest[::-1]   # to the bottom, in revealed order
        elif op == "rotate":
            for s in self._seat_for(e.who, ctx):
                untapped = [u for u in st.seats[s].cost_zone if u not in st.tapped]
                for u in untapped[::-1][: e.count + amp]:   # DECISION: newest cards first
                    st.tapped.add(u)
                self._emit("rotated", s, data={"by_effect": True})
        elif op == "untap":
            for s in self._seat_for(e.who, ctx):
                tapped = [u for u in st.seats[s].cost_zone if u in st.tapped]
                for u in tapped[::-1][: e.count + amp]:
                    st.tapped.discard(u)
                self._emit("untapped", s)
        elif op == "flip":
            for s in self._seat_for(e.who, ctx):
                down = [u for u in st.seats[s].cost_zone if u not in st.face_up]
                for u in down[::-1][: e.count + amp]:
                    st.face_up.add(u)
                    self._emit("flipped", s, u)
        elif op == "cost_zone":
            for s in self._seat_for(e.who, ctx):
                sd = st.seats[s]
                for _ in range(e.count + amp):
                    if not sd.deck:
                        self._reshuffle(s)
                    if sd.deck:
                        sd.cost_zone.append(sd.deck.pop())
                self._emit("cost_zone_added", s)
        elif op == "overflow":   # internal: an overflow discard that had to wait for another choice
            sd = st.seats[ctx.me]
            options = sd.hand + sd.cost_zone
            n = min(e.count, len(options))
            if n:
                st.choice = Choice(ctx.me, "overflow", options, n, n)
        elif op == "if":
            assert e.cond is not None
            branch = e.then if self._test(e.cond.test, e.cond.value, self._seat_for(e.cond.who, ctx)[0]) else e.otherwise
            st.effects[0:0] = [(b, ctx) for b in branch]

    def _test(self, test: str, value: int, seat: int) -> bool:
        sd = self.state.seats[seat]
        if test == "maturity_at_least":
            return sd.maturity >= value
        if test == "maturity_at_most":
            return sd.maturity <= value
        if test == "humility_at_least":
            return sd.humility >= value
        if test == "humility_at_most":
            return sd.humility <= value
        if test == "hand_at_most":
            return len(sd.hand) <= value
        if test == "hand_at_least":
            return len(sd.hand) >= value
        if test == "holds_habitual":
            return bool(sd.held)
        if test == "cost_zone_at_least":
            return len(sd.cost_zone) >= value
        raise ValueError(f"unknown condition {test!r}")  # pragma: no cover - the schema refuses it

    # ------------------------------------------------------------------ badges and cards
    def _draw(self, seat: int, n: int, quiet: bool = False) -> None:
        sd = self.state.seats[seat]
        for _ in range(n):
            if not sd.deck:
                self._reshuffle(seat)
                if not sd.deck:
                    break
            u = sd.deck.pop()
            sd.hand.append(u)
            if not quiet:
                self._emit("drew", seat, u, private_to=seat)

    def _reshuffle(self, seat: int) -> None:
        """DECISION: an empty deck that must be drawn from is remade from its discard pile."""
        sd = self.state.seats[seat]
        if sd.discard:
            sd.deck = sd.discard
            sd.discard = []
            self.state.rng.shuffle(sd.deck)
            self._emit("reshuffled", seat, data={"cards": len(sd.deck)})

    def _change_humility(self, seat: int, delta: int, source: int | None) -> None:
        """S-2, S-4 (overflow), S-7 (cap 10 and roll-over)."""
        st = self.state
        sd = st.seats[seat]
        if sd.side != "righteous" or delta == 0:
            return
        if delta > 0:
            before = sd.humility
            sd.humility = min(MAX_HUMILITY, sd.humility + delta)
            sd.gained += sd.humility - before
            self._emit("humility", seat, data={"delta": sd.humility - before, "humility": sd.humility})
            self._check_rollover(seat)
            return
        loss = -delta
        taken = min(loss, sd.humility)
        sd.humility -= taken
        self._emit("humility", seat, data={"delta": -taken, "humility": sd.humility})
        overflow = loss - taken
        if overflow:
            options = sd.hand + sd.cost_zone
            n = min(overflow, len(options))   # S-4 DECISION: nothing more once both are empty
            if n:
                if st.choice is None:
                    st.choice = Choice(seat, "overflow", options, n, n)
                else:  # a choice is already open: this one waits its turn
                    st.effects.insert(0, (Effect(op="overflow", count=n), Ctx(seat, None, None, 0, -1, seat)))

    def _check_rollover(self, seat: int) -> None:
        sd = self.state.seats[seat]
        if not self.settings.humility_rollover or sd.humility < MAX_HUMILITY or sd.maturity >= MAX_MATURITY:
            return
        if not self._may_level(seat):
            return   # S-6/S-7: waits at 10, taken at the start of the seat's next turn
        sd.humility -= MAX_HUMILITY
        self._emit("humility", seat, data={"delta": -MAX_HUMILITY, "humility": sd.humility, "rollover": True})
        self._raise_maturity(seat, 1, None)

    def _may_level(self, seat: int) -> bool:
        """S-6 hook: co-op has no per-turn limit."""
        return True

    def _raise_maturity(self, seat: int, n: int, source: int | None) -> None:
        st = self.state
        sd = st.seats[seat]
        if sd.maturity >= MAX_MATURITY or not self._may_level(seat):
            return
        sd.maturity = min(MAX_MATURITY, sd.maturity + n)
        sd.levels_this_turn += 1
        self._emit("maturity", seat, data={"maturity": sd.maturity})
        self._after_level(seat)

    def _after_level(self, seat: int) -> None:
        """A-2, A-4, CO-W-2: shared level rewards and the clearing round."""
        st = self.state
        shared = min(s.maturity for s in st.seats if s.side == "righteous")
        while shared > st.team_level:
            st.team_level += 1
            if st.team_level > st.levels_rewarded:
                st.levels_rewarded = st.team_level
                if self.settings.mat_abilities:
                    for a in ONCE_PER_LEVEL:
                        if a in st.abilities:
                            st.charged.add(a)
                    if self._free_abilities():
                        st.ability_picks += 1
                        st.ability_chooser = self.turn_seat   # DECISION: the active seat picks for the team
                self._emit("shared_level", None, data={"level": st.team_level})
        if st.clearing is None and self._all_l3():
            st.clearing = (self.turn_seat, st.turn_no)
            self._emit("clearing_round", self.turn_seat, data={"opened": True})

    def _flip_random(self, seat: int, n: int) -> None:
        st = self.state
        down = [u for u in st.seats[seat].cost_zone if u not in st.face_up]
        for _ in range(min(n, len(down))):
            u = down.pop(st.rng.randbelow(len(down)))
            st.face_up.add(u)
            self._emit("flipped", seat, u)

    def _emit(self, kind: str, seat: int | None, uid: int | None = None, private_to: int | None = None,
              data: dict[str, Any] | None = None) -> None:
        self._events.append(Event(self.state.state_id, kind, seat, self.defs[uid].id if uid is not None and uid >= 0 else None,
                                  uid, private_to, data))

    # ------------------------------------------------------------------ manual adjustment (S-8)
    def manual_actions(self, seat: int) -> list[Action]:
        """S-8: the badge adjustments a Righteous seat may make by hand (never in legal_actions)."""
        if self.state.result is not None or self.state.seats[seat].side != "righteous":
            return []
        out: list[Action] = [AdjustBadge(seat, "humility", v) for v in range(MAX_HUMILITY + 1)]
        out.extend(AdjustBadge(seat, "maturity", v) for v in range(MAX_MATURITY + 1))
        return out

    def _apply_manual(self, a: AdjustBadge) -> list[Event]:
        st = self.state
        if st.result is not None:
            raise IllegalAction("game_over", "the game is over")
        if not isinstance(a.seat, int) or not 0 <= a.seat < len(st.seats) or st.seats[a.seat].side != "righteous":
            raise IllegalAction("no_such_seat", f"seat {a.seat!r} has no badges to adjust")
        limit = {"humility": MAX_HUMILITY, "maturity": MAX_MATURITY}.get(a.badge)
        if limit is None:
            raise IllegalAction("unknown_badge", f"badge must be humility or maturity, not {a.badge!r}")
        if not isinstance(a.value, int) or not 0 <= a.value <= limit:
            raise IllegalAction("out_of_range", f"{a.badge} must be between 0 and {limit}")
        self._events = []
        st.state_id += 1
        self.actions.append(a)
        sd = st.seats[a.seat]
        old = getattr(sd, a.badge)
        setattr(sd, a.badge, a.value)
        self._emit("manual", a.seat, data={"badge": a.badge, "from": old, "to": a.value})
        if a.badge == "maturity" and a.value > old:
            self._after_level(a.seat)   # S-8: levels_rewarded makes a level reward only once
        self._advance()
        events = self._events
        self.log.extend(events)
        self._events = []
        return events

    # ------------------------------------------------------------------ copies, records, views
    def clone(self) -> "Game":
        """A fast independent copy (shares the immutable card table)."""
        cls = type(self)
        g = cls.__new__(cls)   # a DuelGame's clone keeps the duel's hooks
        g.mode = self.mode
        g.lineup = self.lineup
        g.seed = self.seed
        g.settings = self.settings
        g.cards = self.cards
        g.defs = self.defs
        g.owner = self.owner
        g.deck_lists = self.deck_lists
        g.extra_deck_texts = self.extra_deck_texts
        g._order = self._order
        g.state = self.state.clone()
        g.actions = self.actions[:]
        g.log = self.log[:]
        g._events = []
        g._legal_cache = None
        g._position = self._position
        g.rules = self.rules
        g._pinned = self._pinned
        return g

    def pinned_cards(self) -> dict[str, Any]:
        """The definitions of every card and deck this game uses, with their SHA-256 (for records)."""
        if self._pinned is None:   # the card table never changes after the deal: work it out once
            from .record import pinned_cards
            self._pinned = pinned_cards(self)
        return self._pinned

    def to_record(self) -> dict[str, Any]:
        """Settings + seed + decks + actions: replaying it reproduces the game (G-6)."""
        from .record import make_record
        return make_record(self)

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> "Game":
        from .record import replay
        return replay(record)

    @classmethod
    def from_position(cls, position: dict[str, Any], mode: str = "coop", lineup: str | None = None,
                      seed: int = 0, settings: Settings | None = None, card_set: CardSet | None = None,
                      rules: int | None = None) -> "Game":
        """A game started from a described position (scenario tests, duel scenarios)."""
        from .position import build_from_position
        return build_from_position(cls, position, mode, lineup, seed, settings, card_set, rules)

    def to_position(self) -> dict[str, Any]:
        """This game's state as a position: ``from_position`` of it (same mode, lineup, seed and
        settings) gives a game with the same views and legal actions. Holds hidden information
        (hands, deck order, the generator's state): an engine and test tool, not for clients."""
        from .position import to_position
        return to_position(self)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator). Never another seat's hidden cards."""
        from .view import make_view
        return make_view(self, seat)

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

    def _after_position(self) -> None:
        """Hook: a mode's own set-up after a position is built."""

    def _extra_zones(self, put: Any) -> None:
        """Hook: a mode's extra zones (duel Evil seats' own piles)."""
