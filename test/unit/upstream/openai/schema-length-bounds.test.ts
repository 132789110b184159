import { COMMS_SCHEMA } from '../../../../src/upstream/openai/comms-schema';
import { estimatedTextTokens } from '../../../../src/domain/text-tokens';
import { longestJsonCharacters, outputBoundRange } from '../../../../src/upstream/openai/output-bound-fit';
import { answerScale, LIST_LIMITS, TEXT_LIMITS, withLengthBounds } from '../../../../src/upstream/openai/schema-length-bounds';
import { SNAP_SCHEMA } from '../../../../src/upstream/openai/snap-schema';
import type { JsonSchema } from '../../../../src/upstream/openai/json-schema-parts';

/** Every `maxLength` and `maxItems` in a schema, by the property path that holds it. */
function boundsOf(schema: unknown, path = ''): Record<string, number> {
  if (typeof schema !== 'object' || schema === null) return {};
  if (Array.isArray(schema)) return Object.assign({}, ...schema.map((branch: unknown) => boundsOf(branch, path)));
  const found: Record<string, number> = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    if (key === 'maxLength' || key === 'maxItems') found[`${path}.${key}`] = value as number;
    else if (typeof value === 'object') Object.assign(found, boundsOf(value, key === 'properties' || key === 'anyOf' ? path : `${path}/${key}`));
  }
  return found;
}

describe('withLengthBounds', () => {
  test('when the setting is off, then the schemas sent carry no length keyword (portable to OpenAI strict mode)', () => {
    expect(boundsOf(SNAP_SCHEMA)).toEqual({});
    expect(boundsOf(COMMS_SCHEMA)).toEqual({});
  });

  test('when a snap schema is bounded, then each text has its limit and no enum gets one', () => {
    expect(boundsOf(withLengthBounds(SNAP_SCHEMA))).toEqual({
      '/reasoning.maxLength': TEXT_LIMITS['reasoning'],
      '/summary.maxLength': TEXT_LIMITS['summary'],
      '/secondary_profile_summary.maxLength': TEXT_LIMITS['secondary_profile_summary'],
    });
  });

  test('when a comms schema is bounded, then every list has an item count and every text, item or nested field, a length', () => {
    const bounds = boundsOf(withLengthBounds(COMMS_SCHEMA));
    expect(bounds['/do.maxItems']).toBe(LIST_LIMITS['do']);
    expect(bounds['/do/items.maxLength']).toBe(TEXT_LIMITS['do']);
    expect(bounds['/draft_analysis/issues.maxItems']).toBe(LIST_LIMITS['issues']);
    expect(bounds['/draft_analysis/issues/items/excerpt.maxLength']).toBe(TEXT_LIMITS['excerpt']);
    expect(bounds['/draft_analysis/rewrite.maxLength']).toBe(TEXT_LIMITS['rewrite']);
    expect(Object.keys(bounds).filter((key) => key.startsWith('/profile') || key.startsWith('/primary_code'))).toEqual([]);
    expect(COMMS_SCHEMA).not.toEqual(withLengthBounds(COMMS_SCHEMA));
  });

  test('when a request is written in English, then its answer gets the limits whole', () => {
    expect(answerScale('Checks every figure twice and audits the spreadsheet before the board meets.')).toBe(1);
    expect(answerScale('')).toBe(1);
  });

  test('when a request is written in Japanese, then its answer limits shrink in proportion to the tokens a character costs, and the longest answer then allowed, written like the notes, costs no more tokens than the longest English one', () => {
    const notes = '数字を必ず二度確認し、会議の前に表計算シートを監査する。細部に厳しく、手順を守る。'.repeat(8);
    const scale = answerScale(notes);
    const cjk = withLengthBounds(SNAP_SCHEMA, scale);
    // The longest answer: its texts written like the notes, the JSON around them ASCII.
    const textCharacters = Object.values(boundsOf(cjk)).reduce((sum, limit) => sum + limit, 0);
    const cjkTokens = estimatedTextTokens(notes.repeat(2).slice(0, textCharacters)) + (longestJsonCharacters(cjk) - textCharacters) / 4;

    expect(scale).toBeLessThan(0.1);
    expect(boundsOf(cjk)['/reasoning.maxLength']).toBe(Math.floor((TEXT_LIMITS['reasoning'] ?? 0) * scale));
    expect(cjkTokens).toBeLessThanOrEqual(outputBoundRange('predictSnap', false).min);
  });

  test('when a request mixes a little Japanese into English, then its limits shrink only a little', () => {
    const scale = answerScale('Checks every figure twice and audits the spreadsheet before the board meets; signs off as 田中.');

    expect(scale).toBeGreaterThan(0.6);
    expect(scale).toBeLessThan(1);
  });
});
