import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { SPEC_PATHS } from '../../../src/support/project-root';
import {
  boundCommsAnalysis,
  boundSnapPrediction,
  firstItems,
  OUTPUT_LIMITS,
  truncateText,
} from '../../../src/domain/bounded-output';
import type { CommsAnalysis, SnapPrediction } from '../../../src/domain/ports';

describe('truncateText', () => {
  test.each<[string, { given: string; max: number; want: string }]>([
    ['a text within the limit', { given: 'short text', max: 10, want: 'short text' }],
    ['an empty text', { given: '', max: 5, want: '' }],
    ['a text one over, cut at the last word', { given: 'the quick brown fox', max: 18, want: 'the quick brown…' }],
    ['whitespace before the cut is dropped', { given: 'one two   three', max: 12, want: 'one two…' }],
    ['a word boundary exactly at the limit', { given: 'aaaa bbbb cccc', max: 10, want: 'aaaa bbbb…' }],
    ['a newline is a word boundary', { given: 'first line\nsecond line', max: 15, want: 'first line…' }],
    ['one long word is cut at the limit', { given: 'abcdefghijklmnop', max: 8, want: 'abcdefg…' }],
    ['a boundary in the first half is too far back: cut at the limit', { given: 'ab cdefghijklmnop', max: 10, want: 'ab cdefgh…' }],
    ['a surrogate pair at the cut is not split', { given: 'abcdef😀gh', max: 8, want: 'abcdef…' }],
  ])('%s', (_name, { given, max, want }) => {
    const result = truncateText(given, max);

    expect(result).toBe(want);
    expect(result.length).toBeLessThanOrEqual(max);
  });

  test('when a 20,000-character text of words is cut to 10,000, then it ends with a whole word and the ellipsis', () => {
    const text = 'word '.repeat(4000);

    const result = truncateText(text, 10_000);

    expect(result.length).toBeLessThanOrEqual(10_000);
    expect(result.length).toBeGreaterThan(9_990);
    expect(result.endsWith('word…')).toBe(true);
  });
});

describe('firstItems', () => {
  test.each<[string, { given: number[]; max: number; want: number[] }]>([
    ['fewer than the limit', { given: [1, 2], max: 3, want: [1, 2] }],
    ['exactly the limit', { given: [1, 2, 3], max: 3, want: [1, 2, 3] }],
    ['more than the limit: the first ones', { given: [1, 2, 3, 4], max: 3, want: [1, 2, 3] }],
  ])('%s', (_name, { given, max, want }) => {
    expect(firstItems(given, max)).toEqual(want);
  });
});

const LONG = 'x '.repeat(30_000);

describe('boundSnapPrediction', () => {
  test('when every text is over its limit, then each is cut to 10,000 and nothing else changes', () => {
    const prediction: SnapPrediction = {
      profile: 'Catalyst',
      primary_code: 'CT',
      secondary_profile: 'Connector',
      secondary_code: 'CN',
      confidence: 'High',
      reasoning: LONG,
      summary: LONG,
      secondary_profile_summary: null,
    };

    const bounded = boundSnapPrediction(prediction);

    expect(bounded).toEqual({ ...prediction, reasoning: expect.any(String), summary: expect.any(String) });
    expect(bounded.reasoning?.length).toBeLessThanOrEqual(10_000);
    expect(bounded.summary?.length).toBeLessThanOrEqual(10_000);
  });
});

describe('boundCommsAnalysis', () => {
  test('when every list and text is over its limit, then each is held to its limit', () => {
    const list = Array.from({ length: 80 }, () => LONG);
    const analysis: CommsAnalysis = {
      profile: 'Catalyst',
      primary_code: 'CT',
      summary: LONG,
      do: list,
      dont: list,
      phrases_to_use: list,
      phrases_to_avoid: list,
      draft_analysis: { fit_score: 40, issues: Array.from({ length: 80 }, () => ({ excerpt: LONG, suggestion: LONG })), rewrite: LONG },
    };

    const bounded = boundCommsAnalysis(analysis);

    expect(bounded.summary?.length).toBeLessThanOrEqual(10_000);
    for (const advice of [bounded.do, bounded.dont, bounded.phrases_to_use, bounded.phrases_to_avoid]) {
      expect(advice).toHaveLength(50);
      expect(Math.max(...advice.map((item) => item.length))).toBeLessThanOrEqual(1_000);
    }
    expect(bounded.draft_analysis?.issues).toHaveLength(50);
    expect(Math.max(...(bounded.draft_analysis?.issues ?? []).map((issue) => issue.excerpt.length))).toBeLessThanOrEqual(5_000);
    expect(Math.max(...(bounded.draft_analysis?.issues ?? []).map((issue) => issue.suggestion.length))).toBeLessThanOrEqual(1_000);
    expect(bounded.draft_analysis?.rewrite?.length).toBeLessThanOrEqual(10_000);
    expect(bounded.draft_analysis?.fit_score).toBe(40);
  });

  test('when there is no draft analysis, then it stays null', () => {
    const analysis: CommsAnalysis = { profile: null, primary_code: null, summary: null, do: [], dont: [], phrases_to_use: [], phrases_to_avoid: [], draft_analysis: null };

    expect(boundCommsAnalysis(analysis)).toEqual(analysis);
  });
});

describe('OUTPUT_LIMITS', () => {
  type Schema = { maxLength?: number; maxItems?: number; items?: Schema; properties?: Record<string, Schema> };
  const schemas = (parse(readFileSync(SPEC_PATHS.public, 'utf8')) as { components: { schemas: Record<string, Schema> } }).components.schemas;
  const schema = (name: string): Schema => schemas[name] ?? {};

  test.each<[string, number | undefined, number]>([
    ['NullableText maxLength', schema('NullableText').maxLength, OUTPUT_LIMITS.textChars],
    ['AdviceList maxItems', schema('AdviceList').maxItems, OUTPUT_LIMITS.listItems],
    ['AdviceList items maxLength', schema('AdviceList').items?.maxLength, OUTPUT_LIMITS.adviceChars],
    ['DraftAnalysis issues maxItems', schema('DraftAnalysis').properties?.['issues']?.maxItems, OUTPUT_LIMITS.listItems],
    ['DraftAnalysis rewrite maxLength', schema('DraftAnalysis').properties?.['rewrite']?.maxLength, OUTPUT_LIMITS.rewriteChars],
    ['DraftIssue excerpt maxLength', schema('DraftIssue').properties?.['excerpt']?.maxLength, OUTPUT_LIMITS.excerptChars],
    ['DraftIssue suggestion maxLength', schema('DraftIssue').properties?.['suggestion']?.maxLength, OUTPUT_LIMITS.suggestionChars],
  ])('when the spec says %s, then the bound is the same', (_name, inSpec, bound) => {
    expect(inSpec).toBe(bound);
  });
});
