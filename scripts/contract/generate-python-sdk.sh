#!/usr/bin/env bash
# Generates the Python SDK from openapi/openapi.yaml with openapi-python-client (pinned in
# scripts/contract/requirements.txt, installed into .venv) into dist/sdk/python/, fresh
# every time: nothing generated is committed. Then, for example:
#   PYTHONPATH=dist/sdk/python PPS_BASE_URL=http://127.0.0.1:3000 PPS_API_KEY=pps_live_… \
#     .venv/bin/python examples/python/create_snap_and_comms.py
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
scripts/ensure-python-tools.sh
out="dist/sdk/python/profile_prediction_client"
rm -rf "$out"
mkdir -p "$(dirname "$out")"
.venv/bin/openapi-python-client generate --path openapi/openapi.yaml \
  --config examples/python/openapi-python-client.yaml --meta none --output-path "$out" --fail-on-warning
