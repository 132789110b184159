/**
 * The credit rule (docs/credit-holds.md): a credit is held before any paid work, so an
 * account never has more upstream calls in flight than credits; storing the result turns
 * the hold into the charge, and any failure gives the credit back at once (paid-call.ts).
 */
import { AppError } from './app-error';
import { MESSAGES } from './messages';
import { inProgress } from './idempotency';
import type { ChargeOutcome, CreditHold, CreditsRepository } from './ports';

/** One credit of the account held for a call of `operation`, or the refusal when none is available. */
export async function holdCredit(credits: CreditsRepository, accountId: number, operation: string): Promise<CreditHold> {
  const hold = await credits.hold(accountId, operation);
  if (!hold) throw insufficientCredits();
  return hold;
}

export function insufficientCredits(): AppError {
  return new AppError({ kind: 'insufficient_credits', message: MESSAGES.insufficientCredits });
}

/** The id of the row a charging statement stored, or the error that says why it stored nothing. */
export function chargedId(outcome: ChargeOutcome): number {
  if (outcome.status === 'stored') return outcome.id;
  throw outcome.status === 'no_credit' ? insufficientCredits() : inProgress();
}
