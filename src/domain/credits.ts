/**
 * The credit rule (docs/credit-holds.md): a credit is held before any paid work, so an
 * account never has more upstream calls in flight than credits; storing the result turns
 * the hold into the charge, and any failure gives the credit back at once.
 */
import { AppError } from './app-error';
import { MESSAGES } from './messages';
import { inProgress } from './idempotency';
import type { ChargeOutcome, CreditHold, CreditsRepository } from './ports';

/**
 * Runs `work` with one credit of the account held for it, or refuses at once when none
 * is available. `work` settles the hold by storing its result; if it throws, the hold is
 * released (one that was already settled gives nothing back). A release that fails now
 * (the database is gone) is left to the sweeper, which returns the hold after its lease.
 */
export async function withCreditHeld<T>(
  credits: CreditsRepository,
  accountId: number,
  operation: string,
  work: (hold: CreditHold) => Promise<T>,
): Promise<T> {
  const hold = await credits.hold(accountId, operation);
  if (!hold) throw insufficientCredits();
  try {
    return await work(hold);
  } catch (error) {
    await credits.release(hold).catch(() => undefined);
    throw error;
  }
}

export function insufficientCredits(): AppError {
  return new AppError({ kind: 'insufficient_credits', message: MESSAGES.insufficientCredits });
}

/** The id of the row a charging statement stored, or the error that says why it stored nothing. */
export function chargedId(outcome: ChargeOutcome): number {
  if (outcome.status === 'stored') return outcome.id;
  throw outcome.status === 'no_credit' ? insufficientCredits() : inProgress();
}
