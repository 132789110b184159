/**
 * `npm run admin -- <command>`: a thin client of the admin API.
 * Reads ADMIN_TOKEN, and ADMIN_URL (default http://ADMIN_HOST:ADMIN_PORT).
 */
export {};

const USAGE = `usage: npm run admin -- <command>
  create-account <name> <credits>   create an account and its first API key (shown once)
  show-account <accountId>          balance and keys (prefixes only)
  add-credits <accountId> <amount>  add credits
  create-key <accountId>            create another API key (shown once)
  deactivate-key <keyId>            deactivate a key (refused within 3 seconds)
  show-rate-limit <accountId>       the account's per-account rate limit (requests per window)
  set-rate-limit <accountId> <n|default>  set it, or return it to ACCOUNT_RATE_LIMIT_MAX
  usage <accountId> <from> <to> [day|hour] [limit]  calls charged and credits per bucket (UTC), from the ledger
environment: ADMIN_TOKEN (required), ADMIN_URL or ADMIN_HOST/ADMIN_PORT (default http://127.0.0.1:3001)`;

type AdminRequest = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; body?: unknown };

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
    default:
      return undefined;
  }
}

function usagePath(accountId: string, from: string, to: string, granularity = 'day', limit?: string): string {
  const query = new URLSearchParams({ from, to, granularity, ...(limit ? { limit } : {}) });
  return `/admin/v1/accounts/${encodeURIComponent(accountId)}/usage?${query.toString()}`;
}

async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  const request = requestFor(command, args);
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
  process.stdout.write(`${JSON.stringify(await response.json(), null, 2)}\n`);
  return response.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`admin: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
