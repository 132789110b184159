import { readCompletionJson, readUsage } from '../../../../src/upstream/openai/read-completion';
import { PredictorError } from '../../../../src/domain/predictor-error';

function completion(message: Record<string, unknown>, finishReason: unknown = 'stop'): unknown {
  return { choices: [{ index: 0, message, finish_reason: finishReason }] };
}

describe('readCompletionJson', () => {
  test('when the content is a JSON object, then it is returned', () => {
    expect(readCompletionJson(completion({ content: '{"profile":"Catalyst"}' }))).toEqual({
      profile: 'Catalyst',
    });
  });

  test.each<[string, unknown, RegExp]>([
    ['the response is not an object', 'garbage', /no choices/],
    ['there are no choices', { choices: [] }, /no choices/],
    ['the choice has no message', { choices: [{ finish_reason: 'stop' }] }, /no message/],
    ['the model refused', completion({ content: null, refusal: 'No.' }), /refused/],
    ['the answer was cut at the length limit', completion({ content: '{"a":' }, 'length'), /'length'/],
    ['finish_reason is missing', completion({ content: '{}' }, null), /finish_reason missing/],
    ['finish_reason is free text', completion({ content: '{}' }, 'Stop!'), /unrecognised/],
    ['the content is blank', completion({ content: '  ' }), /empty content/],
    ['the content is not JSON', completion({ content: 'Hello notes' }), /not valid JSON/],
    ['the content is JSON null', completion({ content: 'null' }), /not a JSON object/],
  ])('when %s, then a PredictorError says so', (_, given, message) => {
    expect(() => readCompletionJson(given)).toThrow(PredictorError);
    expect(() => readCompletionJson(given)).toThrow(message);
  });

  test('when the content is not JSON, then the error does not quote it', () => {
    expect(() => readCompletionJson(completion({ content: 'secret notes text' }))).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('secret') }),
    );
  });
});

describe('readCompletionJson, from servers that did not enforce the schema', () => {
  test.each<[string, unknown]>([
    ['a list of text parts', [{ type: 'text', text: '{"profile":' }, { type: 'text', text: '"Catalyst"}' }]],
    ['a <think> block before the JSON', '<think>The notes say they start things.</think>\n{"profile":"Catalyst"}'],
    ['a markdown fence around the JSON', '```json\n{"profile":"Catalyst"}\n```'],
    ['both', '<think>hmm</think>\n```\n{"profile":"Catalyst"}\n```\n'],
  ])('when the content is %s, then the JSON is read', (_, content) => {
    expect(readCompletionJson(completion({ content }))).toEqual({ profile: 'Catalyst' });
  });

  test('when the JSON was cut short but finish_reason says stop, then it is not valid JSON', () => {
    expect(() => readCompletionJson(completion({ content: '{"profile":"Cata' }))).toThrow(/not valid JSON/);
  });
});

describe('readUsage', () => {
  test.each<[string, unknown, { promptTokens: number | null; completionTokens: number | null }]>([
    ['usage is complete', { usage: { prompt_tokens: 812, completion_tokens: 164, total_tokens: 976 } }, { promptTokens: 812, completionTokens: 164 }],
    ['usage is missing', {}, { promptTokens: null, completionTokens: null }],
    ['usage holds no counts', { usage: { prompt_tokens: -1, completion_tokens: '7' } }, { promptTokens: null, completionTokens: null }],
  ])('when %s, then the counts are %p', (_, given, want) => {
    expect(readUsage(given)).toEqual(want);
  });
});
