/**
 * Every token counted (docs/credit-holds.md): a paid request's upstream calls whose
 * result was not stored (the call failed, its answer was refused or could not be
 * stored, its client left, the fallback answered after the primary failed) cost the
 * operator tokens that no stored row shows. They are added to the account's failed-call
 * usage (the admin account view); the stored result's own tokens are stored with it.
 */
import type { UpstreamSpend, UsageRepository } from './ports';

/**
 * Adds these calls to the account's failed-call usage. A recording that fails (the
 * database is away) changes nothing of the answer: the metrics have counted the tokens already.
 */
export async function recordFailedSpend(usage: UsageRepository, accountId: number, failed: readonly UpstreamSpend[]): Promise<void> {
  if (failed.length > 0) await usage.addFailed(accountId, failed).catch(() => undefined);
}
