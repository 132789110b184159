import { checkReadiness, type Probes } from '../../src/readiness';

const ok = async () => undefined;
const refused = async () => {
  throw new Error('connect ECONNREFUSED');
};
const hangs = () => new Promise<never>(() => undefined);
const throwsAtOnce = () => {
  throw new Error('not connected');
};

describe('checkReadiness', () => {
  test.each<[string, { given: Probes; want: object }]>([
    ['every probe answers', { given: { postgresql: ok, redis: ok }, want: { status: 'ok', checks: { postgresql: 'ok', redis: 'ok' } } }],
    ['there is no Redis to probe', { given: { postgresql: ok }, want: { status: 'ok', checks: { postgresql: 'ok' } } }],
    ['one probe is refused', { given: { postgresql: ok, redis: refused }, want: { status: 'unavailable', checks: { postgresql: 'ok', redis: 'unavailable' } } }],
    ['one probe hangs', { given: { postgresql: hangs, redis: ok }, want: { status: 'unavailable', checks: { postgresql: 'unavailable', redis: 'ok' } } }],
    ['one probe throws before it starts', { given: { postgresql: ok, redis: throwsAtOnce }, want: { status: 'unavailable', checks: { postgresql: 'ok', redis: 'unavailable' } } }],
  ])('when %s, then the answer says so', async (_name, { given, want }) => {
    expect(await checkReadiness(given, { timeoutMs: 50 })).toEqual(want);
  });

  test('when a probe hangs, then the answer comes after the timeout, not later', async () => {
    const started = Date.now();
    await checkReadiness({ postgresql: hangs }, { timeoutMs: 50 });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test('when a probe fails, then onFailure is told which and why', async () => {
    const failures: Array<[string, string]> = [];
    await checkReadiness({ postgresql: ok, redis: refused }, { onFailure: (check, err) => failures.push([check, String(err)]) });
    expect(failures).toEqual([['redis', 'Error: connect ECONNREFUSED']]);
  });
});
