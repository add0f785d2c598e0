"""The turn and phase machine and the decision queue: what happens next, and who decides.

``_advance`` runs every automatic step until a decision waits; seats whose only option is to pass
are passed for them. Rules: CO-1 (seat order, rounds), CO-2 and D-TURN-2 (the phases of a turn),
CO-3 (draws), Z-2 (DECISION: untap at the start of your turn), Z-3 (the Cost Zone phase), P-4 and
P-6 (response windows close when all entitled have passed), A-1 (Cost Zone Power, Foresight).
"""

from __future__ import annotations

from .actions import (
    Action,
    BuyAbility,
    Choose,
    ChooseAbility,
    IllegalAction,
    LayCostZone,
    Pass,
    PlayCard,
    Resist,
    TakeBoost,
    UseAbility,
)
from .numbers import ABILITY_PRICE
from .state import Offer, StackItem, Threat
from .abilities import free_abilities, gain_ability, may_help, use_ability
from .badges import change_humility, discard, draw
from .base import GameBase
from .coop import evil_phase
from .costs import flip_random, pay
from .effects import run_effect
from .legal import active_offer, boost_actions, open_decision, options
from .stack import do_boost, do_resist, push, resolve


def do(game: GameBase, a: Action) -> None:
    st = game.state
    kind = type(a)   # action classes are final: the common kinds by type first
    if kind is Pass:
        do_pass(game, a.seat)
    elif kind is LayCostZone:
        assert isinstance(a, LayCostZone)
        sd = st.seats[a.seat]
        sd.hand.remove(a.card)
        sd.cost_zone.append(a.card)
        sd.laid += 1
        game._emit("laid", a.seat)
    elif isinstance(a, Choose):
        game.mode.do_choose(game, a.seat, a.option)
    elif isinstance(a, PlayCard):
        game.mode.do_play(game, a)
        reset_phase_passes(game)
    elif isinstance(a, Resist):
        do_resist(game, a)
        reset_phase_passes(game)
    elif isinstance(a, TakeBoost):
        do_boost(game, a)
    elif isinstance(a, ChooseAbility):
        st.ability_picks -= 1
        gain_ability(game, a.ability, a.seat, "chosen")
    elif isinstance(a, BuyAbility):
        pay(game, a.seat, ABILITY_PRICE[a.ability])
        gain_ability(game, a.ability, a.seat, "bought")
    elif isinstance(a, UseAbility):
        use_ability(game, a)
        reset_phase_passes(game)
    else:  # pragma: no cover - every listed action type is handled above
        raise IllegalAction("not_legal", f"unhandled action {a!r}")


def reset_phase_passes(game: GameBase) -> None:
    st = game.state
    if st.step in ("resistance", "main"):
        st.phase_passes = game.mode.phase_order(game)


def phase_order(game: GameBase) -> list[int]:
    st = game.state
    active = game.turn_seat
    order = [active]
    if st.step == "resistance" and st.threats:
        for i in game._turn_order_from(active):
            if i != active and may_help(game, i, active) and game._untapped(i) > 0:
                order.append(i)
    return order


def do_pass(game: GameBase, seat: int) -> None:
    st = game.state
    if st.choice is not None:
        finish_choice(game)
        return
    if st.window:
        st.window.pop(0)
        return
    offer = active_offer(game)
    if offer is not None:
        st.offers.pop()
        if offer.fast and st.stack and st.stack[-1].uid == offer.uid:
            st.stack[-1].fast_done = True
        return
    if game.mode.late_pass(game, seat):
        return
    if st.step == "lay":
        st.step = "after_lay"
        if game.settings.mat_abilities and "vibrancy" in st.abilities:
            flip_random(game, seat, 2)   # Vibrancy: DECISION random face-down cards
        return
    if st.step == "after_lay":
        enter_step(game, next_step(game, "after_lay"))
        return
    if st.phase_passes:
        st.phase_passes.pop(0)


def enter_step(game: GameBase, step: str) -> None:
    st = game.state
    st.step = step
    if step == "main":
        st.phase_passes = [game.turn_seat]
        game._emit("phase", game.turn_seat, data={"phase": "main"})
    on_phase_change(game)


def on_phase_change(game: GameBase) -> None:
    """Hook: duel micro-boost tallies reset each phase (D-MB-1)."""


def next_step(game: GameBase, step: str) -> str:
    steps = game.mode.steps
    return steps[steps.index(step) + 1]


def do_choose(game: GameBase, seat: int, option: int) -> None:
    st = game.state
    c = st.choice
    assert c is not None
    c.options.remove(option)
    c.count -= 1
    c.minimum -= 1
    if c.purpose in ("overflow", "discard"):
        discard(game, seat, option, overflow=c.purpose == "overflow")
    elif c.purpose == "search":
        sd = st.seats[seat]
        sd.deck.remove(option)
        sd.hand.append(option)
        game._emit("found", seat, option, private_to=seat)
    elif c.purpose == "deliverance":
        game.mode.break_held(game, option, seat, "deliverance")
    if c.count <= 0 or not c.options:
        finish_choice(game)


def finish_choice(game: GameBase) -> None:
    st = game.state
    c = st.choice
    st.choice = None
    if c is not None and c.purpose == "search":
        st.rng.shuffle(st.seats[c.seat].deck)


def advance(game: GameBase) -> None:
    """Run automatic steps until a decision is needed or the game is over."""
    st = game.state
    guard = 0
    while st.result is None:
        guard += 1
        if guard > 100000:  # pragma: no cover - a flow bug, never a game state
            raise RuntimeError("the game flow did not reach a decision")
        if st.choice is not None:
            return
        if st.effects:
            effect, ctx = st.effects.pop(0)
            run_effect(game, effect, ctx)
            continue
        if st.ability_picks:
            if game.settings.mat_abilities and free_abilities(game):
                return
            st.ability_picks = 0
            continue
        if game.mode.early_decider(game) is not None:
            return
        if st.window:
            return
        offers = st.offers
        if offers and offers[-1].depth == len(st.stack):   # the active offer (no effect waits here)
            offer = offers[-1]
            if len(boost_actions(game, offer)) > 1:
                return
            do_pass(game, offer.controller)
            continue
        if not st.stack:
            flow = game.mode.mode_flow(game)
            if flow == "wait":
                return
            if flow == "again":
                continue
        if st.stack:
            top = st.stack[-1]
            if top.kind == "card" and not top.fast_done:
                top.fast_done = True
                if any(b.fast for b in game.defs[top.uid].boosts):
                    st.offers.append(Offer(top.uid, top.controller, True, len(st.stack), top.to_seat))
                continue
            st.stack.pop()
            resolve(game, top)
            continue
        if flow_step(game):
            return


def flow_step(game: GameBase) -> bool:
    """Advance the turn's steps. True when a decision is now waiting."""
    st = game.state
    step = st.step
    seat = game.turn_seat
    if step == "turn_start":
        start_turn(game)
        if st.result is None and st.step == "turn_start":
            st.step = "draw"
        return False
    if step == "draw":
        draw(game, seat, max(0, game.mode.draw_count(game, seat)
                              + game._passive_total(seat, "draw")))
        st.step = "lay"
        on_cost_zone_phase(game, seat)
        return False
    if step == "lay":   # Z-3: the turn seat lays its Cost Zone (its only decision until it passes)
        open_decision(game, seat, options(game, seat))
        return True
    if step == "after_lay":
        legal = options(game, seat)
        if len(legal) > 1:
            open_decision(game, seat, legal)
            return True
        enter_step(game, next_step(game, "after_lay"))   # nothing to do but pass: move on
        return False
    if step == "evil":
        evil_phase(game, seat)
        st.step = "resistance"
        st.phase_passes = game.mode.phase_order(game)
        game._emit("phase", seat, data={"phase": "resistance"})
        return False
    if step == "resistance":
        if phase_decision_waits(game):
            return True
        st.step = "fail"
        return False
    if step == "fail":
        if st.threats:   # CO-6: unresisted threats fail, in the order they were played
            fail_threat(game, st.threats.pop(0), seat)
            return False
        enter_step(game, "main")
        return False
    if step == "main":
        if phase_decision_waits(game):
            return True
        st.step = "end"
        return False
    if step == "end":
        end_turn(game, seat)
        return False
    return True  # pragma: no cover


def phase_decision_waits(game: GameBase) -> bool:
    """Skip seats whose only choice in the phase is to pass; True when someone must decide."""
    return decision_in(game, game.state.phase_passes)


def decision_in(game: GameBase, queue: list[int]) -> bool:
    """Pass for the seats at the head of ``queue`` whose only option is to pass; True when the
    seat now at its head must decide (its options kept with the decision)."""
    while queue:
        seat = queue[0]
        legal = options(game, seat)
        if len(legal) > 1:
            open_decision(game, seat, legal)
            return True
        queue.pop(0)
    return False


def fail_threat(game: GameBase, t: Threat, controller: int) -> None:
    """CO-6, D-INT-5: an unresisted threat fails: it goes on the stack to take its effect."""
    item = StackItem("threat", t.uid, controller, None, t.target)
    item.by = t.by
    game._emit("failed", t.target, t.uid)
    push(game, item)


def on_cost_zone_phase(game: GameBase, seat: int) -> None:
    st = game.state
    game._emit("phase", seat, data={"phase": "cost_zone"})
    if game.settings.mat_abilities and "foresight" in st.abilities:
        n = game.mode.evil_plays(game, seat)
        st.foresight = st.evil_deck[-n:][::-1]
        game._emit("revealed", seat, data={"foresight": [game.defs[u].id for u in st.foresight]})


def start_turn(game: GameBase) -> None:
    st = game.state
    seat = game.turn_seat
    st.turn_no += 1
    sd = st.seats[seat]
    game.mode.judge_at_turn_start(game, seat)
    if st.result is not None:
        return
    game._emit("turn_started", seat, data={"round": st.round, "turn": st.turn_no})
    for other in st.seats:
        other.gained = 0
    sd.levels_this_turn = 0
    sd.speed_used = False
    sd.laid = 0
    for u in sd.cost_zone:   # Z-2 (DECISION): untap the whole Cost Zone
        st.tapped.discard(u)
    game.mode.on_turn_start(game, seat)
    for u in game._passive_cards(seat):
        up = game.defs[u].passive.upkeep_humility
        if up:
            change_humility(game, seat, up, u)


def end_turn(game: GameBase, seat: int) -> None:
    st = game.state
    sd = st.seats[seat]
    if game.settings.mat_abilities and "cost_zone_power" in st.abilities and sd.gained >= 3 and sd.deck:
        sd.cost_zone.append(sd.deck.pop())   # Cost Zone Power
        game._emit("cost_zone_power", seat)
    st.foresight = []
    sd.love_to = sd.love_to  # Brotherly Love lasts until the next card
    next_turn(game)


def next_turn(game: GameBase) -> None:
    st = game.state
    st.turn_index += 1
    if st.turn_index >= len(game._order):
        st.turn_index = 0
        st.round += 1
    st.step = "turn_start"

