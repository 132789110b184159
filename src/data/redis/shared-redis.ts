/**
 * The one Redis client (REDIS_URL) and the one availability policy of everything the
 * service counts there: the rate limit and the failure budget (why: docs/decisions.md).
 *
 * - Available: every count is asked of Redis and judged by its answer, however slowly it
 *   comes within `answerWithinMs` (a slow Redis that answers is the count).
 * - Unavailable after any failure: an error, a dropped connection (the client refuses
 *   commands at once while it reconnects: no offline queue), or no answer within
 *   `answerWithinMs`, timed only after the event loop has read its I/O, so a busy
 *   process does not take its own lag for a silent Redis (withTimeoutAfterIo). That call,
 *   and every one after it, is answered by this process's own count, without waiting.
 * - Back: the client reconnects on its own (its reconnect strategy); every `everyMs` a
 *   PING (and, while Redis is unavailable, a write of `writeProbeKey` and the users' setup
 *   such as loading scripts) decides. So an idle process notices a dead Redis too, a Redis
 *   that answers again is used again within `everyMs`, and one that answers but refuses
 *   writes (a replica after a failover: READONLY; a failed snapshot: MISCONF) stays
 *   unavailable instead of coming back each second to fail the next count. Each change is
 *   logged once.
 * - Closing waits `answerWithinMs` at most for what is queued, then drops the connection:
 *   a silent Redis must not keep a shutdown from ending.
 */
import type { RedisClientType } from '@redis/client';
import type { Logger } from '../../support/logger';
import { withTimeout, withTimeoutAfterIo } from '../../support/with-timeout';

export interface SharedRedis {
  /** True while counts are kept in Redis, shared by every instance. */
  available(): boolean;
  /** `call` (made of `send`s) while Redis is available; else, or when `call` fails, `local()`: never rejects because of Redis. */
  orLocal<T>(call: () => Promise<T>, local: () => T | Promise<T>): Promise<T>;
  /** One command, as is: only inside `orLocal` or a setup, which judge its outcome. */
  send(args: string[]): Promise<unknown>;
  /** Resolves while Redis is available and answers PING (readiness); rejects otherwise. */
  check(): Promise<void>;
  /** What must run before Redis is used, at start and at each return (e.g. SCRIPT LOAD). Add before `start`. */
  onAttach(setup: () => Promise<unknown>): void;
  /** One attempt to use Redis, bounded by `answerWithinMs`; then the background checks begin. Never rejects. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** What follows the deployment's prefix in the write probe's key. */
export const WRITE_PROBE_KEY = 'redis-writable';

export interface SharedRedisOptions {
  url: string;
  logger: Logger;
  /** A key of this deployment's (its prefix) that a write probe sets, for a moment, before Redis is used again. */
  writeProbeKey: string;
  /** A call, PING or setup not answered within this makes Redis unavailable. */
  answerWithinMs?: number;
  /** Delay between PINGs (and attempts to use Redis again while it is unavailable). */
  everyMs?: number;
}

export function createSharedRedis(options: SharedRedisOptions): SharedRedis {
  const { url, logger, writeProbeKey, answerWithinMs = 2000, everyMs = 1000 } = options;
  let client: RedisClientType | undefined;
  const setups: Array<() => Promise<unknown>> = [];
  let up = false;
  /** Set once anything was said, so each change is logged once. */
  let announced = false;
  let attaching: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const bounded = <T>(call: Promise<T>) => withTimeoutAfterIo(call, answerWithinMs);
  const down = (err: unknown) => {
    if ((up || !announced) && !closed) {
      logger.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'Redis unavailable, using the in-process limit and failure budget until it answers',
      );
    }
    up = false;
    announced = true;
  };
  const send = (args: string[]): Promise<unknown> => (client ? client.sendCommand(args) : Promise.reject(new Error('Redis is not started')));
  const ping = () =>
    bounded(send(['PING'])).then(
      () => undefined,
      (err: unknown) => {
        down(err);
        throw err;
      },
    );
  const attach = () => {
    attaching ??= (async () => {
      await bounded(send(['PING']));
      await bounded(send(['SET', writeProbeKey, '1', 'PX', String(everyMs)]));
      // Afresh at every return: a Redis that restarted has lost its scripts.
      for (const setup of setups) await bounded(setup());
    })()
      .then(
        () => {
          if (!up && announced) logger.warn('Redis answers again: the rate limit and the failure budget are shared again');
          up = true;
          announced = true;
        },
        down,
      )
      .finally(() => {
        attaching = undefined;
      });
    return attaching;
  };

  return {
    available: () => up,
    async orLocal(call, local) {
      if (!up) return local();
      try {
        return await bounded(call());
      } catch (err) {
        down(err);
        return local();
      }
    },
    send,
    check: () => (up ? ping() : Promise.reject(new Error('Redis has not answered since it failed: counts are kept in this process'))),
    onAttach: (setup) => setups.push(setup),
    async start() {
      // Loaded only here: the embedded default starts without it (a tenth of a second of start-up).
      const { createClient } = await import('@redis/client');
      if (closed) return;
      client = createClient({
        url,
        disableOfflineQueue: true,
        // No timer of the client's own per command (an AbortSignal.timeout that fires after
        // each answer): every call is bounded by `answerWithinMs` above, which decides.
        commandOptions: { timeout: 0 },
        socket: { connectTimeout: answerWithinMs, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2000) },
      });
      client.on('error', (err: Error) => logger.debug({ err: err.message }, 'redis client error'));
      // Settles only once connected (the client retries for ever): never awaited unbounded.
      const connecting = client.connect();
      connecting.catch(() => undefined);
      await withTimeout(connecting, answerWithinMs).then(attach, down);
      if (closed) return;
      timer = setInterval(() => void (up ? ping().catch(() => undefined) : attach()), everyMs);
      timer.unref();
    },
    async close() {
      closed = true;
      up = false;
      clearInterval(timer);
      if (!client) return;
      const open = client;
      if (open.isOpen) await withTimeout(open.close(), answerWithinMs).catch(() => open.destroy());
      else open.destroy();
    },
  };
}
