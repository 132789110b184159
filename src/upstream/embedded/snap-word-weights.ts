/**
 * Word weights learned from labelled descriptions (`snap-word-weights.json`, written by
 * `make snap-word-weights`; docs/evaluation.md says how they were learned and measured):
 * for each word stem, how much it counts for each profile, added to the lexicon's score.
 * They carry the evidence the hand-written lexicon misses, so that the same person
 * described in other words still lands on the same profile.
 *
 * A text counts each distinct stem once (Porter2, `stemOf` in `snap-words.ts`: "mentored",
 * "mentoring" → "mentor"), not right after a negation and not inside an everyday phrase
 * ("lives alone": the caller passes the positions such phrases took), like the lexicon's
 * terms; and each distinct pair of adjacent stems once ("take charg"), which reads a
 * little of how words go together where single stems cannot ("take" and "charge" apart
 * say little).
 *
 * The `standalone` stems are those enough labelled people used: only they count when the
 * weights alone have to decide whether the notes hold evidence at all (no lexicon term
 * matched). A word few people used is their story, not the profile's ("club", "ticket").
 */
import { NEGATIONS, type WordIndex } from './snap-words';
import learned from './snap-word-weights.json';

export interface WordWeights {
  /** Each stem's weights, one per profile in taxonomy order. */
  readonly weights: ReadonlyMap<string, readonly number[]>;
  /** The stems that count when the weights alone decide whether there is evidence. */
  readonly standalone: ReadonlySet<string>;
}

/** Word weights as learned and written (`snap-word-weights.json`), ready to look up. */
export function wordWeightsOf(file: { weights: Record<string, readonly number[]>; standalone: readonly string[] }): WordWeights {
  return { weights: new Map(Object.entries(file.weights)), standalone: new Set(file.standalone) };
}

export const SNAP_WORD_WEIGHTS: WordWeights = wordWeightsOf(learned);

/**
 * The distinct features of a text, in text order: the stem of each word, leaving out a
 * word right after a negation, and each pair of adjacent stems ("take charg", "never
 * meet": a pair keeps the negation with its word), leaving out the words at the
 * `skipped` positions and any pair across them.
 */
export function stemsAndPairs(text: WordIndex, skipped: ReadonlySet<number>): string[] {
  const features = new Set<string>();
  const stems = text.stems;
  stems.forEach((wordStem, at) => {
    if (skipped.has(at)) return;
    if (!NEGATIONS.has(text.words[at - 1] ?? '')) features.add(wordStem);
    if (at > 0 && !skipped.has(at - 1)) features.add(`${stems[at - 1] ?? ''} ${wordStem}`);
  });
  return [...features];
}

/** The learned score of each profile (taxonomy order) for a text's distinct stems. */
export function learnedScores(stems: readonly string[], weights: WordWeights['weights'], profiles: number): number[] {
  const scores = new Array<number>(profiles).fill(0);
  for (const wordStem of stems) {
    const row = weights.get(wordStem);
    if (row) for (let profile = 0; profile < profiles; profile += 1) scores[profile] = (scores[profile] ?? 0) + (row[profile] ?? 0);
  }
  return scores;
}

/** How many of a text's distinct stems are standalone. */
export function standaloneCount(stems: readonly string[], weights: WordWeights): number {
  return stems.filter((wordStem) => weights.standalone.has(wordStem)).length;
}
