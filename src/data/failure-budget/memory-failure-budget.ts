/**
 * The failure budget counted in this process: per account, the times of its failed
 * calls within the window (a sliding log). Used alone without REDIS_URL, and beside
 * Redis as the count that answers while Redis does not.
 */
import type { FailureBudget } from '../../domain/ports';

export interface FailureBudgetLimits {
  /** Failed calls allowed within the window; past it, calls are refused. */
  calls: number;
  windowMs: number;
}

export class MemoryFailureBudget implements FailureBudget {
  /** Account → times (ms) of its failures within the window, oldest first. */
  private readonly failures = new Map<number, number[]>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly limits: FailureBudgetLimits,
    private readonly now: () => number = Date.now,
  ) {
    // Accounts whose failures all left the window are forgotten, so the map stays as small as the failing accounts.
    this.sweeper = setInterval(() => this.sweep(), limits.windowMs);
    this.sweeper.unref();
  }

  async refusal(accountId: number): Promise<{ retryAfterSeconds: number } | undefined> {
    return this.refusalNow(accountId);
  }

  async countFailure(accountId: number): Promise<void> {
    const times = this.recent(accountId);
    times.push(this.now());
    this.failures.set(accountId, times);
  }

  /** Synchronous: the Redis budget asks it when Redis does not answer. */
  refusalNow(accountId: number): { retryAfterSeconds: number } | undefined {
    const times = this.recent(accountId);
    if (times.length < this.limits.calls) return undefined;
    // Calls are accepted again once the count drops below the budget: when this failure leaves the window.
    const freeing = times[times.length - this.limits.calls] ?? this.now();
    return { retryAfterSeconds: Math.max(1, Math.ceil((freeing + this.limits.windowMs - this.now()) / 1000)) };
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  private recent(accountId: number): number[] {
    const times = this.failures.get(accountId);
    if (!times) return [];
    const since = this.now() - this.limits.windowMs;
    const first = times.findIndex((time) => time > since);
    if (first === -1) {
      this.failures.delete(accountId);
      return [];
    }
    if (first > 0) times.splice(0, first);
    return times;
  }

  private sweep(): void {
    for (const accountId of this.failures.keys()) this.recent(accountId);
  }
}
