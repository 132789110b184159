/**
 * The embedded review never contradicts itself: what its issues tell the writer to drop
 * or replace is gone from its own rewrite, a rewrite that asks for a date does not also
 * say "no rush", and every issue passes the domain's sense check (comms-sense.ts).
 */
import { heldToSense } from '../../../../src/domain/comms-sense';
import { PROFILE_NAMES } from '../../../../src/domain/profiles';
import { COMMS_CHANNELS } from '../../../../src/domain/ports';
import { scoreDraft } from '../../../../src/upstream/embedded/draft-scoring';

const DRAFTS = [
  'Hi Ada, I think maybe we could possibly look at the schedule sometime? Let me know.',
  'Send me the report ASAP. This is urgent!!! We need it right now or else.',
  'Hey team, this is an amazing, revolutionary idea and we should totally do it! Thoughts?',
  'No rush. Could you have a look at the draft budget when you have a moment?',
  'Hello Sam,\n\nI was just wondering if you could send the stuff from the offsite at some point. Lots of things to go through, basically.\n\nThanks,\nKim',
  'Take your time with this one, but the board wants a huge, game-changing plan soon!',
];

/** The words an issue tells the writer to drop or replace: `Drop "a", "b"`, `replace "c" with …`. */
function flaggedWords(suggestion: string): string[] {
  return [...suggestion.matchAll(/\b(?:drop|replace) ((?:"[^"]+"(?:, )?)+)/giu)].flatMap((match) =>
    [...(match[1] ?? '').matchAll(/"([^"]+)"/gu)].map((quoted) => quoted[1] ?? ''),
  );
}

const cases = DRAFTS.flatMap((draft) => PROFILE_NAMES.flatMap((profile) => COMMS_CHANNELS.map((channel) => [profile, channel, draft] as const)));

describe('the embedded rewrite', () => {
  test.each(cases)('when a %s is written to by %s, then the rewrite of %j drops what the issues flag and never contradicts itself', (profile, channel, draft) => {
    const review = scoreDraft(draft, profile, channel);
    const rewrite = review.rewrite ?? '';

    for (const word of review.issues.flatMap((issue) => flaggedWords(issue.suggestion))) {
      const escaped = word.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
      expect({ word, rewrite, found: new RegExp(`(?<![\\p{L}])${escaped}(?![\\p{L}])`, 'iu').test(rewrite) }).toEqual({ word, rewrite, found: false });
    }
    if (review.issues.some((issue) => issue.suggestion.includes('instead of "!"'))) expect(rewrite).not.toContain('!');
    if (/\[date\]|\bby (?:mon|tues|wednes|thurs|fri)day\b/iu.test(rewrite)) {
      expect(rewrite).not.toMatch(/\b(?:no rush|no hurry|no pressure|take your time|whenever)\b/iu);
    }
    expect(heldToSense({ profile, primary_code: null, summary: 'Lead with the data.', do: ['a'], dont: ['b'], phrases_to_use: [], phrases_to_avoid: [], draft_analysis: review }, draft, 'Ada').draft_analysis?.issues).toEqual(review.issues);
  });
});
