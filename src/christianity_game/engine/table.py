"""Table actions: what players do about the game rather than in it. None is ever in
``legal_actions``; each is checked here and refused with a reason code when it may not be taken.

* **Manual adjustment** (S-8): a Righteous seat sets its own Humility or Maturity by hand.
* **Undo** (G-7): a seat takes back its own last actions within its own turn, as long as nothing
  hidden was shown to anyone since (no draw, reveal, flip, shuffle or Evil deck turn-over: the
  generator and the reveal count are where they were; rules 4 also counts a search's options, which
  show the searcher its deck in deck order, and a card played or discarded at a table of more than
  one seat) and no other seat has acted. In a duel (rules 4) nothing can be taken back: the other
  side sees every action as it is taken (docs/decisions.md, "Undo"). Undo is an action in the
  record: replaying it rebuilds the game without the undone action, so replays and crash recovery
  keep it.
* **Ending a duel by agreement** (G-8): duels have no clock (D-SCORE); either side may offer to end
  the game now on the stalemate score. Rules 4: every seat of the other side must accept (each
  answers for itself; one decline ends the offer), and the score decides: the higher side wins, a
  tie is a draw. Rules 1-3: the first accepting seat ended it, and a tie went to Evil.
"""

from __future__ import annotations

from typing import Any

from .actions import Action, AdjustBadge, AnswerEnd, IllegalAction, OfferEnd, Undo
from .numbers import MAX_HUMILITY, MAX_MATURITY
from .events import Event
from .base import GameBase
from .flow import advance


def apply_table(game: GameBase, a: Action) -> list[Event]:
    """Check and carry out a table action; its events (none kept without a log)."""
    if game._views:
        game._freeze_views()
    if isinstance(a, AdjustBadge):
        return apply_manual(game, a)
    st = game.state
    if not isinstance(a.seat, int) or not 0 <= a.seat < len(st.seats):
        raise IllegalAction("no_such_seat", f"there is no seat {a.seat!r}")
    if isinstance(a, Undo):
        return apply_undo(game, a)
    if isinstance(a, OfferEnd):
        return apply_offer(game, a)
    if isinstance(a, AnswerEnd):
        return apply_answer(game, a)
    raise IllegalAction("not_legal", f"{a!r} is not a table action")  # pragma: no cover


def table_step(game: GameBase, a: Action, kind: str, data: dict[str, Any] | None = None) -> list[Event]:
    """Record a table action and its event, and carry on as after any action."""
    game._events = []
    game.state.state_id += 1
    game._record_action(a, in_effect=not isinstance(a, Undo))
    game._emit(kind, a.seat, data=data)
    advance(game)
    return finish_action(game)


def finish_action(game: GameBase) -> list[Event]:
    events = game._events
    if game._keep_log:
        game.log.extend(events)
        game._events = []
    return events


# ------------------------------------------------------------------ manual adjustment (S-8)
def manual_actions(game: GameBase, seat: int) -> list[Action]:
    """S-8: the badge adjustments a Righteous seat may make by hand (never in legal_actions)."""
    if game.state.result is not None or game.state.seats[seat].side != "righteous":
        return []
    out: list[Action] = [AdjustBadge(seat, "humility", v) for v in range(MAX_HUMILITY + 1)]
    out.extend(AdjustBadge(seat, "maturity", v) for v in range(MAX_MATURITY + 1))
    return out


def apply_manual(game: GameBase, a: AdjustBadge) -> list[Event]:
    st = game.state
    if st.result is not None:
        raise IllegalAction("game_over", "the game is over")
    if not isinstance(a.seat, int) or not 0 <= a.seat < len(st.seats) or st.seats[a.seat].side != "righteous":
        raise IllegalAction("no_such_seat", f"seat {a.seat!r} has no badges to adjust")
    limit = {"humility": MAX_HUMILITY, "maturity": MAX_MATURITY}.get(a.badge)
    if limit is None:
        raise IllegalAction("unknown_badge", f"badge must be humility or maturity, not {a.badge!r}")
    if not isinstance(a.value, int) or not 0 <= a.value <= limit:
        raise IllegalAction("out_of_range", f"{a.badge} must be between 0 and {limit}")
    game._events = []
    st.state_id += 1
    game._record_action(a)
    sd = st.seats[a.seat]
    old = getattr(sd, a.badge)
    setattr(sd, a.badge, a.value)
    game._emit("manual", a.seat, data={"badge": a.badge, "from": old, "to": a.value})
    if a.badge == "maturity" and a.value > old:
        game.mode.after_level(game, a.seat)   # S-8: levels_rewarded makes a level reward only once
    advance(game)
    return finish_action(game)


# ------------------------------------------------------------------ undo
def undo_refusal(game: GameBase, seat: int) -> tuple[str, str] | None:
    """Why ``seat`` may not undo now (a reason code and words), or None when it may."""
    st = game.state
    if st.result is not None:
        return "game_over", "the game is over"
    move = game._moves
    if move is None:
        return "nothing_to_undo", "no action has been taken yet"
    action, _older, turn_no, rng_before, reveals_before = move
    if action.seat != seat:
        return "not_your_action", f"the last action was seat {action.seat}'s; only your own can be taken back"
    if isinstance(action, (OfferEnd, AnswerEnd)):
        return "cannot_undo", "an offer to end the game, or its answer, cannot be taken back"
    if game.turn_seat != seat or turn_no != st.turn_no:
        return "turn_over", "only actions taken in your own turn can be taken back, within that turn"
    if st.rng.state != rng_before or game.reveals != reveals_before:
        if game.rules < 4:
            return "hidden_revealed", ("a card was drawn, revealed, flipped or shuffled since that action: "
                                       "it cannot be taken back")
        return "hidden_revealed", ("a hidden card was shown since that action (drawn, searched for, revealed, "
                                   "flipped or shuffled, or played or discarded where others see it): "
                                   "it cannot be taken back")
    if game.rules >= 4 and game.mode.name == "duel":
        return "seen_by_opponent", ("in a duel the other side sees every action as it is taken: "
                                    "it cannot be taken back")
    return None


def apply_undo(game: GameBase, a: Undo) -> list[Event]:
    why = undo_refusal(game, a.seat)
    if why is not None:
        raise IllegalAction(*why)
    move = game._moves
    assert move is not None
    in_effect: list[Action] = []
    node = move[1]
    while node is not None:
        in_effect.append(node[0])
        node = node[1]
    in_effect.reverse()
    again = game._rebuilt(in_effect)
    state_id = game.state.state_id
    game.state = again.state
    game.state.state_id = state_id
    game.end_offer = again.end_offer
    game.end_accepted = again.end_accepted
    game._legal_cache = None
    game._moves = move[1]
    game.reveals = move[4]
    return table_step(game, a, "undone", {"action": move[0].to_json()})


# ------------------------------------------------------------------ ending a duel by agreement
def apply_offer(game: GameBase, a: OfferEnd) -> list[Event]:
    st = game.state
    if game.mode.name != "duel":
        raise IllegalAction("not_a_duel", "only a duel can be ended by agreement (co-op and solo have 10 rounds)")
    if st.result is not None:
        raise IllegalAction("game_over", "the game is over")
    if game.end_offer is not None:
        raise IllegalAction("offer_open", f"the {game.end_offer} side's offer to end is waiting for an answer")
    side = st.seats[a.seat].side
    game.end_offer = side
    game.end_accepted = ()
    r, e = game.score
    return table_step(game, a, "end_offered", {"side": side, "score": [r, e]})


def end_waiting(game: GameBase) -> list[int]:
    """G-8: the seats whose answer the standing offer to end still waits for (rules 4: every seat
    of the answering side that has not accepted yet); [] when no offer stands."""
    offer = game.end_offer
    if offer is None or game.state.result is not None:
        return []
    seats = game.state.seats
    return [i for i in range(len(seats)) if seats[i].side != offer and i not in game.end_accepted]


def apply_answer(game: GameBase, a: AnswerEnd) -> list[Event]:
    st = game.state
    if st.result is not None:
        raise IllegalAction("game_over", "the game is over")
    if game.end_offer is None:
        raise IllegalAction("no_offer", "nobody has offered to end the game")
    side = st.seats[a.seat].side
    if side == game.end_offer:
        raise IllegalAction("own_offer", "an offer to end is answered by the other side")
    if a.answer not in ("accept", "decline"):
        raise IllegalAction("malformed", f"AnswerEnd.answer must be accept or decline, not {a.answer!r}")
    if a.seat in game.end_accepted:
        raise IllegalAction("already_answered", "you accepted this offer already; it waits for your teammates")
    if a.answer == "decline":
        game.end_offer = None
        game.end_accepted = ()
        return table_step(game, a, "end_declined", {"side": side})
    r, e = game.score
    if game.rules >= 4:
        accepted = game.end_accepted + (a.seat,)
        waiting = [i for i in end_waiting(game) if i != a.seat]
        if waiting:   # G-8: the game ends only once every seat of the answering side accepted
            game.end_accepted = accepted
            return table_step(game, a, "end_answered", {"side": side, "score": [r, e], "waiting": waiting})
    game.end_offer = None
    game.end_accepted = ()
    game._events = []
    st.state_id += 1
    game._record_action(a)
    game._emit("end_accepted", a.seat, data={"side": side, "score": [r, e]})
    if game.rules < 4:   # rules 1-3: a tie went to Evil, as at the turn cap
        winner = "righteous" if r > e else "evil"
    else:                # G-8, D-SCORE: the higher score wins; a tie is a draw
        winner = "righteous" if r > e else "evil" if e > r else "draw"
    game._finish(winner, f"ended by agreement on the stalemate score {r}-{e}")
    return finish_action(game)
