"""Table actions over the WebSocket (docs/protocol.md, "Table actions"): Undo, OfferEnd, AnswerEnd.

* every welcome, update and sync tells a seat whether it may undo now (``undo``: allowed, else the
  engine's reason) and which side's offer to end a duel waits (``end_offer``);
* an undo inside the turn is accepted (the board is as before the action) and refused after a draw
  with ``illegal_action`` and the engine's reason ``hidden_revealed``; nothing changes;
* Undo is stored as an action: a restarted server replays it (crash recovery);
* a duel ends by agreement: offers declined and accepted, the offering side cannot answer, the
  result says "ended by agreement" (a tie: a draw); a side played by bots answers by the score;
* G-8, 2v1: every seat of the answering side must accept; a bot seat beside a person answers for
  itself, and the person is asked too;
* every refusal carries the engine's reason code.

On both stores (``database``: SQLite, then PostgreSQL; tests/pg_fixture.py).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from test_server_helpers import create, running, stored_rows, ws

from christianity_game import Game, action_from_json


def as_sent(obj: Any) -> Any:
    return json.loads(json.dumps(obj))


def without_state(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "state_id"}


def _line(seed: int) -> list[dict[str, Any]] | None:
    """Solo R with ``seed``: three random actions of seat 0 in its first turn after it laid and
    undid a card: a Pass, then one that may still be taken back, then a card that draws; or None."""
    g = Game.new(mode="solo", lineup="R", seed=seed)
    lay = next(a for a in g.legal_actions(0) if a.to_json()["type"] == "LayCostZone")
    g.apply(lay)
    g.apply(action_from_json({"type": "Undo", "seat": 0}))
    rng = random.Random(seed)
    out, refusals = [], []
    for _ in range(3):
        if not g.pending or g.pending[0][0] != 0:
            return None
        _, acts = g.pending[0]
        a = acts[rng.randrange(len(acts))]
        events = g.apply(a)
        out.append(a.to_json())
        refusals.append(g.undo_refusal(0))
    drew = any(e.kind == "drew" for e in events) and out[2]["type"] == "PlayCard"
    if out[0]["type"] != "Pass" or refusals[1] is not None or not drew:
        return None
    refusal = g.undo_refusal(0)
    return out if refusal is not None and refusal[0] == "hidden_revealed" else None


def draw_line() -> tuple[int, list[dict[str, Any]]]:
    """The first seed (from 10) whose first turn has such a line, and the line (found, not assumed,
    so that rule or card changes move the seed, not the test's meaning)."""
    for seed in range(10, 400):
        line = _line(seed)
        if line is not None:
            return seed, line
    raise AssertionError("no seed from 10 to 400 gives a Pass, an undoable action and a drawing card")


@pytest.fixture
def app(tmp_path: Path, database: str | None) -> Any:
    with running(tmp_path, database=database) as client:
        yield client


def test_undo_inside_a_turn_is_accepted_and_refused_after_a_draw(app: Any) -> None:
    seed, line = draw_line()
    g = create(app, mode="solo", lineup="R", seed=seed)
    tok = g["seats"][0]["token"]
    with ws(app, g["game_id"]) as a, ws(app, g["game_id"]) as s:
        w = a.hello(tok)
        sw = s.hello(g["spectator"]["token"])
        assert w["undo"] == {"allowed": False, "reason": "nothing_to_undo", "message": w["undo"]["message"]}
        assert w["end_offer"] is None and sw["undo"] is None
        start = w["view"]
        lay = next(x for x in start["pending"] if x["type"] == "LayCostZone")
        up = a.act(tok, 0, lay)
        s.recv()
        assert up["undo"]["allowed"] is True and up["undo"]["reason"] is None
        up = a.act(tok, 1, {"type": "Undo"}, ref="u")
        su = s.recv()
        assert (up["ack"], up["ref"], up["state_id"], up["by"]) == (True, "u", 2, 0)
        assert [e["kind"] for e in up["events"]] == ["undone"] and up["events"][0]["action"] == lay
        assert su["undo"] is None and [e["kind"] for e in su["events"]] == ["undone"]
        assert without_state(up["view"]) == without_state(start)       # the board as before the action
        assert up["undo"]["reason"] == "nothing_to_undo"
        # the same game on: Pass, Resist (may still be taken back), then a card that draws
        state = 2
        for n, action in enumerate(line):
            up = a.act(tok, state, action)
            assert up["type"] == "update", up
            state = up["state_id"]
            if n == 1:
                assert up["undo"]["allowed"] is True
        assert any(e["kind"] == "drew" for e in up["events"])
        assert up["undo"] == {"allowed": False, "reason": "hidden_revealed", "message": up["undo"]["message"]}
        assert "drawn" in up["undo"]["message"]
        before = up["view"]
        err = a.act(tok, state, {"type": "Undo"}, ref="again")
        assert (err["type"], err["code"], err["reason"], err["ref"]) == ("error", "illegal_action", "hidden_revealed", "again")
        assert err["state_id"] == state
        a.ping()
        w2 = a.hello(tok)
        assert w2["view"] == before and w2["state_id"] == state


def test_undo_is_in_the_record_and_a_restarted_server_replays_it(tmp_path: Path, database: str | None) -> None:
    with running(tmp_path, database=database) as app:
        g = create(app, mode="coop", lineup="RR", seed=3)
        t0 = g["seats"][0]["token"]
        with ws(app, g["game_id"]) as a:
            w = a.hello(t0)
            lays = [x for x in w["view"]["pending"] if x["type"] == "LayCostZone"]
            a.act(t0, 0, lays[0])
            up = a.act(t0, 1, {"type": "Undo"})
            up = a.act(t0, 2, lays[1])
            assert up["state_id"] == 3
            view_before = up["view"]
    rows = [json.loads(r[0]) for r in stored_rows(tmp_path, database, "SELECT action FROM actions WHERE game_id=? "
                                                  "ORDER BY n", (g["game_id"],))]
    assert [r["type"] for r in rows] == ["LayCostZone", "Undo", "LayCostZone"]
    local = Game.new(mode="coop", lineup="RR", seed=3)
    for r in rows:
        local.apply(action_from_json(r))
    with running(tmp_path, database=database) as app:   # a restarted server: the game replays its stored actions
        with ws(app, g["game_id"]) as a:
            w = a.hello(t0, state_id=0)
            assert w["state_id"] == 3 and w["view"] == view_before == as_sent(local.view(0))
            assert [e["kind"] for e in w["events"]].count("undone") == 1
            assert w["undo"]["allowed"] is True    # the new lay may be taken back in turn
            up = a.act(t0, 3, {"type": "Undo"})
            assert up["view"]["seats"][0]["hand_size"] == view_before["seats"][0]["hand_size"] + 1


def test_undo_refusals_carry_the_engines_reason(app: Any) -> None:
    g = create(app, mode="coop", lineup="RR", seed=3)
    t0, t1, ts = g["seats"][0]["token"], g["seats"][1]["token"], g["spectator"]["token"]
    with ws(app, g["game_id"]) as a, ws(app, g["game_id"]) as b, ws(app, g["game_id"]) as s:
        w0, w1 = a.hello(t0), b.hello(t1)
        s.hello(ts)
        err = a.act(t0, 0, {"type": "Undo"})
        assert (err["code"], err["reason"]) == ("illegal_action", "nothing_to_undo")
        lay = next(x for x in w0["view"]["pending"] if x["type"] == "LayCostZone")
        a.act(t0, 0, lay)
        up1 = b.recv()
        s.recv()
        assert up1["undo"]["reason"] == "not_your_action" and w1["undo"]["reason"] == "nothing_to_undo"
        err = b.act(t1, 1, {"type": "Undo"})   # not in pending, yet refused by the engine, not as not_your_turn
        assert (err["code"], err["reason"]) == ("illegal_action", "not_your_action")
        err = b.act(t1, 1, {"type": "Undo", "seat": 0})
        assert err["code"] == "wrong_seat"
        err = s.act(ts, 1, {"type": "Undo"})
        assert err["code"] == "not_a_player"
        err = a.act(t0, 0, {"type": "Undo"})
        assert err["code"] == "stale_state"
        assert a.recv()["type"] == "sync"
        err = a.act(t0, 1, {"type": "OfferEnd"})
        assert (err["code"], err["reason"]) == ("illegal_action", "not_a_duel")
        err = b.act(t1, 1, {"type": "AnswerEnd", "answer": "accept"})
        assert (err["code"], err["reason"]) == ("illegal_action", "no_offer")


def test_a_duel_ends_by_agreement_after_a_declined_offer(app: Any) -> None:
    g = create(app, mode="duel", lineup="ER", seed=4)
    te, tr = g["seats"][0]["token"], g["seats"][1]["token"]
    with ws(app, g["game_id"]) as e, ws(app, g["game_id"]) as r:
        we, wr = e.hello(te), r.hello(tr)
        assert we["end_offer"] is None and wr["view"]["pending"] == []   # Evil's turn: Righteous waits
        up = r.act(tr, 0, {"type": "OfferEnd"}, ref="offer")   # not the Righteous seat's turn: still taken
        ue = e.recv()
        assert up["ack"] and up["end_offer"] == ue["end_offer"] == "righteous"
        ev = ue["events"][0]
        assert (ev["kind"], ev["side"], ev["score"], ev["seat"]) == ("end_offered", "righteous", [0, 0], 1)
        err = r.act(tr, 1, {"type": "AnswerEnd", "answer": "accept"})
        assert (err["code"], err["reason"]) == ("illegal_action", "own_offer")
        err = e.act(te, 1, {"type": "OfferEnd"})
        assert (err["code"], err["reason"]) == ("illegal_action", "offer_open")
        err = e.act(te, 1, {"type": "AnswerEnd", "answer": "maybe"})
        assert err["code"] in ("illegal_action", "malformed_action") and err["reason"] == "malformed"
        up = e.act(te, 1, {"type": "AnswerEnd", "answer": "decline"})
        assert up["end_offer"] is None and up["view"]["result"] is None
        assert [x["kind"] for x in up["events"]] == ["end_declined"]
        assert r.recv()["end_offer"] is None
        # play goes on; Evil offers, Righteous accepts
        up = e.act(te, 2, {"type": "OfferEnd"})
        assert up["end_offer"] == "evil" and r.recv()["end_offer"] == "evil"
        up = r.act(tr, 3, {"type": "AnswerEnd", "answer": "accept"})
        e.recv()
        res = up["view"]["result"]
        assert res["winner"] == "draw" and res["reason"] == "ended by agreement on the stalemate score 0-0"   # G-8
        assert [x["kind"] for x in up["events"]][:2] == ["end_accepted", "game_over"]
        assert up["undo"]["reason"] == "game_over" and up["end_offer"] is None
        err = e.act(te, 4, {"type": "Undo"})
        assert err["code"] == "game_over"
    record = app.get(f"/api/games/{g['game_id']}/record").json()
    assert [a["type"] for a in record["actions"]] == ["OfferEnd", "AnswerEnd", "OfferEnd", "AnswerEnd"]
    again = Game.from_record(record)
    assert again.result is not None and again.result.reason == res["reason"]
    summary = app.get(f"/api/games/{g['game_id']}").json()
    assert summary["result"]["reason"] == res["reason"]


def test_a_bot_side_answers_an_offer_to_end_by_the_score(app: Any) -> None:
    """Righteous (a person) offers at 0-0 to an Evil bot: a tie is a draw, which the bot accepts."""
    g = create(app, mode="duel", lineup="ER", seed=4, bots={0: "random"})
    tr = g["seats"][1]["token"]
    with ws(app, g["game_id"]) as r:
        w = r.hello(tr)
        state = w["state_id"]
        while w["view"]["pending"] == [] and w["view"]["result"] is None:   # the bot's opening moves
            w = r.recv()
            state = w["state_id"]
        up = r.act(tr, state, {"type": "OfferEnd"})
        assert up["end_offer"] == "righteous"
        score = up["view"]["score"]
        answer = r.recv()
        assert answer["by"] == 0 and answer["events"][0]["kind"] in ("end_accepted", "end_declined")
        if score[0] <= score[1]:
            assert answer["view"]["result"]["reason"].startswith("ended by agreement")
        else:
            assert answer["view"]["result"] is None and answer["end_offer"] is None


@pytest.mark.parametrize("lineup,offerer,person,bot", [("ERR", 0, 1, 2), ("EER", 2, 1, 0)])
def test_G8_a_2v1_side_ends_only_when_every_seat_accepted(app: Any, lineup: str, offerer: int, person: int,
                                                           bot: int) -> None:
    """ERR / EER: the lone side offers at 0-0; the two-seat side is a person and a bot. The bot
    answers for itself (accepting a draw), the game waits for the person, and their accept ends it
    as a draw; the person's teammate was never skipped."""
    g = create(app, mode="duel", lineup=lineup, seed=4, bots={bot: "random"})
    to, tp = g["seats"][offerer]["token"], g["seats"][person]["token"]
    with ws(app, g["game_id"]) as o, ws(app, g["game_id"]) as p:
        wo, wp = o.hello(to), p.hello(tp)
        state = wo["state_id"]
        assert wo["view"]["score"] == [0, 0] and wo["end_waiting"] == []
        # the bot may move first (its seat may open the duel): its update can come before the offer's
        # answer, and an offer sent on the state before it is stale (then the sync says the new state)
        o.send({"type": "action", "token": to, "state_id": state, "action": {"type": "OfferEnd"}})
        while True:
            up = o.recv()
            if up.get("type") == "error" and up.get("code") == "stale_state":
                sync = o.recv()
                o.send({"type": "action", "token": to, "state_id": sync["state_id"], "action": {"type": "OfferEnd"}})
                continue
            if up.get("by") == offerer:
                break
        assert up["end_offer"] == wo["view"]["seats"][offerer]["side"] and sorted(up["end_waiting"]) == sorted([person, bot])
        seen = p.recv()
        while seen["by"] != bot or seen["state_id"] <= up["state_id"]:   # the bot's answer for itself (its
            seen = p.recv()   # moves before the offer may reach the person after its welcome: a slower store)
        assert [e["kind"] for e in seen["events"]] == ["end_answered"], seen["events"]
        assert seen["events"][0]["waiting"] == [person] and seen["end_waiting"] == [person]
        assert seen["view"]["result"] is None and seen["end_offer"] is not None   # one partner does not end it
        up = p.act(tp, seen["state_id"], {"type": "AnswerEnd", "answer": "accept"})
        assert [e["kind"] for e in up["events"]][:2] == ["end_accepted", "game_over"]
        res = up["view"]["result"]
        assert res == {"winner": "draw", "reason": "ended by agreement on the stalemate score 0-0", "round": res["round"]}
        err = p.act(tp, up["state_id"], {"type": "AnswerEnd", "answer": "accept"})
        assert err["code"] == "game_over" and "a draw" in err["message"]
    summary = app.get(f"/api/games/{g['game_id']}").json()
    assert summary["result"]["winner"] == "draw"
