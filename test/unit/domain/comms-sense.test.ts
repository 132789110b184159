import { AppError } from '../../../src/domain/app-error';
import { assertAdvisable, heldToSense, TRAILING_STOPS } from '../../../src/domain/comms-sense';
import { MESSAGES } from '../../../src/domain/messages';
import type { CommsAnalysis, StoredSnap } from '../../../src/domain/ports';
import { replacedInWorker } from '../../support/pattern-in-worker';

const DRAFT = 'Hi Ada, I think maybe we could look at the schedule sometime? Let me know.';
const NAME = 'Ada';

function analysis(overrides: Partial<CommsAnalysis> = {}): CommsAnalysis {
  return {
    profile: 'Precisionist',
    primary_code: 'PR',
    summary: 'Lead with the data and give them time.',
    do: ['Be specific.', 'Give a date'],
    dont: ['Hype the plan'],
    phrases_to_use: ['The figures show'],
    phrases_to_avoid: ['Trust me'],
    draft_analysis: { fit_score: 40, issues: [{ excerpt: 'Let me know.', suggestion: 'Ask for a date.' }], rewrite: 'Could you confirm the schedule by Friday?' },
    ...overrides,
  };
}

function failure(run: () => unknown): AppError | undefined {
  try {
    run();
  } catch (error) {
    return error as AppError;
  }
  return undefined;
}

describe('heldToSense', () => {
  test('when a sensible analysis is held to sense, then it is unchanged', () => {
    expect(heldToSense(analysis(), DRAFT, NAME)).toEqual(analysis());
  });

  // A run of a million spaces and stops not at the end: the former `[\s.!?…]+$`, tried at
  // each of its characters, took about 40 s for 200,000 and grows with the square, so about
  // 15 minutes here, far past the 60 s timeout (jest.config.js), which fails the test (the
  // pattern runs in a worker); this one takes milliseconds. No time is asserted.
  test('when a text holds a very long run of spaces and stops before its end, then only its end is cut, in time', async () => {
    const text = `be ${'. '.repeat(500_000)}brief. .`;

    expect(await replacedInWorker(TRAILING_STOPS, text, '')).toBe(`be ${'. '.repeat(500_000)}brief`);
  });

  test('when advice is both a do and a dont item, case, spacing and end stop aside, then it leaves both lists', () => {
    const held = heldToSense(analysis({ do: ['Be specific.', 'Lead  with DATA'], dont: ['lead with data.', 'Hype the plan'] }), DRAFT, NAME);

    expect([held.do, held.dont]).toEqual([['Be specific.'], ['Hype the plan']]);
  });

  test('when issues quote what the draft does not hold, or only repeat their excerpt, then they are dropped', () => {
    const issues = [
      { excerpt: 'Let me know.', suggestion: 'Ask for a date.' },
      { excerpt: 'let me know.', suggestion: 'Not verbatim: another case.' },
      { excerpt: 'We will ship on Monday.', suggestion: 'Not in the draft at all.' },
      { excerpt: '', suggestion: 'An empty excerpt.' },
      { excerpt: 'Let me know.', suggestion: 'Let me know.' },
      { excerpt: 'Let me know.', suggestion: 'Say it plainly, e.g. "Let me  know."' },
      { excerpt: 'Let me know.', suggestion: 'Use a full stop, e.g. “Let me know!”' },
      { excerpt: 'Let me know.', suggestion: 'Drop "Let me know." and ask for a date.' },
    ];

    const held = heldToSense(analysis({ draft_analysis: { fit_score: 40, issues, rewrite: 'x' } }), DRAFT, NAME);

    expect(held.draft_analysis?.issues).toEqual([issues[0], issues[6], issues[7]]);
  });

  test('when an excerpt was cut to its length limit, then what was kept is judged', () => {
    const issues = [
      { excerpt: 'Hi Ada, I think maybe…', suggestion: 'Shorter.' },
      { excerpt: 'Hi Ada, I do not…', suggestion: 'Not the draft.' },
    ];

    expect(heldToSense(analysis({ draft_analysis: { fit_score: 40, issues, rewrite: 'x' } }), DRAFT, NAME).draft_analysis?.issues).toEqual([issues[0]]);
  });

  test.each<[string, Partial<CommsAnalysis>, string | undefined]>([
    ['the summary is null', { summary: null }, undefined],
    ['the summary is a date', { summary: '2022-01-01' }, undefined],
    ['every do item was also a dont item', { do: ['Hype the plan'] }, undefined],
    ['there is no dont item', { dont: [] }, undefined],
    ['a draft was given and there is no review', { draft_analysis: null }, DRAFT],
    ['a draft was given and the review has no fit score', { draft_analysis: { fit_score: null, issues: [], rewrite: 'x' } }, DRAFT],
  ])('when %s, then the analysis failed: the comms 500', (_name, overrides, draft) => {
    const error = failure(() => heldToSense(analysis(overrides), draft, NAME));

    expect(error).toBeInstanceOf(AppError);
    expect([error?.kind, error?.message]).toEqual(['generation_failed', MESSAGES.commsGenerationFailed]);
  });

  test('when the summary is three words counting "the person", then it has substance whatever the length of the name put in', () => {
    const reassure = analysis({ summary: 'Reassure the person.', draft_analysis: null });

    expect([heldToSense(reassure, undefined, 'Ada').summary, heldToSense(reassure, undefined, 'Ada Lovelace').summary]).toEqual(['Reassure Ada.', 'Reassure Ada Lovelace.']);
  });

  test('when a do item equals a dont item only once the name is put in, then both stay, whatever the name', () => {
    const thank = analysis({ do: ['Thank the person.', 'Be brief.'], dont: ['Thank Ada.', 'Ramble.'], draft_analysis: null });

    expect(heldToSense(thank, undefined, 'Ada')).toMatchObject({ do: ['Thank Ada.', 'Be brief.'], dont: ['Thank Ada.', 'Ramble.'] });
    expect(heldToSense(thank, undefined, 'Bob')).toMatchObject({ do: ['Thank Bob.', 'Be brief.'], dont: ['Thank Ada.', 'Ramble.'] });
  });

  test('when a suggestion only repeats its excerpt once the name is put in, then it is dropped', () => {
    const issues = [{ excerpt: 'Hi Ada,', suggestion: 'Hi the person,' }];

    expect(heldToSense(analysis({ draft_analysis: { fit_score: 40, issues, rewrite: 'x' } }), DRAFT, NAME).draft_analysis?.issues).toEqual([]);
  });

  test('when no draft was given, then a missing review is no failure', () => {
    expect(heldToSense(analysis({ draft_analysis: null }), undefined, NAME).draft_analysis).toBeNull();
    expect(heldToSense(analysis({ draft_analysis: null }), '  ', NAME).draft_analysis).toBeNull();
  });
});

describe('assertAdvisable', () => {
  const snap = (profile: StoredSnap['prediction']['profile']): StoredSnap => ({
    snapId: 1,
    accountId: 1,
    subject: { name: 'Ada', notes: 'Met once.' },
    prediction: { profile, primary_code: null, secondary_profile: null, secondary_code: null, confidence: 'Low', reasoning: null, summary: null, secondary_profile_summary: null },
  });

  test('when the snap has no profile, then there is nothing to advise on: 422 with the documented message', () => {
    const error = failure(() => assertAdvisable(snap(null)));

    expect([error?.kind, error?.message]).toEqual(['unprocessable', MESSAGES.snapWithoutProfile]);
  });

  test('when the snap has a profile, then it may be advised on', () => {
    expect(() => assertAdvisable(snap('Steward'))).not.toThrow();
  });
});
