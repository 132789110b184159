/**
 * `rate_limit_store_shared`: whether the rate limit (and the failure budget) are counted
 * in Redis, shared by every instance (1), or in this process only (0: no REDIS_URL, or
 * Redis unavailable), so that a per-process limit (RATE_LIMIT_MAX per instance) is seen,
 * not guessed.
 */
import { Gauge, type Registry } from 'prom-client';

export function registerRateLimitGauge(registry: Registry, rateLimit: { shared(): boolean }): void {
  new Gauge({
    name: 'rate_limit_store_shared',
    help: '1 while Redis is available and the rate limit and the failure budget are counted there, shared by every instance; 0 while they are counted in this process only.',
    registers: [registry],
    aggregator: 'min',
    collect() {
      this.set(rateLimit.shared() ? 1 : 0);
    },
  });
}
