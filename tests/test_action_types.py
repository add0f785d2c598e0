"""Every action type declares its JSON kind and fields, its description, its refusal codes and its
place in the learning environment (``engine/actions.py``), and the declarations hold: seeded games
try unlisted actions of every type, and every refusal code ``Game.apply`` raises is one the type
declares; every declared code is raised somewhere in those games, or is listed in :data:`RARE`
with the reason the probe does not reach it.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, fields
from typing import Any, Callable, ClassVar


from christianity_game import Game, IllegalAction, Settings
from christianity_game.engine.actions import (
    ACTION_TYPES, RULE_REFUSALS, TABLE_ACTIONS, TABLE_REFUSALS, TEXT_FIELDS, Action, AdjustBadge, AnswerEnd,
    BuyAbility, Choose, ChooseAbility, ChooseReward, LayCostZone, OfferEnd, Pass, PlayCard, Resist, TakeBoost,
    Undo, UseAbility, action_from_json, refusal_codes,
)
from christianity_game.engine.game import ABILITIES
from christianity_game.env.actions import ACTION_KEYS, BLOCK_TYPES

#: declared codes the seeded probe does not reach, and why
RARE: dict[tuple[str, str], str] = {
    ("Choose", "not_legal"): "a refused Choose is always no_choice or not_an_option",
    ("ChooseAbility", "not_legal"): "a refused ChooseAbility is always no_choice or unknown_ability",
    ("LayCostZone", "not_legal"): "a refused LayCostZone always gets a specific code",
    ("PlayCard", "not_legal"): "a refused PlayCard always gets a specific code",
    ("Resist", "not_legal"): "a refused Resist always gets a specific code",
    ("TakeBoost", "not_legal"): "a refused TakeBoost always gets a specific code",
    ("UseAbility", "not_legal"): "a refused UseAbility always gets a specific code",
    ("BuyAbility", "not_legal"): "a refused BuyAbility always gets a specific code",
    ("PlayCard", "threat_limit"): "only with the duel's threat_limit setting, off by default",
    ("Undo", "cannot_undo"): "needs an offer to end as the last action",
    ("Undo", "no_such_seat"): "the probe's Undo seats are real",
    ("OfferEnd", "no_such_seat"): "the probe's OfferEnd seats are real",
    ("AnswerEnd", "no_such_seat"): "the probe's AnswerEnd seats are real",
    ("AnswerEnd", "already_answered"): "needs a team of several seats on the answering side, one accepted",
    ("OfferEnd", "offer_open"): "the probe never leaves an offer open",
    ("AnswerEnd", "own_offer"): "the probe never leaves an offer open",
}

GAMES = [("solo", "R", 3), ("coop", "RR", 3), ("coop", "RRR", 2), ("duel", "ER", 3), ("duel", "EERR", 2)]


def test_every_action_type_declares_everything() -> None:
    for name, cls in ACTION_TYPES.items():
        assert cls.type_name == name
        assert cls.description and cls.description.endswith(".") and "\n" not in cls.description, name
        assert cls.__doc__ and cls.__doc__.strip(), name
        names = [f.name for f in fields(cls)]
        assert names[0] == "seat", name
        assert set(cls.text_fields) <= set(names), name
        codes = [code for code, _ in cls.refusals]
        assert len(codes) == len(set(codes)), f"{name} declares a refusal twice"
        for code, meaning in refusal_codes(cls).items():
            assert code and code == code.lower() and " " not in code, (name, code)
            assert meaning and "\n" not in meaning, (name, code)
        if cls in TABLE_ACTIONS:
            assert cls.env_block == "" and cls.env_fields == (), name
        else:
            assert cls.env_block, f"{name} has no block in the environment's action space"
            assert set(cls.env_fields) <= set(names) - {"seat"}, name
            assert BLOCK_TYPES[cls.env_block] is cls
            assert any(k[0] == cls.env_block for k in ACTION_KEYS), name
    assert TEXT_FIELDS == {"ability", "badge", "reward", "answer"}
    assert {c for c, _ in RULE_REFUSALS} >= {c for c, _ in TABLE_REFUSALS}


def test_json_round_trip_follows_the_declared_fields() -> None:
    for name, cls in ACTION_TYPES.items():
        kwargs: dict[str, Any] = {f.name: ("x" if f.name in cls.text_fields else 1) for f in fields(cls)}
        action = cls(**kwargs)
        data = action.to_json()
        assert data == {"type": name, **kwargs}
        assert action_from_json(data) == action


#: how the probe makes an action of each type, legal or not, from a random generator of its own
MAKERS: dict[str, Callable[["_Draw"], Action]] = {
    "Pass": lambda d: Pass(d.seat()),
    "LayCostZone": lambda d: LayCostZone(d.seat(), d.uid()),
    "PlayCard": lambda d: PlayCard(d.seat(), d.uid(), None if d.r.random() < 0.6 else d.uid(), d.opt()),
    "Resist": lambda d: Resist(d.seat(), d.uid(), d.r.randrange(-1, 9)),
    "TakeBoost": lambda d: TakeBoost(d.seat(), d.r.randrange(-1, 3), d.seat(), d.opt()),
    "UseAbility": lambda d: UseAbility(d.seat(), d.ability(), d.opt()),
    "BuyAbility": lambda d: BuyAbility(d.seat(), d.ability()),
    "ChooseAbility": lambda d: ChooseAbility(d.seat(), d.ability()),
    "Choose": lambda d: Choose(d.seat(), d.uid()),
    "ChooseReward": lambda d: ChooseReward(d.seat(), d.r.choice(["draw", "untap", "flip", "destroy", "humility", "gold"]),
                                           d.opt()),
    "AdjustBadge": lambda d: AdjustBadge(d.seat(), d.r.choice(["humility", "maturity", "karma"]), d.r.choice([-1, 2, 99])),
    "Undo": lambda d: Undo(d.r.randrange(d.n)),
    "OfferEnd": lambda d: OfferEnd(d.r.randrange(d.n)),
    "AnswerEnd": lambda d: AnswerEnd(d.r.randrange(d.n), d.r.choice(["accept", "decline", "maybe"])),
}


class _Draw:
    """Random seats, cards and abilities for one type's maker, from that type's own generator (so a
    new type's maker changes nothing the others draw)."""

    def __init__(self, game: Game, r: random.Random) -> None:
        st = game.state
        self.r = r
        self.n = len(st.seats)
        self.cards = len(game.defs)
        decider = game.pending[0][0]
        self.seats = [decider] * 4 + list(range(self.n)) + [-1, self.n]
        self.pools = [st.seats[decider].hand, st.seats[decider].cost_zone, [t.uid for t in st.threats],
                      [u for sd in st.seats for u in sd.hand + sd.cost_zone + sd.held + sd.deck]]

    def uid(self) -> int:
        pool = self.r.choice(self.pools)
        return self.r.choice(pool) if pool and self.r.random() < 0.85 else self.r.randrange(-2, self.cards + 2)

    def seat(self) -> int:
        return self.r.choice(self.seats)

    def opt(self) -> int | None:
        return None if self.r.random() < 0.4 else self.seat()

    def ability(self) -> str:
        return self.r.choice(ABILITIES + ("flight",))


def _candidates(game: Game, rngs: dict[str, random.Random]) -> list[Action]:
    out = []
    for name, make in MAKERS.items():
        a = make(_Draw(game, rngs[name]))
        if not isinstance(a, TABLE_ACTIONS) and a in game.legal_actions(a.seat):
            continue
        out.append(a)
    return out


def test_the_probe_makes_every_type() -> None:
    assert sorted(MAKERS) == sorted(ACTION_TYPES), "add a maker to MAKERS for each action type"


def _probe(raised: dict[str, set[str]]) -> None:
    for mode, lineup, count in GAMES:
        for seed in range(count):
            settings = Settings(mat_abilities=seed % 2 == 0)
            game = Game.new(mode=mode, lineup=lineup, seed=seed, settings=settings)
            rnd = random.Random(seed)   # the game's path: the makers draw from their own generators
            rngs = {name: random.Random(f"{mode}-{lineup}-{seed}-{name}") for name in MAKERS}
            steps = 0
            while game.result is None and steps < 3_000:
                steps += 1
                if rnd.random() < 0.35:
                    for cand in _candidates(game, rngs):
                        trial = game.clone()
                        try:
                            trial.apply(cand)
                        except IllegalAction as exc:
                            declared = refusal_codes(type(cand))
                            assert exc.code in declared, (
                                f"{mode} {lineup} seed {seed}: {cand!r} refused with undeclared code {exc.code!r}")
                            raised[cand.type_name].add(exc.code)
                    # a malformed action of every type: a field of the wrong type
                    for cls in ACTION_TYPES.values():
                        bad = {"type": cls.type_name, "seat": "0"}
                        try:
                            game.clone().apply(bad)
                        except IllegalAction as exc:
                            assert exc.code in refusal_codes(cls)
                            raised[cls.type_name].add(exc.code)
                seat, acts = game.pending[0]
                game.apply_unchecked(rnd.choice(acts))
            if game.result is not None:   # every action is refused once the game is over
                for cls in ACTION_TYPES.values():
                    kwargs = {f.name: ("x" if f.name in cls.text_fields else 0) for f in fields(cls)}
                    try:
                        game.clone().apply(cls(**kwargs))
                    except IllegalAction as exc:
                        assert exc.code in refusal_codes(cls)
                        raised[cls.type_name].add(exc.code)


def test_refusals_raised_are_declared_and_declared_ones_raised() -> None:
    raised: dict[str, set[str]] = defaultdict(set)
    _probe(raised)
    missing = []
    for name, cls in ACTION_TYPES.items():
        for code in refusal_codes(cls):
            if code not in raised[name] and (name, code) not in RARE:
                missing.append((name, code))
    assert not missing, f"declared but never raised (raise them, or list them in RARE with a reason): {missing}"
    stale = [key for key in RARE if key[1] in raised[key[0]]]
    assert not stale, f"listed as rare but raised: {stale}"


def test_refusals_are_asked_of_the_move_generator() -> None:
    """A refusal is found from what the move generator lists (``legal.why_illegal``), not restated:
    on seeded games of every mode, a refused rules action is "cannot_afford" exactly when the
    generator would list it if every Cost Zone could pay anything (``options_at_any_cost``), and
    asking that leaves the game as it was (the same legal list, untapped counts and state id); each
    decision the generator lists by (``decision``) is one of ``DECISIONS``, and the Pass it always
    offers outside a choice is listed."""
    from christianity_game.engine import legal
    checked = {"cannot_afford": 0, "other": 0}
    for mode, lineup, count in GAMES:
        for seed in range(count):
            game = Game.new(mode=mode, lineup=lineup, seed=seed, settings=Settings(mat_abilities=seed % 2 == 0))
            rnd = random.Random(seed)
            rngs = {name: random.Random(f"why-{mode}-{lineup}-{seed}-{name}") for name in MAKERS}
            steps = 0
            while game.result is None and steps < 1_500:
                steps += 1
                seat, acts = game.pending[0]
                kind = legal.decision(game)
                assert kind in legal.DECISIONS
                if kind not in ("choice", "ability_pick", "mode_early"):
                    assert Pass(seat) in acts, (mode, seed, kind)
                if rnd.random() < 0.3:
                    before = (game.state.state_id, [game._untapped(i) for i in range(len(game.state.seats))])
                    at_any_cost = legal.options_at_any_cost(game, seat)
                    assert (game.state.state_id, [game._untapped(i) for i in range(len(game.state.seats))]) == before
                    assert legal.options(game, seat) == acts
                    for cand in _candidates(game, rngs):
                        if isinstance(cand, TABLE_ACTIONS) or cand.seat != seat:
                            continue
                        try:
                            game.clone().apply(cand)
                        except IllegalAction as exc:
                            if exc.code == "cannot_afford":
                                assert cand in at_any_cost, (mode, seed, cand)
                                checked["cannot_afford"] += 1
                            else:
                                assert cand not in at_any_cost or isinstance(cand, TakeBoost), (mode, seed, cand, exc)
                                checked["other"] += 1
                game.apply_unchecked(rnd.choice(acts))
    assert checked["cannot_afford"] > 0 and checked["other"] > 100, checked


def test_the_browsers_action_words_are_generated_from_the_declarations() -> None:
    """``server/static/actions.js`` (the descriptions and the words of an undone action that the
    board and the log show) and docs/protocol.md's refusal table are what the declarations make."""
    from christianity_game.server import protocol as P
    fix = "run `python -m christianity_game.server.protocol --write`"
    assert P.ACTIONS_JS_PATH.read_text(encoding="utf-8") == P.actions_module(), fix
    assert P.doc_refusals(P.DOC_PATH.read_text(encoding="utf-8")) == P.refusal_table(), fix
    for name, cls in ACTION_TYPES.items():
        assert cls.undone == cls.undone.strip() and "\n" not in cls.undone, name
        assert cls.undone or cls in TABLE_ACTIONS, f"{name}: say what an undone one was (undone)"
        assert f"  {name}: " in P.actions_module()


def test_every_refusal_and_error_code_has_words_in_the_browser() -> None:
    """The browser heads each refusal with words for its code (``REASONS`` in the generated
    ``static/actions.js``, from ``server/reason_words.py``): every code the engine's action types and
    the server declare has words, and no words stand for a code nobody sends."""
    from christianity_game.engine.actions import RULE_REFUSALS, TABLE_REFUSALS
    from christianity_game.server import protocol as P
    from christianity_game.server.reason_words import REASON_WORDS
    codes = set(P.ERROR_CODES) | {c for c, _ in RULE_REFUSALS + TABLE_REFUSALS}
    codes |= {c for cls in ACTION_TYPES.values() for c, _ in cls.refusals}
    assert sorted(codes - set(REASON_WORDS)) == [], "add words to server/reason_words.py"
    assert sorted(set(REASON_WORDS) - codes) == [], "words for a code no one sends"
    assert all(w and w[0].isupper() and not w.endswith(".") for w in REASON_WORDS.values())
    assert '  threat_limit: "No more threats allowed now",' in P.actions_module()


def test_a_kind_with_no_sentence_of_its_own_reads_as_its_description() -> None:
    """A new action type needs no words in the terminal to be shown: its ``description`` is its text."""
    from christianity_game.render.terminal import describe_action

    @dataclass(frozen=True, slots=True)
    class Toy(Action):
        type_name: ClassVar[str] = "Toy"
        description: ClassVar[str] = "Do a toy thing."

    game = Game.new(mode="solo", lineup="R", seed=0)
    assert describe_action(game, Toy(0)) == "Do a toy thing."
    assert describe_action(game, Undo(0)) == "Take back your last action"   # a sentence of its own


def test_duel_rewards_and_table_actions_read_as_sentences_not_reprs() -> None:
    """The terminal and the web replay's captions say what a duel reward does (not ``<ChooseReward ...>``)."""
    from christianity_game.engine.actions import AnswerEnd, ChooseReward, OfferEnd
    from christianity_game.render.terminal import describe_action

    game = Game.new(mode="duel", lineup="ER", seed=0)
    evil, righteous = 0, 1
    assert describe_action(game, ChooseReward(evil, "draw")) == "Take the micro-reward: draw 2 cards"
    assert describe_action(game, ChooseReward(righteous, "humility")) == "Take the micro-boost: gain 1 Humility"
    assert describe_action(game, OfferEnd(evil)) == "Offer to end the game on the score"
    assert describe_action(game, AnswerEnd(righteous, "decline")) == "Decline the offer to end"
    for reward in ("draw", "untap", "flip", "destroy"):
        assert not describe_action(game, ChooseReward(evil, reward)).startswith("<")


def test_a_plain_block_of_the_action_space_is_made_from_its_declaration() -> None:
    """A kind whose environment fields are plain values (no uid) has its block, contiguous, from
    ``env_fields`` and the values each field takes (``FIELD_VALUES``): a new one needs no code there."""
    from christianity_game.env.actions import FIELD_VALUES, PLAIN_BLOCKS

    for block in PLAIN_BLOCKS:
        cls = BLOCK_TYPES[block]
        assert set(cls.env_fields) <= set(FIELD_VALUES), f"{block}: a field with no values in FIELD_VALUES"
        at = [i for i, k in enumerate(ACTION_KEYS) if k[0] == block]
        assert at == list(range(at[0], at[0] + len(at))), f"{block} is not contiguous"
        size = 1
        for name in cls.env_fields:
            size *= len(FIELD_VALUES[name])
        assert len(at) == size, block
