import { instrumentPredictor } from '../../../src/metrics/instrumented-predictor';
import { createMetrics } from '../../../src/metrics/registry';
import { PredictorError } from '../../../src/domain/predictor-error';
import { type Predictor } from '../../../src/domain/ports';

const noDatabase = { poolCounts: () => undefined, countActiveHolds: async () => 0 };
const provenance = { predictor: 'embedded', model: 'm', promptVersion: 'v' } as const;

async function sample(metrics: ReturnType<typeof createMetrics>, name: string, labels: Record<string, string>): Promise<number> {
  const metric = await metrics.registry.getSingleMetric(name)?.get();
  return metric?.values.find((v) => Object.entries(labels).every(([k, want]) => v.labels[k] === want))?.value ?? 0;
}

describe('instrumentPredictor', () => {
  test('when a call succeeds, then it is timed as a success and its result passes through unchanged', async () => {
    const metrics = createMetrics(noDatabase);
    const result = { profile: null } as never;
    const inner: Predictor = { predictSnap: async () => ({ result, provenance }), analyseComms: async () => ({ result, provenance }) };
    const predicted = await instrumentPredictor(inner, metrics).predictSnap({ name: 'a', notes: 'b' }, { requestId: 'r' });
    expect(predicted).toEqual({ result, provenance });
    expect(await sample(metrics, 'upstream_request_duration_seconds', { operation: 'predictSnap', outcome: 'success', le: '+Inf' })).toBe(1);
    expect(await sample(metrics, 'upstream_errors_total', { operation: 'predictSnap' })).toBe(0);
  });

  test('when a call fails, then it is counted as an error and the same error is rethrown', async () => {
    const metrics = createMetrics(noDatabase);
    const failure = new PredictorError('upstream timed out');
    const inner: Predictor = {
      predictSnap: async () => Promise.reject(failure),
      analyseComms: async () => Promise.reject(failure),
    };
    await expect(instrumentPredictor(inner, metrics).analyseComms({} as never, { requestId: 'r' })).rejects.toBe(failure);
    expect(await sample(metrics, 'upstream_errors_total', { operation: 'analyseComms' })).toBe(1);
    expect(await sample(metrics, 'upstream_request_duration_seconds', { operation: 'analyseComms', outcome: 'error', le: '+Inf' })).toBe(1);
  });
});
