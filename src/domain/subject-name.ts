/**
 * Predictions are name-blind (docs/decisions.md): a name is no
 * evidence about behaviour, only a proxy for gender and origin, so no predictor is ever
 * given it. A predictor gets the subject without its name, and notes that name the
 * person with the name replaced by SUBJECT_REFERENCE ("Ada checks every figure" → "the
 * person checks every figure"); it writes its texts about SUBJECT_REFERENCE, and the use
 * case puts the name in afterwards, so the texts stored and returned read as if written
 * with it. Excerpts of a draft and its rewrite are the caller's own text and stay as
 * written. A name is longer than the reference (up to 200 characters), so the named
 * texts are held to the spec's limits again (bounded-output.ts).
 */
import { boundCommsAnalysis, boundSnapPrediction } from './bounded-output';
import type { AnonymousSubject, CommsAnalysis, DraftAnalysis, SnapPrediction, SnapSubject } from './ports';

/** How a predictor's texts refer to the person ("The person is a Steward …"). */
export const SUBJECT_REFERENCE = 'the person';

/** Stands in for a name that is blank after trimming. */
const BLANK_NAME = 'This person';

const REFERENCE = new RegExp(`\\b[${SUBJECT_REFERENCE.charAt(0)}${SUBJECT_REFERENCE.charAt(0).toUpperCase()}]${SUBJECT_REFERENCE.slice(1)}\\b`, 'gu');

/** The subject as a predictor may see it: notes (the name taken out), job type and age range, never the name. */
export function withoutName({ name, notes, ageRange, jobType }: SnapSubject): AnonymousSubject {
  return { notes: notesWithoutName(notes, name), ...(ageRange !== undefined && { ageRange }), ...(jobType !== undefined && { jobType }) };
}

/** Titles written with a name: not the name, and words of their own in the notes ("Dr."). */
const TITLES = new Set(['dr', 'mr', 'mrs', 'ms', 'mx', 'miss', 'prof', 'sir', 'dame', 'rev', 'jr', 'sr']);

/** Scripts written without spaces between words, and Korean, whose particles join the name ("김민수는"). */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * The notes with SUBJECT_REFERENCE where they write the whole name, or a part of it (of two
 * letters or more, a title aside) capitalised or in capitals, as a word of its own: "Ada",
 * "LOVELACE", "Lovelace's", "Al-Farsi", "Luc" of "Jean-Luc", "O’Brien" for "O'Brien". A
 * part in CJK or Korean script is found inside a run of letters too. A part in lower case
 * is a word, not the name: with the name "Will Bold", "bold decisions" stays evidence;
 * "Bold" opening a sentence is taken for the name. An inflected name ("Annának") is not found.
 */
function notesWithoutName(notes: string, name: string): string {
  const whole = name.replace(/\s+/gu, ' ').trim();
  const words = whole.split(' ').map((word) => word.replace(/^\P{L}+|\P{L}+$/gu, ''));
  const parts = [...words, ...words.flatMap((word) => (word.includes('-') ? word.split('-') : []))].filter(
    (part) => [...part].length >= 2 && !TITLES.has(part.toLowerCase()),
  );
  const written = [whole, whole.toUpperCase(), whole.split(' ').map(capitalised).join(' '), ...parts.flatMap((part) => [...(/^\p{Lu}/u.test(part) ? [part] : []), capitalised(part), part.toUpperCase()])];
  const forms = new Set(written.flatMap((form) => [form, form.replaceAll("'", '’'), form.replaceAll('’', "'")]).filter((form) => [...form].length >= 2));
  if (forms.size === 0) return notes;
  const longestFirst = [...forms].sort((a, b) => b.length - a.length);
  const alone = longestFirst.filter((form) => !UNSPACED.test(form)).map(escaped);
  const inside = longestFirst.filter((form) => UNSPACED.test(form)).map(escaped);
  const alternatives = [...(alone.length > 0 ? [`(?<![\\p{L}\\p{N}])(?:${alone.join('|')})(?![\\p{L}\\p{N}])`] : []), ...inside];
  return notes.replace(new RegExp(alternatives.join('|'), 'gu'), () => SUBJECT_REFERENCE);
}

function escaped(form: string): string {
  return form.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}

function capitalised(part: string): string {
  const [first = '', ...rest] = [...part];
  return first.toUpperCase() + rest.join('').toLowerCase();
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
