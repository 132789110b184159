/**
 * Create a communication analysis for a stored snap (openapi/openapi.yaml, `createCommsAnalysis`):
 * the snap must belong to the caller (another account's snap is answered like a missing
 * one); then hold a credit, analyse, and store the analysis while turning the hold into
 * the charge in one statement. A failure stores nothing and gives the held credit back.
 */
import { AppError } from './app-error';
import type { RequestContext } from './create-snap';
import { assertClientWaiting } from './client-gone';
import { chargedId, withCreditHeld } from './credits';
import { assertWithinFailureBudget, countingFailures } from './failure-budget';
import { idempotently, type Idempotent } from './idempotency';
import { MESSAGES } from './messages';
import type {
  Caller,
  ClaimedKey,
  CommsAnalysis,
  CommsChannel,
  CommsRepository,
  CommsRequest,
  CreditsRepository,
  FailureBudget,
  IdempotencyRepository,
  Predicted,
  Predictor,
  SnapRepository,
  PredictContext,
  StoredSnap,
  UsageRepository,
} from './ports';
import { recordingFailedSpend } from './failed-spend';

export interface CreateCommsDeps {
  credits: CreditsRepository;
  snaps: SnapRepository;
  comms: CommsRepository;
  idempotency: IdempotencyRepository;
  predictor: Predictor;
  failureBudget: FailureBudget;
  usage: UsageRepository;
}

export interface CommsInput {
  snapId: number;
  channel?: CommsChannel;
  goal?: string;
  draft?: string;
}

export type CommsResult = {
  commsId: number;
  snapId: number;
  commsResponse: CommsAnalysis;
};

export async function createCommsAnalysis(deps: CreateCommsDeps, caller: Caller, input: CommsInput, context: RequestContext): Promise<Idempotent<CommsResult>> {
  await assertWithinFailureBudget(deps.failureBudget, caller.accountId, 'createCommsAnalysis');
  const call = { accountId: caller.accountId, key: context.idempotencyKey, operation: 'createCommsAnalysis', input };
  return idempotently(
    deps.idempotency,
    call,
    (claim) => createCommsOnce(deps, caller, input, context, claim),
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
  context: RequestContext,
  claim: ClaimedKey | undefined,
): Promise<CommsResult> {
  const snap = await deps.snaps.findOwned(caller.accountId, input.snapId);
  if (!snap) throw new AppError({ kind: 'not_found', message: MESSAGES.snapNotFound });
  return withCreditHeld(deps.credits, caller.accountId, 'createCommsAnalysis', (hold) =>
    recordingFailedSpend(deps.usage, caller.accountId, async (onSpend) => {
      const { result, provenance } = await countingFailures(deps.failureBudget, caller.accountId, 'createCommsAnalysis', async () => {
        const analysed = await analyse(deps.predictor, requestFor(snap, input), { ...context, onSpend });
        assertClientWaiting(context, MESSAGES.commsGenerationFailed);
        return analysed;
      });
      // The analysis is of the stored snap's profile, whatever profile the model named (contract: CommsResponse).
      const analysis: CommsAnalysis = { ...result, profile: snap.prediction.profile, primary_code: snap.prediction.primary_code };
      const { snapId, channel, goal, draft } = input;
      const stored = await deps.comms.storeCharged({ hold, snapId, request: { channel, goal, draft }, analysis, provenance, claim });
      return { commsId: chargedId(stored), snapId, commsResponse: analysis };
    }),
  );
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

async function analyse(predictor: Predictor, request: CommsRequest, { requestId, signal, timing, onSpend }: RequestContext & PredictContext): Promise<Predicted<CommsAnalysis>> {
  try {
    return await predictor.analyseComms(request, { requestId, signal, timing, onSpend });
  } catch (cause) {
    throw new AppError({ kind: 'generation_failed', message: MESSAGES.commsGenerationFailed, cause });
  }
}
