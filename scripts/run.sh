#!/usr/bin/env bash
# The main job: installs only what the web app needs (scripts/setup.sh; the test and lab extras
# are scripts/test.sh's), then runs the web app (the game server with its browser
# client) on http://127.0.0.1:8000, games stored in SQLite under ./data, bots in the seats the
# lobby gives them. Any arguments go to `christianity-game serve` (e.g. --port 8080 --data DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/christianity-game serve "$@"
