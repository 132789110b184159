/** Small factories: each test builds its own accounts, snaps and client addresses. */
import { randomInt } from 'node:crypto';
import type { TestServer } from './test-server';

export interface TestAccount {
  accountId: number;
  keyId: number;
  apiKey: string;
}

export function createAccount(server: TestServer, credits = 10): Promise<TestAccount> {
  return server.admin<TestAccount>('POST', '/admin/v1/accounts', { name: `test account ${randomInt(1e9)}`, credits });
}

export async function balanceOf(server: TestServer, accountId: number): Promise<number> {
  return (await creditsOf(server, accountId)).credits;
}

/** Available and held credits, as the admin API shows them. */
export async function creditsOf(server: TestServer, accountId: number): Promise<{ credits: number; held: number }> {
  const { credits, held } = await server.admin<{ credits: number; held: number }>('GET', `/admin/v1/accounts/${accountId}`);
  return { credits, held };
}

export async function ledgerOf(server: TestServer, accountId: number): Promise<{ sum: number; rows: number }> {
  const row = await server.services
    .db('credit_ledger')
    .where({ account_id: accountId })
    .select(server.services.db.raw('coalesce(sum(delta), 0) as sum'), server.services.db.raw('count(*) as rows'))
    .first();
  return { sum: Number(row.sum), rows: Number(row.rows) };
}

export function snapCountOf(server: TestServer, accountId: number): Promise<number> {
  return rowCountOf(server, 'snaps', accountId);
}

export function commsCountOf(server: TestServer, accountId: number): Promise<number> {
  return rowCountOf(server, 'comms_analyses', accountId);
}

async function rowCountOf(server: TestServer, table: 'snaps' | 'comms_analyses', accountId: number): Promise<number> {
  const row = await server.services.db(table).where({ account_id: accountId }).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/**
 * A client address of its own (IPv6 documentation range, a /56 of its own: its /64s are
 * `${prefix}00::` to `${prefix}ff::`), sent as
 * X-Forwarded-For: the test server trusts loopback, so it keys the rate limit on it.
 */
export function clientIp(): string {
  return `2001:db8:${randomInt(0x10000).toString(16)}:${randomInt(0x100).toString(16)}00::1`;
}

export const PERSON = {
  name: 'Ada Lovelace',
  notes: 'Checks every figure twice, keeps meticulous notes and audits the spreadsheet before any decision.',
  jobType: 'Financial auditor',
};

