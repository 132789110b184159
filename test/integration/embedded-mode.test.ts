/**
 * The embedded defaults as `make run` uses them: the built server with no DATABASE_URL,
 * REDIS_URL or OPENAI_API_KEY (PGlite, in-process limit, embedded predictor), its
 * printed demo key and curl command, and a restart that keeps the data.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { until } from '../support/until';

const MAIN = join(__dirname, '../../dist/src/app/main.js');

interface Started {
  child: ChildProcess;
  output: () => string;
  curl: string;
}

async function startEmbedded(dataDir: string): Promise<Started> {
  const env = { PATH: process.env.PATH, DATA_DIR: dataDir, DEMO_ACCOUNT: 'true', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' };
  const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Generous: a cold PGlite start on a busy machine can take well over 10 s.
  await until(
    () => {
      if (child.exitCode !== null) throw new Error(`the server exited before printing its curl line:\n${output}`);
      return /^\s+curl .*$/m.test(output);
    },
    { timeoutMs: 90_000, intervalMs: 50, what: () => `the printed curl line; output so far:\n${output}` },
  );
  const curl = (/^\s+(curl .*)$/m.exec(output)?.[1] ?? '').trim();
  return { child, output: () => output, curl };
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const [code] = await exited;
  return code as number | null;
}

describe('embedded mode', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pps-embedded-'));

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test('when started with no environment, then the printed curl command creates a snap, and a restart keeps the account', async () => {
    const first = await startEmbedded(dataDir);
    expect(first.output()).toContain('"database":"pglite');
    expect(first.output()).toContain('"rateLimitStore":"memory"');
    expect(first.output()).toContain('"predictor":"embedded"');
    const apiKey = /API key: (pps_live_\w+)/.exec(first.output())?.[1];
    expect(apiKey).toMatch(/^pps_live_[0-9a-f]{40}_[0-9a-f]{8}$/);

    const { stdout } = await promisify(execFile)('bash', ['-c', `${first.curl} -w '\\n%{http_code}'`]);
    const [body, status] = stdout.trim().split('\n');
    expect(status).toBe('201');
    expect(JSON.parse(body ?? '')).toMatchObject({ success: true, message: 'Snap generated successfully', data: { snapId: 1 } });
    expect(await stop(first.child)).toBe(0);

    const second = await startEmbedded(dataDir);
    try {
      expect(second.output()).toContain(`API key: ${apiKey}`);
      const { stdout: again } = await promisify(execFile)('bash', ['-c', second.curl]);
      expect(JSON.parse(again).data.snapId).toBe(2);
    } finally {
      expect(await stop(second.child)).toBe(0);
    }
  }, 240_000);

  test('when a variable is invalid, then startup stops with a message naming it', async () => {
    const child = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH, PORT: 'eighty' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(stderr).toContain('PORT');
  });
});
