/**
 * A streamed chat completion (`stream: true`, `stream_options.include_usage`) read into the
 * shape of a whole one, so that read-completion.ts and the GenAI span read both alike. As
 * the chunks arrive, `tally` counts those that carry text (about one token each) and takes
 * the usage report, which comes in a last chunk with no choices, before `[DONE]`.
 *
 * The SDK ends an aborted stream quietly (no error), and a server may close it without a
 * `finish_reason`: a stream without one is an answer cut short, a lost connection (retried
 * as one); a body without a single event (not a stream at all) is an unreadable answer. A connection lost mid-stream, or undici's bound between two chunks, surfaces as
 * the SDK's connection errors (attempt-failure.ts, to-predictor-error.ts read those).
 */
import { APIConnectionError, APIConnectionTimeoutError } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { isTimeoutCode } from './attempt-failure';
import { PredictorError } from '../../domain/predictor-error';
import type { AttemptTally } from './estimated-usage';
import { readUsage } from './read-completion';

/** The parts of a whole completion that read-completion.ts and genai-telemetry.ts read. */
export interface StreamedCompletion {
  model: string | undefined;
  choices: { index: 0; message: { role: 'assistant'; content: string; refusal: string | null }; finish_reason: string }[];
  usage?: { prompt_tokens: unknown; completion_tokens: unknown };
}

export async function readStream(stream: AsyncIterable<ChatCompletionChunk>, tally: AttemptTally): Promise<StreamedCompletion> {
  let model: string | undefined;
  let content = '';
  let refusal = '';
  let finishReason: string | null = null;
  let usage: StreamedCompletion['usage'];
  let chunks = 0;
  try {
    for await (const chunk of stream) {
      chunks += 1;
      model ??= typeof chunk.model === 'string' ? chunk.model : undefined;
      if (chunk.usage) {
        const reported = readUsage(chunk);
        if (reported.promptTokens !== null || reported.completionTokens !== null) {
          tally.usage = reported;
          usage = { prompt_tokens: chunk.usage.prompt_tokens, completion_tokens: chunk.usage.completion_tokens };
        }
      }
      const choice = chunk.choices?.find((each) => each.index === 0);
      if (!choice) continue;
      const text = typeof choice.delta?.content === 'string' ? choice.delta.content : '';
      const refused = typeof choice.delta?.refusal === 'string' ? choice.delta.refusal : '';
      if (text !== '' || refused !== '') tally.textChunks += 1;
      content += text;
      refusal += refused;
      if (typeof choice.finish_reason === 'string') finishReason = choice.finish_reason;
    }
  } catch (error) {
    throw asConnectionError(error);
  }
  if (chunks === 0) throw new PredictorError('upstream response could not be read');
  if (finishReason === null) throw new APIConnectionError({ message: 'upstream stream ended before its answer did' });
  return {
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: refusal === '' ? null : refusal }, finish_reason: finishReason }],
    ...(usage && { usage }),
  };
}

/** fetch's "terminated" (the connection closed mid-stream) or undici's chunk bound, as the SDK names them before the headers. */
function asConnectionError(error: unknown): unknown {
  if (isTimeoutCode(error)) return new APIConnectionTimeoutError({ message: 'upstream stream stalled' });
  if (error instanceof TypeError) return new APIConnectionError({ message: 'upstream connection was lost mid-stream', cause: error });
  return error;
}
