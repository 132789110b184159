/**
 * A bound on one upstream's retries across every call of the process, both operations
 * together: gRPC's retry throttling (gRFC A6, "Retry Throttling"), with its example
 * settings. Each attempt that failed in a way a retry could pass, or whose server pushed
 * back (`x-should-retry: false`), takes a token; each answered attempt gives back a tenth
 * of one; a retry is made only while more than half the tokens are left. A few failures
 * among answers are retried as before; when about one attempt in ten fails or worse (an
 * overloaded or failing upstream), retries stop, rather than adding up to
 * `OPENAI_MAX_RETRIES` more requests per call, each paid for, to the load that made them
 * fail. They resume as answers come back: 51 after a full outage. Counted in thousandths
 * of a token, as grpc-core does, so that ten answers give back exactly one.
 */
import { mayPass, type AttemptFailure } from './retry-policy';

const MILLI = 1000;
export const RETRY_TOKENS = 10;
export const TOKENS_PER_ANSWER = 0.1;

export class RetryThrottle {
  private milliTokens = RETRY_TOKENS * MILLI;

  /** An attempt got an answer. */
  answered(): void {
    this.milliTokens = Math.min(RETRY_TOKENS * MILLI, this.milliTokens + TOKENS_PER_ANSWER * MILLI);
  }

  /** An attempt failed: a token is taken when a retry could have passed, or the server pushed back. */
  failed(failure: AttemptFailure): void {
    if (mayPass(failure) || (failure.kind === 'final' && failure.pushedBack === true)) this.milliTokens = Math.max(0, this.milliTokens - MILLI);
  }

  get allowsRetry(): boolean {
    return this.milliTokens > (RETRY_TOKENS * MILLI) / 2;
  }
}
