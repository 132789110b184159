/**
 * The snap prompt, version `snap-v3` (v2: reasoning first, before the verdict; v3: no
 * name, the texts say SUBJECT_REFERENCE, and null profiles when there is no evidence).
 * Change the text ⇒ bump the version: the version is stored with every prediction
 * (Provenance.promptVersion).
 */
import { RESTRICTED_SECONDARY } from '../../domain/profiles';
import type { AnonymousSubject } from '../../domain/ports';
import { SUBJECT_REFERENCE } from '../../domain/subject-name';
import { dataBlock, dataBlockRule } from './data-block';
import type { PromptMessages } from './prompt-messages';
import { taxonomyLines } from './taxonomy-prompt';

export const SNAP_PROMPT_VERSION = 'snap-v3';

const DATA_TAG = 'person_data';

const SYSTEM = [
  'You predict the behavioural profile of a person from a short description written by someone who knows them.',
  '',
  'The taxonomy has twelve profiles, each with a two-letter code:',
  taxonomyLines(),
  '',
  'Answer with one JSON object with exactly these fields, in this order:',
  '- reasoning: two to four sentences on the evidence in the description that leads to the prediction.',
  '- profile: the primary profile, one of the twelve names above.',
  '- primary_code: the code of the primary profile.',
  '- secondary_profile: the next best fitting profile, one of the twelve names, different from the primary.',
  `  ${RESTRICTED_SECONDARY} is never the secondary profile: if it fits second best, choose the next best one instead.`,
  '- secondary_code: the code of the secondary profile.',
  '- confidence: High, Medium or Low, for how well the description supports the prediction.',
  '- summary: two or three sentences describing the person in terms of the primary profile.',
  '- secondary_profile_summary: one or two sentences on how the secondary profile shows.',
  'Use null for a field only when the description gives no basis for it. When the description says',
  'nothing about how the person behaves, works or deals with others, answer null for every field',
  'but reasoning and confidence, and confidence Low: no profile is better than a guess.',
  `You are not told the person's name. In every text, call them "${SUBJECT_REFERENCE}" (e.g. "The person checks every figure twice").`,
  '',
  dataBlockRule(DATA_TAG, 'the description of the person (age range, job type and notes)'),
].join('\n');

export function buildSnapPrompt(subject: AnonymousSubject): PromptMessages {
  const person = {
    ageRange: subject.ageRange ?? null,
    jobType: subject.jobType ?? null,
    notes: subject.notes,
  };
  return {
    system: SYSTEM,
    user: `Predict the profiles of the person described here.\n\n${dataBlock(DATA_TAG, person)}`,
  };
}
