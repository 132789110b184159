/**
 * The upstream part of the configuration: which LLM servers answer, and how each call
 * is bounded (docs/operations.md, "Configuration"; docs/upstream.md, "Pointing at an LLM"). A primary is either an
 * OpenAI-compatible server (`OPENAI_API_KEY`) or a classic Azure OpenAI deployment
 * (`AZURE_OPENAI_*`); an optional fallback is either `OPENAI_FALLBACK_*` or, beside an
 * OpenAI-compatible primary, the Azure deployment. Any mix that could mean two things
 * is refused, naming the variables.
 */
import { ConfigError } from './config-error';
import type { Env, EnvReader } from './env-reader';
import { DEFAULT_MAX_OUTPUT_TOKENS, type OutputBounds } from './output-bounds';

export interface UpstreamEndpoint {
  /** `openai`: Chat Completions at `{baseUrl}/chat/completions`; `azure`: a classic deployment. */
  kind: 'openai' | 'azure';
  apiKey: string;
  /** openai: the base URL; azure: the resource endpoint (`https://<resource>.openai.azure.com`). */
  baseUrl: string;
  /** openai: the model; azure: the deployment name. */
  model: string;
  /** azure only: the `api-version` query parameter. */
  apiVersion?: string;
  /** The output bound's name in this upstream's requests: a server that reads only the other name generates without a bound. */
  maxTokensParameter: MaxTokensParameter;
}

/** An endpoint as read, before the bound's name it gets as primary or as fallback. */
type ReadEndpoint = Omit<UpstreamEndpoint, 'maxTokensParameter'>;

export const MAX_TOKENS_PARAMETERS = ['max_completion_tokens', 'max_tokens'] as const;
export type MaxTokensParameter = (typeof MAX_TOKENS_PARAMETERS)[number];
export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

export interface OpenAiConfig {
  primary: UpstreamEndpoint;
  fallback: UpstreamEndpoint | undefined;
  maxRetries: number;
  /** Per operation: OPENAI_MAX_OUTPUT_TOKENS_SNAP / _COMMS, else OPENAI_MAX_OUTPUT_TOKENS for both, else the defaults. */
  maxOutputTokens: OutputBounds;
  /** Unset: the parameter is not sent (reasoning models refuse `temperature`). */
  temperature: number | undefined;
  seed: number | undefined;
  reasoningEffort: ReasoningEffort | undefined;
  /** OPENAI_SCHEMA_LENGTH_BOUNDS: length limits in the schemas sent (llama.cpp, vLLM); never for OpenAI's strict mode. */
  schemaLengthBounds: boolean;
  /** Sockets to each upstream at most; calls beyond them wait for one (counted in /metrics). */
  maxSockets: number;
  /** Consecutive primary failures that open the circuit breaker (only with a fallback). */
  breakerFailures: number;
  breakerCooldownSeconds: number;
}

/** Sockets per upstream unless OPENAI_MAX_SOCKETS says otherwise (docs/upstream.md, "Transport"). */
export const DEFAULT_MAX_SOCKETS = 256;

const AZURE = ['AZURE_OPENAI_ENDPOINT', 'AZURE_OPENAI_API_KEY', 'AZURE_OPENAI_DEPLOYMENT', 'AZURE_OPENAI_API_VERSION'] as const;
const FALLBACK = ['OPENAI_FALLBACK_BASE_URL', 'OPENAI_FALLBACK_API_KEY', 'OPENAI_FALLBACK_MODEL'] as const;
const OPENAI_ONLY = ['OPENAI_BASE_URL', 'OPENAI_MODEL'] as const;

export function readOpenAiConfig(read: EnvReader, env: Env): OpenAiConfig | undefined {
  refuseSdkEnvironment(env);
  const openAi = readOpenAiPrimary(read);
  const azure = readAzure(read);
  const setNames = (names: readonly string[]): string[] => names.filter((name) => read.optionalString(name) !== undefined);

  if (!openAi && !azure) {
    const stray = [...setNames(OPENAI_ONLY), ...setNames(FALLBACK)];
    if (stray.length > 0) throw new ConfigError(stray.join(', '), 'set without OPENAI_API_KEY or AZURE_OPENAI_ENDPOINT: there is no primary upstream to go with them');
    return undefined;
  }
  const fallback = readFallback(read, openAi?.model);
  if (!openAi && azure && setNames(OPENAI_ONLY).length > 0) {
    throw new ConfigError(setNames(OPENAI_ONLY).join(', '), 'set beside AZURE_OPENAI_ENDPOINT without OPENAI_API_KEY: ambiguous; for Azure\'s v1 API set OPENAI_API_KEY and OPENAI_BASE_URL only, for a classic deployment AZURE_OPENAI_* only');
  }
  if (openAi && azure && fallback) {
    throw new ConfigError('OPENAI_FALLBACK_BASE_URL', 'and AZURE_OPENAI_ENDPOINT both name a fallback beside OPENAI_API_KEY: ambiguous; set only one of them');
  }
  const primary = openAi ?? azure;
  if (!primary) return undefined;
  const second = openAi ? (fallback ?? azure) : fallback;
  const parameter = read.oneOf('OPENAI_MAX_TOKENS_PARAMETER', MAX_TOKENS_PARAMETERS, 'max_completion_tokens') as MaxTokensParameter;
  if (!second && read.optionalString('OPENAI_FALLBACK_MAX_TOKENS_PARAMETER') !== undefined) {
    throw new ConfigError('OPENAI_FALLBACK_MAX_TOKENS_PARAMETER', 'set without a fallback (OPENAI_FALLBACK_BASE_URL, or AZURE_OPENAI_ENDPOINT beside OPENAI_API_KEY)');
  }
  // The fallback is often another kind of server (Ollama reads only max_tokens, OpenAI's reasoning models only max_completion_tokens).
  const fallbackParameter = read.oneOf('OPENAI_FALLBACK_MAX_TOKENS_PARAMETER', MAX_TOKENS_PARAMETERS, parameter) as MaxTokensParameter;
  return {
    primary: { ...primary, maxTokensParameter: parameter },
    fallback: second && { ...second, maxTokensParameter: fallbackParameter },
    ...readBounds(read, env),
  };
}

/**
 * The SDK reads OPENAI_CUSTOM_HEADERS from the environment on its own and would send
 * those headers to every upstream, the fallback included: not a setting of this service.
 */
function refuseSdkEnvironment(env: Env): void {
  if (env['OPENAI_CUSTOM_HEADERS'] !== undefined && env['OPENAI_CUSTOM_HEADERS'] !== '') {
    throw new ConfigError('OPENAI_CUSTOM_HEADERS', 'is not supported: the openai SDK would send these headers to every upstream, the fallback included; unset it');
  }
}

function readOpenAiPrimary(read: EnvReader): ReadEndpoint | undefined {
  const apiKey = read.optionalString('OPENAI_API_KEY');
  if (!apiKey) return undefined;
  return {
    kind: 'openai',
    apiKey,
    baseUrl: secureUrl(read, 'OPENAI_BASE_URL') ?? 'https://api.openai.com/v1',
    model: read.string('OPENAI_MODEL', 'gpt-4.1-mini'),
  };
}

function readAzure(read: EnvReader): ReadEndpoint | undefined {
  const missing = AZURE.filter((name) => read.optionalString(name) === undefined);
  if (missing.length === AZURE.length) return undefined;
  if (missing.length > 0) throw new ConfigError(missing.join(', '), `must be set too: a classic Azure OpenAI deployment needs all of ${AZURE.join(', ')}`);
  return {
    kind: 'azure',
    baseUrl: secureUrl(read, 'AZURE_OPENAI_ENDPOINT') ?? '',
    apiKey: read.string('AZURE_OPENAI_API_KEY', ''),
    model: read.string('AZURE_OPENAI_DEPLOYMENT', ''),
    apiVersion: read.string('AZURE_OPENAI_API_VERSION', ''),
  };
}

function readFallback(read: EnvReader, primaryModel: string | undefined): ReadEndpoint | undefined {
  const baseUrl = secureUrl(read, 'OPENAI_FALLBACK_BASE_URL');
  const apiKey = read.optionalString('OPENAI_FALLBACK_API_KEY');
  if (baseUrl === undefined && apiKey === undefined) {
    if (read.optionalString('OPENAI_FALLBACK_MODEL') !== undefined) throw new ConfigError('OPENAI_FALLBACK_MODEL', 'set without OPENAI_FALLBACK_BASE_URL and OPENAI_FALLBACK_API_KEY');
    return undefined;
  }
  if (baseUrl === undefined) throw new ConfigError('OPENAI_FALLBACK_BASE_URL', 'must be set with OPENAI_FALLBACK_API_KEY');
  if (apiKey === undefined) throw new ConfigError('OPENAI_FALLBACK_API_KEY', 'must be set with OPENAI_FALLBACK_BASE_URL');
  const model = read.optionalString('OPENAI_FALLBACK_MODEL') ?? primaryModel;
  if (model === undefined) throw new ConfigError('OPENAI_FALLBACK_MODEL', 'must be set when the primary is an Azure deployment');
  return { kind: 'openai', baseUrl, apiKey, model };
}

/**
 * An upstream URL, `https:` unless the host is this machine: over plain `http:` the API
 * key (and the notes) would cross the network in clear. OPENAI_ALLOW_INSECURE_HTTP=true
 * allows it for a private network the operator trusts.
 */
function secureUrl(read: EnvReader, name: string): string | undefined {
  const raw = read.optionalUrl(name, ['http:', 'https:']);
  if (raw === undefined) return undefined;
  const url = new URL(raw);
  if (url.protocol === 'https:' || isLoopback(url.hostname) || read.boolean('OPENAI_ALLOW_INSECURE_HTTP', false)) return raw;
  throw new ConfigError(name, 'is a plain http: URL to a host other than this machine: the API key would be sent in clear. Use https:, or set OPENAI_ALLOW_INSECURE_HTTP=true for a private network you trust');
}

/** `localhost`, 127.0.0.0/8 or ::1; not a name under `.localhost`, which a resolver may send to DNS. */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function readBounds(read: EnvReader, env: Env): Omit<OpenAiConfig, 'primary' | 'fallback'> {
  const maxRetries = read.integer('OPENAI_MAX_RETRIES', 1, { min: 0, max: 10 });
  const tokens = (name: string, fallback: number): number => read.integer(name, fallback, { min: 16, max: 1_000_000 });
  const both = read.optionalString('OPENAI_MAX_OUTPUT_TOKENS') === undefined ? undefined : tokens('OPENAI_MAX_OUTPUT_TOKENS', 0);
  // Per route: a comms answer the schema allows is several times a snap's (config/output-bounds.ts).
  const maxOutputTokens = {
    predictSnap: tokens('OPENAI_MAX_OUTPUT_TOKENS_SNAP', both ?? DEFAULT_MAX_OUTPUT_TOKENS.predictSnap),
    analyseComms: tokens('OPENAI_MAX_OUTPUT_TOKENS_COMMS', both ?? DEFAULT_MAX_OUTPUT_TOKENS.analyseComms),
  };
  return {
    maxRetries,
    maxOutputTokens,
    // Unset: 0 (repeatable answers); set but empty: not sent at all.
    temperature: env['OPENAI_TEMPERATURE'] === '' ? undefined : read.number('OPENAI_TEMPERATURE', 0, { min: 0, max: 2 }),
    seed: read.optionalString('OPENAI_SEED') === undefined ? undefined : read.integer('OPENAI_SEED', 0, { min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
    reasoningEffort: read.optionalString('OPENAI_REASONING_EFFORT') === undefined ? undefined : (read.oneOf('OPENAI_REASONING_EFFORT', REASONING_EFFORTS, '') as ReasoningEffort),
    schemaLengthBounds: read.boolean('OPENAI_SCHEMA_LENGTH_BOUNDS', false),
    maxSockets: read.integer('OPENAI_MAX_SOCKETS', DEFAULT_MAX_SOCKETS, { min: 1, max: 100_000 }),
    breakerFailures: read.integer('OPENAI_BREAKER_FAILURES', 5, { min: 1, max: 1000 }),
    breakerCooldownSeconds: read.number('OPENAI_BREAKER_COOLDOWN_SECONDS', 30, { min: 0.1, max: 3600 }),
  };
}
