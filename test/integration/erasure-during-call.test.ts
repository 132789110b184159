/**
 * A snap erased (or expired) while a comms analysis of it is being made: the analysis
 * cannot be stored for a snap that is gone, and the caller gets the contract's 404
 * `Snap not found`, as if the snap had been gone before the call; nothing is stored and
 * the held credit comes back. Real PostgreSQL, the real `openai` client against a fake
 * upstream that holds its answer until the erasure is done.
 */
import { bodyOf } from '../support/json';
import { heldAnswer, reply, startFakeOpenAi, type FakeOpenAi, UPSTREAM_ANALYSIS, UPSTREAM_PREDICTION } from '../support/fake-openai-server';
import { createAccount, creditsOf, PERSON } from '../support/factories';
import { startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';

let fake: FakeOpenAi;
let server: TestServer;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  server = await startTestServer({ OPENAI_API_KEY: 'sk-erasure-0123456789', OPENAI_BASE_URL: fake.baseURL, OPENAI_MAX_RETRIES: '0' });
});

afterAll(async () => {
  await server.close();
  await fake.close();
});

test('when the snap is erased while its comms analysis is being made, then the call answers 404 Snap not found, stores nothing and gives the credit back', async () => {
  const account = await createAccount(server, 2);
  fake.script(reply(UPSTREAM_PREDICTION));
  const snap = await bodyOf(await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey }));
  const { behaviour, release } = heldAnswer(reply(UPSTREAM_ANALYSIS));
  fake.script(behaviour);

  const answer = server.post('/api/v1/snap/comms', { snapId: snap.data.snapId, draft: 'Could we go over the figures on Friday?' }, { 'x-api-key': account.apiKey });
  await until(() => fake.inFlight() === 1, { what: 'the comms call reaching the upstream' });
  const erased = await server.admin<{ erased: { snaps: number } }>('DELETE', `/admin/v1/snaps/${snap.data.snapId}`);
  release();
  const response = await answer;

  expect(erased.erased.snaps).toBe(1);
  expect(response.status).toBe(404);
  expect((await bodyOf(response)).message).toBe('Snap not found');
  expect(await creditsOf(server, account.accountId)).toEqual({ credits: 1, held: 0 });
  expect(await server.services.db('comms_analyses').where({ account_id: account.accountId }).count({ n: '*' }).first()).toEqual({ n: '0' });
});
