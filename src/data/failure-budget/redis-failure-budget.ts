/**
 * The failure budget shared by every instance, in Redis: per account a sorted set of its
 * failures' times (a sliding log), and a "refused" key that lives exactly as long as the
 * account is past its budget. A failure updates both in one script; asking whether an
 * account is refused is one PTTL, the only Redis command on the path of a call that
 * succeeds.
 *
 * Redis absent (no REDIS_URL): the composition root uses the in-process budget alone.
 * Redis configured but not answering (down, slower than `fallbackAfterMs`): this
 * process's own count answers, which every failure also updates, so an account that
 * failed here is still bounded here; counts of other instances are missed until Redis
 * answers again. A call is never refused, or held up, because Redis is away.
 */
import { randomUUID } from 'node:crypto';
import type { FailureBudget } from '../../domain/ports';
import type { Logger } from '../../support/logger';
import { withTimeout } from '../../support/with-timeout';
import { MemoryFailureBudget, type FailureBudgetLimits } from './memory-failure-budget';

export interface RedisFailureBudgetOptions extends FailureBudgetLimits {
  redisUrl: string;
  /** Prefix of the keys: deployments sharing one Redis share budgets only with the same prefix. */
  prefix: string;
  logger: Logger;
  /** A Redis answer slower than this is not waited for: this process's count answers. */
  fallbackAfterMs?: number;
}

export interface ClosableFailureBudget extends FailureBudget {
  close(): Promise<void>;
}

/**
 * KEYS[1] the account's failures, KEYS[2] its refusal; ARGV: now (ms), window (ms),
 * budget (calls), a unique member. Returns the failures in the window.
 */
const COUNT_FAILURE = `
local now, window, budget = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
local count = redis.call('ZCARD', KEYS[1])
if count >= budget then
  local freeing = redis.call('ZRANGE', KEYS[1], count - budget, count - budget, 'WITHSCORES')
  local refusedMs = math.floor(tonumber(freeing[2]) + window - now)
  if refusedMs > 0 then redis.call('SET', KEYS[2], '1', 'PX', refusedMs) end
end
return count`;

export async function createRedisFailureBudget(options: RedisFailureBudgetOptions): Promise<ClosableFailureBudget> {
  const { redisUrl, prefix, logger, calls, windowMs, fallbackAfterMs = 100 } = options;
  const { createClient } = await import('@redis/client');
  const client = createClient({
    url: redisUrl,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2000) },
  });
  client.on('error', (err: Error) => logger.debug({ err: err.message }, 'failure budget: redis client error'));
  client.connect().catch(() => undefined); // the client retries for ever; until it is ready, this process counts alone
  const local = new MemoryFailureBudget({ calls, windowMs });
  const failuresKey = (accountId: number) => `${prefix}failures:${accountId}`;
  const refusedKey = (accountId: number) => `${prefix}refused:${accountId}`;
  const shared = async <T>(command: string[]): Promise<T | undefined> => {
    if (!client.isReady) return undefined;
    try {
      return (await withTimeout(client.sendCommand(command), fallbackAfterMs)) as T;
    } catch (err) {
      logger.debug({ err: String(err) }, 'failure budget: Redis did not answer; this process counts alone');
      return undefined;
    }
  };
  return {
    async refusal(accountId) {
      const refusedMs = await shared<number>(['PTTL', refusedKey(accountId)]);
      if (refusedMs === undefined) return local.refusalNow(accountId);
      return refusedMs > 0 ? { retryAfterSeconds: Math.max(1, Math.ceil(refusedMs / 1000)) } : undefined;
    },
    async countFailure(accountId) {
      await local.countFailure(accountId);
      await shared(['EVAL', COUNT_FAILURE, '2', failuresKey(accountId), refusedKey(accountId), String(Date.now()), String(windowMs), String(calls), randomUUID()]);
    },
    async close() {
      local.close();
      if (client.isOpen) await client.close();
      else client.destroy();
    },
  };
}
