/**
 * Create a snap (openapi/openapi.yaml, `createSnap`): refuse an account past its failure budget, hold a
 * credit, predict, hold the answer to the taxonomy (taxonomy.ts), refuse a Visionary
 * secondary profile (a failure of the call, counted against the budget), then store the snap and turn the hold into the charge in one statement. A
 * failure at any step stores nothing, charges nothing and gives the held credit back.
 * With an Idempotency-Key, it runs once per key.
 */
import { AppError } from './app-error';
import { chargedId, withCreditHeld } from './credits';
import { assertClientWaiting } from './client-gone';
import { assertWithinFailureBudget, countingFailures } from './failure-budget';
import { idempotently, type Idempotent } from './idempotency';
import { MESSAGES } from './messages';
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
  SnapPrediction,
  SnapRepository,
  SnapSubject,
  UpstreamTime,
  UsageRepository,
} from './ports';
import { recordingFailedSpend } from './failed-spend';
import { heldToTaxonomy } from './taxonomy';
import { RESTRICTED_SECONDARY, RESTRICTED_SECONDARY_CODE, type SecondaryProfileCode, type SecondaryProfileName } from './profiles';

export interface CreateSnapDeps {
  credits: CreditsRepository;
  snaps: SnapRepository;
  idempotency: IdempotencyRepository;
  predictor: Predictor;
  failureBudget: FailureBudget;
  usage: UsageRepository;
}

export interface RequestContext {
  requestId: string;
  idempotencyKey?: string;
  /** Aborts when the client is gone: its upstream call is cancelled and nothing is charged. */
  signal?: AbortSignal;
  /** Where the predictor's time is summed (Server-Timing). */
  timing?: UpstreamTime;
}

export type SnapResult = {
  snapId: number;
  snapResponse: Omit<SnapPrediction, 'secondary_profile' | 'secondary_code'> & {
    name: string;
    secondary_profile: SecondaryProfileName | null;
    secondary_code: SecondaryProfileCode | null;
  };
};

export async function createSnap(deps: CreateSnapDeps, caller: Caller, subject: SnapSubject, context: RequestContext): Promise<Idempotent<SnapResult>> {
  await assertWithinFailureBudget(deps.failureBudget, caller.accountId, 'createSnap');
  const call = { accountId: caller.accountId, key: context.idempotencyKey, operation: 'createSnap', input: subject };
  return idempotently(
    deps.idempotency,
    call,
    (claim) =>
      withCreditHeld(deps.credits, caller.accountId, 'createSnap', (hold) =>
        recordingFailedSpend(deps.usage, caller.accountId, (onSpend) => createSnapOnce(deps, hold, subject, { ...context, onSpend }, claim)),
      ),
    (snapId) => storedSnapResult(deps.snaps, caller, snapId),
  );
}

async function createSnapOnce(
  deps: CreateSnapDeps,
  hold: CreditHold,
  subject: SnapSubject,
  context: RequestContext & Pick<PredictContext, 'onSpend'>,
  claim: ClaimedKey | undefined,
): Promise<SnapResult> {
  const { snapResponse, prediction, provenance } = await countingFailures(deps.failureBudget, hold.accountId, 'createSnap', async () => {
    const { result, provenance } = await predict(deps.predictor, subject, context);
    const { prediction } = heldToTaxonomy(result);
    const response = responseOf(subject, prediction);
    assertClientWaiting(context, MESSAGES.snapGenerationFailed);
    return { snapResponse: response, prediction, provenance };
  });
  const stored = await deps.snaps.storeCharged({ hold, subject, prediction, provenance, claim });
  return { snapId: chargedId(stored), snapResponse };
}

/** The prediction as the contract shows it; a Visionary secondary profile is refused. */
function responseOf(subject: Pick<SnapSubject, 'name'>, prediction: SnapPrediction): SnapResult['snapResponse'] {
  const { secondary_profile, secondary_code } = prediction;
  if (secondary_profile === RESTRICTED_SECONDARY || secondary_code === RESTRICTED_SECONDARY_CODE) {
    throw new AppError({ kind: 'generation_failed', message: MESSAGES.visionarySecondary });
  }
  return { name: subject.name, ...prediction, secondary_profile, secondary_code };
}

/** The result of an earlier call, rebuilt from its stored snap for a replay. */
async function storedSnapResult(snaps: SnapRepository, caller: Caller, snapId: number): Promise<SnapResult> {
  const snap = await snaps.findOwned(caller.accountId, snapId);
  if (!snap) throw new AppError({ kind: 'internal', message: MESSAGES.internalError, cause: new Error(`replayed snap ${snapId} is missing`) });
  return { snapId, snapResponse: responseOf(snap.subject, snap.prediction) };
}

async function predict(predictor: Predictor, subject: SnapSubject, { requestId, signal, timing, onSpend }: RequestContext & PredictContext): Promise<Predicted<SnapPrediction>> {
  try {
    return await predictor.predictSnap(subject, { requestId, signal, timing, onSpend });
  } catch (cause) {
    throw new AppError({ kind: 'generation_failed', message: MESSAGES.snapGenerationFailed, cause });
  }
}
