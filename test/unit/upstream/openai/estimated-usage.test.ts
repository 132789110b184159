import { answeredUsage, estimatedPromptTokens, newTally, talliedUsage, type AttemptTally } from '../../../../src/upstream/openai/estimated-usage';

const tally = (overrides: Partial<AttemptTally>): AttemptTally => ({ ...newTally(), ...overrides });

describe('estimatedPromptTokens', () => {
  test('when the messages are English, then it is about 4 characters a token over all of them', () => {
    expect(estimatedPromptTokens([{ content: 'a'.repeat(400) }, { content: 'b'.repeat(400) }])).toBe(200);
  });

  test('when the messages hold Chinese, Japanese or Korean text, then each such character counts 3 tokens, not a quarter', () => {
    // 100 characters of Chinese and 100 of Japanese kana: 600 tokens; at 4 characters a token it would have said 50.
    expect(estimatedPromptTokens([{ content: '文'.repeat(100) }, { content: 'の'.repeat(100) }])).toBe(600);
  });
});

describe('talliedUsage', () => {
  const prompt = () => 250;

  test('when no attempt was sent, then nothing is counted (it cost nothing)', () => {
    expect(talliedUsage([tally({}), tally({})], prompt)).toEqual({ reported: null, estimated: null });
  });

  test('when attempts were sent without a usage report, then each counts its prompt and the text chunks that arrived, marked estimated', () => {
    expect(talliedUsage([tally({ sentAt: 0, textChunks: 12 }), tally({ sentAt: 0 }), tally({})], prompt)).toEqual({
      reported: null,
      estimated: { promptTokens: 500, completionTokens: 12, estimated: true },
    });
  });

  test('when one attempt reported its usage and an earlier one did not, then the report is taken as it is and only the other is estimated', () => {
    const reported = { promptTokens: 700, completionTokens: 90 };
    expect(talliedUsage([tally({ sentAt: 0, textChunks: 3 }), tally({ sentAt: 0, textChunks: 90, usage: reported })], prompt)).toEqual({
      reported,
      estimated: { promptTokens: 250, completionTokens: 3, estimated: true },
    });
  });

  test.each([
    ['the prompt', { promptTokens: 700, completionTokens: null }, { promptTokens: 700, completionTokens: 12 }],
    ['the completion', { promptTokens: null, completionTokens: 90 }, { promptTokens: 250, completionTokens: 90 }],
  ])('when a failed attempt\'s report names only %s, then the other count is estimated as for an attempt without a report, and the attempt is counted as estimated', (_name, usage, want) => {
    expect(talliedUsage([tally({ sentAt: 0, textChunks: 12, usage })], prompt)).toEqual({ reported: null, estimated: { ...want, estimated: true } });
  });
});

describe('answeredUsage', () => {
  const text = '{"profile": "Catalyst"}';

  test('when the answer reported both counts, then its report is taken as it is', () => {
    expect(answeredUsage(tally({ textChunks: 30, usage: { promptTokens: 700, completionTokens: 90 } }), 250, text)).toEqual({ promptTokens: 700, completionTokens: 90 });
  });

  test.each([
    ['only the prompt: the completion estimated beside it', tally({ textChunks: 30, usage: { promptTokens: 700, completionTokens: null } }), { promptTokens: 700, completionTokens: 30 }],
    ['only the completion: the prompt estimated beside it', tally({ textChunks: 30, usage: { promptTokens: null, completionTokens: 90 } }), { promptTokens: 250, completionTokens: 90 }],
  ])('when the answer came with %s, marked estimated', (_name, answered, want) => {
    expect(answeredUsage(answered, 250, text)).toEqual({ ...want, estimated: true });
  });
});
