"""G-8: ending a duel by agreement needs the whole answering side, and a tie is a draw (issue 22, item 3).

* in EER and ERR (two seats on one side) one seat's accept does not end the game: it waits for the
  teammate (``end_waiting``), who is asked too; a seat cannot accept twice; one decline ends the
  offer for the whole side, and the next offer starts again from nobody;
* when every seat of the side accepted, the stalemate score decides: the higher side wins, and a tie
  is a draw (``Result.winner == "draw"``), in the view, the record's replay and the terminal's words;
* records played under rules 1-3 replay as played: one accept ended the game, a tie went to Evil.
"""

from __future__ import annotations

import pytest
from rich.console import Console

from christianity_game import Game, IllegalAction
from christianity_game.engine.actions import AnswerEnd, OfferEnd
from christianity_game.render.terminal import describe_event, render_result


def sides(game: Game) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {"righteous": [], "evil": []}
    for i, seat in enumerate(game.state.seats):
        out[seat.side].append(i)
    return out


@pytest.mark.parametrize("lineup", ["EER", "ERR"])
def test_G8_every_seat_of_the_answering_side_must_accept(lineup: str) -> None:
    game = Game.new(mode="duel", lineup=lineup, seed=11)
    by_side = sides(game)
    two = "evil" if lineup == "EER" else "righteous"      # the side with two seats answers
    one = "righteous" if two == "evil" else "evil"
    first, second = by_side[two]
    game.apply(OfferEnd(by_side[one][0]))
    assert game.end_waiting() == [first, second]
    events = game.apply(AnswerEnd(first, "accept"))
    assert game.result is None and game.end_offer == one, "one partner ended the game for the whole side"
    assert [e.kind for e in events] == ["end_answered"] and events[0].data["waiting"] == [second]
    assert game.end_waiting() == [second] and game.end_accepted == (first,)
    with pytest.raises(IllegalAction) as exc:
        game.apply(AnswerEnd(first, "accept"))
    assert exc.value.code == "already_answered"
    with pytest.raises(IllegalAction) as exc:
        game.apply(AnswerEnd(by_side[one][0], "accept"))
    assert exc.value.code == "own_offer"
    events = game.apply(AnswerEnd(second, "accept"))
    assert [e.kind for e in events][:2] == ["end_accepted", "game_over"]
    assert game.result is not None and "agreement" in game.result.reason
    again = Game.from_record(game.to_record())
    assert again.result == game.result and again.view(None) == game.view(None)


@pytest.mark.parametrize("lineup", ["EER", "ERR"])
def test_G8_a_teammates_decline_ends_the_offer_for_the_side(lineup: str) -> None:
    game = Game.new(mode="duel", lineup=lineup, seed=12)
    by_side = sides(game)
    two = "evil" if lineup == "EER" else "righteous"
    one = "righteous" if two == "evil" else "evil"
    first, second = by_side[two]
    game.apply(OfferEnd(by_side[one][0]))
    game.apply(AnswerEnd(first, "accept"))
    events = game.apply(AnswerEnd(second, "decline"))
    assert [e.kind for e in events] == ["end_declined"]
    assert game.result is None and game.end_offer is None and game.end_waiting() == [] and game.end_accepted == ()
    game.apply(OfferEnd(by_side[one][0]))                 # a new offer asks both again
    assert game.end_waiting() == [first, second]
    game.apply(AnswerEnd(second, "accept"))
    assert game.result is None
    game.apply(AnswerEnd(first, "accept"))
    assert game.result is not None


@pytest.mark.parametrize("lineup", ["ER", "EER", "ERR"])
def test_G8_a_tied_score_ends_as_a_draw(lineup: str) -> None:
    game = Game.new(mode="duel", lineup=lineup, seed=13)
    assert game.score == (0, 0)                           # at the start: a tie
    by_side = sides(game)
    game.apply(OfferEnd(by_side["evil"][0]))
    for seat in by_side["righteous"]:
        game.apply(AnswerEnd(seat, "accept"))
    res = game.result
    assert res is not None and res.winner == "draw" and res.reason == "ended by agreement on the stalemate score 0-0"
    assert game.view(None)["result"]["winner"] == "draw"
    assert Game.from_record(game.to_record()).result == res
    over = describe_event(next(e for e in game.log if e.kind == "game_over").for_seat(None))
    assert over == "Game over: a draw (ended by agreement on the stalemate score 0-0)"
    console = Console(record=True, width=100)
    console.print(render_result(game.view(None)))
    assert "A draw" in console.export_text() and "win" not in console.export_text()


@pytest.mark.parametrize("lineup", ["EER", "ERR"])
def test_G8_rules_3_records_replay_one_partner_and_a_tie_to_evil(lineup: str) -> None:
    game = Game.new(mode="duel", lineup=lineup, seed=11, rules=3)
    by_side = sides(game)
    two = "evil" if lineup == "EER" else "righteous"
    one = "righteous" if two == "evil" else "evil"
    game.apply(OfferEnd(by_side[one][0]))
    game.apply(AnswerEnd(by_side[two][0], "accept"))
    assert game.result is not None and game.result.winner == "evil"   # 0-0 went to Evil under rules 3
    assert Game.from_record(game.to_record()).result == game.result
