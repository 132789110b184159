/**
 * Every token counted (docs/credit-holds.md): a paid request's upstream calls whose
 * result was not stored (the call failed, its answer was refused or could not be
 * stored, its client left, the fallback answered after the primary failed) cost the
 * operator tokens that no stored row shows. They are added to the account's failed-call
 * usage (the admin account view) and, with the failed call's kind, to its usage tallies
 * (the usage view); the stored result's own tokens are stored with it and its charge.
 */
import type { FailedSpend, UsageRepository } from './ports';

/**
 * Records what stored no result, when there is anything. A recording that fails (the
 * database is away) changes nothing of the answer: the metrics have counted the tokens already.
 */
export async function recordFailedSpend(usage: UsageRepository, accountId: number, failed: FailedSpend): Promise<void> {
  if (failed.kind !== null || failed.spends.length > 0) await usage.addFailed(accountId, failed).catch(() => undefined);
}
