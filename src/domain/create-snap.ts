/**
 * Create a snap (contract §4.1): check a credit is left, predict, refuse a Visionary
 * secondary profile, then charge and store in one transaction. A failure at any step
 * stores nothing and charges nothing.
 */
import { AppError } from './app-error';
import { assertHasCredit, insufficientCredits } from './credits';
import { MESSAGES } from './messages';
import type { Caller, CreditsRepository, SnapRepository } from './ports';
import { RESTRICTED_SECONDARY, RESTRICTED_SECONDARY_CODE, type SecondaryProfileCode, type SecondaryProfileName } from './profiles';
import type { Predicted, Predictor, SnapPrediction, SnapSubject } from '../upstream/predictor';

export interface CreateSnapDeps {
  credits: CreditsRepository;
  snaps: SnapRepository;
  predictor: Predictor;
}

export interface SnapResult {
  snapId: number;
  snapResponse: Omit<SnapPrediction, 'secondary_profile' | 'secondary_code'> & {
    name: string;
    secondary_profile: SecondaryProfileName | null;
    secondary_code: SecondaryProfileCode | null;
  };
}

export async function createSnap(
  deps: CreateSnapDeps,
  caller: Caller,
  subject: SnapSubject,
  requestId: string,
): Promise<SnapResult> {
  await assertHasCredit(deps.credits, caller.accountId);
  const { result: prediction, provenance } = await predict(deps.predictor, subject, requestId);
  const { secondary_profile, secondary_code } = prediction;
  if (secondary_profile === RESTRICTED_SECONDARY || secondary_code === RESTRICTED_SECONDARY_CODE) {
    throw new AppError({ kind: 'generation_failed', message: MESSAGES.visionarySecondary });
  }
  const stored = await deps.snaps.storeCharged({ accountId: caller.accountId, subject, prediction, provenance });
  if (!stored) throw insufficientCredits();
  return { snapId: stored.snapId, snapResponse: { name: subject.name, ...prediction, secondary_profile, secondary_code } };
}

async function predict(predictor: Predictor, subject: SnapSubject, requestId: string): Promise<Predicted<SnapPrediction>> {
  try {
    return await predictor.predictSnap(subject, { requestId });
  } catch (cause) {
    throw new AppError({ kind: 'generation_failed', message: MESSAGES.snapGenerationFailed, cause });
  }
}
