#!/usr/bin/env bash
# The main job: installs only what the web app needs (scripts/setup.sh; the test and lab extras
# are scripts/test.sh's), then runs the web app (the game server with its browser
# client) on http://127.0.0.1:8000, games stored in SQLite under ./data, bots in the seats the
# lobby gives them. Any arguments go to `christianity-game serve` (e.g. --port 8080 --data DIR).
#
# The first page does not wait for the native engine (minutes of C compiling on a fresh clone):
# when the build there is cannot be used, the server starts at once on the Python engine (same
# rules, slower) while `christianity-game native build` runs in the background, in a session of
# its own (it outlives this server; its output is added to .venv/native-build.log). A running server
# keeps the engine it started with; the next start uses the native one. Builds take turns on a
# lock and swap in whole, so two starts at once, or a start while a server runs, never break a
# build (two servers on one data folder: the second one refuses to start, the server's own lock).
# CHRISTIANITY_GAME_ENGINE=python: no build, the Python engine.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh runtime --no-build
if [ "${CHRISTIANITY_GAME_ENGINE:-}" != python ] && ! .venv/bin/christianity-game native check >/dev/null; then
  log=.venv/native-build.log   # appended to: two starts at once both write to it
  echo "--- $(date '+%Y-%m-%d %H:%M:%S') christianity-game native build (started by scripts/run.sh)" >>"$log"
  if command -v setsid >/dev/null 2>&1; then
    setsid .venv/bin/christianity-game native build </dev/null >>"$log" 2>&1 &
  else
    nohup .venv/bin/christianity-game native build </dev/null >>"$log" 2>&1 &
  fi
  echo "run.sh: serving on the Python engine; the native engine is building in the background" \
       "(log: $log); the next start uses it" >&2
fi
exec .venv/bin/christianity-game serve "$@"
