/**
 * Each upstream attempt in OpenTelemetry's GenAI semantic conventions
 * (@see https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/): a client span
 * `chat {model}` with the request's model and bound, the response's model, token usage and
 * finish reasons (where no usage report came, the service's estimate, marked
 * `pps.usage.estimated=true`); and the metrics `gen_ai.client.token.usage` and
 * `gen_ai.client.operation.duration`. Names, counts and reasons only: never a prompt, a
 * completion or anything about the person described. With tracing off, the API is a no-op.
 */
import { metrics, SpanKind, SpanStatusCode, trace, type Attributes, type Histogram, type Span } from '@opentelemetry/api';
import type { UpstreamName } from '../../domain/ports';

const SCOPE = 'profile-prediction-service';

export interface GenAiRequest {
  provider: 'openai' | 'azure.ai.openai';
  model: string;
  baseURL: string;
  /** Which route's call this is (`predictSnap`, `analyseComms`). */
  operation: string;
  upstream: UpstreamName;
  maxTokens: number;
  temperature: number | undefined;
  /**
   * What the attempt cost by the service's own tally, for when its answer reports no usage
   * (`answer`) or it failed (undefined): the usage it reported before it failed, or the
   * estimate (estimated-usage.ts), set with `pps.usage.estimated=true`; undefined when it
   * was never sent.
   */
  tallied?: (answer?: unknown) => TalliedUsage | undefined;
}

/** A usage report's counts (a count missing: null), or the service's estimate of them. */
export type TalliedUsage = { promptTokens: number | null; completionTokens: number | null; estimated?: true };

/** What a Chat Completions response says of itself; anything missing stays unset. */
interface ChatCompletionShape {
  model?: unknown;
  choices?: Array<{ finish_reason?: unknown }>;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null;
}

interface Instruments {
  tokenUsage: Histogram;
  operationDuration: Histogram;
}
let instruments: Instruments | undefined;

/** Made on first use, after the SDK (if any) registered its meter provider: a meter taken earlier stays a no-op. */
function instrumentsNow(): Instruments {
  instruments ??= (() => {
    const meter = metrics.getMeter(SCOPE);
    return {
      tokenUsage: meter.createHistogram('gen_ai.client.token.usage', {
        unit: '{token}',
        description: 'Tokens used by one upstream attempt, by gen_ai.token.type',
        advice: { explicitBucketBoundaries: [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576] },
      }),
      operationDuration: meter.createHistogram('gen_ai.client.operation.duration', {
        unit: 's',
        description: 'Duration of one upstream attempt',
        advice: { explicitBucketBoundaries: [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92] },
      }),
    };
  })();
  return instruments;
}

/** Runs one attempt inside its GenAI client span, and records its duration and tokens. */
export async function inGenAiSpan<T>(request: GenAiRequest, attempt: () => Promise<T>): Promise<T> {
  const common = commonAttributes(request);
  const started = performance.now();
  return trace.getTracer(SCOPE).startActiveSpan(
    `chat ${request.model}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        ...common,
        'gen_ai.request.max_tokens': request.maxTokens,
        ...(request.temperature !== undefined && { 'gen_ai.request.temperature': request.temperature }),
        'pps.operation': request.operation,
        'pps.upstream': request.upstream,
      },
    },
    async (span) => {
      const { operationDuration, tokenUsage } = instrumentsNow();
      try {
        const response = await attempt();
        const answer = response as ChatCompletionShape;
        const responseModel = typeof answer.model === 'string' ? answer.model : undefined;
        const finishReasons = (answer.choices ?? []).flatMap((choice) => (typeof choice.finish_reason === 'string' ? [choice.finish_reason] : []));
        const inputTokens = countOf(answer.usage?.prompt_tokens);
        const outputTokens = countOf(answer.usage?.completion_tokens);
        span.setAttributes({
          ...(responseModel && { 'gen_ai.response.model': responseModel }),
          'gen_ai.response.finish_reasons': finishReasons,
          ...(inputTokens !== undefined && { 'gen_ai.usage.input_tokens': inputTokens }),
          ...(outputTokens !== undefined && { 'gen_ai.usage.output_tokens': outputTokens }),
        });
        if (inputTokens === undefined && outputTokens === undefined) setUsage(span, request.tallied?.(response));
        const measured = { ...common, ...(responseModel && { 'gen_ai.response.model': responseModel }) };
        operationDuration.record((performance.now() - started) / 1000, measured);
        if (inputTokens !== undefined) tokenUsage.record(inputTokens, { ...measured, 'gen_ai.token.type': 'input' });
        if (outputTokens !== undefined) tokenUsage.record(outputTokens, { ...measured, 'gen_ai.token.type': 'output' });
        return response;
      } catch (error) {
        const errorType = errorTypeOf(error);
        span.setAttribute('error.type', errorType);
        setUsage(span, request.tallied?.());
        span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
        operationDuration.record((performance.now() - started) / 1000, { ...common, 'error.type': errorType });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** Token counts the answer did not carry, from the service's tally; an estimate marked as one. Not recorded in `gen_ai.client.token.usage`, which holds reports only. */
function setUsage(span: Span, usage: TalliedUsage | undefined): void {
  if (!usage) return;
  span.setAttributes({
    ...(usage.promptTokens !== null && { 'gen_ai.usage.input_tokens': usage.promptTokens }),
    ...(usage.completionTokens !== null && { 'gen_ai.usage.output_tokens': usage.completionTokens }),
    ...(usage.estimated && { 'pps.usage.estimated': true }),
  });
}

function commonAttributes(request: GenAiRequest): Attributes {
  const server = new URL(request.baseURL);
  return {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': request.provider,
    'gen_ai.request.model': request.model,
    'server.address': server.hostname,
    ...(server.port && { 'server.port': Number(server.port) }),
  };
}

function countOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** The HTTP status of an upstream's answer, or the error's class (a timeout, an abort, a refused connection): never its message. */
function errorTypeOf(error: unknown): string {
  if (error && typeof error === 'object') {
    if ('status' in error && typeof error.status === 'number') return String(error.status);
    if ('name' in error && typeof error.name === 'string' && error.name !== 'Error') return error.name;
  }
  return '_OTHER';
}
