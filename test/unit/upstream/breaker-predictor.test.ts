import { PredictorError } from '../../../src/domain/predictor-error';
import type { CommsAnalysis, CommsRequest, PredictContext, Predicted, Predictor, SnapPrediction, SnapSubject, UpstreamSpend } from '../../../src/domain/ports';
import { UPSTREAM_SKIPPED, withBreaker } from '../../../src/upstream/breaker-predictor';
import { CircuitBreaker } from '../../../src/upstream/circuit-breaker';

const SUBJECT: SnapSubject = { name: 'Ada Example', notes: 'Starts things.' };
const PREDICTED: Predicted<SnapPrediction> = {
  result: { profile: 'Catalyst', primary_code: 'CT', secondary_profile: null, secondary_code: null, confidence: 'High', reasoning: null, summary: null, secondary_profile_summary: null },
  provenance: { predictor: 'openai', model: 'm', promptVersion: 'v1' },
};
const OUTAGE = () => new PredictorError('upstream answered HTTP 503', { upstreamStatus: 503, outage: true });
const UNUSABLE = () => new PredictorError('upstream output was not valid JSON');
const FAILED_ATTEMPT: UpstreamSpend = { operation: 'predictSnap', upstream: 'primary', model: 'm', outcome: 'failure', promptTokens: 800, completionTokens: 0, estimated: true };

/** A predictor port whose next answers the test lists; it counts the calls that reached it. */
class ListedPredictor implements Predictor {
  calls = 0;
  next: Array<(context: PredictContext) => Promise<Predicted<SnapPrediction>>> = [];
  predictSnap(_subject: SnapSubject, context: PredictContext): Promise<Predicted<SnapPrediction>> {
    this.calls += 1;
    const answer = this.next.shift();
    if (!answer) throw new Error('no answer listed');
    return answer(context);
  }
  analyseComms(_request: CommsRequest, _context: PredictContext): Promise<Predicted<CommsAnalysis>> {
    return Promise.reject(new Error('not used'));
  }
  failWith(...errors: Array<() => unknown>): void {
    this.next.push(...errors.map((error) => () => Promise.reject(error())));
  }
  succeed(): void {
    this.next.push(() => Promise.resolve(PREDICTED));
  }
}

describe('withBreaker (the primary without a fallback)', () => {
  let now: number;
  let upstream: ListedPredictor;
  let predictor: Predictor;
  const context = (signal?: AbortSignal): PredictContext => ({ requestId: 'req-1', signal });
  const snap = (signal?: AbortSignal) => predictor.predictSnap(SUBJECT, context(signal));
  /** Two outages open the breaker; then its cool-down passes. */
  const openedAndCooledDown = async () => {
    upstream.failWith(OUTAGE, OUTAGE);
    await expect(snap()).rejects.toThrow();
    await expect(snap()).rejects.toThrow();
    now += 1000;
  };

  beforeEach(() => {
    now = 0;
    upstream = new ListedPredictor();
    predictor = withBreaker(upstream, new CircuitBreaker({ failures: 2, cooldownMs: 1000, now: () => now }));
  });

  test('when the upstream had 2 outages in a row, then the next call fails at once as an outage without reaching it', async () => {
    upstream.failWith(OUTAGE, OUTAGE);
    await expect(snap()).rejects.toMatchObject({ outage: true });
    await expect(snap()).rejects.toMatchObject({ outage: true });
    await expect(snap()).rejects.toMatchObject({ message: UPSTREAM_SKIPPED, outage: true });
    expect(upstream.calls).toBe(2);
  });

  test('when the cool-down has passed, then one trial reaches the upstream, and its success lets every call through again', async () => {
    await openedAndCooledDown();
    upstream.succeed();
    await expect(snap()).resolves.toBe(PREDICTED);
    upstream.succeed();
    await expect(snap()).resolves.toBe(PREDICTED);
    expect(upstream.calls).toBe(4);
  });

  test('when the trial has an outage too, then calls fail at once for another cool-down', async () => {
    await openedAndCooledDown();
    upstream.failWith(OUTAGE);
    await expect(snap()).rejects.toMatchObject({ outage: true });
    await expect(snap()).rejects.toMatchObject({ message: UPSTREAM_SKIPPED });
    now += 999;
    await expect(snap()).rejects.toMatchObject({ message: UPSTREAM_SKIPPED });
    expect(upstream.calls).toBe(3);
  });

  test('when an answer the service could not use comes between outages, then it ends the run: the upstream is up', async () => {
    upstream.failWith(OUTAGE, UNUSABLE, OUTAGE);
    await expect(snap()).rejects.toMatchObject({ outage: true });
    await expect(snap()).rejects.toMatchObject({ outage: false });
    await expect(snap()).rejects.toMatchObject({ outage: true });
    upstream.succeed();
    await expect(snap()).resolves.toBe(PREDICTED);
  });

  test('when the caller gave up on the trial, then the next call is the trial', async () => {
    await openedAndCooledDown();
    const gone = new AbortController();
    gone.abort();
    upstream.failWith(() => new PredictorError('aborted', { outage: true }));
    await expect(snap(gone.signal)).rejects.toThrow('aborted');
    upstream.succeed();
    await expect(snap()).resolves.toBe(PREDICTED);
    expect(upstream.calls).toBe(4);
  });

  test('when a trial is in flight, then the other calls fail at once', async () => {
    await openedAndCooledDown();
    let answer!: (value: Predicted<SnapPrediction>) => void;
    upstream.next.push(() => new Promise((resolve) => (answer = resolve)));
    const trial = snap();
    await expect(snap()).rejects.toMatchObject({ message: UPSTREAM_SKIPPED });
    answer(PREDICTED);
    await expect(trial).resolves.toBe(PREDICTED);
    expect(upstream.calls).toBe(3);
  });

  /** The caller leaves while the call is out; `attemptFailed`: one of its attempts had failed before. */
  const leaving = (gone: AbortController, attemptFailed: boolean) => (context: PredictContext) => {
    if (attemptFailed) context.onSpend?.(FAILED_ATTEMPT);
    gone.abort();
    context.onSpend?.({ ...FAILED_ATTEMPT, promptTokens: 0 });
    return Promise.reject(new PredictorError('upstream call was aborted by the caller'));
  };

  test('when callers left after an attempt of their call had failed, then each counts as an outage: a hanging upstream whose clients give up first', async () => {
    const spends: UpstreamSpend[] = [];
    for (let i = 0; i < 2; i++) {
      const gone = new AbortController();
      upstream.next.push(leaving(gone, true));
      await expect(predictor.predictSnap(SUBJECT, { requestId: 'req-1', signal: gone.signal, onSpend: (spend) => spends.push(spend) })).rejects.toThrow('aborted');
    }
    await expect(snap()).rejects.toMatchObject({ message: UPSTREAM_SKIPPED });
    expect(upstream.calls).toBe(2);
    expect(spends).toHaveLength(4); // the caller is still told of every attempt
  });

  test('when callers left before any attempt failed, then nothing is counted', async () => {
    for (let i = 0; i < 2; i++) {
      const gone = new AbortController();
      upstream.next.push(leaving(gone, false));
      await expect(snap(gone.signal)).rejects.toThrow('aborted');
    }
    upstream.succeed();
    await expect(snap()).resolves.toBe(PREDICTED);
    expect(upstream.calls).toBe(3);
  });
});
