/**
 * The Redis client's lifecycle for the rate limit (REDIS_URL set): the client, the
 * rate-limit-redis store over it, and the failover to an in-process store
 * (failover-store.ts) while Redis is unreachable, does not answer within `detachAfterMs`,
 * or refuses the store's scripts (docs/decisions.md: if Redis is down, the limit falls back to
 * the process). A slow Redis that answers is waited for: its count is the limit.
 *
 * Startup never waits on Redis longer than `connectTimeoutMs`: the first connection and
 * the loading of rate-limit-redis's scripts (SCRIPT LOAD) are one bounded attempt; when it
 * fails, the store counts in this process, logs a warning, and tries again every
 * `retryEveryMs` until Redis answers, then counts there again.
 */
import { MemoryStore, type Options } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type { Logger } from '../../support/logger';
import { withTimeout } from '../../support/with-timeout';
import { FailoverStore } from './failover-store';
import type { RateLimitStore } from './rate-limit-store';

export interface RedisStoreOptions {
  redisUrl: string;
  prefix: string;
  windowMs: number;
  logger: Logger;
  /** No answer within this (a call or a PING) detaches Redis: that request and the next count in-process. */
  detachAfterMs?: number;
  /** While Redis is used, a PING this often, so an idle process notices a dead Redis. */
  checkEveryMs?: number;
  /** Bound of one attempt to connect and load the scripts. */
  connectTimeoutMs?: number;
  /** Delay between attempts while Redis does not answer. */
  retryEveryMs?: number;
}

/** Resolves after one bounded attempt to use Redis, whatever its outcome. */
export async function createRedisStore(options: RedisStoreOptions): Promise<RateLimitStore> {
  const { redisUrl, prefix, windowMs, logger, detachAfterMs = 2000, checkEveryMs = 1000, connectTimeoutMs = 2000, retryEveryMs = 1000 } = options;
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
    detachAfterMs,
    retryEveryMs,
    checkEveryMs,
    logger,
    attach: async () => {
      await withTimeout(connected, connectTimeoutMs);
      // Loads the scripts afresh: a failed load is not kept.
      await withTimeout(redis.init({ windowMs } as Options), connectTimeoutMs);
    },
    check: () => client.ping(),
  });
  await store.attach();
  return {
    store,
    shared: () => store.isShared(),
    ping: () => store.check(),
    close: async () => {
      store.shutdown();
      if (client.isOpen) await client.close();
      else client.destroy();
    },
  };
}
