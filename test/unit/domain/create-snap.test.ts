/** The snap use case with in-memory ports (the domain's own seams, not mocks of modules). */
import { AppError } from '../../../src/domain/app-error';
import { createSnap } from '../../../src/domain/create-snap';
import type { ChargedSnap, CreditsRepository, SnapRepository, UpstreamSpend, UsageRepository } from '../../../src/domain/ports';
import { InMemoryIdempotency } from './in-memory-idempotency';
import { MemoryFailureBudget } from '../../../src/data/failure-budget/memory-failure-budget';
import { PredictorError } from '../../../src/domain/predictor-error';
import { type PredictContext, type Predictor, type SnapPrediction } from '../../../src/domain/ports';

const SUBJECT = { name: 'Ada', notes: 'Audits every figure.' };
const CALLER = { accountId: 1, keyId: 1 };
const PREDICTION: SnapPrediction = {
  profile: 'Precisionist',
  primary_code: 'PR',
  secondary_profile: 'Systematizer',
  secondary_code: 'SY',
  confidence: 'High',
  reasoning: 'r',
  summary: 's',
  secondary_profile_summary: 'ss',
};

const BUDGETS: MemoryFailureBudget[] = [];
afterAll(() => BUDGETS.forEach((budget) => budget.close()));

/** Credits as the database keeps them: available, held by calls in flight, and the stored charges; a failure budget of 3 calls. */
function inMemory(credits: number) {
  const failureBudget = new MemoryFailureBudget({ calls: 3, windowMs: 60_000 });
  BUDGETS.push(failureBudget);
  const stored: ChargedSnap[] = [];
  let available = credits;
  const holds = new Set<number>();
  let nextHold = 1;
  const creditsRepo: CreditsRepository = {
    hold: async (accountId) => {
      if (available < 1) return null;
      available -= 1;
      holds.add(nextHold);
      return { holdId: nextHold++, accountId };
    },
    release: async (hold) => {
      if (holds.delete(hold.holdId)) available += 1;
    },
  };
  const snaps: SnapRepository = {
    storeCharged: async (snap) => {
      if (!holds.delete(snap.hold.holdId)) return { status: 'no_credit' };
      stored.push(snap);
      return { status: 'stored', id: stored.length };
    },
    findOwned: async () => null,
  };
  const failedSpends: UpstreamSpend[] = [];
  const usage: UsageRepository = {
    addFailed: async (_accountId, failed) => {
      failedSpends.push(...failed.spends);
    },
  };
  return { credits: creditsRepo, snaps, usage, failedSpends, failureBudget, idempotency: new InMemoryIdempotency(), stored, balance: () => available, held: () => holds.size };
}

/** A spend as an OpenAI-compatible predictor tells it: tokens, or nulls without a usage report. */
function spend(outcome: UpstreamSpend['outcome'], tokens: number | null): UpstreamSpend {
  return { operation: 'predictSnap', upstream: 'primary', model: 'm', outcome, promptTokens: tokens, completionTokens: tokens };
}

function predicting(outcome: SnapPrediction | Error, spends: UpstreamSpend[] = []): Predictor & { calls: number } {
  const predictor = {
    calls: 0,
    predictSnap: async (_subject: unknown, context: PredictContext) => {
      predictor.calls += 1;
      for (const each of spends) context.onSpend?.(each);
      if (outcome instanceof Error) throw outcome;
      return { result: outcome, provenance: { predictor: 'embedded' as const, model: 'm', promptVersion: 'v' } };
    },
    analyseComms: async () => {
      throw new Error('not used');
    },
  };
  return predictor;
}

async function failureOf(promise: Promise<unknown>): Promise<{ kind: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return { kind: error.kind, message: error.message };
}

describe('createSnap (domain)', () => {
  test('when a credit is left, then the prediction is stored, charged and returned with the name', async () => {
    const store = inMemory(2);
    const { result, replayed } = await createSnap({ ...store, predictor: predicting(PREDICTION) }, CALLER, SUBJECT, { requestId: 'req-1' });
    expect(result).toEqual({ snapId: 1, snapResponse: { name: 'Ada', ...PREDICTION } });
    expect(replayed).toBe(false);
    expect([store.balance(), store.held()]).toEqual([1, 0]);
    expect(store.stored[0]?.provenance).toEqual({ predictor: 'embedded', model: 'm', promptVersion: 'v' });
  });

  test('when no credit is left, then the predictor is never called', async () => {
    const store = inMemory(0);
    const predictor = predicting(PREDICTION);
    expect(await failureOf(createSnap({ ...store, predictor }, CALLER, SUBJECT, { requestId: 'req-1' }))).toEqual({
      kind: 'insufficient_credits',
      message: 'Insufficient API credits. Please add more credits to your account to continue.',
    });
    expect(predictor.calls).toBe(0);
  });

  test.each([
    ['the secondary profile', { ...PREDICTION, secondary_profile: 'Visionary' as const, secondary_code: 'VI' as const }],
    ['only the secondary code', { ...PREDICTION, secondary_profile: null, secondary_code: 'VI' as const }],
  ])('when %s is Visionary, then it fails with the contract text and stores nothing', async (_name, prediction) => {
    const store = inMemory(1);
    expect(await failureOf(createSnap({ ...store, predictor: predicting(prediction) }, CALLER, SUBJECT, { requestId: 'req-1' }))).toEqual({
      kind: 'generation_failed',
      message: 'Secondary profile predicted as Visionary which is not allowed please try it again',
    });
    expect(store.stored).toHaveLength(0);
    expect([store.balance(), store.held()]).toEqual([1, 0]);
  });

  test('when the predictor fails, then it fails with the contract text and stores nothing', async () => {
    const store = inMemory(1);
    const failing = predicting(new PredictorError('upstream answered HTTP 500', { upstreamStatus: 500 }));
    expect(await failureOf(createSnap({ ...store, predictor: failing }, CALLER, SUBJECT, { requestId: 'req-1' }))).toEqual({
      kind: 'generation_failed',
      message: 'Failed to generate snap Please try again later',
    });
    expect([store.balance(), store.held()]).toEqual([1, 0]);
  });

  test('when two requests share the last credit, then the second is refused before its upstream call', async () => {
    const store = inMemory(1);
    const predictor = predicting(PREDICTION);
    const first = createSnap({ ...store, predictor }, CALLER, SUBJECT, { requestId: 'req-1' });
    const second = failureOf(createSnap({ ...store, predictor }, CALLER, SUBJECT, { requestId: 'req-2' }));
    expect((await second).kind).toBe('insufficient_credits');
    await first;
    expect(predictor.calls).toBe(1);
    expect([store.balance(), store.held()]).toEqual([0, 0]);
  });

  test('when the client is gone before the result is stored, then nothing is charged and the credit is back', async () => {
    const store = inMemory(1);
    const gone = new AbortController();
    gone.abort();
    expect((await failureOf(createSnap({ ...store, predictor: predicting(PREDICTION) }, CALLER, SUBJECT, { requestId: 'req-1', signal: gone.signal }))).kind).toBe(
      'generation_failed',
    );
    expect(store.stored).toHaveLength(0);
    expect([store.balance(), store.held()]).toEqual([1, 0]);
  });

  test('when the account failed as many calls as its budget, then the next is refused with 429 text and Retry-After before the predictor', async () => {
    const store = inMemory(10);
    const visionary = predicting({ ...PREDICTION, secondary_profile: 'Visionary', secondary_code: 'VI' });
    for (let i = 0; i < 3; i += 1) expect((await failureOf(createSnap({ ...store, predictor: visionary }, CALLER, SUBJECT, { requestId: `req-${i}` }))).kind).toBe('generation_failed');
    const refused = await createSnap({ ...store, predictor: visionary }, CALLER, SUBJECT, { requestId: 'req-4' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ kind: 'rate_limited', message: 'ThrottlerException: Too Many Requests' });
    expect((refused as AppError).retryAfterSeconds).toBeGreaterThan(0);
    expect(visionary.calls).toBe(3);
    expect([store.balance(), store.held()]).toEqual([10, 0]);
  });

  test('when a client is gone after its call left, then the failure counts against the budget', async () => {
    const store = inMemory(10);
    const gone = new AbortController();
    gone.abort();
    for (let i = 0; i < 3; i += 1) await failureOf(createSnap({ ...store, predictor: predicting(PREDICTION) }, CALLER, SUBJECT, { requestId: `req-${i}`, signal: gone.signal }));
    expect((await failureOf(createSnap({ ...store, predictor: predicting(PREDICTION) }, CALLER, SUBJECT, { requestId: 'req-4' }))).kind).toBe('rate_limited');
  });

  test('when calls succeed, then they cost nothing of the budget', async () => {
    const store = inMemory(10);
    for (let i = 0; i < 5; i += 1) await createSnap({ ...store, predictor: predicting(PREDICTION) }, CALLER, SUBJECT, { requestId: `req-${i}` });
    expect(store.stored).toHaveLength(5);
  });

  test('when the predictor fails after spending tokens, then every call it made is added to the failed-call usage', async () => {
    const store = inMemory(1);
    const spends = [spend('failure', 7), spend('failure', null)];
    const failing = predicting(new PredictorError("upstream model stopped with finish_reason 'length'"), spends);
    expect((await failureOf(createSnap({ ...store, predictor: failing }, CALLER, SUBJECT, { requestId: 'req-1' }))).kind).toBe('generation_failed');
    expect(store.failedSpends).toEqual(spends);
  });

  test('when an answer is refused after a successful call, then that call is failed usage too', async () => {
    const store = inMemory(1);
    const visionary = { ...PREDICTION, secondary_profile: 'Visionary' as const, secondary_code: 'VI' as const };
    await failureOf(createSnap({ ...store, predictor: predicting(visionary, [spend('success', 5)]) }, CALLER, SUBJECT, { requestId: 'req-1' }));
    expect(store.failedSpends).toEqual([spend('success', 5)]);
  });

  test('when the result is stored, then only the calls that failed before it are failed usage (the stored row has its own tokens)', async () => {
    const store = inMemory(1);
    const spends = [spend('failure', 3), spend('success', 5)];
    await createSnap({ ...store, predictor: predicting(PREDICTION, spends) }, CALLER, SUBJECT, { requestId: 'req-1' });
    expect(store.stored).toHaveLength(1);
    expect(store.failedSpends).toEqual([spend('failure', 3)]);
  });

  test('when the answer names the primary as secondary, then the snap is stored and returned without a secondary', async () => {
    const store = inMemory(1);
    const equal = { ...PREDICTION, secondary_profile: 'Precisionist' as const, secondary_code: 'PR' as const };
    const { result } = await createSnap({ ...store, predictor: predicting(equal) }, CALLER, SUBJECT, { requestId: 'req-1' });
    const withoutSecondary = { ...PREDICTION, secondary_profile: null, secondary_code: null, secondary_profile_summary: null, confidence: 'Low' };
    expect(result.snapResponse).toEqual({ name: 'Ada', ...withoutSecondary });
    expect(store.stored[0]?.prediction).toEqual(withoutSecondary);
  });
});
