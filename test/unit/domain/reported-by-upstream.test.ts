import { reportedByUpstream, type UpstreamSpend } from '../../../src/domain/ports';

const spend = (counts: Pick<UpstreamSpend, 'promptTokens' | 'completionTokens' | 'estimated'>): UpstreamSpend => ({
  operation: 'predictSnap',
  upstream: 'primary',
  model: 'gpt-4.1-mini',
  outcome: 'failure',
  ...counts,
});

describe('reportedByUpstream', () => {
  test.each([
    ['the upstream counted both', { promptTokens: 812, completionTokens: 164 }, true],
    ['the upstream counted the prompt only', { promptTokens: 812, completionTokens: null }, true],
    ['the service estimated the counts', { promptTokens: 812, completionTokens: 3, estimated: true }, false],
    ['nothing was counted', { promptTokens: null, completionTokens: null }, false],
  ] as const)('when %s, then it is %s', (_what, counts, want) => {
    expect(reportedByUpstream(spend(counts))).toBe(want);
  });
});
