/**
 * The live service of `make contract`: `node dist/src/app/main.js`, built as shipped, that
 * scripts/contract/run.sh starts and names in PPS_BASE_URL, PPS_ADMIN_URL and PPS_ADMIN_TOKEN.
 */
import { randomInt } from 'node:crypto';
import { join } from 'node:path';

export const PROJECT_ROOT = join(__dirname, '..', '..', '..');
export const CONTRACT_OUTPUT = join(PROJECT_ROOT, 'test-output', 'contract');

export interface LiveService {
  baseUrl: string;
  adminUrl: string;
  adminToken: string;
}

export function liveService(): LiveService {
  const { PPS_BASE_URL: baseUrl, PPS_ADMIN_URL: adminUrl, PPS_ADMIN_TOKEN: adminToken } = process.env;
  if (!baseUrl || !adminUrl || !adminToken) {
    throw new Error('PPS_BASE_URL, PPS_ADMIN_URL and PPS_ADMIN_TOKEN are not set: run the contract tests through make contract');
  }
  return { baseUrl, adminUrl, adminToken };
}

export interface LiveAccount {
  accountId: number;
  apiKey: string;
}

/** A fresh account, made through the admin API. */
export async function createLiveAccount(service: LiveService, credits = 10): Promise<LiveAccount> {
  const response = await fetch(`${service.adminUrl}/admin/v1/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `contract test ${randomInt(1e9)}`, credits }),
  });
  const envelope = (await response.json()) as { data?: LiveAccount };
  if (!response.ok || !envelope.data) throw new Error(`admin POST /admin/v1/accounts: ${response.status} ${JSON.stringify(envelope)}`);
  return { accountId: envelope.data.accountId, apiKey: envelope.data.apiKey };
}

/** An account's credit balance, read through the admin API. */
export async function creditsOf(service: LiveService, accountId: number): Promise<number> {
  const response = await fetch(`${service.adminUrl}/admin/v1/accounts/${accountId}`, {
    headers: { authorization: `Bearer ${service.adminToken}` },
  });
  const envelope = (await response.json()) as { data?: { credits?: number } };
  if (!response.ok || envelope.data?.credits === undefined) throw new Error(`admin GET account ${accountId}: ${response.status}`);
  return envelope.data.credits;
}

/**
 * What both SDK examples must print: a snap, then a comms analysis of that same snap with
 * a draft review, and two credits spent from `creditsBefore`.
 */
export async function expectSnapThenComms(service: LiveService, account: LiveAccount, creditsBefore: number, result: unknown): Promise<void> {
  expect(result).toEqual({
    snapId: expect.any(Number),
    snap: expect.objectContaining({ name: 'Ada Lovelace', profile: expect.any(String), primary_code: expect.any(String) }),
    commsId: expect.any(Number),
    comms: expect.objectContaining({
      do: expect.any(Array),
      draft_analysis: expect.objectContaining({ fit_score: expect.any(Number), rewrite: expect.any(String) }),
    }),
  });
  const { snap, comms } = result as { snap: { profile: string }; comms: { profile: string } };
  expect(comms.profile).toBe(snap.profile);
  expect(await creditsOf(service, account.accountId)).toBe(creditsBefore - 2);
}
