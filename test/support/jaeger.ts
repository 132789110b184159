/**
 * Jaeger (v2) as a real OTLP receiver for the tracing test: built by scripts/tracing/jaeger.sh,
 * started on free loopback ports with an in-memory store, and read back through its query API
 * (`GET /api/traces`), as an operator's viewer would.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';
import { until } from './until';

const SCRIPT = join(__dirname, '../../scripts/tracing/jaeger.sh');

export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references: Array<{ refType: string; spanID: string }>;
  tags: Array<{ key: string; type: string; value: unknown }>;
}

export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
}

export interface Jaeger {
  /** OTLP over HTTP, as OTEL_EXPORTER_OTLP_ENDPOINT. */
  otlpEndpoint: string;
  /** The traces of a service stored so far. */
  traces(service: string): Promise<JaegerTrace[]>;
  /** Everything it answered for a service, as text: what a search for leaked strings reads. */
  raw(service: string): Promise<string>;
  close(): Promise<void>;
}

/** The built binary's path, or undefined when it cannot be built here (no Go). */
export function jaegerBinary(): string | undefined {
  try {
    return execFileSync(SCRIPT, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  } catch {
    return undefined;
  }
}

export async function startJaeger(binary: string): Promise<Jaeger> {
  const [otlp, query, queryGrpc] = [await freePort(), await freePort(), await freePort()];
  const dir = mkdtempSync(join(tmpdir(), 'pps-jaeger-'));
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_query:
    storage:
      traces: memstore
    http:
      endpoint: 127.0.0.1:${query}
    grpc:
      endpoint: 127.0.0.1:${queryGrpc}
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 10000
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:${otlp}
processors:
  batch:
    timeout: 100ms
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`,
  );
  const child: ChildProcess = spawn(binary, ['--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const queryUrl = `http://127.0.0.1:${query}`;
  const answers = (path: string) => fetch(`${queryUrl}${path}`).then((res) => res.ok, () => false);
  await until(async () => {
    if (child.exitCode !== null) throw new Error(`jaeger exited at start:\n${output}`);
    return answers('/api/services');
  }, { what: () => `jaeger's query API on ${queryUrl}\n${output}` });
  const raw = async (service: string) => {
    const res = await fetch(`${queryUrl}/api/traces?service=${encodeURIComponent(service)}&limit=1000&lookback=1h`);
    return res.ok ? res.text() : '{"data":[]}';
  };
  return {
    otlpEndpoint: `http://127.0.0.1:${otlp}`,
    raw,
    traces: async (service) => (JSON.parse(await raw(service)) as { data: JaegerTrace[] | null }).data ?? [],
    close: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A span's attribute, as Jaeger stores it (arrays become JSON text). */
export function tagOf(span: JaegerSpan, key: string): unknown {
  return span.tags.find((tag) => tag.key === key)?.value;
}
