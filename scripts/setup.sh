#!/usr/bin/env bash
# Creates (or refreshes) the project's virtual environment in .venv. Idempotent: it installs only
# when pyproject.toml changed since the last install of that level (a stamp file per level).
#   scripts/setup.sh        what the web app needs (pip install -e .[native])
#   scripts/setup.sh dev    that plus the test and lab extras (.[dev,native]): used by scripts/test.sh;
#                           it also installs Debian's postgresql when missing (scripts/install-postgres.sh:
#                           the server tests on PostgreSQL; needs root; on CI its failure fails the set-up)
# Then it builds the native engine (the engine's hot modules compiled with mypyc) when the engine's
# sources changed since the last build; if that fails the Python engine is used (same rules, slower).
# --no-build skips that build: scripts/run.sh (setup.sh runtime --no-build) serves at once and builds
# in the background instead. CHRISTIANITY_GAME_ENGINE=python skips the build too.
# Two set-ups at once (two starts) take turns on a lock (.venv/.setup.lock, where flock exists).
set -euo pipefail
cd "$(dirname "$0")/.."
level=runtime
build=yes
for arg in "$@"; do
  case "$arg" in
    runtime|dev) level=$arg ;;
    --no-build) build=no ;;
    *) echo "usage: scripts/setup.sh [runtime|dev] [--no-build]" >&2; exit 2 ;;
  esac
done
case "$level" in
  runtime) spec=".[native]" ;;
  dev) spec=".[dev,native]" ;;
esac
mkdir -p .venv
if command -v flock >/dev/null 2>&1; then
  exec 9>.venv/.setup.lock
  flock 9
fi
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
if [ "$level" = dev ]; then
  if ! scripts/install-postgres.sh; then
    case "$(printf '%s' "${CI:-}" | tr '[:upper:]' '[:lower:]')" in
      ""|0|false|no) echo "setup: PostgreSQL is not installed; the tests on PostgreSQL will be skipped" >&2 ;;
      *) echo "setup: PostgreSQL could not be installed, and CI runs the tests on PostgreSQL" >&2; exit 1 ;;
    esac
  fi
fi
if [ "$build" = yes ] && [ "${CHRISTIANITY_GAME_ENGINE:-}" != python ]; then
  .venv/bin/christianity-game native build || echo "setup: the native engine was not built; the Python engine is used" >&2
fi
