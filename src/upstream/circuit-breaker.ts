/**
 * Skips an upstream that keeps failing. Closed: every call tries it. After `failures`
 * failures in a row it opens: calls skip it for `cooldownMs`. Then it is half-open:
 * exactly one call, the trial, tries it while the others still skip it; the trial's
 * success closes the breaker, its failure opens it for another cool-down, and a trial
 * that ended neither way (the caller gave up) lets the next call be the trial.
 */
export interface CircuitBreakerOptions {
  failures: number;
  cooldownMs: number;
  now?: () => number;
  /** Told of each call that skips the upstream (for its metric). */
  onSkip?: () => void;
}

export type BreakerState = 'closed' | 'open' | 'half-open';
/** What a call may do: go (closed), go as the one trial (half-open), or skip the upstream. */
export type Entry = 'pass' | 'trial' | 'skip';

export class CircuitBreaker {
  private consecutiveFailures = 0;
  private openUntil = 0;
  private trialInFlight = false;
  private readonly now: () => number;

  constructor(private readonly options: CircuitBreakerOptions) {
    this.now = options.now ?? Date.now;
  }

  get state(): BreakerState {
    if (this.consecutiveFailures < this.options.failures) return 'closed';
    return this.now() < this.openUntil ? 'open' : 'half-open';
  }

  /** Whether this call may go to the upstream; the first call after the cool-down is the trial. */
  enter(): Entry {
    const state = this.state;
    if (state === 'closed') return 'pass';
    if (state === 'open' || this.trialInFlight) {
      this.options.onSkip?.();
      return 'skip';
    }
    this.trialInFlight = true;
    return 'trial';
  }

  succeeded(): void {
    this.consecutiveFailures = 0;
    this.openUntil = 0;
    this.trialInFlight = false;
  }

  /**
   * A call that went to the upstream failed (`entry`, what `enter` gave it). The trial's
   * failure opens the breaker for another cool-down. A call let through before the breaker
   * opened and failing later neither ends the trial nor pushes the cool-down back.
   */
  failed(entry: Exclude<Entry, 'skip'>): void {
    this.consecutiveFailures += 1;
    if (entry === 'trial' || this.consecutiveFailures === this.options.failures) this.openUntil = this.now() + this.options.cooldownMs;
    if (entry === 'trial') this.trialInFlight = false;
  }

  /** The trial ended without telling whether the upstream works (its caller gave up). */
  trialAbandoned(): void {
    this.trialInFlight = false;
  }
}
