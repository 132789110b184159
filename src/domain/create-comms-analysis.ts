/**
 * Create a communication analysis for a stored snap (openapi/openapi.yaml,
 * `createCommsAnalysis`), as one paid call (paid-call.ts): the snap must belong to the
 * caller (another account's snap is answered like a missing one) and have a profile
 * (comms-sense.ts: 422 before any hold); then analyse without the name, hold the answer
 * to sense with the name put in (comms-sense.ts, subject-name.ts), and store the analysis
 * while turning the hold into the charge in one statement.
 */
import { assertWithinTokens, COMMS_TEXT_TOKENS } from './text-tokens';
import { AppError } from './app-error';
import { chargedId } from './credits';
import type { Idempotent } from './idempotency';
import { MESSAGES } from './messages';
import { paidCall, type PaidCallDeps, type RequestContext } from './paid-call';
import type { Caller, CommsAnalysis, CommsChannel, CommsRepository, CommsRequest, SnapRepository, StoredSnap } from './ports';
import { assertAdvisable, heldToSense } from './comms-sense';

export interface CreateCommsDeps extends PaidCallDeps {
  snaps: SnapRepository;
  comms: CommsRepository;
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
  const { snapId, channel, goal, draft } = input;
  // Before anything is held: the texts the model is sent fit its token budget (text-tokens.ts).
  assertWithinTokens([goal, draft], COMMS_TEXT_TOKENS, 'goal and draft');
  return paidCall(deps, {
    operation: 'createCommsAnalysis',
    caller,
    input,
    context,
    failureMessage: MESSAGES.commsGenerationFailed,
    load: () => ownedSnap(deps.snaps, caller, snapId),
    predict: (predictor, snap, predictContext) => predictor.analyseComms(requestFor(snap, input), predictContext),
    // The analysis is of the stored snap's profile, whatever profile the model named (openapi/openapi.yaml, CommsResponse).
    judge: ({ result, provenance }, snap) => ({
      analysis: { ...heldToSense(result, draft, snap.subject.name), profile: snap.prediction.profile, primary_code: snap.prediction.primary_code },
      provenance,
    }),
    store: async (hold, { analysis, provenance }, claim) => {
      const stored = await deps.comms.storeCharged({ hold, snapId, request: { channel, goal, draft }, analysis, provenance, claim });
      return { commsId: chargedId(stored), snapId, commsResponse: analysis };
    },
    replay: (commsId) => storedCommsResult(deps.comms, caller, commsId),
  });
}

/** The caller's snap, with a profile to advise on; another account's is answered like a missing one. */
async function ownedSnap(snaps: SnapRepository, caller: Caller, snapId: number): Promise<StoredSnap> {
  const snap = await snaps.findOwned(caller.accountId, snapId);
  if (!snap) throw new AppError({ kind: 'not_found', message: MESSAGES.snapNotFound });
  assertAdvisable(snap);
  return snap;
}

/** The result of an earlier call, rebuilt from its stored analysis for a replay. */
async function storedCommsResult(comms: CommsRepository, caller: Caller, commsId: number): Promise<CommsResult> {
  const stored = await comms.findOwned(caller.accountId, commsId);
  if (!stored) throw new AppError({ kind: 'internal', message: MESSAGES.internalError, cause: new Error(`replayed analysis ${commsId} is missing`) });
  return { commsId, snapId: stored.snapId, commsResponse: stored.analysis };
}

function requestFor(snap: StoredSnap, input: CommsInput): CommsRequest {
  return {
    profile: snap.prediction.profile,
    primaryCode: snap.prediction.primary_code,
    secondaryProfile: snap.prediction.secondary_profile,
    channel: input.channel,
    goal: input.goal,
    draft: input.draft,
  };
}
