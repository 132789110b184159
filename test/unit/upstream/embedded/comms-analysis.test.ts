import { codeOf, PROFILE_NAMES, type ProfileName } from '../../../../src/domain/profiles';
import type { CommsRequest } from '../../../../src/domain/ports';
import { analyseCommsEmbedded } from '../../../../src/upstream/embedded/comms-analysis';
import { scoreDraft } from '../../../../src/upstream/embedded/draft-scoring';

function commsRequest(overrides: Partial<CommsRequest> = {}): CommsRequest {
  const profile: ProfileName = 'Precisionist';
  return { profile, primaryCode: codeOf(profile), secondaryProfile: 'Investigator', ...overrides };
}

const DRAFT = 'Could you review the Q3 forecast by Thursday at 14:00? The variance against plan is 4.2%, driven by two late invoices.';

describe('analyseCommsEmbedded', () => {
  test.each(PROFILE_NAMES.map((profile) => [profile]))('when the profile is %s, then every list is non-empty and the code matches', (profile) => {
    const analysis = analyseCommsEmbedded(commsRequest({ profile, primaryCode: codeOf(profile), secondaryProfile: null }));
    expect(analysis.profile).toBe(profile);
    expect(analysis.primary_code).toBe(codeOf(profile));
    expect(analysis.summary).toContain(profile);
    for (const list of [analysis.do, analysis.dont, analysis.phrases_to_use, analysis.phrases_to_avoid]) {
      expect(list.length).toBeGreaterThanOrEqual(4);
      expect(list.length).toBeLessThanOrEqual(6);
      for (const item of list) expect(item.trim().length).toBeGreaterThan(0);
    }
  });

  test('when two profiles are compared, then their advice differs', () => {
    const precisionist = analyseCommsEmbedded(commsRequest({ profile: 'Precisionist' }));
    const connector = analyseCommsEmbedded(commsRequest({ profile: 'Connector' }));
    expect(precisionist.do).not.toEqual(connector.do);
    expect(precisionist.phrases_to_avoid).not.toEqual(connector.phrases_to_avoid);
  });

  test.each([
    ['when there is no draft, then draft_analysis is null', { given: commsRequest(), want: null }],
    ['when the draft is blank, then draft_analysis is null', { given: commsRequest({ draft: '  \n ' }), want: null }],
  ])('%s', (_name, { given, want }) => {
    expect(analyseCommsEmbedded(given).draft_analysis).toBe(want);
  });

  test('when there is a draft, then it is scored against the profile and channel', () => {
    const analysis = analyseCommsEmbedded(commsRequest({ draft: DRAFT, channel: 'email' }));
    expect(analysis.draft_analysis).toEqual(scoreDraft(DRAFT, 'Precisionist', 'email'));
  });

  test('when the profile is null, then the neutral playbook is used, primary_code is null and a draft is still scored', () => {
    const analysis = analyseCommsEmbedded(commsRequest({ profile: null, primaryCode: null, secondaryProfile: null, draft: DRAFT }));
    expect(analysis.profile).toBeNull();
    expect(analysis.primary_code).toBeNull();
    expect(analysis.summary).toMatch(/^No profile is available/);
    expect(analysis.do.length).toBeGreaterThan(0);
    expect(analysis.dont.length).toBeGreaterThan(0);
    expect(analysis.phrases_to_use.length).toBeGreaterThan(0);
    expect(analysis.phrases_to_avoid.length).toBeGreaterThan(0);
    expect(analysis.draft_analysis?.fit_score).toEqual(expect.any(Number));
    expect(analysis.draft_analysis?.issues.every((i) => DRAFT.includes(i.excerpt))).toBe(true);
  });

  test.each([
    [
      'when a goal is given, then the summary frames it',
      { given: commsRequest({ goal: 'Get sign-off on the Q3 forecast' }), want: 'Your goal is "Get sign-off on the Q3 forecast": frame it in terms of accuracy, evidence and a result done right.' },
    ],
    [
      'when the goal holds line breaks and control characters, then the summary quotes it on one line',
      { given: commsRequest({ goal: 'Get\n\n sign-off\u0000 on\tQ3' }), want: 'Your goal is "Get sign-off on Q3"' },
    ],
    ['when a secondary profile is given, then the summary says how it colours the primary', { given: commsRequest(), want: 'The person reads as a Precisionist with an Investigator side. ' }],
    ['when the secondary profile is the primary one, then it is not repeated', { given: commsRequest({ secondaryProfile: 'Precisionist' }), want: 'The person reads as a Precisionist. ' }],
  ])('%s', (_name, { given, want }) => {
    expect(analyseCommsEmbedded(given).summary).toContain(want);
  });

  test('when no goal is given, then the summary does not mention one', () => {
    expect(analyseCommsEmbedded(commsRequest()).summary).not.toContain('Your goal');
  });

  test.each([
    ['when the channel is chat, then the do list ends with a short-message tip', { given: commsRequest({ channel: 'chat' }), want: /^On chat, keep what you write to about 25–88 words; make one point per message/ }],
    ['when the channel is email, then the do list ends with an email tip', { given: commsRequest({ channel: 'email' }), want: /^On email, keep what you write to about 70–250 words; use a subject line/ }],
  ])('%s', (_name, { given, want }) => {
    const { do: doList } = analyseCommsEmbedded(given);
    expect(doList[doList.length - 1]).toMatch(want);
  });

  test.each(PROFILE_NAMES.map((profile) => [profile]))('when the same %s request is analysed twice, then the results are identical', (profile) => {
    const given = commsRequest({ profile, primaryCode: codeOf(profile), channel: 'meeting', goal: 'Agree the rollout plan', draft: DRAFT });
    expect(analyseCommsEmbedded(given)).toEqual(analyseCommsEmbedded({ ...given }));
  });

  test('when the result is changed by a caller, then the next analysis is unaffected', () => {
    const first = analyseCommsEmbedded(commsRequest());
    first.do.push('mutated');
    expect(analyseCommsEmbedded(commsRequest()).do).not.toContain('mutated');
  });
});
