"""The move generator: every legal action of the deciding seat, and why any other is refused.

Rules: the decision queue's order (docs/design.md, "The flow"), Z-3 and Z-5
(laying, nothing played meanwhile), P-2..P-7 (what may be played or paid when), CO-5 (resisting in
the Resistance phase), CO-7 (DECISION: Resistance cards and payment against a holding Habitual),
A-1 (Speed plays, ability uses, Benevolence), A-2 (buying after the Cost Zone phase).
"""

from __future__ import annotations

from .actions import (
    CHOICES,
    LAYS,
    Action,
    BuyAbility,
    Choose,
    ChooseAbility,
    LayCostZone,
    Pass,
    PlayCard,
    Resist,
    TakeBoost,
    UseAbility,
    intern_boost,
    intern_buy,
    intern_pass,
    intern_pick,
    intern_resist,
    intern_resists,
)
from .numbers import ABILITIES, ABILITY_PRICE
from .stack import StackRules
from .state import Offer, Threat


class LegalRules(StackRules):
    """The move generator: every legal action of the deciding seat, and why any other is refused."""

    __slots__ = ()

    def _decider(self) -> int | None:
        """The one seat whose decision the game waits for."""
        st = self.state
        if st.result is not None:
            return None
        if st.choice is not None:
            return st.choice.seat
        if st.ability_picks:
            return st.ability_chooser
        early = self.mode.early_decider(self)
        if early is not None:
            return early
        if st.window:
            return st.window[0]
        offer = self._active_offer()
        if offer is not None:
            return offer.controller
        late = self.mode.late_decider(self)
        if late is not None:
            return late
        if st.step in ("lay", "after_lay"):
            return self.turn_seat
        if st.phase_passes:
            return st.phase_passes[0]
        return None

    def _active_offer(self) -> Offer | None:
        st = self.state
        if st.offers and st.offers[-1].depth == len(st.stack) and not st.effects:
            return st.offers[-1]
        return None

    def _open_decision(self, seat: int, legal: list[Action]) -> None:
        """The flow found that ``seat`` decides now, with these options: keep both until the state
        changes (``pending`` and ``apply`` then need not work them out again)."""
        self._legal_cache = (self.state.state_id, seat, legal, True)

    def _legal(self, seat: int) -> list[Action]:
        """Every legal action of ``seat`` (empty unless it is the seat the game waits for)."""
        if self.state.result is not None or seat != self._decider():
            return []
        return self._options(seat)

    def _options(self, seat: int) -> list[Action]:
        """Every legal action of ``seat``, which the caller knows is the deciding seat (the flow asks
        this while it looks for the next decision)."""
        st = self.state
        if st.choice is not None:
            c = st.choice
            acts: list[Action] = list(map(CHOICES[seat].__getitem__, c.options))
            if c.minimum <= 0:
                acts.append(intern_pass(seat))
            return acts
        if st.ability_picks:
            return [intern_pick(seat, a) for a in self._free_abilities()]
        early = self.mode.early_legal(self, seat)
        if early is not None:
            return early
        if st.window:
            acts = [intern_pass(seat)]
            acts.extend(self._instant_plays(seat, self._untapped(seat), self._playable_cards(seat)))
            return acts
        offer = self._active_offer()
        if offer is not None:
            return self._boost_actions(offer)
        late = self.mode.late_legal(self, seat)
        if late is not None:
            return late
        step = st.step
        if step == "lay":
            sd = st.seats[seat]
            acts = [intern_pass(seat)]
            if sd.laid < self._intake(seat):
                acts.extend(map(LAYS[seat].__getitem__, sd.hand))
            return acts
        free = self._untapped(seat)
        acts = [intern_pass(seat)]
        if step == "after_lay":
            if self.settings.mat_abilities and self.mode.can_buy_abilities:
                for a in self.mode.abilities_available():
                    if a not in st.abilities and ABILITY_PRICE[a] <= free:
                        acts.append(intern_buy(seat, a))
            if "speed" in st.abilities:
                acts.extend(self.mode.speed_plays(self, seat, free, self._playable_cards(seat)))
            if st.abilities:
                acts.extend(self.mode.ability_uses(self, seat))
            return acts
        if step == "resistance":
            acts.extend(self._resist_actions(seat, free))
            if seat == self.turn_seat:
                playable = self._playable_cards(seat)
                acts.extend(self._resistance_phase_plays(seat, free, playable))
                if "speed" in st.abilities:
                    acts.extend(self.mode.speed_plays(self, seat, free, playable))
                if st.abilities:
                    acts.extend(self.mode.ability_uses(self, seat))
            return acts
        if step == "main":
            acts.extend(self.mode.main_plays(self, seat, free, self._playable_cards(seat)))
            if st.seats[seat].held:
                acts.extend(self.mode.held_resists(self, seat, free))
            if st.abilities:
                acts.extend(self.mode.ability_uses(self, seat))
            return acts
        return acts

    def _play_variants(self, seat: int, uid: int, free: int, threat: int | None = None) -> tuple[Action, ...]:
        """The PlayCard actions for one card with ``free`` untapped cards (none when it costs more)."""
        _kind, need, acts = self._card_play(seat, uid, threat)
        return acts if need <= free else ()

    def _instant_plays(self, seat: int, free: int, playable: list[int]) -> list[Action]:
        out: list[Action] = []
        plays = self._card_plays[seat]
        for u in playable:
            kind, need, acts = plays.get(u) or self._card_play(seat, u)
            if kind == "instant" and need <= free:
                out.extend(acts)
        return out

    def _speed_ready(self, seat: int) -> bool:
        """Speed (A-1): the seat may still play one Maturity card or Righteous Habitual outside its
        Main phase this turn."""
        st = self.state
        return ("speed" in st.abilities and self.settings.mat_abilities and not st.seats[seat].speed_used
                and seat == self.turn_seat)

    def _speed_plays(self, seat: int, free: int, playable: list[int]) -> list[Action]:
        """The plays Speed allows now (none unless ``_speed_ready``)."""
        if not self._speed_ready(seat):
            return []
        out: list[Action] = []
        plays = self._card_plays[seat]
        for u in playable:
            kind, need, acts = plays.get(u) or self._card_play(seat, u)
            if (kind == "maturity" or kind == "righteous_habitual") and need <= free:
                out.extend(acts)
        return out

    def _main_plays(self, seat: int, free: int, playable: list[int]) -> list[Action]:
        out: list[Action] = []
        held: list[tuple[int, int]] | None = None   # (Habitual, its full resistance), when first needed
        plays = self._card_plays[seat]
        for u in playable:
            kind, need, acts = plays.get(u) or self._card_play(seat, u)
            if need > free:
                continue
            if kind == "resistance":
                if held is None:
                    held = [(h, self._held_resistance(seat, h)) for h in self.state.seats[seat].held]
                for h, resistance in held:   # CO-7 (DECISION): a Resistance card may break a Habitual holding you
                    if self._card_resists(u, h, resistance):
                        out.extend(self._card_play(seat, u, h)[2])
            elif kind in ("maturity", "action", "righteous_habitual", "instant"):
                out.extend(acts)
        return out

    def _resistance_phase_plays(self, seat: int, free: int, playable: list[int]) -> list[Action]:
        out: list[Action] = []
        plays = self._card_plays[seat]
        for u in playable:
            kind, need, acts = plays.get(u) or self._card_play(seat, u)
            if need > free:
                continue
            if kind == "resistance":
                out.extend(acts)   # CO-5: with nothing to resist
                for t in self.state.threats:
                    if t.target == seat and self._card_resists(u, t.uid, t.resistance):
                        out.extend(self._card_play(seat, u, t.uid)[2])
            elif kind == "instant":
                out.extend(acts)
        return out

    def _resist_actions(self, seat: int, free: int) -> list[Action]:
        out: list[Action] = []
        helps: dict[int, int] = {}   # target seat -> its passive resistance discount (Z-1), or -1: may not help
        for t in self.mode.answerable(self):
            target = t.target
            discount = helps.get(target)
            if discount is None:
                if seat == target or self._may_help(seat, target):
                    discount = self._discount(target)
                else:
                    discount = -1
                helps[target] = discount
            if discount < 0:
                continue
            rem = t.resistance - discount - t.paid   # what _remaining(t) gives, when above 0
            if rem <= 0:
                if seat == target:
                    out.append(intern_resist(seat, t.uid, 0))
                continue
            out.extend(intern_resists(seat, t.uid, min(free, rem)))
        return out

    def _held_resists(self, seat: int, free: int) -> list[Action]:
        """CO-7 (DECISION): on your Main phase, pay a holding Habitual's full resistance to break it."""
        out: list[Action] = []
        for h in self.state.seats[seat].held:
            cost = self._held_resistance(seat, h)
            if cost <= free:
                out.append(intern_resist(seat, h, cost))
        return out

    def _boost_actions(self, offer: Offer) -> list[Action]:
        card = self.defs[offer.uid]
        seat = offer.controller
        out: list[Action] = [intern_pass(seat)]
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
                        out.append(intern_boost(seat, i, payer, m))
                else:
                    out.append(intern_boost(seat, i, payer))
        return out

    def _payers(self, seat: int, glyph: str) -> tuple[int, ...]:
        """P-3: who may pay a boost with this glyph."""
        if glyph == "you":
            return (seat,)
        if glyph == "teammate":
            return self._teammates(seat) or (seat,)   # P-7: in solo you pay, with the fee
        return self._righteous

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
            fee = self._target_change_fee(a.seat, card)
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
