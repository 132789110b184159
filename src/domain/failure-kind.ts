/**
 * The kinds of a paid call's failure, as the usage view counts them (openapi/admin.yaml,
 * `UsageFailures`, which says what each means). Read from the error the call failed with
 * and the step it failed at; the error itself (its message, its cause) is never stored.
 */
import { AppError } from './app-error';
import { PredictorError } from './predictor-error';

export const FAILURE_KINDS = ['upstreamOutage', 'upstreamTimeout', 'upstreamRefused', 'unusableAnswer', 'clientLeft', 'notStored'] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** `answered`: the prediction was judged usable and only its storing (and charge) failed. */
export function failureKindOf(error: unknown, context: { signal?: AbortSignal }, answered: boolean): FailureKind {
  if (context.signal?.aborted) return 'clientLeft';
  if (answered) return 'notStored';
  const cause = error instanceof AppError ? error.cause : error;
  if (!(cause instanceof PredictorError)) return 'unusableAnswer';
  if (cause.timeout) return 'upstreamTimeout';
  if (cause.outage) return 'upstreamOutage';
  return cause.upstreamStatus === undefined ? 'unusableAnswer' : 'upstreamRefused';
}
