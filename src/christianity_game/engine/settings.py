"""Game settings (docs/rules.md, M-2): the same names in the API, the CLI and the web app."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from .variants import VARIANTS


@dataclass(frozen=True, slots=True)
class Settings:
    """Table settings. URL-style aliases: ``evilInterrupt``, ``matAbilities``, ``soloFee``.

    * ``evil_interrupt`` (D-INT-6): duel Evil may play at instant speed.
    * ``mat_abilities`` (A-5): the Maturity Abilities system on or off.
    * ``solo_fee`` (P-7): the solo Target-Change fee, 1 to 3.
    * ``humility_rollover`` (S-7): reaching Humility 10 gains a level.
    * ``max_rounds`` (CO-1): the co-op round limit.
    * ``opening_hand`` (DECISION, docs/decisions.md): cards in each seat's hand at the start.
    * ``max_turns``: a safety cap for duels, which have no round limit (0: none). A game that
      reaches it ends on the stalemate score (D-SCORE); simulations set it, people need not.

    The rest are the duel's play-test variants (``variants.py`` declares them: alias, sentence,
    allowed values, the rule each departs from). Each defaults to the printed rules; they take
    effect only in a duel, and a game of another mode refuses one that is turned on.
    """

    evil_interrupt: bool = True
    mat_abilities: bool = True
    solo_fee: int = 1
    humility_rollover: bool = True
    max_rounds: int = 10
    opening_hand: int = 5
    max_turns: int = 0
    reward_cap: int = 0
    four_plays_once: bool = False
    same_turn_bonus: bool = True
    finale_reward: bool = True
    threat_limit: int = 0
    round_threats: int = 0
    outnumbered: int = 1
    alternate_turns: bool = False
    evil_habituals: int = 7
    evil_hold: int = 1
    humility_win: int = 0
    round_limit: int = 0

    ALIASES = {"evilInterrupt": "evil_interrupt", "matAbilities": "mat_abilities", "soloFee": "solo_fee",
               "humilityRollover": "humility_rollover", "maxRounds": "max_rounds", "openingHand": "opening_hand",
               "maxTurns": "max_turns", **{v.alias: v.key for v in VARIANTS}}

    def __post_init__(self) -> None:
        if self.solo_fee not in (1, 2, 3):
            raise ValueError(f"solo_fee must be 1, 2 or 3, not {self.solo_fee!r}")
        if not 1 <= self.max_rounds <= 100:
            raise ValueError(f"max_rounds must be between 1 and 100, not {self.max_rounds!r}")
        if not 0 <= self.max_turns <= 100000:
            raise ValueError(f"max_turns must be between 0 (no cap) and 100000, not {self.max_turns!r}")
        if not 0 <= self.opening_hand <= 10:
            raise ValueError(f"opening_hand must be between 0 and 10, not {self.opening_hand!r}")
        for name in ("evil_interrupt", "mat_abilities", "humility_rollover"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false, not {getattr(self, name)!r}")
        for v in VARIANTS:
            v.check(getattr(self, v.key))

    @property
    def variants(self) -> dict[str, int | bool]:
        """The play-test variants this table turns on (Settings key -> value); empty: printed rules."""
        return {v.key: getattr(self, v.key) for v in VARIANTS if getattr(self, v.key) != v.printed}

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Settings":
        return cls().updated(data)

    def updated(self, data: dict[str, Any]) -> "Settings":
        """A copy with settings given by name or URL alias; values may be strings ("0", "true")."""
        if not isinstance(data, dict):
            raise ValueError(f"settings must be a table of name = value, not {data!r}")
        known = {f.name: f for f in fields(self)}
        changes: dict[str, Any] = {}
        for key, raw in data.items():
            name = self.ALIASES.get(key, key)
            if name not in known:
                raise ValueError(f"unknown setting {key!r} (known: {', '.join(sorted(known))})")
            changes[name] = _coerce(name, raw, getattr(self, name))
        return replace(self, **changes)


def _coerce(name: str, raw: Any, current: Any) -> Any:
    if isinstance(current, bool):
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in ("1", "true", "on", "yes"):
            return True
        if text in ("0", "false", "off", "no"):
            return False
        raise ValueError(f"setting {name} must be 0/1 or true/false, not {raw!r}")
    if isinstance(raw, bool):
        raise ValueError(f"setting {name} must be a whole number, not {raw!r}")
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise ValueError(f"setting {name} must be a whole number, not {raw!r}") from None
