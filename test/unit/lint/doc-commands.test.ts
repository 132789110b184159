/**
 * The marks on the shell blocks of docs/deploy.md and docs/operations.md
 * (scripts/lint/doc-commands.mjs, `make lint`): every block says which script of make test
 * runs it, or why it cannot run here, and that script extracts it from the doc by name
 * (scripts/deploy/install-chart.sh, scripts/deploy/operations-commands.sh run them).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '../../..');
const script = join(root, 'scripts/lint/doc-commands.mjs');

function check(...files: string[]) {
  return spawnSync(process.execPath, [script, '--check', ...files], { cwd: root, encoding: 'utf8' });
}

describe('the documented commands', () => {
  test('when docs/deploy.md and docs/operations.md are read, then every shell block is marked and each runner names its block', () => {
    const result = check();
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  test('when a shell block has no mark, or its runner does not extract it, then the check fails naming it', () => {
    const doc = join(mkdtempSync(join(tmpdir(), 'doc-commands-')), 'doc.md');
    writeFileSync(
      doc,
      [
        '```sh',
        'helm install pps deploy/helm/profile-prediction-service',
        '```',
        '<!-- commands: probes, run by scripts/deploy/install-chart.sh -->',
        '```sh',
        'curl -s http://127.0.0.1:3001/readyz',
        '```',
        '',
      ].join('\n'),
    );
    const result = check(doc);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(':1: a shell block without a "<!-- commands: NAME, run by PATH -->"');
    expect(result.stderr).toContain(':5: scripts/deploy/install-chart.sh does not name');
  });

  test('when a block is asked for by name, then its commands are printed as written', () => {
    const result = spawnSync(process.execPath, [script, 'docs/operations.md', 'probes'], { cwd: root, encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('curl -s http://127.0.0.1:3001/readyz\n');
  });
});
