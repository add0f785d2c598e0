"""A sensible Righteous bot: grows Maturity, resists what it can afford, uses abilities.

It reads only its seat's view and the legal actions. Its rules of thumb, in order of weight:
Evil Habituals are always worth resisting (they block the win and keep hurting); Maturity cards
are played as soon as they are affordable; Cost left over after that resists Temptations; spare
Cost of seats whose turn it is not pays boosts and instants (it untaps before they need it).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping

from ..cards.loader import CardSet
from ..cards.model import CardDef
from ..engine.actions import (
    Action, BuyAbility, Choose, ChooseAbility, ChooseReward, LayCostZone, Pass, PlayCard, Resist, TakeBoost,
    UseAbility,
)
from ..engine.seatview import SeatView
from .base import Bot

ABILITY_PRIORITY = ("deliverance", "benevolence", "speed", "cost_zone_power", "restoration", "vibrancy",
                    "foresight", "brotherly_love")
KIND_KEEP = {"maturity": 10, "righteous_habitual": 6, "resistance": 5, "instant": 3, "action": 3}


@dataclass(frozen=True)
class Knobs:
    """The Righteous rules of thumb as numbers. The defaults are the heuristic bot's own; other
    values are for the lab to try (``python -m christianity_game.bots.tune_knobs`` searches them).

    - ``tempt_keep``: Cost a seat keeps untapped after paying off a Temptation (for the Habituals
      that may follow), on top of the Cost its cheapest Maturity card needs;
    - ``humility_floor``: at this Humility or less a Temptation is paid off whatever it leaves;
    - ``card_slack``: a Resistance card answers a threat when it costs less than the threat's
      resistance plus this (or the seat cannot pay the threat);
    - ``main_keep``: on its own turn a seat spends Cost on Righteous Habituals and Actions only down
      to this many untapped (a threat may come before its Cost untaps again);
    - ``lay_*``: a card goes to the Cost Zone when its keep value is under ``lay_small`` while the
      zone has fewer than ``lay_cz1`` cards, ``lay_mid`` under ``lay_cz2``, ``lay_big`` after;
    - ``respond_keep``: spare Cost a seat needs on its own turn to answer a card on the stack;
    - ``ability_margin``: untapped Cost beyond an ability's price before buying it;
    - ``thin_hand``: a Righteous micro-boost draws for a seat with this many cards or fewer.
    """

    tempt_keep: int = 0
    humility_floor: int = 1
    card_slack: int = 0
    main_keep: int = 0
    lay_small: float = 9.5
    lay_cz1: int = 7
    lay_mid: float = 4.5
    lay_cz2: int = 11
    lay_big: float = 3.2
    respond_keep: int = 2
    ability_margin: int = 4
    thin_hand: int = 2

    def __repr__(self) -> str:
        changed = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                   if getattr(self, f.name) != f.default]
        return f"Knobs({', '.join(changed)})"


DEFAULT_KNOBS = Knobs()


class HeuristicBot(Bot):
    """Rules of thumb for Righteous seats (see the module docstring)."""

    name = "heuristic"

    def __init__(self, seed: int = 0, cards: CardSet | None = None, knobs: Knobs = DEFAULT_KNOBS,
                 duel_knobs: Knobs | None = None) -> None:
        super().__init__(seed, cards)
        self.knobs = knobs              # co-op and solo (and the duel, unless duel_knobs)
        self.duel_knobs = duel_knobs or knobs
        self.k = knobs                  # the set of the decision being made
        self._keep_cache: dict[tuple[str, bool], float] = {}   # _keep_value by (card id, at L3)

    # ------------------------------------------------------------------ helpers
    def _def(self, card_id: str) -> CardDef:
        return self.cards.cards[card_id]

    def _uid_ids(self, view: Mapping[str, Any]) -> Mapping[int, str]:
        """uid -> card id of every card the view shows in the zones, threats, stack, field and choice."""
        if isinstance(view, SeatView):
            return view.card_ids()
        ids: dict[int, str] = {}
        for seat in view["seats"]:
            for zone in ("hand", "cost_zone", "in_play", "held", "discard"):
                for c in seat[zone]:
                    if "uid" in c:
                        ids[c["uid"]] = c["id"]
        for zone in ("threats", "stack", "field"):
            for c in view[zone]:
                ids[c["uid"]] = c["id"]
        if view.get("choice"):
            for c in view["choice"]["options"]:
                ids[c["uid"]] = c["id"]
        return ids

    def _keep_value(self, card: CardDef, me: Mapping[str, Any]) -> float:
        """How much a card in hand is worth keeping (worked out once per card and L3 or not)."""
        key = (card.id, me["maturity"] >= 3)
        cache = self._keep_cache
        value = cache.get(key)
        if value is None:
            value = float(KIND_KEEP.get(card.kind, 2))
            if card.kind == "maturity" and key[1]:
                value = 2
            for e in card.effects:
                if e.op == "humility" and e.amount > 0:
                    value += 0.5 * e.amount
                if e.op == "draw":
                    value += 0.5 * e.count
            value = cache[key] = value - 0.1 * card.cost
        return value

    def _reserve(self, view: Mapping[str, Any], me: Mapping[str, Any], ids: Mapping[int, str]) -> int:
        """Cost to keep for playing the cheapest Maturity card in hand this turn."""
        if me["maturity"] >= 3 or view["turn_seat"] != view["viewer"]:
            return 0
        costs = [self._def(c["id"]).cost for c in me["hand"] if "id" in c and self._def(c["id"]).kind == "maturity"]
        return min(costs) if costs else 0

    def _mate_pick(self, view: Mapping[str, Any], seats: list[int]) -> int:
        return min(seats, key=lambda s: (view["seats"][s]["humility"], s))

    # ------------------------------------------------------------------ choose
    def choose(self, view: Mapping[str, Any], actions: list[Action]) -> Action:
        if len(actions) == 1:
            return actions[0]
        ids = self._uid_ids(view)
        me = view["seats"][view["viewer"]]
        self.k = self.duel_knobs if view.get("duel") else self.knobs
        kinds = set(map(type, actions))   # which kinds of decision this is (action classes are final)
        if Choose in kinds:
            return self._choice(view, actions, ids, me)
        if ChooseReward in kinds:
            return self._reward(view, [a for a in actions if isinstance(a, ChooseReward)], me)
        if me["side"] == "evil":
            return self._evil(view, actions, ids, me)
        if ChooseAbility in kinds:
            return self._pick_ability([a for a in actions if isinstance(a, ChooseAbility)])
        if LayCostZone in kinds:
            return self._lay(view, actions, ids, me)
        if TakeBoost in kinds:
            return self._boost(view, actions, ids, me)
        if view["stack"]:
            return self._respond(view, actions, ids, me)
        duel = view.get("duel")
        if duel and duel["answering"]:
            return self._resistance(view, actions, ids, me)
        phase = view["phase"]
        if phase == "cost_zone":
            return self._after_lay(view, actions, ids, me)
        if phase == "resistance":
            return self._resistance(view, actions, ids, me)
        if phase == "main":
            return self._main(view, actions, ids, me)
        return self._pass(actions)

    def _pass(self, actions: list[Action]) -> Action:
        for a in actions:
            if isinstance(a, Pass):
                return a
        return actions[0]

    def _pick_ability(self, actions: list[ChooseAbility]) -> Action:
        by_name = {a.ability: a for a in actions}
        for name in ABILITY_PRIORITY:
            if name in by_name:
                return by_name[name]
        return actions[0]

    def _choice(self, view: Mapping[str, Any], actions: list[Action], ids: Mapping[int, str], me: Mapping[str, Any]) -> Action:
        choice = view.get("choice") or {}
        purpose = choice.get("purpose")
        options = [a for a in actions if isinstance(a, Choose)]
        if purpose == "search":
            want = "maturity" if me["maturity"] < 3 else "resistance"
            for a in options:
                if self._def(ids[a.option]).kind == want:
                    return a
            return options[0]
        if purpose == "deliverance":
            mine = {c["uid"] for c in me["held"]}
            options.sort(key=lambda a: (a.option not in mine, a.option))
            return options[0]
        # overflow / discard: give up the least useful card; keep the Cost Zone (it pays every turn)
        hand = {c["uid"] for c in me["hand"]}
        in_hand = [a for a in options if a.option in hand]
        if in_hand:
            return min(in_hand, key=lambda a: self._keep_value(self._def(ids[a.option]), me))
        tapped = {c["uid"] for c in me["cost_zone"] if c.get("tapped")}
        options.sort(key=lambda a: (a.option not in tapped, a.option))
        return options[0]

    def _lay(self, view: Mapping[str, Any], actions: list[Action], ids: Mapping[int, str], me: Mapping[str, Any]) -> Action:
        lays = [a for a in actions if isinstance(a, LayCostZone)]
        cz = len(me["cost_zone"])
        defs = self.cards.cards
        hand_defs = {a.card: defs[ids[a.card]] for a in lays}
        maturity_in_hand = sum(1 for d in hand_defs.values() if d.kind == "maturity")
        # A small Cost Zone is the first need; later, lay only what is not worth keeping.
        k = self.k
        threshold = k.lay_small if cz < k.lay_cz1 else k.lay_mid if cz < k.lay_cz2 else k.lay_big
        best = min(lays, key=lambda a: self._keep_value(hand_defs[a.card], me))
        card = hand_defs[best.card]
        value = self._keep_value(card, me)
        if card.kind == "maturity" and maturity_in_hand <= 2 and me["maturity"] < 3:
            return self._pass(actions)
        if value < threshold or len(lays) > 6:
            return best
        return self._pass(actions)

    def _after_lay(self, view: Mapping[str, Any], actions: list[Action], ids: Mapping[int, str], me: Mapping[str, Any]) -> Action:
        buys = {a.ability: a for a in actions if isinstance(a, BuyAbility)}
        for name in ABILITY_PRIORITY[:5]:
            a = buys.get(name)
            if a is not None and me["untapped"] >= (11 if name in ("deliverance", "benevolence", "restoration") else 7) \
                    + self.k.ability_margin:
                return a
        return self._pass(actions)

    def _resistance(self, view: Mapping[str, Any], actions: list[Action], ids: Mapping[int, str], me: Mapping[str, Any]) -> Action:
        seat = view["viewer"]
        threats = {t["uid"]: t for t in view["threats"]}
        reserve = self._reserve(view, me, ids)
        untapped = me["untapped"]
        # Resistance cards first (cheaper than paying), most dangerous threat first
        card_plays = [a for a in actions if isinstance(a, PlayCard) and a.threat is not None]
        order = sorted(threats.values(), key=lambda t: (not (self._def(t["id"]).kind == "evil_habitual" or t.get("finale")),
                                                        -t["remaining"]))
        for t in order:
            if t["target"] != seat:
                continue
            plays = [a for a in card_plays if a.threat == t["uid"]]
            if plays:
                best = min(plays, key=lambda a: self._def(ids[a.card]).cost)
                if self._def(ids[best.card]).cost < t["remaining"] + self.k.card_slack or t["remaining"] > untapped:
                    return best
            full = [a for a in actions if isinstance(a, Resist) and a.threat == t["uid"] and a.amount == t["remaining"]]
            if full:
                habitual = self._def(t["id"]).kind == "evil_habitual" or bool(t.get("finale"))
                if habitual or untapped - t["remaining"] >= reserve + self.k.tempt_keep \
                        or me["humility"] <= self.k.humility_floor:
                    return full[0]
        # Benevolence: help a teammate with a Habitual they cannot pay alone
        for t in order:
            if t["target"] == seat or self._def(t["id"]).kind != "evil_habitual":
                continue
            target_free = view["seats"][t["target"]]["untapped"]
            need = t["remaining"] - target_free
            helps = [a for a in actions if isinstance(a, Resist) and a.threat == t["uid"]]
            if need > 0 and helps:
                amount = min(need, max(a.amount for a in helps))
                for a in helps:
                    if a.amount == amount:
                        return a
        return self._pass(actions)

    def _main(self, view: Mapping[str, Any], actions: list[Action], ids: Mapping[int, str], me: Mapping[str, Any]) -> Action:
        plays = [a for a in actions if isinstance(a, PlayCard)]
        untapped = me["untapped"]
        if me["maturity"] < 3:
            mats = [a for a in plays if self._def(ids[a.card]).kind == "maturity"]
            if mats:
                return self._with_mate(view, min(mats, key=lambda a: self._def(ids[a.card]).cost), plays)
        breaks = [a for a in plays if a.threat is not None]
        if breaks:
            return breaks[0]
        held_resists = [a for a in actions if isinstance(a, Resist)]
        if held_resists:
            return min(held_resists, key=lambda a: a.amount)
        uses = {a.ability: a for a in actions if isinstance(a, UseAbility)}
        in_play = sum(len(s["held"]) for s in view["seats"]) + len(view["field"])
        all_l3 = all(s["maturity"] >= 3 for s in view["seats"] if s["side"] == "righteous")
        last_round = view.get("max_rounds") is not None and view["round"] >= view["max_rounds"]
        if "deliverance" in uses and (in_play >= 3 or (all_l3 and in_play) or (last_round and in_play)):
            return uses["deliverance"]
        if "restoration" in uses and me["deck_size"] < 10:
            return uses["restoration"]
        for kind in ("righteous_habitual", "action"):
            options = [a for a in plays if self._def(ids[a.card]).kind == kind]
            if options:
                best = max(options, key=lambda a: self._keep_value(self._def(ids[a.card]), me))
                if self._def(ids[best.card]).cost <= untapped - self.k.main_keep:
                    return self._with_mate(view, best, plays)
        return self._pass(actions)

    def _with_mate(self, view: Mapping[str, Any], chosen: PlayCard, plays: list[PlayCard]) -> Action:
        variants = [a for a in plays if a.card == chosen.card and a.threat == chosen.threat]
        if len(variants) > 1:
            best_mate = self._mate_pick(view, [a.to_seat for a in variants if a.to_seat is not None])
            for a in variants:
                if a.to_seat == best_mate:
                    return a
        return chosen

    def _boost(self, view: Mapping[str, Any], actions: list[Action], ids: Mapping[int, str], me: Mapping[str, Any]) -> Action:
        boosts = [a for a in actions if isinstance(a, TakeBoost)]
        turn_seat = view["turn_seat"]
        reserve = self._reserve(view, me, ids)
        stack_card = None
        for b in boosts:
            payer = view["seats"][b.payer]
            if b.payer == turn_seat:
                cost_left = payer["untapped"] - reserve
                if cost_left < 1 or view["phase"] not in ("main",):
                    continue
            # prefer payers whose turn it is not: their Cost untaps before they need it
            stack_card = b if stack_card is None or (stack_card.payer == turn_seat and b.payer != turn_seat) else stack_card
        if stack_card is not None:
            if stack_card.to_seat is not None:
                mates = [b.to_seat for b in boosts if b.index == stack_card.index and b.payer == stack_card.payer
                         and b.to_seat is not None]
                best = self._mate_pick(view, mates)
                for b in boosts:
                    if b.index == stack_card.index and b.payer == stack_card.payer and b.to_seat == best:
                        return b
            return stack_card
        return self._pass(actions)

    def _respond(self, view: Mapping[str, Any], actions: list[Action], ids: Mapping[int, str], me: Mapping[str, Any]) -> Action:
        plays = [a for a in actions if isinstance(a, PlayCard)]
        if plays and (view["turn_seat"] != view["viewer"]
                      or me["untapped"] - self._reserve(view, me, ids) >= self.k.respond_keep):
            return self._with_mate(view, plays[0], plays)
        return self._pass(actions)

    # ------------------------------------------------------------------ duel
    def _reward(self, view: Mapping[str, Any], actions: list[ChooseReward], me: Mapping[str, Any]) -> Action:
        by = {(a.reward, a.to_seat): a for a in actions}
        seat = view["viewer"]
        if me["side"] == "righteous":   # D-MB-3: draw for a thin hand, else Humility toward a level
            seats = [s for s in view["seats"] if s["side"] == "righteous"]
            thin = min(seats, key=lambda s: (s["hand_size"], s["seat"]))
            if thin["hand_size"] <= self.k.thin_hand and ("draw", thin["seat"]) in by:
                return by[("draw", thin["seat"])]
            climbing = [s for s in seats if s["maturity"] < 3] or seats
            best = max(climbing, key=lambda s: (s["humility"], -s["seat"]))
            return by.get(("humility", best["seat"]), actions[0])
        if ("destroy", None) in by:
            return by[("destroy", None)]
        tapped = sum(1 for c in me["cost_zone"] if c.get("tapped"))
        if tapped >= 2 and me["hand_size"] >= 2:
            return by.get(("untap", None), actions[0])
        if me["hand_size"] <= 3:
            return by.get(("draw", None), actions[0])
        return by.get(("flip", None), actions[0])

    def _evil(self, view: Mapping[str, Any], actions: list[Action], ids: Mapping[int, str], me: Mapping[str, Any]) -> Action:
        """Evil: make threats stick. Aim where the target cannot pay, chain toward a free finale,
        land Habituals (dominance, pairs, the 7-Habitual win), and keep cards rather than waste them."""
        duel = view.get("duel") or {}
        # under a round's threat allowance (roundThreats) Habituals, not Cost, are what run short
        budget = duel.get("round_threats_left") is not None
        lays = [a for a in actions if isinstance(a, LayCostZone)]
        if lays:
            if len(lays) > 4 or len(me["cost_zone"]) < 4:
                # Temptations go to the Cost Zone before Habituals: a Habitual laid there is one
                # fewer toward the Evil win (D-W-E), and a Cost Zone card pays 1 whatever it is
                # (docs/decisions.md, "The heuristic Evil keeps its Habituals")
                return max(lays, key=lambda a: (self._def(ids[a.card]).kind != "evil_habitual",
                                                self._def(ids[a.card]).cost, a.card))
            return self._pass(actions)
        plays = [a for a in actions if isinstance(a, PlayCard)]
        if not plays:
            return self._pass(actions)
        seat = view["viewer"]
        chain = duel.get("chain", {})
        discounts = duel.get("next_discount", {})
        discount = int(discounts.get(str(seat), 0))
        seats = view["seats"]

        def cost(a: PlayCard) -> int:
            return max(0, self._def(ids[a.card]).cost - discount)

        def resistance(a: PlayCard) -> int:
            card = self._def(ids[a.card])
            t = seats[a.to_seat or 0]
            if card.x_rule is None:
                return card.resistance or 0
            base: int = {"target_hand": t["hand_size"], "target_cost_zone": len(t["cost_zone"]),
                         "target_maturity": t["maturity"], "target_humility": t["humility"],
                         "held_habituals": len(t["held"])}.get(card.x_rule.of, 0)
            return max(0, base + card.x_rule.plus)

        habituals = [a for a in plays if self._def(ids[a.card]).kind == "evil_habitual"]

        def drains_for_habitual(a: PlayCard) -> bool:
            """Paying this one would leave the target short for a Habitual we can still afford."""
            t = seats[a.to_seat or 0]
            left = t["untapped"] - resistance(a)
            return any(h.to_seat == a.to_seat and h.card != a.card and left < resistance(h)
                       and me["untapped"] - cost(a) >= cost(h) for h in habituals)

        def score(a: PlayCard) -> float:
            card = self._def(ids[a.card])
            t = seats[a.to_seat or 0]
            sticks = t["untapped"] < resistance(a)
            value = 0.0
            if card.kind == "evil_habitual":
                # held until it can stick; under a round's threat allowance (roundThreats) a slot
                # spent on a Temptation is a Habitual not played, so a Habitual goes first
                value += 10 if sticks else (5.5 if budget else 0.5)
            else:
                value += 5 if sticks else (4.6 if drains_for_habitual(a) else 1)
            if chain.get("count") and cost(a) == 0 and chain.get("single_target", True) \
                    and a.to_seat == chain.get("target"):
                value += 6   # the free finale
            if t["maturity"] >= 2:
                value += 1   # slow down the seat closest to the win
            return value - 0.2 * cost(a)

        best = max(plays, key=lambda a: (score(a), a.card, -(a.to_seat or 0)))
        # With the interrupt on, keep Cost on your own turn for the Righteous turn: threats that land
        # after the target has spent its Cost stick. Only sure hits are played now.
        interrupt = view.get("settings", {}).get("evil_interrupt", False)
        if interrupt and view["turn_seat"] == seat and score(best) < 4.5:
            return self._pass(actions)
        # Hold a Temptation that would only be paid off while a Habitual waits for a better moment;
        # otherwise keep up the pressure: every threat costs the target Cost or Humility.
        if score(best) < 2 and habituals and me["untapped"] < 2 * max(cost(h) for h in habituals):
            return self._pass(actions)
        if self._def(ids[best.card]).kind == "evil_habitual" and score(best) < 4.5 and not budget:
            return self._pass(actions)   # a Habitual that would only be paid off waits for its moment
        return best


def rollout(world: Any, policy: HeuristicBot, decisions: int, horizon: int, stop_turn: int | None = None) -> int:
    """Play ``policy`` for every seat of ``world`` (a sampled world a search owns: moves are applied
    unchecked) until the game ends or ``horizon`` decisions have been made, counting from
    ``decisions`` already made; forced moves (one legal action) are not decisions. With
    ``stop_turn``, also until the turn of that number starts (every rollout of a search then
    stops at the same point of the round). Returns the decisions made in all: the search bots'
    rollout, in one place."""
    while decisions < horizon and (stop_turn is None or world.state.turn_no < stop_turn):
        pending = world.pending
        if not pending:
            break
        seat, actions = pending[0]
        if len(actions) == 1:
            world.apply_unchecked(actions[0])
            continue
        world.apply_unchecked(policy.choose(world.seat_view(seat), actions))
        decisions += 1
    return decisions
