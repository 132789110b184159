/**
 * A communication analysis held to sense (openapi/openapi.yaml, CommsResponse;
 * docs/decisions.md): whatever a model wrote, what is stored, charged and
 * returned obeys these rules, applied in this order:
 * - advice that is both a `do` and a `dont` item (case, spacing and end punctuation aside)
 *   says nothing: it is dropped from both lists;
 * - a draft issue whose excerpt is not, character for character, in the draft is dropped
 *   (an excerpt cut to its length limit, ending in "…", is judged by what was kept);
 * - a draft issue whose suggestion, or an example quoted in it (not the words it says to
 *   drop), only repeats the excerpt is dropped;
 * - an answer left without its substance (a summary of at least three words, one `do`
 *   and one `dont` item, and with a draft a review with a fit score) is a failed
 *   analysis: the contract's comms 500, nothing stored or charged.
 * The draft's issues are judged with the person's name put in (subject-name.ts), since the
 * draft they compare with holds the name. The rest is judged as the model wrote it: the
 * name must decide nothing, so "Reassure the person." has three words whether the name
 * is "Ada" or "Ada Lovelace", and "Thank the person." is not the dont item "Thank Ada."
 * for Ada only.
 * And before any of that: a snap without a profile has nothing to advise on (422, before
 * any credit is held or any predictor asked).
 */
import { AppError } from './app-error';
import { MESSAGES } from './messages';
import type { CommsAnalysis, DraftAnalysis, DraftIssue, StoredSnap } from './ports';
import { namedAnalysis } from './subject-name';

/** How a text cut to its limit ends (src/domain/bounded-output.ts). */
const CUT = '…';

/** Fewer words than this is no summary ("2022-01-01", "N/A"). */
const MIN_SUMMARY_WORDS = 3;

/** Refuses, before anything is held or asked, a snap whose prediction gave no profile. */
export function assertAdvisable(snap: StoredSnap): void {
  if (snap.prediction.profile === null) throw new AppError({ kind: 'unprocessable', message: MESSAGES.snapWithoutProfile });
}

/** The model's analysis, named, with its senseless parts dropped; throws the comms 500 when too little is left. */
export function heldToSense(analysis: CommsAnalysis, draft: string | undefined, name: string): CommsAnalysis {
  const named = namedAnalysis(analysis, name);
  const held: CommsAnalysis = {
    ...named,
    do: unlike(named.do, analysis.do, analysis.dont),
    dont: unlike(named.dont, analysis.dont, analysis.do),
    draft_analysis: named.draft_analysis && { ...named.draft_analysis, issues: sensibleIssues(named.draft_analysis, draft ?? '') },
  };
  if (!hasSubstance(held, analysis.summary, hasDraft(draft))) {
    throw new AppError({ kind: 'generation_failed', message: MESSAGES.commsGenerationFailed, cause: new Error('the analysis has no substance left') });
  }
  return held;
}

/** Of the named `items`, those whose advice as the model wrote it (`written`, item for item) is not also in `others`. */
function unlike(items: readonly string[], written: readonly string[], others: readonly string[]): string[] {
  const opposite = new Set(others.map(sameAdvice));
  return items.filter((_, index) => !opposite.has(sameAdvice(written[index] ?? '')));
}

function sensibleIssues(analysis: DraftAnalysis, draft: string): DraftIssue[] {
  return analysis.issues.filter(
    ({ excerpt, suggestion }) =>
      excerpt.trim() !== '' &&
      draft.includes(excerpt.endsWith(CUT) ? excerpt.slice(0, -CUT.length) : excerpt) &&
      ![suggestion, ...quotedIn(suggestion)].some((example) => comparable(example) === comparable(excerpt)),
  );
}

/** `summary`: the model's, before the name is put in. */
function hasSubstance(analysis: CommsAnalysis, summary: string | null, withDraft: boolean): boolean {
  const words = (summary ?? '').match(/\p{L}+/gu) ?? [];
  if (words.length < MIN_SUMMARY_WORDS || analysis.do.length === 0 || analysis.dont.length === 0) return false;
  if (!withDraft) return true;
  const review = analysis.draft_analysis;
  return review !== null && review.fit_score !== null;
}

function hasDraft(draft: string | undefined): boolean {
  return draft !== undefined && draft.trim() !== '';
}

/** The examples a suggestion quotes: text between double quotes, but not what it says to drop ('Drop "maybe"'). */
function quotedIn(text: string): string[] {
  return [...text.matchAll(/["“]([^"“”]+)["”]/gu)]
    .filter((match) => !/\b(?:drop|remove|delete|cut|replace|avoid|instead of)\s*$/iu.test(text.slice(0, match.index)))
    .map((match) => match[1] ?? '');
}

/** A text as compared: lower case, one space between words ("Done!" and "done." differ: a suggestion may change only that). */
function comparable(text: string): string {
  return text.toLowerCase().replace(/\s+/gu, ' ').trim();
}

/**
 * The spaces and stops that end a text. A match starts only where a run starts (the
 * lookbehind): tried at each of a long run's characters, it rescanned the rest of the run.
 */
export const TRAILING_STOPS = /(?<![\s.!?…])[\s.!?…]+$/u;

/** Advice as compared: as `comparable`, and "Be brief." is the same advice as "be brief". */
function sameAdvice(text: string): string {
  return comparable(text).replace(TRAILING_STOPS, '');
}
