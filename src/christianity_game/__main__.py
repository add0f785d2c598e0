"""``python -m christianity_game``: the same command line as ``christianity-game``."""

from .cli import main

if __name__ == "__main__":
    main()
