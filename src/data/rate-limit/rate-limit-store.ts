/**
 * Where rate-limit counters live. With REDIS_URL, in Redis, shared by every instance
 * (redis-rate-limit-store.ts, with its failover to the process: failover-store.ts).
 * Without REDIS_URL, in this process only (createMemoryStore).
 */
import { MemoryStore, type Store } from 'express-rate-limit';

export interface RateLimitStore {
  store: Store;
  /** True while the counters are shared by every instance (kept in Redis). */
  shared(): boolean;
  /** Only with REDIS_URL: resolves when Redis answers PING and holds the counters (readiness). */
  ping?: () => Promise<void>;
  close(): Promise<void>;
}

export function createMemoryStore(): RateLimitStore {
  const store = new MemoryStore();
  return { store, shared: () => false, close: async () => store.shutdown() };
}
