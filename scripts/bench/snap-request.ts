/** The one request every part of the bench sends, `POST /api/v1/snap` with this body, and what its answer says of the service's own time. */
export const SNAP_PATH = '/api/v1/snap';

export const SNAP_BODY = JSON.stringify({ name: 'Ada', notes: 'Checks every figure twice and audits the spreadsheet.' });

const SERVER_TIMING = /(\w+);dur=([\d.]+)/g;

/** The service's own time (ms) from a `Server-Timing` header: total minus upstream; whether the request called its upstream. */
export function overheadOf(header: string | undefined | null): { overheadMs: number | undefined; upstream: boolean } {
  if (!header) return { overheadMs: undefined, upstream: false };
  const parts = Object.fromEntries([...header.matchAll(SERVER_TIMING)].map((m) => [m[1], Number(m[2])]));
  if (parts['total'] === undefined) return { overheadMs: undefined, upstream: false };
  return { overheadMs: parts['total'] - (parts['upstream'] ?? 0), upstream: parts['upstream'] !== undefined };
}
