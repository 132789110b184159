/**
 * Where rate-limit counters live. With REDIS_URL, in Redis (rate-limit-redis), shared by
 * every instance, while Redis is available; in this process (express-rate-limit's
 * MemoryStore) while it is not, by the one policy of shared-redis.ts. Without
 * REDIS_URL, in this process only.
 */
import { MemoryStore, type ClientRateLimitInfo, type Options, type Store } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { SharedRedis } from '../redis/shared-redis';

export interface RateLimitStore {
  store: Store;
  /** True while the counters are shared by every instance (kept in Redis). */
  shared(): boolean;
  /** Only with REDIS_URL: resolves when Redis answers PING and holds the counters (readiness). */
  ping?: () => Promise<void>;
  close(): Promise<void>;
}

export interface RateLimitStoreOptions {
  /** Prefix of the keys in Redis: deployments sharing one Redis share a limit only with the same prefix. */
  prefix: string;
  windowMs: number;
}

export function createRateLimitStore(redis: SharedRedis | undefined, options: RateLimitStoreOptions): RateLimitStore {
  const local = new MemoryStore();
  if (!redis) return { store: local, shared: () => false, close: async () => local.shutdown() };
  const shared = new RedisStore({ prefix: options.prefix, sendCommand: (...args: string[]) => redis.send(args) as Promise<RedisReply> });
  // Loads rate-limit-redis's scripts (SCRIPT LOAD) at start and at each return of Redis.
  redis.onAttach(() => shared.init({ windowMs: options.windowMs } as Options));
  const store: Store = {
    localKeys: false,
    prefix: options.prefix,
    // express-rate-limit's call: the Redis store gets the same window through onAttach.
    init: (limiterOptions: Options) => local.init(limiterOptions),
    increment: (key: string): Promise<ClientRateLimitInfo> => redis.orLocal(() => shared.increment(key), () => local.increment(key)),
    decrement: (key: string) => redis.orLocal(() => shared.decrement(key), () => local.decrement(key)),
    resetKey: (key: string) => redis.orLocal(() => shared.resetKey(key), () => local.resetKey(key)),
    shutdown: () => local.shutdown(),
  };
  return { store, shared: () => redis.available(), ping: () => redis.check(), close: async () => local.shutdown() };
}
