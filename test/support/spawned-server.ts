/**
 * The built service (`node dist/src/app/main.js`) as a child process, for tests that send it
 * signals. `make integration` builds first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { freePort } from './free-port';
import { TEST_ADMIN_TOKEN, requireEnv } from './test-server';

const MAIN = join(__dirname, '../../dist/src/app/main.js');

export interface SpawnedServer {
  child: ChildProcess;
  url: string;
  adminUrl: string;
  output(): string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
}

export async function spawnServer(env: Record<string, string> = {}): Promise<SpawnedServer> {
  const [port, adminPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      ADMIN_PORT: String(adminPort),
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      DATABASE_URL: requireEnv('DATABASE_URL'),
      REDIS_URL: requireEnv('REDIS_URL'),
      RATE_LIMIT_MAX: '1000000',
      ACCOUNT_RATE_LIMIT_MAX: '1000000',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit').then(([code, signal]) => (code ?? signal) as number | string);
  const url = `http://127.0.0.1:${port}`;
  // Generous: a cold PGlite start on a busy 2-core machine can take well over 10 s.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited during startup:\n${output}`);
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    const up = await fetch(`${url}/`).then(
      () => true,
      () => false,
    );
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, url, adminUrl: `http://127.0.0.1:${adminPort}`, output: () => output, exited };
}
