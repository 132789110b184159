/**
 * The docs' link check of `make lint` (scripts/lint/check-doc-links.mjs), run with the unit
 * tests too, so a change that moves or deletes a file the docs name fails where it is made.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

describe('README.md and docs/', () => {
  test('when the docs are read, then every relative link and every repository path written as code resolves', () => {
    const root = join(__dirname, '../../..');
    const result = spawnSync(process.execPath, [join(root, 'scripts/lint/check-doc-links.mjs')], { cwd: root, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
