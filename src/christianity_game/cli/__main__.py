"""``python -m christianity_game.cli``: the same command line as ``christianity-game``."""

from . import main

if __name__ == "__main__":  # pragma: no cover
    main()
