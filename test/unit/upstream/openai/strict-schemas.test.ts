/**
 * Both response formats against OpenAI's documented strict-mode rules (Structured
 * Outputs, "Supported schemas") and Azure OpenAI's stricter limits, so that a change to
 * a schema cannot make a strict server refuse every call.
 */
import { COMMS_SCHEMA } from '../../../../src/upstream/openai/comms-schema';
import type { JsonSchema } from '../../../../src/upstream/openai/json-schema-parts';
import { SNAP_SCHEMA } from '../../../../src/upstream/openai/snap-schema';

const KNOWN_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'anyOf', 'description']);
/** Keywords Azure's structured outputs do not support. */
const AZURE_UNSUPPORTED = ['minLength', 'maxLength', 'pattern', 'format', 'minimum', 'maximum', 'multipleOf', 'minItems', 'maxItems', 'uniqueItems', 'patternProperties', 'minProperties', 'maxProperties'];

interface Walk {
  properties: number;
  /** Deepest object nesting (the root object is level 1). */
  depth: number;
  enumValues: number;
  enumChars: number;
  keywords: Set<string>;
  problems: string[];
}

function walk(schema: JsonSchema, path: string, depth: number, found: Walk): void {
  for (const keyword of Object.keys(schema)) found.keywords.add(keyword);
  if (Array.isArray(schema['enum'])) {
    found.enumValues += schema['enum'].length;
    found.enumChars += schema['enum'].reduce((n: number, value: unknown) => n + String(value).length, 0);
    if (schema['enum'].includes(null)) found.problems.push(`${path}: null inside enum (use anyOf with {type: 'null'})`);
  }
  for (const option of (schema['anyOf'] as JsonSchema[] | undefined) ?? []) walk(option, `${path}.anyOf`, depth, found);
  if (schema['items']) walk(schema['items'] as JsonSchema, `${path}[]`, depth, found);
  if (schema['type'] !== 'object') return;
  const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
  const names = Object.keys(properties);
  found.depth = Math.max(found.depth, depth);
  found.properties += names.length;
  if (schema['additionalProperties'] !== false) found.problems.push(`${path}: additionalProperties is not false`);
  const required = (schema['required'] ?? []) as string[];
  if (required.length !== names.length || !names.every((name) => required.includes(name))) found.problems.push(`${path}: not every property is required`);
  for (const name of names) walk(properties[name] ?? {}, `${path}.${name}`, depth + 1, found);
}

function walked(schema: JsonSchema): Walk {
  const found: Walk = { properties: 0, depth: 0, enumValues: 0, enumChars: 0, keywords: new Set(), problems: [] };
  walk(schema, '$', 1, found);
  return found;
}

describe.each([
  ['snap_prediction', SNAP_SCHEMA],
  ['comms_analysis', COMMS_SCHEMA],
])('the %s schema', (_name, schema) => {
  const found = walked(schema);

  test('when checked against OpenAI strict mode, then the root is an object, every object is closed and requires every property', () => {
    expect(schema['type']).toBe('object');
    expect(schema['anyOf']).toBeUndefined();
    expect(found.problems).toEqual([]);
  });

  test("when checked against OpenAI's limits, then it stays within 5000 properties, 10 levels, 1000 enum values and 15,000 enum characters", () => {
    expect(found.properties).toBeLessThanOrEqual(5000);
    expect(found.depth).toBeLessThanOrEqual(10);
    expect(found.enumValues).toBeLessThanOrEqual(1000);
    expect(found.enumChars).toBeLessThanOrEqual(15000);
  });

  test("when checked against Azure's stricter limits, then it stays within 100 properties, 5 levels and no unsupported keyword", () => {
    expect(found.properties).toBeLessThanOrEqual(100);
    expect(found.depth).toBeLessThanOrEqual(5);
    expect(AZURE_UNSUPPORTED.filter((keyword) => found.keywords.has(keyword))).toEqual([]);
    expect([...found.keywords].filter((keyword) => !KNOWN_KEYWORDS.has(keyword))).toEqual([]);
  });
});

describe('the snap_prediction schema', () => {
  test('when its keys are listed, then reasoning comes first, before the verdict', () => {
    expect(Object.keys(SNAP_SCHEMA['properties'] as object)[0]).toBe('reasoning');
  });

  test('when the secondary enums are read, then neither allows Visionary nor VI', () => {
    const properties = SNAP_SCHEMA['properties'] as Record<string, { anyOf: Array<{ enum?: string[] }> }>;
    expect(properties['secondary_profile']?.anyOf[0]?.enum).not.toContain('Visionary');
    expect(properties['secondary_code']?.anyOf[0]?.enum).not.toContain('VI');
    expect(properties['primary_code']?.anyOf[0]?.enum).toContain('VI');
  });
});
