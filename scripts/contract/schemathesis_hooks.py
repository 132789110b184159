"""Schemathesis hooks for `make contract` (loaded by schemathesis.toml).

Two hooks. The spec's links write their request body in the extension `x-request-body`
(an object of runtime expressions; openapi-generator's parser refuses an object in the
link's `requestBody`, openapi/openapi.yaml says why): before the schema is loaded, each
becomes the link's `requestBody`, which Schemathesis follows as written. And a valid
`Idempotency-Key` is made specific to the request it comes with.

Schemathesis fills the optional `Idempotency-Key` header from the spec's example, or with
short generated values, and so sends the same key with many different bodies. The service
rightly refuses every one of those but the first with 422 (a key stands for one request
only), so most valid cases never reached the handler, the database or the predictor: the
coverage phase's boundary values above all. Here the key becomes `<key>.<hash of the
operation and body>`: the same key with the same body stays the same key (a replay, which
the service must answer with the first result), and another body gets another key.
An invalid key (a negative test of the header) is sent unchanged. The 422 itself is
tested in test/integration/idempotency.test.ts.

Schemathesis takes a value that changed after generation for one taken from an OpenAPI
link, and its ensure_resource_availability check would then blame the 404 of a generated
(not linked) snapId on the link. So the derived key is recorded as the generated value it
stands for. That uses Schemathesis internals (`Case._components`), which is why the
version is pinned; if they change, this hook fails loudly rather than silently.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import schemathesis
from schemathesis.core.parameters import ParameterLocation

HEADER = "Idempotency-Key"
# openapi.yaml: components.parameters.IdempotencyKey
VALID_KEY = re.compile(r"^[\x21-\x7E]{1,255}$")


@schemathesis.hook
def before_load_schema(context: schemathesis.HookContext, raw_schema: dict[str, Any]) -> None:
    links = _links(raw_schema)
    linked = 0
    for link in links:
        if "x-request-body" in link:
            link["requestBody"] = link["x-request-body"]
            linked += 1
    # A spec without links (openapi/admin.yaml) has no stateful phase to lose; a spec with
    # links none of which carries its body would run that phase on bodiless requests.
    if links and linked == 0:
        raise RuntimeError("no link of the spec has x-request-body: the stateful phase would follow none")


def _links(raw_schema: dict[str, Any]) -> list[dict[str, Any]]:
    responses = list(raw_schema.get("components", {}).get("responses", {}).values())
    for item in raw_schema.get("paths", {}).values():
        for operation in item.values():
            if isinstance(operation, dict):
                responses.extend(operation.get("responses", {}).values())
    return [link for response in responses if isinstance(response, dict) for link in response.get("links", {}).values()]


@schemathesis.hook
def before_call(context: schemathesis.HookContext, case: schemathesis.Case, kwargs: dict[str, Any]) -> None:
    headers = case.headers
    if not headers:
        return
    key = headers.get(HEADER)
    if not isinstance(key, str) or not VALID_KEY.match(key):
        return
    request = json.dumps([case.operation.label, case.body], sort_keys=True, default=repr)
    digest = hashlib.sha256(request.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    derived = f"{key[:200]}.{digest}"
    headers[HEADER] = derived
    _record_as_generated(case, key, derived)


def _record_as_generated(case: schemathesis.Case, key: str, derived: str) -> None:
    stored = case._components[ParameterLocation.HEADER]  # noqa: SLF001 (see the module docstring)
    if stored.is_generated and isinstance(stored.value, dict) and stored.value.get(HEADER) == key:
        stored.value[HEADER] = derived
