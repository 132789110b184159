/**
 * `make run` convenience: on first start with DEMO_ACCOUNT=true, create a demo account
 * with 100 credits and keep its key in DATA_DIR (the embedded, local-only setup), so
 * every later start can print it again. Keys are otherwise shown once and never stored.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAccount } from '../domain/accounts';
import type { AccountRepository } from '../domain/ports';

const DEMO_CREDITS = 100;

export async function ensureDemoAccount(accounts: AccountRepository, dataDir: string): Promise<string | undefined> {
  const keyFile = join(dataDir, 'demo-api-key');
  if (existsSync(keyFile)) return readFileSync(keyFile, 'utf8').trim();
  if ((await accounts.count()) > 0) return undefined;
  const demo = await createAccount(accounts, 'Demo account', DEMO_CREDITS);
  writeFileSync(keyFile, `${demo.apiKey}\n`, { mode: 0o600 });
  return demo.apiKey;
}

export function demoInstructions(apiKey: string, url: string): string {
  const body = JSON.stringify({ name: 'Ada Lovelace', notes: 'Checks every figure twice and asks for the data before any decision.', jobType: 'Financial auditor' });
  return [
    '',
    `Demo account (${DEMO_CREDITS} credits). API key: ${apiKey}`,
    'Try it:',
    `  curl -s -X POST ${url}/api/v1/snap -H 'Content-Type: application/json' -H 'x-api-key: ${apiKey}' -d '${body}'`,
    '',
  ].join('\n');
}
