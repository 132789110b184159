/**
 * A predictor call that failed as a whole (HTTP error, timeout, refusal, unparsable
 * output): thrown by the predictors of `src/upstream/`, wrapped by the domain as the
 * contract's 500, and read by the HTTP error mapper for its log line.
 */
/** The call as a whole failed (HTTP error, timeout, refusal, unparsable output). */
export class PredictorError extends Error {
  readonly upstreamStatus: number | undefined;
  /**
   * The upstream failed, not the request: a timeout, a connection error, a 5xx, 429 or
   * another status the request did not cause, an error event in a streamed answer or an
   * answer without a single event. The circuit breaker's business, never the
   * caller's failure budget (docs/decisions.md).
   */
  readonly outage: boolean;
  /** The outage was the call's time bound running out (the usage view's `upstreamTimeout`). */
  readonly timeout: boolean;

  constructor(message: string, options: { cause?: unknown; upstreamStatus?: number; outage?: boolean; timeout?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.name = 'PredictorError';
    this.upstreamStatus = options.upstreamStatus;
    this.outage = options.outage ?? false;
    this.timeout = options.timeout ?? false;
  }

  /** The whole call's time bound, `timeoutMs`, ran out: an outage. */
  static timedOut(timeoutMs: number): PredictorError {
    return new PredictorError(`upstream call timed out after ${timeoutMs} ms`, { outage: true, timeout: true });
  }
}
