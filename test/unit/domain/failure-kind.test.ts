/** The kind a failed paid call is tallied under (openapi/admin.yaml, `UsageFailures`). */
import { AppError } from '../../../src/domain/app-error';
import { failureKindOf, type FailureKind } from '../../../src/domain/failure-kind';
import { PredictorError } from '../../../src/domain/predictor-error';

const wrapped = (cause: unknown): AppError => new AppError({ kind: 'generation_failed', message: 'Failed to generate snap Please try again later', cause });
const aborted = (): AbortSignal => AbortSignal.abort();

describe('failureKindOf', () => {
  test.each<[string, unknown, { signal?: AbortSignal }, boolean, FailureKind]>([
    ['the call ran out of time', wrapped(new PredictorError('upstream call timed out after 30000 ms', { outage: true, timeout: true })), {}, false, 'upstreamTimeout'],
    ['the upstream answered 503', wrapped(new PredictorError('upstream answered HTTP 503', { upstreamStatus: 503, outage: true })), {}, false, 'upstreamOutage'],
    ['the upstream could not be reached', wrapped(new PredictorError('upstream could not be reached', { outage: true })), {}, false, 'upstreamOutage'],
    ['the upstream refused the request with 400', wrapped(new PredictorError('upstream answered HTTP 400', { upstreamStatus: 400 })), {}, false, 'upstreamRefused'],
    ['the model refused to answer', wrapped(new PredictorError('upstream model refused to answer')), {}, false, 'unusableAnswer'],
    ["the service's checks refused the answer", new AppError({ kind: 'generation_failed', message: 'Failed to generate snap Please try again later' }), {}, false, 'unusableAnswer'],
    ['the answer could not be stored', new Error('connection terminated'), {}, true, 'notStored'],
    ['the client left during the upstream call', wrapped(new PredictorError('upstream call was aborted by the caller')), { signal: aborted() }, false, 'clientLeft'],
    ['the client left before the store', new Error('no matter'), { signal: aborted() }, true, 'clientLeft'],
  ])('when %s, then it is tallied as that kind', (_name, error, context, answered, kind) => {
    expect(failureKindOf(error, context, answered)).toBe(kind);
  });
});
