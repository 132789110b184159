/**
 * Holds and releases of concurrent requests share one statement per batch (src/data/
 * credit-hold-repository.ts), on real PostgreSQL and on PGlite: each request still gets
 * its own answer, and an account asked for more holds than it has credits gets exactly
 * as many as it has. (PGlite cannot load inside Jest's module sandbox: the same
 * statements run on it through the built service in credit-holds.test.ts.)
 */
import type { Knex } from 'knex';
import { KnexAccountRepository } from '../../src/data/account-repository';
import { KnexCreditHoldRepository } from '../../src/data/credit-hold-repository';
import { createDatabase, migrateToLatest } from '../../src/data/database';
import { requireEnv } from '../support/test-server';

jest.setTimeout(120_000);

describe('credit holds in batches', () => {
  let db: Knex;
  let holds: KnexCreditHoldRepository;
  let serial = 0;

  beforeAll(async () => {
    db = createDatabase({ databaseUrl: requireEnv('DATABASE_URL'), dataDir: '', poolMax: 4 });
    await migrateToLatest(db);
    holds = new KnexCreditHoldRepository(db, 60, { maxWaitMs: 20, maxBatch: 1000 });
  });
  afterAll(() => db.destroy());

  async function accountWith(credits: number): Promise<number> {
    serial += 1;
    const hash = `batch-${process.pid}-${Date.now()}-${serial}`;
    const { accountId } = await new KnexAccountRepository(db).create({ name: 'batch', credits, keyHash: hash, keyPrefix: hash.slice(0, 12) });
    return accountId;
  }

  async function balance(accountId: number): Promise<{ credits: number; held: number }> {
    const account = await new KnexAccountRepository(db).find(accountId);
    return { credits: account?.credits ?? NaN, held: account?.held ?? NaN };
  }

  test('when one batch asks for more holds than an account has credits, then exactly that many are granted, the earliest first', async () => {
    const [poor, rich] = [await accountWith(3), await accountWith(100)];
    const asks = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? poor : rich));

    const granted = await Promise.all(asks.map((accountId) => holds.hold(accountId, 'snap')));

    const poorGranted = granted.filter((hold, i) => asks[i] === poor && hold !== null);
    expect(poorGranted).toHaveLength(3);
    expect(granted.slice(0, 6).filter((_, i) => i % 2 === 0).every((hold) => hold !== null)).toBe(true);
    expect(granted.filter((hold, i) => asks[i] === rich && hold !== null)).toHaveLength(10);
    expect(new Set(granted.flatMap((hold) => (hold ? [hold.holdId] : []))).size).toBe(13);
    for (const hold of granted) if (hold) expect(asks).toContain(hold.accountId);
    expect(await balance(poor)).toEqual({ credits: 0, held: 3 });
    expect(await balance(rich)).toEqual({ credits: 90, held: 10 });
  });

  test('when a batch of holds is released, then every credit comes back once, even a hold released twice', async () => {
    const accountId = await accountWith(5);
    const taken = await Promise.all(Array.from({ length: 5 }, () => holds.hold(accountId, 'comms')));
    const released = taken.flatMap((hold) => (hold ? [hold] : []));
    expect(released).toHaveLength(5);

    await Promise.all([...released, released[0] as (typeof released)[number]].map((hold) => holds.release(hold)));

    expect(await balance(accountId)).toEqual({ credits: 5, held: 0 });
  });
});
