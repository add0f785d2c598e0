"""The terminal renderer: readable action and event texts, and the board (badges, hidden hands)."""

from __future__ import annotations

import random
from typing import Any

from rich.console import Console

from christianity_game import (
    AdjustBadge, BuyAbility, Choose, ChooseAbility, Game, LayCostZone, Pass, PlayCard, Resist, TakeBoost, UseAbility,
)
from christianity_game.cards import starter_set
from christianity_game.cards.model import CardDef
from christianity_game.render import (
    describe_action, describe_actions, describe_event, describe_events, render_actions, render_board, render_result,
)


def text_of(renderable: Any, width: int = 120) -> str:
    console = Console(width=width, record=True, force_terminal=False, color_system=None)
    console.print(renderable)
    return console.export_text()


def uid_of(game: Game, seat: int, card_id: str, zone: str = "hand") -> int:
    return next(u for u in getattr(game.state.seats[seat], zone) if game.defs[u].id == card_id)


# ------------------------------------------------------------------------------------ actions
def test_describe_play_card(scenario: Any) -> None:
    s = scenario(phase="main")
    s.hand(0, "still-waters").untapped(0, 3).start()
    uid = s.find(0, "still-waters")
    card = s.g.defs[uid]
    action = PlayCard(0, uid)
    assert action in s.g.legal_actions(0)
    assert describe_action(s.g, action) == f"Play Beside Still Waters (C{card.cost})"


def test_describe_play_card_aimed_at_a_teammate(scenario: Any) -> None:
    s = scenario(phase="main")
    s.hand(0, "intercession").untapped(0, 3).start()
    uid = s.find(0, "intercession")
    action = next(a for a in s.g.legal_actions(0) if isinstance(a, PlayCard) and a.card == uid)
    assert action.to_seat == 1
    assert describe_action(s.g, action).endswith("→ Seat 2")


def fixed_temptation() -> CardDef:
    """A Temptation with a printed resistance of 2 or more (not RX)."""
    return next(c for c in starter_set() if c.kind == "temptation" and c.x_rule is None and (c.resistance or 0) >= 2)


def test_describe_resist_and_resistance_card(scenario: Any) -> None:
    tempt = fixed_temptation()
    s = scenario(phase="resistance")
    s.threat(tempt.id, target=0).hand(0, "fear-not-little-flock").untapped(0, 4).start()
    threat = s.find(None, tempt.id, "threats")
    r = s.g.view(0)["threats"][0]["resistance"]
    assert r == tempt.resistance
    texts = [describe_action(s.g, a) for a in s.g.legal_actions(0)]
    assert f"Resist {tempt.name} (R{r}) with {r} Cost" in texts
    assert f"Resist {tempt.name} (R{r}) with 1 Cost (partial)" in texts
    card = s.find(0, "fear-not-little-flock")
    play = PlayCard(0, card, threat)
    assert play in s.g.legal_actions(0)
    assert describe_action(s.g, play).endswith(f"to resist {tempt.name} (R{r})")
    assert describe_action(s.g, Pass(0)) == "Done resisting: 1 unresisted threat will fail"


def test_describe_take_boost_names_card_payer_and_effect(scenario: Any) -> None:
    card = next(c for c in starter_set() if c.kind == "action" and not c.needs_teammate() and c.boosts
                and c.boosts[0].payer == "teammate" and not c.boosts[0].fast
                and not any(e.needs_teammate() for e in c.boosts[0].effects))
    boost_def = card.boosts[0]
    s = scenario(phase="main")
    s.hand(0, card.id).untapped(0, card.cost + 2).untapped(1, boost_def.cost + 2).deck(0, "sloth", "sloth", "sloth")
    s.deck(1, "sloth", "sloth").start()
    s.g.apply(PlayCard(0, s.find(0, card.id)))
    for _ in range(10):
        if any(isinstance(a, TakeBoost) for a in s.g.legal_actions(0)):
            break
        s.g.apply(Pass(s.g.pending[0][0]))
    boost = next(a for a in s.g.legal_actions(0) if isinstance(a, TakeBoost))
    text = describe_action(s.g, boost)
    assert text.startswith(f"Take boost 1 of {card.name} (teammate Seat 2 pays C{boost_def.cost}): ")
    assert text.endswith(boost_def.text.split("):", 1)[1].strip())
    assert describe_action(s.g, Pass(0)) == f"Done with the boosts of {card.name}"


def test_describe_lay_public_and_private() -> None:
    game = Game.new(mode="coop", lineup="RR", seed=7)
    lay = next(a for a in game.legal_actions(0) if isinstance(a, LayCostZone))
    name = game.defs[lay.card].name
    assert describe_action(game, lay) == f"Lay {name} in the Cost Zone (face down)"
    assert name not in describe_action(game, lay, public=True)
    assert describe_action(game, Pass(0)) == "Done laying the Cost Zone"


def test_describe_abilities_choices_and_badges() -> None:
    game = Game.new(mode="coop", lineup="RR", seed=7)
    assert describe_action(game, AdjustBadge(0, "humility", 5)) == "Set your Humility to 5 by hand (S-8)"
    assert describe_action(game, AdjustBadge(0, "maturity", 2)) == "Set your Maturity to L2 by hand (S-8)"
    assert describe_action(game, BuyAbility(0, "speed")).startswith("Buy Speed for 7 Cost: ")
    assert describe_action(game, BuyAbility(0, "deliverance")).startswith("Buy Deliverance for 11 Cost: ")
    assert describe_action(game, ChooseAbility(0, "foresight")).startswith("Choose Foresight (free): reveal")
    assert describe_action(game, UseAbility(0, "deliverance")).startswith("Use Deliverance: break up to 3")
    assert describe_action(game, UseAbility(0, "brotherly_love", 1)) == \
        "Use Brotherly Love: your next card's benefit goes to Seat 2"


def test_describe_every_action_a_game_offers() -> None:
    """Random games: every offered action gets a sentence (never the repr), naming its card."""
    seen: set[str] = set()
    for seed in range(6):
        game = Game.new(mode="coop", lineup="RR", seed=seed)
        rng = random.Random(seed)
        while game.result is None:
            seat, actions = game.pending[0]
            for action, text in zip(actions, describe_actions(game, actions)):
                seen.add(type(action).__name__)
                assert text and not text.startswith("<"), (action, text)
                if isinstance(action, (PlayCard, LayCostZone)):
                    assert game.defs[action.card].name in text
                if isinstance(action, Choose):
                    assert game.defs[action.option].name in text
                if isinstance(action, Resist):
                    assert game.defs[action.threat].name in text
                if isinstance(action, TakeBoost):
                    assert "boost" in text
            game.apply(rng.choice(actions))
    assert {"Pass", "LayCostZone", "PlayCard", "Resist", "TakeBoost", "Choose", "BuyAbility"} <= seen


# ------------------------------------------------------------------------------------ events
def test_describe_events() -> None:
    assert describe_event({"kind": "threat_played", "card": "pride", "target": 1, "resistance": 2}) == \
        "The Evil deck plays Pride (R2) at Seat 2"
    assert describe_event({"kind": "humility", "seat": 0, "delta": 1, "humility": 4}) == "Seat 1 Humility +1 → 4/10"
    assert describe_event({"kind": "maturity", "seat": 1, "maturity": 2}) == "Seat 2 reaches Maturity L2"
    assert describe_event({"kind": "rotated", "seat": 0}) is None
    merged = describe_events([{"kind": "drew", "seat": 0, "card": "pride"}, {"kind": "drew", "seat": 0, "card": "envy"},
                              {"kind": "drew", "seat": 1}, {"kind": "drew", "seat": 1}])
    assert merged == ["Seat 1 drew Pride, Envy", "Seat 2 drew 2 cards"]


def test_events_of_a_game_read_as_words_and_hide_draws() -> None:
    game = Game.new(mode="coop", lineup="RR", seed=7)
    rng = random.Random(1)
    for _ in range(40):
        seat, actions = game.pending[0]
        game.apply(rng.choice(actions))
    lines = describe_events([e.for_seat(1) for e in game.log])
    assert lines and all(isinstance(x, str) and x for x in lines)
    drawn_by_0 = {game.defs[e.uid].name for e in game.log if e.kind == "drew" and e.seat == 0 and e.uid is not None}
    for line in lines:
        if line.startswith("Seat 1 drew"):
            assert not any(name in line for name in drawn_by_0)


# ------------------------------------------------------------------------------------ the board
def test_board_shows_badges_and_only_the_viewers_hand() -> None:
    game = Game.new(mode="coop", lineup="RR", seed=7)
    mine = [c["name"] for c in game.view(0)["seats"][0]["hand"]]
    theirs = {c["name"] for c in game.view(1)["seats"][1]["hand"]} - set(mine)
    out = text_of(render_board(game.view(0), game.cards))
    assert "Humility 3/10" in out
    assert "Maturity L0" in out
    assert "Your hand · Seat 1" in out
    assert "Seat 1 · The Shepherd" in out and "Seat 2 · The Watchman" in out
    assert "Round 1/10" in out and "Cost Zone phase" in out
    assert "Evil deck" in out and "Score" in out
    for name in mine:
        assert name in out
    assert theirs
    for name in theirs:
        assert name not in out
    spectator = text_of(render_board(game.view(None), game.cards))
    assert "Your hand" not in spectator
    for name in mine:
        assert name not in spectator


def test_board_shows_cost_zone_rotation_face_up_threats_and_habituals(scenario: Any) -> None:
    s = scenario(phase="resistance")
    s.seat(0, humility=7, maturity=2)
    s.cost_zone(0, "sloth", "sloth").cost_zone(0, "sloth", tapped=True).cost_zone(0, "still-waters", face_up=True)
    tempt = fixed_temptation()
    s.threat(tempt.id, target=0).held(1, "unforgiveness").in_play(0, "new-every-morning").start()
    view = s.g.view(0)
    out = text_of(render_board(view, s.g.cards, events=["Seat 1: Resistance phase"]))
    assert "Humility 7/10" in out and "Maturity L2" in out
    assert "▯▯▭▯  ★Beside Still Waters" in out   # two ready, one rotated, one face up (named)
    assert "Cost Zone 3 ready / 4" in out
    assert tempt.name in out and f"R{tempt.resistance}" in out
    assert "Held by Evil: Unforgiveness" in out
    assert "In play: New Every Morning" in out
    assert "Seat 1: Resistance phase" in out
    # another seat's face-down Cost Zone stays hidden, face-up cards are named
    other = text_of(render_board(s.g.view(1), s.g.cards))
    assert "★Beside Still Waters" in other
    assert "Sloth" not in other


def test_board_shows_stack_choice_abilities_clearing(scenario: Any) -> None:
    s = scenario(phase="main")
    s.abilities("speed", "deliverance")
    s.hand(0, "gird-up-your-loins", "sloth", "sloth").untapped(0, 3)
    s.hand(1, "what-of-the-night").untapped(1, 1).start()   # seat 2 may respond: the stack waits
    s.g.apply(PlayCard(0, s.find(0, "gird-up-your-loins")))
    out = text_of(render_board(s.g.view(0), s.g.cards))
    assert "Stack (top first): Gird Up the Loins of Your Mind" in out
    assert "Speed" in out and "Deliverance ⚡ready" in out
    for _ in range(10):
        if s.g.view(0)["choice"] is not None or not s.g.state.stack:
            break
        s.g.apply(Pass(s.g.pending[0][0]))
    view = s.g.view(0)
    assert view["choice"] is not None
    assert "Choose: discard from hand — pick 1" in text_of(render_board(view, s.g.cards))
    view["clearing"] = {"seat": 1, "opened_turn": 3}
    assert "Clearing round open" in text_of(render_board(view, s.g.cards))


def test_result_panel_and_action_list() -> None:
    view = {"result": {"winner": "righteous", "reason": "every seat at L3", "round": 7}, "score": [50, 16]}
    out = text_of(render_result(view))
    assert "Righteous win" in out and "round 7" in out and "Righteous 50" in out and "Evil 16" in out
    game = Game.new(mode="coop", lineup="RR", seed=7)
    actions = game.legal_actions(0)
    listing = text_of(render_actions(game, actions))
    assert " 1  Done laying the Cost Zone" in listing
    assert f" {len(actions)}  Lay " in listing
