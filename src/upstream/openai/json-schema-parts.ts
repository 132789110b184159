/** Small builders for the strict-mode JSON Schemas sent as `response_format`. */
export type JsonSchema = { [key: string]: unknown };

/** A string or null. */
export function nullableString(description: string): JsonSchema {
  return { type: ['string', 'null'], description };
}

/**
 * One of `values`, or null, as `anyOf` a string enum and null: the form OpenAI's
 * documentation shows, and the one gateways (LiteLLM's Anthropic and Gemini
 * translations) carry over; `type: [string, null]` with null inside `enum` is not.
 */
export function nullableEnum(values: readonly string[], description: string): JsonSchema {
  return { anyOf: [{ type: 'string', enum: [...values] }, { type: 'null' }], description };
}

export function stringList(description: string): JsonSchema {
  return { type: 'array', items: { type: 'string' }, description };
}

/** Strict mode: every property required, no others allowed. */
export function strictObject(properties: Record<string, JsonSchema>): JsonSchema {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}
