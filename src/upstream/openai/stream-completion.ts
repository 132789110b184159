/**
 * A streamed chat completion (`stream: true`, `stream_options.include_usage`) read into the
 * shape of a whole one, so that read-completion.ts and the GenAI span read both alike. As
 * the chunks arrive, `tally` counts those that carry text (about one token each) and takes
 * the usage report, which comes in a last chunk with no choices, before `[DONE]`.
 *
 * The events are read by eventsource-parser from the raw answer (the SDK's `asResponse()`,
 * after its status checks; the body as the Node stream request-fetch.ts gives beside the
 * web one, each chunk handed on as it arrives, without a promise): the SDK's own stream,
 * async generators three deep, cost 0.6 to 0.8 ms of CPU for a snap's 68 events where this
 * costs about 0.25 ms (the whole answer's JSON.parse: 0.06 ms; measured in-process,
 * machine load about 3).
 *
 * A server may close the stream without a `finish_reason`: an answer cut short, a lost
 * connection (retried as one); a body without a single event (empty, or not a stream at
 * all) is the server's failure whatever was asked, an outage, not retried (a server that
 * does not stream would answer a retry the same way). A connection lost mid-stream, or
 * undici's bound between two chunks, surfaces as the SDK's connection errors, and an error
 * event as its APIError, an outage retried as a 5xx (attempt-failure.ts,
 * to-predictor-error.ts read those).
 */
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { PredictorError } from '../../domain/predictor-error';
import { isLostConnection, isTimeoutCode } from './attempt-failure';
import type { AttemptTally } from './estimated-usage';
import { reportedUsage } from './read-completion';
import { NodeBodyResponse } from './request-fetch';
import { isJsonObject, type JsonObject } from './read-json-values';

/** The parts of a whole completion that read-completion.ts and genai-telemetry.ts read. */
export interface StreamedCompletion {
  model: string | undefined;
  choices: { index: 0; message: { role: 'assistant'; content: string; refusal: string | null }; finish_reason: string }[];
  usage?: { prompt_tokens: unknown; completion_tokens: unknown };
}

export async function readStream(response: Response, tally: AttemptTally): Promise<StreamedCompletion> {
  const answer = new StreamedAnswer(tally, response.headers);
  const body = response instanceof NodeBodyResponse ? response.nodeBody : response.body && Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  if (!body) return answer.whole();
  const parser = createParser({ onEvent: (event) => answer.heard(event) });
  // Each chunk as it arrives, decoded (a character split between chunks kept for the next); an event that fails the answer ends the call.
  const decoder = new TextDecoder();
  body.on('data', (chunk: Uint8Array) => {
    try {
      parser.feed(decoder.decode(chunk, { stream: true }));
    } catch (error) {
      body.destroy(error as Error);
    }
  });
  try {
    await finished(body);
  } catch (error) {
    throw asConnectionError(error);
  }
  return answer.whole();
}

/** What the events said so far. */
class StreamedAnswer {
  private model: string | undefined;
  private content = '';
  private refusal = '';
  private finishReason: string | null = null;
  private usage: StreamedCompletion['usage'];
  private events = 0;

  constructor(
    private readonly tally: AttemptTally,
    private readonly headers: Headers,
  ) {}

  heard(event: EventSourceMessage): void {
    this.events += 1;
    if (event.data === '[DONE]') return;
    const chunk = parseChunk(event.data);
    if (isJsonObject(chunk['error'])) throw new APIError(statusOfErrorEvent(chunk['error']), chunk['error'], undefined, this.headers);
    this.model ??= typeof chunk['model'] === 'string' ? chunk['model'] : undefined;
    // Only the last chunk reports the usage: the others are not read for it.
    const reported = chunk['usage'] === undefined || chunk['usage'] === null ? null : reportedUsage(chunk);
    if (reported) {
      this.tally.usage = reported;
      this.usage = { prompt_tokens: reported.promptTokens, completion_tokens: reported.completionTokens };
    }
    const choices = chunk['choices'];
    const choice: unknown = Array.isArray(choices) ? choices.find((each: unknown) => isJsonObject(each) && each['index'] === 0) : undefined;
    if (!isJsonObject(choice)) return;
    const delta = isJsonObject(choice['delta']) ? choice['delta'] : {};
    const text = typeof delta['content'] === 'string' ? delta['content'] : '';
    const refused = typeof delta['refusal'] === 'string' ? delta['refusal'] : '';
    // Reasoning a server streams (vLLM, llama.cpp, DeepSeek: `reasoning_content`; others: `reasoning`) is generated, and billed, too.
    const reasoned = [delta['reasoning_content'], delta['reasoning']].some((each) => typeof each === 'string' && each !== '');
    if (text !== '' || refused !== '' || reasoned) this.tally.textChunks += 1;
    this.content += text;
    this.refusal += refused;
    if (typeof choice['finish_reason'] === 'string') this.finishReason = choice['finish_reason'];
  }

  whole(): StreamedCompletion {
    if (this.events === 0) throw new PredictorError('upstream answered without a single event', { outage: true });
    if (this.finishReason === null) throw new APIConnectionError({ message: 'upstream stream ended before its answer did' });
    return {
      model: this.model,
      choices: [{ index: 0, message: { role: 'assistant', content: this.content, refusal: this.refusal === '' ? null : this.refusal }, finish_reason: this.finishReason }],
      ...(this.usage && { usage: this.usage }),
    };
  }
}

/**
 * The HTTP status an error event stands for, read as its answer's would be: llama.cpp's
 * server gives one as the error's `code` (`{"code": 400, "type": "exceed_context_size_error"}`
 * for a prompt past its context), OpenAI names a request it refuses `invalid_request_error`
 * (a 400). Without either (OpenAI's `server_error`), none: the server failing an answer it
 * had begun (attempt-failure.ts).
 */
function statusOfErrorEvent(error: JsonObject): number | undefined {
  const { code, type } = error;
  if (typeof code === 'number' && Number.isInteger(code) && code >= 400 && code <= 599) return code;
  return type === 'invalid_request_error' ? 400 : undefined;
}

/** An event that is not a JSON object breaks the stream's protocol whatever was asked: the server's failure, an outage (not retried, as an answer without events). */
function parseChunk(data: string): JsonObject {
  let chunk: unknown;
  try {
    chunk = JSON.parse(data);
  } catch {
    // No cause: JSON.parse's message quotes the data, which may echo the notes.
    throw new PredictorError('upstream response could not be read', { outage: true });
  }
  if (!isJsonObject(chunk)) throw new PredictorError('upstream response could not be read', { outage: true });
  return chunk;
}

/** undici's bound between two chunks, or a connection lost mid-stream, as the SDK names them before the headers. */
function asConnectionError(error: unknown): unknown {
  if (isTimeoutCode(error)) return new APIConnectionTimeoutError({ message: 'upstream stream stalled' });
  if (isLostConnection(error) && error instanceof Error) return new APIConnectionError({ message: 'upstream connection was lost mid-stream', cause: error });
  return error;
}
