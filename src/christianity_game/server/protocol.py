"""The wire protocol: pydantic models of every WebSocket message, and the schemas of the protocol
and of the lobby's bodies (server/lobby_models.py).

These models are the single source of the JSON schemas kept in ``server/schemas/*.json`` and in
``docs/protocol.md`` (a test checks that all three agree). After changing a model, or when the
engine gains an action type, regenerate both with::

    python -m christianity_game.server.protocol --write

The same command writes what the engine's action types declare for people (``engine/actions.py``):
their descriptions and refusal codes into ``docs/protocol.md``, and ``static/actions.js``, the
browser's words for each kind of action.

The server validates every client message with these models; it builds its outgoing messages by
hand for speed (one serialisation of each seat's view per update), and the tests validate every
outgoing message against the server models below.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model

from ..engine.actions import ACTION_TYPES, RULE_REFUSALS, TABLE_REFUSALS
from .lobby_models import ApiError, CreatedGame, CreateGame, Digest, GameSummary, Joined, JoinRequest, SeatInfo
from .reason_words import REASON_WORDS

SCHEMA_DIR = Path(__file__).parent / "schemas"
DOC_PATH = Path(__file__).resolve().parents[3] / "docs" / "protocol.md"
ACTIONS_JS_PATH = Path(__file__).parent / "static" / "actions.js"

# --------------------------------------------------------------------------- error codes
ERROR_CODES: dict[str, str] = {
    "malformed_json": "The message is not a JSON object.",
    "too_large": "The message is longer than the server's cap (see `limits` in `welcome`).",
    "rate_limited": "Too many messages on this connection: this one was dropped; slow down.",
    "unknown_type": "The message has no `type`, or one the server does not know.",
    "bad_message": "A known message with missing fields, extra fields or fields of the wrong type.",
    "not_joined": "The connection has not said who it is: send `hello` with a token first.",
    "missing_token": "The message carries no `token`.",
    "wrong_token": "The token is not this game's, or not the one this connection joined with.",
    "not_a_player": "A spectator token cannot act.",
    "wrong_seat": "The action names a seat other than the token's seat.",
    "malformed_action": "The `action` object is not a well-formed action (the engine's `malformed`).",
    "stale_state": "The `state_id` sent is not the current one; a `sync` message follows at once.",
    "not_your_turn": "The seat may not act now (the game waits for another seat).",
    "illegal_action": "The engine refused the action; `reason` holds the engine's code.",
    "game_over": "The game is over; nothing more can be played.",
    "no_such_game": "There is no game with this id (the connection is then closed with 4404).",
    "game_unavailable": "The stored game could not be loaded (its record no longer replays, or its rows are "
                        "damaged); the connection is then closed with 1011. Other games are not affected.",
    "game_not_resumable": "The game was stored under rules this server's engine no longer plays (an upgrade): "
                          "it stays stored and listed, its record can be downloaded, but it cannot go on; "
                          "the connection is then closed with 4410.",
    "state_lost": "The client has seen a later state than the server holds: acknowledged actions were lost "
                  "from storage (the server logs it). The reply carries the server's state; the connection "
                  "stays open.",
    "storage_error": "The action could not be stored, so it was not applied; try again. With several server "
                     "processes (docs/deploy.md) also: the process running this game did not answer in time (it may "
                     "have stopped; another takes the game over within seconds): the action may or may not have "
                     "been applied, and an `update` says so if it was; try again after it or a `sync`.",
    "internal_error": "A bug in the server; the state is unchanged.",
    "too_many_connections": "A connection cap is reached (per client address or in total when it opens; per "
                            "seat or for the game's spectators when it joins); the connection is then closed "
                            "with 4429.",
    "origin_refused": "The WebSocket was opened from a page of another site (`Origin`); closed with 4403.",
    "adjust_off": "Manual Maturity/Humility adjustment is off at this table (`manualAdjust: off`).",
    "adjust_pending": "This seat already has an adjustment request waiting for an answer.",
    "no_such_request": "No adjustment request with this id is waiting (already answered, or never made).",
    "not_your_request": "Only a person on the other side may answer this adjustment request.",
}
ErrorCode = Literal[tuple(ERROR_CODES)]  # type: ignore[valid-type]


# WebSocket close codes the server uses.
CLOSE_CODES: dict[int, str] = {
    1000: "Normal close (the server is shutting down).",
    1009: "A frame over the hard 1 MiB cap (closed by the WebSocket layer, before the app sees it).",
    1011: "The game is unavailable: its record no longer replays or its stored rows are damaged. (Also "
          "sent by the WebSocket layer to a client that did not answer a ping in time.)",
    1013: "The client stopped reading: what was queued for it passed the send-queue cap (bytes or messages). "
          "Reconnect to resync.",
    4403: "The WebSocket was opened from a foreign `Origin` (a page of another site).",
    4404: "No such game.",
    4408: "The connection did not join (`hello` with a token) in time.",
    4410: "The game cannot be resumed after an upgrade of the rules (`game_not_resumable`).",
    4429: "Too many connections: per client address, in total, per seat or for a game's spectators.",
}

Ref = Annotated[Optional[Union[str, int]], Field(
    description="Any short value the client chooses; echoed in the reply (`ack`ed update or error).")]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# --------------------------------------------------------------------------- actions (for the docs)
def _action_models() -> list[type[BaseModel]]:
    """One pydantic model per engine action type, made from the engine's dataclasses."""
    out: list[type[BaseModel]] = []
    for name, cls in ACTION_TYPES.items():
        defs: dict[str, Any] = {"type": (Literal[name], ...)}
        for f in fields(cls):
            ann = str(f.type)
            base: Any = str if "str" in ann else int
            optional = f.default is not MISSING or f.name == "seat"
            if f.name == "seat":
                defs["seat"] = (Optional[int], Field(None, description="Optional: the server fills in the "
                                                      "token's seat; if given it must be that seat."))
            elif optional:
                defs[f.name] = (Optional[base], f.default if f.default is not MISSING else None)
            else:
                defs[f.name] = (base, ...)
        doc = (cls.__doc__ or name).strip().split("\n\n")[0]
        model = create_model(name, __config__=ConfigDict(extra="forbid", title=name), **defs)
        model.__doc__ = " ".join(doc.split())
        out.append(model)
    return out


ACTION_MODELS = _action_models()
ActionUnion = Annotated[Union[tuple(ACTION_MODELS)], Field(discriminator="type")]  # type: ignore[valid-type]


# --------------------------------------------------------------------------- client -> server
class Hello(_Msg):
    """Join the game's stream as the token's seat (or as a spectator with the spectator token).

    The reply is `welcome`: the seat's view and, when `state_id` is given, every event after it
    (a reconnecting client sends the last `state_id` it saw). `state_id` 0 asks for the whole log;
    leaving it out asks for no events. Sending `hello` again switches the connection to another token.
    """

    model_config = ConfigDict(extra="forbid", strict=True, title="hello")
    type: Literal["hello"]
    token: Optional[str] = Field(None, description="The seat's or the spectator's secret token.")
    state_id: Optional[int] = Field(None, description="The last state id this client saw, if any.")
    ref: Ref = None


class ActionMessage(_Msg):
    """Take an action for the token's seat, against the state the client saw.

    Accepted: every connection gets an `update`; the sender's has `ack: true` and its `ref`. The
    action is stored before any update is sent. Refused: an `error`, and nothing changes.
    """

    model_config = ConfigDict(extra="forbid", strict=True, title="action")
    type: Literal["action"]
    token: Optional[str] = Field(None, description="The seat's secret token (required).")
    state_id: int = Field(description="The `state_id` of the view the client acted on.")
    action: dict[str, Any] = Field(description="One action, as in the view's `pending` list "
                                               "(see the Action schema).")
    ref: Ref = None


class SyncRequest(_Msg):
    """Ask for a full resync: the reply is `sync` with the view and the events after `state_id`."""

    model_config = ConfigDict(extra="forbid", strict=True, title="sync")
    type: Literal["sync"]
    state_id: Optional[int] = Field(None, description="Send events after this state id (none if left out).")
    ref: Ref = None


class Ping(_Msg):
    """A keep-alive at the application level; the reply is `pong`."""

    model_config = ConfigDict(extra="forbid", strict=True, title="ping")
    type: Literal["ping"]
    ref: Ref = None


class AdjustAnswer(_Msg):
    """Answer another seat's manual adjustment request (`adjust_request`): accept or decline.

    Only a person on the other side may answer (at a table without people on the other side: another
    person). Accepted, the adjustment is applied as the requesting seat's action (an `update` with
    `by` that seat follows); either way every connection gets `adjust_resolved`."""

    model_config = ConfigDict(extra="forbid", strict=True, title="adjust_answer")
    type: Literal["adjust_answer"]
    token: Optional[str] = Field(None, description="The answering seat's secret token (required).")
    request: int = Field(description="The `request` id of the `adjust_request`.")
    accept: bool
    ref: Ref = None


CLIENT_MESSAGES: dict[str, type[_Msg]] = {"hello": Hello, "action": ActionMessage, "sync": SyncRequest,
                                          "ping": Ping, "adjust_answer": AdjustAnswer}


# --------------------------------------------------------------------------- server -> client
class EventOut(BaseModel):
    """One engine event as this connection may see it (`Event.for_seat`): a card another seat
    may not see is left out (`card`, `uid`). Extra fields are the event's details."""

    model_config = ConfigDict(extra="allow", title="Event")
    state_id: int = Field(description="The state id of the action that caused the event.")
    kind: str
    seat: Optional[int] = None
    card: Optional[str] = Field(None, description="The card id, where this connection may see it.")
    uid: Optional[int] = Field(None, description="This card in this game, where this connection may see it.")


class ViewOut(BaseModel):
    """A seat's view (`Game.view(seat)`; a spectator's for `seat` null). A card the viewer may not
    see has no `uid` or `id` (`{"hidden": true}`, or only a count): docs/design.md, "Hidden
    information"."""

    model_config = ConfigDict(extra="allow", title="View")
    state_id: int
    mode: str
    round: int
    turn_seat: int
    phase: str
    viewer: Optional[int]
    seats: list[dict[str, Any]]
    stack: list[dict[str, Any]]
    piles: dict[str, Any]
    score: list[int]
    result: Optional[dict[str, Any]]
    pending: list[dict[str, Any]] = Field(description="The actions the viewer may take now (JSON actions).")


class Limits(BaseModel):
    model_config = ConfigDict(extra="forbid", title="Limits")
    max_message_bytes: int
    rate_per_s: float
    burst: int
    sync_bytes_per_message: int = Field(0, description="A `welcome` or `sync` reply over this many bytes "
                                                       "costs one more message of the rate limit per this many bytes.")
    send_queue_bytes: int = Field(0, description="Bytes queued to a client that stops reading before the "
                                                 "connection is closed with 1013.")


class UndoState(BaseModel):
    """Whether the connection's seat may send `Undo` now (the engine's `undo_refusal`): `allowed`,
    else the refusal's `reason` code and `message` the server would answer an `Undo` with."""

    model_config = ConfigDict(extra="forbid", title="UndoState")
    allowed: bool
    reason: Optional[str] = Field(None, description="Why not: nothing_to_undo, not_your_action, turn_over, "
                                                    "hidden_revealed, seen_by_opponent (a duel), cannot_undo "
                                                    "or game_over.")
    message: Optional[str] = Field(None, description="Why not, in words (seats numbered from 0).")


def _undo_field() -> Any:
    return Field(None, description="Players only (null for spectators): may this seat `Undo` now, and why not.")


def _end_offer_field() -> Any:
    return Field(None, description="Duels: the side whose offer to end the game on the stalemate score "
                                   "waits for the other side's `AnswerEnd`; null when none does.")


def _end_waiting_field() -> Any:
    return Field(default_factory=list, description="Duels (G-8): the seats of the answering side whose "
                 "`AnswerEnd` the standing offer still waits for (every seat of that side must accept; "
                 "one decline ends the offer); empty when no offer stands. Under rules 1-3 every seat "
                 "of that side is listed and the first answer decides.")


class Welcome(_Msg):
    """The reply to `hello`: who this connection is, the view, the events after the client's
    `state_id`, the seats and the limits."""

    model_config = ConfigDict(extra="forbid", title="welcome")
    type: Literal["welcome"]
    game_id: str
    seat: Optional[int] = Field(description="The seat, or null for a spectator.")
    role: Literal["player", "spectator"]
    state_id: int
    since: Optional[int] = Field(description="Events are those after this state id (null: none sent).")
    events: list[EventOut]
    view: ViewOut
    undo: Optional[UndoState] = _undo_field()
    end_offer: Optional[Literal["righteous", "evil"]] = _end_offer_field()
    end_waiting: list[int] = _end_waiting_field()
    seats: list[SeatInfo]
    limits: Limits
    ref: Ref = None


class Update(_Msg):
    """Pushed to every connection of the game after each accepted action: the new view of the
    connection's seat (the spectator view for spectators) and the action's events, filtered for it."""

    model_config = ConfigDict(extra="forbid", title="update")
    type: Literal["update"]
    game_id: str
    state_id: int
    by: Optional[int] = Field(description="The seat that acted.")
    ack: bool = Field(description="True on the connection whose action this was.")
    ref: Ref = None
    events: list[EventOut]
    view: ViewOut
    undo: Optional[UndoState] = _undo_field()
    end_offer: Optional[Literal["righteous", "evil"]] = _end_offer_field()
    end_waiting: list[int] = _end_waiting_field()


class Sync(_Msg):
    """A full resync: the view and the events after `since`. Sent on request, and right after a
    `stale_state` error."""

    model_config = ConfigDict(extra="forbid", title="sync")
    type: Literal["sync"]
    game_id: str
    state_id: int
    since: Optional[int]
    reason: Literal["requested", "stale_state"]
    events: list[EventOut]
    view: ViewOut
    undo: Optional[UndoState] = _undo_field()
    end_offer: Optional[Literal["righteous", "evil"]] = _end_offer_field()
    end_waiting: list[int] = _end_waiting_field()
    ref: Ref = None


class Error(_Msg):
    """A refused message. Nothing changed. `code` is one of the error codes; `reason` is the
    engine's code for `illegal_action` and `malformed_action`."""

    model_config = ConfigDict(extra="forbid", title="error")
    type: Literal["error"]
    code: ErrorCode  # type: ignore[valid-type]
    message: str
    reason: Optional[str] = None
    state_id: Optional[int] = Field(None, description="The game's current state id, where known.")
    ref: Ref = None


class AdjustRequest(_Msg):
    """A seat asks to set its own Maturity or Humility by hand (`manualAdjust: ask`). Sent to every
    connection; the requesting connection's copy carries its `ref`. `answerers` are the seats that may
    answer with `adjust_answer`."""

    model_config = ConfigDict(extra="forbid", title="adjust_request")
    type: Literal["adjust_request"]
    game_id: str
    request: int = Field(description="The request id, for `adjust_answer`.")
    by: int = Field(description="The requesting seat.")
    action: dict[str, Any] = Field(description="The `AdjustBadge` action asked for.")
    answerers: list[int]
    state_id: int
    ref: Ref = None


class AdjustResolved(_Msg):
    """An adjustment request is settled: `accepted` (then applied: an `update` came just before),
    `declined`, or `void` (the game moved on so the adjustment no longer applies, or the game ended).
    Sent to every connection; the answering connection's copy carries its `ref`."""

    model_config = ConfigDict(extra="forbid", title="adjust_resolved")
    type: Literal["adjust_resolved"]
    game_id: str
    request: int
    by: int = Field(description="The requesting seat.")
    outcome: Literal["accepted", "declined", "void"]
    answered_by: Optional[int] = Field(None, description="The seat that answered.")
    state_id: int
    ref: Ref = None


class Pong(_Msg):
    model_config = ConfigDict(extra="forbid", title="pong")
    type: Literal["pong"]
    ref: Ref = None


SERVER_MESSAGES: dict[str, type[_Msg]] = {"welcome": Welcome, "update": Update, "sync": Sync, "error": Error,
                                          "pong": Pong, "adjust_request": AdjustRequest,
                                          "adjust_resolved": AdjustResolved}
ServerMessage = Annotated[Union[Welcome, Update, Sync, Error, Pong, AdjustRequest, AdjustResolved],
                          Field(discriminator="type")]
SERVER_ADAPTER: TypeAdapter[Any] = TypeAdapter(ServerMessage)


def parse_server_message(text: str | bytes) -> Any:
    """Validate a message from the server (the tests and the load script use this)."""
    return SERVER_ADAPTER.validate_json(text)


# --------------------------------------------------------------------------- schemas
def schemas() -> dict[str, dict[str, Any]]:
    """Every schema, by name (the file name without `.json` and the doc's marker)."""
    out: dict[str, dict[str, Any]] = {}
    for name, model in CLIENT_MESSAGES.items():
        schema = model.model_json_schema()
        if model is ActionMessage:
            schema["$defs"] = {"Action": TypeAdapter(ActionUnion).json_schema()}
            schema["$defs"]["Action"]["title"] = "Action"
            # pull the action models' own $defs up so the references resolve
            inner = schema["$defs"]["Action"].pop("$defs", {})
            schema["$defs"].update(inner)
            desc = schema["properties"]["action"].get("description")
            schema["properties"]["action"] = {"$ref": "#/$defs/Action", "description": desc}
        out[f"client.{name}"] = schema
    for name, model in SERVER_MESSAGES.items():
        out[f"server.{name}"] = model.model_json_schema()
    action = TypeAdapter(ActionUnion).json_schema()
    action["title"] = "Action"
    out["action"] = action
    lobby: tuple[type[BaseModel], ...] = (CreateGame, CreatedGame, JoinRequest, Joined, GameSummary, Digest, ApiError)
    for body in lobby:
        out[f"lobby.{body.__name__}"] = body.model_json_schema()
    return out


def schema_text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def error_table() -> str:
    rows = ["| code | meaning |", "|---|---|"]
    rows += [f"| `{c}` | {d} |" for c, d in ERROR_CODES.items()]
    return "\n".join(rows) + "\n"


def close_table() -> str:
    rows = ["| code | meaning |", "|---|---|"]
    rows += [f"| {c} | {d} |" for c, d in CLOSE_CODES.items()]
    return "\n".join(rows) + "\n"


def refusal_table() -> str:
    """What each action type does and the refusal codes it may get, from the engine's declarations."""
    def codes(pairs: tuple[tuple[str, str], ...]) -> str:
        return ", ".join(f"`{code}`" for code, _ in pairs)

    common = dict(RULE_REFUSALS + TABLE_REFUSALS)
    rows = [f"Every rules action may be refused with {codes(RULE_REFUSALS)}, and every table action with "
            f"{codes(TABLE_REFUSALS)}:", "", "| code | meaning |", "|---|---|"]
    rows += [f"| `{code}` | {meaning} |" for code, meaning in common.items()]
    rows += ["", "Beyond those, each action type may be refused with its own codes:", "",
             "| action | what it does | its own refusal codes |", "|---|---|---|"]
    for name, cls in ACTION_TYPES.items():
        own = "<br>".join(f"`{code}`: {meaning}" for code, meaning in cls.refusals) or "(none)"
        rows.append(f"| `{name}` | {cls.description} | {own} |")
    return "\n".join(rows) + "\n"


def actions_module() -> str:
    """``static/actions.js``: the browser's words for each kind of action, from the engine's declarations."""
    def table(name: str, doc: str, words: dict[str, str]) -> str:
        body = "".join(f"  {kind}: {json.dumps(text, ensure_ascii=False)},\n" for kind, text in words.items())
        return f"/** {doc} */\nexport const {name} = {{\n{body}}};\n"

    head = ("// Generated from engine/actions.py and server/reason_words.py by `python -m christianity_game.server.protocol --write`:\n"
            "// edit the action types' declarations and the words there, not this file.\n")
    return head + "\n".join([
        table("DESCRIPTIONS", "Each kind of action in one sentence (its `description`).",
              {name: cls.description for name, cls in ACTION_TYPES.items()}),
        table("UNDONE", "What an undone action was, in words (its `undone`; the `undone` event carries the action).",
              {name: cls.undone for name, cls in ACTION_TYPES.items() if cls.undone}),
        table("REASONS", "Every refusal and error code in words, a heading for the engine's or server's own "
                         "sentence (server/reason_words.py).", REASON_WORDS),
    ])


_BLOCK = re.compile(r"<!-- schema:(?P<name>[\w.]+) -->\n```json\n(?P<body>.*?)```\n<!-- /schema:(?P=name) -->",
                    re.S)
_ERRORS = re.compile(r"<!-- errors -->\n(?P<body>.*?)<!-- /errors -->", re.S)
_CLOSES = re.compile(r"<!-- close-codes -->\n(?P<body>.*?)<!-- /close-codes -->", re.S)
_REFUSALS = re.compile(r"<!-- refusals -->\n(?P<body>.*?)<!-- /refusals -->", re.S)


def doc_blocks(text: str) -> dict[str, str]:
    """The schema blocks of docs/protocol.md, by name."""
    return {m["name"]: m["body"] for m in _BLOCK.finditer(text)}


def doc_errors(text: str) -> str | None:
    m = _ERRORS.search(text)
    return None if m is None else m["body"]


def doc_close_codes(text: str) -> str | None:
    m = _CLOSES.search(text)
    return None if m is None else m["body"]


def doc_refusals(text: str) -> str | None:
    m = _REFUSALS.search(text)
    return None if m is None else m["body"]


def render_doc(text: str) -> str:
    """docs/protocol.md with every schema block and the error table regenerated."""
    all_schemas = schemas()
    known = set(doc_blocks(text))
    missing = [n for n in all_schemas if n not in known]
    if missing:
        extra = "".join(f"\n### `{n}`\n\n<!-- schema:{n} -->\n```json\n```\n<!-- /schema:{n} -->\n"
                        for n in missing)
        marker = "<!-- more schemas -->"
        text = text.replace(marker, extra.lstrip("\n") + "\n" + marker) if marker in text else text + extra

    def block(m: re.Match[str]) -> str:
        name = m["name"]
        body = schema_text(all_schemas[name]) if name in all_schemas else "{}\n"
        return f"<!-- schema:{name} -->\n```json\n{body}```\n<!-- /schema:{name} -->"

    text = _BLOCK.sub(block, text)
    text = _ERRORS.sub(lambda m: f"<!-- errors -->\n{error_table()}<!-- /errors -->", text)
    text = _CLOSES.sub(lambda m: f"<!-- close-codes -->\n{close_table()}<!-- /close-codes -->", text)
    text = _REFUSALS.sub(lambda m: f"<!-- refusals -->\n{refusal_table()}<!-- /refusals -->", text)
    return text


def write(doc: Path = DOC_PATH) -> None:
    SCHEMA_DIR.mkdir(exist_ok=True)
    wanted = schemas()
    for old in SCHEMA_DIR.glob("*.json"):
        if old.stem not in wanted:
            old.unlink()
    for name, schema in wanted.items():
        (SCHEMA_DIR / f"{name}.json").write_text(schema_text(schema), encoding="utf-8")
    if doc.exists():
        doc.write_text(render_doc(doc.read_text(encoding="utf-8")), encoding="utf-8")
    ACTIONS_JS_PATH.write_text(actions_module(), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--write"]:
        write()
        print(f"wrote {SCHEMA_DIR}, {DOC_PATH} and {ACTIONS_JS_PATH}")
        return 0
    print(json.dumps(schemas(), indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

