/**
 * Words for the embedded snap predictor: how free text becomes a list of words, how a
 * lexicon term (`snap-lexicon.ts`) is found in it (through an index of the text's words,
 * built once per text). A term right after a negation ("no idea", "not detail-minded",
 * "doesn't plan") is no evidence and is not found there.
 *
 * The text is untrusted and only ever treated as data: it is normalised, split and
 * compared with the lexicon, nothing more. Bounds keep the work small whatever the
 * caller passes (the contract already caps notes at 5,000 characters).
 */

import stem from 'wink-porter2-stemmer';

/** Only the first this-many characters of a text are read. */
const MAX_TEXT_CHARS = 10_000;
/** Longer "words" are not words (and would make long quotes in the reasoning). */
const MAX_WORD_CHARS = 40;

/**
 * NFKC-normalise, lowercase, drop apostrophes ("devil's" → "devils"), and split on
 * anything that is not a Unicode letter or digit ("self-starter" → "self", "starter").
 */
export function toWords(text: string): string[] {
  return text
    .slice(0, MAX_TEXT_CHARS)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['\u2018\u2019`]/gu, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0 && word.length <= MAX_WORD_CHARS);
}

/**
 * A word's Porter2 stem ("mentored", "mentoring" → "mentor"; `wink-porter2-stemmer`),
 * for the synonyms and the learned word weights: about 2 µs a word. Nothing is
 * remembered from one call to the next: the words are the notes' (a name or a place
 * among them), and the service keeps nothing of the notes past the call
 * (docs/privacy.md).
 */
export function stemOf(word: string): string {
  return stem(word);
}

/** Words that negate the term right after them (apostrophes already dropped: "dont"). */
export const NEGATIONS: ReadonlySet<string> = new Set([
  'no', 'not', 'never', 'nothing', 'without', 'hardly', 'barely', 'nor',
  'dont', 'doesnt', 'didnt', 'isnt', 'wasnt', 'arent', 'cant', 'cannot', 'wont', 'hasnt', 'havent',
]);

/** One word of a term: a whole word, or a stem when the term word ended with `*`. */
interface TermPart {
  text: string;
  stem: boolean;
}

/** A lexicon term ready to match: `push* back` → [{push, stem}, {back, whole}]. */
export type CompiledTerm = readonly TermPart[];

export function compileTerm(term: string): CompiledTerm {
  return term
    .split(' ')
    .map((part) =>
      part.endsWith('*') ? { text: part.slice(0, -1), stem: true } : { text: part, stem: false },
    );
}

function partMatches(word: string, part: TermPart): boolean {
  return part.stem ? word.startsWith(part.text) : word === part.text;
}

/** Where a term first occurs in a text: its position and the words it matched. */
export interface TermHit {
  at: number;
  text: string;
}

/**
 * The words of one text, indexed once so that each of the lexicon's terms is found
 * without scanning the text: a whole first word is one lookup, and a stem first word
 * looks only at the distinct words that start with it.
 */
export class WordIndex {
  /** Each distinct word and its positions in the text, ascending. */
  private readonly positions = new Map<string, number[]>();
  /** The distinct words in UTF-16 code-unit order, so that the words starting with a stem are consecutive. */
  private readonly sorted: readonly string[];
  private wordStems: readonly string[] | undefined;

  constructor(readonly words: readonly string[]) {
    let at = 0;
    for (const word of words) {
      const positions = this.positions.get(word);
      if (positions) positions.push(at);
      else this.positions.set(word, [at]);
      at += 1;
    }
    this.sorted = [...this.positions.keys()].sort();
  }

  /** The distinct words, each once. */
  get distinctWords(): readonly string[] {
    return this.sorted;
  }

  /** Each word's stem (`stemOf`), by position: stemmed once a text, for the synonyms and the learned weights alike. */
  get stems(): readonly string[] {
    this.wordStems ??= this.words.map(stemOf);
    return this.wordStems;
  }

  /**
   * The term's first occurrence: the smallest position where all its parts match, none of
   * its words `taken` (by a longer term already found), or none. An empty term
   * (`compileTerm` never makes one) occurs nowhere.
   */
  find(term: CompiledTerm, taken: ReadonlySet<number> = NONE_TAKEN): TermHit | undefined {
    const at = this.firstPosition(term, taken);
    if (at === undefined) return undefined;
    return { at, text: this.words.slice(at, at + term.length).join(' ') };
  }

  private firstPosition(term: CompiledTerm, taken: ReadonlySet<number>): number | undefined {
    const [first] = term;
    if (first === undefined) return undefined;
    if (!first.stem) return this.firstMatchOf(first.text, term, taken);
    let best: number | undefined;
    for (let i = this.firstAtOrAfter(first.text); i < this.sorted.length; i += 1) {
      const word = this.sorted[i];
      if (word === undefined || !word.startsWith(first.text)) break;
      const at = this.firstMatchOf(word, term, taken);
      if (at !== undefined && (best === undefined || at < best)) best = at;
    }
    return best;
  }

  /** The first position of `word` where the whole term matches, not right after a negation, on words not taken. */
  private firstMatchOf(word: string, term: CompiledTerm, taken: ReadonlySet<number>): number | undefined {
    for (const at of this.positions.get(word) ?? []) {
      if (matchesAt(this.words, at, term) && !NEGATIONS.has(this.words[at - 1] ?? '') && !overlaps(at, term.length, taken)) return at;
    }
    return undefined;
  }

  /** Binary search: the index of the first sorted word that is not less than `text`. */
  private firstAtOrAfter(text: string): number {
    let low = 0;
    let high = this.sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.sorted[middle] ?? '') < text) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** Where one term first occurs in `words`. To look for many terms in one text, index it once with `WordIndex`. */
export function findTerm(words: readonly string[], term: CompiledTerm): TermHit | undefined {
  return new WordIndex(words).find(term);
}

const NONE_TAKEN: ReadonlySet<number> = new Set();

function overlaps(at: number, length: number, taken: ReadonlySet<number>): boolean {
  for (let offset = 0; offset < length; offset += 1) if (taken.has(at + offset)) return true;
  return false;
}

function matchesAt(words: readonly string[], at: number, term: CompiledTerm): boolean {
  for (let offset = 0; offset < term.length; offset += 1) {
    const word = words[at + offset];
    const part = term[offset];
    if (word === undefined || part === undefined || !partMatches(word, part)) return false;
  }
  return true;
}
