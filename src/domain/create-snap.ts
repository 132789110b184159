/**
 * Create a snap (openapi/openapi.yaml, `createSnap`), as one paid call (paid-call.ts):
 * predict without the name and put it in the texts afterwards (subject-name.ts), hold
 * the answer to the taxonomy (taxonomy.ts), refuse a Visionary secondary
 * profile (a failure of the call, counted against the budget), then store the snap and
 * turn the hold into the charge in one statement.
 */
import { AppError } from './app-error';
import { chargedId } from './credits';
import type { Idempotent } from './idempotency';
import { MESSAGES } from './messages';
import { paidCall, type PaidCallDeps, type RequestContext } from './paid-call';
import type { Caller, SnapPrediction, SnapRepository, SnapSubject } from './ports';
import { namedPrediction, withoutName } from './subject-name';
import { heldToTaxonomy } from './taxonomy';
import { assertWithinTokens, SNAP_TEXT_TOKENS } from './text-tokens';
import { nameOf, RESTRICTED_SECONDARY, RESTRICTED_SECONDARY_CODE, type SecondaryProfileCode, type SecondaryProfileName } from './profiles';

export interface CreateSnapDeps extends PaidCallDeps {
  snaps: SnapRepository;
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
  // Before anything is held: the texts the model is sent fit its token budget (text-tokens.ts),
  // counted as the client wrote them. The name replaced in the notes ("the person") may add a
  // few tokens, never so many that English text within the character bounds is refused.
  assertWithinTokens([subject.notes, subject.ageRange, subject.jobType], SNAP_TEXT_TOKENS, 'notes, ageRange and jobType');
  const anonymous = withoutName(subject);
  return paidCall(deps, {
    operation: 'createSnap',
    caller,
    input: subject,
    context,
    failureMessage: MESSAGES.snapGenerationFailed,
    // The subject is the request itself: nothing to read before the hold.
    load: async () => subject,
    predict: (predictor, _subject, predictContext) => predictor.predictSnap(anonymous, predictContext),
    judge: ({ result, provenance }) => {
      // The model's own secondary, before the taxonomy drops one that repeats the primary: a Visionary secondary is refused even then.
      refuseRestrictedSecondary(result);
      const { prediction } = heldToTaxonomy(namedPrediction(result, subject.name));
      return { prediction, provenance, snapResponse: sellableResponse(subject, prediction) };
    },
    store: async (hold, { prediction, provenance, snapResponse }, claim) => {
      const stored = await deps.snaps.storeCharged({ hold, subject, prediction, provenance, claim });
      return { snapId: chargedId(stored), snapResponse };
    },
    replay: (snapId) => storedSnapResult(deps.snaps, caller, snapId),
  });
}

/**
 * Refuses the model's answer when its secondary profile is Visionary, as the taxonomy
 * reads it (the name decides; a code counts without a name), before the taxonomy's
 * repairs: a Visionary secondary that repeats a Visionary primary is refused too, not
 * dropped as a repeat (the call fails uncharged, openapi/openapi.yaml).
 */
function refuseRestrictedSecondary({ secondary_profile, secondary_code }: SnapPrediction): void {
  if ((secondary_profile ?? (secondary_code === null ? null : nameOf(secondary_code))) === RESTRICTED_SECONDARY) throw visionarySecondaryRefused();
}

/** The contract's 500 for a Visionary secondary profile: the call fails uncharged. */
function visionarySecondaryRefused(): AppError {
  return new AppError({ kind: 'generation_failed', message: MESSAGES.visionarySecondary });
}

/** The prediction as the contract shows it, if it may be sold: a stored one with a Visionary secondary is refused too. */
function sellableResponse(subject: Pick<SnapSubject, 'name'>, prediction: SnapPrediction): SnapResult['snapResponse'] {
  const { secondary_profile, secondary_code } = prediction;
  if (secondary_profile === RESTRICTED_SECONDARY || secondary_code === RESTRICTED_SECONDARY_CODE) throw visionarySecondaryRefused();
  return { name: subject.name, ...prediction, secondary_profile, secondary_code };
}

/** The result of an earlier call, rebuilt from its stored snap for a replay. */
async function storedSnapResult(snaps: SnapRepository, caller: Caller, snapId: number): Promise<SnapResult> {
  const snap = await snaps.findOwned(caller.accountId, snapId);
  if (!snap) throw new AppError({ kind: 'internal', message: MESSAGES.internalError, cause: new Error(`replayed snap ${snapId} is missing`) });
  return { snapId, snapResponse: sellableResponse(snap.subject, snap.prediction) };
}
