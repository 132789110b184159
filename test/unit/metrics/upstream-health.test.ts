import type { UpstreamSpend } from '../../../src/domain/ports';
import { UpstreamHealth } from '../../../src/metrics/upstream-health';

const spend = (over: Partial<UpstreamSpend>): UpstreamSpend => ({
  operation: 'predictSnap',
  upstream: 'primary',
  model: 'gpt-4.1-mini',
  outcome: 'failure',
  promptTokens: null,
  completionTokens: null,
  ...over,
});

describe('UpstreamHealth', () => {
  test.each<[string, Partial<UpstreamSpend>, boolean]>([
    ['a success', { outcome: 'success', promptTokens: 10, completionTokens: 5 }, true],
    ['a failure whose usage the upstream reported (it answered)', { promptTokens: 10, completionTokens: 5 }, true],
    ['a failure without any usage (no answer)', {}, false],
    ['a failure whose counts are the service\'s estimate (no answer)', { promptTokens: 200, completionTokens: 0, estimated: true }, false],
  ])('when the latest call is %s, then the upstream is ready: %s', async (_name, over, ready) => {
    const health = new UpstreamHealth();
    health.heard(spend(over), false);
    if (ready) await expect(health.check()).resolves.toBeUndefined();
    else await expect(health.check()).rejects.toThrow(/primary upstream got no answer/);
  });

  test('when a call without an answer ended because its client left, then readiness is unchanged', async () => {
    const health = new UpstreamHealth();
    health.heard(spend({ promptTokens: 200, completionTokens: 0, estimated: true }), true);
    await expect(health.check()).resolves.toBeUndefined();
  });
});
