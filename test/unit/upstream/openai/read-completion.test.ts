import { readCompletionJson } from '../../../../src/upstream/openai/read-completion';
import { PredictorError } from '../../../../src/upstream/predictor';

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
