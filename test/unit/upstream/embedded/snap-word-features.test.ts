/**
 * What the learned word weights and the no-evidence detector read of a text
 * (`stemsAndPairs`, src/upstream/embedded/snap-word-weights.ts): each stem once, and each
 * pair of adjacent stems once.
 */
import { stemsAndPairs } from '../../../../src/upstream/embedded/snap-word-weights';
import { WordIndex, toWords } from '../../../../src/upstream/embedded/snap-words';

const featuresOf = (text: string, skipped: readonly number[] = []): string[] => stemsAndPairs(new WordIndex(toWords(text)), new Set(skipped));

describe('stemsAndPairs', () => {
  test('when a text is read, then each stem and each pair of adjacent stems comes once, in text order', () => {
    expect(featuresOf('Takes charge; takes charge.')).toEqual(['take', 'charg', 'take charg', 'charg take']);
  });

  test('when a word follows a negation, then its stem is left out but the pair keeps the negation with it', () => {
    expect(featuresOf('never meets')).toEqual(['never', 'never meet']);
  });

  test('when words are skipped (an everyday phrase), then neither they nor a pair across them are read', () => {
    expect(featuresOf('lives alone quietly', [0, 1])).toEqual(['quiet']);
    expect(featuresOf('plans lives alone', [1, 2])).toEqual(['plan']);
  });
});
