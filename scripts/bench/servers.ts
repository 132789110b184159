/**
 * The servers a bench run starts, each a child process configured by environment only:
 * the service (`node dist/src/app/main.js`), the bare Express baseline and the fake
 * OpenAI-compatible upstream.
 */
import { join } from 'node:path';
import { freePort } from '../../test/support/free-port';
import { announced, startChild, waitForPort, type Child } from './child-process';
import { freshCompileCache } from './compile-cache';
import { FAKE_UPSTREAM_SPEED } from '../../test/support/fake-openai-server';
import { confined, type MemoryLimit } from './pod-memory-limit';
import { listenerPid } from './proc-stats';

export interface BenchPaths {
  /** The run's private copy of the service under test (app-snapshot.ts): package.json, openapi/, dist/, node_modules. */
  app: string;
  /** The run's private copy of the harness itself (dist/scripts/bench, the fake upstream), with node_modules. */
  bench: string;
  /** Scratch folder of this run: logs, load specs and results. */
  workDir: string;
  /** The compile cache primed for `app` as its image primes it (compile-cache.ts); none when `app` has no prime command. */
  compileCache?: string;
}

export interface Server {
  name: string;
  url: string;
  child: Child;
  stop(): Promise<void>;
}

export interface RunningService extends Server {
  adminUrl: string;
  adminToken: string;
}

/**
 * The chart's log level (deploy/helm/profile-prediction-service/values.yaml): a paid call's
 * access log line is part of what production runs.
 */
export const SERVICE_LOG_LEVEL = 'info';

/** What every run of the service gets: production mode, loopback, the chart's log level, rate limits (per IP, per account) that never bite. */
export function serviceEnv(overrides: Record<string, string>): Record<string, string> {
  return {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    ADMIN_HOST: '127.0.0.1',
    LOG_LEVEL: SERVICE_LOG_LEVEL,
    RATE_LIMIT_MAX: '100000000',
    ACCOUNT_RATE_LIMIT_MAX: '100000000',
    ...overrides,
  };
}

export async function startService(paths: BenchPaths, options: { name: string; env: Record<string, string>; memoryLimit?: MemoryLimit }): Promise<RunningService> {
  const [port, adminPort] = [await freePort(), await freePort()];
  const adminToken = `bench-admin-${process.pid}-${Date.now()}`;
  const main = [join(paths.app, 'dist/src/app/main.js')];
  const compileCache = freshCompileCache(paths.compileCache);
  const child = startChild({
    name: options.name,
    ...(options.memoryLimit ? confined(options.memoryLimit, main) : { args: main }),
    env: serviceEnv({ ...options.env, ...compileCache.env, PORT: String(port), ADMIN_PORT: String(adminPort), ADMIN_TOKEN: adminToken }),
    logFile: join(paths.workDir, `${slug(options.name)}.log`),
    cwd: paths.app,
  });
  void child.exited.then(compileCache.discard);
  const server = await listening(child, [port, adminPort]);
  return { ...server, adminUrl: `http://127.0.0.1:${adminPort}`, adminToken };
}

export async function startBaseline(paths: BenchPaths): Promise<Server> {
  const port = await freePort();
  const child = startChild({
    name: 'bare Express 5 + express.json()',
    args: [join(paths.bench, 'dist/scripts/bench/baseline-server.js')],
    env: { NODE_ENV: 'production', PORT: String(port) },
    logFile: join(paths.workDir, 'baseline.log'),
    cwd: paths.bench,
  });
  return listening(child, [port]);
}

async function listening(child: Child, ports: number[]): Promise<Server> {
  try {
    for (const port of ports) await waitForPort(child, port);
  } catch (err) {
    await child.stop();
    throw err;
  }
  return { name: child.name, url: `http://127.0.0.1:${ports[0]}`, child, stop: () => child.stop() };
}

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/** The PostgreSQL and Redis processes behind DATABASE_URL and REDIS_URL (by their listening port), when they run on this machine. */
export function backingPids(backing: Record<string, string>): Record<string, number> {
  const pidOf = (url: string | undefined, defaultPort: number) => (url ? listenerPid(Number(new URL(url).port || defaultPort)) : undefined);
  const pids = { postgres: pidOf(backing['DATABASE_URL'], 5432), redis: pidOf(backing['REDIS_URL'], 6379) };
  return Object.fromEntries(Object.entries(pids).filter((entry): entry is [string, number] => entry[1] !== undefined));
}

/** The tests' fake OpenAI-compatible server in a process of its own (slow-upstream.ts), answering after `delayMs`. */
export interface FakeUpstream {
  child: Child;
  baseURL: string;
  stop(): Promise<void>;
}

export async function startFakeUpstream(paths: BenchPaths, options: { delayMs: number; label: string }): Promise<FakeUpstream> {
  const child = startChild({
    name: `fake upstream, ${options.label}`,
    args: [join(paths.bench, 'dist/scripts/bench/slow-upstream.js')],
    env: { DELAY_MS: String(options.delayMs) },
    logFile: join(paths.workDir, `slow-upstream-${slug(options.label)}.log`),
    cwd: paths.bench,
  });
  try {
    const { baseURL } = await announced<{ baseURL: string }>(child, 'baseURL');
    return { child, baseURL, stop: () => child.stop() };
  } catch (err) {
    await child.stop();
    throw err;
  }
}

/**
 * The service's settings for the fake upstream at `baseURL`, which writes its answer at
 * once (the budgets need not plan for a slow model), with `inFlight` calls provisioned:
 * sockets to the upstream and requests admitted at once.
 */
export function upstreamEnv(baseURL: string, inFlight: number): Record<string, string> {
  return {
    OPENAI_API_KEY: 'sk-bench-not-a-real-key',
    OPENAI_BASE_URL: baseURL,
    ...FAKE_UPSTREAM_SPEED,
    OPENAI_TIMEOUT_SECONDS: '30',
    OPENAI_MAX_SOCKETS: String(inFlight),
    MAX_REQUESTS_IN_FLIGHT: String(inFlight),
  };
}
