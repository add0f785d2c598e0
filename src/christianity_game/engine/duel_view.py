"""What a view shows of the duel's own bookkeeping: chains, discounts, tallies, clocks.

Rules shown (not carried out) here: D-COMBO-1..4 (the chain and the next discount), D-DOM-1/2
(dominance), D-MR-1..7 (plays, failed Temptations and rewards this turn), D-MB-1/2 (the phase tally
and the streaks), D-INT-4..6 (the Evil window, answering), D-W-R and D-W-E (the clocks).

``duel_view(game)`` is the whole object (``Game.view``'s ``"duel"``); ``duel_view_part(game, key)``
one key of it, so that a lazy seat view builds only the keys its reader asks for.
"""

from __future__ import annotations

from typing import Any, Protocol


class DuelTable(Protocol):
    """What the duel view reads of a duel game (``duel.DuelRules``)."""

    @property
    def state(self) -> Any: ...

    def dominance(self, seat: int) -> int: ...

    def next_discount(self, seat: int) -> int: ...

    def evil_seats(self) -> list[int]: ...

    def righteous_seats(self) -> list[int]: ...

    def evil_limit(self) -> int: ...

    def evil_habituals_in_play(self) -> int: ...


#: the keys of the duel view, in the order of its JSON
DUEL_VIEW_KEYS: tuple[str, ...] = (
    "chain", "dominance", "next_discount", "plays_this_turn", "failed_temptations_this_turn",
    "rewards_this_turn", "reward_pending", "phase_plays", "boost_every", "streaks", "evil_window",
    "answering", "righteous_clock", "evil_clock", "evil_limit", "replace_spent", "counts")


def duel_view(game: DuelTable) -> dict[str, Any]:
    """The duel's public bookkeeping, as new JSON objects (never the state's own)."""
    return {key: duel_view_part(game, key) for key in DUEL_VIEW_KEYS}


def duel_view_part(game: DuelTable, key: str) -> Any:
    """One key of :func:`duel_view` (KeyError for any other)."""
    st = game.state
    d = st.duel
    if key == "chain":
        return {"count": d.chain_count, "last": d.chain_last, "target": d.chain_target,
                "seats": list(d.chain_seats), "single_target": not d.chain_mixed}
    # keyed by the seat number as text, so the view is the same after a JSON round trip
    if key == "dominance":
        return {str(i): game.dominance(i) for i in game.evil_seats()}
    if key == "next_discount":
        return {str(i): game.next_discount(i) for i in game.evil_seats()}
    if key == "plays_this_turn":
        return d.plays[:]
    if key == "failed_temptations_this_turn":
        return d.failed_temptations
    if key == "rewards_this_turn":
        return d.rewards
    if key == "reward_pending":
        return [{"seat": s, "kind": k} for s, k in d.reward_queue]
    if key == "phase_plays":
        return d.phase_plays
    if key == "boost_every":
        return 3 + len(game.righteous_seats())
    if key == "streaks":
        return d.streak[:]
    if key == "evil_window":
        return d.evil_window[:]
    if key == "answering":
        return d.answering
    if key == "righteous_clock":
        return None if d.r_clock is None else {"seat": d.r_clock[0], "armed_turn": d.r_clock[1]}
    if key == "evil_clock":
        return None if d.e_clock is None else {
            "armed_turn": d.e_clock, "righteous_turns_since": d.e_righteous_turns,
            "limit": game.evil_limit(), "in_play": game.evil_habituals_in_play()}
    if key == "evil_limit":
        return game.evil_limit()
    if key == "replace_spent":
        return sorted(u for u in d.replace_spent if u in st.face_up)
    if key == "counts":
        return dict(d.counts)
    raise KeyError(key)
