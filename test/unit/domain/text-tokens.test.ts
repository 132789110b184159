import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { AppError } from '../../../src/domain/app-error';
import { assertWithinTokens, COMMS_TEXT_TOKENS, estimatedTextTokens, SNAP_TEXT_TOKENS, TEXT_MAX_LENGTHS } from '../../../src/domain/text-tokens';
import { SPEC_PATHS } from '../../../src/support/project-root';

type Schema = { maxLength?: number; description?: string; $ref?: string; properties?: Record<string, Schema> };
const schemas = (parse(readFileSync(SPEC_PATHS.public, 'utf8')) as { components: { schemas: Record<string, Schema> } }).components.schemas;
const resolved = (schema: Schema): Schema => (schema.$ref ? (schemas[schema.$ref.split('/').pop() ?? ''] ?? {}) : schema);

describe('estimatedTextTokens', () => {
  test.each([
    ['English (ASCII), a quarter token a character', 'a'.repeat(400), 100],
    ['Chinese, 3 tokens a character', '审计'.repeat(50), 300],
    ['Japanese kana and kanji, 3 tokens a character', 'ひらがなカタカナ漢字', 30],
    ['Korean, 3 tokens a character', '한국어', 9],
    ['an emoji (outside the Basic Multilingual Plane), 3 tokens', '🙂', 3],
    ['Cyrillic, half a token a character', 'проверка', 4],
    ['CJK punctuation, half a token', '。、', 1],
    ['nothing', '', 0],
  ])('when the text is %s, then the estimate says so', (_name, text, tokens) => {
    expect(estimatedTextTokens(text)).toBe(tokens);
  });
});

describe('the token budgets', () => {
  test('when the spec is read, then the character bounds the budgets are made of are its maxLength of each text', () => {
    const snap = schemas['SnapRequest']?.properties ?? {};
    const comms = schemas['CommsRequest']?.properties ?? {};
    expect({
      notes: resolved(snap['notes'] ?? {}).maxLength,
      ageRange: resolved(snap['ageRange'] ?? {}).maxLength,
      jobType: resolved(snap['jobType'] ?? {}).maxLength,
      goal: resolved(comms['goal'] ?? {}).maxLength,
      draft: resolved(comms['draft'] ?? {}).maxLength,
    }).toEqual(TEXT_MAX_LENGTHS);
  });

  test('when the spec describes the requests, then it states each budget', () => {
    expect([SNAP_TEXT_TOKENS, COMMS_TEXT_TOKENS]).toEqual([1288, 1375]);
    expect(schemas['SnapRequest']?.description).toContain(`fit together in ${SNAP_TEXT_TOKENS} estimated tokens`);
    expect(schemas['CommsRequest']?.description).toContain(`fit together in ${COMMS_TEXT_TOKENS} estimated tokens`);
  });
});

describe('assertWithinTokens', () => {
  test('when the longest English texts the character bounds allow are sent, then they fit', () => {
    expect(() => assertWithinTokens(['x'.repeat(TEXT_MAX_LENGTHS.notes), 'x'.repeat(TEXT_MAX_LENGTHS.ageRange), 'x'.repeat(TEXT_MAX_LENGTHS.jobType)], SNAP_TEXT_TOKENS, 'notes, ageRange and jobType')).not.toThrow();
    expect(() => assertWithinTokens(['x'.repeat(TEXT_MAX_LENGTHS.goal), 'x'.repeat(TEXT_MAX_LENGTHS.draft)], COMMS_TEXT_TOKENS, 'goal and draft')).not.toThrow();
  });

  test('when a draft of 800 Japanese characters (within its 5,000-character bound) is sent, then it is the 400 the spec shows, word for word', () => {
    const refuse = () => assertWithinTokens([undefined, 'あ'.repeat(800)], COMMS_TEXT_TOKENS, 'goal and draft');
    expect(refuse).toThrow(AppError);
    expect(refuse).toThrow('goal and draft are too long for the model together: an estimated 2400 tokens, at most 1375 (a Chinese, Japanese or Korean character counts as 3)');
  });

  test('when CJK notes reach the budget exactly, then they fit, and one more character does not', () => {
    const notes = '人'.repeat(Math.floor(SNAP_TEXT_TOKENS / 3));
    expect(() => assertWithinTokens([notes], SNAP_TEXT_TOKENS, 'notes')).not.toThrow();
    expect(() => assertWithinTokens([`${notes}人`], SNAP_TEXT_TOKENS, 'notes')).toThrow(/an estimated 1290 tokens, at most 1288/);
  });
});
