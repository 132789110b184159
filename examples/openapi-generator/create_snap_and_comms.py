"""A Python client of the API, generated from openapi/openapi.yaml by openapi-generator (7.x).

Creates a snap, then communication advice for it, reads both responses into the generated
models and prints them as JSON.

    scripts/contract/generate-openapi-generator-clients.sh   # writes dist/sdk/openapi-generator/python
    PYTHONPATH=dist/sdk/openapi-generator/python PPS_BASE_URL=http://127.0.0.1:3000 PPS_API_KEY=pps_live_... \\
        .venv/bin/python examples/openapi-generator/create_snap_and_comms.py

`make contract` runs it against the live service (test/contract/openapi-generator-clients.test.ts).
"""

from __future__ import annotations

import json
import os
import sys
import uuid

from pps_openapi_client import ApiClient, Configuration, SnapsApi
from pps_openapi_client.models import Channel, CommsRequest, SnapRequest


def create_snap_and_comms(base_url: str, api_key: str) -> dict[str, object]:
    # The API key goes in the `x-api-key` header (the spec's ApiKeyAuth scheme).
    configuration = Configuration(host=base_url, api_key={"ApiKeyAuth": api_key})
    with ApiClient(configuration) as client:
        snaps = SnapsApi(client)
        # Safe to retry: a retry with the same key returns the first result and charges nothing.
        snap = snaps.create_snap(
            SnapRequest(
                name="Ada Lovelace",
                notes="Checks every figure twice, keeps meticulous notes and asks for the data before any decision.",
                age_range="35-44",
                job_type="Financial auditor",
            ),
            idempotency_key=str(uuid.uuid4()),
        )
        comms = snaps.create_comms_analysis(
            CommsRequest(
                snap_id=snap.data.snap_id,
                channel=Channel.EMAIL,
                goal="Agree on the audit schedule for next quarter",
                draft="Hi Ada, I think maybe we could possibly look at the schedule sometime? Let me know.",
            ),
            idempotency_key=str(uuid.uuid4()),
        )
        return {
            "snapId": snap.data.snap_id,
            "snap": snap.data.snap_response.to_dict(),
            "commsId": comms.data.comms_id,
            "comms": comms.data.comms_response.to_dict(),
        }


def main() -> int:
    api_key = os.environ.get("PPS_API_KEY")
    if not api_key:
        print("set PPS_API_KEY to an API key (make run prints a demo key)", file=sys.stderr)
        return 2
    base_url = os.environ.get("PPS_BASE_URL", "http://127.0.0.1:3000")
    print(json.dumps(create_snap_and_comms(base_url, api_key), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
