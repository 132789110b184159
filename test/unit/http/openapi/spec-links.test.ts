/**
 * The spec's links: each link's request body mapping (`x-request-body`, an object of runtime
 * expressions), evaluated as OpenAPI 3.1 says (a value that is one expression takes the
 * referenced value, with its type; an expression embedded in a longer string yields a
 * string), is a valid request. No link has an object in `requestBody`, which
 * openapi-generator's parser refuses (scripts/contract/generate-openapi-generator-clients.sh).
 */
import { readSpec } from '../../../../src/http/openapi/spec-document';
import { SPEC_PATHS } from '../../../../src/support/project-root';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface Link {
  operationId: string;
  requestBody?: Json;
  'x-request-body'?: Json;
}
interface Spec {
  paths: Record<string, Record<string, { operationId: string; requestBody?: { content: Record<string, { schema: { $ref: string } }> } }>>;
  components: {
    responses: Record<string, { links?: Record<string, Link>; content: Record<string, { examples: Record<string, { value: Json }> }> }>;
    schemas: Record<string, { required?: string[]; properties?: Record<string, unknown>; additionalProperties?: boolean }>;
  };
}

const spec = readSpec(SPEC_PATHS.public) as unknown as Spec;
const RESPONSE_BODY = /^\$response\.body#(\/.*)?$/;

function pointer(document: Json, path: string): Json | undefined {
  return path
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<Json | undefined>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, Json>)[key] : undefined), document);
}

/** OpenAPI 3.1, "Runtime Expressions" and the Link Object's `requestBody` (Any | {expression}). */
function evaluate(value: Json, responseBody: Json): Json | undefined {
  if (typeof value === 'string') {
    const whole = RESPONSE_BODY.exec(value);
    if (whole) return pointer(responseBody, whole[1] ?? '');
    return value.replace(/\{(\$response\.body#[^}]*)\}/g, (_m, expression: string) => JSON.stringify(pointer(responseBody, expression.slice('$response.body#'.length))));
  }
  if (Array.isArray(value)) return value.map((item) => evaluate(item, responseBody) ?? null);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, evaluate(item, responseBody) ?? null]));
  return value;
}

function requestSchemaOf(operationId: string) {
  const operation = Object.values(spec.paths).flatMap((item) => Object.values(item)).find((op) => op.operationId === operationId);
  const ref = operation?.requestBody?.content['application/json']?.schema.$ref ?? '';
  return spec.components.schemas[ref.replace('#/components/schemas/', '')];
}

const links = Object.entries(spec.components.responses).flatMap(([response, definition]) =>
  Object.entries(definition.links ?? {}).map(([name, link]) => [`${response}.${name}`, definition, link] as const),
);

describe('the spec links', () => {
  test('there is a link from a created snap to its comms analysis', () => {
    expect(links.map(([name]) => name)).toContain('SnapCreated.CreateCommsAnalysisForSnap');
  });

  test.each(links)('%s has no requestBody but a string, which every generator reads', (_name, _definition, link) => {
    expect(['undefined', 'string']).toContain(typeof link.requestBody);
  });

  test.each(links)('when %s is followed as written from each example response, then its request body is an object the target operation accepts, carrying the linked value', (_name, definition, link) => {
    const schema = requestSchemaOf(link.operationId);
    expect(schema).toBeDefined();
    for (const example of Object.values(definition.content['application/json']?.examples ?? {})) {
      const body = evaluate(link['x-request-body'] ?? null, example.value);
      expect(body !== null && typeof body === 'object' && !Array.isArray(body)).toBe(true);
      const fields = body as Record<string, Json>;
      expect(Object.keys(fields).filter((key) => !(key in (schema?.properties ?? {})))).toEqual([]);
      expect((schema?.required ?? []).filter((key) => !(key in fields))).toEqual([]);
      expect(fields.snapId).toBe(pointer(example.value, '/data/snapId'));
    }
  });
});
