/**
 * The Predictor backed by one OpenAI-compatible server or Azure deployment: Chat
 * Completions with a strict JSON-schema response format (docs/upstream.md, "Pointing at an LLM").
 *
 * Every request carries an output-token bound, `store: false` (not to Azure), and the
 * temperature, seed and reasoning effort when configured. Its budget (config/time-budget.ts, computed once at
 * start-up) gives each operation `callMs`, which bounds this upstream's whole call,
 * retries and their waits included: one deadline signal, joined with the caller's signal,
 * is passed to the SDK and also raced against it; and `attemptMs`, which bounds each HTTP
 * attempt, body included, from when it is written to its socket (upstream-agent.ts). The
 * SDK makes one attempt per request; whether another follows is retry-policy.ts's call.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type OpenAI from 'openai';
import { addUpstreamTime, type AnonymousSubject, type CommsAnalysis, type CommsRequest, type PredictContext, type Predicted, type Predictor, type Provenance, type SnapPrediction, type UpstreamName, type UpstreamSpend } from '../../domain/ports';
import { CallDeadline } from '../call-deadline';
import { unaskedAnswer, withEarnedConfidence } from './earned-confidence';
import { EMBEDDED_PROVENANCE } from '../embedded/embedded-predictor';
import { predictFromLexicon } from '../embedded/snap-prediction';
import { abortable } from './abortable';
import { attemptFailure } from './attempt-failure';
import { createClient, type Connection } from './client';
import { inGenAiSpan, type TalliedUsage } from './genai-telemetry';
import { buildCommsPrompt, COMMS_PROMPT_VERSION, draftOf } from './comms-prompt';
import { COMMS_SCHEMA, COMMS_SCHEMA_NAME } from './comms-schema';
import type { JsonSchema } from './json-schema-parts';
import { mapCommsAnalysis } from './map-comms-analysis';
import { mapSnapPrediction } from './map-snap-prediction';
import { matchesSchema } from './matches-schema';
import { DEFAULT_MAX_OUTPUT_TOKENS, type OutputBounds } from '../../config/output-bounds';
import type { UpstreamBudget } from '../../config/time-budget';
import { DEFAULT_MAX_SOCKETS } from '../../config/upstream';
import type { PromptMessages } from './prompt-messages';
import { AttemptClock } from './attempt-clock';
import { answeredUsage, estimatedPromptTokens, newTally, talliedUsage, type AttemptTally, type EstimatedUsage, type ReportedUsage } from './estimated-usage';
import { answerText, readCompletionJson, reportedUsage } from './read-completion';
import { readStream } from './stream-completion';
import type { JsonObject } from './read-json-values';
import { decideRetry } from './retry-policy';
import { RetryThrottle } from './retry-throttle';
import { buildSnapPrompt, SNAP_PROMPT_VERSION } from './snap-prompt';
import { SNAP_SCHEMA, SNAP_SCHEMA_NAME } from './snap-schema';
import { answerScale, withLengthBounds } from './schema-length-bounds';
import { toPredictorError } from './to-predictor-error';
import { UpstreamAgent } from './upstream-agent';

type Operation = keyof Predictor;
/** One value for every operation, or one per operation. */
export type PerOperation<T> = T | { readonly [operation in Operation]: T };


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
  /** This upstream's part of each route's time budget: its whole call and one attempt, in positive whole milliseconds. */
  budget: PerOperation<UpstreamBudget>;
  /** Retries after the first attempt, when retry-policy.ts finds one worth making. */
  maxRetries: number;
  /** A fallback takes over when this upstream gives up: no retry after an attempt timeout. */
  hasFallback?: boolean;
  /** The connections to this upstream (default: an agent of its own with DEFAULT_MAX_SOCKETS). */
  agent?: UpstreamAgent;
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
  /** Called when an attempt is written to its socket, with the time it waited for one. */
  onSent?: (operation: Operation, queuedMs: number) => void;
  /** Jitter of the retry back-off (default Math.random). */
  random?: () => number;
}

interface Completion {
  operation: Operation;
  prompt: PromptMessages;
  schemaName: string;
  schema: JsonSchema;
  /** The request's own texts, whose script scales the answer's length limits (schema-length-bounds.ts). */
  requestText: string;
}

interface Answer {
  json: JsonObject;
  usage: ReportedUsage | EstimatedUsage;
  matchedSchema: boolean;
}

export class OpenAiPredictor implements Predictor {
  /** One client per operation, each counting its own HTTP attempts. */
  private readonly clients: Record<Operation, OpenAI>;
  private readonly budgets: Record<Operation, UpstreamBudget>;
  private readonly agent: UpstreamAgent;
  /** This upstream's retries across every call of the process. */
  private readonly retryThrottle = new RetryThrottle();
  private readonly options: Required<Pick<OpenAiPredictorOptions, 'upstream' | 'maxOutputTokens' | 'maxTokensParameter'>> & OpenAiPredictorOptions;

  constructor(options: OpenAiPredictorOptions) {
    assertOptions(options);
    this.options = {
      upstream: 'primary',
      maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
      maxTokensParameter: 'max_completion_tokens',
      ...options,
    };
    this.budgets = { predictSnap: valueFor(options.budget, 'predictSnap'), analyseComms: valueFor(options.budget, 'analyseComms') };
    this.agent = options.agent ?? new UpstreamAgent({ maxSockets: DEFAULT_MAX_SOCKETS });
    const connection: Connection = {
      kind: options.kind ?? 'openai',
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      apiVersion: options.apiVersion,
      deployment: options.kind === 'azure' ? options.model : undefined,
    };
    this.clients = { predictSnap: createClient(connection), analyseComms: createClient(connection) };
  }

  async predictSnap(subject: AnonymousSubject, context: PredictContext): Promise<Predicted<SnapPrediction>> {
    // No evidence, no call (earned-confidence.ts): the lexicon's answer, and nothing sent.
    const evidence = predictFromLexicon(subject);
    const unasked = unaskedAnswer(subject, evidence);
    if (unasked) return { result: unasked, provenance: EMBEDDED_PROVENANCE };
    const answer = await this.complete(
      {
        operation: 'predictSnap',
        prompt: buildSnapPrompt(subject),
        schemaName: SNAP_SCHEMA_NAME,
        schema: SNAP_SCHEMA,
        requestText: [subject.notes, subject.jobType, subject.ageRange].filter((text) => text !== undefined).join('\n'),
      },
      context,
    );
    return { result: withEarnedConfidence(mapSnapPrediction(answer.json), subject, evidence), provenance: this.provenance(SNAP_PROMPT_VERSION, answer) };
  }

  async analyseComms(request: CommsRequest, context: PredictContext): Promise<Predicted<CommsAnalysis>> {
    const answer = await this.complete(
      {
        operation: 'analyseComms',
        prompt: buildCommsPrompt(request),
        schemaName: COMMS_SCHEMA_NAME,
        schema: COMMS_SCHEMA,
        requestText: [request.goal, request.draft].filter((text) => text !== undefined).join('\n'),
      },
      context,
    );
    return {
      result: mapCommsAnalysis(answer.json, { hasDraft: draftOf(request) !== null }),
      provenance: this.provenance(COMMS_PROMPT_VERSION, answer),
    };
  }

  private async complete(completion: Completion, context: PredictContext): Promise<Answer> {
    const deadline = new CallDeadline(this.budgets[completion.operation].callMs, context.signal);
    // Every attempt, tallied as it goes: a failed one's tokens are counted too (every token counted).
    const attempts: AttemptTally[] = [];
    try {
      const { response, answered } = await this.withRetries(completion, deadline, attempts);
      const json = readCompletionJson(response);
      // An answer without a whole usage report is counted by the service's estimate (estimated-usage.ts), marked as one.
      const usage = answeredUsage(answered, estimatedPromptTokens(this.messages(completion)), answerText(response));
      this.spentOn(completion, attempts.slice(0, -1), context);
      this.spent(completion.operation, 'success', usage, context);
      return { json, usage, matchedSchema: matchesSchema(json, completion.schema) };
    } catch (error) {
      if (!this.spentOn(completion, attempts, context)) {
        // Nothing was sent (every attempt waited for a socket): a call without a usage report that cost nothing.
        this.spent(completion.operation, 'failure', { promptTokens: null, completionTokens: null }, context);
      }
      throw toPredictorError(error, deadline);
    } finally {
      deadline.end();
      const upstreamMs = upstreamWindowMs(attempts);
      if (upstreamMs !== undefined) addUpstreamTime(context.timing, upstreamMs);
    }
  }

  /**
   * Tells what failed `attempts` cost, if anything: the estimate of those without a usage
   * report first, then what the others reported (an answer after them says the upstream is there).
   */
  private spentOn(completion: Completion, attempts: readonly AttemptTally[], context: PredictContext): boolean {
    const { reported, estimated } = this.usageOf(completion, attempts);
    if (estimated) this.spent(completion.operation, 'failure', estimated, context);
    if (reported) this.spent(completion.operation, 'failure', reported, context);
    return estimated !== null || reported !== null;
  }

  /** What `attempts` of this completion cost (estimated-usage.ts): its prompt is estimated only if one was sent without a report. */
  private usageOf(completion: Completion, attempts: readonly AttemptTally[]): ReturnType<typeof talliedUsage> {
    return talliedUsage(attempts, () => estimatedPromptTokens(this.messages(completion)));
  }

  /** One attempt, then more while retry-policy.ts finds them worth making: the answer, and the tally of the attempt that got it. */
  private async withRetries(completion: Completion, deadline: CallDeadline, attempts: AttemptTally[]): Promise<{ response: unknown; answered: AttemptTally }> {
    const { maxRetries, hasFallback = false, random } = this.options;
    for (;;) {
      const started = Date.now();
      const tally = newTally();
      attempts.push(tally);
      try {
        const response = await this.attempt(completion, deadline, tally);
        this.retryThrottle.answered();
        return { response, answered: tally };
      } catch (error) {
        if (deadline.signal.aborted) throw error;
        const failure = attemptFailure(error);
        this.retryThrottle.failed(failure);
        const decision = decideRetry({
          failure,
          attempts: attempts.length,
          maxRetries,
          observedMs: Date.now() - started,
          remainingMs: deadline.remainingMs(),
          hasFallback,
          random,
          throttled: !this.retryThrottle.allowsRetry,
        });
        if (!decision.retry) throw error;
        await sleep(decision.waitMs, undefined, { signal: deadline.signal });
      }
    }
  }

  /** One HTTP attempt, inside its GenAI span (genai-telemetry.ts). */
  private attempt(completion: Completion, deadline: CallDeadline, tally: AttemptTally): Promise<unknown> {
    const { operation } = completion;
    const { kind, model, baseURL, upstream, maxOutputTokens, temperature } = this.options;
    // What the span shows where the answer carries no usage: the attempt's own report (a failure after it), else the estimate, marked as one.
    const tallied = (answer?: unknown): TalliedUsage | undefined => {
      if (tally.usage) return tally.usage;
      if (answer !== undefined) return answeredUsage(tally, estimatedPromptTokens(this.messages(completion)), answerText(answer));
      return this.usageOf(completion, [tally]).estimated ?? undefined;
    };
    const telemetry = { provider: kind === 'azure' ? 'azure.ai.openai' : 'openai', model, baseURL, operation, upstream, maxTokens: maxOutputTokens[operation], temperature, tallied } as const;
    return inGenAiSpan(telemetry, () => this.send(completion, deadline, tally));
  }

  /**
   * Streamed with its usage included (stream-completion.ts), so that an attempt cut short
   * still tells what arrived; a classic Azure deployment's answer is read whole (its
   * api-version 2024-10-21 has no `stream_options`). The attempt's bound runs from when
   * it is written to its socket (attempt-clock.ts).
   */
  private async send(completion: Completion, deadline: CallDeadline, tally: AttemptTally): Promise<unknown> {
    const { operation } = completion;
    const { attemptMs } = this.budgets[operation];
    const clock = new AttemptClock(deadline.signal);
    const queuedAt = Date.now();
    const dispatcher = this.agent.forAttempt(attemptMs, () => {
      tally.sentAt = performance.now();
      clock.start(attemptMs);
      this.options.onSent?.(operation, Date.now() - queuedAt);
    });
    this.options.onAttempt?.(operation);
    // The SDK's own timer is only a backstop: the attempt's bound is the clock's, from when it is sent.
    const options = {
      signal: clock.signal,
      timeout: Math.max(1, Math.ceil(deadline.remainingMs())),
      fetchOptions: { dispatcher } as OpenAI.RequestOptions['fetchOptions'],
    };
    const chat = this.clients[operation].chat.completions;
    try {
      if (this.options.kind === 'azure') {
        const response = await abortable(chat.create(this.body(completion), options), clock.signal);
        tally.usage = reportedUsage(response);
        return response;
      }
      const streamed = chat.create({ ...this.body(completion), stream: true, stream_options: { include_usage: true } }, options).asResponse().then((response) => readStream(response, tally));
      return await abortable(streamed, clock.signal);
    } finally {
      tally.endedAt = performance.now();
      clock.end();
    }
  }

  private spent(operation: Operation, outcome: UpstreamSpend['outcome'], usage: ReportedUsage | EstimatedUsage, context: PredictContext): void {
    context.onSpend?.({ operation, upstream: this.options.upstream, model: this.options.model, outcome, ...usage });
  }

  private messages(completion: Completion): { role: 'system' | 'user'; content: string }[] {
    return [
      { role: 'system', content: completion.prompt.system },
      { role: 'user', content: completion.prompt.user },
    ];
  }

  private body(completion: Completion): OpenAI.ChatCompletionCreateParamsNonStreaming {
    const { model, maxOutputTokens, maxTokensParameter, temperature, seed, reasoningEffort } = this.options;
    return {
      model,
      messages: this.messages(completion),
      response_format: {
        type: 'json_schema',
        json_schema: { name: completion.schemaName, strict: true, schema: this.options.schemaLengthBounds ? withLengthBounds(completion.schema, answerScale(completion.requestText)) : completion.schema },
      },
      [maxTokensParameter]: maxOutputTokens[completion.operation],
      ...(temperature !== undefined && { temperature }),
      ...(seed !== undefined && { seed }),
      ...(reasoningEffort !== undefined && { reasoning_effort: reasoningEffort }),
      // Not kept for OpenAI's dashboard and evals (docs/privacy.md); Azure's older API versions refuse the field.
      ...(this.options.kind !== 'azure' && { store: false }),
    };
  }

  private provenance(promptVersion: string, { usage, matchedSchema }: Answer): Provenance {
    return {
      predictor: 'openai',
      model: this.options.model,
      promptVersion,
      upstream: this.options.upstream,
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      ...('estimated' in usage && { tokensEstimated: true }),
      matchedSchema,
    };
  }
}

/** Programming errors (config validates these first); messages never show the key. */
function assertOptions(options: OpenAiPredictorOptions): void {
  if (options.apiKey === '') throw new Error('OpenAiPredictor: apiKey is empty');
  if (options.baseURL === '') throw new Error('OpenAiPredictor: baseURL is empty');
  if (options.model === '') throw new Error('OpenAiPredictor: model is empty');
  if (options.kind === 'azure' && !options.apiVersion) throw new Error('OpenAiPredictor: apiVersion is empty');
  for (const operation of ['predictSnap', 'analyseComms'] as const) {
    for (const [name, ms] of Object.entries(valueFor(options.budget, operation))) {
      if (!Number.isInteger(ms) || ms <= 0) throw new Error(`OpenAiPredictor: budget.${name} must be a positive integer`);
    }
  }
  if (!Number.isInteger(options.maxRetries) || options.maxRetries < 0) {
    throw new Error('OpenAiPredictor: maxRetries must be a non-negative integer');
  }
}

function valueFor<T extends object>(value: PerOperation<T>, operation: Operation): T {
  return operation in value ? (value as { readonly [operation in Operation]: T })[operation] : (value as T);
}

/**
 * The upstream's time for a call's attempts (Server-Timing's `upstream`): from the first
 * written to its socket to the end of the last, the back-off between them included;
 * undefined when none was sent. The service's own work before and after is not in it.
 */
function upstreamWindowMs(attempts: readonly AttemptTally[]): number | undefined {
  const firstSentAt = attempts.find((attempt) => attempt.sentAt !== undefined)?.sentAt;
  const endedAt = attempts.flatMap((attempt) => (attempt.endedAt === undefined ? [] : [attempt.endedAt]));
  return firstSentAt === undefined || endedAt.length === 0 ? undefined : Math.max(...endedAt) - firstSentAt;
}
