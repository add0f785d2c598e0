"""What the commands share: the program's name, the one way a command fails on a bad flag or value
(:func:`fail`: one line on stderr, exit code 2), and the checks of the flags several commands take
(``--variants``, ``--set``, ``--scenario``, ``--mode``, ``--deck``, a bot level)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer

from ..cards.loader import CardFileError, CardSet, load_files, starter_set
from ..engine.settings import Settings

if TYPE_CHECKING:
    from ..bots.base import Bot

PROG = "christianity-game"


def fail(message: str, code: int = 2) -> NoReturn:
    """One clear line on stderr and the exit code (2: bad flags, values or files)."""
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(code)


VARIANTS_HELP = ("Duel play-test variants: a preset (recommended) and/or alias=value pairs, comma-separated "
                 "(rewardCap=2,evilHabituals=5). See `christianity-game variants`. Default: the printed rules.")


def variants_or_fail(text: str | None) -> dict[str, int | bool]:
    """``--variants``: the play-test variants it names (Settings key -> value); a clear error otherwise."""
    from ..engine.variants import parse_variants
    if text is None:
        return {}
    try:
        return parse_variants(text)
    except ValueError as exc:
        fail(f"--variants: {exc}")


def settings_or_fail(pairs: list[str] | None, variants: str | None = None) -> Settings:
    """The table's settings: ``--variants`` first, then each ``--set`` (which wins where both name one)."""
    data: dict[str, Any] = dict(variants_or_fail(variants))
    for item in pairs or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            fail(f"--set takes key=value (for example matAbilities=0), not {item!r}")
        data[key.strip()] = value.strip()
    try:
        return Settings().updated(data)
    except ValueError as exc:
        fail(f"bad setting: {exc}")


def scenario_or_fail(name: str) -> Any:
    from ..scenarios import ScenarioError, scenario
    try:
        return scenario(name)
    except ScenarioError as exc:
        fail(str(exc))


#: The line-up of each mode when --lineup is left out.
DEFAULT_LINEUPS = {"coop": "RR", "solo": "R", "duel": "ER"}


def check_mode(mode: str) -> None:
    from ..engine.modes import mode_by_name
    try:
        mode_by_name(mode)
    except ValueError as exc:
        fail(str(exc))


def load_user_decks(paths: list[Path] | None) -> tuple[list[tuple[str, str]], CardSet]:
    """Check the user's deck files and return their texts (for the game record) and the card set."""
    paths = list(paths or [])
    base = starter_set()
    if not paths:
        return [], base
    try:
        card_set = load_files(paths, base=base)
    except CardFileError as exc:
        fail(str(exc))
    texts = [(str(p), Path(p).read_text(encoding="utf-8")) for p in paths]
    return texts, card_set


def bot_or_fail(name: str, seed: int, cards: CardSet | None) -> Bot:
    """The bot of level ``name`` (:func:`christianity_game.bots.make_bot`), or exit code 2 with the reason."""
    from ..bots import make_bot
    try:
        return make_bot(name, seed, cards)
    except (ValueError, KeyError) as exc:
        msg = exc.args[0] if exc.args else str(exc)
        fail(str(msg))
