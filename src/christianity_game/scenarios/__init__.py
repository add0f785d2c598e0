"""Duel scenarios: named presets (a line-up, settings and, where useful, a prepared position).

Each scenario is a TOML file in this folder. A scenario with a ``[position]`` starts from it
(``Game.from_position``, the same mechanism the scenario tests use); one without starts a fresh
game of its line-up. ``christianity-game play --scenario NAME`` and the web menu choose them.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from ..engine.game import Game
from ..engine.settings import Settings


class ScenarioError(ValueError):
    """An unknown scenario name or a broken scenario file."""


@dataclass(frozen=True)
class Scenario:
    """A named preset: mode, line-up, settings and an optional starting position."""

    name: str
    title: str
    description: str
    mode: str
    lineup: str
    settings: dict[str, Any] = field(default_factory=dict)
    position: dict[str, Any] | None = None
    #: What each side plays for, in a line (the board keeps it in view); the description if none.
    goal: str = ""

    def __repr__(self) -> str:
        return f"<Scenario {self.name} {self.mode} {self.lineup}>"

    def new_game(self, seed: int = 0, settings: Settings | None = None) -> Game:
        """A game of this scenario; ``settings`` (if given) are updated with the scenario's own."""
        merged = (settings or Settings()).updated(self.settings)
        if self.position is None:
            return Game.new(mode=self.mode, lineup=self.lineup, seed=seed, settings=merged)
        return Game.from_position(self.position, mode=self.mode, lineup=self.lineup, seed=seed, settings=merged)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "description": self.description, "mode": self.mode,
                "lineup": self.lineup, "settings": dict(self.settings), "prepared": self.position is not None,
                "goal": self.goal or self.description}


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
    return Scenario(name=name, title=head["title"], description=head["description"], mode=head["mode"],
                    lineup=head["lineup"], settings=dict(doc.get("settings", {})), position=doc.get("position"),
                    goal=head.get("goal", ""))


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
