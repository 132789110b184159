/** Accounts for the load, created through the service's admin API (`POST /admin/v1/accounts`). */
import type { RunningService } from './servers';

export async function createAccount(service: Pick<RunningService, 'adminUrl' | 'adminToken'>, name: string, credits: number): Promise<string> {
  const response = await fetch(`${service.adminUrl}/admin/v1/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, credits }),
  });
  const envelope = (await response.json()) as { data?: { apiKey?: string } };
  const apiKey = envelope.data?.apiKey;
  if (response.status !== 201 || !apiKey) throw new Error(`admin createAccount: ${response.status} ${JSON.stringify(envelope)}`);
  return apiKey;
}

/** `count` accounts with `credits` each, ten at a time; returns their API keys. */
export async function createAccounts(service: RunningService, count: number, credits: number): Promise<string[]> {
  const keys: string[] = [];
  for (let start = 0; start < count; start += 10) {
    const batch = Array.from({ length: Math.min(10, count - start) }, (_, i) => createAccount(service, `bench account ${start + i + 1}`, credits));
    keys.push(...(await Promise.all(batch)));
  }
  return keys;
}
