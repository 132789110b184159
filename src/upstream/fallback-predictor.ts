/**
 * A Predictor made of two: the primary answers; when it fails (any PredictorError:
 * connection error, timeout, 429, 5xx, unusable or truncated output), the same request
 * goes to the fallback. Both run under one deadline, `timeoutMs`, the whole call's
 * bound: the primary is built with its share of it (config/time-budget.ts), the fallback
 * gets what is left. A circuit breaker skips a primary that keeps failing, so an outage does not
 * cost each request the primary's timeout; once its cool-down has passed, one trial call
 * tries the primary again while the others keep going to the fallback. A call the
 * caller aborted, or whose whole time ran out, is not passed to the fallback. A call whose
 * whole time ran out is a timeout, an outage: the upstream running then saw only its own
 * caller (this deadline) abort, which it cannot tell from a client that left.
 */
import { CallDeadline } from './call-deadline';
import type { CircuitBreaker } from './circuit-breaker';
import { PredictorError } from '../domain/predictor-error';
import type { PredictContext, Predictor } from '../domain/ports';

export interface FallbackOptions {
  primary: Predictor;
  fallback: Predictor;
  breaker: CircuitBreaker;
  /** The whole call's bound, per operation. */
  timeoutMs: { readonly [operation in keyof Predictor]: number };
}

export function withFallback(options: FallbackOptions): Predictor {
  async function call<T>(operation: keyof Predictor, context: PredictContext, run: (predictor: Predictor, context: PredictContext) => Promise<T>): Promise<T> {
    const deadline = new CallDeadline(options.timeoutMs[operation], context.signal);
    const bounded: PredictContext = { ...context, signal: deadline.signal };
    try {
      const entry = options.breaker.enter();
      if (entry !== 'skip') {
        try {
          const result = await run(options.primary, bounded);
          options.breaker.succeeded();
          return result;
        } catch (error) {
          if (deadline.signal.aborted) {
            if (entry === 'trial') options.breaker.trialAbandoned();
            throw error;
          }
          options.breaker.failed(entry);
        }
      }
      return await run(options.fallback, bounded);
    } catch (error) {
      if (deadline.expired) throw PredictorError.timedOut(deadline.timeoutMs);
      throw error;
    } finally {
      deadline.end();
    }
  }
  return {
    predictSnap: (subject, context) => call('predictSnap', context, (predictor, bounded) => predictor.predictSnap(subject, bounded)),
    analyseComms: (request, context) => call('analyseComms', context, (predictor, bounded) => predictor.analyseComms(request, bounded)),
  };
}
