"""The balance lab's grid: one mode, line-ups, setting axes and bot line-ups, every combination a
cell (:class:`CellSpec`), each checked before anything is played (:func:`build_grid`; a clear
:class:`LabError` otherwise)."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from ..cards.loader import starter_set
from ..cards.params import card_param, is_card_param_name, with_card_changes
from ..engine.settings import Settings
from .simulate import game_seed

#: Duel cells get this turn cap unless the grid sets maxTurns (a duel has no round limit).
DUEL_TURN_CAP = 200


class LabError(ValueError):
    """A grid that cannot run (unknown setting, bad value, mode, line-up or bot, no games)."""


@dataclass(frozen=True)
class CellSpec:
    """One variant: everything needed to play (and replay) its games."""

    mode: str
    lineup: str
    bots: tuple[str, ...]          # one level for every seat, or one a seat
    settings: dict[str, Any]       # the full Settings (field names)
    grid: dict[str, str]           # what the grid set, as given (for labels)
    seed: int
    label: str
    cards: dict[str, int] = field(default_factory=dict)   # card changes (cards/params.py): name -> value

    def to_json(self) -> dict[str, Any]:
        spec = {"mode": self.mode, "lineup": self.lineup, "bots": list(self.bots), "settings": self.settings,
                "seed": self.seed}
        if self.cards:   # only then: a cell without card changes keeps the key it always had
            spec["cards"] = dict(self.cards)
        return spec

    @property
    def bots_arg(self) -> str | list[str]:
        return self.bots[0] if len(self.bots) == 1 else list(self.bots)

    def key(self, code: str) -> str:
        return json.dumps({**self.to_json(), "code": code}, sort_keys=True)


@dataclass
class Grid:
    """The validated grid of a run: its cells in order, and notes for the report."""

    cells: list[CellSpec]
    games: int
    seed: int
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.cells) * self.games


def _split(text: str) -> list[str]:
    return [p.strip() for p in text.split(",") if p.strip()]


def parse_axes(pairs: Iterable[str] | None) -> dict[str, list[str]]:
    """``["evilInterrupt=0,1", "soloFee=1,2"]`` -> ``{"evilInterrupt": ["0", "1"], ...}``."""
    axes: dict[str, list[str]] = {}
    seen: dict[str, str] = {}
    for item in pairs or []:
        key, sep, values = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise LabError(f"--set takes key=value or key=v1,v2,... (for example evilInterrupt=0,1), not {item!r}")
        name = Settings.ALIASES.get(key, key)
        if name in seen:
            raise LabError(f"setting {key!r} is given twice (as {seen[name]!r} too): give its values once, "
                           "separated by commas")
        seen[name] = key
        vals = _split(values)
        if not vals:
            raise LabError(f"--set {key}= needs at least one value")
        if len(set(vals)) != len(vals):
            raise LabError(f"--set {key}: a value is listed twice in {values!r}")
        axes[key] = vals
    return axes


def build_grid(mode: str = "duel", lineups: Sequence[str] | str = ("ER",), axes: dict[str, list[str]] | None = None,
               bots: Sequence[str] | str = ("heuristic",), games: int = 100, seed: int = 0) -> Grid:
    """Check every part of the grid and return its cells; a clear :class:`LabError` otherwise.

    ``lineups``: line-ups (a list, or one comma-separated text). ``axes``: setting name (or URL
    alias) -> values. ``bots``: bot line-ups, each one level for every seat or a comma-separated
    level a seat. Nothing is played here, but every cell's first game is dealt to check it."""
    from ..bots.registry import make_bot
    from ..engine.game import Game
    from ..engine.modes import mode_by_name

    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise LabError(f"games must be at least 1 a cell, not {games!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise LabError(f"seed must be a whole number 0 or more, not {seed!r}")
    try:
        mode_by_name(mode)
    except ValueError as exc:
        raise LabError(str(exc)) from None
    if isinstance(lineups, str):
        lineups = _split(lineups)
    lineups = [lu.strip().upper() for lu in lineups if lu.strip()]
    if not lineups:
        raise LabError("give at least one line-up, e.g. --lineup ER,EER")
    if len(set(lineups)) != len(lineups):
        raise LabError(f"a line-up is listed twice: {','.join(lineups)}")
    if isinstance(bots, str):
        bots = [bots]
    bot_lineups: list[tuple[str, ...]] = []
    for b in bots:
        levels = tuple(_split(b))
        if not levels:
            raise LabError("--bots needs a bot level, e.g. heuristic or random")
        for level in levels:
            try:
                make_bot(level.partition("=")[2] if "=" in level else level, 0)
            except ValueError as exc:
                raise LabError(str(exc)) from None
        if any("=" in level for level in levels):
            _bots_by_side(levels)   # checked here, resolved per line-up below
        bot_lineups.append(levels)
    if len(set(bot_lineups)) != len(bot_lineups):
        raise LabError("a bot line-up is listed twice")
    axes = dict(axes or {})
    # each value on its own first, so the message names the one that is wrong; an axis named like
    # cost.<card> / copies.<card> / resistance.<card> changes the duel Evil deck's card data
    card_axes: dict[str, list[int]] = {}
    for key, values in axes.items():
        if is_card_param_name(key):
            if mode != "duel":
                raise LabError(f"--set {key}: card parameters are the duel Evil deck's; this is a {mode} grid")
            try:
                param = card_param(key)
                card_axes[key] = [param.parse(v) for v in values]
            except ValueError as exc:
                raise LabError(f"bad card parameter {key}: {exc}") from None
            continue
        for v in values:
            try:
                Settings().updated({key: v})
            except ValueError as exc:
                raise LabError(f"bad setting {key}={v}: {exc}") from None
    notes: list[str] = []
    names = {Settings.ALIASES.get(k, k) for k in axes}
    capped = mode == "duel" and "max_turns" not in names
    if capped:
        notes.append(f"The printed duel has no round limit (a cell that plays the roundLimit variant ends at "
                     f"its own first): every cell ran with a turn cap of {DUEL_TURN_CAP} "
                     f"(maxTurns={DUEL_TURN_CAP}, the lab's default, since the grid did not set maxTurns). "
                     "A game that reaches it is decided by the stalemate score (D-SCORE), ties to Evil.")
    cells: list[CellSpec] = []
    keys = list(axes)
    for lineup in lineups:
        try:
            mode_by_name(mode).check_lineup(lineup)
        except ValueError as exc:
            raise LabError(f"line-up {lineup}: {exc}") from None
        for combo in itertools.product(*(axes[k] for k in keys)):
            chosen = dict(zip(keys, combo))
            changes = {k: card_axes[k][axes[k].index(v)] for k, v in chosen.items() if k in card_axes}
            try:
                settings = Settings().updated({k: v for k, v in chosen.items() if k not in card_axes})
                if capped:
                    settings = settings.updated({"max_turns": DUEL_TURN_CAP})
            except ValueError as exc:
                raise LabError(f"bad settings {chosen}: {exc}") from None
            for given in bot_lineups:
                levels = _seat_levels(given, lineup)
                if len(levels) not in (1, len(lineup)):
                    raise LabError(f"bots {','.join(levels)}: give one level for every seat or one a seat "
                                   f"({len(lineup)} for line-up {lineup})")
                try:
                    Game.new(mode=mode, lineup=lineup, seed=game_seed(seed, 0), settings=settings,
                             card_set=with_card_changes(starter_set(), changes) if changes else None)
                except ValueError as exc:
                    raise LabError(f"{mode} {lineup}: {exc}") from None
                label = " · ".join([lineup, *(f"{k}={v}" for k, v in chosen.items()), ",".join(levels)])
                cells.append(CellSpec(mode, lineup, levels, settings.to_dict(), chosen, seed, label, changes))
    return Grid(cells, games, seed, notes)


def _bots_by_side(levels: Sequence[str]) -> dict[str, str]:
    """``("evil=search:4it", "righteous=heuristic")`` -> {side: level}: a bot pairing by side, so one
    pairing fits every line-up of a grid (ER, EER and ERR alike). Each side is named once."""
    sides: dict[str, str] = {}
    for item in levels:
        side, sep, level = item.partition("=")
        side = side.strip().lower()
        if not sep or side not in ("evil", "righteous") or not level.strip():
            raise LabError(f"bots {','.join(levels)}: a pairing by side names each side once, "
                           "e.g. evil=search:4it,righteous=heuristic (not a level a seat as well)")
        if side in sides:
            raise LabError(f"bots {','.join(levels)}: the {side} side is named twice")
        sides[side] = level.strip()
    return sides


def _seat_levels(given: tuple[str, ...], lineup: str) -> tuple[str, ...]:
    """The bot levels of one cell: ``given`` as it is, or a pairing by side resolved seat by seat
    for ``lineup`` (a side the pairing does not name plays the heuristic)."""
    if not any("=" in level for level in given):
        return given
    sides = _bots_by_side(given)
    return tuple(sides.get("evil" if letter == "E" else "righteous", "heuristic") for letter in lineup)
