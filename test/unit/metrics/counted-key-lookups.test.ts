import { countKeyLookups } from '../../../src/metrics/counted-key-lookups';
import { createMetrics } from '../../../src/metrics/registry';

const noSources = { countActiveHolds: async () => 0, upstreamSockets: () => [] };

describe('countKeyLookups', () => {
  test('when keys are looked up, then each lookup is counted and the answer and the other methods pass through', async () => {
    const metrics = createMetrics(noSources);
    const repository = {
      findByKeyHash: async (hash: string) => (hash === 'a' ? { accountId: 1, keyId: 2 } : null),
      deactivatedWithin: async () => ['x'],
    };
    const counted = countKeyLookups(repository, metrics);
    expect(await counted.findByKeyHash('a')).toEqual({ accountId: 1, keyId: 2 });
    expect(await counted.findByKeyHash('b')).toBeNull();
    expect(await counted.deactivatedWithin(60)).toEqual(['x']);
    expect((await metrics.registry.getSingleMetric('api_key_lookups_total')?.get())?.values[0]?.value).toBe(2);
  });
});
