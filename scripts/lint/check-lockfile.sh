#!/usr/bin/env bash
# `make lint`: package-lock.json must be in step with package.json, or `npm ci` (CI's
# install, and the Makefile's) refuses it on a fresh clone. `npm ci --dry-run` checks
# exactly that and installs nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! output="$(npm ci --dry-run --ignore-scripts --no-audit --no-fund --loglevel=error 2>&1)"; then
  echo "$output" | grep -v 'Unknown user config' >&2
  echo "check-lockfile: package-lock.json is out of step with package.json: run npm install (npm $(npm --version)) and commit the lock file" >&2
  exit 1
fi
