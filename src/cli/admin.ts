/**
 * `npm run admin -- <command>`: a thin client of the admin API.
 * Reads ADMIN_TOKEN, and ADMIN_URL (default http://ADMIN_HOST:ADMIN_PORT).
 */
import { createInterface } from 'node:readline';
import { JsonDocumentEnd } from './json-document-end';

const USAGE = `usage: npm run admin -- <command>
  create-account <name> <credits>   create an account and its first API key (shown once)
  show-account <accountId>          balance and keys (prefixes only)
  add-credits <accountId> <amount>  add credits
  create-key <accountId>            create another API key (shown once)
  deactivate-key <keyId>            deactivate a key (refused within 3 seconds)
  show-rate-limit <accountId>       the account's per-account rate limit (requests per window)
  set-rate-limit <accountId> <n|default>  set it, or return it to ACCOUNT_RATE_LIMIT_MAX
  usage <accountId> <from> <to> [day|hour] [limit]  per bucket (UTC): calls charged, successes, failures by kind, credits, tokens by model
  erase-snap <snapId>               erase one snap, its comms analyses and replays
  erase-account <accountId>         erase every snap, analysis and replay of an account (the ledger stays)
  erase-person <accountId> <name>   erase everything about the person of this name in an account
  export-account <accountId>        print everything stored for an account, as JSON
  export-person <accountId> <name>  print everything stored about one person in an account, as JSON
A <name> of "-" is read from the first line of stdin (typed at the prompt, or from a file),
so that it stays out of the shell's history and the process list.
environment: ADMIN_TOKEN (required), ADMIN_URL or ADMIN_HOST/ADMIN_PORT (default http://127.0.0.1:3001)`;

/** `streamed`: the answer is a document of its own (an export), copied to stdout as it comes. */
type AdminRequest = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; body?: unknown; streamed?: boolean };

function requestFor(command: string | undefined, args: string[]): AdminRequest | undefined {
  const [first, second, third, fourth, fifth] = args;
  switch (command) {
    case 'create-account':
      return first && second ? { method: 'POST', path: '/admin/v1/accounts', body: { name: first, credits: Number(second) } } : undefined;
    case 'show-account':
      return first ? { method: 'GET', path: `/admin/v1/accounts/${encodeURIComponent(first)}` } : undefined;
    case 'add-credits':
      return first && second
        ? { method: 'POST', path: `/admin/v1/accounts/${encodeURIComponent(first)}/credits`, body: { amount: Number(second) } }
        : undefined;
    case 'create-key':
      return first ? { method: 'POST', path: `/admin/v1/accounts/${encodeURIComponent(first)}/keys` } : undefined;
    case 'deactivate-key':
      return first ? { method: 'DELETE', path: `/admin/v1/keys/${encodeURIComponent(first)}` } : undefined;
    case 'show-rate-limit':
      return first ? { method: 'GET', path: `/admin/v1/accounts/${encodeURIComponent(first)}/rate-limit` } : undefined;
    case 'set-rate-limit':
      return first && second
        ? { method: 'PUT', path: `/admin/v1/accounts/${encodeURIComponent(first)}/rate-limit`, body: { limit: second === 'default' ? null : Number(second) } }
        : undefined;
    case 'usage':
      return first && second && third ? { method: 'GET', path: usagePath(first, second, third, fourth, fifth) } : undefined;
    case 'erase-snap':
      return first ? { method: 'DELETE', path: `/admin/v1/snaps/${encodeURIComponent(first)}` } : undefined;
    case 'erase-account':
      return first ? { method: 'DELETE', path: `/admin/v1/accounts/${encodeURIComponent(first)}/data` } : undefined;
    case 'erase-person':
      return first && second ? { method: 'POST', path: `/admin/v1/accounts/${encodeURIComponent(first)}/people/erasure`, body: { name: second } } : undefined;
    case 'export-account':
      return first ? { method: 'GET', path: `/admin/v1/accounts/${encodeURIComponent(first)}/export`, streamed: true } : undefined;
    case 'export-person':
      return first && second
        ? { method: 'POST', path: `/admin/v1/accounts/${encodeURIComponent(first)}/people/export`, body: { name: second }, streamed: true }
        : undefined;
    default:
      return undefined;
  }
}

function usagePath(accountId: string, from: string, to: string, granularity = 'day', limit?: string): string {
  const query = new URLSearchParams({ from, to, granularity, ...(limit ? { limit } : {}) });
  return `/admin/v1/accounts/${encodeURIComponent(accountId)}/usage?${query.toString()}`;
}

/** The commands whose second argument is a person's name. */
const NAMED_PERSON = new Set(['erase-person', 'export-person']);

/** The arguments, with a person's name given as "-" read from stdin's first line. */
async function argsOf(command: string | undefined, args: string[]): Promise<string[]> {
  if (!NAMED_PERSON.has(command ?? '') || args[1] !== '-') return args;
  if (process.stdin.isTTY) process.stderr.write("the person's name: ");
  const lines = createInterface({ input: process.stdin });
  let name = '';
  for await (const line of lines) {
    name = line.trim();
    break;
  }
  lines.close();
  return [args[0] ?? '', name, ...args.slice(2)];
}

async function main(): Promise<number> {
  const [command, ...given] = process.argv.slice(2);
  const request = requestFor(command, await argsOf(command, given));
  const token = process.env.ADMIN_TOKEN;
  if (!request || !token) {
    process.stderr.write(`${token ? '' : 'ADMIN_TOKEN is not set\n'}${USAGE}\n`);
    return 2;
  }
  const base = process.env.ADMIN_URL ?? `http://${process.env.ADMIN_HOST ?? '127.0.0.1'}:${process.env.ADMIN_PORT ?? '3001'}`;
  const response = await fetch(new URL(request.path, base), {
    method: request.method,
    headers: { authorization: `Bearer ${token}`, ...(request.body ? { 'content-type': 'application/json' } : {}) },
    body: request.body ? JSON.stringify(request.body) : undefined,
  });
  if (request.streamed && response.ok && response.body) {
    const incomplete = await copyDocument(response.body);
    if (!incomplete) return 0;
    process.stderr.write(`admin: the export is incomplete: ${incomplete}; discard what was written to stdout and run the command again\n`);
    return 1;
  }
  process.stdout.write(`${JSON.stringify(await response.json(), null, 2)}\n`);
  return response.ok ? 0 : 1;
}

/**
 * Copies a streamed document to stdout as it comes. A server that fails after its 200
 * cuts the connection (src/http/error-mapper.ts); a body that ends before the document
 * closes is incomplete too. Says why the copy is incomplete, or nothing when it is whole.
 */
async function copyDocument(body: AsyncIterable<Uint8Array>): Promise<string | undefined> {
  const end = new JsonDocumentEnd();
  const chunks = body[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Uint8Array>;
    try {
      next = await chunks.next();
    } catch (err) {
      return `the connection ended before the document did (${describe(err)})`;
    }
    if (next.done) break;
    end.feed(next.value);
    try {
      await write(next.value);
    } catch (err) {
      return `stdout refused it (${describe(err)})`;
    }
  }
  return end.reached ? undefined : 'the answer ended before the document did';
}

function describe(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err instanceof Error ? err.message : String(err)}${cause}`;
}

function write(chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(chunk, (err) => (err ? reject(err) : resolve())));
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`admin: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
