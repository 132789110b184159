/**
 * Where rate-limit counters live. With REDIS_URL, in Redis, shared by every instance;
 * when Redis is unreachable or slower than `fallbackAfterMs`, in this process, so the
 * service keeps answering (DESIGN.md: "If Redis is down, the limit falls back to the
 * process"). Without REDIS_URL, in this process only.
 */
import { MemoryStore, type ClientRateLimitInfo, type Options, type Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import { createClient } from 'redis';
import type { Logger } from '../logger';
import { withTimeout } from '../with-timeout';

export interface RateLimitStore {
  store: Store;
  /** Only for a shared store (Redis): resolves when it answers PING (readiness). */
  ping?: () => Promise<void>;
  close(): Promise<void>;
}

export function createMemoryStore(): RateLimitStore {
  const store = new MemoryStore();
  return { store, close: async () => store.shutdown() };
}

/** Connects first: rate-limit-redis loads its scripts when created. */
export async function createRedisStore(redisUrl: string, prefix: string, logger: Logger, fallbackAfterMs = 100): Promise<RateLimitStore> {
  const client = createClient({
    url: redisUrl,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2000) },
  });
  client.on('error', (err: Error) => logger.debug({ err: err.message }, 'redis client error'));
  await client.connect();
  const redis = new RedisStore({ prefix, sendCommand: (...args: string[]) => client.sendCommand(args) });
  const store = new FailoverStore(redis, new MemoryStore(), { prefix, fallbackAfterMs, logger });
  return {
    store,
    ping: async () => {
      await client.ping();
    },
    close: async () => {
      store.shutdown();
      if (client.isOpen) await client.close();
    },
  };
}

/** Uses `primary` while it answers in time, `fallback` otherwise. */
class FailoverStore implements Store {
  readonly localKeys = false;
  readonly prefix: string;
  private readonly fallbackAfterMs: number;
  private readonly logger: Logger;
  private failing = false;

  constructor(
    private readonly primary: Store,
    private readonly fallback: MemoryStore,
    options: { prefix: string; fallbackAfterMs: number; logger: Logger },
  ) {
    this.prefix = options.prefix;
    this.fallbackAfterMs = options.fallbackAfterMs;
    this.logger = options.logger;
  }

  init(options: Options): void {
    void this.primary.init?.(options);
    this.fallback.init(options);
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    return this.withFallback(
      () => this.primary.increment(key),
      () => this.fallback.increment(key),
    );
  }

  async decrement(key: string): Promise<void> {
    return this.withFallback(
      () => this.primary.decrement(key),
      () => this.fallback.decrement(key),
    );
  }

  async resetKey(key: string): Promise<void> {
    return this.withFallback(
      () => this.primary.resetKey(key),
      () => this.fallback.resetKey(key),
    );
  }

  shutdown(): void {
    this.fallback.shutdown();
  }

  private async withFallback<T>(primary: () => Promise<T> | T, fallback: () => Promise<T> | T): Promise<T> {
    try {
      const result = await withTimeout(Promise.resolve(primary()), this.fallbackAfterMs);
      if (this.failing) this.logger.warn('rate limit store: Redis answers again, using the shared limit');
      this.failing = false;
      return result;
    } catch (err) {
      if (!this.failing) this.logger.warn({ err: String(err) }, 'rate limit store: Redis unavailable, using the in-process limit');
      this.failing = true;
      return fallback();
    }
  }
}
