/**
 * Failures cost the caller nothing and the operator a bounded amount (docs/security.md,
 * "Threat model"): an account whose predictor calls failed too often within the window is
 * refused before any upstream call, with the contract's 429 text and `Retry-After`,
 * until enough of its failures have left the window. What counts is what the caller
 * caused: an unusable or refused answer (a Visionary secondary profile, a model's
 * refusal), a request the upstream refused as malformed or too large, a client gone
 * after its call was sent. An upstream outage (5xx, 429, a timeout, a connection error)
 * is the circuit breaker's business and never locks a customer out.
 */
import { AppError } from './app-error';
import { MESSAGES } from './messages';
import { PredictorError } from './predictor-error';
import type { FailureBudget } from './ports';

/** Whether a failed prediction is the caller's to count: anything but an upstream outage, unless the client left. */
export function isCallersFailure(error: unknown, context: { signal?: AbortSignal }): boolean {
  if (context.signal?.aborted) return true;
  const cause = error instanceof AppError ? error.cause : error;
  return !(cause instanceof PredictorError && cause.outage);
}

export async function assertWithinFailureBudget(budget: FailureBudget, accountId: number, operation: string): Promise<void> {
  const refusal = await budget.refusal(accountId, operation);
  if (refusal) throw new AppError({ kind: 'rate_limited', message: MESSAGES.tooManyRequests, retryAfterSeconds: refusal.retryAfterSeconds });
}
