/** Accounts made and read straight through the repository, for the tests of the data layer that run without a server. */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { KnexAccountRepository } from '../../src/data/account-repository';

/** A new account with `credits` and a key of its own; its id. */
export async function accountIn(db: Knex, credits: number): Promise<number> {
  const hash = `db-account-${randomUUID()}`;
  const { accountId } = await new KnexAccountRepository(db).create({ name: 'data-layer test', credits, keyHash: hash, keyPrefix: hash.slice(0, 12) });
  return accountId;
}

/** Its available and held credits. */
export async function balanceIn(db: Knex, accountId: number): Promise<{ credits: number; held: number }> {
  const account = await new KnexAccountRepository(db).find(accountId);
  return { credits: account?.credits ?? NaN, held: account?.held ?? NaN };
}
