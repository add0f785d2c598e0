#!/usr/bin/env bash
# The whole test suite: installs the test and lab extras (scripts/setup.sh dev) and the browser, then runs pytest on both cores.
# pytest's exit code 5 ("no tests collected") is turned into a failure, never a silent pass.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh dev || exit 1
scripts/install-browser.sh || exit 1
.venv/bin/python -m pytest -n 2 "$@"
rc=$?
if [ "$rc" -eq 5 ]; then
  echo "pytest collected no tests: failing" >&2
  exit 1
fi
exit "$rc"
