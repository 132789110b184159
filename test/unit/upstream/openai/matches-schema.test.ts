import { COMMS_SCHEMA } from '../../../../src/upstream/openai/comms-schema';
import { matchesSchema } from '../../../../src/upstream/openai/matches-schema';
import { SNAP_SCHEMA } from '../../../../src/upstream/openai/snap-schema';
import { aSnapAnswer } from './given';

describe('matchesSchema', () => {
  test.each<[string, Record<string, unknown>, boolean]>([
    ['a complete answer', aSnapAnswer(), true],
    ['nulls where allowed', aSnapAnswer({ profile: null, primary_code: null, reasoning: null }), true],
    ['a missing field', aSnapAnswer({ summary: undefined }), false],
    ['an extra field', aSnapAnswer({ mood: 'happy' }), false],
    ['a value outside the enum', aSnapAnswer({ profile: 'Wizard' }), false],
    ['a Visionary secondary', aSnapAnswer({ secondary_profile: 'Visionary' }), false],
    ['a number for a string', aSnapAnswer({ reasoning: 3 }), false],
  ])('when a snap answer is %s, then it matches: %p', (_, answer, want) => {
    expect(matchesSchema(JSON.parse(JSON.stringify(answer)), SNAP_SCHEMA)).toBe(want);
  });

  test.each<[string, unknown, boolean]>([
    ['a draft analysis', { fit_score: 40, issues: [{ excerpt: 'a', suggestion: 'b' }], rewrite: null }, true],
    ['no draft analysis', null, true],
    ['a fractional score', { fit_score: 40.5, issues: [], rewrite: null }, false],
    ['an issue missing its suggestion', { fit_score: 40, issues: [{ excerpt: 'a' }], rewrite: null }, false],
  ])('when a comms answer has %s, then it matches: %p', (_, draft, want) => {
    const answer = { profile: 'Catalyst', primary_code: 'CT', summary: 's', do: [], dont: ['x'], phrases_to_use: [], phrases_to_avoid: [], draft_analysis: draft };
    expect(matchesSchema(answer, COMMS_SCHEMA)).toBe(want);
  });
});
