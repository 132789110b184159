import { normalisedName, subjectDigest } from '../../../src/data/subject-digest';

describe('subjectDigest', () => {
  test.each([
    ['case and spaces', 'Ada Lovelace', '  ada   LOVELACE '],
    ['Unicode compatibility forms (NFKC)', 'Ａｄａ Lovelace', 'Ada Lovelace'],
    ['tabs and new lines', 'Ada\tLovelace', 'Ada\nLovelace'],
  ])('when two spellings differ only in %s, then they have one digest', (_what, a, b) => {
    expect(subjectDigest(7, a)).toBe(subjectDigest(7, b));
  });

  test('when the names differ, or the accounts do, then the digests differ', () => {
    expect(subjectDigest(7, 'Ada Lovelace')).not.toBe(subjectDigest(7, 'Ada Byron'));
    expect(subjectDigest(7, 'Ada Lovelace')).not.toBe(subjectDigest(8, 'Ada Lovelace'));
  });

  test('when a digest is made, then it is 64 hex digits, and the name is compared trimmed, lower-cased, with single spaces', () => {
    const digest = subjectDigest(7, 'Ada Lovelace');
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(normalisedName(' Ada  Lovelace ')).toBe('ada lovelace');
  });
});
