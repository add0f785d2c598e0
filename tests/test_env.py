"""The learning environment (christianity_game.env): PettingZoo API and seeding, the fixed action
space, observations from the seat's view only, rewards and truncation."""

from __future__ import annotations

import random
from typing import Iterator

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from christianity_game import Game, Settings
from christianity_game.env import ACTION_COUNT, ActionContext, ChristianityEnv, decode, describe, encode, env
from christianity_game.env.actions import ACTION_KEYS, CARD_IDS, block_sizes, encode_legal
from christianity_game.env.observation import action_mask_of, observation_from_view, observation_of

TABLES = [("coop", "RR"), ("solo", "R"), ("duel", "ER"), ("duel", "EER")]
ALL_TABLES = TABLES + [("coop", "RRRR"), ("duel", "ERR"), ("duel", "EERR")]


def random_states(count: int, seed: int, tables: list[tuple[str, str]] = ALL_TABLES) -> Iterator[Game]:
    """``count`` mid-game states of random play, spread over the tables and over whole games."""
    rnd = random.Random(seed)
    made = 0
    g = 0
    while made < count:
        mode, lineup = tables[g % len(tables)]
        game = Game.new(mode=mode, lineup=lineup, seed=seed * 1000 + g,
                        settings=Settings(max_turns=60) if mode == "duel" else None)
        g += 1
        keep = rnd.random() * 0.15 + 0.05
        while game.result is None and made < count:
            if rnd.random() < keep:
                made += 1
                yield game
            game.apply(rnd.choice(game.pending[0][1]))


# ---------------------------------------------------------------- PettingZoo checks
@pytest.mark.parametrize("mode,lineup", TABLES)
def test_pettingzoo_api_and_seed(mode: str, lineup: str) -> None:
    api_test(env(mode=mode, lineup=lineup), num_cycles=200)
    seed_test(lambda: env(mode=mode, lineup=lineup), num_cycles=200)


def test_bots_take_seats_and_agents_the_rest() -> None:
    e = env(mode="duel", lineup="ER", bots={0: "heuristic"})
    assert e.possible_agents == ["seat_1"]
    e.reset(seed=3)
    assert e.agent_selection == "seat_1"
    api_test(env(mode="duel", lineup="ER", bots={0: "heuristic"}), num_cycles=100)
    with pytest.raises(ValueError):
        env(mode="solo", lineup="R", bots={0: "random"})


def play(e: ChristianityEnv, seed: int, policy_seed: int) -> tuple[list[int], dict[str, float], dict[str, object]]:
    """A whole game of random masked actions; the actions taken, the final rewards and infos."""
    rnd = np.random.default_rng(policy_seed)
    e.reset(seed=seed)
    taken: list[int] = []
    totals: dict[str, float] = {}
    infos: dict[str, object] = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if term or trunc:
            infos[agent] = (term, trunc, info)
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(rnd.choice(legal))
        taken.append(action)
        e.step(action)
    return taken, totals, infos


def test_reset_with_a_seed_reproduces_a_game_exactly() -> None:
    e = env(mode="coop", lineup="RR", bots={1: "heuristic"})
    a = play(e, seed=11, policy_seed=5)
    b = play(e, seed=11, policy_seed=5)
    assert a == b
    c = play(e, seed=12, policy_seed=5)
    assert c[0] != a[0]
    log_a = e.game.to_record() if e.game else None
    play(e, seed=12, policy_seed=5)
    assert e.game is not None and e.game.to_record() == log_a


def test_rewards_at_the_end_for_the_agents_side() -> None:
    e = env(mode="coop", lineup="RR")
    _, totals, infos = play(e, seed=2, policy_seed=1)
    game_result = next(iter(infos.values()))
    term, trunc, info = game_result  # type: ignore[misc]
    assert term and not trunc
    assert info["winner"] in ("righteous", "evil") and info["reason"]
    assert len(info["score"]) == 2
    want = 1.0 if info["winner"] == "righteous" else -1.0
    assert totals == {"seat_0": want, "seat_1": want}


def test_duel_sides_get_opposite_rewards() -> None:
    for seed in range(6):
        e = env(mode="duel", lineup="ER", settings=Settings(max_turns=400))
        _, totals, infos = play(e, seed=seed, policy_seed=seed)
        term, trunc, info = infos["seat_0"]  # type: ignore[misc]
        if term:
            assert totals["seat_0"] == -totals["seat_1"] and abs(totals["seat_0"]) == 1.0
            assert (totals["seat_1"] == 1.0) == (info["winner"] == "righteous")
            return
    pytest.fail("no duel ended before its turn cap")


def test_duel_turn_cap_truncates_with_the_stalemate_score_in_info() -> None:
    e = env(mode="duel", lineup="ER", settings=Settings(max_turns=4))
    _, totals, infos = play(e, seed=1, policy_seed=1)
    for agent in ("seat_0", "seat_1"):
        term, trunc, info = infos[agent]  # type: ignore[misc]
        assert trunc and not term
        assert info["turn_cap"] and info["reason"].startswith("turn cap")
        assert info["winner"] == ("righteous" if info["score"][0] > info["score"][1] else "evil")
        assert totals[agent] == 0.0
    assert env(mode="duel", lineup="ER").settings.max_turns == 200   # a duel always has a cap here


def test_a_masked_out_action_is_refused() -> None:
    e = env(mode="solo", lineup="R")
    e.reset(seed=1)
    obs = e.observe("seat_0")
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError):
        e.step(illegal)


def test_the_mask_is_read_only_and_kept_for_the_state() -> None:
    """``observe`` hands out the mask of a state without a copy: read-only, so no agent can spoil it."""
    e = env(mode="coop", lineup="RR")
    e.reset(seed=4)
    agent = e.agent_selection
    first, again = e.observe(agent), e.observe(agent)
    assert first["action_mask"] is again["action_mask"] and not first["action_mask"].flags.writeable
    assert first["hand"] is not again["hand"]   # the other arrays are new for each observation
    other = next(a for a in e.agents if a != agent)
    assert not e.observe(other)["action_mask"].any()
    with pytest.raises(ValueError):
        first["action_mask"][0] = 1
    e.step(int(np.flatnonzero(first["action_mask"])[0]))
    assert e.observe(e.agent_selection)["action_mask"] is not first["action_mask"]


# ---------------------------------------------------------------- the action space
def test_action_space_is_fixed_and_names_no_uid() -> None:
    assert ACTION_COUNT == len(ACTION_KEYS) == sum(block_sizes().values())
    assert list(CARD_IDS) == sorted(CARD_IDS)
    assert describe(0) == "pass"
    for key in ACTION_KEYS:   # card indexes, copies, slots, seats, amounts: small numbers and names only
        assert all(p is None or isinstance(p, (int, str, tuple)) for p in key)
    e = env(mode="coop", lineup="RR")
    assert e.action_space("seat_0").n == ACTION_COUNT == env(mode="duel", lineup="EER").action_space("seat_0").n


def test_every_legal_action_of_2000_states_maps_to_a_distinct_index_and_back() -> None:
    seen_kinds: set[str] = set()
    for game in random_states(2000, seed=1):
        seat, actions = game.pending[0]
        ctx = ActionContext.from_view(game.view(seat))
        assert ctx == ActionContext.from_game(game, seat)
        codes = [encode(a, ctx) for a in actions]
        assert encode_legal(game, seat, actions) == codes   # the env's fast path
        assert len(set(codes)) == len(codes), [(a, describe(c)) for a, c in zip(actions, codes)]
        for a, c in zip(actions, codes):
            assert 0 <= c < ACTION_COUNT
            assert decode(c, ctx) == a
            seen_kinds.add(ACTION_KEYS[c][0])
    assert {"pass", "lay", "play", "resist", "boost", "use", "buy", "pick", "reward", "choose"} <= seen_kinds


def test_an_index_means_the_same_card_in_every_game() -> None:
    """The same index lays the same printed card whatever uids the games gave it."""
    meanings: dict[int, str] = {}
    for game in random_states(300, seed=4, tables=[("coop", "RR"), ("duel", "ER")]):
        seat, actions = game.pending[0]
        ctx = ActionContext.from_game(game, seat)
        for a in actions:
            c = encode(a, ctx)
            card = getattr(a, "card", None)
            if card is not None:
                assert meanings.setdefault(c, game.card(card).id) == game.card(card).id


# ---------------------------------------------------------------- observations
def test_observation_read_from_the_game_equals_the_one_read_from_the_view() -> None:
    """The fast reader sees exactly what ``Game.view(seat)`` shows, for every seat of 400 states."""
    for game in random_states(400, seed=2):
        for seat in range(len(game.lineup)):
            mask = action_mask_of(game, seat)
            fast, ref = observation_of(game, seat, mask), observation_from_view(game.view(seat), mask)
            assert fast.keys() == ref.keys()
            for k in ref:
                assert fast[k].shape == ref[k].shape and np.array_equal(fast[k], ref[k]), (k, game, seat)


def test_observations_lie_in_the_observation_space() -> None:
    e = env(mode="coop", lineup="RR")
    space = e.observation_space("seat_0")
    for game in random_states(200, seed=3):
        for seat in range(len(game.lineup)):
            assert space.contains(observation_of(game, seat))


def swap_hidden(game: Game, viewer: int, rnd: random.Random) -> Game:
    """A copy of ``game`` in which every card ``viewer`` cannot see is shuffled among the places it
    cannot see: other seats' hands, decks and face-down Cost Zone cards (keeping each place's
    tapped mark), its own deck order and the co-op Evil deck's order."""
    g = game.clone()
    st = g.state
    for i, sd in enumerate(st.seats):
        if i == viewer:
            rnd.shuffle(sd.deck)
            continue
        slots = [("hand", k) for k in range(len(sd.hand))] + [("deck", k) for k in range(len(sd.deck))]
        slots += [("cost_zone", k) for k, u in enumerate(sd.cost_zone) if u not in st.face_up]
        uids = [getattr(sd, zone)[k] for zone, k in slots]
        tapped_slots = {s for s, u in zip(slots, uids) if u in st.tapped}
        rnd.shuffle(uids)
        for (zone, k), u in zip(slots, uids):
            getattr(sd, zone)[k] = u
            st.tapped.discard(u)
        for (zone, k), u in zip(slots, uids):
            if (zone, k) in tapped_slots:
                st.tapped.add(u)
    rnd.shuffle(st.evil_deck)
    return g


def same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def test_observation_never_changes_when_only_hidden_cards_are_swapped() -> None:
    rnd = random.Random(9)
    changed_hidden = 0
    for game in random_states(1000, seed=5):
        viewer = rnd.randrange(len(game.lineup))
        other = swap_hidden(game, viewer, rnd)
        assert same(observation_of(game, viewer), observation_of(other, viewer)), (game, viewer)
        if any(game.state.seats[i].hand != other.state.seats[i].hand for i in range(len(game.lineup))):
            changed_hidden += 1
    assert changed_hidden > 300   # the swaps really moved hidden cards


def test_the_observation_shows_what_the_seat_sees() -> None:
    game = Game.new(mode="coop", lineup="RR", seed=3)
    obs = observation_of(game, 0)
    view = game.view(0)
    assert obs["hand"].sum() == view["seats"][0]["hand_size"] == obs["seats"][0, 6]
    assert obs["cost_zone"][0].sum() == len(view["seats"][0]["cost_zone"])
    assert obs["seats"][0, 1] == 1 and obs["seats"][1, 1] == 0 and obs["seats"][2, 0] == 0
    assert obs["phase"].sum() == 1 and obs["table"][0] == game.round
    for card in view["seats"][0]["hand"]:
        assert obs["hand"][CARD_IDS.index(card["id"])] >= 1


def test_the_docs_give_the_action_space_s_size() -> None:
    """docs/env.md and docs/developers.md name the size of the action space: the real one (it grew
    with the duel's actions and once read 7648 while the space held 7661)."""
    import re
    from pathlib import Path
    from christianity_game.env import ACTION_COUNT
    docs = Path(__file__).resolve().parent.parent / "docs"
    for name in ("env.md", "developers.md"):
        sizes = set(re.findall(r"Discrete\((\d+)\)", (docs / name).read_text(encoding="utf-8")))
        assert sizes == {str(ACTION_COUNT)}, (name, sizes)
