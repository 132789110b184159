import { overheadSeconds, serverTimingHeader } from '../../../src/http/server-timing';

describe('serverTimingHeader', () => {
  test.each([
    ['no predictor call', { startedAt: 100, upstreamMs: undefined }, 112.345, 'total;dur=12.3'],
    ['a predictor call', { startedAt: 100, upstreamMs: 2000.04 }, 2105, 'total;dur=2005.0, upstream;dur=2000.0'],
  ])('when a request had %s, then the header says so', (_name, timing, now, want) => {
    expect(serverTimingHeader(timing, now)).toBe(want);
  });
});

describe('overheadSeconds', () => {
  test('when the predictor took part of the time, then the overhead is the rest', () => {
    expect(overheadSeconds({ startedAt: 0, upstreamMs: 2000 }, 2004)).toBeCloseTo(0.004, 6);
  });
  test('when no predictor was called, then the overhead is the whole time', () => {
    expect(overheadSeconds({ startedAt: 10, upstreamMs: undefined }, 20)).toBeCloseTo(0.01, 6);
  });
});
