/**
 * The line a process prints when it cannot start names the cause, even when the error's own
 * message is empty (src/support/startup-failure.ts).
 */
import { startupFailureLine } from '../../../src/support/startup-failure';

/** What pg gives when every address of DATABASE_URL's host refuses: an AggregateError with no message. */
function refusedEverywhere(): AggregateError {
  const refused = (address: string) => Object.assign(new Error(`connect ECONNREFUSED ${address}:5432`), { code: 'ECONNREFUSED', address, port: 5432 });
  return Object.assign(new AggregateError([refused('::1'), refused('127.0.0.1')]), { code: 'ECONNREFUSED' });
}

test.each([
  ['an AggregateError with an empty message', refusedEverywhere(), 'startup failed: AggregateError (ECONNREFUSED) [Error (ECONNREFUSED): connect ECONNREFUSED ::1:5432; Error (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:5432]'],
  ['an error with a cause', new Error('cannot reach Redis', { cause: Object.assign(new Error('getaddrinfo ENOTFOUND redis'), { code: 'ENOTFOUND' }) }), 'startup failed: Error: cannot reach Redis, caused by Error (ENOTFOUND): getaddrinfo ENOTFOUND redis'],
  ['a thrown string', 'boom', 'startup failed: string: boom'],
])('when start-up fails with %s, then the line names its cause', (_name, err, want) => {
  expect(startupFailureLine('startup failed', err)).toBe(want);
});

test('when the error carries values a driver attached, then the line holds none of them', () => {
  const err = Object.assign(new Error('insert failed'), { code: '23514', detail: 'Failing row contains (Ada Lovelace).', params: ['secret'] });
  expect(startupFailureLine('migrate failed', err)).toBe('migrate failed: Error (23514): insert failed');
});
