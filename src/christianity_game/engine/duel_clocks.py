"""The duel's win clocks and its end (docs/rules.md, section D): D-W-R (every Righteous seat at L3
with no Evil Habitual in play for a full round), D-W-E (7 Evil Habituals in play per Evil seat,
held for a full round, the Righteous side having had its turns) and the turn cap of test games,
decided by D-SCORE: functions of the game, called by the duel's rules (:mod:`.duel`) and its
hooks (:mod:`.duel_mode`).
"""

from __future__ import annotations

from .base import GameBase

EVIL_HABITUALS_PER_SEAT = 7   # D-W-E as printed (the evilHabituals variant changes it per table)
#: the events that go with every change to what the win clocks read: Maturity raised (S-5) or set
#: by hand (S-8), an Evil Habitual taking hold or broken (the field's too)
CLOCK_EVENTS = ("maturity", "manual", "took_hold", "habitual_broken")


def judge_at_turn_start(game: GameBase, seat: int) -> None:
    """D-W-R and D-W-E, judged as each turn starts; a turn cap ends a test game by score."""
    st = game.state
    d = game.state.duel
    # a full round: the arming seat's next turn, or where the round gives that seat more than one
    # turn (the alternateTurns variant), its first turn a whole round of turns later
    wait = len(game._order) - 1 if len(game._order) > len(st.seats) else 0
    if d.r_clock is not None and d.r_clock[0] == seat and st.turn_no > d.r_clock[1] + wait:
        if righteous_clean(game):
            game._finish("righteous", "every seat at L3 with no Evil Habitual for a full round")
            return
    if d.e_clock is not None:
        if st.seats[seat].side == "righteous":
            d.e_righteous_turns += 1
        # the Righteous turns of a round (one a Righteous seat, more with the alternateTurns variant);
        # the evilHold variant: N rounds of them
        elif d.e_righteous_turns >= (len(game._order) - len(game._evil)) * game.settings.evil_hold:
            if game.evil_habituals_in_play() >= evil_limit(game):
                held = "a full round" if game.settings.evil_hold == 1 else f"{game.settings.evil_hold} rounds"
                game._finish("evil", f"{evil_limit(game)} Evil Habituals in play held for {held}")
                return
    if game.settings.humility_win and st.turn_index == 0 and st.turn_no > 1:
        judge_humility_pressure(game)
        if st.result is not None:
            return
    limit = game.settings.round_limit
    if limit and st.round > limit:   # the roundLimit variant (D-SCORE: the printed duel has none)
        r, e = game.score
        game._finish("righteous" if r > e else "evil",
                     f"round limit {limit} reached: decided on the score at the round limit")
        return
    cap = game.settings.max_turns
    if cap and st.turn_no > cap:
        r, e = game.score
        game._finish("righteous" if r > e else "evil", f"turn cap {cap} reached: decided by the stalemate score")


def judge_humility_pressure(game: GameBase) -> None:
    """The humilityWin variant, judged as each round starts (the last one has just ended): Evil
    wins once every Righteous seat has ended that many rounds in a row at Humility 0."""
    st = game.state
    d = st.duel
    if all(st.seats[i].humility == 0 for i in game._righteous):
        d.zero_rounds += 1
    else:
        d.zero_rounds = 0
    n = game.settings.humility_win
    if d.zero_rounds >= n:
        rounds = "a round" if n == 1 else f"{n} rounds in a row"
        game._finish("evil", f"every Righteous seat ended {rounds} at Humility 0")


def evil_limit(game: GameBase) -> int:
    """D-W-E: Evil Habituals in play for the Evil win (7 a seat as printed; the evilHabituals variant)."""
    return game.settings.evil_habituals * len(game._evil)


def righteous_clean(game: GameBase) -> bool:
    return game._all_l3() and game.evil_habituals_in_play() == 0


def check_clocks(game: GameBase) -> None:
    """D-W-R, D-W-E: arm or disarm the win clocks. What they read (Maturity, the Evil Habituals
    held and in the field) changes only with one of CLOCK_EVENTS, so the look is skipped while
    no such event has happened since the last one (the look is the same whenever it is taken)."""
    st = game.state
    d = st.duel
    get = game.event_counts.get
    inputs = get("maturity", 0) + get("manual", 0) + get("took_hold", 0) + get("habitual_broken", 0)   # CLOCK_EVENTS
    if inputs == game._clock_inputs:
        return
    game._clock_inputs = inputs
    held = game.evil_habituals_in_play()
    if held == 0 and game._all_l3():
        if d.r_clock is None:
            d.r_clock = (game.turn_seat, st.turn_no)   # D-W-R: the clean round is armed
            game._emit("clean_round", game.turn_seat, data={"armed": True})
    elif d.r_clock is not None:
        d.r_clock = None
    if held >= evil_limit(game):
        if d.e_clock is None:
            d.e_clock = st.turn_no   # D-W-E: the Righteous side gets one full round
            d.e_righteous_turns = 0
            game._emit("evil_hold", None, data={"armed": True})
    elif d.e_clock is not None:
        d.e_clock = None
