/**
 * Skips an upstream that keeps failing: after `failures` failures in a row it is open
 * (calls skip the upstream) for `cooldownMs`; after that the next calls try it again,
 * and a success closes it while one more failure opens it for another cool-down.
 */
export interface CircuitBreakerOptions {
  failures: number;
  cooldownMs: number;
  now?: () => number;
}

export class CircuitBreaker {
  private consecutiveFailures = 0;
  private openUntil = 0;
  private readonly now: () => number;

  constructor(private readonly options: CircuitBreakerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Whether a call may go to the upstream now. */
  allows(): boolean {
    return this.now() >= this.openUntil;
  }

  succeeded(): void {
    this.consecutiveFailures = 0;
    this.openUntil = 0;
  }

  failed(): void {
    this.consecutiveFailures += 1;
    if (this.consecutiveFailures >= this.options.failures) this.openUntil = this.now() + this.options.cooldownMs;
  }
}
