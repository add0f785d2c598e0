"""Duel mode (beta): people on both sides (docs/rules.md, section D).

Rules: D-INT-1..6 (Evil at instant speed, answers, Resistance only in response), D-COMBO-1..4,
D-DOM-1..3, D-MR-1..7 (Evil micro-rewards), D-MB-1..3 (Righteous micro-boosts), A-3 and A-4 (a
free ability per seat level), S-6 (one level a turn). Seats, turn order and draws are the mode's
hooks (:mod:`.modes`); the win clocks and the turn cap are in :mod:`.duel_clocks`.

The duel's rules are functions of the game, reached through the duel's hooks
(:class:`~.duel_mode.DuelMode`, listed in :data:`~.modes.MODES`): Evil
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

from ..cards.model import THREAT_KINDS
from .actions import Action, ChooseReward, Pass, PlayCard, intern_pass, intern_reward, intern_threat_plays
from .duel_clocks import check_clocks
from .duel_rewards import boost, count, destroy, destroy_targets, do_reward, earn, hand_habituals
from .duel_state import DuelState
from .base import GameBase
from .state import StackItem, Threat
from . import abilities, badges, costs, flow, legal, stack

EVIL_REWARDS = ("draw", "untap", "flip")
RIGHTEOUS_BOOSTS = ("draw", "humility")


def deal(game: GameBase) -> None:
    game.state.duel = DuelState(len(game.lineup))
    game._deal()


def after_position(game: GameBase) -> None:
    if game.state.duel is None:
        game.state.duel = DuelState(len(game.lineup))


def evil_seats(game: GameBase) -> list[int]:
    return list(game._evil)   # a new list: callers may keep it


# ------------------------------------------------------------------ costs and discounts
def dominance(game: GameBase, seat: int) -> int:
    """D-DOM-1/2: C1 less per 3 of this seat's own Evil Habituals that took hold."""
    owner = game.owner
    own = 0
    for sd in game.state.seats:
        for u in sd.held:
            if owner[u] == seat:
                own += 1
    return own // 3


def chain_extends(game: GameBase, seat: int) -> bool:
    """D-COMBO-4: with several Evil seats a partner must play the next card."""
    d = game.state.duel
    if d.chain_count == 0:
        return False
    return len(game._evil) == 1 or seat != d.chain_last


def threat_cost(game: GameBase, seat: int, uid: int) -> int:
    """D-COMBO-1, D-DOM-1: the Cost this seat would pay now for this threat."""
    return max(0, game.defs[uid].cost - next_discount(game, seat))


# ------------------------------------------------------------------ decisions
def early_decider(game: GameBase) -> int | None:
    d = game.state.duel
    if d is None or not d.reward_queue:
        return None
    return d.reward_queue[0][0]  # type: ignore[no-any-return]


def early_legal(game: GameBase, seat: int) -> list[Action] | None:
    d = game.state.duel
    if not d.reward_queue:
        return None
    earner, kind = d.reward_queue[0]
    if kind == "righteous":   # D-MB-3: draw 2 or +1 Humility, to any Righteous seat
        return [intern_reward(seat, r, to) for r in RIGHTEOUS_BOOSTS for to in game._righteous]
    acts: list[Action] = [intern_reward(seat, r) for r in EVIL_REWARDS]
    if kind == "special":
        allies = [i for i in game._evil if i != seat]
        acts.extend(intern_reward(seat, r, to) for r in EVIL_REWARDS for to in allies)   # D-MR-6
        # D-MR-5: from rules 2 "destroy" is offered on every 5th reward, so that the offer says
        # nothing about Righteous hands; rules 1 offered it only when something could be destroyed
        if game.rules >= 2 or destroy_targets(game) or hand_habituals(game):
            acts.append(intern_reward(seat, "destroy"))
    return acts


def late_decider(game: GameBase) -> int | None:
    d = game.state.duel
    if d is None:
        return None
    if d.evil_window:
        return d.evil_window[0]   # type: ignore[no-any-return]
    if d.answering and d.answer:
        return d.answer[0]   # type: ignore[no-any-return]
    return None


def late_legal(game: GameBase, seat: int) -> list[Action] | None:
    d = game.state.duel
    if d.evil_window:
        return [intern_pass(seat)] + threat_plays(game, seat, game._untapped(seat))
    if d.answering and d.answer:
        free = game._untapped(seat)
        acts: list[Action] = [intern_pass(seat)]
        acts.extend(legal.resist_actions(game, seat, free))
        head = game.state.threats[0]
        if seat == head.target:   # D-INT-2/3: a Resistance card, only in response
            for u in costs.playable_cards(game, seat):
                if game.defs[u].kind == "resistance" and costs.card_resists(game, u, head.uid, head.resistance):
                    acts.extend(legal.play_variants(game, seat, u, free, head.uid))
        return acts
    return None


def next_discount(game: GameBase, seat: int) -> int:
    """What this seat's next threat costs less now: its chain step and its dominance (D-COMBO-1,
    D-DOM-1); ``threat_cost`` for one card."""
    return (game.state.duel.chain_count if chain_extends(game, seat) else 0) + dominance(game, seat)


def threat_limit_reached(game: GameBase, seat: int) -> bool:
    """The threatLimit variant: the seat has played its threats for this turn (D-INT-4 as
    printed sets no limit; ``plays`` counts the seat's cards this turn, and an Evil seat plays
    only threats); or the roundThreats variant: the Evil side has played its threats for this
    round."""
    limit = game.settings.threat_limit
    if limit and game.state.duel.plays[seat] >= limit:
        return True
    return round_threats_spent(game)


def round_threats_allowed(game: GameBase) -> int:
    """The roundThreats variant: the Evil side's threats a round (N for each Righteous seat)."""
    return game.settings.round_threats * len(game._righteous)


def round_threats_left(game: GameBase) -> int:
    """The roundThreats variant: threats the Evil side may still play this round (all Evil seats
    together, on any seat's turn; a round begins with the first Evil seat's turn, D-TURN-1). Only
    meaningful when the variant is on."""
    d = game.state.duel
    played = d.round_threats if d.round_threats_no == game.state.round else 0
    return round_threats_allowed(game) - played


def round_threats_spent(game: GameBase) -> bool:
    """The roundThreats variant is on and the Evil side has played this round's threats."""
    return bool(game.settings.round_threats) and round_threats_left(game) <= 0


def why_illegal(game: GameBase, a: Action) -> tuple[str, str]:
    if isinstance(a, PlayCard) and game.state.seats[a.seat].side == "evil" and threat_limit_reached(game, a.seat):
        if round_threats_spent(game):
            return ("threat_limit", f"the Evil side has played its {round_threats_allowed(game)} threats this round "
                                    "(the roundThreats play-test variant)")
        return ("threat_limit", f"seat {a.seat} has played its {game.settings.threat_limit} threats this turn "
                                "(the threatLimit play-test variant)")
    return legal.why_illegal(game, a)


def threat_plays(game: GameBase, seat: int, free: int) -> list[Action]:
    if threat_limit_reached(game, seat):
        return []
    out: list[Action] = []
    targets = game._righteous
    defs = game.defs
    budget = -1   # free + the seat's discount (D-COMBO-1, D-DOM-1), worked out when a card needs it
    for u in costs.playable_cards(game, seat):
        card = defs[u]
        if card.kind in THREAT_KINDS:
            cost = card.cost
            if cost > free and budget < 0:
                budget = free + next_discount(game, seat)   # cost - discount <= free
            if cost <= free or cost <= budget:
                out.extend(intern_threat_plays(seat, u, targets))
    return out


def can_threaten(game: GameBase, seat: int) -> bool:
    """The seat could play a threat now: one costs no more than its untapped cards, or its
    cheapest one no more than its untapped cards and its discount."""
    if threat_limit_reached(game, seat):
        return False
    defs = game.defs
    free = -1
    dearer: list[int] = []   # costs above the untapped count
    for u in costs.playable_cards(game, seat):
        card = defs[u]
        if card.kind in THREAT_KINDS:
            if free < 0:
                free = game._untapped(seat)
            if card.cost <= free:
                return True
            dearer.append(card.cost)
    return bool(dearer) and min(dearer) <= free + next_discount(game, seat)


def answerable(game: GameBase) -> list[Threat]:
    d = game.state.duel
    if d is None or not d.answering or not game.state.threats:
        return []
    return [game.state.threats[0]]   # D-INT-4: each answered on its own, in order


def benevolence_ok(game: GameBase, seat: int) -> bool:
    return game.state.seats[seat].maturity >= 2   # Double Resistance only at L2+ in duel


def main_plays(game: GameBase, seat: int, free: int, playable: list[int]) -> list[Action]:
    if game.state.seats[seat].side == "evil":
        return threat_plays(game, seat, free)
    # D-INT-3: no Resistance card on its own in a duel
    return [a for a in legal.main_plays(game, seat, free, playable)
            if not (isinstance(a, PlayCard) and game.defs[a.card].kind == "resistance")]


def held_resists(game: GameBase, seat: int, free: int) -> list[Action]:
    if game.state.seats[seat].side == "evil":
        return []
    return legal.held_resists(game, seat, free)


def ability_uses(game: GameBase, seat: int) -> list[Action]:
    if game.state.seats[seat].side == "evil":
        return []
    return abilities.ability_uses(game, seat)


def speed_plays(game: GameBase, seat: int, free: int, playable: list[int]) -> list[Action]:
    if game.state.seats[seat].side == "evil":
        return []
    return legal.speed_plays(game, seat, free, playable)


# ------------------------------------------------------------------ doing
def do(game: GameBase, a: Action) -> None:
    d = game.state.duel
    if not (isinstance(a, Pass) and d.evil_window and a.seat == d.evil_window[0]):
        d.quiet = False   # a new moment: Evil may interrupt again after it
    if isinstance(a, ChooseReward):
        do_reward(game, a)
        return
    flow.do(game, a)


def late_pass(game: GameBase, seat: int) -> bool:
    d = game.state.duel
    if d.evil_window:
        d.evil_window.pop(0)
        return True
    if d.answering and d.answer:
        d.answer.pop(0)
        return True
    return False


def do_play(game: GameBase, a: PlayCard) -> None:
    card = game.defs[a.card]
    if not card.is_threat:
        stack.do_play(game, a)
        return
    st = game.state
    d = game.state.duel
    assert a.to_seat is not None
    extends = chain_extends(game, a.seat)
    cost = threat_cost(game, a.seat, a.card)
    if not extends:
        d.reset_chain()
    from_cz = a.card in st.seats[a.seat].cost_zone
    costs.pay(game, a.seat, cost, prefer=a.card if from_cz else None)
    costs.take_from_play_zone(game, a.seat, a.card)
    game._emit("played", a.seat, a.card, data={"to_seat": a.to_seat, "cost": cost, "chain": d.chain_count})
    d.chain_count += 1
    d.chain_last = a.seat
    if a.seat not in d.chain_seats:
        d.chain_seats = d.chain_seats + (a.seat,)
    if d.chain_target is None:
        d.chain_target = a.to_seat
    elif d.chain_target != a.to_seat:
        d.chain_mixed = True
    stack.play_threat(game, a.card, a.to_seat, a.seat)
    count(game, "threats_played")
    if cost == 0:   # D-COMBO-2: a free play restarts the chain; D-MR-4: a finale if chained down
        if d.chain_count >= 2 and not d.chain_mixed:
            d.finale[a.card] = d.chain_seats
            count(game, "finales")
        d.reset_chain()
    elif d.chain_count >= 2:
        count(game, "combo_plays")
    on_card_played(game, a.seat, a.card)
    # The Evil side keeps the window: partners first, so they can extend the chain
    d.evil_window = evil_window_order(game, after=a.seat)


def evil_window_order(game: GameBase, after: int | None, skip: int | None = None) -> list[int]:
    """The Evil seats that may play a threat now, in the order they are asked: after ``after``
    (the seat that just played, so partners can extend its chain); ``skip``: a seat left out."""
    evil = game._evil
    if not game.settings.evil_interrupt:   # D-INT-6: only the seat whose turn it is
        evil = tuple(s for s in evil if s == game.turn_seat)
    if after is not None and after in evil:
        i = evil.index(after)
        evil = evil[i + 1:] + evil[:i + 1]
    return [s for s in evil if s != skip and can_threaten(game, s)]


def on_card_played(game: GameBase, seat: int, uid: int) -> None:
    if uid < 0:
        return   # a boost is not a played card
    d = game.state.duel
    st = game.state
    d.plays[seat] += 1
    if st.seats[seat].side == "evil":
        if game.settings.round_threats:   # the roundThreats variant's count (the printed rules keep none)
            if d.round_threats_no != st.round:
                d.round_threats_no = st.round
                d.round_threats = 0
            d.round_threats += 1
        n = d.plays[seat]
        # D-MR-2: every 4th play; the fourPlaysOnce variant: the first 4th only
        if (n == 4) if game.settings.four_plays_once else (n % 4 == 0):
            count(game, "mr_four_plays")
            earn(game, seat)
        return
    key = (st.turn_no, game.phase)
    if key != d.phase_key:   # D-MB-1: the tally resets at the start of each phase
        d.phase_key = key
        d.phase_plays = 0
    d.phase_plays += 1
    if d.phase_plays % (3 + len(game._righteous)) == 0:
        count(game, "mb_cards_per_phase")
        boost(game, seat)


def do_choose(game: GameBase, seat: int, option: int) -> None:
    c = game.state.choice
    if c is not None and c.purpose == "destroy":
        game.state.choice = None
        destroy(game, option, seat)
        return
    flow.do_choose(game, seat, option)


def on_left_cost_zone(game: GameBase, seat: int, uid: int) -> None:
    d = game.state.duel
    if uid in d.replace_spent:   # Z-6: draw a spent replacement into the Cost Zone
        d.replace_spent.discard(uid)
        sd = game.state.seats[seat]
        if not sd.deck:
            badges.reshuffle(game, seat)
        if sd.deck:
            new = sd.deck.pop()
            sd.cost_zone.append(new)
            game.state.tapped.add(new)
            game._emit("replaced", seat)


# ------------------------------------------------------------------ threats answered
def mode_flow(game: GameBase) -> str | None:
    st = game.state
    d = game.state.duel
    if d.reward_queue:
        return "wait"
    check_clocks(game)
    if st.result is not None:
        return "wait"
    if st.threats:
        if d.evil_window:
            return window_waits(game)
        head = st.threats[0]
        if not d.answering or d.answer_head != head.uid:
            d.answering = True
            d.answer_head = head.uid
            d.answer = answer_order(game, head)
        if flow.decision_in(game, d.answer):   # seats with nothing to do but take it are passed
            return "wait"
        st.threats.pop(0)   # nobody resisted: it fails (D-INT-5)
        d.answer_head = None
        flow.fail_threat(game, head, game.turn_seat)
        return "again"
    if d.answering:   # D-COMBO-3: the Righteous side has responded
        d.answering = False
        d.answer = []
        d.reset_chain()
        return "again"
    if d.evil_window:
        return window_waits(game)
    if not d.quiet and st.choice is None and (st.step in ("after_lay", "main") or before_laying(game)):
        d.quiet = True
        window = evil_window_order(game, after=None, skip=game.turn_seat)   # it plays in its own Main phase anyway
        if window:
            d.evil_window = window
            return window_waits(game)
    return None


def window_waits(game: GameBase) -> str:
    """D-INT-1: the first Evil seat of the open window decides (its options kept with the decision)."""
    seat = game.state.duel.evil_window[0]
    legal.open_decision(game, seat, legal.options(game, seat))
    return "wait"


def before_laying(game: GameBase) -> bool:
    """Z-5, D-INT-1 (rules 2): a Righteous seat's Draw phase is over and it has not begun laying
    its Cost Zone: Evil may interrupt now ("before or after, never during")."""
    st = game.state
    if game.rules < 2 or st.step != "lay":
        return False
    sd = st.seats[game.turn_seat]
    return sd.side == "righteous" and sd.laid == 0


def answer_order(game: GameBase, t: Threat) -> list[int]:
    order = [t.target]
    for i in game._turn_order_from(t.target):
        if i != t.target and game.state.seats[i].side == "righteous" and abilities.may_help(game, i, t.target):
            order.append(i)
    return order


def resist_threat(game: GameBase, threat: Threat, seat: int, how: str) -> None:
    d = game.state.duel
    target = threat.target
    stack.resist_threat(game, threat, seat, how)
    d.finale.pop(threat.uid, None)
    d.answer_head = None
    count(game, "threats_resisted")
    streak(game, target)


def streak(game: GameBase, seat: int) -> None:
    """D-MB-2: 3 resisted in a turn with no Temptation failed earns a boost."""
    d = game.state.duel
    if d.voided[seat]:
        return
    d.streak[seat] += 1
    if d.streak[seat] % 3 == 0:
        count(game, "mb_clean_streak")
        boost(game, seat)


def break_held(game: GameBase, uid: int, by_seat: int, how: str) -> None:
    stack.break_held(game, uid, by_seat, how)
    if game.state.seats[by_seat].side == "righteous":
        streak(game, by_seat)   # D-MB-2: by any means: paying, a card, or an ability


def on_temptation_failed(game: GameBase, item: StackItem) -> None:
    d = game.state.duel
    target = item.threat if item.threat is not None else game.turn_seat
    if game.rules >= 2:   # D-MB-2: any failed Temptation voids every Righteous seat's streak that turn
        for i in game._righteous:
            d.voided[i] = True
    else:                 # rules 1 read it per seat
        d.voided[target] = True
    count(game, "temptations_failed")
    after_failed(game, item)
    d.failed_temptations += 1
    if d.failed_temptations % 3 == 0 and item.by is not None:   # D-MR-3
        count(game, "mr_three_failed")
        earn(game, item.by)


def on_habitual_took_hold(game: GameBase, item: StackItem) -> None:
    d = game.state.duel
    count(game, "habituals_taken")
    d.r_clock = None   # D-W-R: an Evil Habitual entering play restarts the clean round
    after_failed(game, item)
    by = item.by
    if by is None:
        return
    own = [u for sd in game.state.seats for u in sd.held if game.owner[u] == by and u not in d.flagged]
    if len(own) >= 2:   # D-MR-1: a pair, then spent
        d.flagged.update(own[:2])
        count(game, "mr_habitual_pair")
        earn(game, by)


def after_failed(game: GameBase, item: StackItem) -> None:
    seats = game.state.duel.finale.pop(item.uid, None)
    if seats and game.settings.finale_reward:   # D-MR-4 (the finaleReward variant may turn it off)
        count(game, "mr_finale")
        for s in seats:
            earn(game, s)


# ------------------------------------------------------------------ levels, abilities, turns
def may_level(game: GameBase, seat: int) -> bool:
    return game.state.seats[seat].levels_this_turn < 1   # S-6


def after_level(game: GameBase, seat: int) -> None:
    """A-3, A-4: each seat's new level gives it a free ability and recharges the others."""
    st = game.state
    d = game.state.duel
    level = st.seats[seat].maturity
    if level > d.seat_level_rewarded[seat]:
        d.seat_level_rewarded[seat] = level
        if game.settings.mat_abilities:
            for a in ("restoration", "deliverance"):
                if a in st.abilities:
                    st.charged.add(a)
            if abilities.free_abilities(game):
                st.ability_picks += 1
                st.ability_chooser = seat


def on_turn_start(game: GameBase, seat: int) -> None:
    d = game.state.duel
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
    for sd in game.state.seats:
        sd.levels_this_turn = 0
    sd = game.state.seats[seat]
    if game.rules >= 3 and sd.side == "evil" and not sd.deck:
        refill_evil_seat(game, seat)
    if game.settings.humility_rollover and sd.humility >= 10 and sd.maturity < 3:
        badges.check_rollover(game, seat)   # S-6/S-7: a level-up that had to wait at 10


def refill_evil_seat(game: GameBase, seat: int) -> None:
    """DECISION (rules 3): an Evil seat that starts its turn with an empty deck shuffles the
    cards it played that lie in the Resisted and Failed piles into a new deck. Only at the start
    of its own turn, so a reward loop cannot feed on it within a turn; the stalemate score
    counts every card that ever entered a pile, so it does not drop (rules 1 and 2: an empty
    Evil deck stayed empty)."""
    st = game.state
    own = game.owner
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
    game._emit("evil_deck_refilled", seat, data={"cards": len(cards)})


def phase_order(game: GameBase) -> list[int]:
    return [game.turn_seat]
