"""Table actions (engine/table.py): undo and ending a duel by agreement, in the engine and in records.

* Undo takes back a seat's own last actions within its turn while nothing hidden was shown since
  and nobody else acted: the state is exactly as before the action (views, legal actions);
* it is refused, with a reason code and words, after a draw or any other reveal, for another seat's
  action, after the turn moved on, and with nothing to undo;
* Undo is an action in the record: a replay (and so the server's crash recovery) reaches the same
  state;
* a duel ends by agreement: one side offers, the other accepts (the stalemate score decides, the
  result says it was by agreement) or declines; the offering side cannot answer its own offer;
  co-op cannot be ended so.
"""

from __future__ import annotations

import pytest

from christianity_game import Game, IllegalAction, LayCostZone, Pass
from christianity_game.engine.actions import AnswerEnd, OfferEnd, Undo, action_from_json


def lay_phase_game() -> Game:
    game = Game.new(mode="coop", lineup="RR", seed=3)
    assert game.phase == "cost_zone" and game.pending[0][0] == 0
    return game


def test_undo_takes_back_laying_a_card_exactly() -> None:
    game = lay_phase_game()
    views = [game.view(s) for s in (None, 0, 1)]
    legal = game.legal_actions(0)
    lay = next(a for a in legal if isinstance(a, LayCostZone))
    game.apply(lay)
    second = next(a for a in game.legal_actions(0) if isinstance(a, LayCostZone))
    game.apply(second)
    state_id = game.state_id
    events = game.apply(Undo(0))
    assert [e.kind for e in events] == ["undone"] and game.state_id == state_id + 1
    game.apply(Undo(0))                                  # their own last actions: both of them
    for before, viewer in zip(views, (None, 0, 1)):
        now = game.view(viewer)
        assert {k: v for k, v in now.items() if k != "state_id"} == {k: v for k, v in before.items() if k != "state_id"}
    assert game.legal_actions(0) == legal


def test_undo_is_refused_with_a_reason() -> None:
    game = lay_phase_game()
    with pytest.raises(IllegalAction) as exc:
        game.apply(Undo(0))
    assert exc.value.code == "nothing_to_undo"
    game.apply(next(a for a in game.legal_actions(0) if isinstance(a, LayCostZone)))
    with pytest.raises(IllegalAction) as exc:
        game.apply(Undo(1))
    assert exc.value.code == "not_your_action"
    # passing out of the Cost Zone phase and on: the Evil deck turns over cards (hidden shown)
    while game.pending and game.pending[0][0] == 0 and game.phase in ("cost_zone", "evil", "resistance"):
        game.apply(Pass(0))
        if game.reveals:
            break
    with pytest.raises(IllegalAction) as exc:
        game.apply(Undo(game.actions[-1].seat))
    assert exc.value.code in ("hidden_revealed", "turn_over") and str(exc.value)


def test_undo_is_refused_after_a_draw() -> None:
    """A draw shows the drawer a hidden card: an action followed by a draw cannot be taken back."""
    game = Game.new(mode="duel", lineup="ER", seed=8)
    for _ in range(400):
        if game.result is not None:
            break
        seat, actions = game.pending[0]
        before = game.reveals
        action = actions[-1]
        game.apply(action)
        if game.reveals > before and game.actions[-1] is action and game.turn_seat == seat:
            with pytest.raises(IllegalAction) as exc:
                game.apply(Undo(seat))
            assert exc.value.code == "hidden_revealed"
            return
    pytest.fail("no action of the turn's seat was followed by a reveal in 400 actions")


def test_undo_replays_from_the_record() -> None:
    game = lay_phase_game()
    game.apply(next(a for a in game.legal_actions(0) if isinstance(a, LayCostZone)))
    game.apply(Undo(0))
    game.apply(game.legal_actions(0)[-1])
    record = game.to_record()
    assert [a["type"] for a in record["actions"]][:2] == ["LayCostZone", "Undo"]
    again = Game.from_record(record)
    assert again.view(None) == game.view(None) and again.state_id == game.state_id
    assert action_from_json({"type": "Undo", "seat": 0}) == Undo(0)


def test_a_duel_ends_by_agreement_on_the_stalemate_score() -> None:
    game = Game.new(mode="duel", lineup="ER", seed=4)
    game.apply(OfferEnd(1))
    with pytest.raises(IllegalAction) as exc:
        game.apply(AnswerEnd(1, "accept"))
    assert exc.value.code == "own_offer"
    with pytest.raises(IllegalAction) as exc:
        game.apply(OfferEnd(0))
    assert exc.value.code == "offer_open"
    game.apply(AnswerEnd(0, "decline"))
    assert game.result is None and game.end_offer is None
    game.apply(OfferEnd(0))
    events = game.apply(AnswerEnd(1, "accept"))
    r, e = game.score
    assert game.result is not None and "agreement" in game.result.reason
    assert game.result.winner == ("righteous" if r > e else "evil" if e > r else "draw")   # G-8: a tie draws
    assert [ev.kind for ev in events][:2] == ["end_accepted", "game_over"]
    again = Game.from_record(game.to_record())
    assert again.result == game.result


def test_co_op_cannot_be_ended_by_agreement() -> None:
    game = lay_phase_game()
    with pytest.raises(IllegalAction) as exc:
        game.apply(OfferEnd(0))
    assert exc.value.code == "not_a_duel"
    with pytest.raises(IllegalAction) as exc:
        game.apply(AnswerEnd(1, "maybe"))
    assert exc.value.code == "no_offer"
