"""What the game server asks of the other processes serving its database (:class:`Peers`):
the hooks that :class:`~christianity_game.server.cluster.Cluster` provides. A lone server has
none (``GameServer.cluster`` is None), and then none of these is called."""

from __future__ import annotations

from typing import Any, Protocol

from .conn import Conn
from .room import Room


class Peers(Protocol):
    """The cluster's hooks, by who calls them: the game server's parts (ownership, forwarding,
    welcomes, commits, relays) and the app (start and stop, the lobby's create and join, the
    WebSocket endpoint, ``/healthz``)."""

    def owns(self, game_id: str) -> bool:
        """Whether this process applies ``game_id``'s actions and runs its bots."""
        ...

    def intercept(self, conn: Conn, room: Room, text: str | bytes, msg: Any) -> bool:
        """A valid message for a game another process owns: True if the cluster took it."""
        ...

    def welcomed(self, conn: Conn, room: Room) -> None:
        """After a welcome: the adjustment requests waiting on the game's owner."""
        ...

    def stored(self, room: Room) -> None:
        """An action of ``room`` is committed: the followers hear of it."""
        ...

    def relay(self, room: Room, text: str) -> None:
        """A message to every connection of ``room``, on the other processes too."""
        ...

    async def start(self) -> None: ...
    async def halt(self) -> None: ...
    async def stop(self) -> None: ...
    async def ready(self, game_id: str) -> None: ...
    async def adopt(self, game_id: str) -> bool: ...
    async def check_create_rate(self, owner: str) -> None: ...
    async def join(self, game_id: str, seat: int | None, name: str | None, base_url: str) -> dict[str, Any]: ...
    def report(self) -> dict[str, Any]: ...
