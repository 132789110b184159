/**
 * A bound on one upstream's retries across every call of the process: gRPC's retry
 * throttling (gRFC A6, "Retry Throttling"), with its example settings. Each attempt that
 * failed in a way a retry could help takes a token, each answered attempt gives back a
 * tenth of one, and a retry is made only while more than half the tokens are left. A few
 * failures among answers are retried as before; when about one attempt in ten fails or
 * worse (an overloaded or failing upstream), retries stop, rather than adding up to
 * `OPENAI_MAX_RETRIES` more requests per call to the load that made them fail, each paid
 * for. They resume as answers come back.
 */
export const RETRY_TOKENS = 10;
export const TOKENS_PER_ANSWER = 0.1;

export class RetryThrottle {
  private tokens = RETRY_TOKENS;

  /** An attempt got an answer. */
  answered(): void {
    this.tokens = Math.min(RETRY_TOKENS, this.tokens + TOKENS_PER_ANSWER);
  }

  /** An attempt failed in a way a retry could help (retry-policy.ts's `mayPass`). */
  failed(): void {
    this.tokens = Math.max(0, this.tokens - 1);
  }

  get allowsRetry(): boolean {
    return this.tokens > RETRY_TOKENS / 2;
  }
}
