/**
 * The WordNet synonyms of the lexicon's terms (`snap-synonyms.json`, written by
 * `scripts/lexicon/expand-synonyms.ts`; docs/evaluation.md says how and why): weaker
 * evidence than a lexicon term, so that notes that say the same thing in other words
 * still count. Words are compared by their Porter2 stem ("arbitrated", "arbitrates" →
 * "arbitr"): the synonyms by `stemOf`, a text's words by the same through `WordIndex.stems`.
 */
import type { ProfileName } from '../../domain/profiles';
import { NEGATIONS, stemOf, type WordIndex } from './snap-words';
import generated from './snap-synonyms.json';

/** A synonym found in a text: where, and the word as written. */
export interface SynonymHit {
  at: number;
  text: string;
}

/** Each synonym's stem and the one profile it is evidence of. */
const PROFILE_OF_STEM: ReadonlyMap<string, ProfileName> = new Map(
  Object.entries(generated.synonyms as Record<ProfileName, string[]>).flatMap(([profile, words]) =>
    words.map((word) => [stemOf(word), profile as ProfileName] as const),
  ),
);

/**
 * The synonyms in a text's words, by profile: each distinct stem once, at its first
 * place, not right after a negation; words a lexicon term already matched are skipped
 * by the caller's `taken` set.
 */
export function synonymHits(text: WordIndex, taken: ReadonlySet<number>): Map<ProfileName, SynonymHit[]> {
  const hits = new Map<ProfileName, SynonymHit[]>();
  const seen = new Set<string>();
  const { words, stems } = text;
  words.forEach((word, at) => {
    if (taken.has(at) || NEGATIONS.has(words[at - 1] ?? '')) return;
    const wordStem = stems[at] ?? word;
    const profile = PROFILE_OF_STEM.get(wordStem);
    if (profile === undefined || seen.has(wordStem)) return;
    seen.add(wordStem);
    const list = hits.get(profile) ?? [];
    list.push({ at, text: word });
    hits.set(profile, list);
  });
  return hits;
}
