"""Duel mode (beta): people on both sides (docs/rules.md, section D).

Rules: D-INT-1..6 (Evil at instant speed, answers, Resistance only in response), D-COMBO-1..4,
D-DOM-1..3, D-MR-1..7 (Evil micro-rewards), D-MB-1..3 (Righteous micro-boosts), A-3 and A-4 (a
free ability per seat level), S-6 (one level a turn). Seats, turn order and draws are the mode's
hooks (:mod:`.modes`); the win clocks and the turn cap are in :mod:`.duel_clocks`.

``DuelRules`` are the duel's hooks over the shared rules (``DuelGame`` is the Game class that carries
them; one line of classes, so the engine compiles with mypyc): Evil
seats with their own decks play Temptations and Evil Habituals at instant speed; each burst of threats is answered at once by its targets; combos,
Habitual dominance, Evil micro-rewards and Righteous micro-boosts keep a played Evil side fair;
both win conditions hold for a full round; there is no round limit.

How a burst works (our reading of D-INT and D-COMBO, see docs/decisions.md): whenever the stack is
empty and nothing else is open (after each action and each resolution, never while a Cost Zone
is being laid), Evil seats that can afford a threat get a window. A seat that plays a threat keeps
the window open for the Evil side (partners first, so they can extend the chain). When every Evil
seat in the window has passed, the targets answer the pending threats one by one, in order; that
answer is "the Righteous side responds", and the chain resets.
"""

from __future__ import annotations

from typing import ClassVar

from ..cards.model import THREAT_KINDS
from .actions import Action, ChooseReward, Pass, PlayCard, intern_pass, intern_reward, intern_threat_plays
from .duel_clocks import DuelClockRules
from .modes import DUEL_ABILITIES, DuelMode
from .duel_state import DuelState
from .game import GAME_CLASSES
from .state import Choice, StackItem, Threat

__all__ = ["DUEL_ABILITIES", "DuelGame", "DuelMode", "DuelRules", "DuelState"]

EVIL_REWARDS = ("draw", "untap", "flip")


RIGHTEOUS_BOOSTS = ("draw", "humility")


class DuelRules(DuelClockRules):
    """The duel's hooks over the shared rules (docs/rules.md, section D); ``DuelGame`` is the Game
    class that carries them."""

    __slots__ = ()
    DEFAULT_EVIL_SEAT_DECK: ClassVar[str] = "duel-evil"

    @property
    def duel(self) -> DuelState:
        return self.state.duel  # type: ignore[no-any-return]

    def _default_evil_seat_deck(self, index: int) -> str:
        return self.DEFAULT_EVIL_SEAT_DECK

    def _deal(self) -> None:
        self.state.duel = DuelState(len(self.lineup))
        super()._deal()

    def _after_position(self) -> None:
        if self.state.duel is None:
            self.state.duel = DuelState(len(self.lineup))

    def evil_seats(self) -> list[int]:
        return list(self._evil)   # a new list: callers may keep it

    def _count(self, what: str, n: int = 1) -> None:
        c = self.state.duel.counts
        c[what] = c.get(what, 0) + n

    # ------------------------------------------------------------------ costs and discounts
    def dominance(self, seat: int) -> int:
        """D-DOM-1/2: C1 less per 3 of this seat's own Evil Habituals that took hold."""
        owner = self.owner
        own = 0
        for sd in self.state.seats:
            for u in sd.held:
                if owner[u] == seat:
                    own += 1
        return own // 3

    def _chain_extends(self, seat: int) -> bool:
        """D-COMBO-4: with several Evil seats a partner must play the next card."""
        d = self.state.duel
        if d.chain_count == 0:
            return False
        return len(self._evil) == 1 or seat != d.chain_last

    def threat_cost(self, seat: int, uid: int) -> int:
        """D-COMBO-1, D-DOM-1: the Cost this seat would pay now for this threat."""
        return max(0, self.defs[uid].cost - self.next_discount(seat))

    # ------------------------------------------------------------------ decisions
    def _early_decider(self) -> int | None:
        d = self.state.duel
        if d is None or not d.reward_queue:
            return None
        return d.reward_queue[0][0]  # type: ignore[no-any-return]

    def _early_legal(self, seat: int) -> list[Action] | None:
        d = self.state.duel
        if not d.reward_queue:
            return None
        earner, kind = d.reward_queue[0]
        if kind == "righteous":   # D-MB-3: draw 2 or +1 Humility, to any Righteous seat
            return [intern_reward(seat, r, to) for r in RIGHTEOUS_BOOSTS for to in self._righteous]
        acts: list[Action] = [intern_reward(seat, r) for r in EVIL_REWARDS]
        if kind == "special":
            allies = [i for i in self._evil if i != seat]
            acts.extend(intern_reward(seat, r, to) for r in EVIL_REWARDS for to in allies)   # D-MR-6
            # D-MR-5: from rules 2 "destroy" is offered on every 5th reward, so that the offer says
            # nothing about Righteous hands; rules 1 offered it only when something could be destroyed
            if self.rules >= 2 or self._destroy_targets() or self._hand_habituals():
                acts.append(intern_reward(seat, "destroy"))
        return acts

    def _late_decider(self) -> int | None:
        d = self.state.duel
        if d is None:
            return None
        if d.evil_window:
            return d.evil_window[0]   # type: ignore[no-any-return]
        if d.answering and d.answer:
            return d.answer[0]   # type: ignore[no-any-return]
        return None

    def _late_legal(self, seat: int) -> list[Action] | None:
        d = self.state.duel
        if d.evil_window:
            return [intern_pass(seat)] + self._threat_plays(seat, self._untapped(seat))
        if d.answering and d.answer:
            free = self._untapped(seat)
            acts: list[Action] = [intern_pass(seat)]
            acts.extend(self._resist_actions(seat, free))
            head = self.state.threats[0]
            if seat == head.target:   # D-INT-2/3: a Resistance card, only in response
                for u in self._playable_cards(seat):
                    if self.defs[u].kind == "resistance" and self._card_resists(u, head.uid, head.resistance):
                        acts.extend(self._play_variants(seat, u, free, head.uid))
            return acts
        return None

    def next_discount(self, seat: int) -> int:
        """What this seat's next threat costs less now: its chain step and its dominance (D-COMBO-1,
        D-DOM-1); ``threat_cost`` for one card."""
        return (self.state.duel.chain_count if self._chain_extends(seat) else 0) + self.dominance(seat)

    def _threat_limit_reached(self, seat: int) -> bool:
        """The threatLimit variant: the seat has played its threats for this turn (D-INT-4 as
        printed sets no limit; ``plays`` counts the seat's cards this turn, and an Evil seat plays
        only threats)."""
        limit = self.settings.threat_limit
        return bool(limit) and self.state.duel.plays[seat] >= limit

    def _why_illegal(self, a: Action) -> tuple[str, str]:
        if isinstance(a, PlayCard) and self.state.seats[a.seat].side == "evil" and self._threat_limit_reached(a.seat):
            return ("threat_limit", f"seat {a.seat} has played its {self.settings.threat_limit} threats this turn "
                                    "(the threatLimit play-test variant)")
        return super()._why_illegal(a)

    def _threat_plays(self, seat: int, free: int) -> list[Action]:
        if self._threat_limit_reached(seat):
            return []
        out: list[Action] = []
        targets = self._righteous
        defs = self.defs
        budget = -1   # free + the seat's discount (D-COMBO-1, D-DOM-1), worked out when a card needs it
        for u in self._playable_cards(seat):
            card = defs[u]
            if card.kind in THREAT_KINDS:
                cost = card.cost
                if cost > free and budget < 0:
                    budget = free + self.next_discount(seat)   # cost - discount <= free
                if cost <= free or cost <= budget:
                    out.extend(intern_threat_plays(seat, u, targets))
        return out

    def _can_threaten(self, seat: int) -> bool:
        """The seat could play a threat now: one costs no more than its untapped cards, or its
        cheapest one no more than its untapped cards and its discount."""
        if self._threat_limit_reached(seat):
            return False
        defs = self.defs
        free = -1
        dearer: list[int] = []   # costs above the untapped count
        for u in self._playable_cards(seat):
            card = defs[u]
            if card.kind in THREAT_KINDS:
                if free < 0:
                    free = self._untapped(seat)
                if card.cost <= free:
                    return True
                dearer.append(card.cost)
        return bool(dearer) and min(dearer) <= free + self.next_discount(seat)

    def _answerable(self) -> list[Threat]:
        d = self.state.duel
        if d is None or not d.answering or not self.state.threats:
            return []
        return [self.state.threats[0]]   # D-INT-4: each answered on its own, in order

    def _benevolence_ok(self, seat: int) -> bool:
        return self.state.seats[seat].maturity >= 2   # Double Resistance only at L2+ in duel

    def _main_plays(self, seat: int, free: int, playable: list[int]) -> list[Action]:
        if self.state.seats[seat].side == "evil":
            return self._threat_plays(seat, free)
        # D-INT-3: no Resistance card on its own in a duel
        return [a for a in super()._main_plays(seat, free, playable)
                if not (isinstance(a, PlayCard) and self.defs[a.card].kind == "resistance")]

    def _held_resists(self, seat: int, free: int) -> list[Action]:
        if self.state.seats[seat].side == "evil":
            return []
        return super()._held_resists(seat, free)

    def _ability_uses(self, seat: int) -> list[Action]:
        if self.state.seats[seat].side == "evil":
            return []
        return super()._ability_uses(seat)

    def _speed_plays(self, seat: int, free: int, playable: list[int]) -> list[Action]:
        if self.state.seats[seat].side == "evil":
            return []
        return super()._speed_plays(seat, free, playable)

    # ------------------------------------------------------------------ doing
    def _do(self, a: Action) -> None:
        d = self.state.duel
        if not (isinstance(a, Pass) and d.evil_window and a.seat == d.evil_window[0]):
            d.quiet = False   # a new moment: Evil may interrupt again after it
        if isinstance(a, ChooseReward):
            self._do_reward(a)
            return
        super()._do(a)

    def _late_pass(self, seat: int) -> bool:
        d = self.state.duel
        if d.evil_window:
            d.evil_window.pop(0)
            return True
        if d.answering and d.answer:
            d.answer.pop(0)
            return True
        return False

    def _do_play(self, a: PlayCard) -> None:
        card = self.defs[a.card]
        if not card.is_threat:
            super()._do_play(a)
            return
        st = self.state
        d = self.state.duel
        assert a.to_seat is not None
        extends = self._chain_extends(a.seat)
        cost = self.threat_cost(a.seat, a.card)
        if not extends:
            d.reset_chain()
        from_cz = a.card in st.seats[a.seat].cost_zone
        self._pay(a.seat, cost, prefer=a.card if from_cz else None)
        self._take_from_play_zone(a.seat, a.card)
        self._emit("played", a.seat, a.card, data={"to_seat": a.to_seat, "cost": cost, "chain": d.chain_count})
        d.chain_count += 1
        d.chain_last = a.seat
        if a.seat not in d.chain_seats:
            d.chain_seats = d.chain_seats + (a.seat,)
        if d.chain_target is None:
            d.chain_target = a.to_seat
        elif d.chain_target != a.to_seat:
            d.chain_mixed = True
        self._play_threat(a.card, a.to_seat, a.seat)
        self._count("threats_played")
        if cost == 0:   # D-COMBO-2: a free play restarts the chain; D-MR-4: a finale if chained down
            if d.chain_count >= 2 and not d.chain_mixed:
                d.finale[a.card] = d.chain_seats
                self._count("finales")
            d.reset_chain()
        elif d.chain_count >= 2:
            self._count("combo_plays")
        self._on_card_played(a.seat, a.card)
        # The Evil side keeps the window: partners first, so they can extend the chain
        d.evil_window = self._evil_window_order(after=a.seat)

    def _evil_window_order(self, after: int | None, skip: int | None = None) -> list[int]:
        """The Evil seats that may play a threat now, in the order they are asked: after ``after``
        (the seat that just played, so partners can extend its chain); ``skip``: a seat left out."""
        evil = self._evil
        if not self.settings.evil_interrupt:   # D-INT-6: only the seat whose turn it is
            evil = tuple(s for s in evil if s == self.turn_seat)
        if after is not None and after in evil:
            i = evil.index(after)
            evil = evil[i + 1:] + evil[:i + 1]
        return [s for s in evil if s != skip and self._can_threaten(s)]

    def _on_card_played(self, seat: int, uid: int) -> None:
        if uid < 0:
            return   # a boost is not a played card
        d = self.state.duel
        st = self.state
        d.plays[seat] += 1
        if st.seats[seat].side == "evil":
            n = d.plays[seat]
            # D-MR-2: every 4th play; the fourPlaysOnce variant: the first 4th only
            if (n == 4) if self.settings.four_plays_once else (n % 4 == 0):
                self._count("mr_four_plays")
                self._earn(seat)
            return
        key = (st.turn_no, self.phase)
        if key != d.phase_key:   # D-MB-1: the tally resets at the start of each phase
            d.phase_key = key
            d.phase_plays = 0
        d.phase_plays += 1
        if d.phase_plays % (3 + len(self._righteous)) == 0:
            self._count("mb_cards_per_phase")
            self._boost(seat)

    # ------------------------------------------------------------------ rewards and boosts
    def _earn(self, seat: int, bonus: bool = False) -> None:
        """Queue an Evil micro-reward; every 5th of the turn is special (D-MR-5); same-turn bonus."""
        d = self.state.duel
        cap = self.settings.reward_cap
        if cap and d.given[seat] >= cap:   # the rewardCap variant: this seat has had its rewards this turn
            self._count("mr_capped")
            return
        d.given[seat] += 1
        d.rewards += 1
        kind = "special" if d.rewards % 5 == 0 else "evil"
        d.reward_queue.append((seat, kind))
        self._count("micro_rewards")
        self._emit("reward_earned", seat, data={"special": kind == "special", "bonus": bonus})
        if bonus:
            return
        d.earned[seat] += 1
        if not self.settings.same_turn_bonus:   # the sameTurnBonus variant off: no D-MR-7 extra
            return
        evil = self._evil
        if len(evil) == 1:   # D-MR-7: a lone Evil seat, 1 extra per 2 earned
            if d.earned[seat] % 2 == 0:
                self._count("mr_same_turn_bonus")
                self._earn(seat, bonus=True)
        else:                # several seats: once 2+ seats earned this turn, each earner gets 1 extra
            earners = [s for s in evil if d.earned[s] > 0]
            if len(earners) >= 2:
                for s in earners:
                    if not d.bonus_given[s]:
                        d.bonus_given[s] = 1
                        self._count("mr_same_turn_bonus")
                        self._earn(s, bonus=True)

    def _boost(self, seat: int) -> None:
        self.state.duel.reward_queue.append((seat, "righteous"))
        self._count("micro_boosts")
        self._emit("boost_earned", seat)

    def _destroy_targets(self) -> list[int]:
        return [u for i in self._righteous for u in self.state.seats[i].in_play]

    def _hand_habituals(self) -> list[int]:
        return [u for i in self._righteous for u in self.state.seats[i].hand
                if self.defs[u].kind == "righteous_habitual"]

    def _do_reward(self, a: ChooseReward) -> None:
        st = self.state
        d = self.state.duel
        d.reward_queue.pop(0)
        to = a.to_seat if a.to_seat is not None else a.seat
        self._emit("reward_taken", a.seat, data={"reward": a.reward, "to_seat": to})
        self._count(f"reward_{a.reward}" if st.seats[a.seat].side == "evil" else f"boost_{a.reward}")
        if a.reward == "draw":
            self._draw(to, 2)
        elif a.reward == "humility":
            self._change_humility(to, 1, None)
        elif a.reward == "untap":
            tapped = [u for u in st.seats[to].cost_zone if u in st.tapped]
            for u in tapped[-2:]:
                st.tapped.discard(u)
        elif a.reward == "flip":   # Z-6: face up, playable, with the play-replace-spent flag
            down = [u for u in st.seats[to].cost_zone if u not in st.face_up]
            for _ in range(min(2, len(down))):
                u = down.pop(st.rng.randbelow(len(down)))
                st.face_up.add(u)
                d.replace_spent.add(u)
                self._emit("flipped", to, u)
        elif a.reward == "destroy":
            targets = self._destroy_targets()
            if targets:
                st.choice = Choice(a.seat, "destroy", targets, 1, 1)
            else:   # DECISION: none in play: one from a Righteous hand, at random
                hand = self._hand_habituals()
                if hand:
                    self._destroy(hand[st.rng.randbelow(len(hand))], a.seat)
                else:   # rules 2: nothing to destroy anywhere: the reward does nothing, and says so
                    self._emit("destroyed_nothing", a.seat)

    def _do_choose(self, seat: int, option: int) -> None:
        c = self.state.choice
        if c is not None and c.purpose == "destroy":
            self.state.choice = None
            self._destroy(option, seat)
            return
        super()._do_choose(seat, option)

    def _destroy(self, uid: int, by: int) -> None:
        """D-MR-5: a Righteous Habitual is removed from the game (to its owner's discard, DECISION)."""
        st = self.state
        for i in self.righteous_seats():
            sd = st.seats[i]
            for zone in (sd.in_play, sd.hand):
                if uid in zone:
                    zone.remove(uid)
                    st.seats[self.owner[uid]].discard.append(uid)
                    self._emit("destroyed", by, uid, data={"from_seat": i})
                    return

    def _on_left_cost_zone(self, seat: int, uid: int) -> None:
        d = self.state.duel
        if uid in d.replace_spent:   # Z-6: draw a spent replacement into the Cost Zone
            d.replace_spent.discard(uid)
            sd = self.state.seats[seat]
            if not sd.deck:
                self._reshuffle(seat)
            if sd.deck:
                new = sd.deck.pop()
                sd.cost_zone.append(new)
                self.state.tapped.add(new)
                self._emit("replaced", seat)

    # ------------------------------------------------------------------ threats answered
    def _mode_flow(self) -> str | None:
        st = self.state
        d = self.state.duel
        if d.reward_queue:
            return "wait"
        self._check_clocks()
        if st.result is not None:
            return "wait"
        if st.threats:
            if d.evil_window:
                return self._window_waits()
            head = st.threats[0]
            if not d.answering or d.answer_head != head.uid:
                d.answering = True
                d.answer_head = head.uid
                d.answer = self._answer_order(head)
            if self._decision_in(d.answer):   # seats with nothing to do but take it are passed
                return "wait"
            st.threats.pop(0)   # nobody resisted: it fails (D-INT-5)
            d.answer_head = None
            self._fail_threat(head, self.turn_seat)
            return "again"
        if d.answering:   # D-COMBO-3: the Righteous side has responded
            d.answering = False
            d.answer = []
            d.reset_chain()
            return "again"
        if d.evil_window:
            return self._window_waits()
        if not d.quiet and st.choice is None and (st.step in ("after_lay", "main") or self._before_laying()):
            d.quiet = True
            window = self._evil_window_order(after=None, skip=self.turn_seat)   # it plays in its own Main phase anyway
            if window:
                d.evil_window = window
                return self._window_waits()
        return None

    def _window_waits(self) -> str:
        """D-INT-1: the first Evil seat of the open window decides (its options kept with the decision)."""
        seat = self.state.duel.evil_window[0]
        self._open_decision(seat, self._options(seat))
        return "wait"

    def _before_laying(self) -> bool:
        """Z-5, D-INT-1 (rules 2): a Righteous seat's Draw phase is over and it has not begun laying
        its Cost Zone: Evil may interrupt now ("before or after, never during")."""
        st = self.state
        if self.rules < 2 or st.step != "lay":
            return False
        sd = st.seats[self.turn_seat]
        return sd.side == "righteous" and sd.laid == 0

    def _answer_order(self, t: Threat) -> list[int]:
        order = [t.target]
        for i in self._turn_order_from(t.target):
            if i != t.target and self.state.seats[i].side == "righteous" and self._may_help(i, t.target):
                order.append(i)
        return order

    def _resist_threat(self, threat: Threat, seat: int, how: str) -> None:
        d = self.state.duel
        target = threat.target
        super()._resist_threat(threat, seat, how)
        d.finale.pop(threat.uid, None)
        d.answer_head = None
        self._count("threats_resisted")
        self._streak(target)

    def _streak(self, seat: int) -> None:
        """D-MB-2: 3 resisted in a turn with no Temptation failed earns a boost."""
        d = self.state.duel
        if d.voided[seat]:
            return
        d.streak[seat] += 1
        if d.streak[seat] % 3 == 0:
            self._count("mb_clean_streak")
            self._boost(seat)

    def _break_held(self, uid: int, by_seat: int, how: str) -> None:
        super()._break_held(uid, by_seat, how)
        if self.state.seats[by_seat].side == "righteous":
            self._streak(by_seat)   # D-MB-2: by any means: paying, a card, or an ability

    def _on_temptation_failed(self, item: StackItem) -> None:
        d = self.state.duel
        target = item.threat if item.threat is not None else self.turn_seat
        if self.rules >= 2:   # D-MB-2: any failed Temptation voids every Righteous seat's streak that turn
            for i in self._righteous:
                d.voided[i] = True
        else:                 # rules 1 read it per seat
            d.voided[target] = True
        self._count("temptations_failed")
        self._after_failed(item)
        d.failed_temptations += 1
        if d.failed_temptations % 3 == 0 and item.by is not None:   # D-MR-3
            self._count("mr_three_failed")
            self._earn(item.by)

    def _on_habitual_took_hold(self, item: StackItem) -> None:
        d = self.state.duel
        self._count("habituals_taken")
        d.r_clock = None   # D-W-R: an Evil Habitual entering play restarts the clean round
        self._after_failed(item)
        by = item.by
        if by is None:
            return
        own = [u for sd in self.state.seats for u in sd.held if self.owner[u] == by and u not in d.flagged]
        if len(own) >= 2:   # D-MR-1: a pair, then spent
            d.flagged.update(own[:2])
            self._count("mr_habitual_pair")
            self._earn(by)

    def _after_failed(self, item: StackItem) -> None:
        seats = self.state.duel.finale.pop(item.uid, None)
        if seats and self.settings.finale_reward:   # D-MR-4 (the finaleReward variant may turn it off)
            self._count("mr_finale")
            for s in seats:
                self._earn(s)

    # ------------------------------------------------------------------ levels, abilities, turns
    def _may_level(self, seat: int) -> bool:
        return self.state.seats[seat].levels_this_turn < 1   # S-6

    def _after_level(self, seat: int) -> None:
        """A-3, A-4: each seat's new level gives it a free ability and recharges the others."""
        st = self.state
        d = self.state.duel
        level = st.seats[seat].maturity
        if level > d.seat_level_rewarded[seat]:
            d.seat_level_rewarded[seat] = level
            if self.settings.mat_abilities:
                for a in ("restoration", "deliverance"):
                    if a in st.abilities:
                        st.charged.add(a)
                if self._free_abilities():
                    st.ability_picks += 1
                    st.ability_chooser = seat

    def _on_turn_start(self, seat: int) -> None:
        d = self.state.duel
        d.reset_chain()   # D-COMBO-3: at the next turn
        d.plays = [0] * len(d.plays)
        d.failed_temptations = 0
        d.rewards = 0
        d.earned = [0] * len(d.earned)
        d.bonus_given = [0] * len(d.bonus_given)
        d.given = [0] * len(d.given)
        d.streak = [0] * len(d.streak)
        d.voided = [False] * len(d.voided)
        d.quiet = False
        for sd in self.state.seats:
            sd.levels_this_turn = 0
        sd = self.state.seats[seat]
        if self.rules >= 3 and sd.side == "evil" and not sd.deck:
            self._refill_evil_seat(seat)
        if self.settings.humility_rollover and sd.humility >= 10 and sd.maturity < 3:
            self._check_rollover(seat)   # S-6/S-7: a level-up that had to wait at 10

    def _refill_evil_seat(self, seat: int) -> None:
        """DECISION (rules 3): an Evil seat that starts its turn with an empty deck shuffles the
        cards it played that lie in the Resisted and Failed piles into a new deck. Only at the start
        of its own turn, so a reward loop cannot feed on it within a turn; the stalemate score
        counts every card that ever entered a pile, so it does not drop (rules 1 and 2: an empty
        Evil deck stayed empty)."""
        st = self.state
        own = self.owner
        cards = [u for u in st.resisted + st.failed if own[u] == seat]
        if not cards:
            return
        mine = set(cards)
        st.resisted = [u for u in st.resisted if u not in mine]
        st.failed = [u for u in st.failed if u not in mine]
        for u in cards:
            st.pile_info.pop(u, None)
        st.rng.shuffle(cards)
        st.seats[seat].deck = cards
        self._emit("evil_deck_refilled", seat, data={"cards": len(cards)})

    def _phase_order(self) -> list[int]:
        return [self.turn_seat]


class DuelGame(DuelRules):
    """A duel (D-*): the duel's hooks over the shared rules and :class:`~.game.Game`'s public face."""

    __slots__ = ()


GAME_CLASSES["duel"] = DuelGame
