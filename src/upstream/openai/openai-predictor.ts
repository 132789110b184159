/**
 * The Predictor backed by one OpenAI-compatible server or Azure deployment: Chat
 * Completions with a strict JSON-schema response format (DESIGN.md, "Upstream").
 *
 * Every request carries an output-token bound, and the temperature, seed and
 * reasoning effort when configured. `timeoutMs` bounds the whole call, retries and
 * their back-off included: one deadline signal, joined with the caller's signal, is
 * passed to the SDK and also raced against it (the SDK does not watch the signal while
 * it sleeps before a retry). `attemptTimeoutMs` bounds each HTTP attempt, body
 * included, so a timed-out attempt can still be retried within the whole.
 */
import type OpenAI from 'openai';
import type { CommsAnalysis, CommsRequest, PredictContext, Predicted, Predictor, Provenance, SnapPrediction, SnapSubject, UpstreamName, UpstreamSpend } from '../../domain/ports';
import { CallDeadline } from '../call-deadline';
import { abortable } from './abortable';
import { createClient, type Connection } from './client';
import { buildCommsPrompt, COMMS_PROMPT_VERSION, draftOf } from './comms-prompt';
import { COMMS_SCHEMA, COMMS_SCHEMA_NAME } from './comms-schema';
import type { JsonSchema } from './json-schema-parts';
import { mapCommsAnalysis } from './map-comms-analysis';
import { mapSnapPrediction } from './map-snap-prediction';
import { matchesSchema } from './matches-schema';
import { DEFAULT_MAX_OUTPUT_TOKENS, type OutputBounds } from '../../config/output-bounds';
import type { PromptMessages } from './prompt-messages';
import { readCompletionJson, readUsage } from './read-completion';
import type { JsonObject } from './read-json-values';
import { buildSnapPrompt, SNAP_PROMPT_VERSION } from './snap-prompt';
import { SNAP_SCHEMA, SNAP_SCHEMA_NAME } from './snap-schema';
import { withLengthBounds } from './schema-length-bounds';
import { toPredictorError } from './to-predictor-error';
import { upstreamFetch } from './upstream-fetch';

type Operation = keyof Predictor;

export interface OpenAiPredictorOptions {
  /** `openai` (default): any OpenAI-compatible server; `azure`: a classic Azure deployment. */
  kind?: 'openai' | 'azure';
  apiKey: string;
  /** openai: e.g. `https://api.openai.com/v1`; azure: the resource endpoint. */
  baseURL: string;
  /** openai: the model; azure: the deployment. */
  model: string;
  /** azure only. */
  apiVersion?: string;
  /** Which upstream this is, named in the provenance and the metrics (default `primary`). */
  upstream?: UpstreamName;
  /** Upper bound of one whole call, retries included. A positive integer. */
  timeoutMs: number;
  /** Upper bound of one HTTP attempt (default: timeoutMs shared by the attempts). */
  attemptTimeoutMs?: number;
  /** Retries after the first attempt (429, 5xx, connection errors, attempt timeouts). */
  maxRetries: number;
  maxOutputTokens?: OutputBounds;
  /** `max_completion_tokens` (default, OpenAI's current name) or `max_tokens` (Ollama). */
  maxTokensParameter?: 'max_completion_tokens' | 'max_tokens';
  temperature?: number;
  seed?: number;
  reasoningEffort?: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';
  /** Send the schemas with length limits (schema-length-bounds.ts); OpenAI's strict mode refuses them. */
  schemaLengthBounds?: boolean;
  /** Called for every HTTP attempt, retries included. */
  onAttempt?: (operation: Operation) => void;
}

interface Completion {
  operation: Operation;
  prompt: PromptMessages;
  schemaName: string;
  schema: JsonSchema;
}

interface Answer {
  json: JsonObject;
  usage: { promptTokens: number | null; completionTokens: number | null };
  matchedSchema: boolean;
}

export class OpenAiPredictor implements Predictor {
  /** One client per operation, so that each counts its own HTTP attempts. */
  private readonly clients: Record<Operation, OpenAI>;
  private readonly options: Required<Pick<OpenAiPredictorOptions, 'upstream' | 'attemptTimeoutMs' | 'maxOutputTokens' | 'maxTokensParameter'>> &
    OpenAiPredictorOptions;

  constructor(options: OpenAiPredictorOptions) {
    assertOptions(options);
    this.options = {
      upstream: 'primary',
      attemptTimeoutMs: Math.max(1, Math.floor(options.timeoutMs / (options.maxRetries + 1))),
      maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
      maxTokensParameter: 'max_completion_tokens',
      ...options,
    };
    const connection: Connection = {
      kind: options.kind ?? 'openai',
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      apiVersion: options.apiVersion,
      deployment: options.kind === 'azure' ? options.model : undefined,
    };
    const clientFor = (operation: Operation): OpenAI =>
      createClient(connection, {
        attemptTimeoutMs: this.options.attemptTimeoutMs,
        maxRetries: options.maxRetries,
        fetch: upstreamFetch({ budgetMs: options.timeoutMs, onAttempt: () => options.onAttempt?.(operation) }),
      });
    this.clients = { predictSnap: clientFor('predictSnap'), analyseComms: clientFor('analyseComms') };
  }

  async predictSnap(subject: SnapSubject, context: PredictContext): Promise<Predicted<SnapPrediction>> {
    const answer = await this.complete(
      { operation: 'predictSnap', prompt: buildSnapPrompt(subject), schemaName: SNAP_SCHEMA_NAME, schema: SNAP_SCHEMA },
      context,
    );
    return { result: mapSnapPrediction(answer.json), provenance: this.provenance(SNAP_PROMPT_VERSION, answer) };
  }

  async analyseComms(request: CommsRequest, context: PredictContext): Promise<Predicted<CommsAnalysis>> {
    const answer = await this.complete(
      { operation: 'analyseComms', prompt: buildCommsPrompt(request), schemaName: COMMS_SCHEMA_NAME, schema: COMMS_SCHEMA },
      context,
    );
    return {
      result: mapCommsAnalysis(answer.json, { hasDraft: draftOf(request) !== null }),
      provenance: this.provenance(COMMS_PROMPT_VERSION, answer),
    };
  }

  private async complete(completion: Completion, context: PredictContext): Promise<Answer> {
    const { timeoutMs, maxRetries, attemptTimeoutMs } = this.options;
    const deadline = new CallDeadline(timeoutMs, context.signal);
    const { signal } = deadline;
    // The response, once there is one: a failed call's usage is counted too (every token counted).
    let response: unknown;
    try {
      response = await abortable(
        this.clients[completion.operation].chat.completions.create(this.body(completion), { signal, timeout: attemptTimeoutMs, maxRetries }),
        signal,
      );
      const json = readCompletionJson(response);
      const usage = readUsage(response);
      this.spent(completion.operation, 'success', usage, context);
      return { json, usage, matchedSchema: matchesSchema(json, completion.schema) };
    } catch (error) {
      this.spent(completion.operation, 'failure', readUsage(response), context);
      throw toPredictorError(error, deadline);
    } finally {
      deadline.end();
    }
  }

  private spent(operation: Operation, outcome: UpstreamSpend['outcome'], usage: Answer['usage'], context: PredictContext): void {
    context.onSpend?.({ operation, upstream: this.options.upstream, model: this.options.model, outcome, ...usage });
  }

  private body(completion: Completion): OpenAI.ChatCompletionCreateParamsNonStreaming {
    const { model, maxOutputTokens, maxTokensParameter, temperature, seed, reasoningEffort } = this.options;
    return {
      model,
      messages: [
        { role: 'system', content: completion.prompt.system },
        { role: 'user', content: completion.prompt.user },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: { name: completion.schemaName, strict: true, schema: this.options.schemaLengthBounds ? withLengthBounds(completion.schema) : completion.schema },
      },
      [maxTokensParameter]: maxOutputTokens[completion.operation],
      ...(temperature !== undefined && { temperature }),
      ...(seed !== undefined && { seed }),
      ...(reasoningEffort !== undefined && { reasoning_effort: reasoningEffort }),
    };
  }

  private provenance(promptVersion: string, answer: Answer): Provenance {
    return {
      predictor: 'openai',
      model: this.options.model,
      promptVersion,
      upstream: this.options.upstream,
      ...answer.usage,
      matchedSchema: answer.matchedSchema,
    };
  }
}

/** Programming errors (config validates these first); messages never show the key. */
function assertOptions(options: OpenAiPredictorOptions): void {
  if (options.apiKey === '') throw new Error('OpenAiPredictor: apiKey is empty');
  if (options.baseURL === '') throw new Error('OpenAiPredictor: baseURL is empty');
  if (options.model === '') throw new Error('OpenAiPredictor: model is empty');
  if (options.kind === 'azure' && !options.apiVersion) throw new Error('OpenAiPredictor: apiVersion is empty');
  for (const [name, value] of [['timeoutMs', options.timeoutMs], ['attemptTimeoutMs', options.attemptTimeoutMs ?? 1]] as const) {
    if (!Number.isInteger(value) || value <= 0) throw new Error(`OpenAiPredictor: ${name} must be a positive integer`);
  }
  if (!Number.isInteger(options.maxRetries) || options.maxRetries < 0) {
    throw new Error('OpenAiPredictor: maxRetries must be a non-negative integer');
  }
}
