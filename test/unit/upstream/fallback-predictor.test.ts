import { PredictorError } from '../../../src/domain/predictor-error';
import type { CommsAnalysis, CommsRequest, PredictContext, Predicted, Predictor, SnapPrediction, SnapSubject } from '../../../src/domain/ports';
import { CircuitBreaker } from '../../../src/upstream/circuit-breaker';
import { withFallback } from '../../../src/upstream/fallback-predictor';

const SUBJECT: SnapSubject = { name: 'Ada Example', notes: 'Starts things.' };
const CONTEXT: PredictContext = { requestId: 'req-1' };

function prediction(model: string): Predicted<SnapPrediction> {
  return {
    result: { profile: 'Catalyst', primary_code: 'CT', secondary_profile: null, secondary_code: null, confidence: 'High', reasoning: null, summary: null, secondary_profile_summary: null },
    provenance: { predictor: 'openai', model, promptVersion: 'v1' },
  };
}

/** A predictor port whose snap calls the test settles one by one. */
class ScriptedPredictor implements Predictor {
  readonly calls: Array<{ context: PredictContext; resolve: (value: Predicted<SnapPrediction>) => void; reject: (error: unknown) => void }> = [];
  constructor(private readonly model: string) {}
  predictSnap(_subject: SnapSubject, context: PredictContext): Promise<Predicted<SnapPrediction>> {
    return new Promise((resolve, reject) => {
      const call = { context, resolve, reject };
      this.calls.push(call);
      context.signal?.addEventListener(
        'abort',
        () => {
          this.calls.splice(this.calls.indexOf(call), 1);
          reject(new PredictorError('aborted'));
        },
        { once: true },
      );
    });
  }
  analyseComms(_request: CommsRequest, _context: PredictContext): Promise<Predicted<CommsAnalysis>> {
    return Promise.reject(new Error('not used'));
  }
  succeedAll(): void {
    for (const call of this.calls.splice(0)) call.resolve(prediction(this.model));
  }
  failAll(): void {
    for (const call of this.calls.splice(0)) call.reject(new PredictorError('upstream answered HTTP 503', { upstreamStatus: 503 }));
  }
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('withFallback', () => {
  let now: number;
  let primary: ScriptedPredictor;
  let fallback: ScriptedPredictor;
  let predictor: Predictor;
  beforeEach(() => {
    now = 0;
    primary = new ScriptedPredictor('primary-model');
    fallback = new ScriptedPredictor('fallback-model');
    const breaker = new CircuitBreaker({ failures: 2, cooldownMs: 1000, now: () => now });
    predictor = withFallback({ primary, fallback, breaker, timeoutMs: { predictSnap: 60_000, analyseComms: 120_000 } });
  });

  /** Makes `n` calls fail on the primary and end on the fallback. */
  async function failPrimary(n: number): Promise<void> {
    const calls = Array.from({ length: n }, () => predictor.predictSnap(SUBJECT, CONTEXT));
    await flush();
    primary.failAll();
    await flush();
    fallback.succeedAll();
    await Promise.all(calls);
  }

  test('when the primary answers, then its answer is used and the fallback is not called', async () => {
    const call = predictor.predictSnap(SUBJECT, CONTEXT);
    await flush();
    primary.succeedAll();

    expect((await call).provenance.model).toBe('primary-model');
    expect(fallback.calls).toHaveLength(0);
  });

  test('when the primary fails, then the same call goes to the fallback', async () => {
    const call = predictor.predictSnap(SUBJECT, CONTEXT);
    await flush();
    primary.failAll();
    await flush();
    fallback.succeedAll();

    expect((await call).provenance.model).toBe('fallback-model');
  });

  test('when the primary failed as often as the breaker allows, then the next calls skip it', async () => {
    await failPrimary(2);

    const call = predictor.predictSnap(SUBJECT, CONTEXT);
    await flush();

    expect(primary.calls).toHaveLength(0);
    expect(fallback.calls).toHaveLength(1);
    fallback.succeedAll();
    await call;
  });

  test('when the cool-down has passed, then one of several concurrent calls tries the primary and the rest go to the fallback', async () => {
    await failPrimary(2);
    now += 1000;

    const calls = Array.from({ length: 5 }, () => predictor.predictSnap(SUBJECT, CONTEXT));
    await flush();

    expect(primary.calls).toHaveLength(1);
    expect(fallback.calls).toHaveLength(4);
    primary.succeedAll();
    fallback.succeedAll();
    const models = (await Promise.all(calls)).map((p) => p.provenance.model);
    expect(models.filter((model) => model === 'primary-model')).toHaveLength(1);
  });

  test('when the trial succeeds, then the primary takes every call again', async () => {
    await failPrimary(2);
    now += 1000;
    const trial = predictor.predictSnap(SUBJECT, CONTEXT);
    await flush();
    primary.succeedAll();
    await trial;

    const calls = Array.from({ length: 3 }, () => predictor.predictSnap(SUBJECT, CONTEXT));
    await flush();

    expect(primary.calls).toHaveLength(3);
    primary.succeedAll();
    await Promise.all(calls);
  });

  test("when the caller aborts a call on the primary, then it is not passed to the fallback and the breaker's trial is free again", async () => {
    await failPrimary(2);
    now += 1000;
    const caller = new AbortController();
    const trial = predictor.predictSnap(SUBJECT, { ...CONTEXT, signal: caller.signal });
    await flush();

    caller.abort(new Error('client gone'));

    await expect(trial).rejects.toBeInstanceOf(PredictorError);
    expect(fallback.calls).toHaveLength(0);
    const next = predictor.predictSnap(SUBJECT, CONTEXT);
    await flush();
    expect(primary.calls).toHaveLength(1);
    primary.succeedAll();
    await next;
  });

  describe('with fake timers', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    test('when the whole time runs out on the primary, then the call fails and the fallback is not called', async () => {
      const call = predictor.predictSnap(SUBJECT, CONTEXT);
      const failed = expect(call).rejects.toBeInstanceOf(PredictorError);

      await jest.advanceTimersByTimeAsync(60_000);

      await failed;
      expect(fallback.calls).toHaveLength(0);
    });

    test('when the whole time runs out on the fallback, then the call fails as a timeout, an outage; a caller that aborts there is not one', async () => {
      const caller = new AbortController();
      const left = predictor.predictSnap(SUBJECT, { ...CONTEXT, signal: caller.signal });
      primary.failAll();
      await jest.advanceTimersByTimeAsync(0);
      expect(fallback.calls).toHaveLength(1);
      caller.abort(new Error('client gone'));
      await expect(left).rejects.toMatchObject({ outage: false, timeout: false });

      const call = predictor.predictSnap(SUBJECT, CONTEXT);
      const failed = expect(call).rejects.toMatchObject({ message: 'upstream call timed out after 60000 ms', outage: true, timeout: true });
      primary.failAll();
      await jest.advanceTimersByTimeAsync(0);
      expect(fallback.calls).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(60_000);
      await failed;
    });
  });
});
