/**
 * The embedded snap predictor: deterministic and offline. It scores the twelve profiles
 * by the lexicon terms (`snap-lexicon.ts`) found in a subject's notes and job title, and
 * fills every field of a prediction.
 *
 * Scoring
 * - Notes and job title are split into words (`snap-words.ts`); the name and the age
 *   range are not evidence.
 * - Each lexicon term found scores once per source however often it repeats: 1 in the
 *   notes, 2 in the job title. Repeating a word does not buy a profile.
 * - Profiles rank by score. Equal scores (including no evidence at all) rank in
 *   taxonomy order rotated by a stable hash of the normalised name, notes and job
 *   title: one input always gives one output, yet people with no evidence do not all
 *   land on the same profile. No randomness, no clock.
 * - Primary: the top profile. Secondary: the best-ranked other profile that is not
 *   Visionary (Visionary may be primary, never secondary).
 *
 * Confidence, from the primary's score and its lead over the next profile (any profile,
 * Visionary included):
 * - High:   score >= 4 and lead >= 2
 * - Medium: score >= 2 and lead >= 1
 * - Low:    anything else (one weak hit, a tie at the top, no evidence)
 *
 * The reasoning quotes only words that matched a lexicon term, never other note text.
 */
import {
  PROFILES,
  RESTRICTED_SECONDARY,
  codeOf,
  type Confidence,
  type ProfileName,
} from '../../domain/profiles';
import type { SnapPrediction, SnapSubject } from '../../domain/ports';
import { buildReasoning, type RankedProfile } from './snap-reasoning';
import { SNAP_LEXICON } from './snap-lexicon';
import { WordIndex, compileTerm, stableHash, toWords, type CompiledTerm, type TermHit } from './snap-words';

export const NOTES_TERM_WEIGHT = 1;
export const JOB_TYPE_TERM_WEIGHT = 2;

export const CONFIDENCE_THRESHOLDS = {
  High: { minScore: 4, minLead: 2 },
  Medium: { minScore: 2, minLead: 1 },
} as const;

/** Used in the texts when the name is blank after trimming. */
const NAME_PLACEHOLDER = 'This person';

/** Each profile in taxonomy order with its lexicon terms, compiled once at load. */
const PROFILE_TERMS: readonly { name: ProfileName; terms: readonly CompiledTerm[] }[] = PROFILES.map(
  (profile) => ({ name: profile.name, terms: SNAP_LEXICON[profile.name].terms.map(compileTerm) }),
);

export function predictSnapEmbedded(subject: SnapSubject): SnapPrediction {
  const notes = toWords(subject.notes);
  const jobType = toWords(subject.jobType ?? '');
  const offset = tieBreakOffset(subject.name, notes, jobType);
  const ranking = rankProfiles(new WordIndex(notes), new WordIndex(jobType), offset);

  const [primary, runnerUp] = ranking;
  const secondary = ranking.find(
    (candidate) => candidate !== primary && candidate.name !== RESTRICTED_SECONDARY,
  );
  if (!primary || !runnerUp || !secondary) throw new Error('the taxonomy needs three profiles');

  const confidence = confidenceOf(primary.score, primary.score - runnerUp.score);
  const name = subject.name.replace(/\s+/gu, ' ').trim() || NAME_PLACEHOLDER;
  return {
    profile: primary.name,
    primary_code: codeOf(primary.name),
    secondary_profile: secondary.name,
    secondary_code: codeOf(secondary.name),
    confidence,
    reasoning: buildReasoning({ ranking, primary, secondary, confidence }),
    summary: SNAP_LEXICON[primary.name].summary(name),
    secondary_profile_summary: SNAP_LEXICON[secondary.name].secondarySummary(name),
  };
}

export function confidenceOf(score: number, lead: number): Confidence {
  const { High, Medium } = CONFIDENCE_THRESHOLDS;
  if (score >= High.minScore && lead >= High.minLead) return 'High';
  if (score >= Medium.minScore && lead >= Medium.minLead) return 'Medium';
  return 'Low';
}

/** Where, in taxonomy order, the rotation for equal scores starts. */
function tieBreakOffset(name: string, notes: readonly string[], jobType: readonly string[]): number {
  const normalised = [toWords(name), notes, jobType].map((words) => words.join(' ')).join('\n');
  return stableHash(normalised) % PROFILES.length;
}

/** Every profile, best first. */
function rankProfiles(notes: WordIndex, jobType: WordIndex, offset: number): RankedProfile[] {
  const scored = PROFILE_TERMS.map(({ name, terms }, index) => {
    const inNotes = hitsOf(notes, terms);
    const inJobType = hitsOf(jobType, terms);
    return {
      name,
      score: inNotes.length * NOTES_TERM_WEIGHT + inJobType.length * JOB_TYPE_TERM_WEIGHT,
      notesWords: distinctInTextOrder(inNotes),
      jobTypeWords: distinctInTextOrder(inJobType),
      tieRank: (index - offset + PROFILES.length) % PROFILES.length,
    };
  });
  return scored
    .sort((a, b) => b.score - a.score || a.tieRank - b.tieRank)
    .map(({ name, score, notesWords, jobTypeWords }) => ({ name, score, notesWords, jobTypeWords }));
}

/** The terms found in a text, in lexicon order. */
function hitsOf(text: WordIndex, terms: readonly CompiledTerm[]): TermHit[] {
  const hits: TermHit[] = [];
  for (const term of terms) {
    const hit = text.find(term);
    if (hit) hits.push(hit);
  }
  return hits;
}

function distinctInTextOrder(hits: readonly TermHit[]): string[] {
  if (hits.length === 0) return []; // most profiles, on most requests
  // Array.prototype.sort is stable: hits at the same place keep lexicon order.
  const ordered = [...hits].sort((a, b) => a.at - b.at);
  return [...new Set(ordered.map((hit) => hit.text))];
}
