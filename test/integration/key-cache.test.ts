/** The API-key cache under a burst: one `api_keys` lookup per key, however many requests wait on it. */
import type { Knex } from 'knex';
import { hashApiKey } from '../../src/domain/api-keys';
import { createAccount } from '../support/factories';
import { holdTableLock } from '../support/statement-waits';
import { startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';

let server: TestServer;

beforeAll(async () => {
  // Admission control would shed most of a 1,000-request burst before the key lookup
  // (its default is 20 x the pool): this test is about the lookups, so it admits them all.
  server = await startTestServer({ MAX_REQUESTS_IN_FLIGHT: '2000', ACCOUNT_MAX_REQUESTS_IN_FLIGHT: '2000' });
});

afterAll(async () => {
  await server.close();
});

/** Counts the statements that look up this key hash (the poll of deactivated keys is not one). */
function lookupsOf(db: Knex, keyHash: string): { count: number; stop(): void } {
  const counter = {
    count: 0,
    stop: () => db.removeListener('query', listener),
  };
  const listener = (query: { sql: string; bindings?: unknown[] }) => {
    if (query.sql.includes('api_keys') && (query.bindings ?? []).includes(keyHash)) counter.count += 1;
  };
  db.on('query', listener);
  return counter;
}

describe('API-key cache', () => {
  test('when 1,000 requests with one key arrive at once on a cold cache, then api_keys is asked once while the lookup waits', async () => {
    const account = await createAccount(server, 1);
    server.services.callers.clear();
    const lookups = lookupsOf(server.services.db, hashApiKey(account.apiKey));
    const { db, callers } = server.services;
    // api_keys stays locked until 100 requests wait on their key: they are concurrent for sure, and
    // a cache that let each miss look the key up would have asked once per pooled connection by
    // then. Not until all 1,000 wait: the locked lookup is cut at STATEMENT_SECONDS (an outage,
    // 503), and a loaded machine can take longer than that to send 1,000 requests. (After the
    // lock, a loaded machine may ask again, rightly: a key is trusted for KEY_DEACTIVATION_BOUND_MS
    // after its lookup began, and the deactivation poll waited on the lock too.)
    const release = await holdTableLock(db, 'api_keys');
    try {
      const askedBefore = callers.asked;
      // An empty body is refused by validation, which runs after authentication: nothing is charged.
      const answers = Promise.all(
        Array.from({ length: 1000 }, async () => (await server.post('/api/v1/snap', {}, { 'x-api-key': account.apiKey })).status),
      );
      await until(() => callers.asked - askedBefore >= 100 && lookups.count >= 1, 120_000);
      const askedWhileWaiting = lookups.count;
      await release();
      const statuses = await answers;
      expect(new Set(statuses)).toEqual(new Set([400]));
      expect(askedWhileWaiting).toBe(1);
    } finally {
      await release();
      lookups.stop();
    }
  }, 300_000);

  test('when a well-formed unknown key is sent again and again, then api_keys is asked once', async () => {
    const account = await createAccount(server, 1);
    await server.admin('DELETE', `/admin/v1/keys/${account.keyId}`);
    server.services.callers.clear();
    const lookups = lookupsOf(server.services.db, hashApiKey(account.apiKey));
    try {
      for (let i = 0; i < 5; i += 1) {
        expect((await server.post('/api/v1/snap', {}, { 'x-api-key': account.apiKey })).status).toBe(401);
      }
      expect(lookups.count).toBe(1);
    } finally {
      lookups.stop();
    }
  });
});
