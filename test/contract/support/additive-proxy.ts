/**
 * A proxy in front of the live service that adds a field no spec names to every object of
 * every JSON response: the envelope, `data`, the prediction, the draft review, each issue.
 * A client generated from the spec must ignore it (the spec's compatibility policy: fields
 * are added to responses within /api/v1).
 */
import { once } from 'node:events';
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The field the proxy adds, and its value: an object, so clients meet nesting they do not know either. */
export const ADDED_FIELD = 'addedByProxy';
const ADDED_VALUE = { note: 'a field this client was not generated with', list: [1, 'two', null] };

/** Hop-by-hop and length headers: the proxy sets its own. */
const NOT_FORWARDED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'accept-encoding', 'host']);

export interface AdditiveProxy {
  url: string;
  /** How many JSON responses the proxy changed, and how many objects in them. */
  readonly changed: { responses: number; objects: number };
  close(): Promise<void>;
}

export async function startAdditiveProxy(targetUrl: string): Promise<AdditiveProxy> {
  const target = new URL(targetUrl);
  const changed = { responses: 0, objects: 0 };
  const server = createServer((incoming, outgoing) => {
    void readAll(incoming).then((body) => {
      const upstream = request(
        { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: { ...forwarded(incoming.headers), 'content-length': String(body.length) } },
        (answer) => {
          void readAll(answer).then((raw) => {
            const rewritten = withAddedFields(answer, raw, changed);
            outgoing.writeHead(answer.statusCode ?? 502, { ...forwarded(answer.headers), 'content-length': String(rewritten.length) });
            outgoing.end(rewritten);
          });
        },
      );
      upstream.on('error', (error) => outgoing.writeHead(502).end(String(error)));
      upstream.end(body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    changed,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function withAddedFields(answer: IncomingMessage, raw: Buffer, changed: { responses: number; objects: number }): Buffer {
  if (!/^application\/json\b/.test(answer.headers['content-type'] ?? '')) return raw;
  const value: unknown = JSON.parse(raw.toString('utf8'));
  const objects = addField(value);
  changed.responses += 1;
  changed.objects += objects;
  return Buffer.from(JSON.stringify(value));
}

/** Adds the field to `value` and every object inside it; returns how many objects it changed. */
function addField(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + addField(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  const record = value as Record<string, unknown>;
  const inside = Object.values(record).reduce((sum: number, item) => sum + addField(item), 0);
  record[ADDED_FIELD] = structuredClone(ADDED_VALUE);
  return inside + 1;
}

function forwarded(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !NOT_FORWARDED.has(name)) kept[name] = value;
  return kept;
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject);
  });
}

/**
 * Runs a client's snap-then-comms example against `baseUrl` through the proxy, and checks
 * that the proxy did change both responses (envelope, data, prediction or advice, draft
 * review: at least seven objects) before returning what the example printed.
 */
export async function throughAdditiveProxy<T>(baseUrl: string, example: (proxyUrl: string) => Promise<T>): Promise<T> {
  const proxy = await startAdditiveProxy(baseUrl);
  try {
    const result = await example(proxy.url);
    expect(proxy.changed.responses).toBe(2);
    expect(proxy.changed.objects).toBeGreaterThanOrEqual(7);
    return result;
  } finally {
    await proxy.close();
  }
}
