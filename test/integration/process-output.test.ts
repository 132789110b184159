/**
 * Everything the service's process writes is its JSON log (support/process-warnings.ts):
 * Node's own warnings included, which Node would otherwise print as text on stderr (an
 * upstream configured loads undici's experimental decompress interceptor, which warns).
 * `make integration` builds first.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FAKE_UPSTREAM_SPEED, startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { spawnServer } from '../support/spawned-server';

jest.setTimeout(120_000);

const DIST = join(__dirname, '../../dist/src/support');

let fake: FakeOpenAi;

beforeAll(async () => {
  fake = await startFakeOpenAi();
});

afterAll(async () => {
  await fake.close();
});

function parsedLines(output: string): unknown[] {
  return output
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        return { notJson: line };
      }
    });
}

test('when a process warning is emitted, then it is one JSON line of the log at warn, and Node prints nothing of its own', async () => {
  const script = `
    const { createLogger } = require(${JSON.stringify(join(DIST, 'logger.js'))});
    const { logProcessWarnings } = require(${JSON.stringify(join(DIST, 'process-warnings.js'))});
    logProcessWarnings(createLogger('warn'));
    process.emitWarning('Something is experimental', 'ExperimentalWarning');
    process.emitWarning('Something is old', { type: 'DeprecationWarning', code: 'DEP9999' });
  `;
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['-e', script]);
  expect(stderr).toBe('');
  expect(parsedLines(stdout)).toEqual([
    expect.objectContaining({ level: 40, msg: 'process warning', warning: { name: 'ExperimentalWarning', message: 'Something is experimental' } }),
    expect.objectContaining({ level: 40, msg: 'process warning', warning: { name: 'DeprecationWarning', code: 'DEP9999', message: 'Something is old' } }),
  ]);
});

test('when the service starts with an upstream and stops, then every line it wrote is a JSON log line, its warnings included', async () => {
  const server = await spawnServer({
    LOG_LEVEL: 'warn',
    RATE_LIMIT_REDIS_PREFIX: `test:${randomUUID()}:`,
    OPENAI_API_KEY: 'sk-test-0123456789',
    OPENAI_BASE_URL: fake.baseURL,
    ...FAKE_UPSTREAM_SPEED,
  });
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
  const lines = parsedLines(server.output());
  expect(lines.filter((line) => typeof line === 'object' && line !== null && 'notJson' in line)).toEqual([]);
  expect(lines).toContainEqual(expect.objectContaining({ msg: 'process warning', warning: expect.objectContaining({ name: 'ExperimentalWarning' }) }));
});
