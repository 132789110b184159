/**
 * One attempt's bound over its whole answer, from when it is written to its socket
 * (docs/upstream.md, "Transport"): a streamed answer sends its headers at once and then a
 * chunk a token, so undici's bounds (before the headers, between two chunks) no longer
 * bound the attempt. Its signal aborts when the call's does, or `ms` after `start`, with
 * the SDK's own timeout error (retry-policy.ts retries it as a timeout).
 */
import { APIConnectionTimeoutError } from 'openai';

export class AttemptClock {
  private readonly controller = new AbortController();
  readonly signal = this.controller.signal;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly call: AbortSignal) {
    if (call.aborted) this.controller.abort(call.reason);
    else call.addEventListener('abort', this.onCallAbort, { once: true });
  }

  /** Starts the bound (once): the attempt has left the socket queue. */
  start(ms: number): void {
    this.timer ??= setTimeout(() => this.controller.abort(new APIConnectionTimeoutError({ message: `upstream attempt took longer than ${ms} ms` })), ms);
  }

  end(): void {
    clearTimeout(this.timer);
    this.call.removeEventListener('abort', this.onCallAbort);
  }

  private readonly onCallAbort = (): void => this.controller.abort(this.call.reason);
}
