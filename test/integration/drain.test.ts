/**
 * A clean drain (app/drain.ts) of the service's process, on real PostgreSQL and Redis, with the real `openai` client against a fake upstream
 * that holds its answers: every connection accepted before SIGTERM gets an HTTP answer,
 * its 201 or a 503 in the envelope with `Connection: close`, and none is reset.
 * `make integration` builds first.
 */
import { randomUUID } from 'node:crypto';
import { knex } from 'knex';
import { once } from 'node:events';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { PERSON } from '../support/factories';
import { FAKE_UPSTREAM_SPEED, heldAnswer, reply, startFakeOpenAi, UPSTREAM_PREDICTION, type FakeOpenAi } from '../support/fake-openai-server';
import { spawnServer, type SpawnedServer } from '../support/spawned-server';
import { requireEnv, TEST_ADMIN_TOKEN } from '../support/test-server';
import { until } from '../support/until';

jest.setTimeout(180_000);

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What became of one connection: its HTTP answer, or how it failed without one. */
type Outcome = Answer | { failed: string };

/** Parses one HTTP/1.1 response (the server closes the connection after it). */
function parseAnswer(raw: string): Answer | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: raw.slice(end + 4) };
}

/** A raw connection whose request is sent when the test says so; resolves with what the server did. */
interface RawConnection {
  send(): void;
  outcome: Promise<Outcome>;
}

async function openRaw(url: string, apiKey: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect({ host: hostname, port: Number(port) });
  let received = '';
  const outcome = new Promise<Outcome>((resolve) => {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', (err: NodeJS.ErrnoException) => resolve({ failed: err.code ?? err.message }));
    socket.on('close', () => resolve(parseAnswer(received) ?? { failed: `closed without an answer (${received.length} bytes)` }));
  });
  await once(socket, 'connect'); // the handshake is done: the kernel accepted it
  const body = JSON.stringify(PERSON);
  return {
    send: () =>
      socket.write(
        `POST /api/v1/snap HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nx-api-key: ${apiKey}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      ),
    outcome,
  };
}

/** A request sent now, on its own connection; resolves with its answer or its failure. */
function sendNow(url: string, apiKey: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const body = JSON.stringify(PERSON);
    const req = request(`${url}/api/v1/snap`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'x-api-key': apiKey } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, body: text }));
      res.on('error', (err: NodeJS.ErrnoException) => resolve({ failed: err.code ?? err.message }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ failed: err.code ?? err.message }));
    req.end(body);
  });
}

function logged(server: SpawnedServer, msg: string): number {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{') && (JSON.parse(line) as { msg?: string }).msg === msg).length;
}

/** 201, or 503 `Service temporarily unavailable` in the envelope with Retry-After; either way the connection closes. */
function describeOutcome(outcome: Outcome): string {
  if ('failed' in outcome) return `failed: ${outcome.failed}`;
  if (outcome.headers.connection !== 'close') return `${outcome.status} without Connection: close`;
  if (outcome.status === 201) return 'answered';
  if (outcome.status !== 503) return `status ${outcome.status}`;
  const body = JSON.parse(outcome.body) as Record<string, unknown>;
  const envelope = { success: body.success, message: body.message, error: body.error, statusCode: body.statusCode };
  const expected = { success: false, message: 'Service temporarily unavailable', error: 'Service temporarily unavailable', statusCode: 503 };
  if (JSON.stringify(envelope) !== JSON.stringify(expected)) return `503 with ${outcome.body}`;
  return outcome.headers['retry-after'] === '1' ? 'answered' : '503 without Retry-After';
}

describe('drain on SIGTERM', () => {
  let fake: FakeOpenAi;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
  });

  afterAll(async () => {
    await fake.close();
  });

  /** The built service against the fake upstream, whose answers wait for `answer()`, and an account of `credits`. */
  async function startHeldService(name: string, credits: number): Promise<{ server: SpawnedServer; apiKey: string; answer: () => void }> {
    const { behaviour, release: answer } = heldAnswer(reply(UPSTREAM_PREDICTION));
    fake.always(behaviour);
    const server = await spawnServer({
      LOG_LEVEL: 'info',
      RATE_LIMIT_REDIS_PREFIX: `test:${randomUUID()}:`,
      OPENAI_API_KEY: 'sk-test-0123456789',
      OPENAI_BASE_URL: fake.baseURL,
      ...FAKE_UPSTREAM_SPEED,
      OPENAI_TIMEOUT_SECONDS: '60',
      OPENAI_MAX_RETRIES: '0',
    });
    const created = await fetch(`${server.adminUrl}/admin/v1/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify({ name, credits }),
    });
    const { apiKey } = ((await created.json()) as { data: { apiKey: string } }).data;
    return { server, apiKey, answer };
  }

  /** SIGTERM, then the drain's own word that it has begun. */
  async function beginDrain(server: SpawnedServer): Promise<void> {
    server.child.kill('SIGTERM');
    await until(() => logged(server, 'shutting down: finishing requests in flight') === 1, 60_000, 20);
  }

  test('when the process gets SIGTERM with requests in flight and connections accepted but not yet read, then every one is answered (201, or 503 with Connection: close), none is reset, and it exits 0', async () => {
    const { server, apiKey, answer } = await startHeldService('drain', 200);
    try {

      // In flight: six calls waiting on the upstream.
      const inFlight = Array.from({ length: 6 }, () => sendNow(server.url, apiKey));
      await until(() => fake.inFlight() === 6, 60_000, 50);
      // Accepted (handshake done), nothing sent yet: 60 connections, 20 of which send their
      // request just before the signal and 40 only once the process has begun to drain.
      const idle = await Promise.all(Array.from({ length: 60 }, () => openRaw(server.url, apiKey)));
      const [early, late] = [idle.slice(0, 20), idle.slice(20)];
      for (const connection of early) connection.send();
      await beginDrain(server);
      for (const connection of late) connection.send();

      const lateOutcomes = await Promise.all(late.map((connection) => connection.outcome));
      answer();
      const outcomes = [...(await Promise.all(inFlight)), ...(await Promise.all(early.map((c) => c.outcome))), ...lateOutcomes];
      const described = outcomes.map(describeOutcome);
      expect(described.filter((d) => d !== 'answered')).toEqual([]);
      // The six in flight were paid for and finished.
      expect(outcomes.slice(0, 6).map((o) => ('status' in o ? o.status : o.failed))).toEqual([201, 201, 201, 201, 201, 201]);
      expect(await server.exited).toBe(0);
    } finally {
      answer();
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  });

  test('when a second SIGTERM and a SIGINT arrive while it drains, then the calls in flight still finish (201) and it exits 0', async () => {
    const { server, apiKey, answer } = await startHeldService('drain twice', 10);
    try {
      const inFlight = Array.from({ length: 2 }, () => sendNow(server.url, apiKey));
      await until(() => fake.inFlight() === 2, 60_000, 50);

      await beginDrain(server);
      server.child.kill('SIGTERM');
      server.child.kill('SIGINT');
      await until(() => logged(server, 'already shutting down: the requests in flight still finish') === 2, 60_000, 20);
      answer();

      const outcomes = await Promise.all(inFlight);
      expect(outcomes.map((o) => ('status' in o ? o.status : o.failed))).toEqual([201, 201]);
      expect(await server.exited).toBe(0);
    } finally {
      answer();
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  });

  test('when a client leaves its paid call during the drain, then the process settles that call (its hold released) before it exits', async () => {
    const { server, apiKey, answer } = await startHeldService('drain leave', 3);
    const db = knex({ client: 'pg', connection: requireEnv('DATABASE_URL'), pool: { min: 0, max: 1 } });
    try {
      const leaving = new AbortController();
      const call = fetch(`${server.url}/api/v1/snap`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body: JSON.stringify(PERSON), signal: leaving.signal }).catch(() => 'left');
      await until(() => fake.inFlight() === 1, 60_000, 50);
      await beginDrain(server);
      leaving.abort();
      expect(await call).toBe('left');

      expect(await server.exited).toBe(0);
      const account = await db('accounts').where({ name: 'drain leave' }).orderBy('id', 'desc').first();
      const holds = await db('credit_holds').where({ account_id: account.id }).count<{ count: string }[]>({ count: '*' });
      expect([Number(holds[0]?.count), Number(account.credits)]).toEqual([0, 3]);
    } finally {
      answer();
      await db.destroy();
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  });
});
