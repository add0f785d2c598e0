"""``engine.determinize``: worlds re-dealt consistently with one seat's view (DESIGN "Hidden
information by construction"; the search bot's only way to the hidden cards).

A property test over 1,000 states from co-op, solo and duel games: the deciding seat's view of the
world equals its view of the real game (every visible card where the view shows it, same legal
actions), only hidden places change card, each owner's hidden cards stay the same multiset, the
generator is re-seeded, the world plays on with every card in one place, and a world is a function
of the view and the rng alone (a game re-dealt in hidden cards gives the same world).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterator

from christianity_game import Game
from christianity_game.engine.determinize import determinize, hidden_places
from christianity_game.engine.rng import Rng

GAMES = (("coop", "RR"), ("coop", "RRR"), ("solo", "R"), ("duel", "ER"), ("duel", "EER"), ("duel", "ERR"))
STATES = 1000


def _states() -> Iterator[tuple[Game, int | None]]:
    """(game, seat) pairs along random games: the decider, sometimes another seat or a spectator."""
    rng = Rng(2024)
    made = 0
    seed = 0
    while True:
        mode, lineup = GAMES[seed % len(GAMES)]
        game = Game.new(mode=mode, lineup=lineup, seed=seed)
        seed += 1
        for step in range(400):
            pending = game.pending
            if not pending:
                break
            seat, actions = pending[0]
            if step % 3 == 0:
                pick = rng.randbelow(4)
                viewer: int | None = seat if pick < 2 else (None if pick == 2 else rng.randbelow(len(lineup)))
                yield game, viewer
                made += 1
                if made >= STATES:
                    return
            game.apply_unchecked(actions[rng.randbelow(len(actions))])


def _places(game: Game) -> dict[tuple[str, int], int]:
    """Every card's place: (zone, index) -> uid."""
    st = game.state
    out: dict[tuple[str, int], int] = {}
    for i, sd in enumerate(st.seats):
        for zone in ("hand", "deck", "cost_zone", "in_play", "held", "discard"):
            for k, u in enumerate(getattr(sd, zone)):
                out[(f"{i}.{zone}", k)] = u
    for name in ("evil_deck", "resisted", "failed", "field"):
        for k, u in enumerate(getattr(st, name)):
            out[(name, k)] = u
    return out


def _hidden_cards(game: Game, seat: int | None) -> Counter[tuple[int, str]]:
    return Counter((game.owner[z[k]], game.defs[z[k]].id) for z, k in hidden_places(game, seat))


def test_determinize_keeps_the_view_and_changes_only_hidden_cards() -> None:
    changed = 0
    checked = 0
    for n, (game, seat) in enumerate(_states()):
        before_defs = list(game.defs)
        world = determinize(game, seat, Rng(n))
        checked += 1
        assert game.defs == before_defs, "the original card table must not change"
        assert world.view(seat) == game.view(seat)
        assert world.legal_actions(seat) == game.legal_actions(seat) if seat is not None else True
        hidden = {zone_k for zone_k in _zone_keys(game, seat)}
        real, dealt = _places(game), _places(world)
        assert real == dealt, "uids keep their places; only which card a hidden uid is may change"
        for place, uid in real.items():
            if place not in hidden:
                assert world.defs[uid] is game.defs[uid], f"visible card at {place} changed"
            elif world.defs[uid] is not game.defs[uid]:
                changed += 1
                assert world.owner[uid] == game.owner[uid]
        assert _hidden_cards(world, seat) == _hidden_cards(game, seat)
        assert Counter(c.id for c in world.defs) == Counter(c.id for c in game.defs)
        assert world.state.rng.state != game.state.rng.state
        assert world.actions == [] and world.log == []
        if n % 25 == 0:
            _play_on(world, 40)
    assert checked == STATES
    assert changed > STATES, "re-dealing should move many hidden cards"


def _zone_keys(game: Game, seat: int | None) -> set[tuple[str, int]]:
    """The hidden places as (zone name, index), matching ``_places``."""
    st = game.state
    names: dict[int, str] = {id(st.evil_deck): "evil_deck"}
    for i, sd in enumerate(st.seats):
        for zone in ("hand", "deck", "cost_zone"):
            names[id(getattr(sd, zone))] = f"{i}.{zone}"
    return {(names[id(z)], k) for z, k in hidden_places(game, seat)}


def _play_on(world: Game, steps: int) -> None:
    """A world is a consistent game: it plays on, and every card stays in exactly one zone."""
    rng = Rng(7)
    cards = set(world.card_zone_map())
    for _ in range(steps):
        pending = world.pending
        if not pending:
            break
        _, actions = pending[0]
        world.apply(actions[rng.randbelow(len(actions))])
        assert set(world.card_zone_map()) == cards


def _world_key(world: Game) -> Any:
    """A world's cards at every place, and its generator."""
    return {place: world.defs[u].id for place, u in _places(world).items()}, world.state.rng.state


def test_a_world_depends_only_on_the_view() -> None:
    """Two games that differ only in cards the seat cannot see give the same world."""
    for n, (game, seat) in enumerate(_states()):
        if n % 10:
            continue
        other = determinize(game, seat, Rng(10_000 + n))   # the same view, other hidden cards
        assert other.view(seat) == game.view(seat)
        assert _world_key(determinize(game, seat, Rng(n))) == _world_key(determinize(other, seat, Rng(n)))


def test_a_seat_sees_its_own_hand_and_not_the_others() -> None:
    game = Game.new(mode="duel", lineup="ER", seed=3)
    places = hidden_places(game, 1)
    zones = {id(z) for z, _ in places}
    st = game.state
    assert id(st.seats[1].hand) not in zones and id(st.seats[0].hand) in zones
    assert id(st.seats[1].deck) in zones and id(st.seats[0].deck) in zones
    assert id(st.seats[1].cost_zone) not in zones   # its own Cost Zone, face down or not
    # over a few worlds the other seat's hand is dealt differently; the own hand never is
    hands = {tuple(determinize(game, 1, Rng(k)).defs[u].id for u in st.seats[0].hand) for k in range(20)}
    own = {tuple(determinize(game, 1, Rng(k)).defs[u].id for u in st.seats[1].hand) for k in range(20)}
    assert len(hands) > 1 and len(own) == 1
