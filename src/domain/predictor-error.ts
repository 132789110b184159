/**
 * A predictor call that failed as a whole (HTTP error, timeout, refusal, unparsable
 * output): thrown by the predictors of `src/upstream/`, wrapped by the domain as the
 * contract's 500, and read by the HTTP error mapper for its log line.
 */
/** The call as a whole failed (HTTP error, timeout, refusal, unparsable output). */
export class PredictorError extends Error {
  readonly upstreamStatus: number | undefined;

  constructor(message: string, options: { cause?: unknown; upstreamStatus?: number } = {}) {
    super(message, { cause: options.cause });
    this.name = 'PredictorError';
    this.upstreamStatus = options.upstreamStatus;
  }
}
