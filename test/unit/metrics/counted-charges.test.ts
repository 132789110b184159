import { countCommsCharges, countSnapCharges } from '../../../src/metrics/counted-charges';
import { createMetrics } from '../../../src/metrics/registry';
import type { ChargeOutcome, CommsRepository, SnapRepository } from '../../../src/domain/ports';

const noDatabase = { countActiveHolds: async () => 0 };

async function charged(metrics: ReturnType<typeof createMetrics>, operation: string): Promise<number> {
  const metric = await metrics.creditsCharged.get();
  return metric.values.find((v) => v.labels.operation === operation)?.value ?? 0;
}

describe('countSnapCharges and countCommsCharges', () => {
  test('when a row is stored, then one credit is counted; when none is left or the claim was lost, nothing is', async () => {
    const metrics = createMetrics(noDatabase);
    const answers: ChargeOutcome[] = [{ status: 'stored', id: 1 }, { status: 'no_credit' }, { status: 'claim_lost' }];
    const snaps: SnapRepository = { storeCharged: async () => answers.shift() ?? { status: 'no_credit' }, findOwned: async () => null };
    const counted = countSnapCharges(snaps, metrics.creditsCharged);
    expect(await counted.storeCharged({} as never)).toEqual({ status: 'stored', id: 1 });
    expect(await counted.storeCharged({} as never)).toEqual({ status: 'no_credit' });
    expect(await counted.storeCharged({} as never)).toEqual({ status: 'claim_lost' });
    expect(await charged(metrics, 'createSnap')).toBe(1);
  });

  test('when storing fails, then nothing is counted and the error passes through', async () => {
    const metrics = createMetrics(noDatabase);
    const failure = new Error('connection reset');
    const comms: CommsRepository = { storeCharged: async () => Promise.reject(failure), findOwned: async () => null };
    await expect(countCommsCharges(comms, metrics.creditsCharged).storeCharged({} as never)).rejects.toBe(failure);
    expect(await charged(metrics, 'createCommsAnalysis')).toBe(0);
  });
});
