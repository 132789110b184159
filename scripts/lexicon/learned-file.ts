/**
 * Writes a learned file of src/upstream/embedded/ (`make snap-word-weights`, `make
 * snap-no-evidence`): what it was learned from first, then its per-stem table under
 * `key`, one stem a line, so that a change of the development half reads as a diff of the
 * stems it moved.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function writeLearnedFile(name: string, about: object, key: string, table: Record<string, unknown>): string {
  const outFile = join(__dirname, '../../../src/upstream/embedded', name);
  const lines = Object.entries(table).map(([wordStem, value]) => `    ${JSON.stringify(wordStem)}: ${JSON.stringify(value)}`);
  writeFileSync(outFile, `${JSON.stringify(about, null, 2).replace(/\n\}$/u, ',')}\n  ${JSON.stringify(key)}: {\n${lines.join(',\n')}\n  }\n}\n`);
  return outFile;
}
