/**
 * A fake OpenAI-compatible server for tests: node:http on 127.0.0.1, port 0, speaking
 * just enough Chat Completions (`POST /chat/completions`, with or without a `/v1`
 * prefix) for the `openai` SDK. Answers are scripted; every request is recorded. A
 * request with `stream: true` is answered as OpenAI and llama.cpp stream: server-sent
 * events, a chunk of about one token (4 characters) each, then, when asked for
 * (`stream_options.include_usage`), the usage in a last chunk with no choices, then `[DONE]`.
 *
 *   const fake = await startFakeOpenAi();
 *   fake.script(status(429, undefined, { headers: { 'retry-after-ms': '0' } }), reply({ profile: 'Catalyst' }));
 *   … new OpenAiPredictor({ baseURL: fake.baseURL, … }) …
 *   expect(fake.requests).toHaveLength(2);
 *   await fake.close();
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { chunk, event, SSE_HEADERS, streamEvents, streamingOf, streamReply, textChunks, type Asked } from './fake-openai-stream';

export { textChunks } from './fake-openai-stream';

/**
 * The budget settings of a service pointed at this fake (config/time-budget.ts): it
 * writes its answers at once, so the slowest speed to plan for is high and no time goes
 * before the first token. Needed beside a short OPENAI_TIMEOUT_SECONDS, which startup
 * otherwise refuses as too short for the default token bounds.
 */
export const FAKE_UPSTREAM_SPEED = { OPENAI_MIN_TOKENS_PER_SECOND: '100000', OPENAI_FIRST_TOKEN_SECONDS: '0' } as const;

/** A complete prediction as an OpenAI-compatible upstream would answer it. */
export const UPSTREAM_PREDICTION = {
  profile: 'Catalyst',
  primary_code: 'CT',
  secondary_profile: 'Connector',
  secondary_code: 'CN',
  confidence: 'Medium',
  reasoning: 'Starts things and rallies people.',
  summary: 'Energetic and quick to act.',
  secondary_profile_summary: 'Builds networks.',
};

/** A complete communication analysis (with a draft) as an OpenAI-compatible upstream would answer it. */
export const UPSTREAM_ANALYSIS = {
  profile: 'Precisionist',
  primary_code: 'PR',
  summary: 'Lead with the data.',
  do: ['Be specific'],
  dont: ['Hype'],
  phrases_to_use: ['The figures show'],
  phrases_to_avoid: ['Trust me'],
  draft_analysis: { fit_score: 40, issues: [{ excerpt: 'maybe', suggestion: 'Be direct.' }], rewrite: 'Could you review the figures by Friday?' },
};
/** The error event OpenAI sends in a stream it cannot finish (`streamCut(…, 'error')`). */
export const STREAM_ERROR = { error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null } };

/** What a real server reports as `usage` unless told otherwise. */
export const UPSTREAM_USAGE = { prompt_tokens: 812, completion_tokens: 164, total_tokens: 976 };

/** How a reply is sent: `usage` (null: none at all, as some servers do; a count left out: not reported), gzip-encoded or not. */
export interface ReplyOptions {
  finishReason?: string;
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null;
  gzip?: boolean;
}

/** How the fake answers one request. Build with the functions below. */
export type Behaviour =
  | { kind: 'reply'; content: unknown; refusal: string | null; finishReason: string; usage: ReplyOptions['usage']; gzip: boolean }
  | { kind: 'status'; code: number; body: unknown; headers: Readonly<Record<string, string>> }
  | { kind: 'delay'; ms: number; then: Behaviour }
  | { kind: 'paced'; ms: number; then: Extract<Behaviour, { kind: 'reply' }> }
  | { kind: 'held'; until: Promise<void>; then: Behaviour }
  | { kind: 'hang' }
  | { kind: 'stall' }
  | { kind: 'cut'; content: string; chunks: number; then: 'stall' | 'drop' | 'error' }
  | { kind: 'garbage' };

/** A completion whose content is `JSON.stringify(json)`, finish_reason 'stop' unless told. */
export function reply(json: unknown, options: ReplyOptions = {}): Behaviour {
  return replyRaw(JSON.stringify(json), options);
}

/**
 * A completion with this exact content: a string, null (no content), or a list of
 * content parts (`[{type: 'text', text}]`, as some servers send).
 */
export function replyRaw(content: string | null | Array<{ type: string; text: string }>, options: ReplyOptions = {}): Behaviour {
  return {
    kind: 'reply',
    content,
    refusal: null,
    finishReason: options.finishReason ?? 'stop',
    usage: options.usage === undefined ? UPSTREAM_USAGE : options.usage,
    gzip: options.gzip ?? false,
  };
}

/** A completion where the model refused: `message.refusal` set, no content. */
export function refuse(text: string): Behaviour {
  return { kind: 'reply', content: null, refusal: text, finishReason: 'stop', usage: UPSTREAM_USAGE, gzip: false };
}

/** 200 and the headers, the first bytes of a body, then nothing: a body that stalls. */
export function stall(): Behaviour {
  return { kind: 'stall' };
}

/**
 * Streamed: the first `chunks` text chunks of `JSON.stringify(json)`, then nothing more
 * (`stall`: the connection stays open), the connection closed (`drop`), or an error event
 * as OpenAI sends one during an incident and the stream's end (`error`: STREAM_ERROR). A
 * request that is not streamed gets the headers and nothing else.
 */
export function streamCut(json: unknown, chunks: number, then: 'stall' | 'drop' | 'error'): Behaviour {
  return { kind: 'cut', content: JSON.stringify(json), chunks, then };
}

/** An HTTP error with an OpenAI-style error body unless one is given. */
export function status(
  code: number,
  body?: unknown,
  options: { headers?: Record<string, string> } = {},
): Behaviour {
  const errorBody = body ?? {
    error: { message: `fake-openai status ${code}`, type: 'fake_error', code: `fake_${code}` },
  };
  return { kind: 'status', code, body: errorBody, headers: options.headers ?? {} };
}

/** Wait `ms` before sending any byte, then behave as `then`. */
export function delay(ms: number, then: Behaviour): Behaviour {
  return { kind: 'delay', ms, then };
}

/**
 * A reply whose stream takes `ms`: the headers at once, then its chunks evenly spread over
 * `ms`, each written on its own, as a model writes tokens (the bench's upstream). A request
 * that is not streamed gets the whole reply after `ms`.
 */
export function paced(ms: number, then: Behaviour): Behaviour {
  if (then.kind !== 'reply') throw new Error('fake-openai: paced() takes a reply');
  return { kind: 'paced', ms, then };
}

/** Send nothing until `until` resolves (an event of the test, not a clock), then behave as `then`. */
export function heldUntil(until: Promise<void>, then: Behaviour): Behaviour {
  return { kind: 'held', until, then };
}

/** `then`, sent only when the test calls `release` (an event, not a clock); releasing twice is harmless. */
export function heldAnswer(then: Behaviour): { behaviour: Behaviour; release: () => void } {
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  return { behaviour: heldUntil(released, then), release: () => release() };
}

/** Never answer; the connection stays open until the client gives up or the fake closes. */
export function hang(): Behaviour {
  return { kind: 'hang' };
}

/** 200 with `Content-Type: application/json` and a body that is not JSON. */
export function garbage(): Behaviour {
  return { kind: 'garbage' };
}

/** An error body as Ollama sends it: `error` is a plain string. */
export function ollamaError(code: number, message: string): Behaviour {
  return status(code, { error: message }, { headers: { 'x-should-retry': 'false' } });
}

/** An error body as vLLM sends it: top-level `object: "error"`, `message`, `type`, `code`. */
export function vllmError(code: number, message: string): Behaviour {
  return status(code, { object: 'error', message, type: 'BadRequestError', param: null, code });
}

/** What the SDK sent, read from the body when it is a chat completion request. */
export interface SentChat {
  model: string;
  responseFormatName: string | null;
  messages: Array<{ role: string; content: string }>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** The query string's parameters. */
  query: Record<string, string>;
  /** Lower-case names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
  chat: SentChat | null;
  /** When the whole request had arrived (Date.now()). */
  receivedAt: number;
}

export interface FakeOpenAi {
  /** `http://127.0.0.1:<port>/v1`, as the SDK's baseURL. */
  baseURL: string;
  requests: RecordedRequest[];
  /** How many `streamCut` answers have had their chunks written to the socket (since the last reset). */
  cutsWritten(): number;
  /** Requests being answered right now, and the most there ever were at once (since the last reset). */
  inFlight(): number;
  maxInFlight(): number;
  /** Queue behaviours; each answers one request, in order. */
  script(...behaviours: Behaviour[]): void;
  /** The behaviour for requests once the queue is empty (default: a loud 500, not retried). */
  always(behaviour: Behaviour): void;
  /** Forget queued behaviours, the `always` behaviour and recorded requests (between tests). */
  reset(): void;
  /** Stop listening, cancel pending delays and destroy every open socket. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;
/** OpenAI-style, with or without /v1, and Azure's classic deployment path. */
const CHAT_PATH = /^(?:\/v1|\/openai\/deployments\/[\w.-]+)?\/chat\/completions$/;

const UNSCRIPTED: Behaviour = {
  kind: 'status',
  code: 500,
  body: { error: { message: 'fake-openai: no behaviour scripted for this request' } },
  headers: { 'x-should-retry': 'false' },
};

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const queue: Behaviour[] = [];
  let fallback: Behaviour = UNSCRIPTED;
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let inFlight = 0;
  let maxInFlight = 0;
  let cutsWritten = 0;

  const server = createServer((req, res) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.once('close', () => (inFlight -= 1));
    void readBody(req).then(
      (raw) => {
        const recorded = record(req, raw);
        requests.push(recorded);
        if (req.method !== 'POST' || !CHAT_PATH.test(recorded.path)) {
          sendJson(res, 404, { error: { message: `fake-openai: no route ${recorded.path}` } });
          return;
        }
        if (typeof recorded.body !== 'object' || recorded.body === null) {
          sendJson(res, 400, { error: { message: 'fake-openai: body is not a JSON object' } });
          return;
        }
        behave(res, queue.shift() ?? fallback, requests.length, { model: recorded.chat?.model ?? 'fake-model', ...streamingOf(recorded.body) });
      },
      () => res.destroy(),
    );
  });

  function behave(res: ServerResponse, behaviour: Behaviour, n: number, asked: Asked): void {
    if (res.destroyed || res.writableEnded) return;
    const { model } = asked;
    switch (behaviour.kind) {
      case 'reply': {
        if (asked.stream) {
          streamReply(res, behaviour, n, asked);
          return;
        }
        const body = Buffer.from(JSON.stringify(completion(behaviour, n, model)));
        const encoding: Record<string, string> = behaviour.gzip ? { 'content-encoding': 'gzip' } : {};
        res.writeHead(200, { 'x-request-id': `req_fake_${n}`, 'content-type': 'application/json', ...encoding });
        res.end(behaviour.gzip ? gzipSync(body) : body);
        return;
      }
      case 'stall':
        if (asked.stream) {
          res.writeHead(200, SSE_HEADERS);
          res.write(event(chunk(n, model, { role: 'assistant', content: '' })));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"id":"chatcmpl-stalled","choices":[');
        return;
      case 'cut': {
        res.writeHead(200, asked.stream ? SSE_HEADERS : { 'content-type': 'application/json' });
        const events = asked.stream
          ? [
              event(chunk(n, model, { role: 'assistant', content: '' })),
              ...textChunks(behaviour.content).slice(0, behaviour.chunks).map((text) => event(chunk(n, model, { content: text }))),
              ...(behaviour.then === 'error' ? [event(STREAM_ERROR)] : []),
            ]
          : ['{"id":"chatcmpl-cut","choices":['];
        // Once the chunks have left for the socket: a drop then cannot overtake them.
        res.write(events.join(''), () => {
          cutsWritten += 1;
          if (behaviour.then === 'drop') res.destroy();
          if (behaviour.then === 'error') res.end();
        });
        return;
      }
      case 'status':
        sendJson(res, behaviour.code, behaviour.body, {
          'x-request-id': `req_fake_${n}`,
          ...behaviour.headers,
        });
        return;
      case 'delay': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          behave(res, behaviour.then, n, asked);
        }, behaviour.ms);
        timers.add(timer);
        return;
      }
      case 'paced': {
        if (!asked.stream) {
          behave(res, { kind: 'delay', ms: behaviour.ms, then: behaviour.then }, n, asked);
          return;
        }
        const [first, ...rest] = streamEvents(behaviour.then, n, asked);
        res.writeHead(200, { 'x-request-id': `req_fake_${n}`, ...SSE_HEADERS });
        res.write(first ?? '');
        const timer = setInterval(
          () => {
            const next = rest.shift();
            if (next !== undefined && !res.destroyed) res.write(next);
            if (rest.length > 0 && !res.destroyed) return;
            clearInterval(timer);
            timers.delete(timer);
            res.end();
          },
          Math.max(1, Math.floor(behaviour.ms / Math.max(1, rest.length))),
        );
        timers.add(timer);
        return;
      }
      case 'held':
        void behaviour.until.then(() => {
          if (!res.destroyed) behave(res, behaviour.then, n, asked);
        });
        return;
      case 'hang':
        return;
      case 'garbage':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('this is { not json');
        return;
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    cutsWritten: () => cutsWritten,
    inFlight: () => inFlight,
    maxInFlight: () => maxInFlight,
    script: (...behaviours) => void queue.push(...behaviours),
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      maxInFlight = inFlight;
      cutsWritten = 0;
      fallback = UNSCRIPTED;
    },
    always: (behaviour) => {
      fallback = behaviour;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function completion(
  behaviour: Extract<Behaviour, { kind: 'reply' }>,
  n: number,
  model: string,
): unknown {
  return {
    id: `chatcmpl-fake-${n}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: behaviour.content, refusal: behaviour.refusal },
        logprobs: null,
        finish_reason: behaviour.finishReason,
      },
    ],
    ...(behaviour.usage === null ? {} : { usage: behaviour.usage }),
  };
}

function sendJson(
  res: ServerResponse,
  code: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  res.writeHead(code, { ...headers, 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) reject(new Error('fake-openai: body too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function record(req: IncomingMessage, raw: string): RecordedRequest {
  const body = parseJson(raw);
  const url = new URL(req.url ?? '', 'http://fake');
  return {
    method: req.method ?? '',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.join(', ') : (value ?? ''),
      ]),
    ),
    body,
    chat: readChat(body),
    receivedAt: Date.now(),
  };
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function readChat(body: unknown): SentChat | null {
  if (!isObject(body) || typeof body['model'] !== 'string' || !Array.isArray(body['messages'])) {
    return null;
  }
  const format = body['response_format'];
  const schema = isObject(format) ? format['json_schema'] : undefined;
  const name = isObject(schema) ? schema['name'] : undefined;
  return {
    model: body['model'],
    responseFormatName: typeof name === 'string' ? name : null,
    messages: body['messages'].flatMap((m: unknown) =>
      isObject(m) && typeof m['role'] === 'string' && typeof m['content'] === 'string'
        ? [{ role: m['role'], content: m['content'] }]
        : [],
    ),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
