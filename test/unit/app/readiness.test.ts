import { checkReadiness, type Probe, type Probes } from '../../../src/app/readiness';

const ok = async () => undefined;
const refused = async () => {
  throw new Error('connect ECONNREFUSED');
};
const hangs = () => new Promise<never>(() => undefined);
const throwsAtOnce = () => {
  throw new Error('not connected');
};
const required = (check: Probe['check']): Probe => ({ check });
const optional = (check: Probe['check']): Probe => ({ check, optional: true });

describe('checkReadiness', () => {
  test.each<[string, { given: Probes; want: object }]>([
    ['every probe answers', { given: { postgresql: required(ok), redis: optional(ok) }, want: { status: 'ok', checks: { postgresql: 'ok', redis: 'ok' } } }],
    ['there is no Redis to probe', { given: { postgresql: required(ok) }, want: { status: 'ok', checks: { postgresql: 'ok' } } }],
    ['an optional probe is refused', { given: { postgresql: required(ok), redis: optional(refused) }, want: { status: 'degraded', checks: { postgresql: 'ok', redis: 'degraded' } } }],
    ['a required probe is refused', { given: { postgresql: required(refused), redis: optional(ok) }, want: { status: 'unavailable', checks: { postgresql: 'unavailable', redis: 'ok' } } }],
    ['a required probe hangs', { given: { postgresql: required(hangs), redis: optional(ok) }, want: { status: 'unavailable', checks: { postgresql: 'unavailable', redis: 'ok' } } }],
    ['both fail', { given: { postgresql: required(hangs), redis: optional(refused) }, want: { status: 'unavailable', checks: { postgresql: 'unavailable', redis: 'degraded' } } }],
    ['an optional probe throws before it starts', { given: { postgresql: required(ok), redis: optional(throwsAtOnce) }, want: { status: 'degraded', checks: { postgresql: 'ok', redis: 'degraded' } } }],
  ])('when %s, then the answer says so', async (_name, { given, want }) => {
    expect(await checkReadiness(given, { timeoutMs: 50 })).toEqual(want);
  });

  test('when a probe hangs, then the answer comes when the timeout passes, not later', async () => {
    // Fake timers: the timeout's own timer decides, not the machine's speed (no elapsed time asserted).
    jest.useFakeTimers();
    try {
      let answer: unknown;
      const answered = checkReadiness({ postgresql: required(hangs) }, { timeoutMs: 50 }).then((readiness) => (answer = readiness));
      await jest.advanceTimersByTimeAsync(49);
      expect(answer).toBeUndefined();
      await jest.advanceTimersByTimeAsync(1);
      await answered;
      expect(answer).toEqual({ status: 'unavailable', checks: { postgresql: 'unavailable' } });
    } finally {
      jest.useRealTimers();
    }
  });

  test('when a probe fails, then onFailure is told which and why', async () => {
    const failures: Array<[string, string]> = [];
    await checkReadiness({ postgresql: required(ok), redis: optional(refused) }, { onFailure: (check, err) => failures.push([check, String(err)]) });
    expect(failures).toEqual([['redis', 'Error: connect ECONNREFUSED']]);
  });
});
