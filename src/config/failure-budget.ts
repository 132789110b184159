/**
 * What failures may cost (docs/security.md, "Threat model"): per account, failed predictor calls
 * that the caller caused (an unusable or refused answer such as a Visionary secondary
 * profile, a request the upstream refused, a client gone after the call was sent; an
 * upstream outage never counts: domain/failure-budget.ts) count against a budget in a
 * sliding window. Past it, the account's calls are refused before any upstream call
 * with `429` and `Retry-After` until its oldest failure leaves the window.
 * `FAILURE_BUDGET_CALLS=0` turns the budget off.
 */
import type { EnvReader } from './env-reader';

export interface FailureBudgetConfig {
  /** Failed calls an account may make within the window; 0: no budget. */
  calls: number;
  windowSeconds: number;
}

export function readFailureBudget(read: EnvReader): FailureBudgetConfig {
  return {
    calls: read.integer('FAILURE_BUDGET_CALLS', 10, { min: 0, max: 1_000_000 }),
    windowSeconds: read.integer('FAILURE_BUDGET_WINDOW_SECONDS', 600, { min: 1, max: 86_400 }),
  };
}
