/**
 * Create a communication analysis for a stored snap (DESIGN.md, "POST /api/v1/snap/comms"):
 * the snap must belong to the caller (another account's snap is answered like a missing
 * one), a credit must be left, then analyse, then charge and store in one transaction.
 */
import { AppError } from './app-error';
import type { RequestContext } from './create-snap';
import { assertHasCredit, insufficientCredits } from './credits';
import { idempotently, type Idempotent } from './idempotency';
import { MESSAGES } from './messages';
import type { Caller, CommsRepository, CreditsRepository, IdempotencyRepository, SnapRepository, StoredSnap } from './ports';
import type { CommsAnalysis, CommsChannel, CommsRequest, Predicted, Predictor } from './ports';

export interface CreateCommsDeps {
  credits: CreditsRepository;
  snaps: SnapRepository;
  comms: CommsRepository;
  idempotency: IdempotencyRepository;
  predictor: Predictor;
}

export interface CommsInput {
  snapId: number;
  channel?: CommsChannel;
  goal?: string;
  draft?: string;
}

export interface CommsResult {
  commsId: number;
  snapId: number;
  commsResponse: CommsAnalysis;
}

export function createCommsAnalysis(deps: CreateCommsDeps, caller: Caller, input: CommsInput, context: RequestContext): Promise<Idempotent<CommsResult>> {
  const call = { accountId: caller.accountId, key: context.idempotencyKey, operation: 'createCommsAnalysis', input };
  return idempotently(
    deps.idempotency,
    call,
    (claimedKey) => createCommsOnce(deps, caller, input, context.requestId, claimedKey),
    (commsId) => storedCommsResult(deps.comms, caller, commsId),
  );
}

/** The result of an earlier call, rebuilt from its stored analysis for a replay. */
async function storedCommsResult(comms: CommsRepository, caller: Caller, commsId: number): Promise<CommsResult> {
  const stored = await comms.findOwned(caller.accountId, commsId);
  if (!stored) throw new AppError({ kind: 'internal', message: MESSAGES.internalError, cause: new Error(`replayed analysis ${commsId} is missing`) });
  return { commsId, snapId: stored.snapId, commsResponse: stored.analysis };
}

async function createCommsOnce(
  deps: CreateCommsDeps,
  caller: Caller,
  input: CommsInput,
  requestId: string,
  idempotencyKey: string | undefined,
): Promise<CommsResult> {
  const snap = await deps.snaps.findOwned(caller.accountId, input.snapId);
  if (!snap) throw new AppError({ kind: 'not_found', message: MESSAGES.snapNotFound });
  await assertHasCredit(deps.credits, caller.accountId);
  const { result: analysis, provenance } = await analyse(deps.predictor, requestFor(snap, input), requestId);
  const { snapId, channel, goal, draft } = input;
  const stored = await deps.comms.storeCharged({ accountId: caller.accountId, snapId, request: { channel, goal, draft }, analysis, provenance, idempotencyKey });
  if (!stored) throw insufficientCredits();
  return { commsId: stored.commsId, snapId, commsResponse: analysis };
}

function requestFor(snap: StoredSnap, input: CommsInput): CommsRequest {
  return {
    subjectName: snap.subject.name,
    profile: snap.prediction.profile,
    primaryCode: snap.prediction.primary_code,
    secondaryProfile: snap.prediction.secondary_profile,
    channel: input.channel,
    goal: input.goal,
    draft: input.draft,
  };
}

async function analyse(predictor: Predictor, request: CommsRequest, requestId: string): Promise<Predicted<CommsAnalysis>> {
  try {
    return await predictor.analyseComms(request, { requestId });
  } catch (cause) {
    throw new AppError({ kind: 'generation_failed', message: MESSAGES.commsGenerationFailed, cause });
  }
}
