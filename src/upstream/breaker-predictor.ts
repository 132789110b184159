/**
 * The primary upstream alone (no fallback configured) behind a circuit breaker: after
 * `OPENAI_BREAKER_FAILURES` outages in a row (a timeout, a connection error, a 5xx or 429
 * once its retries are spent: `PredictorError.outage`), calls fail at once, as the same
 * outage, for the cool-down. Each would otherwise hold its caller, a request slot and a
 * socket for the upstream's whole time bound, and keep calling an upstream that is down.
 * Then one call, the trial, tries the upstream while the others still fail at once.
 *
 * Only outages open it: an answer the service could not use (a refusal, unparsable or
 * truncated output) came from an upstream that is up, and ends the run of outages. A call
 * its caller gave up on, or that failed in the service's own code, tells nothing either way. With a fallback, `fallback-predictor.ts`
 * uses the breaker instead, to skip to the fallback.
 */
import type { CircuitBreaker } from './circuit-breaker';
import { PredictorError } from '../domain/predictor-error';
import type { PredictContext, Predictor } from '../domain/ports';

/** The skipped call's error message (logged, never sent: the caller gets the contract's 500). */
export const UPSTREAM_SKIPPED = 'the upstream was skipped: it failed its last calls in a row, and its cool-down has not passed';

export function withBreaker(predictor: Predictor, breaker: CircuitBreaker): Predictor {
  async function call<T>(context: PredictContext, run: () => Promise<T>): Promise<T> {
    const entry = breaker.enter();
    if (entry === 'skip') throw new PredictorError(UPSTREAM_SKIPPED, { outage: true });
    try {
      const result = await run();
      breaker.succeeded();
      return result;
    } catch (error) {
      if (context.signal?.aborted === true) {
        if (entry === 'trial') breaker.trialAbandoned();
      } else if (error instanceof PredictorError) {
        if (error.outage) breaker.failed();
        else breaker.succeeded();
      } else if (entry === 'trial') {
        breaker.trialAbandoned();
      }
      throw error;
    }
  }
  return {
    predictSnap: (subject, context) => call(context, () => predictor.predictSnap(subject, context)),
    analyseComms: (request, context) => call(context, () => predictor.analyseComms(request, context)),
  };
}
