"""The refusal a lobby request, a game's loading or a quota answers with."""

from __future__ import annotations


class LobbyError(Exception):
    """A lobby request that cannot be served: HTTP status, code and message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
