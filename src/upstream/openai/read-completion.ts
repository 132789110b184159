/**
 * The JSON object in a chat completion's first choice, or a PredictorError saying why
 * there is none. The completion is read as `unknown`: an OpenAI-compatible server may
 * send anything: content as a string or as a list of text parts, and, from a server
 * that did not enforce the schema, the JSON after a `<think>…</think>` block or inside
 * a markdown fence. Error messages never quote the content, which may echo the notes.
 */
import { PredictorError } from '../../domain/predictor-error';
import type { ReportedUsage } from './estimated-usage';
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
  const content = textOf(message['content']);
  if (content.trim() === '') throw new PredictorError('upstream model returned empty content');
  const json = parseJson(unwrap(content));
  if (!isJsonObject(json)) throw new PredictorError('upstream model content is not a JSON object');
  return json;
}

/** The token counts of `usage`, each null when missing or not a count. */
export function readUsage(completion: unknown): ReportedUsage {
  const usage = isJsonObject(completion) ? completion['usage'] : undefined;
  const count = (value: unknown): number | null => (Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : null);
  return isJsonObject(usage)
    ? { promptTokens: count(usage['prompt_tokens']), completionTokens: count(usage['completion_tokens']) }
    : { promptTokens: null, completionTokens: null };
}

/** The usage `completion` reports, or null when it reports no count at all. */
export function reportedUsage(completion: unknown): ReportedUsage | null {
  const usage = readUsage(completion);
  return usage.promptTokens === null && usage.completionTokens === null ? null : usage;
}

/** The text of the first choice's message (the content, or a refusal), '' when there is none. */
export function answerText(completion: unknown): string {
  const message = choiceOf(completion)?.['message'];
  if (!isJsonObject(message)) return '';
  return textOf(message['content']) + (typeof message['refusal'] === 'string' ? message['refusal'] : '');
}

/** A string, or the text parts of a list of content parts joined; anything else: ''. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => (isJsonObject(part) && part['type'] === 'text' && typeof part['text'] === 'string' ? part['text'] : ''))
    .join('');
}

const THINKING = /^\s*<think>[\s\S]*?<\/think>/;
const FENCE = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/;

/** The content without a leading `<think>…</think>` block and without a markdown fence around it. */
function unwrap(content: string): string {
  const answer = content.replace(THINKING, '');
  return FENCE.exec(answer)?.[1] ?? answer;
}

function firstChoice(completion: unknown): JsonObject {
  const choice = choiceOf(completion);
  if (!choice) throw new PredictorError('upstream response has no choices');
  return choice;
}

/** The completion's first choice, if it has one. */
function choiceOf(completion: unknown): JsonObject | undefined {
  const choices = isJsonObject(completion) ? completion['choices'] : undefined;
  const choice: unknown = Array.isArray(choices) ? choices[0] : undefined;
  return isJsonObject(choice) ? choice : undefined;
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
