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
 * A request in a script that costs more tokens a character (Chinese, Japanese, Korean) gets
 * its limits scaled down in proportion (`answerScale`), so that they hold in tokens too.
 */
import { ENGLISH_CHARACTERS_PER_TOKEN, estimatedTextTokens } from '../../domain/text-tokens';
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

/**
 * A copy of `schema` with the limits above on every property they name, at any depth,
 * each text's scaled by `scale` (`answerScale`, at least one character).
 */
export function withLengthBounds(schema: JsonSchema, scale = 1): JsonSchema {
  return bounded(schema, scale, undefined);
}

/**
 * How much of each text limit a request's answer gets: 1 for English; for a request
 * written in a script that costs more tokens a character, its characters' tokens in
 * English over its estimated tokens (src/domain/text-tokens.ts: a CJK character up to 3
 * tokens, 12 times an English one, so about 1/12). An answer is written in the language
 * of the notes or the draft, so that the longest answer the grammar then allows costs the
 * tokens of the longest English one, and fits the route's bound (output-bound-fit.ts)
 * in any script.
 */
export function answerScale(requestText: string): number {
  const tokens = estimatedTextTokens(requestText);
  return tokens === 0 ? 1 : Math.min(1, Math.ceil(requestText.length / ENGLISH_CHARACTERS_PER_TOKEN) / tokens);
}

function bounded(schema: JsonSchema, scale: number, name: string | undefined): JsonSchema {
  const copy: JsonSchema = { ...schema };
  const properties = schema['properties'] as Record<string, JsonSchema> | undefined;
  if (properties) {
    copy['properties'] = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, bounded(value, scale, key)]));
  }
  const anyOf = schema['anyOf'] as JsonSchema[] | undefined;
  if (anyOf) copy['anyOf'] = anyOf.map((branch) => bounded(branch, scale, name));
  const items = schema['items'] as JsonSchema | undefined;
  if (items) copy['items'] = bounded(items, scale, name);
  const types = [schema['type']].flat();
  const textLimit = name === undefined ? undefined : TEXT_LIMITS[name];
  const listLimit = name === undefined ? undefined : LIST_LIMITS[name];
  if (types.includes('string') && textLimit !== undefined && schema['enum'] === undefined) copy['maxLength'] = Math.max(1, Math.floor(textLimit * scale));
  if (types.includes('array') && listLimit !== undefined) copy['maxItems'] = listLimit;
  return copy;
}
