/** A FailureBudget that counts its refusals and the failures it was told of, by operation, around any other. */
import type { FailureBudget } from '../domain/ports';
import type { Metrics } from './registry';

export function countFailureBudget(budget: FailureBudget, metrics: Pick<Metrics, 'failureBudgetRefusals' | 'failuresCounted'>): FailureBudget {
  return {
    async refusal(accountId, operation) {
      const refusal = await budget.refusal(accountId, operation);
      if (refusal) metrics.failureBudgetRefusals.inc({ operation });
      return refusal;
    },
    async countFailure(accountId, operation) {
      metrics.failuresCounted.inc({ operation });
      await budget.countFailure(accountId, operation);
    },
  };
}
