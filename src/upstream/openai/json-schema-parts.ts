/** Small builders for the strict-mode JSON Schemas sent as `response_format`. */
export type JsonSchema = { [key: string]: unknown };

/** A string or null. */
export function nullableString(description: string): JsonSchema {
  return { type: ['string', 'null'], description };
}

/** One of `values`, or null. */
export function nullableEnum(values: readonly string[], description: string): JsonSchema {
  return { type: ['string', 'null'], enum: [...values, null], description };
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
