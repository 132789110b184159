/**
 * The failover between a shared store (Redis) and an in-process one, as a small state
 * machine that knows nothing of Redis: `primary` is used while it is alive, `fallback`
 * while it is not, and `primary` is attached again in the background.
 *
 * - Detached (the start, and after a failure): every call goes to `fallback`; an attempt
 *   to attach `primary` runs every `retryEveryMs` until one succeeds.
 * - Shared (after a successful attach): every call goes to `primary` and is judged by
 *   its count alone, however slowly it answers: a slow but alive Redis is never bypassed
 *   (a call counted in the process while its count also lands in Redis would be judged
 *   against the wrong count). Only a failure detaches: an error, or no answer within
 *   `detachAfterMs` (then that call counts in `fallback`). While shared, `check` (PING)
 *   runs every `checkEveryMs`, so an idle process notices a dead Redis too.
 * Timeouts count only time in which the event loop could read the answer
 * (support/with-timeout.ts), so a busy process does not detach a Redis that answered.
 * Each change of state is logged once.
 */
import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import type { Logger } from '../../support/logger';
import { withTimeoutAfterIo } from '../../support/with-timeout';

export interface FailoverOptions {
  prefix: string;
  /** A `primary` that has not answered a call (or a check) within this is taken for dead. */
  detachAfterMs: number;
  /** Delay between attempts to attach `primary` while it is detached. */
  retryEveryMs: number;
  /** Delay between checks of `primary` while it is shared. */
  checkEveryMs: number;
  logger: Pick<Logger, 'warn'>;
  /** One bounded attempt to make `primary` usable (connect, load scripts); rejects if it is not. */
  attach: () => Promise<void>;
  /** Whether `primary` answers (PING); rejects if it does not. */
  check: () => Promise<unknown>;
}

export class FailoverStore implements Store {
  readonly localKeys = false;
  readonly prefix: string;
  private shared = false;
  /** Set once anything was said, so each change is logged once. */
  private announced = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private checkTimer: NodeJS.Timeout | undefined;
  private attaching: Promise<void> | undefined;
  private checking: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly primary: Store,
    private readonly fallback: Store,
    private readonly options: FailoverOptions,
  ) {
    this.prefix = options.prefix;
  }

  isShared(): boolean {
    return this.shared;
  }

  /** One attempt to use `primary` (concurrent calls share it); on failure, uses `fallback` and schedules the next. Never rejects. */
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

  /**
   * Asks `primary` whether it answers (concurrent calls share one check); a failure
   * detaches it and rejects. Rejects at once while detached.
   */
  check(): Promise<void> {
    if (!this.shared) return Promise.reject(new Error('the rate limit is counted in this process: Redis has not answered since it failed'));
    this.checking ??= withTimeoutAfterIo(Promise.resolve().then(this.options.check), this.options.detachAfterMs)
      .then(
        () => undefined,
        (err: unknown) => {
          this.useFallback(err);
          throw err;
        },
      )
      .finally(() => {
        this.checking = undefined;
      });
    return this.checking;
  }

  /** express-rate-limit's call: `primary` is initialised by `options.attach`, with the same window. */
  init(options: Options): void {
    this.fallback.init?.(options);
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    return this.withFallback((store) => store.increment(key));
  }

  async decrement(key: string): Promise<void> {
    return this.withFallback((store) => store.decrement(key));
  }

  async resetKey(key: string): Promise<void> {
    return this.withFallback((store) => store.resetKey(key));
  }

  shutdown(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.checkTimer);
    this.retryTimer = undefined;
    this.checkTimer = undefined;
    void this.fallback.shutdown?.();
  }

  private async withFallback<T>(call: (store: Store) => Promise<T> | T): Promise<T> {
    if (!this.shared) return call(this.fallback);
    try {
      return await withTimeoutAfterIo(Promise.resolve(call(this.primary)), this.options.detachAfterMs);
    } catch (err) {
      this.useFallback(err);
      return call(this.fallback);
    }
  }

  private useShared(): void {
    if (this.closed) return;
    if (!this.shared && this.announced) this.options.logger.warn('rate limit store: Redis answers again, using the shared limit');
    this.shared = true;
    this.announced = true;
    this.scheduleCheck();
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
    clearTimeout(this.checkTimer);
    this.checkTimer = undefined;
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

  private scheduleCheck(): void {
    if (this.closed || this.checkTimer) return;
    this.checkTimer = setTimeout(() => {
      this.checkTimer = undefined;
      this.check().then(
        () => this.scheduleCheck(),
        () => undefined, // detached: attach() takes over
      );
    }, this.options.checkEveryMs);
    this.checkTimer.unref();
  }
}
