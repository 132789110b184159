/**
 * A pooled connection whose answers stop mid-statement (a failover without a reset, a
 * dropped NAT entry): the TCP proxy in front of PostgreSQL delivers the statement and then
 * drops every answer on that connection, its socket left open. The statement's wait for
 * its answer is bounded (database.ts, `boundStatements`): the connection is given up and
 * destroyed, the request answered, and the pool (of one, so a kept connection would stall
 * every request after it) serves the next. Money: the hold's credit stays held for its
 * lease, not charged; a charge that committed is looked up (charge-lost-answer.ts), once.
 */
import { bodyOf } from '../support/json';
import { createAccount, creditsOf, ledgerOf, PERSON, snapCountOf } from '../support/factories';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { requireEnv, startTestServer, type TestServer } from '../support/test-server';

/** Text only the hold statement sends, and only the charging statement (each sent once per connection, when prepared). */
const HOLD_STATEMENT = 'INSERT INTO credit_holds';
const CHARGING_STATEMENT = 'INSERT INTO credit_ledger';

let proxy: TcpProxy;
let server: TestServer;

beforeEach(async () => {
  proxy = await startTcpProxy(requireEnv('DATABASE_URL'));
  server = await startTestServer({ DATABASE_URL: proxy.url, DATABASE_POOL_MAX: '1', LOG_LEVEL: 'warn' });
});

afterEach(async () => {
  await server.close();
  await proxy.close();
});

const snap = (apiKey: string) => server.post('/api/v1/snap', PERSON, { 'x-api-key': apiKey });

describe('a pooled connection whose answers stop mid-statement', () => {
  test('when the hold statement gets no answer, then the request gets 503, the connection is destroyed, the next request 201, and the held credit is not charged', async () => {
    const account = await createAccount(server, 3);
    const silenced = proxy.silenceAt(HOLD_STATEMENT);

    const response = await snap(account.apiKey);
    expect(response.status).toBe(503);
    expect(await bodyOf(response)).toMatchObject({ success: false, message: 'Service temporarily unavailable', statusCode: 503 });
    expect(server.logs()).not.toContain('"kind":"internal"');

    expect((await snap(account.apiKey)).status).toBe(201);
    await silenced;
    // One snap stored and charged; the silenced hold's credit is held until its lease runs out (or already swept back), never charged.
    expect(await snapCountOf(server, account.accountId)).toBe(1);
    expect(await ledgerOf(server, account.accountId)).toEqual({ sum: 2, rows: 2 });
    const { credits, held } = await creditsOf(server, account.accountId);
    expect(credits + held).toBe(2);
  }, 60_000);

  test('when the charging statement gets no answer, then its outcome is looked up: 201 with the row it committed, charged once, and the next request 201', async () => {
    const account = await createAccount(server, 3);
    const silenced = proxy.silenceAt(CHARGING_STATEMENT);

    const response = await snap(account.apiKey);
    expect(response.status).toBe(201);
    const body = await bodyOf(response);
    await silenced;
    const stored = await server.services.db('snaps').where({ account_id: account.accountId }).pluck('id');
    expect(stored.map(Number)).toEqual([body.data.snapId]);
    expect(await creditsOf(server, account.accountId)).toEqual({ credits: 2, held: 0 });
    expect(await ledgerOf(server, account.accountId)).toEqual({ sum: 2, rows: 2 });

    expect((await snap(account.apiKey)).status).toBe(201);
    expect(await creditsOf(server, account.accountId)).toEqual({ credits: 1, held: 0 });
  }, 60_000);
});
