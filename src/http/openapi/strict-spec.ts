/**
 * The strict copy of a spec: the published spec with every object that is open to additive
 * change (`additionalProperties: true`, the response objects) closed. The published spec
 * promises clients that fields may be added; the strict copy says what this service sends
 * today, exactly. Requests are closed in both (`make lint` checks: scripts/lint/check-compatibility.mjs).
 *
 * Used by the response validator (spec-validator.ts: a field the spec does not name fails
 * the tests) and, written to dist/openapi/openapi.strict.json by the build
 * (src/cli/build-spec-json.ts), by Schemathesis in `make contract`. Never hand-maintained.
 */
export function strictSpec<T>(document: T): T {
  return closeOpenObjects(structuredClone(document));
}

function closeOpenObjects<T>(node: T): T {
  if (Array.isArray(node)) {
    for (const item of node) closeOpenObjects(item);
  } else if (typeof node === 'object' && node !== null) {
    const record = node as Record<string, unknown>;
    for (const [key, value] of Object.entries(record)) {
      if (key === 'additionalProperties' && value === true) record[key] = false;
      else closeOpenObjects(value);
    }
  }
  return node;
}
