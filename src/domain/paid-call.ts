/**
 * One paid call, as both POST routes make it (docs/credit-holds.md): claim the
 * Idempotency-Key (or replay what it completed), refuse an account past its failure
 * budget, hold a credit, predict, then store
 * the result and turn the hold into the charge in one statement. A failure after the
 * claim stores nothing and charges nothing: the upstream calls it paid for are recorded
 * as failed-call usage, with the failure's kind (domain/failure-kind.ts) once a credit
 * was held, then the hold and the key are released. A failure of the prediction that the
 * caller caused (a refused answer, a client gone) counts against the failure budget; an
 * upstream outage does not (domain/failure-budget.ts).
 */
import { AppError } from './app-error';
import { assertClientWaiting } from './client-gone';
import { holdCredit } from './credits';
import { assertWithinFailureBudget, isCallersFailure } from './failure-budget';
import { recordFailedSpend } from './failed-spend';
import { failureKindOf } from './failure-kind';
import { claimKey, type Idempotent } from './idempotency';
import type {
  Caller,
  ClaimedKey,
  CreditHold,
  CreditsRepository,
  FailureBudget,
  IdempotencyRepository,
  PredictContext,
  Predicted,
  Predictor,
  UpstreamSpend,
  UpstreamTime,
  UsageRepository,
} from './ports';

export interface PaidCallDeps {
  credits: CreditsRepository;
  idempotency: IdempotencyRepository;
  predictor: Predictor;
  failureBudget: FailureBudget;
  usage: UsageRepository;
}

export interface RequestContext {
  requestId: string;
  idempotencyKey?: string;
  /** Aborts when the client is gone: its upstream call is cancelled and nothing is charged, unless the result is already being stored. */
  signal?: AbortSignal;
  /** Where the predictor's time is summed (Server-Timing). */
  timing?: UpstreamTime;
}

/** What a use case tells the paid call: its operation, and its own part of each step. */
export interface PaidCall<Subject, Answer, Judged, Result> {
  operation: 'createSnap' | 'createCommsAnalysis';
  caller: Caller;
  /** The request as the client sent it: what an Idempotency-Key's replay must match. */
  input: unknown;
  context: RequestContext;
  /** The contract's text for a failed prediction. */
  failureMessage: string;
  /** What the call is about, read once the key is claimed and before a credit is held. */
  load(): Promise<Subject>;
  predict(predictor: Predictor, subject: Subject, context: PredictContext): Promise<Predicted<Answer>>;
  /** The answer as it will be stored and returned; throws an AppError to refuse it. */
  judge(answer: Predicted<Answer>, subject: Subject): Judged;
  /** Stores the judged answer and takes the hold as the charge, in one statement. */
  store(hold: CreditHold, judged: Judged, claim: ClaimedKey | undefined, subject: Subject): Promise<Result>;
  /** The result of an earlier call with the same key, rebuilt from the row it stored. */
  replay(storedId: number): Promise<Result>;
}

export async function paidCall<Subject, Answer, Judged, Result>(deps: PaidCallDeps, call: PaidCall<Subject, Answer, Judged, Result>): Promise<Idempotent<Result>> {
  const { accountId } = call.caller;
  // A retry of a call that succeeded gets its result, whatever the account's failures since.
  const key = await claimKey(deps.idempotency, { accountId, key: call.context.idempotencyKey, operation: call.operation, input: call.input });
  if (key.replayOf !== undefined) return { result: await call.replay(key.replayOf), replayed: true };
  const spends: UpstreamSpend[] = [];
  let hold: CreditHold | undefined;
  let answered = false;
  try {
    await assertWithinFailureBudget(deps.failureBudget, accountId, call.operation);
    const subject = await call.load();
    hold = await holdCredit(deps.credits, accountId, call.operation);
    const judged = await predict(deps, call, subject, spends);
    answered = true;
    const result = await call.store(hold, judged, key.claimed, subject);
    const failedPrimary = spends.filter((spend) => spend.outcome === 'failure');
    await recordFailedSpend(deps.usage, accountId, { operation: call.operation, kind: null, spends: failedPrimary });
    return { result, replayed: false };
  } catch (error) {
    // A call refused before its credit was held (no credit, no such snap) is no paid call: it made no upstream call either.
    const kind = hold ? failureKindOf(error, call.context, answered) : null;
    await recordFailedSpend(deps.usage, accountId, { operation: call.operation, kind, spends });
    // A release the database does not take is left to the sweeper (the hold) or retried by the repository (the key).
    if (hold) await deps.credits.release(hold).catch(() => undefined);
    if (key.claimed) await deps.idempotency.release(accountId, key.claimed).catch(() => undefined);
    throw error;
  } finally {
    if (key.claimed) deps.idempotency.ended(accountId, key.claimed);
  }
}

/**
 * Asks the predictor, judges its answer and checks the client still waits for it; a
 * failure of these that the caller caused counts against the account's failure budget.
 * Every upstream call the prediction made is told to `spends`.
 */
async function predict<Subject, Answer, Judged>(
  deps: PaidCallDeps,
  call: PaidCall<Subject, Answer, Judged, unknown>,
  subject: Subject,
  spends: UpstreamSpend[],
): Promise<Judged> {
  try {
    const answer = await ask(deps.predictor, call, subject, spends);
    const judged = call.judge(answer, subject);
    assertClientWaiting(call.context, call.failureMessage);
    return judged;
  } catch (error) {
    if (isCallersFailure(error, call.context)) await deps.failureBudget.countFailure(call.caller.accountId, call.operation);
    throw error;
  }
}

/** The predictor's answer; a predictor that fails fails the call with the contract's text. */
async function ask<Subject, Answer>(predictor: Predictor, call: PaidCall<Subject, Answer, unknown, unknown>, subject: Subject, spends: UpstreamSpend[]): Promise<Predicted<Answer>> {
  const { requestId, signal, timing } = call.context;
  try {
    return await call.predict(predictor, subject, { requestId, signal, timing, onSpend: (spend) => spends.push(spend) });
  } catch (cause) {
    throw new AppError({ kind: 'generation_failed', message: call.failureMessage, cause });
  }
}
