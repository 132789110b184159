/**
 * The SDK client for one upstream: `OpenAI` for any OpenAI-compatible server, or
 * `AzureOpenAI` for a classic Azure deployment (`api-key` header, `api-version` query,
 * `/openai/deployments/{deployment}` path). Every option the SDK would otherwise take
 * from the environment (OPENAI_BASE_URL, OPENAI_ORG_ID, OPENAI_PROJECT_ID,
 * OPENAI_ADMIN_KEY, OPENAI_LOG, OPENAI_API_VERSION, AZURE_OPENAI_*) is given explicitly,
 * so only the service's configuration decides; OPENAI_CUSTOM_HEADERS is refused by the
 * configuration. No debug log of request bodies: they hold the notes.
 *
 * The SDK sends through undici's `request` behind its `fetch` option (request-fetch.ts;
 * each attempt is given its dispatcher, upstream-agent.ts), never retries by itself (`maxRetries: 0`: retry-policy.ts
 * decides), and does not follow redirects: the configured base URL is the upstream,
 * and the key is never sent anywhere else.
 */
import OpenAI, { AzureOpenAI } from 'openai';
import { requestFetch } from './request-fetch';

export interface Connection {
  kind: 'openai' | 'azure';
  apiKey: string;
  /** openai: the base URL; azure: the resource endpoint. */
  baseURL: string;
  /** azure only. */
  apiVersion?: string;
  /** azure only: the deployment, which is also the model sent. */
  deployment?: string;
}

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export function createClient(connection: Connection): OpenAI {
  const common = {
    apiKey: connection.apiKey,
    maxRetries: 0,
    fetch: requestFetch as Fetch,
    organization: null,
    project: null,
    adminAPIKey: null,
    webhookSecret: null,
    defaultHeaders: {},
    logLevel: 'warn' as const,
  };
  if (connection.kind === 'openai') return new OpenAI({ ...common, baseURL: connection.baseURL });
  return new AzureOpenAI({
    ...common,
    baseURL: `${connection.baseURL.replace(/\/+$/, '')}/openai`,
    apiVersion: connection.apiVersion ?? '',
    deployment: connection.deployment,
  });
}
