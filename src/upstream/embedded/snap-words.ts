/**
 * Words for the embedded snap predictor: how free text becomes a list of words, how a
 * lexicon term (`snap-lexicon.ts`) is found in it, and a stable hash for tie-breaks.
 *
 * The text is untrusted and only ever treated as data: it is normalised, split and
 * compared with the lexicon, nothing more. Bounds keep the work small whatever the
 * caller passes (the contract already caps notes at 5,000 characters).
 */

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

/** Where a term first occurs in `words`: its position and the words it matched. */
export interface TermHit {
  at: number;
  text: string;
}

export function findTerm(words: readonly string[], term: CompiledTerm): TermHit | undefined {
  // Plain loops, no closures: this runs for every term of every profile on every request.
  for (let at = 0; at + term.length <= words.length; at += 1) {
    if (matchesAt(words, at, term)) return { at, text: words.slice(at, at + term.length).join(' ') };
  }
  return undefined;
}

function matchesAt(words: readonly string[], at: number, term: CompiledTerm): boolean {
  for (let offset = 0; offset < term.length; offset += 1) {
    const word = words[at + offset];
    const part = term[offset];
    if (word === undefined || part === undefined || !partMatches(word, part)) return false;
  }
  return true;
}

/** FNV-1a, 32 bits, over UTF-16 code units: the same number for the same text, everywhere. */
export function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
