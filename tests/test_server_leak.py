"""No message the server sends to a seat or a spectator names a card that connection may not see.

Seeded games are played to the end through the server by bots (random and heuristic; some seats
are played by the test over the WebSocket, some by bots on the server), with a spectator watching.
Afterwards the true state at every step is rebuilt from the game's record, and every message is
checked against the cards its receiver may not see at that step: other seats' hands, every deck
(order and contents; the Foresight cards on top of the Evil deck are shown to all), other seats'
face-down Cost Zone cards. A card id alone says which card a uid is (uids are dealt in deck-list
order), so any uid of such a card in a message is a leak.

Every game is played on SQLite; three of them (``ON_POSTGRESQL``: a person beside a server bot, three
seats, a duel) on PostgreSQL too (``database``, tests/pg_fixture.py): what a message shows is the
engine's view, the same on either store, while the commit-then-broadcast path is the store's, and
those three take it in each shape; all ten twice would add some 17 s to the suite.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_server_helpers import WS, create, running, ws

from christianity_game import Game, action_from_json
from christianity_game.bots import make_bot
from christianity_game.engine.actions import ACTION_TYPES

ALLOWED_HIDDEN_KEYS = {"hidden", "tapped", "face_up"}


def forbidden(game: Game, viewer: int | None) -> set[int]:
    """The uids ``viewer`` may not see now, from the true state (not from any view)."""
    st = game.state
    face_up = set(st.face_up)
    foresight = set(getattr(st, "foresight", ()) or ())
    choice = st.choice
    own_options = set(choice.options) if choice is not None and choice.seat == viewer else set()
    out: set[int] = set()
    for uid, zone in game.card_zone_map().items():
        owner, _, name = zone.rpartition(".")
        mine = owner != "" and viewer is not None and owner == str(viewer)
        if "deck" in name:
            if uid not in foresight and uid not in own_options:
                out.add(uid)
        elif "hand" in name:
            if not mine:
                out.add(uid)
        elif "cost_zone" in name:
            if not mine and uid not in face_up:
                out.add(uid)
    return out


def leaks(obj: Any, bad: set[int], path: str = "$", seen: frozenset[int] | set[int] = frozenset()) -> list[str]:
    """Where ``obj`` names a card in ``bad``. ``seen``: cards this receiver has seen face up
    before; a boost (on the stack, or taken) names the card it comes from, which was face up when
    it was played, even if that card has moved on since."""
    found: list[str] = []
    if isinstance(obj, dict):
        is_boost = (obj.get("item") == "boost" or obj.get("kind") == "boost_taken"
                    or (obj.get("kind") == "resolved" and obj.get("boost") is not None))
        if obj.get("uid") in bad and not (is_boost and obj["uid"] in seen):
            found.append(f"{path}.uid={obj['uid']}")
        if obj.get("hidden") is True and not set(obj) <= ALLOWED_HIDDEN_KEYS:
            found.append(f"{path}: a hidden card with {sorted(set(obj) - ALLOWED_HIDDEN_KEYS)}")
        if obj.get("type") in ACTION_TYPES:
            for key in ("card", "option"):
                if obj.get(key) in bad:
                    found.append(f"{path}.{key}={obj[key]}")
        for k, v in obj.items():
            found.extend(leaks(v, bad, f"{path}.{k}", seen))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            found.extend(leaks(v, bad, f"{path}[{i}]", seen))
    return found


def play_through_server(app: Any, mode: str, lineup: str, seed: int, level: str,
                        server_bots: dict[int, str]) -> tuple[dict[str, Any], list[tuple[int | None, dict[str, Any]]]]:
    # a duel has no round limit: a turn cap ends a long one on the stalemate score (D-SCORE)
    settings = {"max_turns": 60} if mode == "duel" else {}
    game = create(app, mode=mode, lineup=lineup, seed=seed, bots={str(k): v for k, v in server_bots.items()},
                  settings=settings)
    gid = game["game_id"]
    humans = [s for s in game["seats"] if s["kind"] == "human"]
    bots = {s["seat"]: make_bot(level, seed=seed * 7 + s["seat"]) for s in humans}
    got: list[tuple[int | None, dict[str, Any]]] = []
    with ws(app, gid) as spectator, _connect_all(app, gid, humans) as conns:
        conns_all: list[tuple[int | None, WS, str | None]] = [(s["seat"], c, s["token"]) for s, c in
                                                               zip(humans, conns)]
        conns_all.append((None, spectator, None))
        views: dict[int | None, dict[str, Any]] = {}
        for seat, c, token in conns_all:
            w = c.hello(token or game["spectator"]["token"])
            got.append((seat, w))
            views[seat] = w["view"]
        reconnected = False
        for step in range(5000):
            any_view = views[None]
            if any_view["result"] is not None:
                break
            actor = next((s for s in views if s is not None and views[s]["pending"]), None)
            if actor is not None:
                seat_conn = next(c for s, c, _ in conns_all if s == actor)
                token = next(t for s, _, t in conns_all if s == actor)
                pending = views[actor]["pending"]
                choice = pending[0] if len(pending) == 1 else bots[actor].choose(
                    views[actor], [action_from_json(a) for a in pending]).to_json()
                seat_conn.send({"type": "action", "token": token, "state_id": views[actor]["state_id"],
                                "action": choice})
            for seat, c, _ in conns_all:
                msg = c.recv()
                assert msg["type"] == "update", msg
                got.append((seat, msg))
                views[seat] = msg["view"]
            if not reconnected and step >= 40 and humans:
                # a seat that drops and comes back gets the events it missed: check those too
                seat = humans[0]["seat"]
                with ws(app, gid) as again:
                    w = again.hello(humans[0]["token"], state_id=max(0, views[seat]["state_id"] - 8))
                got.append((seat, w))
                reconnected = True
        else:
            pytest.fail("the game did not end")
    return game, got


class _connect_all:
    def __init__(self, app: Any, gid: str, humans: list[dict[str, Any]]) -> None:
        self.cms = [ws(app, gid) for _ in humans]

    def __enter__(self) -> list[WS]:
        return [cm.__enter__() for cm in self.cms]

    def __exit__(self, *exc: Any) -> None:
        for cm in reversed(self.cms):
            cm.__exit__(*exc)


def check_messages(record: dict[str, Any], got: list[tuple[int | None, dict[str, Any]]]) -> int:
    """Replay the record step by step; check each message against the hidden cards of its step."""
    viewers = sorted({seat for seat, _ in got}, key=lambda s: -1 if s is None else s)
    game = Game.from_record({**record, "actions": []})
    hidden: list[dict[int | None, set[int]]] = [{v: forbidden(game, v) for v in viewers}]
    everyone = set(game.card_zone_map())
    seen: list[dict[int | None, set[int]]] = [{v: everyone - hidden[0][v] for v in viewers}]
    # cards that went through a discard pile (face up) into a reshuffled deck within one step
    reshuffled: list[set[int]] = [set()]
    for a in record["actions"]:
        before = game.card_zone_map()
        events = game.apply(action_from_json(a))
        hidden.append({v: forbidden(game, v) for v in viewers})
        after = game.card_zone_map()
        seen.append({v: seen[-1][v] | (set(after) - hidden[-1][v]) for v in viewers})
        # a reshuffle remakes an empty deck from the (public) discard pile: every card in that deck
        # afterwards, or drawn from it later in the step, was face up in the pile during the step
        decks: set[str] = set()
        drawn: set[int] = set()
        for e in events:
            if e.kind == "reshuffled":
                decks.add(f"{e.seat}.deck")
            elif e.kind == "drew" and f"{e.seat}.deck" in decks and e.uid is not None:
                drawn.add(e.uid)
        reshuffled.append({u for u, z in after.items() if z in decks and before.get(u) != z} | drawn)
    checked = 0
    for seat, msg in got:
        k = msg["state_id"]
        problems = leaks(msg["view"], hidden[k][seat], "view", seen[k][seat])
        for e in msg["events"]:
            j = e["state_id"]
            # an event of step j may name a card that was public during j: hidden before and after,
            # and not one that was discarded (face up) and reshuffled into its deck within the step
            bad = (hidden[j][seat] & hidden[max(0, j - 1)][seat]) - reshuffled[j]
            problems += leaks(e, bad, f"event#{j}:{e['kind']}", seen[max(0, j - 1)][seat])
        assert not problems, f"{msg['type']} #{k} to {'spectator' if seat is None else f'seat {seat}'}: {problems}"
        checked += 1
    return checked


GAMES = [
    ("coop", "RR", 11, "random", {}),
    ("coop", "RR", 12, "heuristic", {}),
    ("coop", "RR", 13, "heuristic", {1: "random"}),
    ("solo", "R", 14, "random", {}),
    ("solo", "R", 15, "heuristic", {}),
    ("coop", "RRR", 16, "random", {2: "heuristic"}),
    ("coop", "RRR", 17, "heuristic", {0: "random"}),
    ("coop", "RR", 18, "random", {}),
]


def _duel_available() -> bool:
    try:
        Game.new(mode="duel", lineup="ER", seed=1)
    except ValueError:
        return False
    return True


if _duel_available():   # duel arrives on the same API: the same check holds for it
    GAMES += [("duel", "ER", 21, "random", {}), ("duel", "ER", 22, "heuristic", {})]


#: the games also played on PostgreSQL: a person beside a server bot, three seats, a duel (the views do
#: not depend on the store; its commit and broadcast path does, and these take it in each shape)
ON_POSTGRESQL = {13, 16, 21}
CASES = [("sqlite", *g) for g in GAMES] + [("postgresql", *g) for g in GAMES if g[2] in ON_POSTGRESQL]


@pytest.mark.parametrize("database, mode, lineup, seed, level, server_bots", CASES, indirect=["database"],
                         ids=[f"{db}-{m}-{lu}-{s}-{lv}" for db, m, lu, s, lv, _ in CASES])
def test_no_message_names_a_card_its_receiver_may_not_see(tmp_path: Path, database: str | None, mode: str,
                                                           lineup: str, seed: int, level: str,
                                                           server_bots: dict[int, str]) -> None:
    with running(tmp_path, database=database) as app:
        game, got = play_through_server(app, mode, lineup, seed, level, server_bots)
        record = app.get(f"/api/games/{game['game_id']}/record").json()
    assert len(record["actions"]) > 3
    checked = check_messages(record, got)
    assert checked == len(got) > len(record["actions"])


def test_the_checker_catches_a_leak() -> None:
    game = Game.new(mode="coop", lineup="RR", seed=3)
    other_hand = game.view(1)["seats"][1]["hand"]
    leaked = {"type": "update", "state_id": 0, "events": [], "view": {"seats": [{"hand": other_hand}]}}
    assert leaks(leaked["view"], forbidden(game, 0))
    deck_card = {"uid": game.state.seats[0].deck[-1], "id": "x"}
    assert leaks({"foo": [deck_card]}, forbidden(game, 0))
    assert leaks({"type": "LayCostZone", "seat": 1, "card": other_hand[0]["uid"]}, forbidden(game, 0))
    assert leaks({"hidden": True, "id": "x"}, set())
    assert not leaks(game.view(0), forbidden(game, 0))
