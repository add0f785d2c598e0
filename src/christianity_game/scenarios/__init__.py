"""Duel scenarios: named presets (a line-up, settings and, where useful, a prepared position).

Each scenario is a TOML file in this folder. A scenario with a ``[position]`` starts from it
(``Game.from_position``, the same mechanism the scenario tests use); one without starts a fresh
game of its line-up. ``christianity-game play --scenario NAME`` and the web menu choose them.

A scenario's goal and description follow the table it is played at: they name the Evil win by
``{evil_win}`` and ``{evil_count}`` (worded by :func:`~christianity_game.render.table_words.evil_win`
for the table's settings, the play-test variants included), never by the printed "7 Habituals";
:meth:`Scenario.goal_for` and :meth:`Scenario.description_for` word them for a table, and
:attr:`Scenario.goal` and :attr:`Scenario.description` for the scenario's own settings.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from ..engine.game import Game
from ..engine.settings import Settings
from ..engine.variants import BY_KEY
from ..render.table_words import evil_win_words


class ScenarioError(ValueError):
    """An unknown scenario name or a broken scenario file."""


@dataclass(frozen=True)
class Scenario:
    """A named preset: mode, line-up, settings and an optional starting position.

    ``description_text`` and ``goal_text`` are the file's words, which may name the Evil win by
    ``{evil_win}`` and ``{evil_count}`` (see the module's docstring)."""

    name: str
    title: str
    description_text: str
    mode: str
    lineup: str
    settings: dict[str, Any] = field(default_factory=dict)
    position: dict[str, Any] | None = None
    #: What each side plays for, in a line (the board keeps it in view); the description if none.
    goal_text: str = ""

    def __repr__(self) -> str:
        return f"<Scenario {self.name} {self.mode} {self.lineup}>"

    def table_settings(self, settings: Settings | None = None) -> Settings:
        """The settings a game of this scenario plays: ``settings`` (if given) updated with the scenario's own."""
        return (settings or Settings()).updated(self.settings)

    def new_game(self, seed: int = 0, settings: Settings | None = None) -> Game:
        """A game of this scenario; ``settings`` (if given) are updated with the scenario's own."""
        merged = self.table_settings(settings)
        if self.position is None:
            return Game.new(mode=self.mode, lineup=self.lineup, seed=seed, settings=merged)
        return Game.from_position(self.position, mode=self.mode, lineup=self.lineup, seed=seed, settings=merged)

    def _worded(self, text: str, settings: Settings | None) -> str:
        return text.format_map(evil_win_words(self.table_settings(settings), self.lineup))

    def description_for(self, settings: Settings | None = None) -> str:
        """The description at a table with ``settings`` (the Evil win it names is that table's)."""
        return self._worded(self.description_text, settings)

    def goal_for(self, settings: Settings | None = None) -> str:
        """What each side plays for at a table with ``settings`` (the description where the file
        gives no goal): the Evil win as that table plays it (the evilHabituals, evilHold and
        humilityWin variants), and the round limit where the table has one."""
        text = self._worded(self.goal_text or self.description_text, settings)
        limit = self.table_settings(settings).round_limit
        if limit:
            sentence = BY_KEY["round_limit"].sentence(limit)
            text = f"{text} {sentence[:1].upper()}{sentence[1:]}."
        return text

    @property
    def description(self) -> str:
        """The description at the scenario's own settings."""
        return self.description_for()

    @property
    def goal(self) -> str:
        """The goal at the scenario's own settings; "" for a scenario whose file gives none."""
        return self.goal_for() if self.goal_text else ""

    def to_json(self, settings: Settings | None = None) -> dict[str, Any]:
        """The scenario for the lobby and the board: its description and goal at a table with
        ``settings`` (the scenario's own when none is given)."""
        return {"name": self.name, "title": self.title, "description": self.description_for(settings),
                "mode": self.mode, "lineup": self.lineup, "settings": dict(self.settings),
                "prepared": self.position is not None, "goal": self.goal_for(settings)}


def _parse(name: str, text: str) -> Scenario:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"scenario {name}: not valid TOML: {exc}") from None
    head = doc.get("scenario")
    if not isinstance(head, dict):
        raise ScenarioError(f"scenario {name}: needs a [scenario] table")
    unknown = set(doc) - {"scenario", "settings", "position"}
    if unknown:
        raise ScenarioError(f"scenario {name}: unknown tables {', '.join(sorted(unknown))}")
    for key in ("title", "description", "mode", "lineup"):
        if not isinstance(head.get(key), str):
            raise ScenarioError(f"scenario {name}: [scenario] needs {key} (text)")
    if not isinstance(head.get("goal", ""), str):
        raise ScenarioError(f"scenario {name}: [scenario] goal must be text")
    sc = Scenario(name=name, title=head["title"], description_text=head["description"], mode=head["mode"],
                  lineup=head["lineup"], settings=dict(doc.get("settings", {})), position=doc.get("position"),
                  goal_text=head.get("goal", ""))
    try:
        words = evil_win_words(sc.table_settings(), sc.lineup)
    except ValueError as exc:
        raise ScenarioError(f"scenario {name}: bad [settings]: {exc}") from None
    for key, text in (("description", sc.description_text), ("goal", sc.goal_text)):
        try:
            text.format_map(words)
        except (KeyError, IndexError, ValueError) as exc:
            raise ScenarioError(f"scenario {name}: [scenario] {key} names {exc}, which is not a word of the table "
                                f"(it may name {', '.join('{' + w + '}' for w in words)}; a brace is written twice)") \
                from None
    return sc


@lru_cache(maxsize=1)
def all_scenarios() -> dict[str, Scenario]:
    """Every bundled scenario by name, in file order."""
    folder = resources.files(__name__)
    out: dict[str, Scenario] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            stem = entry.name[:-5]
            name = stem.split("-", 1)[1] if stem[:2].isdigit() and "-" in stem else stem   # "01-" orders the menu
            out[name] = _parse(name, entry.read_text(encoding="utf-8"))
    return out


def scenario(name: str) -> Scenario:
    """The scenario of that name; a clear error listing the known ones."""
    found = all_scenarios().get(name)
    if found is None:
        raise ScenarioError(f"unknown scenario {name!r}; known: {', '.join(all_scenarios())}")
    return found
