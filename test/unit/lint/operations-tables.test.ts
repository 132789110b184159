/**
 * docs/operations.md keeps up with the code: every environment variable src/config/ reads
 * has a row in its configuration table, and every metric src/metrics/ registers a row in
 * its metrics table, so a new setting or metric cannot ship undocumented.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');

/** First capture of `pattern` across the .ts files of a folder of src/. */
function namesInCode(folder: string, pattern: RegExp): string[] {
  const dir = join(ROOT, 'src', folder);
  const names = new Set<string>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts'))) {
    for (const match of readFileSync(join(dir, file), 'utf8').matchAll(pattern)) names.add(match[1]!);
  }
  return [...names].sort();
}

/** Names written as code in the first column of docs/operations.md's table rows, e.g. | `PORT` | or | `A`, `B` |. */
function namesInTables(): Set<string> {
  const names = new Set<string>();
  for (const line of readFileSync(join(ROOT, 'docs/operations.md'), 'utf8').split('\n')) {
    const firstCell = /^\|([^|]*)\|/.exec(line)?.[1] ?? '';
    for (const match of firstCell.matchAll(/`([A-Za-z][A-Za-z0-9_]*)`/g)) names.add(match[1]!);
  }
  return names;
}

describe('docs/operations.md', () => {
  const documented = namesInTables();

  test.each([
    // Names quoted as 'UPPER_CASE' in src/config/: the variables it reads (or refuses).
    ['src/config/ reads an environment variable', 'config', /'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{4,})'/g],
    ['src/metrics/ registers a metric', 'metrics', /\bname: '([a-z][a-z0-9_]*)'/g],
  ])('when %s, then a table has a row for it', (_what, folder, pattern) => {
    const inCode = namesInCode(folder, pattern);
    expect(inCode.length).toBeGreaterThan(10);
    expect(inCode.filter((name) => !documented.has(name))).toEqual([]);
  });
});
