/**
 * The built service (`node dist/src/app/main.js`) as a child process for `make eval`, on
 * loopback: a throwaway PGlite folder unless DATABASE_URL names a PostgreSQL, rate limits
 * (per client and per account) that never bite, the failure budget off, and whatever OPENAI_* or
 * AZURE_OPENAI_* variables the caller set (none: the embedded predictor).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../test/support/free-port';
import { logTail, startChild, waitForPort } from '../bench/child-process';
import type { EvalTarget } from './run-calls';

const ROOT = join(__dirname, '../../..');

export interface EvalService extends EvalTarget {
  /** What the service predicts with, for the report. */
  predictor: string;
  embedded: boolean;
  stop(): Promise<void>;
}

export function upstreamEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => /^(OPENAI|AZURE_OPENAI)_/u.test(entry[0]) && entry[1] !== undefined && entry[1] !== ''));
}

export function predictorOf(upstream: Record<string, string>): string {
  if (upstream.OPENAI_API_KEY) return `OpenAI-compatible server ${upstream.OPENAI_BASE_URL ?? 'api.openai.com'}, model ${upstream.OPENAI_MODEL ?? '(default)'}`;
  if (upstream.AZURE_OPENAI_ENDPOINT) return `Azure OpenAI ${upstream.AZURE_OPENAI_DEPLOYMENT ?? ''}`.trim();
  return 'the embedded predictor';
}

export async function startEvalService(outDir: string, env: NodeJS.ProcessEnv = process.env): Promise<EvalService> {
  mkdirSync(outDir, { recursive: true });
  const [port, adminPort] = [await freePort(), await freePort()];
  const adminToken = randomBytes(24).toString('hex');
  const dataDir = env.DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), 'pps-eval-'));
  const upstream = upstreamEnv(env);
  const child = startChild({
    name: 'the service',
    args: [join(ROOT, 'dist/src/app/main.js')],
    env: {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      ADMIN_HOST: '127.0.0.1',
      ADMIN_PORT: String(adminPort),
      ADMIN_TOKEN: adminToken,
      ...(dataDir ? { DATA_DIR: dataDir } : { DATABASE_URL: env.DATABASE_URL as string }),
      RATE_LIMIT_MAX: '1000000000',
      ACCOUNT_RATE_LIMIT_MAX: '1000000000',
      FAILURE_BUDGET_CALLS: '0',
      LOG_LEVEL: 'warn',
      ...upstream,
    },
    logFile: join(outDir, 'service.log'),
    cwd: ROOT,
  });
  const stop = async () => {
    await child.stop(60_000);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // Generous: a cold PGlite start on a busy 2-core machine.
    await waitForPort(child, port, 120_000);
    await waitForPort(child, adminPort, 30_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    adminUrl: `http://127.0.0.1:${adminPort}`,
    adminToken,
    predictor: predictorOf(upstream),
    embedded: Object.keys(upstream).length === 0,
    stop: async () => {
      const tail = logTail(child);
      await stop();
      if (child.process.exitCode !== 0 && child.process.exitCode !== null) process.stderr.write(`the service exited ${child.process.exitCode}:\n${tail}\n`);
    },
  };
}
