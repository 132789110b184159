/**
 * A charging statement whose answer is lost: the service's PostgreSQL connection runs
 * through a TCP proxy that cuts it at the charging statement. If the statement reached
 * PostgreSQL and committed, the service looks the row up and answers 201 with it; if it
 * never arrived, the answer is the 503 and nothing is charged. Either way exactly what
 * was stored was charged, once, and no credit stays held.
 */
import { bodyOf } from '../support/json';
import { createAccount, creditsOf, ledgerOf, PERSON, snapCountOf } from '../support/factories';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { requireEnv, startTestServer, type TestServer } from '../support/test-server';

/** Text that only the charging statement sends. */
const CHARGING_STATEMENT = 'INSERT INTO credit_ledger';

let proxy: TcpProxy;
let server: TestServer;

beforeAll(async () => {
  proxy = await startTcpProxy(requireEnv('DATABASE_URL'));
  server = await startTestServer({ DATABASE_URL: proxy.url });
});

afterAll(async () => {
  await server.close();
  await proxy.close();
});

describe('a charging statement whose answer is lost', () => {
  test('when the statement committed but its answer never came back, then the service finds the row and answers 201 with it, charged once', async () => {
    const account = await createAccount(server, 3);
    const cut = proxy.cutAt(CHARGING_STATEMENT, { deliver: true });
    const response = await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey });
    await cut;
    const body = await bodyOf(response);
    expect(response.status).toBe(201);
    expect(body.data.snapResponse.name).toBe(PERSON.name);
    const stored = await server.services.db('snaps').where({ account_id: account.accountId }).pluck('id');
    expect(stored.map(Number)).toEqual([body.data.snapId]);
    expect(await creditsOf(server, account.accountId)).toEqual({ credits: 2, held: 0 });
    expect(await ledgerOf(server, account.accountId)).toEqual({ sum: 2, rows: 2 });
  });

  test('when the statement never reached the database, then it answers 503, stores nothing and the held credit is back', async () => {
    const account = await createAccount(server, 3);
    const cut = proxy.cutAt(CHARGING_STATEMENT, { deliver: false });
    const response = await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey });
    await cut;
    expect(response.status).toBe(503);
    expect((await bodyOf(response)).message).toBe('Service temporarily unavailable');
    expect(await snapCountOf(server, account.accountId)).toBe(0);
    expect(await creditsOf(server, account.accountId)).toEqual({ credits: 3, held: 0 });
  });
});
