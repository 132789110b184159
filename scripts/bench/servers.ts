/**
 * The servers under test, each a child process watched by a ServerMonitor: the real
 * service (`node dist/src/app/main.js`, configured by environment only) and the bare
 * Express baseline.
 */
import { join } from 'node:path';
import { announced, freePort, startChild, waitForPort, type Child } from './child-process';
import { FAKE_UPSTREAM_SPEED } from '../../test/support/fake-openai-server';
import { listenerPid } from './proc-stats';
import { ServerMonitor } from './server-monitor';

export interface BenchPaths {
  /** The run's private copy of the built service (see app-snapshot.ts): package.json, openapi/, dist/, node_modules. */
  root: string;
  /** Scratch folder of this run: logs, load specs, probe files. */
  workDir: string;
}

export interface ServerUnderTest {
  name: string;
  url: string;
  child: Child;
  monitor: ServerMonitor;
  stop(): Promise<void>;
}

export interface RunningService extends ServerUnderTest {
  adminUrl: string;
  adminToken: string;
}

/** What every run of the service gets: production mode, loopback, quiet logs, a limit that never bites. */
export function serviceEnv(overrides: Record<string, string>): Record<string, string> {
  return {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    ADMIN_HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '100000000',
    ACCOUNT_RATE_LIMIT_MAX: '100000000',
    ...overrides,
  };
}

export async function startService(
  paths: BenchPaths,
  options: { name: string; env: Record<string, string>; loopDelayProbe?: boolean; nodeArgs?: string[] },
): Promise<RunningService> {
  const [port, adminPort] = [await freePort(), await freePort()];
  const adminToken = `bench-admin-${process.pid}-${Date.now()}`;
  const preload = options.loopDelayProbe ? ['-r', join(paths.root, 'dist/scripts/bench/loop-delay-probe.js')] : [];
  const child = startChild({
    name: options.name,
    args: [...(options.nodeArgs ?? []), ...preload, join(paths.root, 'dist/src/app/main.js')],
    env: serviceEnv({ ...options.env, PORT: String(port), ADMIN_PORT: String(adminPort), ADMIN_TOKEN: adminToken }),
    logFile: join(paths.workDir, `${slug(options.name)}.log`),
    cwd: paths.root,
  });
  return watch(child, port, { adminUrl: `http://127.0.0.1:${adminPort}`, adminToken, adminPort });
}

export async function startBaseline(paths: BenchPaths): Promise<ServerUnderTest> {
  const port = await freePort();
  const child = startChild({
    name: 'bare Express 5 + express.json()',
    args: [join(paths.root, 'dist/scripts/bench/baseline-server.js')],
    env: { NODE_ENV: 'production', PORT: String(port) },
    logFile: join(paths.workDir, 'baseline.log'),
    cwd: paths.root,
  });
  return watch(child, port, undefined);
}

async function watch(child: Child, port: number, admin: undefined): Promise<ServerUnderTest>;
async function watch(child: Child, port: number, admin: { adminUrl: string; adminToken: string; adminPort: number }): Promise<RunningService>;
async function watch(
  child: Child,
  port: number,
  admin: { adminUrl: string; adminToken: string; adminPort: number } | undefined,
): Promise<ServerUnderTest | RunningService> {
  const monitor = new ServerMonitor(child.pid);
  const stop = async () => {
    await child.stop();
    monitor.stop();
  };
  try {
    await waitForPort(child, port);
    if (admin) await waitForPort(child, admin.adminPort);
  } catch (err) {
    await stop();
    throw err;
  }
  const server = { name: child.name, url: `http://127.0.0.1:${port}`, child, monitor, stop };
  return admin ? { ...server, adminUrl: admin.adminUrl, adminToken: admin.adminToken } : server;
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
    args: [join(paths.root, 'dist/scripts/bench/slow-upstream.js')],
    env: { DELAY_MS: String(options.delayMs) },
    logFile: join(paths.workDir, `slow-upstream-${slug(options.label)}.log`),
    cwd: paths.root,
  });
  try {
    const { baseURL } = await announced<{ baseURL: string }>(child, 'baseURL');
    return { child, baseURL, stop: () => child.stop() };
  } catch (err) {
    await child.stop();
    throw err;
  }
}

/** The service's settings for a fake upstream at `baseURL`, which writes its answer at once: the budgets need not plan for a slow model. */
export function upstreamEnv(baseURL: string): Record<string, string> {
  return { OPENAI_API_KEY: 'sk-bench-not-a-real-key', OPENAI_BASE_URL: baseURL, ...FAKE_UPSTREAM_SPEED, OPENAI_TIMEOUT_SECONDS: '30' };
}
