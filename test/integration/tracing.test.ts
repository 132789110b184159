/**
 * OpenTelemetry traces reach a real OTLP receiver (Jaeger v2, built from the Go module
 * proxy): the built service, its tracing turned on by the standard OTEL_* variables, serves a
 * 201, an upstream failure (500) and a rate-limited request (429); the spans that arrive carry
 * the HTTP and GenAI semantic conventions, the caller's trace context is joined and passed to
 * the upstream, the access log names the trace, and no personal text is in any span.
 */
import { randomBytes } from 'node:crypto';
import { FAKE_UPSTREAM_SPEED, reply, startFakeOpenAi, status, textChunks, UPSTREAM_PREDICTION, UPSTREAM_USAGE, type FakeOpenAi } from '../support/fake-openai-server';
import { promptEstimateOf } from '../support/prompt-estimate';
import { jaegerBinary, startJaeger, tagOf, type Jaeger, type JaegerSpan, type JaegerTrace } from '../support/jaeger';
import { describeNeeding } from '../support/required-tool';
import { freePort } from '../support/free-port';
import { spawnServer, type SpawnedServer } from '../support/spawned-server';
import { TEST_ADMIN_TOKEN } from '../support/test-server';
import { until } from '../support/until';

const SERVICE = `pps-tracing-${randomBytes(4).toString('hex')}`;
const binary = jaegerBinary();

/** A unique string in every personal field: none may reach a span. */
const CANARY = `canary${randomBytes(6).toString('hex')}`;
const PERSON = {
  name: `${CANARY}-name`,
  notes: `Checks every figure twice and audits before deciding ${CANARY}-notes`,
  jobType: `${CANARY}-job`,
  ageRange: `${CANARY}-age`,
};

function traceparent(traceId: string): string {
  return `00-${traceId}-${randomBytes(8).toString('hex')}-01`;
}

describeNeeding({ name: 'Jaeger', found: binary !== undefined, install: 'scripts/tracing/jaeger.sh builds it with Go' }, 'tracing', () => {
  let jaeger: Jaeger;
  let fake: FakeOpenAi;
  let server: SpawnedServer;
  let apiKey: string;
  let metricsPort: number;

  beforeAll(async () => {
    jaeger = await startJaeger(binary!);
    fake = await startFakeOpenAi();
    metricsPort = await freePort();
    server = await spawnServer({
      LOG_LEVEL: 'info',
      RATE_LIMIT_MAX: '3',
      RATE_LIMIT_REDIS_PREFIX: `pps:tracing:${randomBytes(4).toString('hex')}:`,
      OPENAI_API_KEY: 'sk-test-tracing',
      OPENAI_BASE_URL: fake.baseURL,
      OPENAI_MAX_RETRIES: '0',
      ...FAKE_UPSTREAM_SPEED,
      OPENAI_TIMEOUT_SECONDS: '60',
      OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpEndpoint,
      OTEL_SERVICE_NAME: SERVICE,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_LOGS_EXPORTER: 'none',
      OTEL_METRICS_EXPORTER: 'prometheus',
      OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
      OTEL_EXPORTER_PROMETHEUS_PORT: String(metricsPort),
    });
    const created = await fetch(`${server.adminUrl}/admin/v1/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'tracing', credits: 10 }),
    });
    apiKey = ((await created.json()) as { data: { apiKey: string } }).data.apiKey;
  }, 600_000);

  afterAll(async () => {
    server?.child.kill('SIGTERM');
    if (server) await server.exited;
    await fake?.close();
    await jaeger?.close();
  });

  const snap = (traceId: string) =>
    fetch(`${server.url}/api/v1/snap`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey, traceparent: traceparent(traceId) },
      body: JSON.stringify(PERSON),
    });

  /** The trace once every span the test waits for has arrived. */
  async function traceWith(traceId: string, complete: (spans: JaegerSpan[]) => boolean): Promise<JaegerTrace> {
    let found: JaegerTrace | undefined;
    await until(
      async () => {
        found = (await jaeger.traces(SERVICE)).find((trace) => trace.traceID === traceId);
        return found !== undefined && complete(found.spans);
      },
      { what: () => `trace ${traceId} in Jaeger (spans so far: ${found?.spans.map((span) => span.operationName).join(', ') ?? 'none'})` },
    );
    return found!;
  }

  const serverSpan = (spans: JaegerSpan[]) => spans.find((span) => tagOf(span, 'span.kind') === 'server');
  const chatSpans = (spans: JaegerSpan[]) => spans.filter((span) => tagOf(span, 'gen_ai.operation.name') === 'chat');

  test('when a snap is created, then its trace joins the caller\'s, with the HTTP server span, database spans and a GenAI span per upstream attempt', async () => {
    fake.script(reply(UPSTREAM_PREDICTION));
    const traceId = randomBytes(16).toString('hex');
    const response = await snap(traceId);
    expect(response.status).toBe(201);

    const trace = await traceWith(traceId, (spans) => serverSpan(spans) !== undefined && chatSpans(spans).length === 1);
    const http = serverSpan(trace.spans)!;
    expect(http.operationName).toBe('POST /api/v1/snap');
    expect(tagOf(http, 'http.request.method')).toBe('POST');
    expect(tagOf(http, 'http.route')).toBe('/api/v1/snap');
    expect(tagOf(http, 'http.response.status_code')).toBe(201);

    const [chat] = chatSpans(trace.spans);
    expect(chat!.operationName).toBe('chat gpt-4.1-mini');
    expect(tagOf(chat!, 'span.kind')).toBe('client');
    expect(tagOf(chat!, 'gen_ai.provider.name')).toBe('openai');
    expect(tagOf(chat!, 'gen_ai.request.model')).toBe('gpt-4.1-mini');
    expect(tagOf(chat!, 'gen_ai.response.model')).toBe('gpt-4.1-mini');
    expect(tagOf(chat!, 'gen_ai.usage.input_tokens')).toBe(UPSTREAM_USAGE.prompt_tokens);
    expect(tagOf(chat!, 'gen_ai.usage.output_tokens')).toBe(UPSTREAM_USAGE.completion_tokens);
    expect(tagOf(chat!, 'pps.usage.estimated')).toBeUndefined();
    expect(String(tagOf(chat!, 'gen_ai.response.finish_reasons'))).toContain('stop');
    expect(trace.spans.some((span) => tagOf(span, 'db.system') === 'postgresql' || tagOf(span, 'db.system.name') === 'postgresql')).toBe(true);

    // The upstream got the trace context, from a span inside the GenAI span.
    const sent = fake.requests.at(-1)!.headers.traceparent ?? '';
    expect(sent.split('-')[1]).toBe(traceId);
    const parentOfUpstreamRequest = sent.split('-')[2];
    const upstreamRequest = trace.spans.find((span) => span.spanID === parentOfUpstreamRequest);
    expect(upstreamRequest?.references.some((ref) => ref.spanID === chat!.spanID)).toBe(true);

    // The access log line names the trace.
    await until(() => server.output().includes(`"traceId":"${traceId}"`), { what: 'the access log line with the trace id' });
  });

  test('when the upstream fails, then the GenAI span records the error and the server span the 500', async () => {
    fake.script(status(500, undefined, { headers: { 'x-should-retry': 'false' } }));
    const traceId = randomBytes(16).toString('hex');
    const response = await snap(traceId);
    expect(response.status).toBe(500);

    const trace = await traceWith(traceId, (spans) => serverSpan(spans) !== undefined && chatSpans(spans).length === 1);
    expect(tagOf(serverSpan(trace.spans)!, 'http.response.status_code')).toBe(500);
    const [chat] = chatSpans(trace.spans);
    expect(tagOf(chat!, 'error.type')).toBe('500');
    expect(tagOf(chat!, 'otel.status_code')).toBe('ERROR');
    // No usage report came: the counts are the service's estimate, marked as such.
    expect(tagOf(chat!, 'pps.usage.estimated')).toBe(true);
    expect(tagOf(chat!, 'gen_ai.usage.input_tokens')).toBeGreaterThan(0);
    expect(tagOf(chat!, 'gen_ai.usage.output_tokens')).toBe(0);
  });

  test('when the answer carries no usage report, then the GenAI span carries the service\'s estimate, marked as one', async () => {
    fake.script(reply(UPSTREAM_PREDICTION, { usage: null }));
    const traceId = randomBytes(16).toString('hex');
    expect((await snap(traceId)).status).toBe(201);

    const trace = await traceWith(traceId, (spans) => serverSpan(spans) !== undefined && chatSpans(spans).length === 1);
    const [chat] = chatSpans(trace.spans);
    expect(tagOf(chat!, 'otel.status_code')).toBeUndefined();
    expect(tagOf(chat!, 'pps.usage.estimated')).toBe(true);
    expect(tagOf(chat!, 'gen_ai.usage.input_tokens')).toBe(promptEstimateOf(fake.requests.at(-1)));
    expect(tagOf(chat!, 'gen_ai.usage.output_tokens')).toBe(textChunks(JSON.stringify(UPSTREAM_PREDICTION)).length);
  });

  test('when the rate limit refuses a request, then its server span records the 429 and its route, and no upstream span exists', async () => {
    const traceId = randomBytes(16).toString('hex');
    const response = await snap(traceId); // the fourth request of a limit of 3
    expect(response.status).toBe(429);

    const trace = await traceWith(traceId, (spans) => serverSpan(spans) !== undefined);
    const http = serverSpan(trace.spans)!;
    expect(tagOf(http, 'http.response.status_code')).toBe(429);
    expect(tagOf(http, 'http.route')).toBe('/api/v1/snap');
    expect(chatSpans(trace.spans)).toHaveLength(0);
  });

  test('when a client puts text in the query string, then the server span says only that there was one', async () => {
    const traceId = randomBytes(16).toString('hex');
    const response = await fetch(`${server.url}/api/v1/snap?note=${CANARY}-query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey, traceparent: traceparent(traceId) },
      body: JSON.stringify(PERSON),
    });
    await response.arrayBuffer();

    const trace = await traceWith(traceId, (spans) => serverSpan(spans) !== undefined);
    expect(tagOf(serverSpan(trace.spans)!, 'url.query')).toBe('[redacted]');
  });

  test('when a client sends a path of 4,000 characters, then its server span keeps 512 of them', async () => {
    const traceId = randomBytes(16).toString('hex');
    const response = await fetch(`${server.url}/${'a'.repeat(4000)}`, { headers: { traceparent: traceparent(traceId) } });
    expect(response.status).toBe(404);

    const trace = await traceWith(traceId, (spans) => serverSpan(spans) !== undefined);
    expect(String(tagOf(serverSpan(trace.spans)!, 'url.path'))).toBe(`/${'a'.repeat(511)}`);
  });

  test('when the calls are traced, then the GenAI metrics count their tokens and durations', async () => {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(text).toMatch(/gen_ai_client_token_usage.*_sum\{[^}]*gen_ai_token_type="input"[^}]*\} 812/);
    expect(text).toMatch(/gen_ai_client_operation_duration_count\{[^}]*error_type="500"[^}]*\} 1/);
  });

  test('when every span of the service is read, then none holds the personal texts sent', async () => {
    const everything = await jaeger.raw(SERVICE);
    expect(everything).toContain('gen_ai.request.model');
    expect(everything).not.toContain(CANARY);
    expect(everything).not.toContain(apiKey);
  });
});
