/**
 * The earned confidence's warm-up (src/upstream/openai/earned-confidence.ts) reads its
 * made-up description through the whole check, so that the first paid call finds it run
 * once: the description must hold evidence the lexicon reads, in a language it reads.
 */
import { WARM_UP_SUBJECT, earnedConfidence, warmUpEarnedConfidence } from '../../../../src/upstream/openai/earned-confidence';
import { unsupportedLanguageOf } from '../../../../src/upstream/embedded/notes-language';
import { predictFromLexicon } from '../../../../src/upstream/embedded/snap-prediction';

describe('warmUpEarnedConfidence', () => {
  test('when the warm-up runs, then its description is one the lexicon answers with a profile and the language check passes, so every step of the check has run', () => {
    expect(() => warmUpEarnedConfidence()).not.toThrow();
    const evidence = predictFromLexicon(WARM_UP_SUBJECT);
    expect(evidence.profile).not.toBeNull();
    expect(unsupportedLanguageOf(WARM_UP_SUBJECT.notes)).toBeUndefined();
    expect(earnedConfidence({ ...evidence, confidence: 'High' }, WARM_UP_SUBJECT)).toBe(evidence.confidence);
  });
});
