/**
 * The comms prompt, version `comms-v2` (v2: no name, the texts say SUBJECT_REFERENCE).
 * Change the text ⇒ bump the version: the version is stored with every analysis
 * (Provenance.promptVersion).
 */
import type { CommsRequest } from '../../domain/ports';
import { SUBJECT_REFERENCE } from '../../domain/subject-name';
import { dataBlock, dataBlockRule } from './data-block';
import type { PromptMessages } from './prompt-messages';
import { taxonomyLines } from './taxonomy-prompt';

export const COMMS_PROMPT_VERSION = 'comms-v2';

const DATA_TAG = 'comms_data';

const SYSTEM = [
  'You advise someone on how to communicate with a person whose behavioural profile has been predicted.',
  '',
  'The taxonomy has twelve profiles, each with a two-letter code:',
  taxonomyLines(),
  '',
  'Answer with one JSON object with exactly these fields:',
  "- profile: the person's primary profile as given in the data, or null when none is given.",
  '- primary_code: the code of that profile.',
  '- summary: two or three sentences on how this person prefers to be communicated with.',
  '- do: three to six short pieces of advice on what to do.',
  '- dont: three to six short pieces of advice on what to avoid.',
  '- phrases_to_use: three to six phrases likely to land well with this person.',
  '- phrases_to_avoid: three to six phrases likely to land badly with this person.',
  '- draft_analysis: when the data holds a draft, an object with',
  '  fit_score (an integer from 0 to 100: how well the draft suits this person),',
  '  issues (a list of {excerpt, suggestion}, each excerpt quoted exactly from the draft) and',
  '  rewrite (the draft rewritten to suit this person);',
  '  when the draft is null, draft_analysis is null.',
  'Tailor the advice to the channel (email, chat, call or meeting) and to the goal when the data gives them.',
  'A piece of advice is never both in do and in dont; a suggestion says what to write instead, never the excerpt itself.',
  `You are not told the person's name. In every text, call them "${SUBJECT_REFERENCE}".`,
  '',
  dataBlockRule(DATA_TAG, "the person's predicted profiles and the channel, goal and draft"),
].join('\n');

export function buildCommsPrompt(request: CommsRequest): PromptMessages {
  const data = {
    person: {
      profile: request.profile,
      primary_code: request.primaryCode,
      secondary_profile: request.secondaryProfile,
    },
    channel: request.channel ?? null,
    goal: request.goal ?? null,
    draft: draftOf(request),
  };
  return {
    system: SYSTEM,
    user: `Advise on communicating with the person described here.\n\n${dataBlock(DATA_TAG, data)}`,
  };
}

/** The draft to analyse, or null when the request has none (absent or blank). */
export function draftOf(request: CommsRequest): string | null {
  return request.draft !== undefined && request.draft.trim() !== '' ? request.draft : null;
}
