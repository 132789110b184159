/**
 * The failover between a shared store (Redis) and an in-process one, as a small state
 * machine that knows nothing of Redis: `primary` is used while it answers in time,
 * `fallback` otherwise, and `primary` is attached again in the background.
 *
 * - Detached (the start, and after an error): every call goes to `fallback`; an attempt
 *   to attach `primary` runs every `retryEveryMs` until one succeeds.
 * - Shared (after a successful attach): every call goes to `primary`; an answer slower
 *   than `fallbackAfterMs` counts that one call in `fallback` (the state stays shared);
 *   an error counts it in `fallback` and detaches.
 * Each change of state is logged once.
 */
import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import type { Logger } from '../../support/logger';
import { TimeoutError, withTimeout } from '../../support/with-timeout';

export interface FailoverOptions {
  prefix: string;
  /** A `primary` answer slower than this counts that call in `fallback`. */
  fallbackAfterMs: number;
  /** Delay between attempts to attach `primary` while it is detached. */
  retryEveryMs: number;
  logger: Pick<Logger, 'warn'>;
  /** One bounded attempt to make `primary` usable (connect, load scripts); rejects if it is not. */
  attach: () => Promise<void>;
}

export class FailoverStore implements Store {
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
    this.retryTimer = undefined;
    void this.fallback.shutdown?.();
  }

  private async withFallback<T>(call: (store: Store) => Promise<T> | T): Promise<T> {
    if (!this.shared) return call(this.fallback);
    try {
      return await withTimeout(Promise.resolve(call(this.primary)), this.options.fallbackAfterMs);
    } catch (err) {
      // A slow answer costs only this call its shared count; an error means `primary` is gone.
      if (!(err instanceof TimeoutError)) this.useFallback(err);
      return call(this.fallback);
    }
  }

  private useShared(): void {
    if (this.closed) return;
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
