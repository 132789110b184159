/**
 * A list of lexicon terms indexed by their first word, so that a text is compared only with
 * the terms that can start in it instead of with every term: each distinct word of the
 * text is one lookup for the terms starting with that whole word, and one per prefix for
 * the terms starting with a stem (`push*` starts "pushy" and "pushback").
 */

import type { CompiledTerm, WordIndex } from './snap-words';

export class TermsByFirstWord<Entry extends { readonly term: CompiledTerm }> {
  /** Entry indices by a whole first word. */
  private readonly byWord = new Map<string, number[]>();
  /** Entry indices by a stem first word. */
  private readonly byStem = new Map<string, number[]>();
  private readonly longestStem: number;

  constructor(private readonly entries: readonly Entry[]) {
    entries.forEach(({ term }, index) => {
      const [first] = term;
      if (first === undefined) return;
      const byFirst = first.stem ? this.byStem : this.byWord;
      const indices = byFirst.get(first.text);
      if (indices) indices.push(index);
      else byFirst.set(first.text, [index]);
    });
    this.longestStem = Math.max(0, ...[...this.byStem.keys()].map((stem) => stem.length));
  }

  /** The entries whose first word occurs in `text`, in the list's order: the only ones that can occur there. */
  startingIn(text: WordIndex): Entry[] {
    const indices = new Set<number>();
    const add = (found: readonly number[] | undefined): void => found?.forEach((index) => indices.add(index));
    for (const word of text.distinctWords) {
      add(this.byWord.get(word));
      for (let length = 0; length <= Math.min(word.length, this.longestStem); length += 1) add(this.byStem.get(word.slice(0, length)));
    }
    return [...indices].sort((a, b) => a - b).map((index) => this.entries[index] as Entry);
  }
}
