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
from .state import Offer, Threat
from .abilities import free_abilities, may_help
from .base import GameBase
from .costs import card_play, card_resists, held_resistance, intake, playable_cards, resist_discount


def decider(game: GameBase) -> int | None:
    """The one seat whose decision the game waits for."""
    if game.state.result is not None:
        return None
    return open_kind(game)[1]


def active_offer(game: GameBase) -> Offer | None:
    st = game.state
    if st.offers and st.offers[-1].depth == len(st.stack) and not st.effects:
        return st.offers[-1]
    return None


def open_decision(game: GameBase, seat: int, legal: list[Action]) -> None:
    """The flow found that ``seat`` decides now, with these options: keep both until the state
    changes (``pending`` and ``apply`` then need not work them out again)."""
    game._legal_cache = (game.state.state_id, seat, legal, True)


def legal_for(game: GameBase, seat: int) -> list[Action]:
    """Every legal action of ``seat`` (empty unless it is the seat the game waits for)."""
    if game.state.result is not None or seat != decider(game):
        return []
    return options(game, seat)


#: The kinds of decision the game can wait for, in the order the move generator looks for them
#: (docs/design.md, "The flow"): ``decision`` names the open one, ``options`` lists its actions
#: and ``why_illegal`` tells a refused action from it. "mode_early" and "mode_late" are the
#: mode's own (the duel's rewards; its Evil window and its answer to each threat).
DECISIONS = ("choice", "ability_pick", "mode_early", "window", "offer", "mode_late", "lay", "after_lay",
             "resistance", "main", "none")


def decision(game: GameBase) -> str:
    """The kind of decision the game waits for now (one of :data:`DECISIONS`)."""
    return open_kind(game)[0]


def open_kind(game: GameBase) -> tuple[str, int | None]:
    """The decision the game waits for now, looked for in the order of :data:`DECISIONS`: its kind
    and the seat that makes it (None: no seat; :func:`decider` also answers None once the game is over)."""
    st = game.state
    if st.choice is not None:
        return "choice", st.choice.seat
    if st.ability_picks:
        return "ability_pick", st.ability_chooser
    early = game.mode.early_decider(game)
    if early is not None:
        return "mode_early", early
    if st.window:
        return "window", st.window[0]
    offer = active_offer(game)
    if offer is not None:
        return "offer", offer.controller
    late = game.mode.late_decider(game)
    if late is not None:
        return "mode_late", late
    step = st.step
    if step == "lay" or step == "after_lay":
        return step, game.turn_seat
    seat = st.phase_passes[0] if st.phase_passes else None
    return (step if step == "resistance" or step == "main" else "none"), seat


def options(game: GameBase, seat: int) -> list[Action]:
    """Every legal action of ``seat``, which the caller knows is the deciding seat (the flow asks
    this while it looks for the next decision), by the kind of decision open (``decision``)."""
    st = game.state
    kind = decision(game)
    if kind == "choice":
        c = st.choice
        assert c is not None
        acts: list[Action] = list(map(CHOICES[seat].__getitem__, c.options))
        if c.minimum <= 0:
            acts.append(intern_pass(seat))
        return acts
    if kind == "ability_pick":
        return [intern_pick(seat, a) for a in free_abilities(game)]
    if kind == "mode_early":
        return game.mode.early_legal(game, seat) or []
    if kind == "window":
        acts = [intern_pass(seat)]
        acts.extend(instant_plays(game, seat, game._untapped(seat), playable_cards(game, seat)))
        return acts
    if kind == "offer":
        offer = active_offer(game)
        assert offer is not None
        return boost_actions(game, offer)
    if kind == "mode_late":
        return game.mode.late_legal(game, seat) or []
    if kind == "lay":
        sd = st.seats[seat]
        acts = [intern_pass(seat)]
        if sd.laid < intake(game, seat):
            acts.extend(map(LAYS[seat].__getitem__, sd.hand))
        return acts
    free = game._untapped(seat)
    acts = [intern_pass(seat)]
    if kind == "after_lay":
        if game.settings.mat_abilities and game.mode.can_buy_abilities:
            for a in game.mode.abilities_available():
                if a not in st.abilities and ABILITY_PRICE[a] <= free:
                    acts.append(intern_buy(seat, a))
        if "speed" in st.abilities:
            acts.extend(game.mode.speed_plays(game, seat, free, playable_cards(game, seat)))
        if st.abilities:
            acts.extend(game.mode.ability_uses(game, seat))
        return acts
    if kind == "resistance":
        acts.extend(resist_actions(game, seat, free))
        if seat == game.turn_seat:
            playable = playable_cards(game, seat)
            acts.extend(resistance_phase_plays(game, seat, free, playable))
            if "speed" in st.abilities:
                acts.extend(game.mode.speed_plays(game, seat, free, playable))
            if st.abilities:
                acts.extend(game.mode.ability_uses(game, seat))
        return acts
    if kind == "main":
        acts.extend(game.mode.main_plays(game, seat, free, playable_cards(game, seat)))
        if st.seats[seat].held:
            acts.extend(game.mode.held_resists(game, seat, free))
        if st.abilities:
            acts.extend(game.mode.ability_uses(game, seat))
        return acts
    return acts


def options_at_any_cost(game: GameBase, seat: int) -> list[Action]:
    """What the move generator would list for ``seat`` now if every Cost Zone could pay any price
    (every card, boost, ability and resistance affordable): ``why_illegal`` tells "too dear" from
    "not now" by it. The game is left as it was."""
    game._unlimited_cost = True
    try:
        return options(game, seat)
    finally:
        game._unlimited_cost = False


def play_variants(game: GameBase, seat: int, uid: int, free: int, threat: int | None = None) -> tuple[Action, ...]:
    """The PlayCard actions for one card with ``free`` untapped cards (none when it costs more)."""
    _kind, need, acts = card_play(game, seat, uid, threat)
    return acts if need <= free else ()


def instant_plays(game: GameBase, seat: int, free: int, playable: list[int]) -> list[Action]:
    out: list[Action] = []
    plays = game._card_plays[seat]
    for u in playable:
        kind, need, acts = plays.get(u) or card_play(game, seat, u)
        if kind == "instant" and need <= free:
            out.extend(acts)
    return out


def speed_ready(game: GameBase, seat: int) -> bool:
    """Speed (A-1): the seat may still play one Maturity card or Righteous Habitual outside its
    Main phase this turn."""
    st = game.state
    return ("speed" in st.abilities and game.settings.mat_abilities and not st.seats[seat].speed_used
            and seat == game.turn_seat)


def speed_plays(game: GameBase, seat: int, free: int, playable: list[int]) -> list[Action]:
    """The plays Speed allows now (none unless ``_speed_ready``)."""
    if not speed_ready(game, seat):
        return []
    out: list[Action] = []
    plays = game._card_plays[seat]
    for u in playable:
        kind, need, acts = plays.get(u) or card_play(game, seat, u)
        if (kind == "maturity" or kind == "righteous_habitual") and need <= free:
            out.extend(acts)
    return out


def main_plays(game: GameBase, seat: int, free: int, playable: list[int]) -> list[Action]:
    out: list[Action] = []
    held: list[tuple[int, int]] | None = None   # (Habitual, its full resistance), when first needed
    plays = game._card_plays[seat]
    for u in playable:
        kind, need, acts = plays.get(u) or card_play(game, seat, u)
        if need > free:
            continue
        if kind == "resistance":
            if held is None:
                held = [(h, held_resistance(game, seat, h)) for h in game.state.seats[seat].held]
            for h, resistance in held:   # CO-7 (DECISION): a Resistance card may break a Habitual holding you
                if card_resists(game, u, h, resistance):
                    out.extend(card_play(game, seat, u, h)[2])
        elif kind in ("maturity", "action", "righteous_habitual", "instant"):
            out.extend(acts)
    return out


def resistance_phase_plays(game: GameBase, seat: int, free: int, playable: list[int]) -> list[Action]:
    out: list[Action] = []
    plays = game._card_plays[seat]
    for u in playable:
        kind, need, acts = plays.get(u) or card_play(game, seat, u)
        if need > free:
            continue
        if kind == "resistance":
            out.extend(acts)   # CO-5: with nothing to resist
            for t in game.state.threats:
                if t.target == seat and card_resists(game, u, t.uid, t.resistance):
                    out.extend(card_play(game, seat, u, t.uid)[2])
        elif kind == "instant":
            out.extend(acts)
    return out


def resist_actions(game: GameBase, seat: int, free: int) -> list[Action]:
    out: list[Action] = []
    helps: dict[int, int] = {}   # target seat -> its passive resistance discount (Z-1), or -1: may not help
    for t in game.mode.answerable(game):
        target = t.target
        discount = helps.get(target)
        if discount is None:
            if seat == target or may_help(game, seat, target):
                discount = resist_discount(game, target)
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


def held_resists(game: GameBase, seat: int, free: int) -> list[Action]:
    """CO-7 (DECISION): on your Main phase, pay a holding Habitual's full resistance to break it."""
    out: list[Action] = []
    for h in game.state.seats[seat].held:
        cost = held_resistance(game, seat, h)
        if cost <= free:
            out.append(intern_resist(seat, h, cost))
    return out


def boost_actions(game: GameBase, offer: Offer) -> list[Action]:
    card = game.defs[offer.uid]
    seat = offer.controller
    out: list[Action] = [intern_pass(seat)]
    for i, b in enumerate(card.boosts):
        if b.fast != offer.fast or i in offer.taken:
            continue
        needs_mate = b.needs_mate
        for payer in payers(game, seat, b.payer):
            fee = game.settings.solo_fee if game.is_solo() and (b.payer == "teammate" or needs_mate) else 0
            if b.cost + fee > game._untapped(payer):
                continue
            if needs_mate:
                for m in (game._teammates(seat) or [seat]):
                    out.append(intern_boost(seat, i, payer, m))
            else:
                out.append(intern_boost(seat, i, payer))
    return out


def payers(game: GameBase, seat: int, glyph: str) -> tuple[int, ...]:
    """P-3: who may pay a boost with this glyph."""
    if glyph == "you":
        return (seat,)
    if glyph == "teammate":
        return game._teammates(seat) or (seat,)   # P-7: in solo you pay, with the fee
    return game._righteous


#: What each kind of decision is, in a refusal's words ("... cannot be taken now: <words>")
DECISION_WORDS = {
    "choice": "a choice is open",
    "ability_pick": "the team's free Maturity Ability is being chosen",
    "mode_early": "an earned reward is being taken",
    "window": "a play is being answered, and only an Instant may be played in response",
    "offer": "the boosts of the card just played are on offer",
    "mode_late": "threats are being played or answered",
    "lay": "the Cost Zone is being laid",
    "after_lay": "the Cost Zone phase has just ended",
    "resistance": "it is the Resistance phase",
    "main": "it is the Main phase",
    "none": "nothing is being decided",
}


def why_illegal(game: GameBase, a: Action) -> tuple[str, str]:
    """A specific reason for a refused action of the deciding seat, found by asking the move
    generator rather than restating it:

    1. a choice that must be finished first (``decision``: a choice or the team's free ability
       is open and takes no action of this type);
    2. a card, threat or ability the action names that is not there;
    3. a price: the generator would list it if every Cost Zone could pay anything
       (``options_at_any_cost``);
    4. otherwise the open decision takes no action of its type, or takes some, and the action
       differs from those listed for the same card, threat or ability.
    """
    kind = decision(game)
    at_any_cost = options_at_any_cost(game, a.seat)
    same_type = [x for x in at_any_cost if type(x) is type(a)]
    if not same_type and (kind == "choice" or kind == "ability_pick"):
        return _not_taken_now(game, kind, a)
    missing = _missing(game, a)
    if missing is not None:
        return missing
    if a in at_any_cost:
        return _too_dear(game, a)
    if not same_type:
        return _not_taken_now(game, kind, a)
    return _not_listed(game, kind, a, same_type)


def _missing(game: GameBase, a: Action) -> tuple[str, str] | None:
    """Question 2: a card, threat or ability the action names that is not where it must be."""
    st = game.state
    if isinstance(a, (PlayCard, LayCostZone)):
        uid = a.card
        if not isinstance(uid, int) or uid < 0 or uid >= len(game.defs):
            return "no_such_card", f"there is no card {uid!r}"
        sd = st.seats[a.seat]
        in_cz_face_up = uid in sd.cost_zone and uid in st.face_up
        if uid not in sd.hand and not (isinstance(a, PlayCard) and in_cz_face_up):
            return "not_in_hand", f"card {uid} is not in seat {a.seat}'s hand"
    elif isinstance(a, Resist):
        if not any(t.uid == a.threat for t in st.threats) and a.threat not in st.seats[a.seat].held:
            return "no_such_threat", f"card {a.threat} is not a threat you can resist now"
    elif isinstance(a, BuyAbility) and a.ability not in ABILITIES:
        return "unknown_ability", f"no ability named {a.ability!r}"
    return None


def _too_dear(game: GameBase, a: Action) -> tuple[str, str]:
    """Question 3's answer: the generator lists the action at any cost, so its price is the reason."""
    free = game._untapped(a.seat)
    if isinstance(a, PlayCard):
        card = game.defs[a.card]
        need = card_play(game, a.seat, a.card, a.threat)[1]
        return "cannot_afford", f"{card.name} costs C{need}; seat {a.seat} has {free} untapped"
    if isinstance(a, BuyAbility):
        return "cannot_afford", f"{a.ability} costs {ABILITY_PRICE[a.ability]}"
    if isinstance(a, Resist):
        return "cannot_afford", f"seat {a.seat} has only {free} untapped Cost Zone cards"
    if isinstance(a, TakeBoost):
        return "boost_not_allowed", "that boost cannot be taken now: its payer cannot pay it"
    return "not_legal", f"{a!r} cannot be paid for now"


def _not_taken_now(game: GameBase, kind: str, a: Action) -> tuple[str, str]:
    """Question 1 or 4: the open decision takes no action of the refused one's type."""
    st = game.state
    if kind == "choice" and st.choice is not None:
        if isinstance(a, Pass):
            return "must_choose", f"pick {st.choice.minimum} more before passing"
        return "choice_open", f"seat {a.seat} must first finish choosing ({st.choice.purpose})"
    if isinstance(a, Choose):
        return "no_choice", "there is nothing to choose now"
    if isinstance(a, ChooseAbility):
        if kind == "ability_pick":   # the team holds them all: none is left to pick
            return "unknown_ability", f"{a.ability!r} is not an ability the team can still choose"
        return "no_choice", "no free ability is waiting to be chosen"
    if kind == "ability_pick":
        return "must_choose", "choose the team's free Maturity Ability first"
    if isinstance(a, TakeBoost):
        return "no_boosts", "no boosts are on offer now"
    if isinstance(a, (BuyAbility, UseAbility)) and not game.settings.mat_abilities:
        return "abilities_off", "Maturity Abilities are turned off"
    if isinstance(a, LayCostZone):
        if kind == "lay":
            return "intake_full", f"the Cost Zone takes at most {intake(game, a.seat)} cards this turn"
        return "wrong_phase", f"cards go into the Cost Zone only in the Cost Zone phase; now {DECISION_WORDS[kind]}"
    if isinstance(a, PlayCard):
        if kind == "lay":
            return "cost_zone_being_laid", "nothing is played while a Cost Zone is being laid (Z-5)"
        return _card_not_now(game, kind, a)
    if isinstance(a, BuyAbility):
        if not game.mode.can_buy_abilities:
            return "wrong_timing", "Maturity Abilities are not bought in this mode (A-3)"
        return "wrong_timing", f"abilities are bought right after your Cost Zone phase; now {DECISION_WORDS[kind]}"
    if isinstance(a, UseAbility):
        return _ability_not_now(game, a)
    if isinstance(a, Resist):
        return _resist_not_listed(game, a)
    return "not_legal", f"{a!r} cannot be taken now: {DECISION_WORDS[kind]}"


def _not_listed(game: GameBase, kind: str, a: Action, same_type: list[Action]) -> tuple[str, str]:
    """Question 4, when the open decision takes actions of the refused one's type, but not it:
    how it differs from those listed for the same card, threat or ability."""
    if isinstance(a, Choose):
        return "not_an_option", f"{a.option} is not one of the options"
    if isinstance(a, ChooseAbility):
        return "unknown_ability", f"{a.ability!r} is not an ability the team can still choose"
    if isinstance(a, LayCostZone):
        return "intake_full", f"the Cost Zone takes at most {intake(game, a.seat)} cards this turn"
    if isinstance(a, TakeBoost):
        return "boost_not_allowed", "that boost cannot be taken now (taken, wrong payer or not affordable)"
    if isinstance(a, BuyAbility):
        return "already_held", f"the team already holds {a.ability}"
    if isinstance(a, UseAbility):
        return _ability_not_now(game, a)
    if isinstance(a, Resist):
        return _resist_not_listed(game, a)
    if isinstance(a, PlayCard):
        card = game.defs[a.card]
        for x in same_type:
            assert isinstance(x, PlayCard)
            if x.card != a.card:
                continue
            if x.threat == a.threat and x.to_seat != a.to_seat:
                if a.to_seat is None and card.aims_at_mate:
                    return "needs_target", f"{card.name} is aimed at a teammate: say which (to_seat)"
                if a.to_seat is None:
                    return "needs_target", f"{card.name} is aimed at a seat: say which (to_seat)"
                return "needs_target", f"{card.name} cannot be aimed at seat {a.to_seat}"
            if a.threat is not None and card.kind == "resistance":
                return "cannot_resist", f"{card.name} cannot resist card {a.threat}"
        return _card_not_now(game, kind, a)
    return "not_legal", f"{a!r} is not legal now"


def _card_not_now(game: GameBase, kind: str, a: PlayCard) -> tuple[str, str]:
    """A card the generator lists at no price now, with no target and no threat."""
    card = game.defs[a.card]
    if kind == "main" and card.kind == "resistance":
        return "wrong_timing", "in the Main phase a Resistance card needs an Evil Habitual holding you"
    return "wrong_timing", f"{card.name} ({card.kind}) cannot be played now: {DECISION_WORDS[kind]}"


def _ability_not_now(game: GameBase, a: UseAbility) -> tuple[str, str]:
    if a.ability not in game.state.abilities:
        return "ability_not_held", f"the team does not hold {a.ability!r}"
    return "ability_not_ready", f"{a.ability} cannot be used now"


def _resist_not_listed(game: GameBase, a: Resist) -> tuple[str, str]:
    threat = next((t for t in game.state.threats if t.uid == a.threat), None)
    if threat is not None and not may_help(game, a.seat, threat.target):
        return "not_your_threat", "only the target resists (others need Benevolence)"
    return "wrong_amount", f"cannot pay {a.amount} toward card {a.threat} now"
