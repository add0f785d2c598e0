"""The duel's Evil micro-rewards and Righteous micro-boosts (docs/rules.md, section D): D-MR-5
(every 5th reward special, destroy), D-MR-7 (the same-turn bonus), D-MB-3 (the boosts' choices),
queued as they are earned and taken as the earner chooses. Functions of the game, called by the
duel's rules (:mod:`.duel`); ``count`` keeps the duel's tallies for the lab.
"""

from __future__ import annotations

from .actions import ChooseReward
from .base import GameBase
from .state import Choice
from . import badges


def count(game: GameBase, what: str, n: int = 1) -> None:
    c = game.state.duel.counts
    c[what] = c.get(what, 0) + n


def earn(game: GameBase, seat: int, bonus: bool = False) -> None:
    """Queue an Evil micro-reward; every 5th of the turn is special (D-MR-5); same-turn bonus."""
    d = game.state.duel
    cap = game.settings.reward_cap
    if cap and d.given[seat] >= cap:   # the rewardCap variant: this seat has had its rewards this turn
        count(game, "mr_capped")
        return
    d.given[seat] += 1
    d.rewards += 1
    kind = "special" if d.rewards % 5 == 0 else "evil"
    d.reward_queue.append((seat, kind))
    count(game, "micro_rewards")
    game._emit("reward_earned", seat, data={"special": kind == "special", "bonus": bonus})
    if bonus:
        return
    d.earned[seat] += 1
    if not game.settings.same_turn_bonus:   # the sameTurnBonus variant off: no D-MR-7 extra
        return
    evil = game._evil
    if len(evil) == 1:   # D-MR-7: a lone Evil seat, 1 extra per 2 earned
        if d.earned[seat] % 2 == 0:
            count(game, "mr_same_turn_bonus")
            earn(game, seat, bonus=True)
    else:                # several seats: once 2+ seats earned this turn, each earner gets 1 extra
        earners = [s for s in evil if d.earned[s] > 0]
        if len(earners) >= 2:
            for s in earners:
                if not d.bonus_given[s]:
                    d.bonus_given[s] = 1
                    count(game, "mr_same_turn_bonus")
                    earn(game, s, bonus=True)


def boost(game: GameBase, seat: int) -> None:
    game.state.duel.reward_queue.append((seat, "righteous"))
    count(game, "micro_boosts")
    game._emit("boost_earned", seat)


def destroy_targets(game: GameBase) -> list[int]:
    return [u for i in game._righteous for u in game.state.seats[i].in_play]


def hand_habituals(game: GameBase) -> list[int]:
    return [u for i in game._righteous for u in game.state.seats[i].hand
            if game.defs[u].kind == "righteous_habitual"]


def do_reward(game: GameBase, a: ChooseReward) -> None:
    st = game.state
    d = game.state.duel
    d.reward_queue.pop(0)
    to = a.to_seat if a.to_seat is not None else a.seat
    game._emit("reward_taken", a.seat, data={"reward": a.reward, "to_seat": to})
    count(game, f"reward_{a.reward}" if st.seats[a.seat].side == "evil" else f"boost_{a.reward}")
    if a.reward == "draw":
        badges.draw(game, to, 2)
    elif a.reward == "humility":
        badges.change_humility(game, to, 1, None)
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
            game._emit("flipped", to, u)
    elif a.reward == "destroy":
        targets = destroy_targets(game)
        if targets:
            st.choice = Choice(a.seat, "destroy", targets, 1, 1)
        else:   # DECISION: none in play: one from a Righteous hand, at random
            hand = hand_habituals(game)
            if hand:
                destroy(game, hand[st.rng.randbelow(len(hand))], a.seat)
            else:   # rules 2: nothing to destroy anywhere: the reward does nothing, and says so
                game._emit("destroyed_nothing", a.seat)


def destroy(game: GameBase, uid: int, by: int) -> None:
    """D-MR-5: a Righteous Habitual is removed from the game (to its owner's discard, DECISION)."""
    st = game.state
    for i in game.righteous_seats():
        sd = st.seats[i]
        for zone in (sd.in_play, sd.hand):
            if uid in zone:
                zone.remove(uid)
                st.seats[game.owner[uid]].discard.append(uid)
                game._emit("destroyed", by, uid, data={"from_seat": i})
                return
