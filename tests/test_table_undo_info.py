"""G-7: Undo takes back nothing that showed anyone something hidden (issue 22, item 2).

* a search (the-lost-sheep) lists the searcher's deck in deck order: once its options are shown,
  Undo is refused (rules 1-3 accepted it, and the card went back to hand with the deck unshuffled;
  those records still replay as played);
* a card played from a hand at a table of more than one seat is seen by the others: Undo is refused;
  in solo nobody else sees it and it may still be taken back;
* in a duel the other side sees every action as it is taken: Undo is refused (``seen_by_opponent``),
  the case the issue met being a Righteous play the Evil player had seen;
* the property, over seeded random games of every mode with Undo tried at most steps: after every
  accepted Undo each seat's view (and the spectator's) is exactly its view before the undone actions,
  and in between no seat was shown a card (by its view or by an event) it could not see before them,
  nor a list of cards by name (a reveal, foresight).
"""

from __future__ import annotations

from typing import Any

import pytest
from scenario import ANCHOR, FILLER, Scenario, cost

from christianity_game import Game, IllegalAction, LayCostZone, PlayCard
from christianity_game.engine.actions import Action, Undo
from christianity_game.engine.events import Event
from christianity_game.engine.rng import Rng

#: every reason an Undo may be refused with
UNDO_REASONS = {"game_over", "nothing_to_undo", "not_your_action", "cannot_undo", "turn_over", "hidden_revealed",
                "seen_by_opponent"}


def lost_sheep(rules: int | None = None) -> Scenario:
    """Solo, Main phase: the-lost-sheep in hand with its Cost, three Maturity cards in the deck."""
    s = Scenario(mode="solo", lineup="R", phase="main", rules=rules)
    s.hand(0, "the-lost-sheep", ANCHOR).untapped(0, cost("the-lost-sheep"))
    s.deck(0, "well-done", FILLER, "faithful-in-little", FILLER, "greatest-among-you")
    s.start()
    s.play(0, "the-lost-sheep")
    s.expect_decision(0, "search")
    return s


def test_G7_undo_is_refused_once_a_search_showed_the_deck() -> None:
    s = lost_sheep()
    view = s.g.view(0)
    assert view["choice"]["purpose"] == "search" and len(view["choice"]["options"]) == 3   # the deck, in order
    with pytest.raises(IllegalAction) as exc:
        s.g.apply(Undo(0))
    assert exc.value.code == "hidden_revealed" and "searched" in str(exc.value)
    assert s.g.undo_refusal(0) == (exc.value.code, exc.value.message)


def test_G7_rules_3_records_still_replay_their_undo_after_a_search() -> None:
    """Rules 1-3 accepted that Undo (the leak of issue 22); a record of it replays as it was played."""
    s = lost_sheep(rules=3)
    s.g.apply(Undo(0))
    assert s.ids(0, "hand") == ["the-lost-sheep", ANCHOR] and s.g.state.choice is None
    again = Game.from_record(s.g.to_record())
    assert again.view(None) == s.g.view(None)


def test_G7_a_card_played_where_a_teammate_sees_it_cannot_be_taken_back() -> None:
    def played(lineup: str) -> Game:
        s = Scenario(mode="coop", lineup=lineup, phase="main")
        s.hand(0, "serve-one-another", ANCHOR).untapped(0, cost("serve-one-another"), tapped=1)
        for seat in range(1, len(lineup)):
            s.hand(seat, FILLER)
        s.start()
        play = next(a for a in s.g.legal_actions(0) if isinstance(a, PlayCard) and s.g.card(a.card).id == "serve-one-another")
        s.do(play)
        return s.g

    game = played("RR")
    assert "serve-one-another" in [e.card for e in game.log if e.kind == "played" and e.private_to is None]
    assert game.undo_refusal(0) is not None and game.undo_refusal(0)[0] == "hidden_revealed"
    # solo: nobody else sees the hand, so the play may be taken back while nothing else was shown
    solo = Scenario(mode="solo", lineup="R", phase="main")
    solo.hand(0, ANCHOR, "humble-yourselves").untapped(0, 2 + cost("humble-yourselves")).start()
    before = solo.g.view(0)
    solo.play(0, ANCHOR)
    assert solo.g.phase == "main" and solo.g.actions[-1].seat == 0
    assert solo.g.undo_refusal(0) is None
    solo.g.apply(Undo(0))
    assert {k: v for k, v in solo.g.view(0).items() if k != "state_id"} == \
        {k: v for k, v in before.items() if k != "state_id"}


def _first(game: Game, seat: int, kind: type[Action]) -> Action:
    return next(a for a in game.legal_actions(seat) if isinstance(a, kind))


def test_G7_a_duel_action_the_other_side_saw_cannot_be_taken_back() -> None:
    """The issue's case: a Righteous player undid a card the Evil player had already seen played."""
    game = Game.new(mode="duel", lineup="ER", seed=5)
    for _ in range(500):   # on to the Righteous seat's first Main-phase card play
        seat, actions = game.pending[0]
        plays = [a for a in actions if isinstance(a, PlayCard)]
        if seat == 1 and plays and game.phase == "main" and game.turn_seat == 1:
            game.apply(plays[0])
            break
        game.apply(next((a for a in actions if isinstance(a, LayCostZone)), actions[-1]))
    else:
        pytest.fail("no Righteous Main-phase play in 500 actions")
    assert game.actions[-1].seat == 1
    why = game.undo_refusal(1)
    assert why is not None and why[0] in ("hidden_revealed", "seen_by_opponent")
    with pytest.raises(IllegalAction):
        game.apply(Undo(1))
    # a face-down Cost Zone card shows the Evil player no card, yet the action itself is seen
    lay = Game.new(mode="duel", lineup="ER", seed=5)
    while not (lay.pending and lay.pending[0][0] == 1 and lay.phase == "cost_zone"):
        _, actions = lay.pending[0]
        lay.apply(next((a for a in actions if isinstance(a, LayCostZone)), actions[-1]))
    lay.apply(_first(lay, 1, LayCostZone))
    assert lay.undo_refusal(1) == ("seen_by_opponent", lay.undo_refusal(1)[1])   # type: ignore[index]
    # rules 3 took it back (its records replay so)
    old = Game.new(mode="duel", lineup="ER", seed=5, rules=3)
    while not (old.pending and old.pending[0][0] == 1 and old.phase == "cost_zone"):
        _, actions = old.pending[0]
        old.apply(next((a for a in actions if isinstance(a, LayCostZone)), actions[-1]))
    old.apply(_first(old, 1, LayCostZone))
    assert old.undo_refusal(1) is None


# ------------------------------------------------------------------------------------------------
# the property: no information survives an accepted Undo


def _known(view: dict[str, Any]) -> set[int]:
    """The uids of every card whose identity ``view`` shows (anywhere: zones, stack, choice options)."""
    out: set[int] = set()
    todo: list[Any] = [view]
    while todo:
        x = todo.pop()
        if isinstance(x, dict):
            if "uid" in x and "id" in x:
                out.add(x["uid"])
            todo.extend(x.values())
        elif isinstance(x, list):
            todo.extend(x)
    return out


def _shown_by(events: list[Event], viewer: int | None) -> tuple[set[int], bool]:
    """The card uids ``events`` show ``viewer``, and whether they name cards by id without a uid
    (a reveal's or foresight's list)."""
    uids: set[int] = set()
    named = False
    for e in events:
        d = e.for_seat(viewer)
        if "uid" in d and d["uid"] is not None:
            uids.add(d["uid"])
        for key in ("cards", "foresight"):
            if isinstance(d.get(key), list) and d[key]:
                named = True
    return uids, named


def _views(game: Game, viewers: list[int | None]) -> dict[int | None, dict[str, Any]]:
    return {v: {k: x for k, x in game.view(v).items() if k != "state_id"} for v in viewers}


GAMES = [("solo", "R", 14), ("coop", "RR", 14), ("coop", "RRR", 8), ("duel", "ER", 8), ("duel", "ERR", 6)]


@pytest.mark.parametrize("mode,lineup,count", GAMES, ids=[f"{m}-{ln}" for m, ln, _ in GAMES])
def test_G7_no_information_survives_an_undo(mode: str, lineup: str, count: int) -> None:
    """Seeded random play with Undo tried at most steps: every accepted Undo restores each viewer's
    view exactly, and showed nobody a card between the undone action and the Undo."""
    viewers: list[int | None] = [None, *range(len(lineup))]
    accepted = refused = 0
    for k in range(count):
        game = Game.new(mode=mode, lineup=lineup, seed=2200 + k)
        chooser = Rng(31 * k + 7)
        known: list[dict[int | None, set[int]]] = [{v: _known(game.view(v)) for v in viewers}]
        named: list[bool] = [False]
        # the actions in effect, oldest first: (the action, its time in ``known``, the views before it)
        stack: list[tuple[Action, int, dict[int | None, dict[str, Any]]]] = []
        for _ in range(260):
            if not game.pending:
                break
            if stack and chooser.randbelow(2) == 0:
                action, before, views = stack[-1]
                why = game.undo_refusal(action.seat)
                if why is not None:
                    refused += 1
                    assert why[0] in UNDO_REASONS and why[1]
                    with pytest.raises(IllegalAction):
                        game.apply(Undo(action.seat))
                    continue
                game.apply(Undo(action.seat))
                stack.pop()
                accepted += 1
                # nothing hidden was shown to anyone from the undone action to the Undo ...
                assert not any(named[before + 1:]), f"game {k}: a reveal before an accepted Undo of {action}"
                for v in viewers[1:]:   # the seats (a spectator plays nothing: docs/decisions.md, "Undo")
                    seen = set().union(*(known[t][v] for t in range(before + 1, len(known))))
                    assert seen <= known[before][v], (
                        f"game {k}: Undo of {action} accepted after seat {v} was shown cards {seen - known[before][v]}")
                # ... and every view is as it was before it
                assert _views(game, viewers) == views, f"game {k}: the views after the Undo of {action} differ"
                known.append({v: set(known[before][v]) for v in viewers})
                named.append(False)
                continue
            seat, actions = game.pending[0]
            action = actions[chooser.randbelow(len(actions))]
            views = _views(game, viewers)
            stack.append((action, len(known) - 1, views))
            events = game.apply(action)
            step_known: dict[int | None, set[int]] = {}
            step_named = False
            for v in viewers:
                uids, by_name = _shown_by(events, v)
                step_known[v] = _known(game.view(v)) | uids
                step_named = step_named or by_name
            known.append(step_known)
            named.append(step_named)
    assert refused > 0
    if mode != "duel":
        assert accepted > 0, "no Undo was accepted: the property was not exercised"
    else:
        assert accepted == 0   # a duel's actions are seen by the other side at once
