/**
 * Lenient readers for values in the model's JSON: anything missing or of the wrong
 * type reads as null (or as an empty list), never as an error.
 */
export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-blank string, or null. */
export function readString(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** The non-blank strings of a list; anything else in it is dropped; not a list: []. */
export function readStringList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is string => readString(item) !== null);
}
