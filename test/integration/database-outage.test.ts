/**
 * Every way PostgreSQL can be out of reach is a 503, never a 500 (README, "Outages"): a
 * port that accepts and never answers (pg's own connect timeout: `timeout expired`, no
 * code) and a PostgreSQL slower to connect than that timeout, both through a TCP proxy in
 * front of the real database, and a pool whose every connection stays busy (knex's
 * acquisition timeout), which readiness does not take for an outage.
 */
import { bodyOf } from '../support/json';
import { clientIp, createAccount, PERSON, type TestAccount } from '../support/factories';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { requireEnv, startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';

const POOL_MAX = 2;
let proxy: TcpProxy;
let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  proxy = await startTcpProxy(requireEnv('DATABASE_URL'));
  server = await startTestServer({ DATABASE_URL: proxy.url, DATABASE_POOL_MAX: String(POOL_MAX), LOG_LEVEL: 'warn' });
  account = await createAccount(server, 20);
});

afterAll(async () => {
  await server.close();
  await proxy.close();
});

afterEach(async () => {
  proxy.delayNewConnections(0);
  await until(async () => (await snap()).status === 201, 60_000);
});

const snap = () => server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey, 'x-forwarded-for': clientIp() });

async function expectOnly503s(count: number): Promise<void> {
  const responses = await Promise.all(Array.from({ length: count }, snap));
  for (const response of responses) {
    expect(response.status).toBe(503);
    expect(await bodyOf(response)).toMatchObject({ success: false, message: 'Service temporarily unavailable', statusCode: 503 });
  }
}

describe('PostgreSQL out of reach', () => {
  test('when new connections go to a port that accepts and never answers, then requests get 503 (pg: "timeout expired"), and 201 once it answers', async () => {
    const logged = server.logs().length;
    proxy.delayNewConnections(Infinity);
    proxy.cutAll();
    server.services.callers.clear();
    await expectOnly503s(5);
    expect(server.logs()).not.toContain('"kind":"internal"');
    // Each 503's log line names its cause: pg's own connect timeout (or, for a request that took a pooled connection the cut ended, that end).
    const causes = server.logs().slice(logged).split('\n').filter(Boolean).map((line) => JSON.parse(line) as { kind?: string; err?: { message?: string } }).filter((line) => line.kind === 'unavailable').map((line) => line.err?.message);
    expect(causes).toHaveLength(5);
    expect(causes).toContain('timeout expired');
    for (const cause of causes) expect(['timeout expired', 'Connection terminated unexpectedly']).toContain(cause);
  });

  test('when PostgreSQL takes longer to connect than the connect timeout, then requests get 503', async () => {
    proxy.delayNewConnections(4000);
    proxy.cutAll();
    server.services.callers.clear();
    await expectOnly503s(5);
    expect(server.logs()).not.toContain('"kind":"internal"');
  });

  test('when every pooled connection stays busy past the acquisition timeout, then requests get 503', async () => {
    let free: () => void = () => undefined;
    const freed = new Promise<void>((resolve) => (free = resolve));
    let busy = 0;
    /** Holds one pooled connection until `free()`; a connection the proxy cut earlier fails once, so it tries again. */
    const hold = async (): Promise<void> => {
      for (let attempt = 0; ; attempt += 1) {
        try {
          return await server.services.db.transaction(async (trx) => {
            await trx.raw('select 1');
            busy += 1;
            await freed;
          });
        } catch (err) {
          if (attempt >= 10) throw err;
        }
      }
    };
    const holders = Array.from({ length: POOL_MAX }, hold);
    try {
      await until(() => busy === POOL_MAX, 30_000);
      // A busy pool is not PostgreSQL out of reach: it has just answered, and readiness keeps the instance in its Service.
      const readiness = await fetch(`${server.adminUrl}/readyz`);
      expect({ status: readiness.status, postgresql: ((await bodyOf(readiness)) as { checks: Record<string, string> }).checks['postgresql'] }).toEqual({ status: 200, postgresql: 'ok' });
      server.services.callers.clear();
      await expectOnly503s(2);
      expect(server.logs()).not.toContain('"kind":"internal"');
    } finally {
      free();
      await Promise.all(holders);
    }
  });
});
