/**
 * Create a snap (contract §4.1): check a credit is left, predict, refuse a Visionary
 * secondary profile, then charge and store in one transaction. A failure at any step
 * stores nothing and charges nothing. With an Idempotency-Key, it runs once per key.
 */
import { AppError } from './app-error';
import { assertHasCredit, insufficientCredits } from './credits';
import { idempotently, type Idempotent } from './idempotency';
import { MESSAGES } from './messages';
import type { Caller, CreditsRepository, IdempotencyRepository, SnapRepository } from './ports';
import { RESTRICTED_SECONDARY, RESTRICTED_SECONDARY_CODE, type SecondaryProfileCode, type SecondaryProfileName } from './profiles';
import type { Predicted, Predictor, SnapPrediction, SnapSubject } from './ports';

export interface CreateSnapDeps {
  credits: CreditsRepository;
  snaps: SnapRepository;
  idempotency: IdempotencyRepository;
  predictor: Predictor;
}

export interface RequestContext {
  requestId: string;
  idempotencyKey?: string;
}

export interface SnapResult {
  snapId: number;
  snapResponse: Omit<SnapPrediction, 'secondary_profile' | 'secondary_code'> & {
    name: string;
    secondary_profile: SecondaryProfileName | null;
    secondary_code: SecondaryProfileCode | null;
  };
}

export function createSnap(deps: CreateSnapDeps, caller: Caller, subject: SnapSubject, context: RequestContext): Promise<Idempotent<SnapResult>> {
  const call = { accountId: caller.accountId, key: context.idempotencyKey, operation: 'createSnap', input: subject };
  return idempotently(
    deps.idempotency,
    call,
    (claimedKey) => createSnapOnce(deps, caller, subject, context.requestId, claimedKey),
    (snapId) => storedSnapResult(deps.snaps, caller, snapId),
  );
}

async function createSnapOnce(
  deps: CreateSnapDeps,
  caller: Caller,
  subject: SnapSubject,
  requestId: string,
  idempotencyKey: string | undefined,
): Promise<SnapResult> {
  await assertHasCredit(deps.credits, caller.accountId);
  const { result: prediction, provenance } = await predict(deps.predictor, subject, requestId);
  const snapResponse = responseOf(subject, prediction);
  const stored = await deps.snaps.storeCharged({ accountId: caller.accountId, subject, prediction, provenance, idempotencyKey });
  if (!stored) throw insufficientCredits();
  return { snapId: stored.snapId, snapResponse };
}

/** The prediction as the contract shows it; a Visionary secondary profile is refused. */
function responseOf(subject: SnapSubject, prediction: SnapPrediction): SnapResult['snapResponse'] {
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

async function predict(predictor: Predictor, subject: SnapSubject, requestId: string): Promise<Predicted<SnapPrediction>> {
  try {
    return await predictor.predictSnap(subject, { requestId });
  } catch (cause) {
    throw new AppError({ kind: 'generation_failed', message: MESSAGES.snapGenerationFailed, cause });
  }
}
