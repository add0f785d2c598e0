"""The ``mcts`` bot finds the winning line in prepared duel positions where the heuristic bot does not
(issue 24, "How it is checked"): a free finale to resist, a last Habitual to break for the Righteous
win, a seventh Habitual for Evil, and a chain to carry on before the Righteous answer resets it.

Each position is data, one TOML file under ``tests/positions/`` (like python-chess's perft
fixtures): ``[position]`` in the project's position format (``engine/position_format.py``, started
with ``Game.from_position``), ``setup`` (the moves that lead from it to the decision, e.g. Evil's
burst of threats), the deciding ``side``, the ``heuristic`` move and the ``best`` move (as move
specs, see :func:`matches`), the mcts ``budget`` (an iteration budget, so the choice is
deterministic) and ``wins_by_round``: the round by whose end the best line has won. ``rules``
names the rule IDs it exercises and ``shows`` says what it shows.

For each position the claim is checked both ways:

- the heuristic (``make_bot("heuristic")``) picks the fixture's ``heuristic`` move; the mcts bot
  (``make_bot(budget, seed)``, several seeds) picks ``best``, a different move;
- played out by heuristic bots for every seat, the best move wins for the deciding side by
  ``wins_by_round``; the heuristic's move does not (the state after it is checked too: a Habitual
  that takes hold, the seventh that never comes).

Unlike tests/test_search_positions.py (the same four themes, inline positions, ``MctsBot`` and
``SearchBot`` at 60 iterations), these are four other positions, with other heuristic mistakes:
a Resistance card spent on the head Temptation instead of on the finale (twice: at the finale, and
with a last Habitual to break), "untap" taken instead of "flip" when a seventh Habitual lies face
down in Evil's own Cost Zone, and the chain's Habitual held back until the answer resets the chain.

What these do and do not show, said plainly:

- Budgets (measured with seeds 1-8): in two positions mcts finds the move with every seed from 30
  iterations on; the fixtures use 100. In "last Habitual: break it and keep the card" it keeps the
  heuristic's move with every seed at 30 and 60 iterations, finds it with 5 of 8 at 100 and with all
  8 at 200 and 300; the fixture uses 300. In "chain: play the Habitual before the answer" (since the
  heuristic Evil lays Temptations and fillers before Habituals, its rollouts after the Pass keep the
  Broad Ways and score close to the Broad Way's) it keeps the Pass with every seed at 100, finds the
  Broad Way with 6 of 8 at 200 and with all 8 at 300; the fixture uses 300.
- In "last Habitual: break it and keep the card" the heuristic's line is worse, not lost: it wins
  too, a round later (round 9 instead of 8). The test checks exactly that.
- The winning lines are checked against heuristic replies (as the search's own rollouts play), not
  against every reply. The free finale and the flipped seventh Habitual win whatever the other side
  does (Evil is tapped out; no Hardened Heart can be broken with the Cost the Righteous seat can
  reach). In "chain: play the Habitual before the answer" a Righteous seat that let the Leaven
  through and paid one Broad Way would hold Evil to seven and break the seventh in its turn; the
  heuristic pays the Leaven at the head of the burst.

Hidden cards are fillers where the deciding seat cannot see them (a Righteous card in an Evil deck,
an Evil card in a Righteous deck or hand: never playable), except the Evil deck of the free-finale
position, which holds real threats (they come only after the Righteous win is judged on the best
line): five Temptations of R2 and two Secret Sins in the seven cards Evil holds by its next turn, so
on the heuristic's line, however Evil fills its Cost Zone (three cards, Temptations before
Habituals), two Temptations drain the Righteous seat and a Secret Sin takes hold again.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from christianity_game import Game, Result
from christianity_game.bots import make_bot
from christianity_game.bots.mcts import MctsBot
from christianity_game.engine.actions import Action, ChooseReward, Pass, PlayCard, Resist
from christianity_game.engine.duel import threat_cost
from christianity_game.engine.duel_mode import DuelMode

POSITIONS = Path(__file__).parent / "positions"
SEEDS = (1, 2, 3, 4)   # the mcts bot's seeds: every one must find the move (not one lucky seed)


def load(name: str) -> dict[str, Any]:
    """The fixture ``tests/positions/<name>.toml``."""
    with open(POSITIONS / f"{name}.toml", "rb") as f:
        return tomllib.load(f)


def matches(game: Game, action: Action, spec: dict[str, Any]) -> bool:
    """Whether ``action`` is the move ``spec`` names: ``{pass = true}``; ``{play = card id, at = seat}``
    (a card played at a seat); ``{play = card id, against = card id}`` (a Resistance card against a
    threat); ``{resist = card id, amount = n}`` (Cost paid against a threat or a held Habitual);
    ``{reward = "untap"}`` (a micro-reward)."""
    if spec.get("pass"):
        return isinstance(action, Pass)
    if "play" in spec:
        return (isinstance(action, PlayCard) and game.defs[action.card].id == spec["play"]
                and ("at" not in spec or action.to_seat == spec["at"])
                and ("against" not in spec
                     or (action.threat is not None and game.defs[action.threat].id == spec["against"])))
    if "resist" in spec:
        return (isinstance(action, Resist) and game.defs[action.threat].id == spec["resist"]
                and ("amount" not in spec or action.amount == spec["amount"]))
    if "reward" in spec:
        return isinstance(action, ChooseReward) and action.reward == spec["reward"]
    raise ValueError(f"not a move spec: {spec!r}")


def the_move(game: Game, spec: dict[str, Any]) -> Action:
    """The one legal action of the seat the game waits for that ``spec`` names (the first of several)."""
    seat, actions = game.pending[0]
    hits = [a for a in actions if matches(game, a, spec)]
    assert hits, f"{spec} is not among seat {seat}'s legal actions {actions}"
    return hits[0]


def build(fixture: dict[str, Any]) -> Game:
    """The fixture's game at its decision: the position, then its ``setup`` moves."""
    game = Game.from_position(fixture["position"], mode="duel", lineup=fixture["lineup"], seed=fixture["seed"])
    for spec in fixture.get("setup", []):
        game.apply(the_move(game, spec))
    return game


def play_out(game: Game, first: Action, max_actions: int, last_round: int, last_turn: int | None = None) -> Game:
    """A copy of ``game`` after ``first`` and then heuristic bots for every seat, until the game ends,
    ``max_actions`` have been taken, round ``last_round`` is over, or (``last_turn``) that turn is."""
    g = game.clone()
    g.apply(first)
    bots = {i: make_bot("heuristic", 50 + i) for i in range(len(g.lineup))}
    for _ in range(max_actions):
        if g.state.result is not None or not g.pending or g.state.round > last_round:
            break
        if last_turn is not None and g.state.turn_no > last_turn:
            break
        seat, actions = g.pending[0]
        g.apply(bots[seat].choose(g.seat_view(seat), actions))
    return g


def won(result: Result | None, side: str, by_round: int) -> bool:
    return result is not None and result.winner == side and result.round <= by_round


def check(name: str) -> tuple[Game, Game, Game]:
    """The claim of the fixture ``name``, both ways (see the module docstring); the position, the
    game after the heuristic's line and after the best line, for the test's own checks."""
    fx = load(name)
    game = build(fx)
    seat, actions = game.pending[0]
    assert game.state.seats[seat].side == fx["side"] and game.state.result is None
    best, bad = the_move(game, fx["best"]), the_move(game, fx["heuristic"])
    assert best != bad
    # the heuristic picks the fixture's (worse) move
    heuristic = make_bot("heuristic", 3).choose(game.seat_view(seat), actions)
    assert matches(game, heuristic, fx["heuristic"]), heuristic
    assert not matches(game, heuristic, fx["best"])
    # the mcts bot, at an iteration budget, picks the best move with every seed, and again the same
    for seed in SEEDS:
        bot = make_bot(fx["budget"], seed)
        assert isinstance(bot, MctsBot) and bot.iterations is not None and bot.time_ms is None
        chosen = bot.decide(game, seat, actions)
        assert bot.last_iterations == bot.iterations
        assert matches(game, chosen, fx["best"]), (seed, chosen)
        assert chosen != heuristic
        assert make_bot(fx["budget"], seed).decide(game, seat, actions) == chosen
    # played out: the best line wins by the round, the heuristic's does not
    after_best = play_out(game, best, fx["max_actions"], fx["wins_by_round"])
    assert won(after_best.state.result, fx["side"], fx["wins_by_round"]), after_best.state.result
    after_heuristic = play_out(game, heuristic, fx["max_actions"], fx["wins_by_round"])
    assert not won(after_heuristic.state.result, fx["side"], fx["wins_by_round"]), after_heuristic.state.result
    return game, after_heuristic, after_best


@pytest.mark.parametrize("path", sorted(POSITIONS.glob("*.toml")), ids=lambda p: p.stem)
def test_every_fixture_says_what_it_shows(path: Path) -> None:
    """Each fixture is complete: its rule IDs are the rules document's, and its moves are legal."""
    fx = load(path.stem)
    rules_doc = (Path(__file__).parent.parent / "docs" / "rules.md").read_text()
    assert fx["name"] and len(fx["shows"]) > 200
    for rule in fx["rules"]:
        assert rule in rules_doc, rule
    assert fx["side"] in ("righteous", "evil") and fx["budget"].startswith("mcts:") and fx["budget"].endswith("it")
    game = build(fx)
    the_move(game, fx["best"])
    the_move(game, fx["heuristic"])


def test_D_COMBO_2_D_MR_4_D_W_R_free_finale_resisted_with_the_last_card() -> None:
    """A free finale to resist: the heuristic spends its Resistance card on the Temptation at the head
    of the burst and the finale's Habitual takes hold; mcts lets the Temptation through and plays the
    card on the finale, and the clean round wins at Evil's next turn."""
    game, after_heuristic, after_best = check("free-finale-resistance-card")
    assert [t["finale"] for t in game.view(1)["threats"]] == [False, True]
    assert after_best.state.result is not None and after_best.state.result.round == 6
    assert after_best.state.seats[1].humility == 3          # the Temptation's price: 1 Humility
    # the heuristic's line: Secret Sin took hold, the clean round restarted, no win in round 6
    evil_turn = play_out(game, the_move(game, {"play": "rod-and-staff", "against": "envy"}), 60, 5,
                         last_turn=game.state.turn_no)
    assert evil_turn.state.turn_no == game.state.turn_no + 1 and evil_turn.evil_habituals_in_play() == 1
    assert after_heuristic.state.result is None


def test_D_W_R_D_INT_2_last_habitual_broken_with_the_card_kept() -> None:
    """A last Habitual to break: the heuristic plays its Resistance card on Evil's interrupting
    Temptation (and pays the card's boost) and cannot break the Habitual; mcts takes the Temptation,
    breaks the last Habitual, and keeps the card for Evil's next one: the win comes a round sooner."""
    game, after_heuristic, after_best = check("last-habitual-keep-the-card")
    assert game.evil_habituals_in_play() == 1
    assert after_best.state.result is not None and after_best.state.result.round == 8
    # the heuristic's line is not lost, only slower: it wins in round 9
    slower = play_out(game, the_move(game, {"play": "rod-and-staff", "against": "a-little-leaven"}), 80, 9)
    assert won(slower.state.result, "righteous", 9) and slower.state.result is not None
    assert slower.state.result.round == 9
    # ... because after Evil's turn two Habituals hold the seat: the one it could not break, and Evil's next
    evil_turn = play_out(game, the_move(game, {"play": "rod-and-staff", "against": "a-little-leaven"}), 80, 8,
                         last_turn=game.state.turn_no + 1)
    assert evil_turn.state.turn_no == game.state.turn_no + 2 and evil_turn.evil_habituals_in_play() == 2
    assert after_heuristic.state.result is None


def test_D_W_E_D_MR_5_seventh_habitual_flipped_up_from_the_cost_zone() -> None:
    """A seventh Habitual for Evil: the heuristic takes "untap" and has nothing to play with it; mcts
    takes "flip", plays the face-up Hardened Heart from its Cost Zone, and the seven hold."""
    game, after_heuristic, after_best = check("seventh-habitual-flip")
    assert game.evil_habituals_in_play() == 6
    assert after_best.evil_habituals_in_play() == 7
    assert after_best.state.result is not None and "7 Evil Habituals" in after_best.state.result.reason
    assert after_heuristic.evil_habituals_in_play() <= 6 and after_heuristic.state.result is None


def test_D_COMBO_3_D_W_E_chain_carried_on_before_the_answer_resets_it() -> None:
    """A chain to carry on before the Righteous answer resets it: the heuristic holds the Habitual
    back and the answer resets the chain; mcts plays it now (C1), the second comes free, and two take
    hold: the Righteous seat breaks one, seven stay, Evil wins."""
    game, after_heuristic, after_best = check("chain-before-the-answer")
    seat = game.pending[0][0]
    broad = the_move(game, {"play": "the-broad-way", "at": 1})
    assert isinstance(broad, PlayCard) and isinstance(game.mode, DuelMode)
    assert game.view(0)["duel"]["chain"]["count"] == 1
    assert threat_cost(game, seat, broad.card) == 1                 # the chain's C1 off, only until the answer
    assert after_best.state.result is not None and "7 Evil Habituals" in after_best.state.result.reason
    assert after_heuristic.evil_habituals_in_play() == 6 and after_heuristic.state.result is None
