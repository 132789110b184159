import { mapCommsAnalysis } from '../../../../src/upstream/openai/map-comms-analysis';
import { mapDraftAnalysis } from '../../../../src/upstream/openai/map-draft-analysis';
import type { DraftAnalysis } from '../../../../src/domain/ports';

describe('mapCommsAnalysis', () => {
  test('when lists hold non-strings, then only the non-blank strings are kept', () => {
    const result = mapCommsAnalysis(
      { do: ['Be brief', 3, null, '', { a: 1 }, 'Be warm'], dont: 'not a list' },
      { hasDraft: false },
    );

    expect(result.do).toEqual(['Be brief', 'Be warm']);
    expect(result.dont).toEqual([]);
  });

  test.each<[string, unknown, string | null]>([
    ['a valid profile', 'Steward', 'SW'],
    ['an unknown profile', 'Wizard', null],
    ['no profile', undefined, null],
  ])('when the answer names %s, then its code follows the name', (_, profile, code) => {
    const result = mapCommsAnalysis({ profile, primary_code: 'TB' }, { hasDraft: false });

    expect(result.primary_code).toBe(code);
  });

  test('when the request had a draft, then draft_analysis is read', () => {
    const result = mapCommsAnalysis(
      { draft_analysis: { fit_score: 50, issues: [], rewrite: 'x' } },
      { hasDraft: true },
    );

    expect(result.draft_analysis).toEqual({ fit_score: 50, issues: [], rewrite: 'x' });
  });

  test('when the request had no draft, then draft_analysis is null whatever the model sent', () => {
    const result = mapCommsAnalysis(
      { draft_analysis: { fit_score: 50, issues: [], rewrite: 'x' } },
      { hasDraft: false },
    );

    expect(result.draft_analysis).toBeNull();
  });
});

describe('mapDraftAnalysis', () => {
  test.each<[string, unknown, number | null]>([
    ['an integer in range', 72, 72],
    ['a fraction', 71.6, 72],
    ['below 0', -5, 0],
    ['above 100', 140, 100],
    ['a numeric string', '80', null],
    ['missing', undefined, null],
    ['not finite', Number.NaN, null],
  ])('when fit_score is %s, then it reads as %p', (_, fitScore, want) => {
    expect(mapDraftAnalysis({ fit_score: fitScore })?.fit_score).toBe(want);
  });

  test.each<[string, unknown, DraftAnalysis | null]>([
    ['null', null, null],
    ['a string', 'good draft', null],
    ['an array', [], null],
    ['an empty object', {}, { fit_score: null, issues: [], rewrite: null }],
  ])('when draft_analysis is %s, then it maps as expected', (_, given, want) => {
    expect(mapDraftAnalysis(given)).toEqual(want);
  });

  test('when issues are malformed, then only complete {excerpt, suggestion} pairs are kept', () => {
    const result = mapDraftAnalysis({
      issues: [
        { excerpt: 'a', suggestion: 'b' },
        { excerpt: 'c' },
        { excerpt: 1, suggestion: 'd' },
        'e',
        null,
      ],
    });

    expect(result?.issues).toEqual([{ excerpt: 'a', suggestion: 'b' }]);
  });
});
