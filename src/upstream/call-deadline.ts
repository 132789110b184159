/**
 * One upstream call's deadline joined with its caller's signal: one AbortController
 * and one timer, both let go as soon as the call ends (`end()`).
 *
 * `AbortSignal.timeout` keeps its timer, and its signal, for the whole timeout even
 * after the call has ended, and `AbortSignal.any` adds a composite signal tracked
 * through weak references: with thousands of calls in flight, both cost memory and
 * CPU that buy nothing.
 */
export class CallDeadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly startedAt = Date.now();
  private timedOut = false;

  constructor(
    readonly timeoutMs: number,
    private readonly caller: AbortSignal | undefined,
  ) {
    this.signal = this.controller.signal;
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new DOMException(`The call took longer than ${timeoutMs} ms`, 'TimeoutError'));
    }, timeoutMs);
    if (caller?.aborted) this.controller.abort(caller.reason);
    else caller?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  /**
   * Whether the deadline passed (rather than the caller aborting): its timer fired, or its
   * time is up while the timer still waits for a busy event loop. An attempt that fails then
   * failed for lack of time (the SDK's own bound is the time left), whatever error it shows.
   */
  get expired(): boolean {
    return this.timedOut || (this.caller?.aborted !== true && this.remainingMs() === 0);
  }

  /** Whether the caller aborted before the deadline passed. */
  get callerAborted(): boolean {
    return !this.timedOut && this.caller?.aborted === true;
  }

  /** The time left before the deadline passes (0 once it has). */
  remainingMs(): number {
    return Math.max(0, this.timeoutMs - (Date.now() - this.startedAt));
  }

  end(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }

  private readonly onCallerAbort = (): void => this.controller.abort(this.caller?.reason);
}
