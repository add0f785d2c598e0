"""The command line: one Typer app (``christianity-game``, or ``python -m christianity_game``).

Commands: ``play`` (hot-seat and bots in the terminal), ``simulate`` (batches of bot games),
``cards`` (list the card set, check a user's deck file), ``replay`` (show a saved game),
``lab`` (grids of bot games), ``tune`` (search the play-test variants), ``ladder`` (rate bot levels),
``bench`` (engine speed) and ``native`` (build the compiled engine). Seats are numbered from 1 on the command line and on screen.

Each group of commands is a module of this package: ``play.py`` (``scenarios``, ``variants``,
``play``), ``simulate.py`` (``simulate``, ``ladder``), ``lab.py`` (``lab``, ``tune``), ``records.py``
(``cards``, ``replay``) and ``system.py`` (``bench``, ``native``, ``serve``); ``options.py`` holds what
they share. This module makes the app, adds the commands in the order ``--help`` lists them, and
runs it (:func:`main`).

Bad flags and values end with exit code 2 and one line on stderr (never a traceback).
"""

from __future__ import annotations

import sys
from typing import Any, Callable

import typer

from . import lab, play, records, simulate, system
from .options import PROG

app = typer.Typer(
    name=PROG,
    help="The Christianity Strategy Card Game: play in the terminal, simulate with bots, check card files.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

#: The commands, by name, in the order ``christianity-game --help`` lists them.
COMMANDS: tuple[tuple[str, Callable[..., Any]], ...] = (
    ("scenarios", play.scenarios),
    ("variants", play.list_variants),
    ("play", play.play),
    ("simulate", simulate.simulate),
    ("lab", lab.lab),
    ("tune", lab.tune),
    ("cards", records.cards),
    ("replay", records.replay),
    ("bench", system.bench),
    ("native", system.native),
    ("serve", system.serve),
    ("ladder", simulate.ladder),
)
for _name, _command in COMMANDS:
    app.command(_name)(_command)


def main(argv: list[str] | None = None) -> None:
    """The console script: usage errors become one line on stderr and exit code 2."""
    from typer.main import get_command

    command = get_command(app)
    try:
        rv = command.main(args=argv, prog_name=PROG, standalone_mode=False)
    except typer.Abort:
        typer.echo("Aborted.", err=True)
        sys.exit(1)
    except Exception as exc:  # noqa: BLE001 - click's usage errors: one line, no traceback
        from typer import _click
        if isinstance(exc, _click.exceptions.ClickException):
            hint = ""
            ctx = getattr(exc, "ctx", None)
            if ctx is not None:
                hint = f" (see {ctx.command_path} --help)"
            typer.echo(f"Error: {exc.format_message()}{hint}", err=True)
            sys.exit(exc.exit_code)
        raise
    sys.exit(rv if isinstance(rv, int) else 0)
