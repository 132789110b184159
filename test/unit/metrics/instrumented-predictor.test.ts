import { instrumentPredictor } from '../../../src/metrics/instrumented-predictor';
import { createMetrics } from '../../../src/metrics/registry';
import { PredictorError } from '../../../src/domain/predictor-error';
import { type Predictor, type UpstreamSpend } from '../../../src/domain/ports';

const noDatabase = { countActiveHolds: async () => 0 };
const provenance = { predictor: 'embedded', model: 'm', promptVersion: 'v' } as const;
const NO_PREDICTION = { profile: null, primary_code: null, secondary_profile: null, secondary_code: null, confidence: null, reasoning: null, summary: null, secondary_profile_summary: null };

async function sample(metrics: ReturnType<typeof createMetrics>, name: string, labels: Record<string, string>): Promise<number> {
  const metric = await metrics.registry.getSingleMetric(name)?.get();
  return metric?.values.find((v) => Object.entries(labels).every(([k, want]) => v.labels[k] === want))?.value ?? 0;
}

describe('instrumentPredictor', () => {
  test('when a call succeeds, then it is timed as a success and its result passes through unchanged', async () => {
    const metrics = createMetrics(noDatabase);
    const result = NO_PREDICTION as never;
    const inner: Predictor = { predictSnap: async () => ({ result, provenance }), analyseComms: async () => ({ result, provenance }) };
    const predicted = await instrumentPredictor(inner, metrics).predictSnap({ notes: 'b' }, { requestId: 'r' });
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

  test('when the predictor tells of its upstream calls, then tokens are counted by outcome, calls without usage apart, and the caller still hears of each', async () => {
    const metrics = createMetrics(noDatabase);
    const spends: UpstreamSpend[] = [
      { operation: 'predictSnap', upstream: 'primary', model: 'm', outcome: 'failure', promptTokens: 600, completionTokens: 40 },
      { operation: 'predictSnap', upstream: 'primary', model: 'm', outcome: 'failure', promptTokens: null, completionTokens: null },
      { operation: 'predictSnap', upstream: 'primary', model: 'm', outcome: 'failure', promptTokens: 300, completionTokens: 0, estimated: true },
      { operation: 'predictSnap', upstream: 'fallback', model: 'm', outcome: 'success', promptTokens: 610, completionTokens: 90 },
    ];
    const inner: Predictor = {
      predictSnap: async (_subject, context) => {
        for (const spend of spends) context.onSpend?.(spend);
        return { result: NO_PREDICTION, provenance };
      },
      analyseComms: async () => Promise.reject(new Error('not used')),
    };
    const heard: UpstreamSpend[] = [];
    await instrumentPredictor(inner, metrics).predictSnap({ notes: 'b' }, { requestId: 'r', onSpend: (spend) => heard.push(spend) });
    expect(heard).toEqual(spends);
    const tokens = (kind: string, upstream: string, outcome: string, source = 'reported') => sample(metrics, 'upstream_tokens_total', { operation: 'predictSnap', model: 'm', kind, upstream, outcome, source });
    expect([await tokens('prompt', 'primary', 'failure'), await tokens('completion', 'primary', 'failure')]).toEqual([600, 40]);
    expect([await tokens('prompt', 'fallback', 'success'), await tokens('completion', 'fallback', 'success')]).toEqual([610, 90]);
    expect([await tokens('prompt', 'primary', 'failure', 'estimated'), await tokens('completion', 'primary', 'failure', 'estimated')]).toEqual([300, 0]);
    expect(await sample(metrics, 'upstream_unreported_calls_total', { operation: 'predictSnap', upstream: 'primary', outcome: 'failure' })).toBe(2);
  });

  test('when a snap answer breaks the taxonomy, then each rule it needs is counted and the answer passes on as given (the domain repairs it)', async () => {
    const metrics = createMetrics(noDatabase);
    const result = { ...NO_PREDICTION, profile: 'Nurturer' as const, primary_code: 'TB' as const, secondary_profile: 'Nurturer' as const, secondary_code: 'NU' as const };
    const inner: Predictor = { predictSnap: async () => ({ result, provenance }), analyseComms: async () => Promise.reject(new Error('not used')) };
    expect((await instrumentPredictor(inner, metrics).predictSnap({ notes: 'b' }, { requestId: 'r' })).result).toBe(result);
    expect(await sample(metrics, 'predictions_repaired_total', { rule: 'name-decides-code' })).toBe(1);
    expect(await sample(metrics, 'predictions_repaired_total', { rule: 'secondary-equals-primary' })).toBe(1);
  });
});
