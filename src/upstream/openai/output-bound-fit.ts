/**
 * The start-up check that each route's output-token bound fits the answers its schema
 * allows (docs/upstream.md, "Pointing at an LLM"). The measure is the longest answer the
 * length-bounded schema allows (src/upstream/openai/schema-length-bounds.ts: every text at
 * its `maxLength`, every list at its `maxItems`, written as compact JSON): with
 * OPENAI_SCHEMA_LENGTH_BOUNDS=true the grammar allows nothing longer; without it, those
 * limits are about what the prompt asks for (a good answer is shorter).
 *
 * - Too small: below that answer at 4 characters a token (English; a tokenizer that splits
 *   finer needs more), the longest valid answer is cut at `length`, the contract's 500.
 * - Absurdly large: above that answer at 3 tokens a character (the worst tokenization of a
 *   CJK character), no answer the schema allows can use the bound; only a looping model
 *   spends it, and the time budget, lease and shutdown wait grow with it. A reasoning model
 *   (OPENAI_REASONING_EFFORT set) spends hidden tokens against the bound: up to
 *   REASONING_MAX_OUTPUT_TOKENS then.
 */
import { ConfigError } from '../../config/config-error';
import type { OutputBounds } from '../../config/output-bounds';
import { COMMS_SCHEMA } from './comms-schema';
import { ENGLISH_CHARACTERS_PER_TOKEN } from '../../domain/text-tokens';
import type { JsonSchema } from './json-schema-parts';
import { withLengthBounds } from './schema-length-bounds';
import { SNAP_SCHEMA } from './snap-schema';

/** The worst tokenization of one character seen in common tokenizers (a rare CJK character). */
export const MAX_TOKENS_PER_CHARACTER = 3;
/** The largest output bound OpenAI's models accept (GPT-5 family: 128,000). */
export const REASONING_MAX_OUTPUT_TOKENS = 128_000;
/** Characters of an integer the schemas ask for (fit_score, 0 to 100). */
const INTEGER_CHARACTERS = 3;

const SCHEMAS: { readonly [operation in keyof OutputBounds]: JsonSchema } = { predictSnap: SNAP_SCHEMA, analyseComms: COMMS_SCHEMA };
const VARIABLES: { readonly [operation in keyof OutputBounds]: string } = { predictSnap: 'OPENAI_MAX_OUTPUT_TOKENS_SNAP', analyseComms: 'OPENAI_MAX_OUTPUT_TOKENS_COMMS' };

/** Characters of the longest compact JSON value `schema` allows; Infinity for an unbounded text or list. */
export function longestJsonCharacters(schema: JsonSchema): number {
  const anyOf = schema['anyOf'] as JsonSchema[] | undefined;
  if (anyOf) return Math.max(...anyOf.map(longestJsonCharacters));
  const enumValues = schema['enum'] as unknown[] | undefined;
  if (enumValues) return Math.max(...enumValues.map((value) => JSON.stringify(value).length));
  return Math.max(...[schema['type']].flat().map((type) => longestOfType(schema, type as string)));
}

function longestOfType(schema: JsonSchema, type: string): number {
  switch (type) {
    case 'null':
      return 'null'.length;
    case 'integer':
      return INTEGER_CHARACTERS;
    case 'string':
      return typeof schema['maxLength'] === 'number' ? schema['maxLength'] + 2 : Infinity;
    case 'array': {
      const items = schema['maxItems'];
      if (typeof items !== 'number') return Infinity;
      return 2 + items * longestJsonCharacters(schema['items'] as JsonSchema) + Math.max(0, items - 1);
    }
    case 'object': {
      const properties = Object.entries(schema['properties'] as Record<string, JsonSchema>);
      const members = properties.reduce((total, [key, value]) => total + JSON.stringify(key).length + 1 + longestJsonCharacters(value), 0);
      return 2 + members + Math.max(0, properties.length - 1);
    }
    default:
      return Infinity;
  }
}

/** The output bounds a route accepts (inclusive). */
export function outputBoundRange(operation: keyof OutputBounds, reasoning: boolean): { min: number; max: number } {
  const characters = longestJsonCharacters(withLengthBounds(SCHEMAS[operation]));
  return {
    min: Math.ceil(characters / ENGLISH_CHARACTERS_PER_TOKEN),
    max: reasoning ? REASONING_MAX_OUTPUT_TOKENS : characters * MAX_TOKENS_PER_CHARACTER,
  };
}

/** Throws a ConfigError naming the route's variable when a bound is outside its range. */
export function assertOutputBoundsFit(bounds: OutputBounds, reasoning: boolean): void {
  for (const operation of Object.keys(SCHEMAS) as (keyof OutputBounds)[]) {
    const { min, max } = outputBoundRange(operation, reasoning);
    const bound = bounds[operation];
    const name = `${VARIABLES[operation]} (or OPENAI_MAX_OUTPUT_TOKENS)`;
    if (bound < min) {
      throw new ConfigError(name, `must be at least ${min} (got ${bound}): the longest answer the schema allows is about ${min} tokens at ${ENGLISH_CHARACTERS_PER_TOKEN} characters a token, and a cut answer is the contract's 500`);
    }
    if (bound > max) {
      const why = reasoning ? 'the largest output bound any OpenAI model accepts' : `the longest answer the schema allows at ${MAX_TOKENS_PER_CHARACTER} tokens a character; only a looping model could spend more (a reasoning model: set OPENAI_REASONING_EFFORT)`;
      throw new ConfigError(name, `must be at most ${max} (got ${bound}): ${why}`);
    }
  }
}
