/**
 * Cluster mode: the built server with WEB_CONCURRENCY=2 against real PostgreSQL and
 * Redis. Each request goes on a fresh connection, so the primary hands them to the
 * workers in turn; the access log's pid says which worker answered. `make integration`
 * builds first.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { clientIp, PERSON } from '../support/factories';
import { sampleValue } from '../support/prometheus';
import { spawnServer, type SpawnedServer } from '../support/spawned-server';
import { TEST_ADMIN_TOKEN } from '../support/test-server';
import { until } from '../support/until';

jest.setTimeout(120_000);

interface Reply {
  status: number;
  body: string;
}

/** One request on a connection of its own (no keep-alive), so the cluster may pick any worker. */
function send(url: string, method: string, headers: Record<string, string> = {}, body?: unknown): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(url, { method, agent: false, headers: { connection: 'close', ...(payload ? { 'content-type': 'application/json' } : {}), ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

interface LogLine {
  pid: number;
  msg: string;
  url?: string;
  adminUrl?: string;
  workerId?: number;
  req?: { id: string };
}

function logLines(server: SpawnedServer): LogLine[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

async function waitForLog(server: SpawnedServer, matches: (line: LogLine) => boolean, count = 1, timeoutMs = 60_000): Promise<LogLine[]> {
  let found: LogLine[] = [];
  await until(() => (found = logLines(server).filter(matches)).length >= count, {
    timeoutMs,
    intervalMs: 50,
    what: () => `${count} matching log line(s) (${found.length} seen):\n${server.output()}`,
  });
  return found;
}

/** The pids that logged the access lines of these request ids. */
function pidsServing(server: SpawnedServer, requestIds: string[]): Set<number> {
  const ids = new Set(requestIds);
  return new Set(logLines(server).flatMap((line) => (line.req && ids.has(line.req.id) ? [line.pid] : [])));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

let server: SpawnedServer;
let workerPids: number[];

function admin<T>(method: string, path: string, body?: unknown): Promise<T> {
  return send(`${server.adminUrl}${path}`, method, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, body).then((reply) => {
    if (reply.status >= 300) throw new Error(`admin ${method} ${path}: ${reply.status} ${reply.body}`);
    return (JSON.parse(reply.body) as { data: T }).data;
  });
}

beforeAll(async () => {
  server = await spawnServer({
    WEB_CONCURRENCY: '2',
    LOG_LEVEL: 'info',
    NODE_ENV: 'test',
    RATE_LIMIT_MAX: '10',
    RATE_LIMIT_REDIS_PREFIX: `test:${randomUUID()}:`,
    TRUST_PROXY: 'loopback',
  });
  await waitForLog(server, (line) => line.msg === 'cluster started: every worker is serving');
  const started = logLines(server).filter((line) => line.msg === 'profile prediction service started');
  workerPids = started.map((line) => line.pid);
});

afterAll(async () => {
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
});

describe('cluster mode', () => {
  test('when started with WEB_CONCURRENCY=2, then two workers other than the primary serve one port each listener', async () => {
    const started = logLines(server).filter((line) => line.msg === 'profile prediction service started');
    expect(new Set(workerPids).size).toBe(2);
    expect(workerPids).not.toContain(server.child.pid);
    expect(new Set(started.map((line) => `${line.url} ${line.adminUrl}`))).toEqual(new Set([`${server.url} ${server.adminUrl}`]));
  });

  test('when 11 requests arrive from one client on fresh connections, then both workers answer and exactly the 11th is refused', async () => {
    const ip = clientIp();
    const ids: string[] = Array.from({ length: 11 }, () => randomUUID());
    const statuses: number[] = [];
    for (const id of ids) {
      statuses.push((await send(`${server.url}/api/v1/snap`, 'POST', { 'x-forwarded-for': ip, 'x-request-id': id }, PERSON)).status);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
    await waitForLog(server, (line) => line.req?.id === ids[10]);
    expect(pidsServing(server, ids)).toEqual(new Set(workerPids));
  });

  test('when 30 snaps race for 12 credits across both workers, then exactly 12 succeed and the balance is 0', async () => {
    const account = await admin<{ accountId: number; apiKey: string }>('POST', '/admin/v1/accounts', { name: `cluster ${randomUUID()}`, credits: 12 });
    const ids: string[] = Array.from({ length: 30 }, () => randomUUID());
    const replies = await Promise.all(
      ids.map((id) => send(`${server.url}/api/v1/snap`, 'POST', { 'x-api-key': account.apiKey, 'x-forwarded-for': clientIp(), 'x-request-id': id }, PERSON)),
    );
    const statuses = replies.map((reply) => reply.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(12);
    expect(statuses.filter((s) => s === 400)).toHaveLength(18);
    expect((await admin<{ credits: number }>('GET', `/admin/v1/accounts/${account.accountId}`)).credits).toBe(0);
    await waitForLog(server, (line) => line.req !== undefined && ids.includes(line.req.id), 30);
    expect(pidsServing(server, ids)).toEqual(new Set(workerPids));
  });

  test('when /metrics is scraped on fresh connections, then whichever worker answers sums what both counted', async () => {
    for (let scrape = 0; scrape < 2; scrape += 1) {
      const reply = await send(`${server.adminUrl}/metrics`, 'GET');
      expect(reply.status).toBe(200);
      expect(sampleValue(reply.body, 'http_requests_total', { operation: 'createSnap', status: '401' })).toBe(10);
      expect(sampleValue(reply.body, 'http_requests_total', { operation: 'createSnap', status: '429' })).toBe(1);
      expect(sampleValue(reply.body, 'rate_limited_requests_total', { policy: 'ip' })).toBe(1);
      expect(sampleValue(reply.body, 'http_requests_total', { operation: 'createSnap', status: '201' })).toBe(12);
      expect(sampleValue(reply.body, 'credits_charged_total', { operation: 'createSnap' })).toBe(12);
    }
    const probe = await send(`${server.adminUrl}/readyz`, 'GET');
    expect(probe.status).toBe(200);
  });

  test('when a worker dies, then the primary starts another and the service keeps answering', async () => {
    const [victim, survivor] = workerPids as [number, number];
    process.kill(victim, 'SIGKILL');
    await waitForLog(server, (line) => line.msg === 'worker died unexpectedly: starting another');
    const [replacement] = await waitForLog(server, (line) => line.msg === 'profile prediction service started' && !workerPids.includes(line.pid));
    workerPids = [survivor, (replacement as LogLine).pid];
    const replies = await Promise.all(Array.from({ length: 4 }, () => send(`${server.adminUrl}/healthz`, 'GET')));
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200]);
  });

  test('when the primary gets SIGTERM, then the workers drain and exit, and the primary exits 0', async () => {
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(workerPids.filter(isAlive)).toEqual([]);
  });
});
