/**
 * Where rate-limit counters live. With REDIS_URL, in Redis, shared by every instance;
 * while Redis is unreachable, slower than `fallbackAfterMs`, or refuses the store's
 * scripts, in this process, so the service keeps answering (DESIGN.md: "If Redis is
 * down, the limit falls back to the process"). Without REDIS_URL, in this process only.
 *
 * Startup never waits on Redis longer than `connectTimeoutMs`: the first connection
 * and the loading of rate-limit-redis's scripts (SCRIPT LOAD) are one bounded attempt;
 * when it fails, the store counts in this process, logs a warning, and tries again
 * every `retryEveryMs` until Redis answers, then counts there again. An error at run
 * time (Redis gone, a refused command) falls back the same way; an answer slower than
 * `fallbackAfterMs` only counts that one request in this process.
 */
import { MemoryStore, type ClientRateLimitInfo, type Options, type Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type { Logger } from '../../support/logger';
import { TimeoutError, withTimeout } from '../../support/with-timeout';

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

export interface RedisStoreOptions {
  redisUrl: string;
  prefix: string;
  windowMs: number;
  logger: Logger;
  /** A Redis answer slower than this counts as a failure (this request counts in-process). */
  fallbackAfterMs?: number;
  /** Bound of one attempt to connect and load the scripts. */
  connectTimeoutMs?: number;
  /** Delay between attempts while Redis does not answer. */
  retryEveryMs?: number;
}

/** Resolves after one bounded attempt to use Redis, whatever its outcome. */
export async function createRedisStore(options: RedisStoreOptions): Promise<RateLimitStore> {
  const { redisUrl, prefix, windowMs, logger, fallbackAfterMs = 100, connectTimeoutMs = 2000, retryEveryMs = 1000 } = options;
  // Loaded only here: the embedded default starts without it (a tenth of a second of start-up).
  const { createClient } = await import('@redis/client');
  const client = createClient({
    url: redisUrl,
    disableOfflineQueue: true,
    socket: { connectTimeout: connectTimeoutMs, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2000) },
  });
  client.on('error', (err: Error) => logger.debug({ err: err.message }, 'redis client error'));
  // Settles only once connected (the client retries for ever): never awaited unbounded.
  const connected = client.connect().then(() => undefined);
  connected.catch(() => undefined);
  const redis = new RedisStore({ prefix, sendCommand: (...args: string[]) => client.sendCommand(args) });
  const store = new FailoverStore(redis, new MemoryStore(), {
    prefix,
    fallbackAfterMs,
    retryEveryMs,
    logger,
    attach: async () => {
      await withTimeout(connected, connectTimeoutMs);
      // Loads the scripts afresh: a failed load is not kept.
      await withTimeout(redis.init({ windowMs } as Options), connectTimeoutMs);
    },
  });
  await store.attach();
  return {
    store,
    shared: () => store.isShared(),
    ping: async () => {
      if (!store.isShared()) throw new Error('the rate limit is counted in this process: Redis has not answered since it failed');
      await client.ping();
    },
    close: async () => {
      store.shutdown();
      if (client.isOpen) await client.close();
      else client.destroy();
    },
  };
}

interface FailoverOptions {
  prefix: string;
  fallbackAfterMs: number;
  retryEveryMs: number;
  logger: Logger;
  /** One bounded attempt to make `primary` usable (connect, load scripts); rejects if it is not. */
  attach: () => Promise<void>;
}

/** Uses `primary` while it answers in time, `fallback` otherwise, and re-attaches `primary` in the background. */
class FailoverStore implements Store {
  readonly localKeys = false;
  readonly prefix: string;
  private shared = false;
  /** Set once anything was said, so each change is logged once. */
  private announced = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private attaching: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly primary: Store,
    private readonly fallback: MemoryStore,
    private readonly options: FailoverOptions,
  ) {
    this.prefix = options.prefix;
  }

  isShared(): boolean {
    return this.shared;
  }

  /** One attempt to use `primary`; on failure, counts in-process and schedules the next. Never rejects. */
  attach(): Promise<void> {
    this.attaching ??= this.options
      .attach()
      .then(
        () => this.useShared(),
        (err: unknown) => this.useFallback(err),
      )
      .finally(() => {
        this.attaching = undefined;
      });
    return this.attaching;
  }

  /** express-rate-limit's call: the primary was initialised by `attach`, with the same window. */
  init(options: Options): void {
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
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.fallback.shutdown();
  }

  private async withFallback<T>(primary: () => Promise<T> | T, fallback: () => Promise<T> | T): Promise<T> {
    if (!this.shared) return fallback();
    try {
      return await withTimeout(Promise.resolve(primary()), this.options.fallbackAfterMs);
    } catch (err) {
      // A slow answer costs only this request its shared count; an error means Redis is gone.
      if (!(err instanceof TimeoutError)) this.useFallback(err);
      return fallback();
    }
  }

  private useShared(): void {
    if (!this.shared && this.announced) this.options.logger.warn('rate limit store: Redis answers again, using the shared limit');
    this.shared = true;
    this.announced = true;
  }

  private useFallback(err: unknown): void {
    if (this.shared || !this.announced) {
      this.options.logger.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'rate limit store: Redis unavailable, using the in-process limit until it answers',
      );
    }
    this.shared = false;
    this.announced = true;
    this.scheduleAttach();
  }

  private scheduleAttach(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.attach();
    }, this.options.retryEveryMs);
    this.retryTimer.unref();
  }
}
