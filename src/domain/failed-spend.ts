/**
 * Every token counted (docs/credit-holds.md): a paid request's upstream calls whose
 * result was not stored (the call failed, its answer was refused or could not be
 * stored, its client left, the fallback answered after the primary failed) cost the
 * operator tokens that no stored row shows. They are added to the account's failed-call
 * usage (the admin account view); the stored result's own tokens are stored with it.
 */
import type { PredictContext, UpstreamSpend, UsageRepository } from './ports';

type OnSpend = NonNullable<PredictContext['onSpend']>;

/**
 * Runs `work`, which resolves only once its result is stored, with an `onSpend` for its
 * predictor calls; then records the calls the stored result does not account for. A
 * recording that fails (the database is away) changes nothing of the answer: the
 * metrics have counted the tokens already.
 */
export async function recordingFailedSpend<T>(usage: UsageRepository, accountId: number, work: (onSpend: OnSpend) => Promise<T>): Promise<T> {
  const spends: UpstreamSpend[] = [];
  let stored = false;
  try {
    const result = await work((spend) => spends.push(spend));
    stored = true;
    return result;
  } finally {
    const failed = stored ? spends.filter((spend) => spend.outcome === 'failure') : spends;
    if (failed.length > 0) await usage.addFailed(accountId, failed).catch(() => undefined);
  }
}
