#!/usr/bin/env bash
# Creates .venv (when missing or out of date) with the pinned Python tools of the
# contract tests: Schemathesis (fuzzes the live server against openapi/openapi.yaml)
# and openapi-python-client (generates the Python SDK). Prints nothing when up to date.
#   scripts/ensure-python-tools.sh      # then .venv/bin/schemathesis, .venv/bin/openapi-python-client
# Without Python here, Docker is the alternative for Schemathesis: see the README.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.venv"
requirements="$root/scripts/contract/requirements.txt"
stamp="$venv/.requirements.txt"

if [ -x "$venv/bin/python" ] && cmp -s "$requirements" "$stamp"; then
  exit 0
fi

python="${PYTHON:-python3}"
command -v "$python" >/dev/null 2>&1 || { echo "ensure-python-tools: $python not found (set PYTHON)" >&2; exit 1; }
echo "creating $venv with $(grep -v '^#' "$requirements" | tr '\n' ' ')"
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-input -r "$requirements"
cp "$requirements" "$stamp"
