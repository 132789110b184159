/**
 * A spec file as a parsed document, read and parsed once per process: the routes, the
 * metrics, the validator, the field types and the docs routes all read the same file.
 * The document is frozen: whoever needs to change it (the validator) gets a copy.
 *
 * Parsing the YAML is a tenth of a second of every start, so `npm run build` also
 * writes each spec as JSON (src/cli/build-spec-json.ts), stamped with the SHA-256 of
 * the YAML it came from; a start reads that instead while the stamp matches the file,
 * and parses the YAML itself when it does not (an edit since the build, or no build).
 * The YAML parser is loaded only then: a start from a current build never loads it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { loadedOnFirstUse } from '../../support/on-first-use';
import { PROJECT_ROOT } from '../../support/project-root';

export type SpecDocument = Readonly<Record<string, unknown>>;

/** What the build writes beside dist/: the document, and the YAML it was parsed from. */
export interface BuiltSpec {
  yamlSha256: string;
  document: Record<string, unknown>;
}

const parsed = new Map<string, SpecDocument>();

export function readSpec(specPath: string): SpecDocument {
  const known = parsed.get(specPath);
  if (known) return known;
  const document = deepFreeze(loadSpecDocument(specPath, builtSpecPath(specPath)));
  parsed.set(specPath, document);
  return document;
}

/** Where the build writes the JSON of a spec. */
export function builtSpecPath(specPath: string): string {
  return join(PROJECT_ROOT, 'dist', 'openapi', `${basename(specPath, '.yaml')}.json`);
}

export function buildSpec(specPath: string): BuiltSpec {
  const yaml = readFileSync(specPath, 'utf8');
  return { yamlSha256: sha256(yaml), document: parseYaml(yaml) };
}

/** The built JSON at `builtPath` when it was made from the YAML at `specPath` as it is now; that YAML parsed otherwise. */
export function loadSpecDocument(specPath: string, builtPath: string): Record<string, unknown> {
  const yaml = readFileSync(specPath, 'utf8');
  const built = readBuilt(builtPath);
  if (built?.yamlSha256 === sha256(yaml)) return built.document;
  return parseYaml(yaml);
}

const yaml = loadedOnFirstUse<typeof import('yaml')>('yaml');

function parseYaml(text: string): Record<string, unknown> {
  return yaml().parse(text) as Record<string, unknown>;
}

function readBuilt(path: string): BuiltSpec | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as BuiltSpec;
  } catch {
    return undefined; // a damaged file: the YAML is the truth
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
