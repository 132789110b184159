import { PROFILE_NAMES, type ProfileName } from '../../../../src/domain/profiles';
import { COMMS_CHANNELS, type CommsChannel } from '../../../../src/domain/ports';
import { scoreDraft } from '../../../../src/upstream/embedded/draft-scoring';

const DRAFTS = {
  rambling: [
    'Hi Alex,',
    '',
    "I hope you're doing well and that the weekend was good! I just wanted to reach out because I think there might maybe be a chance that we could perhaps look at the pricing deck again at some point, if that's okay with you. I was sort of going through it yesterday and I kind of felt like some of the numbers possibly don't quite line up with what we discussed with the finance team a few weeks back, although I'm honestly not completely sure about that and I could be wrong. Hopefully it's not a big deal. Anyway, I guess what I'm trying to say is that it would probably be good to have another look, maybe together, whenever you have some time? No rush at all, and I know you're busy with the launch and everything else going on. Would you be open to that? Let me know what you think.",
    '',
    'Thanks,',
    'Sam',
  ].join('\n'),
  directWithDeadline:
    'Alex, I need your sign-off on the pricing deck by Thursday 5 pm. Margin holds at 32% after the finance review, and the deck is attached. Approve it or send me your objections by then.',
  coldDemand: 'Send me the report by 5pm today.',
  warmConsiderate: [
    'Hi Jo,',
    '',
    "I hope you're doing well and that the move went smoothly. I know this quarter has asked a lot of the team, and I really appreciate how you've been looking after everyone through it. When you have a moment, could you share the onboarding notes with me? No rush, any time this week works. How are you finding the new schedule so far?",
    '',
    'Thank you so much,',
    'Sam',
  ].join('\n'),
  vagueHype:
    "This is going to be amazing!!! Our new thing is totally revolutionary and honestly the best ever. Trust me, we'll get there soon and it'll be huge!",
  dataLed: [
    'Hi Dana,',
    '',
    'The March error report shows 14 failed reconciliations out of 2,310 (0.6%), all in the EUR ledger after the 3.2 release. The attached sheet lists each case with its transaction ID and the rule that rejected it. Our working hypothesis is that the rounding change in 3.2 truncates at 2 decimals instead of 4; the 3 cases we replayed on 3.1 passed. Could you review the sheet and confirm or reject that hypothesis by Thursday 14:00? That leaves us Friday to prepare a fix for the 18 March release.',
    '',
    'Regards,',
    'Lee',
  ].join('\n'),
  collaborative: [
    'Hi Priya,',
    '',
    "It was great to catch up at the offsite, and thanks again for introducing me to Marco. He and Lena are starting the partner programme next month, and I think your network in the Nordics would make a real difference to them. Would you be open to a short call with the three of us to see where we could work together? Who else do you think we should bring in? I'd love to hear your thoughts whenever suits you.",
    '',
    'Warm regards,',
    'Tom',
  ].join('\n'),
  directChat: 'Need your go/no-go on the Berlin pilot by 3 pm today. Budget is 40k, team of 4, launch on 2 June.',
} as const;

type Given = { draft: string; profile: ProfileName; channel?: CommsChannel };

const fits: Array<[string, { given: Given; want: { atLeast?: number; atMost?: number } }]> = [
  ['when a long, hedging, rambling draft goes to a Challenger, then it scores low', { given: { draft: DRAFTS.rambling, profile: 'Challenger' }, want: { atMost: 45 } }],
  ['when a short, direct draft with a deadline goes to a Challenger, then it scores high', { given: { draft: DRAFTS.directWithDeadline, profile: 'Challenger' }, want: { atLeast: 85 } }],
  ['when a cold one-line demand goes to a Nurturer, then it scores low', { given: { draft: DRAFTS.coldDemand, profile: 'Nurturer' }, want: { atMost: 50 } }],
  ['when a warm, considerate draft goes to a Nurturer, then it scores high', { given: { draft: DRAFTS.warmConsiderate, profile: 'Nurturer' }, want: { atLeast: 85 } }],
  ['when a vague hype draft goes to a Precisionist, then it scores low', { given: { draft: DRAFTS.vagueHype, profile: 'Precisionist' }, want: { atMost: 50 } }],
  ['when a data-led draft with a review deadline goes to a Precisionist, then it scores high', { given: { draft: DRAFTS.dataLed, profile: 'Precisionist' }, want: { atLeast: 85 } }],
  ['when a warm, collaborative invitation goes to a Connector, then it scores high', { given: { draft: DRAFTS.collaborative, profile: 'Connector' }, want: { atLeast: 85 } }],
  ['when a cold one-line demand goes to a Connector, then it scores low', { given: { draft: DRAFTS.coldDemand, profile: 'Connector' }, want: { atMost: 60 } }],
  ['when a short dated go/no-go goes to a Trailblazer on chat, then it scores high', { given: { draft: DRAFTS.directChat, profile: 'Trailblazer', channel: 'chat' }, want: { atLeast: 85 } }],
];

const comparisons: Array<[string, { given: { better: Given; worse: Given } }]> = [
  ['when a rambling, hedging draft is scored, then it fits a Nurturer better than a Challenger', { given: { better: { draft: DRAFTS.rambling, profile: 'Nurturer' }, worse: { draft: DRAFTS.rambling, profile: 'Challenger' } } }],
  ['when a direct draft with a deadline is scored, then it fits a Challenger better than a Peacemaker', { given: { better: { draft: DRAFTS.directWithDeadline, profile: 'Challenger' }, worse: { draft: DRAFTS.directWithDeadline, profile: 'Peacemaker' } } }],
  ['when a long email is sent as a chat message instead, then it scores lower', { given: { better: { draft: DRAFTS.dataLed, profile: 'Precisionist', channel: 'email' }, worse: { draft: DRAFTS.dataLed, profile: 'Precisionist', channel: 'chat' } } }],
  ['when a Precisionist gets the data-led draft rather than the hype, then it scores higher', { given: { better: { draft: DRAFTS.dataLed, profile: 'Precisionist' }, worse: { draft: DRAFTS.vagueHype, profile: 'Precisionist' } } }],
];

const poorFits: Array<[string, { given: Given; want: { contains: string[]; lacks: string[] } }]> = [
  [
    'when a rambling draft is rewritten for a Challenger, then the hedges are gone, the ask leads and a dated next step follows',
    {
      given: { draft: DRAFTS.rambling, profile: 'Challenger' },
      want: { contains: ['Hi Alex,\n\nIt would be good to have another look', 'by [date]', 'Thanks,\nSam'], lacks: ['maybe', 'I guess', 'perhaps', "I hope you're doing well"] },
    },
  ],
  [
    'when a cold demand is rewritten for a Nurturer, then it opens warmly, softens the request and says thank you',
    { given: { draft: DRAFTS.coldDemand, profile: 'Nurturer' }, want: { contains: ["I hope you're doing well.", 'Could you send me the report by 5pm today?', 'Thank you.'], lacks: [] } },
  ],
  [
    'when vague hype is rewritten for a Precisionist, then the exclamation marks and superlatives are gone',
    { given: { draft: DRAFTS.vagueHype, profile: 'Precisionist' }, want: { contains: ['This is going to be good.', 'Please confirm the next step by [date].'], lacks: ['!', 'amazing', 'totally', 'revolutionary'] } },
  ],
  [
    'when a demand with ASAP is rewritten for a Peacemaker, then the pressure is softened',
    { given: { draft: 'I need the budget figures ASAP, no excuses.', profile: 'Peacemaker' }, want: { contains: ['I need the budget figures when you can.'], lacks: ['ASAP', 'no excuses'] } },
  ],
  [
    'when a direct request is rewritten for a Connector, then the context comes before the ask and an open question is added',
    {
      given: { draft: DRAFTS.directWithDeadline, profile: 'Connector' },
      want: { contains: ['Margin holds at 32% after the finance review, and the deck is attached. Alex, I need your sign-off', 'How do you see it?'], lacks: [] },
    },
  ],
];

describe('scoreDraft', () => {
  test.each(fits)('%s', (_name, { given, want }) => {
    const { fit_score: score } = scoreDraft(given.draft, given.profile, given.channel);
    if (want.atLeast !== undefined) expect(score).toBeGreaterThanOrEqual(want.atLeast);
    if (want.atMost !== undefined) expect(score).toBeLessThanOrEqual(want.atMost);
  });

  test.each(comparisons)('%s', (_name, { given }) => {
    const better = scoreDraft(given.better.draft, given.better.profile, given.better.channel).fit_score ?? 0;
    const worse = scoreDraft(given.worse.draft, given.worse.profile, given.worse.channel).fit_score ?? 0;
    expect(better).toBeGreaterThan(worse);
  });

  test.each(poorFits)('%s', (_name, { given, want }) => {
    const { rewrite } = scoreDraft(given.draft, given.profile, given.channel);
    for (const text of want.contains) expect(rewrite).toContain(text);
    for (const text of want.lacks) expect(rewrite).not.toContain(text);
  });

  test.each(poorFits)('when a poorly fitting draft is rewritten (%s), then the rewrite differs and scores higher', (_name, { given }) => {
    const original = scoreDraft(given.draft, given.profile, given.channel);
    expect(original.rewrite).not.toBe(given.draft);
    expect(scoreDraft(original.rewrite ?? '', given.profile, given.channel).fit_score).toBeGreaterThan(original.fit_score ?? 0);
  });

  const everyCombination = Object.entries(DRAFTS).flatMap(([draftName, draft]) =>
    PROFILE_NAMES.flatMap((profile) => [undefined, ...COMMS_CHANNELS].map((channel) => [`${draftName} / ${profile} / ${channel ?? 'no channel'}`, draft, profile, channel] as const)),
  );

  test.each(everyCombination)('when %s is scored, then the analysis is well formed', (_name, draft, profile, channel) => {
    const analysis = scoreDraft(draft, profile, channel);
    expect(Number.isInteger(analysis.fit_score)).toBe(true);
    expect(analysis.fit_score).toBeGreaterThanOrEqual(0);
    expect(analysis.fit_score).toBeLessThanOrEqual(100);
    expect(analysis.issues.length).toBeLessThanOrEqual(8);
    for (const { excerpt, suggestion } of analysis.issues) {
      expect(excerpt.length).toBeGreaterThan(0);
      expect(excerpt.length).toBeLessThanOrEqual(160);
      expect(draft).toContain(excerpt);
      expect(suggestion.length).toBeGreaterThan(0);
    }
    expect(analysis.rewrite?.trim().length ?? 0).toBeGreaterThan(0);
  });

  test.each([
    ['when the draft is empty, then it scores 0 with no issues and no rewrite', { given: '', want: { fit_score: 0, issues: [], rewrite: null } }],
    ['when the draft is only whitespace and punctuation, then it scores 0 with no issues and no rewrite', { given: ' \n ?!. ', want: { fit_score: 0, issues: [], rewrite: null } }],
  ])('%s', (_name, { given, want }) => {
    expect(scoreDraft(given, 'Steward')).toEqual(want);
  });

  test('when a sentence is longer than 160 characters, then its excerpt is a 160-character-or-shorter prefix of it', () => {
    const long = `Maybe ${'we could look at the numbers together '.repeat(8)}before Friday.`;
    const { issues } = scoreDraft(long, 'Challenger');
    const hedgeIssue = issues.find((i) => i.suggestion.startsWith('Drop "Maybe"'));
    expect(hedgeIssue?.excerpt.length).toBeLessThanOrEqual(160);
    expect(long.startsWith(hedgeIssue?.excerpt ?? '-')).toBe(true);
  });

  test('when a draft is 5,000 characters of hedges and hype, then the analysis stays bounded', () => {
    const draft = 'Maybe we could just sort of try it, I think, and it would be amazing!!! '.repeat(70).slice(0, 5000);
    const analysis = scoreDraft(draft, 'Challenger');
    expect(analysis.fit_score).toBeLessThan(30);
    expect(analysis.issues.length).toBeGreaterThan(0);
    expect(analysis.issues.length).toBeLessThanOrEqual(8);
    expect(analysis.rewrite?.length ?? 0).toBeLessThan(draft.length);
  });

  test('when the same draft is scored twice, then the results are identical', () => {
    expect(scoreDraft(DRAFTS.rambling, 'Investigator', 'email')).toEqual(scoreDraft(DRAFTS.rambling, 'Investigator', 'email'));
  });

  test('when a rewrite is made, then it is built from the draft\'s own sentences', () => {
    const { rewrite } = scoreDraft(DRAFTS.dataLed, 'Challenger');
    expect(rewrite).toContain('Could you review the sheet and confirm or reject that hypothesis by Thursday 14:00?');
    expect(rewrite).toContain('The March error report shows 14 failed reconciliations out of 2,310 (0.6%)');
  });
});
