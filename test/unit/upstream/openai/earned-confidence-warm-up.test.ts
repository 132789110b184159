/**
 * The earned confidence's warm-up (src/upstream/openai/earned-confidence.ts) reads its
 * made-up description through the whole lexicon path, so that the first paid call finds
 * that path run once: the description must hold evidence the lexicon reads.
 */
import { WARM_UP_SUBJECT, warmUpEarnedConfidence } from '../../../../src/upstream/openai/earned-confidence';
import { predictFromLexicon } from '../../../../src/upstream/embedded/snap-prediction';

describe('warmUpEarnedConfidence', () => {
  test('when the warm-up runs, then its description is one the lexicon answers with a profile, so every step of the check has run', () => {
    expect(() => warmUpEarnedConfidence()).not.toThrow();
    expect(predictFromLexicon(WARM_UP_SUBJECT).profile).not.toBeNull();
  });
});
