/**
 * The confidence of a model's prediction, earned rather than taken from the model's word
 * (docs/decisions.md). Small models call nearly
 * every answer High, junk included. The service checks the answer against the evidence
 * it can read itself: the embedded predictor (its lexicon and learned word weights) on
 * the same description.
 * - The lexicon finds no evidence (or the notes are in a language it does not read), or
 *   it points to another primary: Low.
 * - The lexicon points to the same primary: the lexicon's own confidence for it (its
 *   levels are measured on the labelled evaluation set), never above what
 *   the model said.
 * - No primary: Low.
 *
 * And before the model is asked: no evidence, no call. English notes in which the lexicon
 * finds no behavioural evidence get its no-profile answer (openapi/openapi.yaml,
 * `createSnap`), and the model is not asked: it would guess (a small model called "Says
 * no." a Trailblazer, High), the operator would pay for the guess, and the notes would
 * go upstream for nothing. Notes in a language the lexicon does not read are the model's
 * to read (its answer is then Low, above).
 */
import { CONFIDENCE_LEVELS, type Confidence } from '../../domain/profiles';
import type { AnonymousSubject, SnapPrediction } from '../../domain/ports';
import { unsupportedLanguageOf } from '../embedded/notes-language';
import { predictFromLexicon } from '../embedded/snap-prediction';

/** The lexicon's answer when the model need not be asked (no evidence in English notes), else undefined; `evidence`: the lexicon's reading of `subject`. */
export function unaskedAnswer(subject: AnonymousSubject, evidence: SnapPrediction): SnapPrediction | undefined {
  if (evidence.profile !== null) return undefined;
  return unsupportedLanguageOf(subject.notes) === undefined ? evidence : undefined;
}

export function withEarnedConfidence(prediction: SnapPrediction, subject: AnonymousSubject, evidence?: SnapPrediction): SnapPrediction {
  return { ...prediction, confidence: earnedConfidence(prediction, subject, evidence) };
}

/** `evidence`: the lexicon's reading of `subject`, when it was read already. */
export function earnedConfidence(prediction: SnapPrediction, subject: AnonymousSubject, evidence: SnapPrediction = predictFromLexicon(subject)): Confidence {
  if (prediction.profile === null) return 'Low';
  if (evidence.profile !== prediction.profile || evidence.confidence === null) return 'Low';
  // Asked last: identifying the language costs more than reading the lexicon (about 0.3 ms
  // for a paragraph), and only an answer the lexicon agrees with needs it.
  if (unsupportedLanguageOf(subject.notes) !== undefined) return 'Low';
  return lower(evidence.confidence, prediction.confidence ?? 'High');
}

/** A description in English that the lexicon answers (a test holds it to that), so that the warm-up runs every step. */
export const WARM_UP_SUBJECT: AnonymousSubject = { notes: 'Checks every figure twice before a report goes out and keeps a log of each change.', jobType: 'Auditor' };

/**
 * Earns the confidence of the lexicon's own answer on a made-up description once, so that
 * a process's first paid call does not pay for the check's first use: the lexicon's index
 * built and V8's first compile of its code (a few milliseconds), and the language
 * identifier loaded (about 23 ms; the lexicon agrees with itself, so it is asked).
 * Called once at start (docs/architecture.md, "Start-up").
 */
export function warmUpEarnedConfidence(): void {
  earnedConfidence(predictFromLexicon(WARM_UP_SUBJECT), WARM_UP_SUBJECT);
}

/** The less confident of two levels. */
function lower(a: Confidence, b: Confidence): Confidence {
  return CONFIDENCE_LEVELS.indexOf(a) > CONFIDENCE_LEVELS.indexOf(b) ? a : b;
}
