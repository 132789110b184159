/**
 * Every environment variable the configuration reads has its row in the configuration
 * table of docs/operations.md, so a new setting cannot ship undocumented.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');
const CONFIG_DIR = join(ROOT, 'src/config');

/** Names of the form 'UPPER_CASE' quoted in src/config/: the variables it reads (or refuses). */
function variablesRead(): string[] {
  const names = new Set<string>();
  for (const file of readdirSync(CONFIG_DIR).filter((name) => name.endsWith('.ts'))) {
    for (const match of readFileSync(join(CONFIG_DIR, file), 'utf8').matchAll(/'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{4,})'/g)) names.add(match[1]!);
  }
  return [...names].sort();
}

/** Names in the first column of docs/operations.md's table rows, e.g. | `PORT` | or | `A`, `B` |. */
function variablesDocumented(): Set<string> {
  const operations = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');
  const names = new Set<string>();
  for (const line of operations.split('\n')) {
    const firstCell = /^\|([^|]*)\|/.exec(line)?.[1] ?? '';
    for (const match of firstCell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(match[1]!);
  }
  return names;
}

describe('docs/operations.md, Configuration', () => {
  test('when src/config/ reads a variable, then the configuration table has a row for it', () => {
    const read = variablesRead();
    expect(read.length).toBeGreaterThan(30);
    const documented = variablesDocumented();
    expect(read.filter((name) => !documented.has(name))).toEqual([]);
  });
});
