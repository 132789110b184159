/**
 * Predictions are name-blind (docs/decisions.md): a name is no
 * evidence about behaviour, only a proxy for gender and origin, so no predictor is ever
 * given it. A predictor gets the subject without its name and writes its texts about
 * SUBJECT_REFERENCE; the use case puts the name in afterwards, so the texts stored and
 * returned read as if written with it. Excerpts of a draft and its rewrite are the
 * caller's own text and stay as written. A name is longer than the reference (up to 200
 * characters), so the named texts are held to the spec's limits again (bounded-output.ts).
 */
import { boundCommsAnalysis, boundSnapPrediction } from './bounded-output';
import type { AnonymousSubject, CommsAnalysis, DraftAnalysis, SnapPrediction, SnapSubject } from './ports';

/** How a predictor's texts refer to the person ("The person is a Steward …"). */
export const SUBJECT_REFERENCE = 'the person';

/** Stands in for a name that is blank after trimming. */
const BLANK_NAME = 'This person';

const REFERENCE = new RegExp(`\\b[${SUBJECT_REFERENCE.charAt(0)}${SUBJECT_REFERENCE.charAt(0).toUpperCase()}]${SUBJECT_REFERENCE.slice(1)}\\b`, 'gu');

/** The subject as a predictor may see it: notes, job type and age range, never the name. */
export function withoutName({ notes, ageRange, jobType }: SnapSubject): AnonymousSubject {
  return { notes, ...(ageRange !== undefined && { ageRange }), ...(jobType !== undefined && { jobType }) };
}

/** A prediction's texts with the person's name where the predictor wrote SUBJECT_REFERENCE. */
export function namedPrediction(prediction: SnapPrediction, name: string): SnapPrediction {
  const put = naming(name);
  return boundSnapPrediction({
    ...prediction,
    reasoning: put(prediction.reasoning),
    summary: put(prediction.summary),
    secondary_profile_summary: put(prediction.secondary_profile_summary),
  });
}

/** An analysis's advice with the person's name where the predictor wrote SUBJECT_REFERENCE. */
export function namedAnalysis(analysis: CommsAnalysis, name: string): CommsAnalysis {
  const put = naming(name);
  const all = (items: readonly string[]): string[] => items.map(put);
  const draft = (given: DraftAnalysis): DraftAnalysis => ({
    ...given,
    issues: given.issues.map((issue) => ({ ...issue, suggestion: put(issue.suggestion) })),
  });
  return boundCommsAnalysis({
    ...analysis,
    summary: put(analysis.summary),
    do: all(analysis.do),
    dont: all(analysis.dont),
    phrases_to_use: all(analysis.phrases_to_use),
    phrases_to_avoid: all(analysis.phrases_to_avoid),
    draft_analysis: analysis.draft_analysis && draft(analysis.draft_analysis),
  });
}

function naming(name: string): <T extends string | null>(text: T) => T {
  const shown = name.replace(/\s+/gu, ' ').trim() || BLANK_NAME;
  // A function as replacement: "$&" or "$1" in a name is text, not a pattern.
  return <T extends string | null>(text: T): T => (text === null ? text : (text.replace(REFERENCE, () => shown) as T));
}
