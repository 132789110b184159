/**
 * A spec file as a parsed document, read and parsed once per process: the routes, the
 * metrics, the validator, the field types and the docs routes all read the same file,
 * and parsing its YAML is a good part of the start-up time. The document is frozen:
 * whoever needs to change it (the validator) gets a copy.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export type SpecDocument = Readonly<Record<string, unknown>>;

const parsed = new Map<string, SpecDocument>();

export function readSpec(specPath: string): SpecDocument {
  const known = parsed.get(specPath);
  if (known) return known;
  const document = deepFreeze(parse(readFileSync(specPath, 'utf8')) as Record<string, unknown>);
  parsed.set(specPath, document);
  return document;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
