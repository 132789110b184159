/**
 * The packaged real model (docs/local-llm.md): llama.cpp's server with SmolLM2-135M
 * (scripts/llm/serve.py, from .venv), the service pointed at it with the settings of a
 * local CPU server, and a few paid calls one after another. What applies of the targets
 * on a model that answers in seconds to minutes: the service's own time per call
 * (`Server-Timing`), its CPU and PostgreSQL's statements per call.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createAccount } from './accounts';
import { freePort } from '../../test/support/free-port';
import { logTail, sleep, startChild } from './child-process';
import { openCpuWindow } from './cpu-window';
import type { Figure } from './figures';
import type { ScratchDatabase } from './scratch-database';
import { backingPids, startService, type BenchPaths } from './servers';
import { overheadOf, SNAP_BODY, SNAP_PATH } from './snap-request';

export interface RealModelCall {
  status: number;
  latencyMs: number;
  overheadMs: Figure;
}

export interface RealModelResults {
  /** Why the part did not run, when it did not. */
  skipped?: string;
  model: string;
  calls: RealModelCall[];
  serverCpuMs: Figure;
  postgresCpuMs: Figure;
  statements: Figure;
}

const START_MS = 180_000;
const CALL_TIMEOUT_MS = 330_000;

export async function measureRealModel(
  paths: BenchPaths,
  benchRoot: string,
  calls: number,
  backing: Record<string, string>,
  database: ScratchDatabase,
  log: (line: string) => void,
): Promise<RealModelResults> {
  const python = join(benchRoot, '.venv/bin/python');
  const empty = { model: '', calls: [], serverCpuMs: undefined, postgresCpuMs: undefined, statements: undefined };
  if (calls === 0) return { ...empty, skipped: 'not run in quick mode or with --no-real-model' };
  if (!existsSync(python)) return { ...empty, skipped: `${python} is missing (scripts/ensure-python-tools.sh installs it)` };
  const port = await freePort();
  const llama = startChild({
    name: 'llama.cpp server',
    command: python,
    args: [join(benchRoot, 'scripts/llm/serve.py'), '--port', String(port)],
    env: {},
    logFile: join(paths.workDir, 'llama-server.log'),
    cwd: benchRoot,
  });
  try {
    const baseURL = `http://127.0.0.1:${port}`;
    log('real model: starting llama.cpp with SmolLM2-135M');
    const model = await modelOf(baseURL, () => logTail(llama));
    const service = await startService(paths, {
      name: 'service, real model',
      env: {
        ...backing,
        OPENAI_API_KEY: 'local',
        OPENAI_BASE_URL: `${baseURL}/v1`,
        OPENAI_MODEL: model,
        OPENAI_TIMEOUT_SECONDS: '300',
        OPENAI_ATTEMPT_TIMEOUT_SECONDS: '300',
        OPENAI_MAX_RETRIES: '0',
        OPENAI_MAX_OUTPUT_TOKENS_SNAP: '400',
        OPENAI_MAX_OUTPUT_TOKENS_COMMS: '3000',
        OPENAI_SCHEMA_LENGTH_BOUNDS: 'true',
      },
    });
    try {
      const apiKey = await createAccount(service, 'bench real model', 1000);
      const pids = { server: service.child.pid, ...backingPids(backing) };
      const windows = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, openCpuWindow(pid)]));
      const before = await database.statements();
      const answers: RealModelCall[] = [];
      for (let n = 1; n <= calls; n++) {
        log(`real model: paid call ${n}/${calls}`);
        answers.push(await paidCall(`${service.url}${SNAP_PATH}`, apiKey));
      }
      const after = await database.statements();
      const cpuMs = (name: string) => (windows[name] ? windows[name].close() * 1000 : undefined);
      return {
        model,
        calls: answers,
        serverCpuMs: cpuMs('server'),
        postgresCpuMs: cpuMs('postgres'),
        statements: before === undefined || after === undefined ? undefined : after - before,
      };
    } finally {
      await service.stop();
    }
  } finally {
    await llama.stop();
  }
}

async function modelOf(baseURL: string, tail: () => string): Promise<string> {
  const deadline = performance.now() + START_MS;
  while (performance.now() < deadline) {
    const health = await fetch(`${baseURL}/health`).catch(() => undefined);
    if (health?.status === 200) {
      const models = (await (await fetch(`${baseURL}/v1/models`)).json()) as { data: { id: string }[] };
      return models.data[0]?.id ?? '';
    }
    await sleep(500);
  }
  throw new Error(`llama.cpp's server did not answer within ${START_MS / 1000} s:\n${tail()}`);
}

async function paidCall(url: string, apiKey: string): Promise<RealModelCall> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: SNAP_BODY,
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  await response.arrayBuffer();
  const { overheadMs } = overheadOf(response.headers.get('server-timing'));
  return { status: response.status, latencyMs: performance.now() - started, overheadMs };
}
