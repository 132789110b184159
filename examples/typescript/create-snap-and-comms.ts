/**
 * A typed TypeScript client of the API: openapi-fetch on the types that openapi-typescript
 * generates from openapi/openapi.yaml (`npm run gen` → generated/openapi.ts). Creates a
 * snap, then communication advice for it.
 *
 *   PPS_BASE_URL=http://127.0.0.1:3000 PPS_API_KEY=pps_live_… npm run example:ts
 *
 * `make contract` runs it against the live service (test/contract/typescript-sdk.test.ts).
 */
import { randomUUID } from 'node:crypto';
import createClient from 'openapi-fetch';
import type { components, paths } from '../../generated/openapi';

type SnapResponse = components['schemas']['SnapResponse'];
type CommsResponse = components['schemas']['CommsResponse'];

export interface SnapAndComms {
  snapId: number;
  snap: SnapResponse;
  commsId: number;
  comms: CommsResponse;
}

export async function createSnapAndComms(baseUrl: string, apiKey: string): Promise<SnapAndComms> {
  const client = createClient<paths>({ baseUrl, headers: { 'x-api-key': apiKey } });

  const snap = await client.POST('/api/v1/snap', {
    // Safe to retry: a retry with the same key returns the first result and charges nothing.
    params: { header: { 'Idempotency-Key': randomUUID() } },
    body: {
      name: 'Ada Lovelace',
      notes: 'Checks every figure twice, keeps meticulous notes and asks for the data before any decision.',
      ageRange: '35-44',
      jobType: 'Financial auditor',
    },
  });
  if (!snap.data) throw new Error(`POST /api/v1/snap answered ${snap.response.status}: ${snap.error?.message}`);
  const { snapId, snapResponse } = snap.data.data;

  const comms = await client.POST('/api/v1/snap/comms', {
    params: { header: { 'Idempotency-Key': randomUUID() } },
    body: {
      snapId,
      channel: 'email',
      goal: 'Agree on the audit schedule for next quarter',
      draft: 'Hi Ada, I think maybe we could possibly look at the schedule sometime? Let me know.',
    },
  });
  if (!comms.data) throw new Error(`POST /api/v1/snap/comms answered ${comms.response.status}: ${comms.error?.message}`);
  const { commsId, commsResponse } = comms.data.data;

  return { snapId, snap: snapResponse, commsId, comms: commsResponse };
}

async function main(): Promise<void> {
  const baseUrl = process.env.PPS_BASE_URL ?? 'http://127.0.0.1:3000';
  const apiKey = process.env.PPS_API_KEY;
  if (!apiKey) throw new Error('set PPS_API_KEY to an API key (make run prints a demo key)');
  const result = await createSnapAndComms(baseUrl, apiKey);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
