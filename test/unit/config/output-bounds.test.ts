/**
 * The default output bounds against the longest real-shaped answer of each route,
 * estimated at 4 characters a token (above what OpenAI's o200k tokenizer counts for
 * this English text: 312 and 2,268 tokens): each default must leave at least 40% more.
 */
import { DEFAULT_MAX_OUTPUT_TOKENS } from '../../../src/config/output-bounds';

const MARGIN = 1.4;
const sentence = (n: number): string =>
  Array.from({ length: n }, (_, i) => `Sentence ${i + 1} describes how this person checks every figure twice, keeps meticulous notes and audits the spreadsheet before any decision is taken by the team.`).join(' ');
const phrases = (n: number): string[] => Array.from({ length: n }, (_, i) => `${i + 1}. Could we walk through the figures together before Friday so that nothing is missed?`);
/** The longest draft the API accepts: 5,000 characters. */
const DRAFT = 'Hi Ada, I wanted to follow up on the quarterly audit and ask whether we could maybe look at the numbers sometime next week, if that works for you. '.repeat(40).slice(0, 5000);

const LONGEST = {
  predictSnap: {
    reasoning: sentence(4), profile: 'Precisionist', primary_code: 'PR', secondary_profile: 'Investigator', secondary_code: 'IV', confidence: 'Medium',
    summary: sentence(3), secondary_profile_summary: sentence(2),
  },
  analyseComms: {
    profile: 'Precisionist', primary_code: 'PR', summary: sentence(3), do: phrases(6), dont: phrases(6), phrases_to_use: phrases(6), phrases_to_avoid: phrases(6),
    draft_analysis: { fit_score: 40, issues: Array.from({ length: 8 }, () => ({ excerpt: DRAFT.slice(0, 120), suggestion: sentence(1) })), rewrite: DRAFT },
  },
};

describe('DEFAULT_MAX_OUTPUT_TOKENS', () => {
  test.each(Object.entries(LONGEST))('when the longest %s answer is estimated, then the default bound leaves a 40%% margin', (operation, answer) => {
    const estimatedTokens = Math.ceil(JSON.stringify(answer, null, 2).length / 4);
    expect(DEFAULT_MAX_OUTPUT_TOKENS[operation as keyof typeof LONGEST]).toBeGreaterThanOrEqual(Math.ceil(estimatedTokens * MARGIN));
  });
});
