/**
 * The primary upstream alone (no fallback configured) behind a circuit breaker: after
 * `OPENAI_BREAKER_FAILURES` outages in a row (`PredictorError.outage`: a timeout, a
 * connection error, a status the request did not cause, such as a 5xx or 429 once its
 * retries are spent, or an error event in a streamed answer), calls fail at once, as the
 * same outage, for the cool-down. Each would otherwise hold its caller, a request slot and
 * a socket for the upstream's whole time bound, and keep calling an upstream that is down.
 * Then one call, the trial, tries the upstream while the others still fail at once.
 *
 * Only outages open it: an answer the service could not use (a refusal, unparsable or
 * truncated output) came from an upstream that is up, and ends the run of outages. A call
 * its caller gave up on counts as an outage when one of its attempts had already failed,
 * and otherwise, like a call that failed in the service's own code, tells nothing. With a
 * fallback, `fallback-predictor.ts` uses the breaker instead, to skip to the fallback.
 */
import type { CircuitBreaker } from './circuit-breaker';
import { PredictorError } from '../domain/predictor-error';
import type { PredictContext, Predictor } from '../domain/ports';

/** The skipped call's error message (logged, never sent: the caller gets the contract's 500). */
export const UPSTREAM_SKIPPED = 'the upstream was skipped: it failed its last calls in a row, and its cool-down has not passed';

export function withBreaker(predictor: Predictor, breaker: CircuitBreaker): Predictor {
  async function call<T>(context: PredictContext, run: (watched: PredictContext) => Promise<T>): Promise<T> {
    const entry = breaker.enter();
    if (entry === 'skip') throw new PredictorError(UPSTREAM_SKIPPED, { outage: true });
    // An attempt that failed before the caller left was retried, and only outages are
    // (retry-policy.ts): a hanging upstream still counts when clients give up before the
    // call's own bound.
    let failedBeforeLeaving = false;
    const watched: PredictContext = {
      ...context,
      onSpend: (spend) => {
        if (spend.outcome === 'failure' && context.signal?.aborted !== true) failedBeforeLeaving = true;
        context.onSpend?.(spend);
      },
    };
    try {
      const result = await run(watched);
      breaker.succeeded();
      return result;
    } catch (error) {
      const outage = error instanceof PredictorError && (context.signal?.aborted === true ? failedBeforeLeaving : error.outage);
      if (outage) breaker.failed(entry);
      else if (error instanceof PredictorError && context.signal?.aborted !== true) breaker.succeeded();
      else if (entry === 'trial') breaker.trialAbandoned();
      throw error;
    }
  }
  return {
    predictSnap: (subject, context) => call(context, (watched) => predictor.predictSnap(subject, watched)),
    analyseComms: (request, context) => call(context, (watched) => predictor.analyseComms(request, watched)),
  };
}
