/**
 * OPENAI_SCHEMA_LENGTH_BOUNDS=true (docs/local-llm.md): the response schemas with a
 * `maxLength` on every text and a `maxItems` on every list, for servers whose grammar
 * enforces them (llama.cpp; vLLM with a structured-output backend), so that a small
 * model looping inside a text is stopped by the grammar long before the token bound.
 * Off by default: OpenAI's strict mode refuses these keywords.
 *
 * The limits are tighter than the spec's (openapi/openapi.yaml allows 10,000 characters
 * per text): about what a good answer needs, so that the longest answer the grammar
 * allows fits the route's default token bound (a snap: 1,200 characters of text, about
 * 350 tokens with the JSON around them, of 1,000; a comms analysis with a draft: about
 * 11,000 characters, 3,000 tokens, of 4,000). Only the rewrite is as long as a draft may be.
 */
import type { JsonSchema } from './json-schema-parts';

/** Characters of a text, or of each item of a list, by property name. */
export const TEXT_LIMITS: Readonly<Record<string, number>> = {
  reasoning: 500,
  summary: 400,
  secondary_profile_summary: 300,
  do: 150,
  dont: 150,
  phrases_to_use: 150,
  phrases_to_avoid: 150,
  excerpt: 300,
  suggestion: 300,
  rewrite: 5_000,
};

/** Items of a list, by property name. */
export const LIST_LIMITS: Readonly<Record<string, number>> = {
  do: 5,
  dont: 5,
  phrases_to_use: 5,
  phrases_to_avoid: 5,
  issues: 5,
};

/** A copy of `schema` with the limits above on every property they name, at any depth. */
export function withLengthBounds(schema: JsonSchema, name?: string): JsonSchema {
  const bounded: JsonSchema = { ...schema };
  const properties = schema['properties'] as Record<string, JsonSchema> | undefined;
  if (properties) {
    bounded['properties'] = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, withLengthBounds(value, key)]));
  }
  const anyOf = schema['anyOf'] as JsonSchema[] | undefined;
  if (anyOf) bounded['anyOf'] = anyOf.map((branch) => withLengthBounds(branch, name));
  const items = schema['items'] as JsonSchema | undefined;
  if (items) bounded['items'] = withLengthBounds(items, name);
  const types = [schema['type']].flat();
  const textLimit = name === undefined ? undefined : TEXT_LIMITS[name];
  const listLimit = name === undefined ? undefined : LIST_LIMITS[name];
  if (types.includes('string') && textLimit !== undefined && schema['enum'] === undefined) bounded['maxLength'] = textLimit;
  if (types.includes('array') && listLimit !== undefined) bounded['maxItems'] = listLimit;
  return bounded;
}
