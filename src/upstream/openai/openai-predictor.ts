/**
 * The Predictor backed by an OpenAI-compatible server: Chat Completions
 * (`POST {baseURL}/chat/completions`) with a strict JSON-schema response format
 * (DESIGN.md, "Upstream").
 *
 * `timeoutMs` bounds the whole call, retries and their back-off included: one deadline
 * signal, joined with the caller's signal, is passed to the SDK and also raced against
 * it (the SDK does not watch the signal while it sleeps before a retry); a Retry-After
 * longer than timeoutMs is not waited for at all.
 */
import OpenAI from 'openai';
import type {
  CommsAnalysis,
  CommsRequest,
  PredictContext,
  Predicted,
  Predictor,
  Provenance,
  SnapPrediction,
  SnapSubject,
} from '../predictor';
import { abortable } from './abortable';
import { giveUpOnLongRetryAfter } from './give-up-on-long-retry-after';
import { buildCommsPrompt, COMMS_PROMPT_VERSION, draftOf } from './comms-prompt';
import { COMMS_SCHEMA, COMMS_SCHEMA_NAME } from './comms-schema';
import type { JsonSchema } from './json-schema-parts';
import { mapCommsAnalysis } from './map-comms-analysis';
import { mapSnapPrediction } from './map-snap-prediction';
import type { PromptMessages } from './prompt-messages';
import { readCompletionJson } from './read-completion';
import type { JsonObject } from './read-json-values';
import { buildSnapPrompt, SNAP_PROMPT_VERSION } from './snap-prompt';
import { SNAP_SCHEMA, SNAP_SCHEMA_NAME } from './snap-schema';
import { toPredictorError } from './to-predictor-error';

export interface OpenAiPredictorOptions {
  apiKey: string;
  /** e.g. `https://api.openai.com/v1`; requests go to `{baseURL}/chat/completions`. */
  baseURL: string;
  model: string;
  /** Upper bound of one whole call, retries included. A positive integer. */
  timeoutMs: number;
  /** Retries after the first attempt (429, 5xx, connection errors). */
  maxRetries: number;
}

interface Completion {
  prompt: PromptMessages;
  schemaName: string;
  schema: JsonSchema;
}

export class OpenAiPredictor implements Predictor {
  private readonly client: OpenAI;
  private readonly model: string;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;

  constructor(options: OpenAiPredictorOptions) {
    assertOptions(options);
    this.model = options.model;
    this.timeoutMs = options.timeoutMs;
    this.maxRetries = options.maxRetries;
    this.client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      timeout: options.timeoutMs,
      maxRetries: options.maxRetries,
      fetch: giveUpOnLongRetryAfter(options.timeoutMs),
      // Plain values only: nothing read from the environment behind the config's back,
      // and no debug log of request bodies (they hold the notes).
      organization: null,
      project: null,
      logLevel: 'warn',
    });
  }

  async predictSnap(
    subject: SnapSubject,
    context: PredictContext,
  ): Promise<Predicted<SnapPrediction>> {
    const json = await this.complete(
      { prompt: buildSnapPrompt(subject), schemaName: SNAP_SCHEMA_NAME, schema: SNAP_SCHEMA },
      context,
    );
    return { result: mapSnapPrediction(json), provenance: this.provenance(SNAP_PROMPT_VERSION) };
  }

  async analyseComms(
    request: CommsRequest,
    context: PredictContext,
  ): Promise<Predicted<CommsAnalysis>> {
    const json = await this.complete(
      { prompt: buildCommsPrompt(request), schemaName: COMMS_SCHEMA_NAME, schema: COMMS_SCHEMA },
      context,
    );
    return {
      result: mapCommsAnalysis(json, { hasDraft: draftOf(request) !== null }),
      provenance: this.provenance(COMMS_PROMPT_VERSION),
    };
  }

  private async complete(completion: Completion, context: PredictContext): Promise<JsonObject> {
    const deadline = AbortSignal.timeout(this.timeoutMs);
    const signal = context.signal ? AbortSignal.any([deadline, context.signal]) : deadline;
    try {
      const response = await abortable(
        this.client.chat.completions.create(
          {
            model: this.model,
            messages: [
              { role: 'system', content: completion.prompt.system },
              { role: 'user', content: completion.prompt.user },
            ],
            response_format: {
              type: 'json_schema',
              json_schema: { name: completion.schemaName, strict: true, schema: completion.schema },
            },
          },
          { signal, timeout: this.timeoutMs, maxRetries: this.maxRetries },
        ),
        signal,
      );
      return readCompletionJson(response);
    } catch (error) {
      throw toPredictorError(error, {
        deadline,
        caller: context.signal,
        timeoutMs: this.timeoutMs,
      });
    }
  }

  private provenance(promptVersion: string): Provenance {
    return { predictor: 'openai', model: this.model, promptVersion };
  }
}

/** Programming errors (config validates these first); messages never show the key. */
function assertOptions(options: OpenAiPredictorOptions): void {
  if (options.apiKey === '') throw new Error('OpenAiPredictor: apiKey is empty');
  if (options.baseURL === '') throw new Error('OpenAiPredictor: baseURL is empty');
  if (options.model === '') throw new Error('OpenAiPredictor: model is empty');
  if (!Number.isInteger(options.timeoutMs) || options.timeoutMs <= 0) {
    throw new Error('OpenAiPredictor: timeoutMs must be a positive integer');
  }
  if (!Number.isInteger(options.maxRetries) || options.maxRetries < 0) {
    throw new Error('OpenAiPredictor: maxRetries must be a non-negative integer');
  }
}
