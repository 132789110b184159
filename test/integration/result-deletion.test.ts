/**
 * Deleting a snap takes the analyses stored since its own analyses were deleted (ON
 * DELETE CASCADE) with their replays: an erasure or the sweeper deletes a snap's analyses
 * in batches first, then the snap, and an analysis stored in between must not leave its
 * replay (which rebuilds the answer, name included) behind. Real PostgreSQL, the
 * embedded predictor.
 */
import { randomUUID } from 'node:crypto';
import { deleteSnaps } from '../../src/data/result-deletion';
import { bodyOf } from '../support/json';
import { createAccount, PERSON } from '../support/factories';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

test('when a snap is deleted after an analysis of it was stored with an Idempotency-Key, then the analysis and its replay go with it, and are counted', async () => {
  const account = await createAccount(server, 2);
  const snapId = (await bodyOf(await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey }))).data.snapId as number;
  const comms = await server.post('/api/v1/snap/comms', { snapId, goal: 'Agree the plan' }, { 'x-api-key': account.apiKey, 'idempotency-key': randomUUID() });
  expect(comms.status).toBe(201);
  const { db } = server.services;
  const replays = () => db('idempotency_keys').where({ account_id: account.accountId, state: 'completed' }).count<{ count: string }[]>({ count: '*' });
  expect(Number((await replays())[0]?.count)).toBe(1);

  const deleted = await deleteSnaps(db, { sql: 's.id = ?', bindings: [snapId] }, 10);

  expect(deleted).toEqual({ snaps: 1, commsAnalyses: 1, replays: 1 });
  expect(Number((await replays())[0]?.count)).toBe(0);
  expect(await db('comms_analyses').where({ snap_id: snapId })).toEqual([]);
});
