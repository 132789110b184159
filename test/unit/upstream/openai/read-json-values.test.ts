import { readString, readStringList } from '../../../../src/upstream/openai/read-json-values';

describe('readString', () => {
  test.each<[string, { given: unknown; want: string | null }]>([
    ['a plain string', { given: 'Careful.', want: 'Careful.' }],
    ['a blank string', { given: '  ', want: null }],
    ['a number', { given: 3, want: null }],
    ['a NUL character (PostgreSQL cannot store it)', { given: 'a\u0000b', want: 'ab' }],
    ['only NUL', { given: '\u0000', want: null }],
    ['an unpaired surrogate', { given: 'x\uD800y', want: 'x\uFFFDy' }],
    ['a surrogate pair (an emoji)', { given: 'ok \uD83D\uDE00', want: 'ok \uD83D\uDE00' }],
  ])('when the model answers %s, then it reads as storable text or null', (_name, { given, want }) => {
    expect(readString(given)).toBe(want);
  });

  test('when a list mixes strings and other values, then only the non-blank strings are kept', () => {
    expect(readStringList(['a', 1, '', null, 'b\u0000'])).toEqual(['a', 'b']);
  });
});
