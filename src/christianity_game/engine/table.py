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
from .flow import FlowRules


class TableRules(FlowRules):
    """Manual adjustment, undo and ending a duel by agreement (see the module docstring)."""

    __slots__ = ()

    def _apply_table(self, a: Action) -> list[Event]:
        """Check and carry out a table action; its events (none kept without a log)."""
        if self._views:
            self._freeze_views()
        if isinstance(a, AdjustBadge):
            return self._apply_manual(a)
        st = self.state
        if not isinstance(a.seat, int) or not 0 <= a.seat < len(st.seats):
            raise IllegalAction("no_such_seat", f"there is no seat {a.seat!r}")
        if isinstance(a, Undo):
            return self._apply_undo(a)
        if isinstance(a, OfferEnd):
            return self._apply_offer(a)
        if isinstance(a, AnswerEnd):
            return self._apply_answer(a)
        raise IllegalAction("not_legal", f"{a!r} is not a table action")  # pragma: no cover

    def _table_step(self, a: Action, kind: str, data: dict[str, Any] | None = None) -> list[Event]:
        """Record a table action and its event, and carry on as after any action."""
        self._events = []
        self.state.state_id += 1
        self._record_action(a, in_effect=not isinstance(a, Undo))
        self._emit(kind, a.seat, data=data)
        self._advance()
        return self._finish_action()

    def _finish_action(self) -> list[Event]:
        events = self._events
        if self._keep_log:
            self.log.extend(events)
            self._events = []
        return events

    # ------------------------------------------------------------------ manual adjustment (S-8)
    def manual_actions(self, seat: int) -> list[Action]:
        """S-8: the badge adjustments a Righteous seat may make by hand (never in legal_actions)."""
        if self.state.result is not None or self.state.seats[seat].side != "righteous":
            return []
        out: list[Action] = [AdjustBadge(seat, "humility", v) for v in range(MAX_HUMILITY + 1)]
        out.extend(AdjustBadge(seat, "maturity", v) for v in range(MAX_MATURITY + 1))
        return out

    def _apply_manual(self, a: AdjustBadge) -> list[Event]:
        st = self.state
        if st.result is not None:
            raise IllegalAction("game_over", "the game is over")
        if not isinstance(a.seat, int) or not 0 <= a.seat < len(st.seats) or st.seats[a.seat].side != "righteous":
            raise IllegalAction("no_such_seat", f"seat {a.seat!r} has no badges to adjust")
        limit = {"humility": MAX_HUMILITY, "maturity": MAX_MATURITY}.get(a.badge)
        if limit is None:
            raise IllegalAction("unknown_badge", f"badge must be humility or maturity, not {a.badge!r}")
        if not isinstance(a.value, int) or not 0 <= a.value <= limit:
            raise IllegalAction("out_of_range", f"{a.badge} must be between 0 and {limit}")
        self._events = []
        st.state_id += 1
        self._record_action(a)
        sd = st.seats[a.seat]
        old = getattr(sd, a.badge)
        setattr(sd, a.badge, a.value)
        self._emit("manual", a.seat, data={"badge": a.badge, "from": old, "to": a.value})
        if a.badge == "maturity" and a.value > old:
            self.mode.after_level(self, a.seat)   # S-8: levels_rewarded makes a level reward only once
        self._advance()
        return self._finish_action()

    # ------------------------------------------------------------------ undo
    def undo_refusal(self, seat: int) -> tuple[str, str] | None:
        """Why ``seat`` may not undo now (a reason code and words), or None when it may."""
        st = self.state
        if st.result is not None:
            return "game_over", "the game is over"
        move = self._moves
        if move is None:
            return "nothing_to_undo", "no action has been taken yet"
        action, _older, turn_no, rng_before, reveals_before = move
        if action.seat != seat:
            return "not_your_action", f"the last action was seat {action.seat}'s; only your own can be taken back"
        if isinstance(action, (OfferEnd, AnswerEnd)):
            return "cannot_undo", "an offer to end the game, or its answer, cannot be taken back"
        if self.turn_seat != seat or turn_no != st.turn_no:
            return "turn_over", "only actions taken in your own turn can be taken back, within that turn"
        if st.rng.state != rng_before or self.reveals != reveals_before:
            if self.rules < 4:
                return "hidden_revealed", ("a card was drawn, revealed, flipped or shuffled since that action: "
                                           "it cannot be taken back")
            return "hidden_revealed", ("a hidden card was shown since that action (drawn, searched for, revealed, "
                                       "flipped or shuffled, or played or discarded where others see it): "
                                       "it cannot be taken back")
        if self.rules >= 4 and self.mode.name == "duel":
            return "seen_by_opponent", ("in a duel the other side sees every action as it is taken: "
                                        "it cannot be taken back")
        return None

    def _apply_undo(self, a: Undo) -> list[Event]:
        why = self.undo_refusal(a.seat)
        if why is not None:
            raise IllegalAction(*why)
        move = self._moves
        assert move is not None
        in_effect: list[Action] = []
        node = move[1]
        while node is not None:
            in_effect.append(node[0])
            node = node[1]
        in_effect.reverse()
        again = self._rebuilt(in_effect)
        state_id = self.state.state_id
        self.state = again.state
        self.state.state_id = state_id
        self.end_offer = again.end_offer
        self.end_accepted = again.end_accepted
        self._legal_cache = None
        self._moves = move[1]
        self.reveals = move[4]
        return self._table_step(a, "undone", {"action": move[0].to_json()})

    def _rebuilt(self, actions: list[Action]) -> "TableRules":
        """This game started again and played with ``actions`` (``game.Game._rebuilt``)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ ending a duel by agreement
    def _apply_offer(self, a: OfferEnd) -> list[Event]:
        st = self.state
        if self.mode.name != "duel":
            raise IllegalAction("not_a_duel", "only a duel can be ended by agreement (co-op and solo have 10 rounds)")
        if st.result is not None:
            raise IllegalAction("game_over", "the game is over")
        if self.end_offer is not None:
            raise IllegalAction("offer_open", f"the {self.end_offer} side's offer to end is waiting for an answer")
        side = st.seats[a.seat].side
        self.end_offer = side
        self.end_accepted = ()
        r, e = self.score
        return self._table_step(a, "end_offered", {"side": side, "score": [r, e]})

    def end_waiting(self) -> list[int]:
        """G-8: the seats whose answer the standing offer to end still waits for (rules 4: every seat
        of the answering side that has not accepted yet); [] when no offer stands."""
        offer = self.end_offer
        if offer is None or self.state.result is not None:
            return []
        seats = self.state.seats
        return [i for i in range(len(seats)) if seats[i].side != offer and i not in self.end_accepted]

    def _apply_answer(self, a: AnswerEnd) -> list[Event]:
        st = self.state
        if st.result is not None:
            raise IllegalAction("game_over", "the game is over")
        if self.end_offer is None:
            raise IllegalAction("no_offer", "nobody has offered to end the game")
        side = st.seats[a.seat].side
        if side == self.end_offer:
            raise IllegalAction("own_offer", "an offer to end is answered by the other side")
        if a.answer not in ("accept", "decline"):
            raise IllegalAction("malformed", f"AnswerEnd.answer must be accept or decline, not {a.answer!r}")
        if a.seat in self.end_accepted:
            raise IllegalAction("already_answered", "you accepted this offer already; it waits for your teammates")
        if a.answer == "decline":
            self.end_offer = None
            self.end_accepted = ()
            return self._table_step(a, "end_declined", {"side": side})
        r, e = self.score
        if self.rules >= 4:
            accepted = self.end_accepted + (a.seat,)
            waiting = [i for i in self.end_waiting() if i != a.seat]
            if waiting:   # G-8: the game ends only once every seat of the answering side accepted
                self.end_accepted = accepted
                return self._table_step(a, "end_answered", {"side": side, "score": [r, e], "waiting": waiting})
        self.end_offer = None
        self.end_accepted = ()
        self._events = []
        st.state_id += 1
        self._record_action(a)
        self._emit("end_accepted", a.seat, data={"side": side, "score": [r, e]})
        if self.rules < 4:   # rules 1-3: a tie went to Evil, as at the turn cap
            winner = "righteous" if r > e else "evil"
        else:                # G-8, D-SCORE: the higher score wins; a tie is a draw
            winner = "righteous" if r > e else "evil" if e > r else "draw"
        self._finish(winner, f"ended by agreement on the stalemate score {r}-{e}")
        return self._finish_action()
