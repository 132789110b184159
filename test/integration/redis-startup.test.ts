/**
 * Startup never waits on Redis: the built service (a real process) starts with Redis
 * down, or with a Redis user that may not load scripts, serves at once on the
 * in-process limit with a warning, and moves to the shared limit when Redis answers.
 * `make integration` builds first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { createClient } from '@redis/client';
import { sampleValue } from '../support/prometheus';
import { freePort } from '../support/free-port';
import { spawnServer, type SpawnedServer } from '../support/spawned-server';
import { requireEnv } from '../support/test-server';
import { until } from '../support/until';
import { WRITE_PROBE_KEY } from '../../src/data/redis/shared-redis';

jest.setTimeout(180_000);

let server: SpawnedServer | undefined;

afterEach(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  server = undefined;
});

async function sharedGauge(target: SpawnedServer): Promise<number> {
  return sampleValue(await (await fetch(`${target.adminUrl}/metrics`)).text(), 'rate_limit_store_shared');
}

async function keysOf(redisUrl: string, prefix: string): Promise<string[]> {
  const client = createClient({ url: redisUrl });
  await client.connect();
  try {
    // The counts: not the key the availability probe writes before Redis is used again.
    return (await client.keys(`${prefix}*`)).filter((key) => key !== `${prefix}${WRITE_PROBE_KEY}`);
  } finally {
    await client.close();
  }
}

/** Sends requests (bounded) until the rate limit's keys appear in Redis. */
async function untilCountedIn(target: SpawnedServer, redisUrl: string, prefix: string): Promise<string[]> {
  let keys: string[] = [];
  await until(
    async () => {
      await fetch(`${target.url}/api/v1/snap`, { method: 'POST' });
      keys = await keysOf(redisUrl, prefix);
      return keys.length > 0;
    },
    { intervalMs: 250, what: 'the rate limit counted in Redis' },
  );
  return keys;
}

async function startRedis(port: number): Promise<ChildProcess> {
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  await until(
    async () => {
      const client = createClient({ url: `redis://127.0.0.1:${port}`, socket: { reconnectStrategy: false } });
      client.on('error', () => undefined);
      return client.connect().then(
        async () => {
          await client.close();
          return true;
        },
        () => false,
      );
    },
    { intervalMs: 100, what: `redis-server accepting connections on port ${port}` },
  );
  return redis;
}

describe('Redis down at startup', () => {
  test('when nothing listens on REDIS_URL, then the service serves on the in-process limit without waiting for Redis, and uses Redis once it starts', async () => {
    const port = await freePort();
    const redisUrl = `redis://127.0.0.1:${port}`;
    const prefix = `startup:${randomUUID()}:`;
    // Redis starts only after the service answers: serving at all shows start-up did not wait for it
    // (no elapsed time asserted: the machine may be busy).
    server = await spawnServer({ REDIS_URL: redisUrl, RATE_LIMIT_REDIS_PREFIX: prefix });

    const first = await fetch(`${server.url}/api/v1/snap`, { method: 'POST' });
    expect(first.status).toBe(401);
    expect(first.headers.get('x-ratelimit-remaining')).toBe('999999');
    expect(server.output()).toContain('"level":40');
    expect(server.output()).toContain('using the in-process limit');
    expect(await sharedGauge(server)).toBe(0);
    const readiness = await fetch(`${server.adminUrl}/readyz`);
    expect({ status: readiness.status, body: await readiness.json() }).toEqual({ status: 200, body: { status: 'degraded', checks: { postgresql: 'ok', redis: 'degraded' } } });

    const redis = await startRedis(port);
    try {
      expect(await untilCountedIn(server, redisUrl, prefix)).not.toEqual([]);
      expect(await sharedGauge(server)).toBe(1);
    } finally {
      redis.kill('SIGTERM');
      await once(redis, 'exit');
    }
  });
});

describe('Redis refuses SCRIPT LOAD', () => {
  const user = `pps-noscript-${randomUUID()}`;
  const password = randomUUID();
  let admin: ReturnType<typeof createClient>;

  beforeAll(async () => {
    admin = createClient({ url: requireEnv('REDIS_URL') });
    await admin.connect();
    await admin.sendCommand(['ACL', 'SETUSER', user, 'on', `>${password}`, '~*', '&*', '+@all', '-script']);
  });

  afterAll(async () => {
    await admin.sendCommand(['ACL', 'DELUSER', user]);
    await admin.close();
  });

  test('when the Redis user may not run SCRIPT, then the service starts and serves on the in-process limit with a warning, and uses Redis once it may', async () => {
    const url = new URL(requireEnv('REDIS_URL'));
    url.username = user;
    url.password = password;
    const prefix = `noscript:${randomUUID()}:`;
    server = await spawnServer({ REDIS_URL: url.toString(), RATE_LIMIT_REDIS_PREFIX: prefix });

    const first = await fetch(`${server.url}/api/v1/snap`, { method: 'POST' });
    expect(first.status).toBe(401);
    expect(server.output()).toContain('NOPERM');
    expect(server.output()).toContain('using the in-process limit');
    expect(await sharedGauge(server)).toBe(0);

    await admin.sendCommand(['ACL', 'SETUSER', user, '+script']);
    expect(await untilCountedIn(server, requireEnv('REDIS_URL'), prefix)).not.toEqual([]);
    expect(await sharedGauge(server)).toBe(1);
    expect(server.child.exitCode).toBeNull();
    expect(server.output()).not.toContain('Unhandled');
  });
});
