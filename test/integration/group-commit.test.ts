/** Group commit on real PostgreSQL: shared transactions, own results, isolated failures. */
import { knex, type Knex } from 'knex';
import { GroupCommit } from '../../src/data/group-commit';
import { requireEnv } from '../support/test-server';

let db: Knex;

beforeAll(async () => {
  db = knex({ client: 'pg', connection: requireEnv('DATABASE_URL'), pool: { min: 0, max: 4 } });
  await db.raw('create table if not exists group_commit_probe (id serial primary key, value int not null check (value >= 0))');
});

afterAll(async () => {
  await db.raw('drop table if exists group_commit_probe');
  await db.destroy();
});

const txid = async (executor: Knex | Knex.Transaction): Promise<string> => String((await executor.raw('select txid_current() as id')).rows[0].id);

describe('GroupCommit', () => {
  test('when statements arrive together, then they share one transaction and each gets its own result', async () => {
    const commits = new GroupCommit(db, { maxWaitMs: 5, maxBatch: 100 });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => commits.run(i, async (executor) => ({ i, tx: await txid(executor) }))),
    );
    expect(results.map((r) => r.i)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(new Set(results.map((r) => r.tx)).size).toBe(1);
  });

  test('when a batch is full, then it is committed without waiting for more', async () => {
    const commits = new GroupCommit(db, { maxWaitMs: 60_000, maxBatch: 3 });
    const results = await Promise.all([1, 2, 3].map((i) => commits.run(i, txid)));
    expect(new Set(results).size).toBe(1);
  });

  test('when a statement fails, then only its own request fails and the others are stored once', async () => {
    const commits = new GroupCommit(db, { maxWaitMs: 5, maxBatch: 100 });
    const insert = (value: number) => (executor: Knex | Knex.Transaction) => executor('group_commit_probe').insert({ value }).returning('id');
    const outcomes = await Promise.allSettled([commits.run(1, insert(1001)), commits.run(2, insert(-1)), commits.run(3, insert(1003))]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const stored = await db('group_commit_probe').whereIn('value', [1001, 1003]).count({ n: '*' }).first();
    expect(Number(stored?.n)).toBe(2);
  });

  test('when statements of several accounts arrive out of order, then they run in account order', async () => {
    const commits = new GroupCommit(db, { maxWaitMs: 5, maxBatch: 100 });
    const order: number[] = [];
    await Promise.all([5, 1, 4, 2, 3].map((accountId) => commits.run(accountId, async () => order.push(accountId))));
    expect(order).toEqual([1, 2, 3, 4, 5]);
  });
});
