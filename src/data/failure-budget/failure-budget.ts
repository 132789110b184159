/**
 * The failure budget the configuration asks for: none (FAILURE_BUDGET_CALLS=0), shared
 * in Redis with this process's count as its fallback (REDIS_URL), or this process's
 * count alone.
 */
import type { FailureBudget } from '../../domain/ports';
import type { SharedRedis } from '../redis/shared-redis';
import { MemoryFailureBudget } from './memory-failure-budget';
import { createRedisFailureBudget, type ClosableFailureBudget } from './redis-failure-budget';

export interface FailureBudgetOptions {
  calls: number;
  windowSeconds: number;
  redis: SharedRedis | undefined;
  prefix: string;
}

const UNLIMITED: FailureBudget = {
  refusal: async () => undefined,
  countFailure: async () => undefined,
};

export function createFailureBudget(options: FailureBudgetOptions): ClosableFailureBudget {
  const limits = { calls: options.calls, windowMs: options.windowSeconds * 1000 };
  if (limits.calls === 0) return { ...UNLIMITED, close: async () => undefined };
  if (options.redis) return createRedisFailureBudget({ ...limits, redis: options.redis, prefix: options.prefix });
  const local = new MemoryFailureBudget(limits);
  return {
    refusal: (accountId) => local.refusal(accountId),
    countFailure: (accountId) => local.countFailure(accountId),
    close: async () => local.close(),
  };
}
