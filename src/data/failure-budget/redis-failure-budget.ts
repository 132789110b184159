/**
 * The failure budget shared by every instance, in Redis: per account a sorted set of its
 * failures' times (a sliding log), and a "refused" key that lives exactly as long as the
 * account is past its budget. A failure updates both in one script; asking whether an
 * account is refused is one PTTL, the only Redis command on the path of a call that
 * succeeds, and its answer is kept in this process: a refusal until it ends, "not
 * refused" for `sharedAnswerMs` (1 s) or until this process counts a failure of that
 * account. So another instance's failures reach this one within that second, and a busy
 * account costs Redis one PTTL a second per instance rather than one per call.
 *
 * Redis absent (no REDIS_URL): the composition root uses the in-process budget alone.
 * Redis configured but unavailable (shared-redis.ts's one policy, the rate limit's too):
 * this process's own count answers, which every failure also updates, so an account that
 * failed here is still bounded here; counts of other instances are missed until Redis
 * answers again. A call is never refused because Redis is away.
 */
import { randomUUID } from 'node:crypto';
import type { FailureBudget } from '../../domain/ports';
import type { SharedRedis } from '../redis/shared-redis';
import { MemoryFailureBudget, type FailureBudgetLimits } from './memory-failure-budget';

export interface RedisFailureBudgetOptions extends FailureBudgetLimits {
  redis: SharedRedis;
  /** Prefix of the keys: deployments sharing one Redis share budgets only with the same prefix. */
  prefix: string;
  /** How long Redis's "not refused" for an account is taken as still true. */
  sharedAnswerMs?: number;
}

/** Accounts whose answer is kept; past it the kept answers are forgotten at once (a bound, not a cache policy). */
const MAX_KEPT_ANSWERS = 10_000;

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

export function createRedisFailureBudget(options: RedisFailureBudgetOptions): ClosableFailureBudget {
  const { redis, prefix, calls, windowMs, sharedAnswerMs = 1000 } = options;
  const local = new MemoryFailureBudget({ calls, windowMs });
  /** Account → until when Redis's last answer holds, and until when it refuses the account (0: not refused). */
  const kept = new Map<number, { holdsUntil: number; refusedUntil: number }>();
  const refusalUntil = (refusedUntil: number, now: number) =>
    refusedUntil > now ? { retryAfterSeconds: Math.max(1, Math.ceil((refusedUntil - now) / 1000)) } : undefined;
  const failuresKey = (accountId: number) => `${prefix}failures:${accountId}`;
  const refusedKey = (accountId: number) => `${prefix}refused:${accountId}`;
  /** The command's answer, or undefined while Redis is unavailable: this process counts alone. */
  const shared = <T>(command: string[]): Promise<T | undefined> => redis.orLocal(async () => (await redis.send(command)) as T, () => undefined);
  return {
    async refusal(accountId) {
      // This process's own failures answer first: it never waits on Redis to know what it counted itself.
      const own = local.refusalNow(accountId);
      if (own) return own;
      const now = Date.now();
      const answer = kept.get(accountId);
      if (answer && now < answer.holdsUntil) return refusalUntil(answer.refusedUntil, now);
      const refusedMs = await shared<number>(['PTTL', refusedKey(accountId)]);
      if (refusedMs === undefined) return undefined;
      const refusedUntil = refusedMs > 0 ? now + refusedMs : 0;
      if (kept.size >= MAX_KEPT_ANSWERS) kept.clear();
      kept.set(accountId, { holdsUntil: refusedUntil || now + sharedAnswerMs, refusedUntil });
      return refusalUntil(refusedUntil, now);
    },
    async countFailure(accountId) {
      kept.delete(accountId);
      await local.countFailure(accountId);
      await shared(['EVAL', COUNT_FAILURE, '2', failuresKey(accountId), refusedKey(accountId), String(Date.now()), String(windowMs), String(calls), randomUUID()]);
      kept.delete(accountId); // an answer fetched while the script ran is already stale
    },
    async close() {
      local.close();
    },
  };
}
