import { APIError } from 'openai';
import { attemptFailure } from '../../../../src/upstream/openai/attempt-failure';
import { mayPass } from '../../../../src/upstream/openai/retry-policy';

describe('attemptFailure', () => {
  test('when the server says x-should-retry: false, then the failure is final and marked as its pushback (which the retry throttle counts)', () => {
    const error = APIError.generate(503, undefined, 'down', new Headers({ 'x-should-retry': 'false' }));
    expect(attemptFailure(error)).toEqual({ kind: 'final', pushedBack: true });
  });

  test('when a 503 comes without that hint, then it is a status a retry may pass', () => {
    const error = APIError.generate(503, undefined, 'down', new Headers({ 'retry-after-ms': '250' }));
    expect(attemptFailure(error)).toEqual({ kind: 'status', status: 503, retryAfterMs: 250, quotaExhausted: false });
  });

  test('when an error event in a streamed answer failed the attempt, then a retry may pass it, as it may a 5xx', () => {
    // As stream-completion.ts (and the SDK's own stream) reads `data: {"error": {…}}`: an APIError without a status.
    const error = new APIError(undefined, { message: 'The server had an error', type: 'server_error' }, undefined, new Headers());
    expect(mayPass(attemptFailure(error))).toBe(true);
  });
});
