#!/usr/bin/env bash
# The main job: sets everything up, then plays a game (default: co-op in the terminal).
# Any arguments go to `christianity-game play`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/christianity-game play "$@"
