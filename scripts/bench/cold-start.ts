/**
 * Cold start: from spawning `node dist/src/app/main.js` to its first `POST /api/v1/snap`
 * answered 201, on PostgreSQL, two ways:
 * - a pod replaced or scaled out (the target): the database is migrated and the account
 *   exists (the chart migrates in a Job before the pods start; accounts outlive pods);
 * - a first install (reported): an empty database that the start migrates, and the account
 *   created through the admin listener as soon as it answers.
 * Both poll every 5 ms, and start with the image's compile cache (compile-cache.ts).
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createAccount } from './accounts';
import { freePort } from '../../test/support/free-port';
import { logTail, sleep, startChild } from './child-process';
import { freshCompileCache } from './compile-cache';
import { createScratchDatabase } from './scratch-database';
import { serviceEnv, startFakeUpstream, upstreamEnv, type BenchPaths } from './servers';
import { SNAP_BODY } from './snap-request';

const POLL_MS = 5;
const GIVE_UP_MS = 60_000;

/** Milliseconds from spawn to the first 201, and the API key it used; with `apiKey`, its account exists already. */
export async function measureColdStart(paths: BenchPaths, name: string, env: Record<string, string>, apiKey?: string): Promise<{ ms: number; apiKey: string }> {
  const [port, adminPort] = [await freePort(), await freePort()];
  const admin = { adminUrl: `http://127.0.0.1:${adminPort}`, adminToken: `bench-cold-${process.pid}-${Date.now()}` };
  const compileCache = freshCompileCache(paths.compileCache);
  const started = performance.now();
  const child = startChild({
    name,
    args: [join(paths.app, 'dist/src/app/main.js')],
    env: serviceEnv({ ...env, ...compileCache.env, PORT: String(port), ADMIN_PORT: String(adminPort), ADMIN_TOKEN: admin.adminToken }),
    logFile: join(paths.workDir, 'cold-start.log'),
    cwd: paths.app,
  });
  void child.exited.then(compileCache.discard);
  let exited = false;
  void child.exited.then(() => (exited = true));
  try {
    const key = apiKey ?? (await until(() => createAccount(admin, 'cold start', 10), () => exited));
    await until(() => snapCreated(`http://127.0.0.1:${port}`, key), () => exited);
    return { ms: performance.now() - started, apiKey: key };
  } catch (err) {
    throw new Error(`${name}: ${String(err)}\n${logTail(child)}`, { cause: err });
  } finally {
    await child.stop();
  }
}

async function snapCreated(url: string, apiKey: string): Promise<true> {
  const response = await fetch(`${url}/api/v1/snap`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: SNAP_BODY,
  });
  await response.arrayBuffer();
  if (response.status !== 201) throw new Error(`POST /api/v1/snap answered ${response.status}`);
  return true;
}

/** Retries `attempt` every POLL_MS until it resolves; gives up when the server has exited or after GIVE_UP_MS. */
async function until<T>(attempt: () => Promise<T>, gone: () => boolean): Promise<T> {
  const deadline = performance.now() + GIVE_UP_MS;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (gone()) throw new Error('the server exited before answering 201', { cause: err });
      if (performance.now() > deadline) throw err;
      await sleep(POLL_MS);
    }
  }
}

/** The cold starts of a bench run, in ms. */
export interface ColdStarts {
  /** A pod replaced or scaled out: the database migrated, the account there. */
  replacedMs: number[];
  /** A first install: an empty database, the account created once the admin listener answers. */
  firstInstallMs: number[];
  /** Whether the starts read a compile cache primed as the image primes its own (compile-cache.ts). */
  compileCache: boolean;
}

/**
 * `runs` pairs of cold starts on the production path: PostgreSQL, Redis, and the
 * predictor calling a fake upstream that answers at once (the first 201 includes the
 * first upstream call). Each pair shares a fresh database: the first install on it
 * empty, then a second process on it as the first left it.
 */
export async function measureColdStarts(
  paths: BenchPaths,
  runs: number,
  backing: { databaseUrl: string; redisUrl: string; runId: string },
  log: (line: string) => void,
): Promise<ColdStarts> {
  const upstream = await startFakeUpstream(paths, { delayMs: 0, label: 'cold start' });
  const starts: ColdStarts = { replacedMs: [], firstInstallMs: [], compileCache: paths.compileCache !== undefined };
  try {
    for (let run = 1; run <= runs; run++) {
      log(`cold start ${run}/${runs}: PostgreSQL + Redis + upstream, a first install then a pod replaced`);
      const database = await createScratchDatabase(backing.databaseUrl, `${backing.runId}_cold_${run}`);
      try {
        const env = {
          DATABASE_URL: database.url,
          REDIS_URL: backing.redisUrl,
          RATE_LIMIT_REDIS_PREFIX: `${backing.runId}:cold:rl:`,
          ...upstreamEnv(upstream.baseURL, 10),
        };
        const firstInstall = await measureColdStart(paths, 'cold start, first install', env);
        starts.firstInstallMs.push(firstInstall.ms);
        starts.replacedMs.push((await measureColdStart(paths, 'cold start, pod replaced', env, firstInstall.apiKey)).ms);
      } finally {
        await database.drop();
      }
    }
  } finally {
    await upstream.stop();
  }
  return starts;
}
