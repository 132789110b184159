/**
 * Whether a value matches one of the strict-mode schemas this service sends: the subset
 * of JSON Schema they use (object with properties, required and additionalProperties
 * false; array with items; string, integer and null types; enum; anyOf). An answer that
 * does not match came from a server that ignored the schema; it is still mapped
 * leniently, and counted.
 */
import { isJsonObject } from './read-json-values';
import type { JsonSchema } from './json-schema-parts';

export function matchesSchema(value: unknown, schema: JsonSchema): boolean {
  const anyOf = schema['anyOf'];
  if (Array.isArray(anyOf)) return anyOf.some((option) => isJsonObject(option) && matchesSchema(value, option));
  const allowed = schema['enum'];
  if (Array.isArray(allowed) && !allowed.includes(value)) return false;
  const type = schema['type'];
  const types: unknown[] = Array.isArray(type) ? type : [type];
  return types.some((t) => matchesType(value, t, schema));
}

function matchesType(value: unknown, type: unknown, schema: JsonSchema): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'array': {
      const items = schema['items'];
      return Array.isArray(value) && value.every((item) => !isJsonObject(items) || matchesSchema(item, items));
    }
    case 'object':
      return isJsonObject(value) && matchesObject(value, schema);
    default:
      return false;
  }
}

function matchesObject(value: Record<string, unknown>, schema: JsonSchema): boolean {
  const properties = isJsonObject(schema['properties']) ? schema['properties'] : {};
  const required = Array.isArray(schema['required']) ? schema['required'] : [];
  if (!required.every((name) => typeof name === 'string' && name in value)) return false;
  return Object.entries(value).every(([name, item]) => {
    const property = properties[name];
    return isJsonObject(property) ? matchesSchema(item, property) : schema['additionalProperties'] !== false;
  });
}
