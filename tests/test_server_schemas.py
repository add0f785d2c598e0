"""docs/protocol.md, src/christianity_game/server/schemas/*.json and the pydantic models agree.

When one of these fails after a model changed (or the engine gained an action type), run
``python -m christianity_game.server.protocol --write`` and review the diff."""

from __future__ import annotations

import json

import pytest

from christianity_game.engine.actions import ACTION_TYPES
from christianity_game.server import protocol as P

FIX = "run `python -m christianity_game.server.protocol --write`"


def test_the_doc_holds_every_schema_exactly_as_the_models_make_it() -> None:
    text = P.DOC_PATH.read_text(encoding="utf-8")
    blocks = P.doc_blocks(text)
    wanted = P.schemas()
    assert sorted(blocks) == sorted(wanted), f"the doc's schema blocks differ from the models: {FIX}"
    for name, schema in wanted.items():
        assert json.loads(blocks[name]) == schema, f"schema {name} in docs/protocol.md is out of date: {FIX}"
    assert P.render_doc(text) == text, FIX


def test_the_schema_files_match_the_models() -> None:
    wanted = P.schemas()
    files = {p.stem: p for p in P.SCHEMA_DIR.glob("*.json")}
    assert sorted(files) == sorted(wanted), FIX
    for name, schema in wanted.items():
        assert json.loads(files[name].read_text(encoding="utf-8")) == schema, f"{name}.json: {FIX}"


def test_the_doc_lists_every_error_code() -> None:
    text = P.DOC_PATH.read_text(encoding="utf-8")
    assert P.doc_errors(text) == P.error_table(), FIX
    assert P.doc_close_codes(text) == P.close_table(), FIX
    error_schema = P.Error.model_json_schema()
    assert error_schema["properties"]["code"]["enum"] == list(P.ERROR_CODES)


def test_every_message_type_has_a_schema_in_the_doc() -> None:
    blocks = P.doc_blocks(P.DOC_PATH.read_text(encoding="utf-8"))
    for kind in P.CLIENT_MESSAGES:
        assert f"client.{kind}" in blocks
    for kind in P.SERVER_MESSAGES:
        assert f"server.{kind}" in blocks


def test_the_action_schema_covers_every_engine_action() -> None:
    schema = P.schemas()["action"]
    assert sorted(schema["discriminator"]["mapping"]) == sorted(ACTION_TYPES)


@pytest.mark.parametrize("message", [
    {"type": "hello", "token": "t", "state_id": 3},
    {"type": "action", "token": "t", "state_id": 0, "action": {"type": "Pass"}, "ref": 1},
    {"type": "sync"},
    {"type": "ping", "ref": "x"},
])
def test_client_messages_validate(message: dict[str, object]) -> None:
    P.CLIENT_MESSAGES[str(message["type"])].model_validate(message)
