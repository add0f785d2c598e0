"""The test client's protocol checks (server/client.py): what it counts as a breach, and what not."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from christianity_game.server.client import SeatClient


class _Socket:
    """Stands in for a WebSocket: keeps what the client sent."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


PASS = {"type": "pass", "seat": 0}


def _welcomed_at(state_id: int) -> SeatClient:
    client = SeatClient("ws://127.0.0.1:1/ws/g", "token")
    client._handle(json.dumps({"type": "welcome", "state_id": state_id, "since": None, "events": [], "seat": 0,
                               "view": {"state_id": state_id, "pending": [PASS], "result": None}}))
    return client


def _resync(since: int, state_id: int) -> str:
    return json.dumps({"type": "sync", "reason": "stale_state", "state_id": state_id, "since": since,
                       "events": [{"state_id": i} for i in range(since + 1, state_id + 1)],
                       "view": {"state_id": state_id, "pending": [PASS], "result": None}})


def test_a_resync_after_a_stale_action_may_name_the_state_the_action_was_sent_against() -> None:
    """An action sent at state 4 crosses another update (5) on the way; the server refuses it as stale
    and resyncs "since 4", the state the action named (docs/protocol.md, "WebSocket": a stale `state_id`). That is
    the protocol, not a breach: the multi-worker kill test met it when the surviving worker took the
    game over and handled a forwarded action the dead owner had already applied."""
    client, ws = _welcomed_at(4), _Socket()
    asyncio.run(client._act(ws))
    assert ws.sent[0]["state_id"] == 4
    client._handle(json.dumps({"type": "update", "state_id": 5, "ack": False, "events": [{"state_id": 5}],
                               "view": {"state_id": 5, "pending": [PASS], "result": None}}))
    client._handle(json.dumps({"type": "error", "code": "stale_state", "ref": ws.sent[0]["ref"]}))
    client._handle(_resync(4, 5))
    assert client.problems == []
    assert client.state_id == 5


def test_a_resync_naming_any_other_state_is_a_breach() -> None:
    """The same exchange, but the resync names a state neither held nor asked from: a breach."""
    client, ws = _welcomed_at(4), _Socket()
    asyncio.run(client._act(ws))
    client._handle(json.dumps({"type": "update", "state_id": 5, "ack": False, "events": [{"state_id": 5}],
                               "view": {"state_id": 5, "pending": [PASS], "result": None}}))
    client._handle(_resync(3, 5))
    assert client.problems == ["sync since 3, asked 5"]
