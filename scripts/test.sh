#!/usr/bin/env bash
# The whole test suite: installs the test and lab extras (scripts/setup.sh dev) and the browser, then runs pytest on both cores.
# pytest's exit code 5 ("no tests collected") is turned into a failure, never a silent pass.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh dev || exit 1
scripts/install-browser.sh || exit 1
# The whole run is bounded too (it takes 7-10 minutes; CI allows 90 for set-up and tests): a hang
# outside any one test ends with a line that says so rather than at CI's limit.
timeout --kill-after=60 3600 .venv/bin/python -m pytest -n 2 "$@"
rc=$?
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
  echo "pytest ran past its hour and was stopped: failing" >&2
  exit 1
fi
if [ "$rc" -eq 5 ]; then
  echo "pytest collected no tests: failing" >&2
  exit 1
fi
exit "$rc"
