"""The lobby API's bodies (HTTP): pydantic models of what ``POST /api/games``, the join and the
other lobby endpoints take and answer, and of a seat as the lobby and a welcome show it. Their
schemas are written with the protocol's (server/protocol.py, ``--write``)."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, field_validator


class SeatInfo(BaseModel):
    model_config = ConfigDict(extra="forbid", title="SeatInfo")
    seat: int
    side: str = Field(description="righteous or evil")
    kind: Literal["human", "bot"]
    bot: Optional[str] = Field(None, description="The bot level of a bot seat.")
    claimed: bool = Field(description="A human seat someone has joined (by link or by the lobby).")
    access: Optional[Literal["invited", "open"]] = Field(None, description="A human seat's access: `open` seats "
                                                                            "may be taken by join.")
    name: Optional[str] = None
    connected: int = Field(0, description="Connections open on this seat now.")


# --------------------------------------------------------------------------- large integers
#: A seed as text: decimal digits (128 random bits are 39 of them; the cap bounds the parse).
SEED_TEXT = re.compile(r"[0-9]{1,100}")
#: The JSON schema of a seed the server accepts: a whole number, or its decimal digits as a string.
#: The server always sends seeds as strings: a JavaScript client reads JSON numbers as doubles,
#: which hold integers exactly only up to 2**53 (docs/protocol.md, "Large integers").
SEED_SCHEMA: dict[str, Any] = {"anyOf": [{"type": "integer", "minimum": 0},
                                         {"type": "string", "pattern": "^[0-9]{1,100}$"},
                                         {"type": "null"}]}


# --------------------------------------------------------------------------- lobby (HTTP)
class CreateGame(BaseModel):
    """`POST /api/games`. Settings use the URL parameter names (`evilInterrupt`, `matAbilities`,
    `soloFee`, ...) or the field names; query parameters of the request are taken as settings too."""

    model_config = ConfigDict(extra="forbid", title="CreateGame")
    mode: str = Field("coop", description="coop, solo or duel")
    lineup: str = Field("RR", description="One letter a seat: R (Righteous) or E (Evil, duel).")
    seed: Annotated[Optional[int], WithJsonSchema(SEED_SCHEMA)] = Field(None, ge=0, strict=True, description=(
        "The game's seed, a whole number or a decimal string of one (see Large integers): for tests, "
        "bots-only games and scenarios. Left out, the server draws 128 random bits and keeps them secret "
        "until the game is over. Refused (`seed_not_allowed`) in a duel with people on both sides: whoever "
        "picks the seed knows every hidden card."))
    settings: dict[str, Union[bool, int, str]] = Field(default_factory=dict)
    decks: Optional[list[str]] = Field(None, description="Deck ids, one a seat (then the Evil deck in co-op).")
    scenario: Optional[str] = Field(None, description="A duel scenario name: its mode, line-up and settings "
                                                      "(over these), fresh or from its prepared position.")
    bots: dict[int, str] = Field(default_factory=dict,
                                 description="Seat -> bot level (easy, normal, hard, heuristic, random, or a budget "
                                             "such as mcts:200ms); other seats are people.")
    name: Optional[str] = Field(None, max_length=80, description="A title shown in the lobby.")
    listed: bool = Field(True, description="Show the game in the open-games list while it has an open seat.")
    access: dict[int, Literal["invited", "open"]] = Field(default_factory=dict, description=(
        "Seat -> `invited` (the default: only the seat's link plays it; never listed; join cannot take it) "
        "or `open` (listed; the first join takes it, with a fresh token)."))
    manualAdjust: Optional[Literal["ask", "free", "off"]] = Field(None, description=(
        "Hand-set Maturity/Humility (`AdjustBadge`): `ask` (a request the other side accepts or declines; "
        "the default with people on both sides), `free` (applied at once; the default otherwise) or `off`."))

    @field_validator("seed", mode="before")
    @classmethod
    def _seed_as_text(cls, value: Any) -> Any:
        """A seed sent as a decimal string (how the server writes seeds, and how a browser keeps one
        exact) is the whole number it spells; a number is left to the integer check."""
        if not isinstance(value, str):
            return value
        if not SEED_TEXT.fullmatch(value):
            raise ValueError(f"seed must be a whole number 0 or more, or a decimal string of one, not {value!r}")
        return int(value)


class SeatLink(BaseModel):
    model_config = ConfigDict(extra="forbid", title="SeatLink")
    seat: int
    side: str
    kind: Literal["human", "bot"]
    bot: Optional[str] = None
    token: Optional[str] = Field(None, description="The seat's secret token (human seats).")
    url: Optional[str] = Field(None, description="The seat's secret link (the token is in the fragment).")
    access: Optional[Literal["invited", "open"]] = Field(None, description="A human seat's access (see CreateGame).")


class SpectatorLink(BaseModel):
    model_config = ConfigDict(extra="forbid", title="SpectatorLink")
    token: str
    url: str


class CreatedGame(BaseModel):
    model_config = ConfigDict(extra="forbid", title="CreatedGame")
    game_id: str
    mode: str
    lineup: str
    state_id: int
    ws: str = Field(description="The game's WebSocket address; send `hello` with a token.")
    seats: list[SeatLink]
    manualAdjust: Literal["ask", "free", "off"] = "free"
    spectator: SpectatorLink


class ScenarioInfo(BaseModel):
    model_config = ConfigDict(extra="forbid", title="ScenarioInfo")
    name: str
    title: str
    goal: str = Field(description="What each side plays for, in words.")


class GameSummary(BaseModel):
    model_config = ConfigDict(extra="forbid", title="GameSummary")
    game_id: str
    name: Optional[str]
    mode: str
    lineup: str
    created: float
    settings: dict[str, Any]
    seats: list[SeatInfo]
    open_seats: list[int] = Field(description="Open human seats nobody has taken yet (join can take these).")
    manualAdjust: Literal["ask", "free", "off"] = "free"
    state_id: Optional[int] = Field(None, description="Where the game is (when it is loaded).")
    round: Optional[int] = None
    result: Optional[dict[str, Any]] = None
    resumable: bool = Field(True, description="False for a game stored under rules this server no longer plays.")
    status_note: Optional[str] = Field(None, description="Why the game cannot be resumed (names both rules versions).")
    scenario: Optional[ScenarioInfo] = Field(None, description="The duel scenario the game was started from.")
    variants: Optional[dict[str, Any]] = Field(None, description=(
        "The duel's play-test variants this table plays: `on` (alias -> value; empty: the printed rules), "
        "`text` (\"This table plays: ...\") and `rules` (the rule IDs they depart from)."))


class JoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", title="JoinRequest")
    seat: Optional[int] = Field(None, strict=True,
                                description="The seat wanted (an open one); the first open seat if left out.")
    name: Optional[str] = Field(None, max_length=40)


class Joined(BaseModel):
    model_config = ConfigDict(extra="forbid", title="Joined")
    game_id: str
    seat: int
    token: str
    url: str
    ws: str


class ApiError(BaseModel):
    model_config = ConfigDict(extra="forbid", title="ApiError")
    code: str
    message: str


class Digest(BaseModel):
    model_config = ConfigDict(extra="forbid", title="Digest")
    game_id: str
    state_id: int
    digest: str = Field(description="HMAC-SHA256 (server key) of every seat's view, the spectator view "
                                    "and the record: equal digests mean equal games.")
