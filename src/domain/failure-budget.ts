/**
 * Failures cost the caller nothing and the operator a bounded amount (docs/security.md,
 * "Threat model"): an account whose predictor calls failed too often within the window is
 * refused before any upstream call, with the contract's 429 text and `Retry-After`,
 * until enough of its failures have left the window. What counts as a failure is every
 * way a call can fail once it was sent: an upstream error or timeout, an unusable or
 * refused answer (a Visionary secondary profile), a client gone before its result.
 */
import { AppError } from './app-error';
import { MESSAGES } from './messages';
import type { FailureBudget } from './ports';

export async function assertWithinFailureBudget(budget: FailureBudget, accountId: number, operation: string): Promise<void> {
  const refusal = await budget.refusal(accountId, operation);
  if (refusal) throw new AppError({ kind: 'rate_limited', message: MESSAGES.tooManyRequests, retryAfterSeconds: refusal.retryAfterSeconds });
}
