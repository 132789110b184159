#!/usr/bin/env bash
# Runs a command with DATABASE_URL and REDIS_URL set. When either is not given, starts
# a throwaway PostgreSQL and Redis for the command and stops them afterwards.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
if [ -n "${DATABASE_URL:-}" ] && [ -n "${REDIS_URL:-}" ]; then
  exec "$@"
fi
trap '"$root/scripts/test-services.sh" stop' EXIT
"$root/scripts/test-services.sh" start
set -a
# shellcheck disable=SC1091
. "$root/.services/env"
set +a
"$@"
