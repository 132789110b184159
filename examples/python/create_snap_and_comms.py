"""A Python client of the API, generated from openapi/openapi.yaml by openapi-python-client.

Creates a snap, then communication advice for it, and prints both as JSON.

    scripts/contract/generate-python-sdk.sh        # writes dist/sdk/python/profile_prediction_client
    PYTHONPATH=dist/sdk/python PPS_BASE_URL=http://127.0.0.1:3000 PPS_API_KEY=pps_live_... \\
        .venv/bin/python examples/python/create_snap_and_comms.py

`make contract` runs it against the live service (test/contract/python-sdk.test.ts).
"""

from __future__ import annotations

import json
import os
import sys
import uuid

from profile_prediction_client import AuthenticatedClient
from profile_prediction_client.api.snaps import create_comms_analysis, create_snap
from profile_prediction_client.models import Channel, CommsEnvelope, CommsRequest, SnapEnvelope, SnapRequest


def create_snap_and_comms(base_url: str, api_key: str) -> dict[str, object]:
    # The API key goes in the `x-api-key` header, with no prefix.
    client = AuthenticatedClient(base_url=base_url, token=api_key, prefix="", auth_header_name="x-api-key")
    with client:
        snap = create_snap.sync_detailed(
            client=client,
            # Safe to retry: a retry with the same key returns the first result and charges nothing.
            idempotency_key=str(uuid.uuid4()),
            body=SnapRequest(
                name="Ada Lovelace",
                notes="Checks every figure twice, keeps meticulous notes and asks for the data before any decision.",
                age_range="35-44",
                job_type="Financial auditor",
            ),
        )
        if not isinstance(snap.parsed, SnapEnvelope):
            raise RuntimeError(f"POST /api/v1/snap answered {snap.status_code}: {snap.content.decode(errors='replace')}")
        snap_id = snap.parsed.data.snap_id

        comms = create_comms_analysis.sync_detailed(
            client=client,
            idempotency_key=str(uuid.uuid4()),
            body=CommsRequest(
                snap_id=snap_id,
                channel=Channel.EMAIL,
                goal="Agree on the audit schedule for next quarter",
                draft="Hi Ada, I think maybe we could possibly look at the schedule sometime? Let me know.",
            ),
        )
        if not isinstance(comms.parsed, CommsEnvelope):
            raise RuntimeError(
                f"POST /api/v1/snap/comms answered {comms.status_code}: {comms.content.decode(errors='replace')}"
            )
        return {
            "snapId": snap_id,
            "snap": snap.parsed.data.snap_response.to_dict(),
            "commsId": comms.parsed.data.comms_id,
            "comms": comms.parsed.data.comms_response.to_dict(),
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
