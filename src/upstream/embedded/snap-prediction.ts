/**
 * The embedded snap predictor: deterministic and offline. It scores the twelve profiles
 * by the lexicon terms (`snap-lexicon.ts`) found in a subject's notes and job title, and
 * fills every field of a prediction. It never sees the person's name (the domain keeps
 * it back): its texts say "The person", and the service puts the name in afterwards.
 *
 * Scoring
 * - Notes and job title are split into words (`snap-words.ts`); the age range is not
 *   evidence.
 * - Terms are looked for longest first (`snap-terms.ts`): a phrase takes its words, and
 *   a shorter term of any profile is not found on them again; everyday phrases
 *   (`NEUTRAL_PHRASES`: "direct report", "some kind of") take their words for no profile.
 * - Each lexicon term found scores 1 in the notes and 0.5 in the job title, once per
 *   source however often it repeats (a job title says what someone does, not how; the
 *   evaluation set's people are often not their job's obvious profile). Repeating a
 *   word does not buy a profile.
 * - A WordNet synonym of a term (`snap-synonyms.ts`), a word no term matched, scores
 *   half as much: notes in other words than the lexicon's still count, as weaker evidence.
 * - Every word of the notes adds its learned weights (`snap-word-weights.ts`: naive Bayes
 *   over word stems, learned from the evaluation set's development half; a word weighs
 *   under a fifth of a term for most profiles, about 1.5 at most), except a word of an
 *   everyday phrase: the wording the lexicon misses, so that a short paraphrase or a
 *   near-tie leans the way the labelled people's wording did. On people the lexicon was
 *   not written from, the weights name the primary more often than the lexicon does, and
 *   they can outweigh a lead of one term.
 * - Profiles rank by score. Equal scores rank by the evidence alone: the profile with
 *   more job-title hits first, then the one whose first hit comes earlier in the
 *   notes, then taxonomy order. No name, no hash, no randomness, no clock.
 * - Primary: the top profile. Secondary: the best-ranked other profile with a lexicon
 *   term or synonym that is not Visionary (Visionary may be primary, never secondary; the
 *   learned weights alone pick secondaries badly: they are learned from primaries); when
 *   no other profile has one, the primary's neighbour in its group of the taxonomy (Trailblazer,
 *   Challenger, Visionary | Catalyst, Connector, Ambassador | Nurturer, Peacemaker,
 *   Steward | Systematizer, Precisionist, Investigator), as a tentative secondary.
 *
 * No evidence, no profile: every profile field is null and the confidence is Low, and the
 * reasoning says why, when
 * - the notes are written in a language the lexicon does not read (`notes-language.ts`);
 * - no lexicon term or synonym matched and fewer than `LEARNED_ONLY_MIN_STEMS` standalone
 *   stems (words many labelled people used) are in the notes; or
 * - the answer would be below High and the notes read like the evaluation set's
 *   no-evidence notes (admin, logistics, plain facts) more than like its descriptions
 *   (`snap-no-evidence.ts`): a weak term in a note about a meeting's room and agenda is
 *   not behaviour. In cross-validation this let the learned weights answer whenever two
 *   standalone stems are there (they had needed a lead of 0.5 to keep such notes out);
 * - the answer would be Low and the notes are shorter than `LOW_ANSWER_MIN_WORDS` words.
 *
 * Confidence, from the primary's lead over the next profile (any profile, Visionary
 * included); in person-grouped cross-validation on the development half of the
 * evaluation set (`make eval-cv`, docs/evaluation.md, "Cross-validation on the development
 * half", whose figures rise from Low to High), on the people the lexicon was not written from:
 * - High:   score >= 3 and lead >= 3
 * - Medium: lead >= 1
 * - Low:    a tie at the top, less than a point ahead, or a primary with no lexicon term
 *           or synonym of its own (the learned weights alone put it first)
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
import type { AnonymousSubject, SnapPrediction } from '../../domain/ports';
import { SUBJECT_REFERENCE } from '../../domain/subject-name';
import { unsupportedLanguageOf } from './notes-language';
import { abstentionReasoning, buildReasoning, hasEvidence, type RankedProfile } from './snap-reasoning';
import { SNAP_LEXICON } from './snap-lexicon';
import { NEUTRAL_PHRASES } from './snap-terms';
import { synonymHits } from './snap-synonyms';
import { SNAP_NO_EVIDENCE, readsLikeNoEvidence, type NoEvidenceDetector } from './snap-no-evidence';
import { SNAP_WORD_WEIGHTS, stemsAndPairs, learnedScores, standaloneCount, type WordWeights } from './snap-word-weights';
import { TermsByFirstWord } from './terms-by-first-word';
import { WordIndex, compileTerm, toWords, type CompiledTerm, type TermHit } from './snap-words';

export const NOTES_TERM_WEIGHT = 1;
/** A job title says what someone does, not how they do it: half a notes term. */
export const JOB_TYPE_TERM_WEIGHT = 0.5;
/** A WordNet synonym of a term (`snap-synonyms.ts`) is weaker evidence than the term. */
export const SYNONYM_WEIGHT = 0.5;

/**
 * With no lexicon term or synonym at all, the learned weights give a (Low) profile only
 * from at least this many distinct standalone stems (words many labelled people used):
 * one word is a topic, not a behaviour. With the weights learned from 483 development
 * people, "met" alone put Connector 0.5 ahead, and "Met at the conference." was answered.
 */
export const LEARNED_ONLY_MIN_STEMS = 2;

/**
 * A Low answer needs notes of at least this many words: a weak lead in two or three words
 * ("Says no.", "Good meeting.", "Mondays off.") is a guess on a word, not a profile. A
 * clear lead (Medium or High) answers however short the notes. In cross-validation on the
 * development half (`make eval-cv`, five seeds, 634 notes) it took the no-evidence notes
 * abstained on from 93.2% to 95.4% and changed no description's answer; a bar of five
 * words would have cost descriptions (docs/evaluation.md).
 */
export const LOW_ANSWER_MIN_WORDS = 4;

export const CONFIDENCE_THRESHOLDS = {
  High: { minScore: 3, minLead: 3 },
  Medium: { minScore: 1, minLead: 1 },
} as const;

/** How the texts name the person: the domain replaces it with the name. */
const PERSON = SUBJECT_REFERENCE.charAt(0).toUpperCase() + SUBJECT_REFERENCE.slice(1);

/** Each profile in taxonomy order with its lexicon terms, compiled once at load. */
const PROFILE_TERMS: readonly { name: ProfileName; terms: readonly CompiledTerm[] }[] = PROFILES.map(
  (profile) => ({ name: profile.name, terms: SNAP_LEXICON[profile.name].terms.map(compileTerm) }),
);

/**
 * Every term with its profile's index, longest first: a phrase is looked for before the
 * words it holds, and the words it matched are not counted again ("asks questions" is
 * Investigator's phrase; "questions" alone is not counted as well). Indexed by first word:
 * a text is compared only with the terms that can start in it.
 */
const TERMS_LONGEST_FIRST = new TermsByFirstWord(
  PROFILE_TERMS.flatMap(({ terms }, profile) => terms.map((term) => ({ profile, term }))).sort((a, b) => b.term.length - a.term.length),
);

/** Everyday phrases that take their words for no profile (`NEUTRAL_PHRASES`). */
const NEUTRAL: readonly CompiledTerm[] = NEUTRAL_PHRASES.map(compileTerm);

export function predictSnapEmbedded(subject: AnonymousSubject, weights: WordWeights = SNAP_WORD_WEIGHTS, detector: NoEvidenceDetector = SNAP_NO_EVIDENCE): SnapPrediction {
  const language = unsupportedLanguageOf(subject.notes);
  if (language !== undefined) return abstention(abstentionReasoning({ language }));
  return predictFromLexicon(subject, weights, detector);
}

/** The prediction the lexicon's evidence gives, whatever language the notes are in (`predictSnapEmbedded` asks that first). */
export function predictFromLexicon(subject: AnonymousSubject, weights: WordWeights = SNAP_WORD_WEIGHTS, detector: NoEvidenceDetector = SNAP_NO_EVIDENCE): SnapPrediction {
  const notesWords = toWords(subject.notes);
  const notes = new WordIndex(notesWords);
  const notesNeutral = neutralPositions(notes);
  const stems = stemsAndPairs(notes, notesNeutral);
  const ranking = rankProfiles(notes, notesNeutral, toWords(subject.jobType ?? ''), learnedScores(stems, weights.weights, PROFILES.length));
  const [primary, runnerUp] = ranking;
  if (!primary || !runnerUp) throw new Error('the taxonomy needs two profiles');
  const lead = primary.score - runnerUp.score;
  const anyEvidence = ranking.some(hasEvidence);
  if (!anyEvidence && standaloneCount(stems, weights) < LEARNED_ONLY_MIN_STEMS) return abstention(abstentionReasoning('no evidence'));
  const confidence = hasEvidence(primary) ? confidenceOf(primary.score, lead) : 'Low';
  if (confidence === 'Low' && notesWords.length < LOW_ANSWER_MIN_WORDS) return abstention(abstentionReasoning('too few words'));
  if (confidence !== 'High' && readsLikeNoEvidence(stems, detector)) return abstention(abstentionReasoning(anyEvidence ? 'reads like a record' : 'no evidence'));

  const secondary =
    ranking.find((candidate) => candidate !== primary && hasEvidence(candidate) && candidate.name !== RESTRICTED_SECONDARY) ??
    neighbourOf(primary.name, ranking);
  return {
    profile: primary.name,
    primary_code: codeOf(primary.name),
    secondary_profile: secondary.name,
    secondary_code: codeOf(secondary.name),
    confidence,
    reasoning: buildReasoning({ ranking, primary, secondary, confidence }),
    summary: SNAP_LEXICON[primary.name].summary(PERSON),
    secondary_profile_summary: SNAP_LEXICON[secondary.name].secondarySummary(PERSON),
  };
}

export function confidenceOf(score: number, lead: number): Confidence {
  const { High, Medium } = CONFIDENCE_THRESHOLDS;
  if (score >= High.minScore && lead >= High.minLead) return 'High';
  if (score >= Medium.minScore && lead >= Medium.minLead) return 'Medium';
  return 'Low';
}

/** Profiles come in groups of three, in taxonomy order (profiles.ts). */
const GROUP_SIZE = 3;

/** The next profile of the primary's group that may be a secondary (cyclic, Visionary skipped). */
function neighbourOf(primary: ProfileName, ranking: readonly RankedProfile[]): RankedProfile {
  const index = PROFILES.findIndex((profile) => profile.name === primary);
  const start = index - (index % GROUP_SIZE);
  for (let step = 1; step < GROUP_SIZE; step += 1) {
    const name = PROFILES[start + ((index - start + step) % GROUP_SIZE)]?.name;
    const candidate = ranking.find((ranked) => ranked.name === name);
    if (candidate && candidate.name !== RESTRICTED_SECONDARY) return candidate;
  }
  throw new Error(`no neighbour for ${primary}`);
}

/** No profile: the notes gave nothing to go on (contract: null profile fields, still a 201). */
function abstention(reasoning: string): SnapPrediction {
  return {
    profile: null,
    primary_code: null,
    secondary_profile: null,
    secondary_code: null,
    confidence: 'Low',
    reasoning,
    summary: null,
    secondary_profile_summary: null,
  };
}

interface Scored extends RankedProfile {
  jobTypeHits: number;
  /** Where the profile's first term sits in the notes; Infinity when it has none there. */
  firstInNotes: number;
  taxonomyIndex: number;
}

/** Every profile, best first; equal scores are ordered by the evidence, then by the taxonomy. */
function rankProfiles(notes: WordIndex, notesNeutral: ReadonlySet<number>, jobTypeWords: readonly string[], learned: readonly number[]): RankedProfile[] {
  const jobType = new WordIndex(jobTypeWords);
  const inNotes = hitsByProfile(notes, notesNeutral);
  const inJobType = hitsByProfile(jobType, neutralPositions(jobType));
  const termHits = PROFILE_TERMS.map((_, profile) => ({ inNotes: inNotes[profile] ?? [], inJobType: inJobType[profile] ?? [] }));
  const notesSynonyms = synonymHits(notes, coveredBy(termHits.flatMap((hits) => hits.inNotes)));
  const jobTypeSynonyms = synonymHits(jobType, coveredBy(termHits.flatMap((hits) => hits.inJobType)));
  const scored: Scored[] = PROFILE_TERMS.map(({ name }, taxonomyIndex) => {
    const { inNotes: notesTerms, inJobType: jobTypeTerms } = termHits[taxonomyIndex] ?? { inNotes: [], inJobType: [] };
    const notesSynonymHits = notesSynonyms.get(name) ?? [];
    const jobTypeSynonymHits = jobTypeSynonyms.get(name) ?? [];
    const inNotes = [...notesTerms, ...notesSynonymHits];
    const inJobType = [...jobTypeTerms, ...jobTypeSynonymHits];
    return {
      name,
      score:
        notesTerms.length * NOTES_TERM_WEIGHT +
        jobTypeTerms.length * JOB_TYPE_TERM_WEIGHT +
        SYNONYM_WEIGHT * (notesSynonymHits.length * NOTES_TERM_WEIGHT + jobTypeSynonymHits.length * JOB_TYPE_TERM_WEIGHT) +
        (learned[taxonomyIndex] ?? 0),
      notesWords: distinctInTextOrder(inNotes),
      jobTypeWords: distinctInTextOrder(inJobType),
      jobTypeHits: inJobType.length,
      firstInNotes: Math.min(Infinity, ...inNotes.map((hit) => hit.at)),
      taxonomyIndex,
    };
  });
  return scored
    .sort((a, b) => b.score - a.score || b.jobTypeHits - a.jobTypeHits || a.firstInNotes - b.firstInNotes || a.taxonomyIndex - b.taxonomyIndex)
    .map(({ name, score, notesWords, jobTypeWords }) => ({ name, score, notesWords, jobTypeWords }));
}

/** The word positions the term hits cover: a synonym there would count the same words twice. */
function coveredBy(hits: readonly TermHit[]): Set<number> {
  const covered = new Set<number>();
  for (const hit of hits) take(covered, hit.at, hit.text.split(' ').length);
  return covered;
}

/** Adds the `length` word positions from `at` to `positions`. */
function take(positions: Set<number>, at: number, length: number): void {
  for (let offset = 0; offset < length; offset += 1) positions.add(at + offset);
}

/** The word positions the everyday phrases (`NEUTRAL_PHRASES`) of a text take: evidence of nothing, for the terms and the learned weights alike. */
export function neutralPositions(text: WordIndex): Set<number> {
  const taken = new Set<number>();
  for (const phrase of NEUTRAL) {
    const hit = text.find(phrase);
    if (hit) take(taken, hit.at, phrase.length);
  }
  return taken;
}

/** The terms found in a text, per profile in taxonomy order: longest terms first, each on words no longer term (nor an everyday phrase, `neutral`) took. */
function hitsByProfile(text: WordIndex, neutral: ReadonlySet<number>): TermHit[][] {
  const hits: TermHit[][] = PROFILE_TERMS.map(() => []);
  const taken = new Set<number>(neutral);
  for (const { profile, term } of TERMS_LONGEST_FIRST.startingIn(text)) {
    const hit = text.find(term, taken);
    if (!hit) continue;
    hits[profile]?.push(hit);
    if (term.length > 1) take(taken, hit.at, term.length);
  }
  return hits;
}

function distinctInTextOrder(hits: readonly TermHit[]): string[] {
  if (hits.length === 0) return []; // most profiles, on most requests
  // Array.prototype.sort is stable: hits at the same place keep lexicon order.
  const ordered = [...hits].sort((a, b) => a.at - b.at);
  return [...new Set(ordered.map((hit) => hit.text))];
}
