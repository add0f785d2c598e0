#!/usr/bin/env bash
# Debian's PostgreSQL for the server tests on PostgreSQL (tests/pg_fixture.py starts a throwaway
# cluster from its initdb and postgres). Idempotent: does nothing when initdb and postgres are on
# PATH or in /usr/lib/postgresql/*/bin (where Debian puts them).
set -euo pipefail
found() {
  if command -v initdb >/dev/null 2>&1 && command -v postgres >/dev/null 2>&1; then
    return 0
  fi
  for d in /usr/lib/postgresql/*/bin; do
    if [ -x "$d/initdb" ] && [ -x "$d/postgres" ]; then
      return 0
    fi
  done
  return 1
}
if found; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-postgres: PostgreSQL is missing and this is not root: run 'sudo apt-get install -y postgresql'" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq postgresql >/dev/null
found
