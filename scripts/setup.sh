#!/usr/bin/env bash
# Creates (or refreshes) the project's virtual environment in .venv. Idempotent: it installs only
# when pyproject.toml changed since the last install of that level (a stamp file per level).
#   scripts/setup.sh        what the web app needs (pip install -e .[native]): used by scripts/run.sh
#   scripts/setup.sh dev    that plus the test and lab extras (.[dev,native]): used by scripts/test.sh
# Then it builds the native engine (the engine's hot modules compiled with mypyc) when the engine's
# sources changed since the last build; if that fails the Python engine is used (same rules, slower).
# CHRISTIANITY_GAME_ENGINE=python skips the build.
set -euo pipefail
cd "$(dirname "$0")/.."
level=${1:-runtime}
case "$level" in
  runtime) spec=".[native]" ;;
  dev) spec=".[dev,native]" ;;
  *) echo "usage: scripts/setup.sh [runtime|dev]" >&2; exit 2 ;;
esac
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
hash=$(sha1sum pyproject.toml | cut -c1-12)
stamp=.venv/.installed-$level-$hash
# a dev install holds everything a runtime install does
if [ "$level" = runtime ] && [ -f ".venv/.installed-dev-$hash" ]; then
  stamp=.venv/.installed-dev-$hash
fi
if [ ! -f "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e "$spec"
  rm -f .venv/.installed-"$level"-* && touch "$stamp"
fi
if [ "${CHRISTIANITY_GAME_ENGINE:-}" != python ]; then
  .venv/bin/christianity-game native build || echo "setup: the native engine was not built; the Python engine is used" >&2
fi
