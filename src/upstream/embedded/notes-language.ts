/**
 * Which language a subject's notes are written in, as far as the embedded predictor
 * needs to know: its lexicon is English, so notes confidently identified as another
 * language get no profile rather than one picked from stray English-looking words.
 *
 * Identification is tinyld's (its "light" data set: the common languages, about half a
 * millisecond for a paragraph), on the notes' words only: a token with a digit in it (a
 * reference, an id, a date, an amount) is in no language, and a long one tilted short
 * English notes to Dutch or Romanian about once in 600 ("Checks every figure twice;
 * mk0f5ebffc3bef45dca913b4447f6d8ffb notes."). Short or ambiguous texts come back with a
 * low accuracy; they are not judged here, and the lexicon decides (no term, no profile).
 *
 * tinyld and the language names are loaded by the first call: a model's answer needs them
 * only when the lexicon agrees with it (earned-confidence.ts), and loading them was about
 * 30 ms of every start.
 */
import { loadedOnFirstUse } from '../../support/on-first-use';

/** The language the lexicon reads (ISO 639-1). */
export const SUPPORTED_LANGUAGE = 'en';

/** Below this accuracy (tinyld's 0..1 score of its best guess), a text is not judged foreign. */
export const MIN_FOREIGN_ACCURACY = 0.3;

/**
 * A token with a digit in it, whole. A match starts only where a token starts (the
 * lookbehind): tried at every character, `\S*` rescanned the rest of a token without a
 * digit from each, time growing with the square of its length.
 */
export const HOLDING_A_DIGIT = /(?<!\S)\S*\d\S*/gu;

const tinyld = loadedOnFirstUse<typeof import('tinyld/light')>('tinyld/light');
let languageNames: Intl.DisplayNames | undefined;

/** The English name of the notes' language when it is confidently not English; otherwise undefined. */
export function unsupportedLanguageOf(notes: string): string | undefined {
  const [best] = tinyld().detectAll(withoutDigitTokens(notes));
  if (!best || best.lang === SUPPORTED_LANGUAGE || best.accuracy < MIN_FOREIGN_ACCURACY) return undefined;
  languageNames ??= new Intl.DisplayNames(['en'], { type: 'language' });
  return languageNames.of(best.lang) ?? best.lang;
}

/** The notes with each token holding a digit replaced by a space. */
export function withoutDigitTokens(notes: string): string {
  return notes.replace(HOLDING_A_DIGIT, ' ');
}
