import { generateApiKey, hashApiKey, isWellFormedApiKey, secretsEqual } from '../../../src/domain/api-keys';

describe('api keys', () => {
  test('when a key is generated, then it has the scannable prefix, 160 random bits and a valid checksum', () => {
    const key = generateApiKey();
    expect(key.apiKey).toMatch(/^pps_live_[0-9a-f]{40}_[0-9a-f]{8}$/);
    expect(isWellFormedApiKey(key.apiKey)).toBe(true);
    expect(key.hash).toBe(hashApiKey(key.apiKey));
    expect(key.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(key.displayPrefix).toBe(key.apiKey.slice(0, 17));
  });

  test('when keys are generated, then they differ', () => {
    const keys = new Set(Array.from({ length: 100 }, () => generateApiKey().apiKey));
    expect(keys.size).toBe(100);
  });

  test.each([
    ['a changed character', (k: string) => k.replace(/pps_live_(.)/, (_m, c: string) => `pps_live_${c === 'a' ? 'b' : 'a'}`)],
    ['a changed checksum', (k: string) => `${k.slice(0, -1)}${k.endsWith('0') ? '1' : '0'}`],
    ['another prefix', (k: string) => k.replace('pps_live_', 'pps_test_')],
    ['upper case', (k: string) => k.toUpperCase()],
    ['a trailing space', (k: string) => `${k} `],
  ])('when a key has %s, then it is not well formed', (_name, mangle) => {
    expect(isWellFormedApiKey(mangle(generateApiKey().apiKey))).toBe(false);
  });

  test('when secrets are compared, then only equal ones match, whatever their lengths', () => {
    expect(secretsEqual('token-a', 'token-a')).toBe(true);
    expect(secretsEqual('token-a', 'token-b')).toBe(false);
    expect(secretsEqual('short', 'a much longer secret')).toBe(false);
    expect(secretsEqual('', '')).toBe(true);
  });
});
