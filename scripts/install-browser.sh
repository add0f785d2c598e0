#!/usr/bin/env bash
# Debian's Chromium for the browser tests (Playwright drives it through executable_path; it never
# downloads a browser of its own). Idempotent: does nothing when /usr/bin/chromium is there.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-browser: chromium is missing and this is not root: run 'sudo apt-get install -y chromium'" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
command -v chromium >/dev/null
