"""Bots in seats: every bot move of the server (:class:`BotTurns`), made by one scheduler task that
shares the bots' thinking time fairly (:class:`BotScheduler`: games with people first; bots-only
games round-robin by creator, within a share of the loop). A bot that thinks (the search bots) runs
in a worker process, so the event loop serves every other game meanwhile; each move is applied
and committed like a person's (server/commits.py)."""

from __future__ import annotations

import asyncio
import collections
import time
from typing import Any, Callable

from ..bots.match import bot_move, to_move
from ..engine.actions import AnswerEnd, IllegalAction
from .commits import Commits
from .logs import game_log
from .peers import Peers
from .room import Room, sides_of


class BotScheduler:
    """Shares the bots' thinking time: one task makes every bot move of the server.

    ``move`` makes one bot move of a room. Games with a person's seat are served first, in arrival
    order (a person waits on them). Bots-only games take turns by creator (round-robin over client
    addresses, then over each creator's games), and together use at most ``share`` of the event
    loop: after a move that took ``t`` seconds, the next bots-only move waits
    ``t * (1 - share) / share``. So one client's bot games cannot starve people's games, nor
    another client's bot games.
    """

    def __init__(self, move: Callable[[Room], None], share: float) -> None:
        self.move = move
        self.share = min(1.0, max(0.01, share))
        self.people: collections.deque[Room] = collections.deque()
        self.bots_only: dict[str, collections.deque[Room]] = {}
        self.wake = asyncio.Event()
        self.not_before = 0.0
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    def ready(self, room: Room) -> None:
        """``room`` has a bot move to make now."""
        if room.people:
            self.people.append(room)
        else:
            self.bots_only.setdefault(room.owner, collections.deque()).append(room)
        self.wake.set()

    def _next_bots_only(self) -> Room | None:
        if not self.bots_only:
            return None
        owner = next(iter(self.bots_only))
        q = self.bots_only.pop(owner)
        room = q.popleft()
        if q:
            self.bots_only[owner] = q   # to the back of the round
        return room

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            room: Room | None
            if self.people:
                room = self.people.popleft()
            elif self.bots_only:
                wait = self.not_before - loop.time()
                if wait > 0:
                    self.wake.clear()
                    # asyncio.timeout, not wait_for: on Python 3.11, wait_for returns normally when it
                    # is cancelled in the same loop iteration as the wake, losing the cancellation,
                    # and the server's stop then waited on this task forever
                    try:
                        async with asyncio.timeout(wait):
                            await self.wake.wait()
                    except TimeoutError:
                        pass
                    continue
                room = self._next_bots_only()
                if room is None:
                    continue
            else:
                self.wake.clear()
                await self.wake.wait()
                continue
            t = time.perf_counter()
            try:
                self.move(room)
            except Exception:   # noqa: BLE001 - logged; the scheduler must keep serving
                game_log(room.game_id).exception("bot move in game %s failed", room.game_id)
                room.bot_pending = False
            spent = time.perf_counter() - t
            if not room.people:
                self.not_before = loop.time() + spent * (1.0 - self.share) / self.share
            await asyncio.sleep(0)


class BotTurns:
    """The bot moves of the games in ``rooms``: each scheduled ``bot_delay`` seconds after the
    action before it (so people can follow), made by the scheduler, committed through ``commits``.
    Only the owner of a game moves its bots (the cluster hook ``owns``)."""

    def __init__(self, rooms: dict[str, Room], commits: Commits, bot_delay: float, share: float) -> None:
        self.rooms = rooms
        self.commits = commits
        self.bot_delay = float(bot_delay)
        self.scheduler = BotScheduler(self._move, share)
        self.peers: Peers | None = None
        self.closing = False

    def start(self) -> None:
        self.scheduler.start()

    def kick(self, room: Room) -> None:
        """Schedule the next bot move of ``room`` (after ``bot_delay``) if a bot is to move."""
        if not room.bots or self.closing or room.bot_pending or room.bot_to_move() is None:
            return
        if self.peers is not None and not self.peers.owns(room.game_id):   # cluster hook: the owner's bots
            return
        room.bot_pending = True
        loop = asyncio.get_running_loop()
        if self.bot_delay > 0:
            loop.call_later(self.bot_delay, self.scheduler.ready, room)
        else:
            self.scheduler.ready(room)

    def after_action(self, room: Room) -> None:
        """After each durable action of ``room``: its next bot move, and the bots' answers to an
        offer to end the duel."""
        self.kick(room)
        g = room.game
        if g.result is None and g.end_offer is not None:
            self.answer_end(room)

    def _move(self, room: Room) -> None:
        """One bot move (run by the BotScheduler), then the next one is scheduled; after the action
        of the game being committed, if there is one."""
        room.when_settled(self._move_now, room)

    def _move_now(self, room: Room) -> None:
        room.bot_pending = False
        if self.closing or self.rooms.get(room.game_id) is not room:
            return
        turn = to_move(room.game, room.bots)
        if turn is None:
            return
        g, (seat, actions) = room.game, turn
        if len(actions) > 1 and room.bots[seat].thinks:
            self._think_off_loop(room, seat, actions)
            return
        def refused(seat: int, why: str, error: BaseException | None) -> None:   # a bot bug: the first legal action
            game_log(room.game_id).error("bot %s in game %s %s", seat, room.game_id, why, exc_info=error)

        action, events = bot_move(g, seat, actions, room.bots[seat], refused)
        self.commits.accept(room, action.to_json(), events, seat, None, None)

    def answer_end(self, room: Room) -> None:
        """An offer to end a duel: each bot seat of the answering side answers for itself (after
        ``bot_delay``), accepting unless the stalemate score puts its side behind (G-8, rules 4:
        every seat of the side must accept, a tie is a draw). Rules 1-3 (one answer ended it): a bot
        answered only for a side that only bots play, accepting when the score gave its side the win."""
        g = room.game
        offer = g.end_offer
        sides = sides_of(g.lineup)
        if g.rules >= 4:
            answering = [s for s in g.end_waiting() if s in room.bots]
        else:
            other = [s.seat for s in room.seats if offer is not None and sides[s.seat] != offer]
            if not other or any(room.seats[s].kind == "human" for s in other) or not any(s in room.bots for s in other):
                return
            answering = [next(s for s in other if s in room.bots)]

        def answer(seat: int) -> None:
            if self.closing or self.rooms.get(room.game_id) is not room:
                return
            game = room.game
            if game.result is not None or game.end_offer != offer or (game.rules >= 4 and seat not in game.end_waiting()):
                return
            r, e = game.score
            if game.rules >= 4:   # G-8: accept a win or a draw
                behind = e > r if sides[seat] == "righteous" else r > e
                choice = "decline" if behind else "accept"
            else:                 # rules 1-3, D-SCORE: a tie went to Evil
                choice = "accept" if ("righteous" if r > e else "evil") == sides[seat] else "decline"
            action = AnswerEnd(seat, choice)
            try:
                events = game.apply(action)
            except IllegalAction:
                game_log(room.game_id).exception("bot %s of game %s could not answer an offer to end", seat,
                                                 room.game_id)
                return
            self.commits.accept(room, action.to_json(), events, seat, None, None)

        for seat in answering:
            asyncio.get_running_loop().call_later(max(self.bot_delay, 0.0), room.when_settled, answer, seat)

    def _think_off_loop(self, room: Room, seat: int, actions: list[Any]) -> None:
        """A search bot thinks in a worker process (``bots.search.thinking_pool``), so the event
        loop serves every other game meanwhile; its move is applied when the answer comes, if the
        game is still where it was."""
        from ..bots.search import think, thinking_pool, worker_copy
        g, bot = room.game, room.bots[seat]
        state_id = g.state_id
        room.bot_pending = True   # no other move of this room is scheduled while it thinks
        future = asyncio.get_running_loop().run_in_executor(thinking_pool(), think, bot, worker_copy(g), seat, actions,
                                                            time.time())   # its budget counts from now

        def done(f: "asyncio.Future[tuple[Any, int, Any]]") -> None:
            room.bot_pending = False
            if self.closing or self.rooms.get(room.game_id) is not room:
                return
            if room.game is not g or g.state_id != state_id:   # moved on meanwhile: think again
                self.kick(room)
                return
            try:
                action, bot.rng.state, carry = f.result()
                bot.restore(carry)
                events = g.apply(action)
            except Exception:   # noqa: BLE001 - a bot bug or a lost worker: log it, fall back
                game_log(room.game_id).exception("search bot %s in game %s failed", seat, room.game_id)
                action = bot.choose(g.view(seat), actions)
                events = g.apply(action)
            self.commits.accept(room, action.to_json(), events, seat, None, None)

        future.add_done_callback(lambda f: room.when_settled(done, f))
