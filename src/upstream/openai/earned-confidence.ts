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
 */
import { CONFIDENCE_LEVELS, type Confidence } from '../../domain/profiles';
import type { AnonymousSubject, SnapPrediction } from '../../domain/ports';
import { unsupportedLanguageOf } from '../embedded/notes-language';
import { predictFromLexicon } from '../embedded/snap-prediction';

export function withEarnedConfidence(prediction: SnapPrediction, subject: AnonymousSubject): SnapPrediction {
  return { ...prediction, confidence: earnedConfidence(prediction, subject) };
}

export function earnedConfidence(prediction: SnapPrediction, subject: AnonymousSubject): Confidence {
  if (prediction.profile === null) return 'Low';
  const evidence = predictFromLexicon(subject);
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
