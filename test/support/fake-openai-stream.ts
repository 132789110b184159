/**
 * The fake OpenAI-compatible server's streamed answers (fake-openai-server.ts): server-sent
 * events as OpenAI and llama.cpp send them, a chunk of about one token (4 characters) each,
 * the finish reason, then the usage in a last chunk with no choices when the request asked
 * for it (`stream_options.include_usage`), then `[DONE]`.
 */
import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { Behaviour } from './fake-openai-server';

/** The most chunks an answer is sent in: above every output bound the service sends (4,000). */
const MAX_CHUNKS = 4096;

/**
 * The text chunks a streamed answer of `content` is sent in: about one token (4 characters)
 * each; an answer longer than any bound allows (a test's over-long output) in MAX_CHUNKS larger ones.
 */
export function textChunks(content: string): string[] {
  const size = Math.max(4, Math.ceil([...content].length / MAX_CHUNKS));
  return Array.from(content.matchAll(new RegExp(`[\\s\\S]{1,${size}}`, 'gu')), (match) => match[0]);
}

/** What the request asked of the answer's form. */
export interface Asked {
  model: string;
  stream: boolean;
  includeUsage: boolean;
}

export function streamingOf(body: unknown): Omit<Asked, 'model'> {
  const options = isObject(body) ? body['stream_options'] : undefined;
  return { stream: isObject(body) && body['stream'] === true, includeUsage: isObject(options) && options['include_usage'] === true };
}

export const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

export const event = (data: unknown): string => `data: ${JSON.stringify(data)}\n\n`;

export function chunk(n: number, model: string, delta: Record<string, unknown>, finishReason: string | null = null): unknown {
  return {
    id: `chatcmpl-fake-${n}`,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
}

/** A reply as OpenAI streams it: the role, a chunk per text piece, the finish reason, the usage when asked for, `[DONE]`. */
export function streamEvents(behaviour: Extract<Behaviour, { kind: 'reply' }>, n: number, asked: Asked): string[] {
  const { content } = behaviour;
  const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((part: { text?: unknown }) => String(part.text ?? '')).join('') : '';
  const events = [event(chunk(n, asked.model, { role: 'assistant', content: '' }))];
  for (const piece of textChunks(text)) events.push(event(chunk(n, asked.model, { content: piece })));
  for (const piece of textChunks(behaviour.refusal ?? '')) events.push(event(chunk(n, asked.model, { refusal: piece })));
  events.push(event(chunk(n, asked.model, {}, behaviour.finishReason)));
  if (asked.includeUsage && behaviour.usage) events.push(event({ id: `chatcmpl-fake-${n}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: asked.model, choices: [], usage: behaviour.usage }));
  events.push('data: [DONE]\n\n');
  return events;
}

export function streamReply(res: ServerResponse, behaviour: Extract<Behaviour, { kind: 'reply' }>, n: number, asked: Asked): void {
  const events = streamEvents(behaviour, n, asked);
  const encoding: Record<string, string> = behaviour.gzip ? { 'content-encoding': 'gzip' } : {};
  res.writeHead(200, { 'x-request-id': `req_fake_${n}`, ...SSE_HEADERS, ...encoding });
  if (behaviour.gzip) res.end(gzipSync(events.join('')));
  else {
    for (const each of events) res.write(each);
    res.end();
  }
}


function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
