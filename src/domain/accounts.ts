/** Product-internal account administration (openapi/admin.yaml). */
import { AppError } from './app-error';
import { generateApiKey } from './api-keys';
import { MESSAGES } from './messages';
import type { AccountRepository, AccountSummary } from './ports';

export interface CreatedAccount {
  accountId: number;
  keyId: number;
  apiKey: string;
  credits: number;
}

export async function createAccount(accounts: AccountRepository, name: string, credits: number): Promise<CreatedAccount> {
  const key = generateApiKey();
  const { accountId, keyId } = await accounts.create({ name, credits, keyHash: key.hash, keyPrefix: key.displayPrefix });
  return { accountId, keyId, apiKey: key.apiKey, credits };
}

export async function getAccount(accounts: AccountRepository, accountId: number): Promise<AccountSummary> {
  return (await accounts.find(accountId)) ?? accountNotFound();
}

/** The largest balance: what a JavaScript number (and so a JSON client) holds exactly. */
export const MAX_BALANCE = Number.MAX_SAFE_INTEGER;

export async function addCredits(accounts: AccountRepository, accountId: number, amount: number): Promise<{ accountId: number; credits: number }> {
  const account = (await accounts.find(accountId)) ?? accountNotFound();
  if (account.credits + amount > MAX_BALANCE) {
    throw new AppError({ kind: 'invalid_request', message: MESSAGES.balanceTooLarge(MAX_BALANCE) });
  }
  const credits = await accounts.addCredits(accountId, amount);
  return credits === null ? accountNotFound() : { accountId, credits };
}

export async function createApiKey(accounts: AccountRepository, accountId: number): Promise<{ keyId: number; apiKey: string }> {
  const key = generateApiKey();
  const keyId = await accounts.addKey(accountId, key.hash, key.displayPrefix);
  return keyId === null ? accountNotFound() : { keyId, apiKey: key.apiKey };
}

export async function deactivateApiKey(accounts: AccountRepository, keyId: number): Promise<{ keyId: number; active: false }> {
  if (!(await accounts.deactivateKey(keyId))) {
    throw new AppError({ kind: 'not_found', message: MESSAGES.keyNotFound });
  }
  return { keyId, active: false };
}

/** The per-account rate limit beside the per-IP one (openapi/admin.yaml, `AccountRateLimit`). */
export interface AccountRateLimit {
  accountId: number;
  limit: number;
  windowSeconds: number;
  /** True when the account has its own limit; false when the default applies. */
  custom: boolean;
}

/** The service's default per-account limit and the window it counts in. */
export interface AccountRateLimitDefaults {
  limit: number;
  windowSeconds: number;
}

export async function getAccountRateLimit(accounts: AccountRepository, defaults: AccountRateLimitDefaults, accountId: number): Promise<AccountRateLimit> {
  const own = await accounts.rateLimitOf(accountId);
  if (own === undefined) accountNotFound();
  return { accountId, limit: own ?? defaults.limit, windowSeconds: defaults.windowSeconds, custom: own !== null };
}

export async function setAccountRateLimit(accounts: AccountRepository, defaults: AccountRateLimitDefaults, accountId: number, limit: number | null): Promise<AccountRateLimit> {
  if (!(await accounts.setRateLimit(accountId, limit))) accountNotFound();
  return { accountId, limit: limit ?? defaults.limit, windowSeconds: defaults.windowSeconds, custom: limit !== null };
}

function accountNotFound(): never {
  throw new AppError({ kind: 'not_found', message: MESSAGES.accountNotFound });
}
