/**
 * The comments' reference check of `make lint` (scripts/lint/check-comment-refs.mjs), run
 * with the unit tests too: a comment in src/ that cites a file, a section or a document
 * that is not there fails where the change is made.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '../../..');
const check = (...dirs: string[]) => spawnSync(process.execPath, [join(root, 'scripts/lint/check-comment-refs.mjs'), ...dirs], { cwd: root, encoding: 'utf8' });

describe('check-comment-refs', () => {
  test('when src/ is read, then every file, section and document its comments cite exists', () => {
    const result = check();
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  test.each([
    ['a file that is not there', '/** See docs/no-such-page.md. */', '`docs/no-such-page.md`: no such file'],
    ['a section a doc does not have', '/** See docs/operations.md, "No such heading". */', 'docs/operations.md has no section "No such heading"'],
    ['a README section that is gone', '// (README, "Overload")', 'README.md has no section "Overload"'],
    ['an anchor a doc does not have', '// docs/api.md#nowhere', 'docs/api.md has no section "nowhere"'],
    ['the design notes kept outside the repository', '/** As pinned (DESIGN.md, "Credits"). */', 'DESIGN.md is not in the repository'],
    ['a numbered section of the contract', '// contract §4.1', "the contract's numbered sections are not in the repository"],
  ])('when a comment cites %s, then the check fails and names it', (_name, comment, expected) => {
    const dir = mkdtempSync(join(tmpdir(), 'comment-refs-'));
    try {
      writeFileSync(join(dir, 'cited.ts'), `${comment}\nexport const value = \`// docs/not-a-comment.md \${1}\`;\n`);
      const result = check(dir);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(expected);
      expect(result.stderr).not.toContain('not-a-comment');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('when a comment cites files, sections and anchors that exist, then the check passes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'comment-refs-'));
    try {
      writeFileSync(join(dir, 'cited.ts'), '/** docs/operations.md, "Overload"; docs/api.md#calling-the-api; src/domain/ports.ts; openapi/openapi.yaml; express.json(). */\nexport {};\n');
      const result = check(dir);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
