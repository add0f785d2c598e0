"""The lobby (:class:`Lobby`): games created (their quotas first), listed, summarised and joined
through the HTTP API; a seat's view, a game's digest and, once it is over, its record. The
WebSocket protocol is server/handlers.py."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any, Callable

from ..bots import BOTS, LEVELS, is_bot_name
from ..engine.game import Game
from ..engine.settings import Settings
from .conn import canonical
from .errors import LobbyError
from .lobby_models import CreateGame
from .quotas import Quotas
from .room import Room, access, default_manual_adjust, new_token, people_on_both_sides, sides_of, token_hash
from .rooms import Rooms
from .storage import Storage
from .store import GameRow, SeatRow


class Lobby:
    """The lobby's requests over the games of ``registry`` and ``storage``; ``kick`` wakes a new
    game's bots. ``default_variants``: a new duel's play-test variants unless it names its own
    (``serve --variants``); ``allow_chosen_seeds``: a creator's seed even in a duel between people."""

    def __init__(self, registry: Rooms, storage: Storage, quotas: Quotas, kick: Callable[[Room], None],
                 default_variants: str = "", allow_chosen_seeds: bool = False) -> None:
        self.registry = registry
        self.rooms = registry.rooms
        self.storage = storage
        self.store = storage.store
        self.quotas = quotas
        self.kick = kick
        self.default_variants = default_variants
        self.allow_chosen_seeds = allow_chosen_seeds

    def create_game(self, req: CreateGame, extra_settings: dict[str, str], base_url: str,
                    addr: str = "") -> dict[str, Any]:
        """Create a game for the client at ``addr`` (its quotas apply: checked first, so a refused
        request costs no game)."""
        owner = self.quotas.owner_key(addr)
        guess = req.scenario is None and bool(req.lineup) and all(s in req.bots for s in range(len(req.lineup)))
        self.quotas.check_create(owner, bots_only=guess)
        extra_settings = dict(extra_settings)
        adjust = req.manualAdjust or extra_settings.pop("manualAdjust", None)
        if adjust is not None and adjust not in ("ask", "free", "off"):
            raise LobbyError(400, "bad_settings", f"manualAdjust must be ask, free or off, not {adjust!r}")
        try:
            settings = table_settings({**req.settings, **extra_settings}, self.default_variants
                                      if req.mode == "duel" or req.scenario is not None else "")
        except ValueError as exc:
            raise LobbyError(400, "bad_settings", str(exc)) from None
        for seat, level in req.bots.items():
            if not is_bot_name(level):
                raise LobbyError(400, "unknown_bot", f"unknown bot {level!r} for seat {seat}; known: "
                                                     f"{', '.join([*LEVELS, *sorted(BOTS)])}, search:50ms, "
                                                     f"search:2000it, mcts:200ms, mcts:500it")
        # 128 secret bits: a seat's opening view must not give the seed away (it stays secret until
        # the game is over; the record, served then, replays exactly)
        seed = req.seed if req.seed is not None else secrets.randbits(128)
        try:
            if req.scenario is not None:
                game = self._scenario_game(req, seed, settings)
            else:
                game = Game.new(mode=req.mode, lineup=req.lineup, seed=seed, settings=settings, decks=req.decks)
        except LobbyError:
            raise
        except ValueError as exc:
            raise LobbyError(400, "bad_game", str(exc)) from None
        n = len(game.lineup)
        for seat in req.bots:
            if not 0 <= seat < n:
                raise LobbyError(400, "no_such_seat", f"bots: there is no seat {seat} in line-up {game.lineup}")
        for seat, acc in req.access.items():
            if not 0 <= seat < n or seat in req.bots:
                raise LobbyError(400, "no_such_seat", f"access: seat {seat} is not a person's seat of {game.lineup}")
        kinds = ["bot" if s in req.bots else "human" for s in range(n)]
        both = people_on_both_sides(kinds, game.lineup)
        if req.seed is not None and req.scenario is None and both and not self.allow_chosen_seeds:
            raise LobbyError(400, "seed_not_allowed", "a chosen seed is for tests, bots-only games and scenarios: "
                                                      "whoever picks it knows every hidden card, so a duel between "
                                                      "people always gets a secret random seed")
        if "human" not in kinds and not guess:   # a scenario played by bots only
            self.quotas.check_bots_only(owner)
        head = game.to_record()
        head.pop("actions", None)
        game_id = secrets.token_urlsafe(6)
        while self.store.game(game_id) is not None:
            game_id = secrets.token_urlsafe(6)
        spectator = new_token()
        sides = sides_of(game.lineup)
        rows: list[SeatRow] = []
        links: list[dict[str, Any]] = []
        for seat in range(n):
            if seat in req.bots:
                rows.append(SeatRow(seat, "bot", req.bots[seat], None, True, None))
                links.append({"seat": seat, "side": sides[seat], "kind": "bot", "bot": req.bots[seat]})
            else:
                tok = new_token()
                rows.append(SeatRow(seat, "human", None, token_hash(tok), False, None))
                links.append({"seat": seat, "side": sides[seat], "kind": "human", "token": tok,
                              "url": f"{base_url}play/{game_id}#token={tok}"})
        owner = self.quotas.owner_key(addr)
        options = {"name": req.name, "listed": req.listed, "scenario": req.scenario, "owner": owner,
                   "open": sorted(s for s, a in req.access.items() if a == "open"),
                   "manualAdjust": adjust or ("ask" if both else "free")}
        self.store.create_game(game_id, head, options, token_hash(spectator), rows, owner=owner)
        row = self.store.game(game_id)
        assert row is not None
        room = Room(game_id, game, row)
        self.rooms[game_id] = room
        self.storage.checkpoint_soon()   # a lost WAL then never takes a whole game, only its latest actions
        self.kick(room)
        for link in links:
            if link["kind"] == "human":
                link["access"] = access(rows[link["seat"]], room.open_seats)
        return {"game_id": game_id, "mode": game.mode.name, "lineup": game.lineup, "state_id": game.state_id,
                "ws": ws_url(base_url, game_id), "seats": links, "manualAdjust": room.manual_adjust,
                "spectator": {"token": spectator, "url": f"{base_url}play/{game_id}#token={spectator}"}}

    def _scenario_game(self, req: CreateGame, seed: int, settings: Settings) -> Game:
        """A game of a named duel scenario: its mode, line-up and settings (over the request's),
        fresh or from its prepared position."""
        sc = load_scenario(req.scenario or "")
        for name in ("mode", "lineup"):
            wanted = getattr(req, name)
            if name in req.model_fields_set and str(wanted).upper() != str(getattr(sc, name)).upper():
                raise LobbyError(400, "bad_game", f"scenario {sc.name!r} is {name} {getattr(sc, name)!r}, "
                                                  f"not {wanted!r}; leave {name} out")
        return sc.new_game(seed=seed, settings=settings)  # type: ignore[no-any-return]

    def summary(self, row: GameRow) -> dict[str, Any]:
        room = self.rooms.get(row.id)
        seats = room.seat_info() if room is not None else [
            {"seat": s.seat, "side": sides_of(row.head["lineup"])[s.seat], "kind": s.kind, "bot": s.bot,
             "claimed": s.claimed, "name": s.name, "connected": 0,
             "access": access(s, {int(x) for x in row.options.get("open") or ()})} for s in row.seats]
        open_ = {int(x) for x in row.options.get("open") or ()}
        out = {"game_id": row.id, "name": row.options.get("name"), "mode": row.head["mode"],
               "lineup": row.head["lineup"], "created": row.created, "settings": row.head["settings"],
               "seats": seats,
               "open_seats": [s.seat for s in row.seats if s.kind == "human" and not s.claimed and s.seat in open_],
               "manualAdjust": row.options.get("manualAdjust") or default_manual_adjust(row.seats, row.head["lineup"]),
               "state_id": None, "round": None, "result": row.result,
               "resumable": True, "status_note": None, "scenario": scenario_info(row.options.get("scenario"), row.head["settings"]),
               "variants": summary_variants(row.head["settings"])}
        if not row.finished:
            if room is None:
                self.storage.sort_resumable(row)
            out["resumable"] = row.id not in self.storage.not_resumable
            out["status_note"] = self.storage.not_resumable.get(row.id)
        if room is not None:
            g = room.game
            out["state_id"] = g.state_id
            out["round"] = g.round
            res = g.result
            out["result"] = None if res is None else {"winner": res.winner, "reason": res.reason, "round": res.round}
        return out

    def game_summary(self, game_id: str) -> dict[str, Any]:
        row = self._row(game_id)
        if game_id in self.rooms:
            row.seats = self.rooms[game_id].seats
        return self.summary(row)

    def _row(self, game_id: str) -> GameRow:
        if game_id in self.storage.broken:   # damaged, or lost from the store while the manifest knows it: not unknown
            raise LobbyError(503, "game_unavailable", self.storage.broken[game_id])
        row = self.store.game(game_id)
        if row is None:
            raise LobbyError(404, "no_such_game", f"there is no game {game_id!r}")
        return row

    def open_games(self, limit: int = 100) -> list[dict[str, Any]]:
        return [self.summary(r) for r in self.store.open_games(limit)]

    def join(self, game_id: str, seat: int | None, name: str | None, base_url: str) -> dict[str, Any]:
        room = self.registry.get(game_id)
        if room is None:
            raise LobbyError(404, "no_such_game", f"there is no game {game_id!r}")
        if room.game.result is not None:
            raise LobbyError(409, "game_over", "the game is over")
        free = [s for s in room.seats if s.kind == "human" and not s.claimed and s.seat in room.open_seats]
        if seat is None:
            if not free:
                raise LobbyError(409, "no_free_seat", "no open seat of this game is free (invited seats are "
                                                      "played only through their links)")
            target = free[0]
        else:
            match = [s for s in room.seats if s.seat == seat]
            if not match:
                raise LobbyError(404, "no_such_seat", f"there is no seat {seat}")
            target = match[0]
            if target.kind != "human":
                raise LobbyError(409, "bot_seat", f"seat {seat} is played by a bot")
            if target.seat not in room.open_seats:
                raise LobbyError(409, "seat_invited", f"seat {seat} is invited: only its link plays it")
            if target.claimed:
                raise LobbyError(409, "seat_taken", f"seat {seat} is taken")
        tok = new_token()   # joining through the lobby issues a fresh token: an old unused link stops working
        th = token_hash(tok)
        self.store.claim(game_id, target.seat, th, name)
        target.token_hash = th
        target.claimed = True
        if name is not None:
            target.name = name
        return {"game_id": game_id, "seat": target.seat, "token": tok,
                "url": f"{base_url}play/{game_id}#token={tok}", "ws": ws_url(base_url, game_id)}

    def view_for_token(self, game_id: str, token: str | None) -> dict[str, Any]:
        room = self.registry.get(game_id)
        if room is None:
            raise LobbyError(404, "no_such_game", f"there is no game {game_id!r}")
        if not token:
            raise LobbyError(401, "missing_token", "give the seat's or spectator's token")
        ident = room.identify(token)
        if ident is None:
            raise LobbyError(403, "wrong_token", "that token is not one of this game's")
        return room.game.view(ident[1])

    def digest(self, game_id: str) -> dict[str, Any]:
        room = self.registry.get(game_id)
        if room is None:
            raise LobbyError(404, "no_such_game", f"there is no game {game_id!r}")
        g = room.game
        h = hmac.new(self.storage.digest_key, digestmod=hashlib.sha256)
        for seat in [None, *range(len(g.lineup))]:
            h.update(canonical(g.view(seat)))
        h.update(canonical(g.to_record()))
        return {"game_id": game_id, "state_id": g.state_id, "digest": h.hexdigest()}

    def record(self, game_id: str) -> dict[str, Any]:
        """The game's record as served (``GET /api/games/{id}/record``): its seed as a decimal string."""
        if game_id in self.storage.not_resumable:
            # the game can never go on: its record (hidden cards included) is served as for a game over
            row = self._row(game_id)
            return served_record({**row.head, "actions": self.store.actions(game_id)})
        room = self.registry.get(game_id)
        if room is None:
            raise LobbyError(404, "no_such_game", f"there is no game {game_id!r}")
        if room.game.result is None:
            raise LobbyError(403, "game_not_over", "the record (seed and actions) reveals every hidden card; "
                                                   "it is served once the game is over")
        return served_record(room.game.to_record())


def served_record(record: dict[str, Any]) -> dict[str, Any]:
    """A record as the server sends it: the seed as a decimal string. A 128-bit seed is no JSON
    number a browser keeps (JavaScript reads numbers as doubles: exact only up to 2**53), and a
    client that reads and writes the record again would turn it into a float that no longer
    replays; every record reader takes both forms (``engine.record.record_seed``)."""
    seed = record.get("seed")
    if isinstance(seed, int) and not isinstance(seed, bool):
        return {**record, "seed": str(seed)}
    return record


def ws_url(base_url: str, game_id: str) -> str:
    if base_url.startswith("https://"):
        return "wss://" + base_url[len("https://"):] + f"ws/{game_id}"
    if base_url.startswith("http://"):
        return "ws://" + base_url[len("http://"):] + f"ws/{game_id}"
    return base_url + f"ws/{game_id}"


def table_settings(given: dict[str, Any], default_variants: str = "") -> Settings:
    """A new table's settings from a create request (and its query): ``variants`` (a preset name or
    ``alias=value`` pairs, engine/variants.py) first, the server's default variants when the request
    names none (``serve --variants``), then each setting given by name (which wins)."""
    from ..engine.variants import parse_variants
    given = dict(given)
    named = given.pop("variants", None)
    if named is not None and not isinstance(named, str):
        raise ValueError(f"variants must be text such as 'recommended' or 'rewardCap=2,roundLimit=20', not {named!r}")
    chosen: dict[str, Any] = dict(parse_variants(default_variants if named is None else named))
    chosen.update(given)
    return Settings().updated(chosen)


def summary_variants(settings: dict[str, Any]) -> dict[str, Any]:
    """The play-test variants a stored game plays (by alias), with the "This table plays: ..." line."""
    from ..engine.variants import variants_json
    try:
        return variants_json(Settings.from_dict(settings))
    except ValueError:   # settings of another version of the program: say nothing rather than fail
        return {"on": {}, "text": "", "rules": []}


def scenario_info(name: Any, settings: dict[str, Any] | None = None) -> dict[str, str] | None:
    """A scenario game's scenario: name, title and goal (the board keeps them in view), the goal
    worded for the game's ``settings`` (a variant's Evil win, a round limit); None for a game of
    no scenario."""
    if not name:
        return None
    try:
        sc = load_scenario(str(name))
    except LobbyError:   # a scenario this server no longer has: its name alone
        return {"name": str(name), "title": str(name), "goal": ""}
    try:
        table = Settings.from_dict(settings) if settings is not None else None
    except ValueError:   # settings of another version of the program: the scenario's own words
        table = None
    return {"name": sc.name, "title": sc.title, "goal": sc.goal_for(table)}


def load_scenario(name: str) -> Any:
    """The named duel scenario (``christianity_game.scenarios``); a clear error for an unknown one."""
    try:
        from ..scenarios import scenario
    except ImportError:   # pragma: no cover - scenarios are part of the package
        raise LobbyError(400, "unknown_scenario", "duel scenarios are not available") from None
    try:
        return scenario(name)
    except ValueError as exc:
        raise LobbyError(400, "unknown_scenario", str(exc)) from None
