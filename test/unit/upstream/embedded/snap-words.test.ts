import { PROFILES } from '../../../../src/domain/profiles';
import { SNAP_LEXICON } from '../../../../src/upstream/embedded/snap-lexicon';
import {
  NEGATIONS,
  WordIndex,
  compileTerm,
  stemOf,
  type CompiledTerm,
  type TermHit,
} from '../../../../src/upstream/embedded/snap-words';
import { TermsByFirstWord } from '../../../../src/upstream/embedded/terms-by-first-word';
import { seededRandom } from '../../../support/seeded-random';

/** The straightforward scan the index replaces: the first position where every part matches, not right after a negation. */
function scanForTerm(words: readonly string[], term: CompiledTerm): TermHit | undefined {
  for (let at = 0; at + term.length <= words.length; at += 1) {
    if (NEGATIONS.has(words[at - 1] ?? '')) continue;
    const matches = term.every((part, offset) => {
      const word = words[at + offset] ?? '';
      return part.stem ? word.startsWith(part.text) : word === part.text;
    });
    if (matches) return { at, text: words.slice(at, at + term.length).join(' ') };
  }
  return undefined;
}

const LEXICON_TERMS = PROFILES.flatMap((profile) => SNAP_LEXICON[profile.name].terms);
const COMPILED = LEXICON_TERMS.map(compileTerm);
const PART_TEXTS = [...new Set(COMPILED.flatMap((term) => term.map((part) => part.text)))];
const SUFFIXES = ['', 's', 'ed', 'ing', 'er', 'ers', 'ly', 'ation', 'z'];
const FILLER = ['the', 'and', 'team', 'work', 'a', 'new', 'of', 'on', 'in', 'pla', 'care', 'career', 'planet'];

/**
 * 2,000 texts (the first empty) of lexicon words, their stems with suffixes, near misses,
 * filler, repeats and whole lexicon phrases, each with the lexicon's terms and 20 random
 * phrases of its own words and the lexicon's to look for.
 */
function* generatedTexts(label: string): Generator<{ round: number; words: string[]; terms: CompiledTerm[] }> {
  const { next: random } = seededRandom(label);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const lexiconWord = (): string => `${pick(PART_TEXTS)}${pick(SUFFIXES)}`;
  const nearMiss = (): string => {
    const text = pick(PART_TEXTS);
    return random() < 0.5 ? text.slice(0, -1) : `x${text}`;
  };
  for (let round = 0; round < 2_000; round += 1) {
    const words: string[] = [];
    const length = round === 0 ? 0 : Math.floor(random() * 60);
    while (words.length < length) {
      const roll = random();
      if (roll < 0.3) words.push(lexiconWord());
      else if (roll < 0.45) words.push(nearMiss());
      else if (roll < 0.6) words.push(pick(FILLER));
      else if (roll < 0.75 && words.length > 0) words.push(pick(words));
      else words.push(...pick(COMPILED).map((part) => (part.stem ? `${part.text}${pick(SUFFIXES)}` : part.text)));
    }
    const randomPhrases = Array.from({ length: 20 }, () =>
      Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({
        text: random() < 0.5 ? pick(PART_TEXTS) : pick(words.length > 0 ? words : FILLER),
        stem: random() < 0.5,
      })),
    );
    yield { round, words, terms: [...COMPILED, ...randomPhrases] };
  }
}

describe('WordIndex', () => {
  describe('find', () => {
    it.each<[string, { words: string[]; term: string; want: TermHit | undefined }]>([
      ['when a whole word occurs twice, then the first is found', {
        words: ['audit', 'qa', 'x', 'qa'], term: 'qa', want: { at: 1, text: 'qa' },
      }],
      ['when a whole word only starts a longer word, then nothing is found', {
        words: ['qas', 'aqa'], term: 'qa', want: undefined,
      }],
      ['when several distinct words start with a stem, then the earliest is found', {
        words: ['team', 'auditors', 'audit', 'audits'], term: 'audit*', want: { at: 1, text: 'auditors' },
      }],
      ['when a stem is longer than the word, then nothing is found', {
        words: ['aud', 'au'], term: 'audit*', want: undefined,
      }],
      ['when a phrase starts at a word that does not complete it, then a later whole phrase is found', {
        words: ['push', 'hard', 'pushes', 'back', 'push', 'back'], term: 'push* back', want: { at: 2, text: 'pushes back' },
      }],
      ['when a phrase is cut off by the end of the text, then nothing is found', {
        words: ['status', 'x', 'status'], term: 'status quo', want: undefined,
      }],
      ['when the term comes right after a negation, then only a later, plain occurrence is found', {
        words: ['no', 'idea', 'doesnt', 'plan', 'ideas', 'not', 'really', 'idea'], term: 'idea', want: { at: 7, text: 'idea' },
      }],
      ['when the text is empty, then nothing is found', {
        words: [], term: 'detail*', want: undefined,
      }],
    ])('%s', (_name, { words, term, want }) => {
      expect(new WordIndex(words).find(compileTerm(term))).toEqual(want);
    });

    it('when 2,000 generated texts are searched for every lexicon term and random phrases, then the index finds exactly what a scan finds', () => {
      let phraseHits = 0;
      for (const { round, words, terms } of generatedTexts('snap-words generated texts')) {
        const index = new WordIndex(words);

        const found = terms.map((term) => index.find(term));

        expect({ round, words, found }).toEqual({ round, words, found: terms.map((term) => scanForTerm(words, term)) });
        phraseHits += found.filter((hit) => hit?.text.includes(' ')).length;
      }
      // The texts are not too easy: phrases are found in them, not only single words.
      expect(phraseHits).toBeGreaterThan(1_000);
    });
  });
});

describe('TermsByFirstWord', () => {
  it('when 2,000 generated texts are looked up, then exactly the terms whose first word matches a word of the text come back, in the list\'s order', () => {
    let candidates = 0;
    for (const { round, words, terms } of generatedTexts('terms-by-first-word generated texts')) {
      const entries = terms.map((term, index) => ({ term, index }));
      const startsIn = ([first]: CompiledTerm): boolean =>
        first !== undefined && words.some((word) => (first.stem ? word.startsWith(first.text) : word === first.text));

      const found = new TermsByFirstWord(entries).startingIn(new WordIndex(words));

      expect({ round, words, found: found.map(({ index }) => index) }).toEqual({
        round, words, found: entries.filter(({ term }) => startsIn(term)).map(({ index }) => index),
      });
      candidates += found.length;
    }
    // The lookups are not trivially empty.
    expect(candidates).toBeGreaterThan(10_000);
  });

  it('when a term starts with an empty stem, then it may start in any text with a word', () => {
    const entries = [{ term: compileTerm('* back') }, { term: compileTerm('audit') }];

    expect(new TermsByFirstWord(entries).startingIn(new WordIndex(['pushes', 'back']))).toEqual([entries[0]]);
    expect(new TermsByFirstWord(entries).startingIn(new WordIndex([]))).toEqual([]);
  });
});

describe('stemOf', () => {
  it('when words are stemmed, then they get their Porter2 stems', () => {
    const want: [string, string][] = [['mentored', 'mentor'], ['mentoring', 'mentor'], ['arbitrates', 'arbitr'], ['calm', 'calm']];
    for (const [word, stem] of want) expect(stemOf(word)).toBe(stem);
  });
});
