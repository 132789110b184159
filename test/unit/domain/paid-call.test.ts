/** The paid call's steps and what each failure gives back, with in-memory ports (the domain's own seams, not mocks of modules). */
import { AppError } from '../../../src/domain/app-error';
import { chargedId } from '../../../src/domain/credits';
import { paidCall, type PaidCall, type PaidCallDeps } from '../../../src/domain/paid-call';
import type { CreditHold, Predictor, UpstreamSpend } from '../../../src/domain/ports';
import { MemoryFailureBudget } from '../../../src/data/failure-budget/memory-failure-budget';
import { InMemoryIdempotency } from './in-memory-idempotency';

const BUDGETS: MemoryFailureBudget[] = [];
afterAll(() => BUDGETS.forEach((budget) => budget.close()));

const SPEND: UpstreamSpend = { operation: 'predictSnap', upstream: 'primary', model: 'm', outcome: 'success', promptTokens: 5, completionTokens: 5 };

/** One credit, an in-memory key store, a failure budget of 2 calls, and a log of what each port was asked. */
function ports() {
  const failureBudget = new MemoryFailureBudget({ calls: 2, windowMs: 60_000 });
  BUDGETS.push(failureBudget);
  const log: string[] = [];
  const state = { available: 1, holds: new Set<number>(), stored: 0, failedSpends: [] as UpstreamSpend[], failureKinds: [] as (string | null)[] };
  const idempotency = new InMemoryIdempotency();
  const deps: PaidCallDeps = {
    credits: {
      hold: async (accountId) => {
        log.push('hold');
        if (state.available < 1) return null;
        state.available -= 1;
        state.holds.add(1);
        return { holdId: 1, accountId };
      },
      release: async (hold) => {
        log.push('release hold');
        if (state.holds.delete(hold.holdId)) state.available += 1;
      },
    },
    idempotency,
    predictor: {} as Predictor,
    failureBudget,
    usage: {
      addFailed: async (_accountId, failed) => {
        log.push('record failed spend');
        state.failedSpends.push(...failed.spends);
        state.failureKinds.push(failed.kind);
      },
    },
  };
  return { deps, log, state, idempotency, failureBudget };
}

type Step = 'load' | 'predict' | 'judge' | 'store';

/** A call whose steps log themselves and fail where told; store completes the claim as the charging statement does. */
function callOf(p: ReturnType<typeof ports>, failAt?: Step, key?: string): PaidCall<string, string, string, number> & { runs: number } {
  const step = (name: Step) => {
    p.log.push(name);
    if (failAt === name) throw new AppError({ kind: 'generation_failed', message: `${name} failed` });
  };
  const call = {
    runs: 0,
    operation: 'createSnap' as const,
    caller: { accountId: 1, keyId: 1 },
    input: { a: 1 },
    context: { requestId: 'req-1', idempotencyKey: key },
    failureMessage: 'Failed to generate snap Please try again later',
    load: async () => {
      call.runs += 1;
      step('load');
      return 'subject';
    },
    predict: async (_predictor: Predictor, subject: string, context: { onSpend?: (spend: UpstreamSpend) => void }) => {
      context.onSpend?.(SPEND);
      step('predict');
      return { result: `answer to ${subject}`, provenance: { predictor: 'embedded' as const, model: 'm', promptVersion: 'v' } };
    },
    judge: ({ result }: { result: string }) => {
      step('judge');
      return result;
    },
    store: async (hold: CreditHold, _judged: string, claim: { key: string; owner: string } | undefined) => {
      step('store');
      p.state.holds.delete(hold.holdId);
      p.state.stored += 1;
      if (claim) p.idempotency.complete(1, claim, p.state.stored);
      return chargedId({ status: 'stored', id: p.state.stored });
    },
    replay: async (storedId: number) => storedId,
  };
  return call;
}

async function failureOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  return error instanceof AppError ? `${error.kind}: ${error.message}` : `not an AppError: ${String(error)}`;
}

describe('paidCall', () => {
  test('when every step succeeds, then they run in order and the held credit is the charge', async () => {
    const p = ports();
    expect(await paidCall(p.deps, callOf(p))).toEqual({ result: 1, replayed: false });
    expect(p.log).toEqual(['load', 'hold', 'predict', 'judge', 'store']);
    expect([p.state.available, p.state.holds.size, p.state.failedSpends]).toEqual([0, 0, []]);
  });

  test.each<[Step, string[]]>([
    ['load', ['load', 'release key']],
    ['predict', ['load', 'hold', 'predict', 'count failure', 'record failed spend', 'release hold', 'release key']],
    ['judge', ['load', 'hold', 'predict', 'judge', 'count failure', 'record failed spend', 'release hold', 'release key']],
    ['store', ['load', 'hold', 'predict', 'judge', 'store', 'record failed spend', 'release hold', 'release key']],
  ])('when %s fails, then what was taken is given back in this order and a retry runs again', async (failAt, steps) => {
    const p = ports();
    const countFailure = p.failureBudget.countFailure.bind(p.failureBudget);
    p.failureBudget.countFailure = async (...args) => {
      p.log.push('count failure');
      await countFailure(...args);
    };
    const release = p.idempotency.release.bind(p.idempotency);
    p.idempotency.release = async (...args) => {
      p.log.push('release key');
      await release(...args);
    };
    expect(await failureOf(paidCall(p.deps, callOf(p, failAt, 'key-1')))).toBe(`generation_failed: ${failAt === 'predict' ? 'Failed to generate snap Please try again later' : `${failAt} failed`}`);
    expect(p.log).toEqual(steps);
    expect([p.state.available, p.state.holds.size, p.idempotency.rows.size, p.idempotency.endedOwners.length]).toEqual([1, 0, 0, 1]);
    expect(await paidCall(p.deps, callOf(p, undefined, 'key-1'))).toEqual({ result: 1, replayed: false });
  });

  test.each<[Step, string[]]>([
    ['load', []],
    ['predict', ['unusableAnswer']],
    ['judge', ['unusableAnswer']],
    ['store', ['notStored']],
  ])('when %s fails, then the usage tallies hear of a paid call failed by this kind (none before the credit is held)', async (failAt, kinds) => {
    const p = ports();
    await failureOf(paidCall(p.deps, callOf(p, failAt)));
    expect(p.state.failureKinds).toEqual(kinds);
  });

  test('when the key was completed, then the call is replayed from its row without a hold or a prediction', async () => {
    const p = ports();
    await paidCall(p.deps, callOf(p, undefined, 'key-1'));
    const again = callOf(p, undefined, 'key-1');
    expect(await paidCall(p.deps, again)).toEqual({ result: 1, replayed: true });
    expect(again.runs).toBe(0);
  });

  test('when the account is past its failure budget, then the call is refused before its key is claimed', async () => {
    const p = ports();
    for (let i = 0; i < 2; i += 1) await paidCall(p.deps, callOf(p, 'predict')).catch(() => undefined);
    expect(await failureOf(paidCall(p.deps, callOf(p, undefined, 'key-1')))).toBe('rate_limited: ThrottlerException: Too Many Requests');
    expect(p.idempotency.rows.size).toBe(0);
  });

  test('when no credit is left, then nothing is predicted and the key is released', async () => {
    const p = ports();
    p.state.available = 0;
    expect(await failureOf(paidCall(p.deps, callOf(p, undefined, 'key-1')))).toBe(
      'insufficient_credits: Insufficient API credits. Please add more credits to your account to continue.',
    );
    expect(p.log).toEqual(['load', 'hold']);
    expect(p.idempotency.rows.size).toBe(0);
  });

  test('when the call fails after its claim was taken over, then the new claim is left alone', async () => {
    const p = ports();
    const call = callOf(p, 'predict', 'key-1');
    const load = call.load;
    call.load = async () => {
      // Another call takes the key over (this one outlived its lease), then this one fails.
      p.idempotency.rows.set('1/key-1', { fingerprint: 'f'.repeat(64), owner: 'the call that took over', state: 'pending' });
      return load();
    };
    await failureOf(paidCall(p.deps, call));
    expect(p.idempotency.rows.get('1/key-1')?.owner).toBe('the call that took over');
  });
});
