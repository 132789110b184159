/**
 * The JSON object in a chat completion's first choice, or a PredictorError saying why
 * there is none. The completion is read as `unknown`: an OpenAI-compatible server may
 * send anything. Error messages never quote the content, which may echo the notes.
 */
import { PredictorError } from '../predictor';
import { isJsonObject, type JsonObject } from './read-json-values';

export function readCompletionJson(completion: unknown): JsonObject {
  const choice = firstChoice(completion);
  const message = choice['message'];
  if (!isJsonObject(message)) throw new PredictorError('upstream choice has no message');

  if (typeof message['refusal'] === 'string' && message['refusal'] !== '') {
    throw new PredictorError('upstream model refused to answer');
  }
  const finishReason = choice['finish_reason'];
  if (finishReason !== 'stop') {
    throw new PredictorError(`upstream model stopped with finish_reason ${describe(finishReason)}`);
  }
  const content = message['content'];
  if (typeof content !== 'string' || content.trim() === '') {
    throw new PredictorError('upstream model returned empty content');
  }
  const json = parseJson(content);
  if (!isJsonObject(json)) throw new PredictorError('upstream model content is not a JSON object');
  return json;
}

function firstChoice(completion: unknown): JsonObject {
  const choices = isJsonObject(completion) ? completion['choices'] : undefined;
  const choice: unknown = Array.isArray(choices) ? choices[0] : undefined;
  if (!isJsonObject(choice)) throw new PredictorError('upstream response has no choices');
  return choice;
}

function parseJson(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    // No cause: JSON.parse's message quotes the content.
    throw new PredictorError('upstream model content is not valid JSON');
  }
}

/** A finish_reason fit for an error message: a short identifier, never free text. */
function describe(value: unknown): string {
  if (typeof value === 'string' && /^[a-z_]{1,32}$/.test(value)) return `'${value}'`;
  return value === null || value === undefined ? 'missing' : 'unrecognised';
}
