"""The search bots find the winning line in four prepared duel positions where the heuristic bot
does not (issues 10 and 24): a free finale that must be resisted, a last Habitual to break for the
Righteous win, a seventh Habitual that wins for Evil, and a chain to carry on before the Righteous
answer resets it. Both ``search`` (flat Monte Carlo) and ``mcts`` (ISMCTS) are held to them.

Each position is built with ``Game.from_position``. For each, the test checks the position
itself first: after the heuristic bot's choice, the game (played on by heuristic bots for every
seat) is not won by the deciding side within the horizon; after the search bot's choice it is.
The search is deterministic (a seed and an iteration budget) and takes well under a second.

Hidden cards are only fillers where the deciding seat cannot see them (a Righteous card in an Evil
deck, an Evil card in a Righteous deck: never playable), so every world the search samples holds
the same threats as the real game: the winning line is there in every world, not by luck. The one
exception is the free finale's Evil deck, which holds real threats: they come only after the
Righteous win is judged on the winning line, and they make the heuristic's line lose the round.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from christianity_game import Game, Pass, PlayCard
from christianity_game.bots.heuristic import HeuristicBot
from christianity_game.bots.mcts import MctsBot
from christianity_game.bots.search import SearchBot
from christianity_game.engine.actions import Action, ChooseReward, Resist
from christianity_game.engine.duel import threat_cost

E_FILL = "still-waters"   # filler for Evil seats (a Righteous card: an Evil seat never plays it)
R_FILL = "sloth"          # filler for Righteous seats (an Evil card: a Righteous seat never plays it)
LEAVEN = "a-little-leaven"   # a Temptation
SECRET = "secret-sin"        # an Evil Habitual
BROAD = "the-broad-way"      # an Evil Habitual
HARDENED = "hardened-heart"  # an Evil Habitual with RX = Habituals holding the target + 2


def _threaten(g: Game, card_id: str, target: int) -> None:
    _, actions = g.pending[0]
    g.apply(next(a for a in actions if isinstance(a, PlayCard) and g.defs[a.card].id == card_id
                 and a.to_seat == target))


def _evil_passes(g: Game) -> None:
    while g.pending and g.state.seats[g.pending[0][0]].side == "evil":
        g.apply(next(a for a in g.pending[0][1] if isinstance(a, Pass)))


def free_finale() -> Game:
    """ER, Evil's turn. The Righteous seat is at L3 with no Evil Habitual in play: the clean round
    is armed and is judged as Evil's next turn starts. Evil, with one Cost, chains "A Little
    Leaven" into "Secret Sin", which lands free: the finale. The Righteous seat has exactly the
    Habitual's resistance untapped. The heuristic pays the Temptation at the head of the burst
    (it can afford it) and the Habitual takes hold; letting the Temptation through and resisting
    the finale keeps the round clean, and Evil, tapped out, cannot stop the win.

    Evil's deck (hidden from the deciding seat; its cards come only after the win is judged on the
    winning line) is five Temptations of R2 and two Secret Sins in the seven cards Evil holds by its
    next turn: however it fills its Cost Zone (it lays three, Temptations before Habituals), two
    Temptations are left to drain the Righteous seat's 4 untapped Cost and a Secret Sin to take
    hold, so on the heuristic's line the clean round restarts again in round 6."""
    pos: dict[str, Any] = {"round": 5, "turn_seat": 0, "phase": "main", "seats": [
        {"hand": [LEAVEN, SECRET],
         "cost_zone": [E_FILL, {"id": E_FILL, "tapped": True}, {"id": E_FILL, "tapped": True}],
         "deck": [LEAVEN, SECRET, "gossip", LEAVEN, "gossip", LEAVEN, SECRET, BROAD]},
        {"humility": 4, "maturity": 3, "hand": [R_FILL, R_FILL], "cost_zone": [E_FILL] * 3,
         "deck": [R_FILL] * 12},
    ]}
    g = Game.from_position(pos, mode="duel", lineup="ER", seed=1)
    _threaten(g, LEAVEN, 1)
    _threaten(g, SECRET, 1)
    _evil_passes(g)
    assert [t["finale"] for t in g.view(1)["threats"]] == [False, True]
    return g


def last_habitual() -> Game:
    """ER, the Righteous seat's Main phase: at L3, one Evil Habitual (R3) still holds it, 6 Cost
    untapped. Evil interrupts with "A Little Leaven" (R2) and shows a face-up "Broad Way" in its
    Cost Zone for its next turn. The heuristic pays the Temptation, then breaks the Habitual and is
    left with 1 Cost, so Evil's next Habitual takes hold. Taking the hit and breaking the last
    Habitual keeps 3 Cost to resist it: the clean round holds and wins two turns sooner."""
    pos: dict[str, Any] = {"round": 7, "turn_seat": 1, "phase": "main", "seats": [
        {"hand": [LEAVEN],
         "cost_zone": [E_FILL, {"id": BROAD, "tapped": True, "face_up": True}, {"id": E_FILL, "tapped": True}],
         "deck": [E_FILL] * 12},
        {"humility": 4, "maturity": 3, "hand": [R_FILL] * 3, "cost_zone": [E_FILL] * 6,
         "held": [{"id": BROAD, "by": 0}], "deck": [R_FILL] * 12},
    ]}
    g = Game.from_position(pos, mode="duel", lineup="ER", seed=1)
    _threaten(g, LEAVEN, 1)
    _evil_passes(g)
    return g


def seventh_habitual() -> Game:
    """ER, Evil's turn: six of Evil's own "Hardened Heart"s hold the Righteous seat (dominance: C2
    off), a seventh is in Evil's hand, its Cost Zone is tapped, and it has earned a micro-reward.
    The Righteous seat has 3 of its 6 Cost Zone cards untapped, 2 cards in hand and an empty deck.
    The heuristic takes "draw" (a thin hand); "untap" pays for the seventh Habitual now, and the
    Righteous seat cannot break any in its one round (each needs 9, it has at most 8): Evil wins.
    A turn later is too late: against six, each needs 8, and the Righteous seat, untapped with its
    two cards laid, breaks one in its turn (and one a turn while Evil's deck, all fillers, brings
    no more), so the seventh Evil plays on its next turn only makes six again."""
    held = [{"id": HARDENED, "by": 0, "spent": True}] * 6
    pos: dict[str, Any] = {"round": 6, "turn_seat": 0, "phase": "main", "seats": [
        {"hand": [HARDENED], "cost_zone": [{"id": E_FILL, "tapped": True}] * 3, "deck": [E_FILL] * 24},
        {"humility": 3, "maturity": 1, "hand": [R_FILL] * 2, "held": held, "deck": [],
         "cost_zone": [E_FILL] * 3 + [{"id": E_FILL, "tapped": True}] * 3},
    ], "duel": {"reward_queue": [{"seat": 0, "kind": "evil"}]}}
    return Game.from_position(pos, mode="duel", lineup="ER", seed=1)


def chain_to_stop() -> Game:
    """ER, Evil's Main phase: six Evil Habituals in play on the table (the field: no dominance, and
    the Righteous seat cannot break them), so a seventh wins for Evil. Evil has just played "A
    Little Leaven" (R2) at the Righteous seat, which has 3 Cost untapped: the chain's discount (C1)
    makes "The Broad Way" (C2, R3) cost the 1 Cost Evil has left, only until the Righteous side
    answers the Leaven, which resets the chain. The heuristic holds the Habitual back (the target
    could pay it alone) and passes: the answer resets the chain, the Habitual costs 2 from then on,
    and it never sticks. Played now, the two threats need 5 Cost and the target has 3: paying the
    Leaven lets the Habitual take hold (seven: Evil wins after the Righteous turn); letting the
    Leaven fail is the third Temptation through this turn, whose reward untaps 2 for the second
    "Broad Way" in Evil's hand."""
    pos: dict[str, Any] = {"round": 6, "turn_seat": 0, "phase": "main", "seats": [
        {"hand": [LEAVEN, BROAD, BROAD, E_FILL],
         "cost_zone": [E_FILL, E_FILL, {"id": E_FILL, "tapped": True}], "deck": [E_FILL] * 12},
        {"humility": 3, "maturity": 1, "hand": [R_FILL] * 2, "cost_zone": [E_FILL] * 3, "deck": [R_FILL] * 12},
    ], "field": [{"id": BROAD, "owner": 0}] * 6, "duel": {"failed_temptations": 2}}
    g = Game.from_position(pos, mode="duel", lineup="ER", seed=1)
    _threaten(g, LEAVEN, 1)
    assert g.view(0)["duel"]["chain"]["count"] == 1
    return g


def play_on(game: Game, first: Action, horizon: int) -> Any:
    """The result after ``first`` and up to ``horizon`` more actions by heuristic bots (None: undecided)."""
    g = game.clone()
    g.apply(first)
    bots = {i: HeuristicBot(50 + i) for i in range(len(g.lineup))}
    for _ in range(horizon):
        if g.state.result is not None or not g.pending:
            break
        seat, actions = g.pending[0]
        g.apply(bots[seat].choose(g.seat_view(seat), actions))
    return g.state.result


ITERATIONS = 60   # each bot's iteration budget, unless a position names another for it
POSITIONS: list[tuple[Callable[[], Game], str, int, type, Any, dict[str, int]]] = [
    # builder, the deciding side, horizon (actions), the winning action's type and a test on it,
    # and the iteration budgets that differ from ITERATIONS
    (free_finale, "righteous", 40, Pass, None, {}),
    (last_habitual, "righteous", 12, Pass, None, {}),
    (seventh_habitual, "evil", 80, ChooseReward, "untap", {}),
    # mcts: the heuristic Evil keeps its Habituals in hand (it lays Temptations and fillers to its
    # Cost Zone first), so its rollouts after the heuristic's Pass are no longer hopeless and the
    # two moves score close; at 60 iterations mcts keeps the Pass (seeds 1-8), at 400 it finds
    # the Broad Way with every seed 1-8 (in 7 of 8 at 300)
    (chain_to_stop, "evil", 80, PlayCard, BROAD, {"mcts": 400}),
]
IDS = ["free-finale", "last-habitual", "seventh-habitual", "chain-to-stop"]
BOTS: dict[str, Callable[[int, int], Any]] = {
    "search": lambda seed, iterations: SearchBot(seed, time_ms=None, iterations=iterations),
    "mcts": lambda seed, iterations: MctsBot(seed, time_ms=None, iterations=iterations),
}


@pytest.mark.parametrize("bot_name", list(BOTS))
@pytest.mark.parametrize("build, side, horizon, kind, detail, budgets", POSITIONS, ids=IDS)
def test_search_finds_the_winning_line_the_heuristic_misses(build: Callable[[], Game], side: str, horizon: int,
                                                            kind: type, detail: Any, budgets: dict[str, int],
                                                            bot_name: str) -> None:
    game = build()
    seat, actions = game.pending[0]
    assert game.state.seats[seat].side == side and game.state.result is None
    heuristic = HeuristicBot(3).choose(game.seat_view(seat), actions)
    iterations = budgets.get(bot_name, ITERATIONS)
    bot = BOTS[bot_name](3, iterations)
    searched = bot.decide(game, seat, actions)
    assert bot.last_iterations == iterations
    # the heuristic's choice does not win within the horizon; the search's does
    after_heuristic = play_on(game, heuristic, horizon)
    assert after_heuristic is None or after_heuristic.winner != side, after_heuristic
    after_search = play_on(game, searched, horizon)
    assert after_search is not None and after_search.winner == side, (searched, after_search)
    assert isinstance(searched, kind) and searched != heuristic
    if isinstance(searched, ChooseReward):
        assert searched.reward == detail
    elif isinstance(searched, PlayCard):
        assert game.defs[searched.card].id == detail
    # and the same seed decides the same way (the budget is iterations, not time)
    assert BOTS[bot_name](3, iterations).decide(game, seat, actions) == searched


def test_the_heuristic_pays_the_temptation_at_the_head_of_the_burst() -> None:
    """What the heuristic misses, spelled out: in both Righteous positions it pays the Temptation in
    full (it can afford it), which leaves too little for what matters."""
    for build in (free_finale, last_habitual):
        game = build()
        seat, actions = game.pending[0]
        pick = HeuristicBot(3).choose(game.seat_view(seat), actions)
        assert isinstance(pick, Resist) and game.defs[pick.threat].id == LEAVEN


def test_the_heuristic_holds_back_the_habitual_the_chain_pays_for() -> None:
    game = chain_to_stop()
    seat, actions = game.pending[0]
    assert isinstance(HeuristicBot(3).choose(game.seat_view(seat), actions), Pass)
    broad = next(a for a in actions if isinstance(a, PlayCard) and game.defs[a.card].id == BROAD)
    assert threat_cost(game, seat, broad.card) == 1   # the chain's C1 off; 2 once it resets
