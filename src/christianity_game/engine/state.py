"""The mutable game state: seats, zones, the stack, pending threats, open decisions.

Cards are small integers (``uid``), indexes into the game's immutable card table. Every zone is
a list of uids, and each uid is in exactly one zone. ``clone`` copies lists and sets by hand
(never ``copy.deepcopy``): search bots clone thousands of states per move.

Every class here can be made with no arguments: compiled (the native engine, ``native.py``),
``Cls.__new__(Cls)`` and unpickling call ``__init__`` so before the attributes are set.
"""

from __future__ import annotations

from typing import Any

from ..cards.model import Effect
from .rng import Rng

# Steps of a turn. The public ``phase`` is derived from them (see PHASE_OF_STEP).
PHASE_OF_STEP = {
    "turn_start": "draw", "draw": "draw", "lay": "cost_zone", "after_lay": "cost_zone",
    "evil": "evil", "resistance": "resistance", "fail": "resistance", "main": "main", "end": "end",
    "over": "over",
}


class Seat:
    """One seat: its side, badges and zones, and what it did this turn."""

    __slots__ = ("side", "humility", "maturity", "hand", "deck", "cost_zone", "in_play", "held",
                 "discard", "gained", "levels_this_turn", "speed_used", "love_to", "laid", "deck_id")

    def __init__(self, side: str = "righteous", deck_id: str = "") -> None:
        self.side = side
        self.deck_id = deck_id
        self.humility = 3 if side == "righteous" else 0
        self.maturity = 0
        self.hand: list[int] = []
        self.deck: list[int] = []          # top of deck is the END of the list
        self.cost_zone: list[int] = []
        self.in_play: list[int] = []       # Righteous Habituals attached to this seat
        self.held: list[int] = []          # Evil Habituals that took hold on this seat
        self.discard: list[int] = []
        self.gained = 0                    # Humility gained this turn (Cost Zone Power)
        self.levels_this_turn = 0          # S-6 (duel)
        self.speed_used = False            # Speed ability, once per turn
        self.love_to: int | None = None    # Brotherly Love: next card's benefit goes here
        self.laid = 0                      # cards laid into the Cost Zone this turn

    def __repr__(self) -> str:
        return (f"<Seat {self.side} H{self.humility} L{self.maturity} hand={len(self.hand)} "
                f"deck={len(self.deck)} cz={len(self.cost_zone)}>")

    def clone(self) -> "Seat":
        s = Seat.__new__(Seat)
        s.side = self.side
        s.deck_id = self.deck_id
        s.humility = self.humility
        s.maturity = self.maturity
        s.hand = self.hand[:]
        s.deck = self.deck[:]
        s.cost_zone = self.cost_zone[:]
        s.in_play = self.in_play[:]
        s.held = self.held[:]
        s.discard = self.discard[:]
        s.gained = self.gained
        s.levels_this_turn = self.levels_this_turn
        s.speed_used = self.speed_used
        s.love_to = self.love_to
        s.laid = self.laid
        return s


class Threat:
    """A Temptation or Evil Habitual played at a seat and not yet resisted or failed."""

    __slots__ = ("uid", "target", "by", "resistance", "paid")

    def __init__(self, uid: int = 0, target: int = 0, by: int | None = None, resistance: int = 0, paid: int = 0) -> None:
        self.uid = uid
        self.target = target
        self.by = by              # the Evil seat that played it; None: the co-op Evil deck
        self.resistance = resistance
        self.paid = paid

    def __repr__(self) -> str:
        return f"<Threat {self.uid} at seat {self.target} R{self.resistance} paid {self.paid}>"

    def clone(self) -> "Threat":
        return Threat(self.uid, self.target, self.by, self.resistance, self.paid)


class StackItem:
    """Something on the stack: a played card, a paid boost, or a failed threat resolving."""

    __slots__ = ("kind", "uid", "controller", "to_seat", "threat", "boost", "amplify", "redirect_to",
                 "fast_done", "by")

    def __init__(self, kind: str = "card", uid: int = 0, controller: int = 0, to_seat: int | None = None,
                 threat: int | None = None, boost: int | None = None) -> None:
        self.kind = kind            # "card" | "boost" | "threat"
        self.uid = uid
        self.controller = controller
        self.to_seat = to_seat      # teammate the card / boost is aimed at
        self.threat = threat        # Resistance card: the threat it resists; threat item: target seat
        self.boost = boost          # boost index for a boost item
        self.amplify = 0            # fast boost "amplify" added to the card's numbers
        self.redirect_to: int | None = None  # fast boost "redirect": the card's own effects go here
        self.fast_done = False      # the fast-boost offer of this card is over
        self.by: int | None = None  # threat item: the Evil seat that played it

    def __repr__(self) -> str:
        return f"<StackItem {self.kind} {self.uid} by seat {self.controller}>"

    def clone(self) -> "StackItem":
        s = StackItem(self.kind, self.uid, self.controller, self.to_seat, self.threat, self.boost)
        s.amplify = self.amplify
        s.redirect_to = self.redirect_to
        s.fast_done = self.fast_done
        s.by = self.by
        return s


class Offer:
    """An open boost offer for one card (P-2..P-5). Active while the stack is ``depth`` deep."""

    __slots__ = ("uid", "controller", "fast", "taken", "depth", "to_seat")

    def __init__(self, uid: int = 0, controller: int = 0, fast: bool = False, depth: int = 0, to_seat: int | None = None,
                 taken: tuple[int, ...] = ()) -> None:
        self.uid = uid
        self.controller = controller
        self.fast = fast
        self.depth = depth
        self.to_seat = to_seat
        self.taken = taken

    def __repr__(self) -> str:
        return f"<Offer {'fast ' if self.fast else ''}boosts of {self.uid} taken={self.taken}>"

    def clone(self) -> "Offer":
        return Offer(self.uid, self.controller, self.fast, self.depth, self.to_seat, self.taken)


class Ctx:
    """Who an effect is about: ``me`` (who=self), ``mate`` (who=teammate), ``target`` (threats)."""

    __slots__ = ("me", "mate", "target", "amplify", "source", "controller")

    def __init__(self, me: int = 0, mate: int | None = None, target: int | None = None, amplify: int = 0, source: int = 0,
                 controller: int = 0) -> None:
        self.me = me
        self.mate = mate
        self.target = target
        self.amplify = amplify
        self.source = source
        self.controller = controller

    def __repr__(self) -> str:
        return f"<Ctx me={self.me} mate={self.mate} target={self.target}>"


class Choice:
    """An open choice for one seat: pick ``count`` options (or fewer, down to ``minimum``)."""

    __slots__ = ("seat", "purpose", "options", "count", "minimum", "data")

    def __init__(self, seat: int = 0, purpose: str = "", options: list[int] | None = None, count: int = 0,
                 minimum: int = 0, data: Any = None) -> None:
        self.seat = seat
        self.purpose = purpose      # overflow | discard | search | deliverance
        self.options: list[int] = [] if options is None else options
        self.count = count
        self.minimum = minimum
        self.data = data

    def __repr__(self) -> str:
        return f"<Choice {self.purpose} seat={self.seat} pick {self.count} of {len(self.options)}>"

    def clone(self) -> "Choice":
        return Choice(self.seat, self.purpose, self.options[:], self.count, self.minimum, self.data)


class State:
    """Everything that changes during a game. Owned by :class:`~christianity_game.engine.game.Game`."""

    __slots__ = ("seats", "rng", "round", "turn_no", "turn_index", "step", "stack", "threats", "window",
                 "phase_passes", "offers", "choice", "effects", "ability_picks", "ability_chooser",
                 "abilities", "charged", "team_level", "levels_rewarded", "evil_deck", "resisted",
                 "failed", "resisted_total", "failed_total", "field", "tapped", "face_up", "clearing",
                 "foresight", "result", "state_id", "pile_info", "duel", "last_chance")

    def __init__(self, seed: int = 0) -> None:
        self.seats: list[Seat] = []
        self.rng = Rng(seed)
        self.round = 1
        self.turn_no = 0                   # turns started so far
        self.turn_index = 0                # index into the mode's turn order
        self.step = "turn_start"
        self.stack: list[StackItem] = []
        self.threats: list[Threat] = []    # pending threats (not yet resisted or failed)
        self.window: list[int] = []        # seats still to pass in the open response window
        self.phase_passes: list[int] = []  # seats still to pass before the phase ends
        self.offers: list[Offer] = []
        self.choice: Choice | None = None
        self.effects: list[tuple[Effect, Ctx]] = []   # effects waiting to be carried out, next first
        self.ability_picks = 0             # free abilities the team still has to choose
        self.ability_chooser = 0
        self.abilities: list[str] = []     # abilities the team holds (co-op; duel: see duel state)
        self.charged: set[str] = set()     # once-per-level abilities ready to use
        self.team_level = 0                # highest shared level reached
        self.levels_rewarded = 0           # S-8: a level gives its reward once
        self.evil_deck: list[int] = []     # co-op Evil deck, top is the END
        self.resisted: list[int] = []
        self.failed: list[int] = []
        self.resisted_total = 0
        self.failed_total = 0
        self.field: list[int] = []         # Evil Habituals in play not held by a seat (duel)
        self.tapped: set[int] = set()
        self.face_up: set[int] = set()
        self.clearing: tuple[int, int] | None = None   # (seat, turn_no) the clearing round opened
        self.foresight: list[int] = []
        self.result: Any = None
        self.state_id = 0
        self.pile_info: dict[int, tuple[int | None, int | None]] = {}  # pile card -> (by, at)
        self.duel: Any = None
        self.last_chance = False           # CO-W-3: judged clean or not at the end of round 10

    def clone(self) -> "State":
        s = State.__new__(State)
        s.seats = [seat.clone() for seat in self.seats]
        s.rng = self.rng.copy()
        s.round = self.round
        s.turn_no = self.turn_no
        s.turn_index = self.turn_index
        s.step = self.step
        s.stack = [i.clone() for i in self.stack]
        s.threats = [t.clone() for t in self.threats]
        s.window = self.window[:]
        s.phase_passes = self.phase_passes[:]
        s.offers = [o.clone() for o in self.offers]
        s.choice = self.choice.clone() if self.choice is not None else None
        s.effects = self.effects[:]
        s.ability_picks = self.ability_picks
        s.ability_chooser = self.ability_chooser
        s.abilities = self.abilities[:]
        s.charged = set(self.charged)
        s.team_level = self.team_level
        s.levels_rewarded = self.levels_rewarded
        s.evil_deck = self.evil_deck[:]
        s.resisted = self.resisted[:]
        s.failed = self.failed[:]
        s.resisted_total = self.resisted_total
        s.failed_total = self.failed_total
        s.field = self.field[:]
        s.tapped = set(self.tapped)
        s.face_up = set(self.face_up)
        s.clearing = self.clearing
        s.foresight = self.foresight[:]
        s.result = self.result
        s.state_id = self.state_id
        s.pile_info = dict(self.pile_info)
        s.duel = self.duel.clone() if self.duel is not None else None
        s.last_chance = self.last_chance
        return s
