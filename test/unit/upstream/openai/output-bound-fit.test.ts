/**
 * The start-up check that each route's output bound fits the answers its schema allows:
 * the longest answer is built here by hand from the length limits (every text at its
 * limit, every list full, the longest enum values) and measured as JSON, independently
 * of the schema walk in src/upstream/openai/output-bound-fit.ts.
 */
import { DEFAULT_MAX_OUTPUT_TOKENS } from '../../../../src/config/output-bounds';
import { ConfigError } from '../../../../src/config/config-error';
import { CONFIDENCE_LEVELS, PROFILE_CODES, PROFILE_NAMES, RESTRICTED_SECONDARY } from '../../../../src/domain/profiles';
import { assertOutputBoundsFit, outputBoundRange, REASONING_MAX_OUTPUT_TOKENS } from '../../../../src/upstream/openai/output-bound-fit';
import { LIST_LIMITS, TEXT_LIMITS } from '../../../../src/upstream/openai/schema-length-bounds';

const text = (name: string): string => 'x'.repeat(TEXT_LIMITS[name] ?? 0);
const list = (name: string): string[] => Array.from({ length: LIST_LIMITS[name] ?? 0 }, () => text(name));
const longest = (values: readonly string[]): string => values.reduce((a, b) => (b.length > a.length ? b : a));

const LONGEST_SNAP = {
  reasoning: text('reasoning'),
  profile: longest(PROFILE_NAMES),
  primary_code: longest(PROFILE_CODES),
  secondary_profile: longest(PROFILE_NAMES.filter((name) => name !== RESTRICTED_SECONDARY)),
  secondary_code: longest(PROFILE_CODES),
  confidence: longest(CONFIDENCE_LEVELS),
  summary: text('summary'),
  secondary_profile_summary: text('secondary_profile_summary'),
};
const LONGEST_COMMS = {
  profile: longest(PROFILE_NAMES),
  primary_code: longest(PROFILE_CODES),
  summary: text('summary'),
  do: list('do'),
  dont: list('dont'),
  phrases_to_use: list('phrases_to_use'),
  phrases_to_avoid: list('phrases_to_avoid'),
  draft_analysis: { fit_score: 100, issues: Array.from({ length: LIST_LIMITS['issues'] ?? 0 }, () => ({ excerpt: text('excerpt'), suggestion: text('suggestion') })), rewrite: text('rewrite') },
};

describe('outputBoundRange', () => {
  test.each([
    ['predictSnap', LONGEST_SNAP],
    ['analyseComms', LONGEST_COMMS],
  ] as const)('when the longest answer %s allows is written, then the range runs from it at 4 characters a token to it at 3 tokens a character', (operation, answer) => {
    const characters = JSON.stringify(answer).length;
    expect(outputBoundRange(operation, false)).toEqual({ min: Math.ceil(characters / 4), max: characters * 3 });
    expect(outputBoundRange(operation, true)).toEqual({ min: Math.ceil(characters / 4), max: REASONING_MAX_OUTPUT_TOKENS });
  });
});

describe('assertOutputBoundsFit', () => {
  const snap = outputBoundRange('predictSnap', false);
  const comms = outputBoundRange('analyseComms', false);

  test.each([
    ['the defaults', DEFAULT_MAX_OUTPUT_TOKENS],
    ['make run-local-llm\'s settings (docs/local-llm.md)', { predictSnap: 600, analyseComms: 3000 }],
    ['each range\'s ends', { predictSnap: snap.min, analyseComms: comms.max }],
  ])('when the bounds are %s, then they are accepted', (_name, bounds) => {
    expect(() => assertOutputBoundsFit(bounds, false)).not.toThrow();
  });

  test.each([
    ['one bound for both routes at 600 (it cut 7 of 16 comms answers on the packaged model)', { predictSnap: 600, analyseComms: 600 }, /^Invalid configuration: OPENAI_MAX_OUTPUT_TOKENS_COMMS \(or OPENAI_MAX_OUTPUT_TOKENS\) must be at least \d+ \(got 600\)/],
    ['a snap bound one below the longest snap', { predictSnap: snap.min - 1, analyseComms: 4000 }, /OPENAI_MAX_OUTPUT_TOKENS_SNAP .*must be at least/],
    ['a comms bound one above any answer at 3 tokens a character', { predictSnap: 1000, analyseComms: comms.max + 1 }, /OPENAI_MAX_OUTPUT_TOKENS_COMMS .*must be at most \d+ \(got \d+\): the longest answer the schema allows at 3 tokens a character/],
  ])('when %s, then start-up refuses it with a ConfigError naming the variable', (_name, bounds, message) => {
    expect(() => assertOutputBoundsFit(bounds, false)).toThrow(ConfigError);
    expect(() => assertOutputBoundsFit(bounds, false)).toThrow(message);
  });

  test('when a reasoning effort is set, then a bound for hidden reasoning tokens (16,000, docs/upstream.md) is accepted, and one above any model\'s limit is not', () => {
    expect(() => assertOutputBoundsFit({ predictSnap: 16_000, analyseComms: 16_000 }, true)).not.toThrow();
    expect(() => assertOutputBoundsFit({ predictSnap: 16_000, analyseComms: 16_000 }, false)).toThrow(/OPENAI_MAX_OUTPUT_TOKENS_SNAP .*must be at most/);
    expect(() => assertOutputBoundsFit({ predictSnap: 1000, analyseComms: REASONING_MAX_OUTPUT_TOKENS + 1 }, true)).toThrow(/must be at most 128000/);
  });
});
