/**
 * The built image (make image) run as an operator runs it: podman, runc, read-only root
 * filesystem, no capabilities; against the test PostgreSQL and Redis and a fake upstream
 * on 127.0.0.1 (host network), then in embedded mode on a volume of its own.
 */
import { freePort } from '../support/free-port';
import { PERSON } from '../support/factories';
import { FAKE_UPSTREAM_SPEED, heldUntil, reply, startFakeOpenAi, UPSTREAM_ANALYSIS, UPSTREAM_PREDICTION, type FakeOpenAi } from '../support/fake-openai-server';
import { bodyOf } from '../support/json';
import { exitOf, imageUnderTest, logsOf, podman, podmanOk, removeAll, runContainer, uniqueName } from '../support/podman';
import { TEST_ADMIN_TOKEN, requireEnv } from '../support/test-server';
import { until } from '../support/until';

/** A container's first start on a busy 2-core machine, and podman's own overhead, can take long. */
const START_BOUND_MS = 120_000;
const SHUTDOWN_TIMEOUT_SECONDS = 150;
const IMAGE_UID = '10001';

const image = imageUnderTest();
const containers: string[] = [];
const volumes: string[] = [];
let fake: FakeOpenAi;

beforeAll(async () => {
  fake = await startFakeOpenAi();
});

afterAll(async () => {
  await removeAll(containers, volumes);
  await fake.close();
});

interface Started {
  name: string;
  url: string;
  adminUrl: string;
}

/** Starts a container on free host ports and waits until /readyz answers 200 (without a token). */
async function start(env: Record<string, string>, volume?: string): Promise<Started> {
  const [port, adminPort] = [await freePort(), await freePort()];
  const name = uniqueName('pps-smoke');
  containers.push(name);
  await runContainer(image, {
    name,
    env: { HOST: '127.0.0.1', PORT: String(port), ADMIN_HOST: '127.0.0.1', ADMIN_PORT: String(adminPort), ADMIN_TOKEN: TEST_ADMIN_TOKEN, LOG_LEVEL: 'info', ...env },
    volumes: volume ? [`${volume}:/data`] : [],
  });
  const started = { name, url: `http://127.0.0.1:${port}`, adminUrl: `http://127.0.0.1:${adminPort}` };
  await until(async () => {
    const running = (await podmanOk(['inspect', '--format', '{{.State.Running}}', name])).trim();
    if (running !== 'true') throw new Error(`container ${name} stopped during startup:\n${await logsOf(name)}`);
    const ready = await fetch(`${started.adminUrl}/readyz`).then((r) => r.status, () => 0);
    return ready === 200;
  }, START_BOUND_MS);
  return started;
}

async function admin(started: Started, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${started.adminUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

function post(started: Started, path: string, apiKey: string, body: unknown): Promise<Response> {
  return fetch(`${started.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body: JSON.stringify(body) });
}

async function createAccount(started: Started, credits: number): Promise<{ accountId: number; apiKey: string }> {
  const response = await admin(started, 'POST', '/admin/v1/accounts', { name: 'smoke test account', credits });
  expect(response.status).toBe(201);
  return (await bodyOf(response)).data;
}

async function creditsOf(started: Started, accountId: number): Promise<number> {
  const response = await admin(started, 'GET', `/admin/v1/accounts/${accountId}`);
  expect(response.status).toBe(200);
  return (await bodyOf(response)).data.credits;
}

describe('the image, on PostgreSQL and Redis with an OpenAI-compatible upstream', () => {
  let started: Started;

  beforeAll(async () => {
    started = await start({
      DATABASE_URL: requireEnv('DATABASE_URL'),
      REDIS_URL: requireEnv('REDIS_URL'),
      OPENAI_API_KEY: 'sk-smoke-test',
      OPENAI_BASE_URL: fake.baseURL,
      // One attempt of 120 s: the held call outlives a slow `podman stop` on a busy machine.
      ...FAKE_UPSTREAM_SPEED,
      OPENAI_TIMEOUT_SECONDS: '120',
      OPENAI_MAX_RETRIES: '0',
      SHUTDOWN_TIMEOUT_SECONDS: String(SHUTDOWN_TIMEOUT_SECONDS),
    });
  }, START_BOUND_MS + 30_000);

  it('when ready, then /readyz reports PostgreSQL and Redis ok, with no token', async () => {
    const response = await fetch(`${started.adminUrl}/readyz`);
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({ status: 'ok', checks: { postgresql: 'ok', redis: 'ok', upstream: 'ok' } });
  });

  it('when an account is created through the admin API, then a snap and a comms analysis are 201', async () => {
    const account = await createAccount(started, 5);
    fake.script(reply(UPSTREAM_PREDICTION), reply(UPSTREAM_ANALYSIS));
    const snap = await post(started, '/api/v1/snap', account.apiKey, PERSON);
    expect(snap.status).toBe(201);
    const { snapId } = (await bodyOf(snap)).data;
    const comms = await post(started, '/api/v1/snap/comms', account.apiKey, { snapId, channel: 'email' });
    expect(comms.status).toBe(201);
    expect(await creditsOf(started, account.accountId)).toBe(3);
  });

  it('when running, then every process runs as the non-root uid and the root filesystem is read-only', async () => {
    const uids = await podmanOk(['exec', started.name, 'sh', '-c', 'grep -h "^Uid:" /proc/[0-9]*/status | sort -u']);
    expect(uids.trim().split('\n')).toEqual([`Uid:\t${IMAGE_UID}\t${IMAGE_UID}\t${IMAGE_UID}\t${IMAGE_UID}`]);
    const write = await podman(['exec', started.name, 'sh', '-c', 'touch /app/written && echo written']);
    expect(write.code).not.toBe(0);
    expect(write.stderr).toContain('Read-only file system');
    expect((await podmanOk(['exec', started.name, 'sh', '-c', 'touch /tmp/written && echo written'])).trim()).toBe('written');
  });

  it('when stopped (SIGTERM) during a slow upstream call, then the call finishes 201 and the container exits 0 within the shutdown bound', async () => {
    const account = await createAccount(started, 1);
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    fake.script(heldUntil(released, reply(UPSTREAM_PREDICTION)));
    const before = fake.requests.length;
    const snap = post(started, '/api/v1/snap', account.apiKey, PERSON);
    await until(() => fake.requests.length > before, 60_000);
    // podman stop sends the image's STOPSIGNAL (SIGTERM) and kills (exit 137) once --time runs out.
    const stopped = podman(['stop', '--time', String(SHUTDOWN_TIMEOUT_SECONDS), started.name]);
    await until(async () => (await logsOf(started.name)).includes('shutting down: finishing requests in flight'), 60_000);
    release();
    const response = await snap;
    expect(response.status).toBe(201);
    expect((await stopped).code).toBe(0);
    expect(await exitOf(started.name)).toEqual({ exitCode: 0, oomKilled: false });
  }, SHUTDOWN_TIMEOUT_SECONDS * 1000 + 120_000);
});

describe('the image in embedded mode (no DATABASE_URL), on a fresh volume', () => {
  it('when the container is replaced, then the new one keeps the accounts, credits and keys of the first', async () => {
    const volume = uniqueName('pps-smoke-data');
    volumes.push(volume);
    await podmanOk(['volume', 'create', volume]);

    const first = await start({}, volume);
    const account = await createAccount(first, 5);
    expect((await post(first, '/api/v1/snap', account.apiKey, PERSON)).status).toBe(201);
    expect((await podman(['stop', '--time', '60', first.name])).code).toBe(0);
    expect(await exitOf(first.name)).toEqual({ exitCode: 0, oomKilled: false });
    await podmanOk(['rm', first.name]);

    const second = await start({}, volume);
    expect(await creditsOf(second, account.accountId)).toBe(4);
    expect((await post(second, '/api/v1/snap', account.apiKey, PERSON)).status).toBe(201);
    expect(await creditsOf(second, account.accountId)).toBe(3);
  }, 2 * START_BOUND_MS + 120_000);
});
