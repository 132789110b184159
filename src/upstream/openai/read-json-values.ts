/**
 * Lenient readers for values in the model's JSON: anything missing or of the wrong
 * type reads as null (or as an empty list), never as an error.
 */
export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** With the `u` flag a surrogate pair is one code point: this matches unpaired surrogates only. */
const UNPAIRED_SURROGATE = /[\uD800-\uDFFF]/gu;

/**
 * A non-blank string, or null. NUL characters are dropped and unpaired surrogates
 * replaced: PostgreSQL cannot store either, and the model's text must never fail a call.
 */
export function readString(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const storable = value.replaceAll('\u0000', '').replace(UNPAIRED_SURROGATE, '\uFFFD');
  return storable.trim() !== '' ? storable : null;
}

/** The non-blank strings of a list; anything else in it is dropped; not a list: []. */
export function readStringList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map(readString).filter((item): item is string => item !== null);
}
