/**
 * The `reasoning` text of an embedded snap prediction: which matched words drove the
 * primary and secondary profiles, and why the confidence is what it is; or, when no
 * profile is given, why not. It quotes only words that matched a lexicon term (letters,
 * digits and spaces), never other note text; a profile the learned word weights
 * (`snap-word-weights.ts`) put ahead without a lexicon term is said to be so, unquoted.
 */
import { RESTRICTED_SECONDARY, type Confidence, type ProfileName } from '../../domain/profiles';

/** A profile's place in the ranking, with the matched words in text order. */
export interface RankedProfile {
  name: ProfileName;
  score: number;
  notesWords: readonly string[];
  jobTypeWords: readonly string[];
}

export interface ReasoningInput {
  /** Every profile, best first. */
  ranking: readonly RankedProfile[];
  primary: RankedProfile;
  /** With no evidence of its own when no other profile had any (a neighbour of the primary). */
  secondary: RankedProfile;
  confidence: Confidence;
}

/** Beyond this, a list of matched words ends with "and N more". */
const MAX_QUOTED_WORDS = 5;

/** Why no profile is given. */
export type AbstentionCause =
  /** The notes are in a language the lexicon does not read (its English name). */
  | { language: string }
  /** No lexicon term or synonym matched, and too few of the words many labelled people used. */
  | 'no evidence'
  /** Some weak evidence, in notes that read like a record of facts and arrangements (`snap-no-evidence.ts`). */
  | 'reads like a record'
  /** A Low answer from notes of fewer words than `LOW_ANSWER_MIN_WORDS` (snap-prediction.ts). */
  | 'too few words';

const ASK_FOR_BEHAVIOUR = 'Confidence is Low; notes on how the person works, decides or deals with others would give one.';

export function abstentionReasoning(cause: AbstentionCause): string {
  if (typeof cause === 'object') {
    return (
      `The notes appear to be written in ${cause.language}; the embedded predictor reads English ` +
      'notes only, so it gives no profile rather than a guess. Confidence is Low.'
    );
  }
  if (cause === 'too few words') {
    return (
      'The notes are too short for a profile: what points to one in them is a weak lead in a ' +
      `few words, so no profile is given rather than a guess. ${ASK_FOR_BEHAVIOUR}`
    );
  }
  if (cause === 'reads like a record') {
    return (
      'The notes read like a record of facts and arrangements (roles, dates, logistics) rather ' +
      'than a description of how the person behaves, and what points to a profile in them is ' +
      `too weak to outweigh that, so no profile is given rather than a guess. ${ASK_FOR_BEHAVIOUR}`
    );
  }
  return (
    'The notes and job title hold no behavioural evidence: no term from the profile lexicon ' +
    'matched and the wording points to no profile clearly, so no profile is given rather ' +
    `than a guess. ${ASK_FOR_BEHAVIOUR}`
  );
}

export function buildReasoning(input: ReasoningInput): string {
  return [
    primarySentence(input.primary),
    tieSentence(input),
    secondarySentence(input.secondary),
    visionarySentence(input),
    confidenceSentence(input),
  ]
    .filter((sentence) => sentence !== '')
    .join(' ');
}

/** How the reasoning names the learned word weights (`snap-word-weights.ts`). */
const LEARNED_WORDS = 'the wording of the notes, weighed as in the labelled examples,';

function primarySentence(primary: RankedProfile): string {
  if (!hasEvidence(primary)) return `No lexicon term matched ${primary.name}, but ${LEARNED_WORDS} points to it.`;
  const clauses: string[] = [];
  if (primary.jobTypeWords.length > 0) {
    clauses.push(`the job title mentions ${quoteList(primary.jobTypeWords)}`);
  }
  if (primary.notesWords.length > 0) {
    clauses.push(`the notes mention ${quoteList(primary.notesWords)}`);
  }
  const count = primary.jobTypeWords.length + primary.notesWords.length;
  const evidence = clauses.join(' and ').replace(/^t/u, 'T');
  return `${evidence}, which ${count === 1 ? 'points' : 'point'} to ${primary.name}.`;
}

function tieSentence({ ranking, primary }: ReasoningInput): string {
  const tied = ranking.filter((other) => other !== primary && other.score === primary.score);
  if (tied.length === 0) return '';
  const names = joinWithAnd(tied.map((other) => other.name));
  return (
    `${names} scored the same; ${primary.name} goes first because its evidence is in the job ` +
    'title or comes first in the notes, so the choice between them is uncertain.'
  );
}

function secondarySentence(secondary: RankedProfile): string {
  if (!hasEvidence(secondary)) {
    return (
      `Nothing pointed to another profile, so ${secondary.name}, next to the primary in the ` +
      'taxonomy, is a tentative secondary.'
    );
  }
  const words = [...new Set([...secondary.jobTypeWords, ...secondary.notesWords])];
  const verb = words.length === 1 ? 'points' : 'point';
  return `${quoteList(words)} ${verb} to ${secondary.name} as the secondary profile.`;
}

function visionarySentence({ ranking, primary, secondary }: ReasoningInput): string {
  if (primary.name === RESTRICTED_SECONDARY) return '';
  const visionary = ranking.find((profile) => profile.name === RESTRICTED_SECONDARY);
  if (!visionary || !hasEvidence(visionary)) return '';
  if (hasEvidence(secondary) && ranking.indexOf(visionary) > ranking.indexOf(secondary)) return '';
  const words = [...new Set([...visionary.jobTypeWords, ...visionary.notesWords])];
  return (
    `${RESTRICTED_SECONDARY} terms (${quoteList(words)}) also appeared, but ` +
    `${RESTRICTED_SECONDARY} is never given as a secondary profile.`
  );
}

function confidenceSentence({ ranking, primary, confidence }: ReasoningInput): string {
  const next = ranking.find((other) => other !== primary);
  const lead = primary.score - (next?.score ?? 0);
  const position = lead === 0 ? 'level with' : `${rounded(lead)} ahead of`;
  if (!hasEvidence(primary)) {
    return `Confidence is ${confidence}: no lexicon term points to ${primary.name}, only the wording (a score of ${rounded(primary.score)}, ${position} the next profile).`;
  }
  return (
    `Confidence is ${confidence}: an evidence score of ${rounded(primary.score)} ` +
    '(a lexicon term counts 1 in the notes and 0.5 in the job title, a WordNet synonym of one half that, ' +
    `plus the learned weights of the notes' words), ${position} the next profile.`
  );
}

/** A lexicon term or synonym matched for the profile (the learned word weights are not evidence of their own). */
export function hasEvidence(profile: RankedProfile): boolean {
  return profile.notesWords.length + profile.jobTypeWords.length > 0;
}

/** A score as the reasoning prints it: at most two decimals ("2.35", "3"). */
function rounded(score: number): string {
  return String(Math.round(score * 100) / 100);
}

/** `"a"`, `"a" and "b"`, `"a", "b" and "c"`, … `"a", "b", "c", "d", "e" and 2 more`. */
function quoteList(words: readonly string[]): string {
  const quoted = words.slice(0, MAX_QUOTED_WORDS).map((word) => `"${word}"`);
  const more = words.length - quoted.length;
  return more > 0 ? `${quoted.join(', ')} and ${more} more` : joinWithAnd(quoted);
}

function joinWithAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.slice(-1).join('')}`;
}
