/**
 * Word weights learned from labelled descriptions (`snap-word-weights.json`, written by
 * `make snap-word-weights`; docs/evaluation.md says how they were learned and measured):
 * for each word stem, how much it counts for each profile, added to the lexicon's score.
 * They carry the evidence the hand-written lexicon misses, so that the same person
 * described in other words still lands on the same profile.
 *
 * A text counts each distinct stem once (Porter2, `wink-porter2-stemmer`: "mentored",
 * "mentoring" → "mentor"), not right after a negation, like the lexicon's terms.
 */
import stem from 'wink-porter2-stemmer';
import { NEGATIONS } from './snap-words';
import learned from './snap-word-weights.json';

/** Each stem's weights, one per profile in taxonomy order. */
export type WordWeights = ReadonlyMap<string, readonly number[]>;

export const SNAP_WORD_WEIGHTS: WordWeights = new Map(Object.entries(learned.weights as Record<string, number[]>));

/** The distinct stems of a text's words, in text order, leaving out a word right after a negation. */
export function distinctStems(words: readonly string[]): string[] {
  const stems = new Set<string>();
  words.forEach((word, at) => {
    if (!NEGATIONS.has(words[at - 1] ?? '')) stems.add(stem(word));
  });
  return [...stems];
}

/** The learned score of each profile (taxonomy order) for a text's words. */
export function learnedScores(words: readonly string[], weights: WordWeights, profiles: number): number[] {
  const scores = new Array<number>(profiles).fill(0);
  for (const wordStem of distinctStems(words)) {
    const row = weights.get(wordStem);
    if (row) for (let profile = 0; profile < profiles; profile += 1) scores[profile] = (scores[profile] ?? 0) + (row[profile] ?? 0);
  }
  return scores;
}
