/**
 * Sends the planned requests to a running service through its HTTP API, one at a time,
 * each bounded in time, on one account made through the admin API with a credit for every
 * call. The tokens of a call are the change in the account's token counts across it
 * (stored results and failed calls alike, as the admin API reports them).
 */
import type { Confidence, ProfileName } from '../../src/domain/profiles';
import type { PlannedCall } from './plan';

export interface EvalTarget {
  /** The public API, e.g. http://127.0.0.1:3000. */
  url: string;
  adminUrl: string;
  adminToken: string;
}

export interface Prediction {
  profile: ProfileName | null;
  secondary_profile: ProfileName | null;
  confidence: Confidence | null;
  reasoning: string | null;
  summary: string | null;
  secondary_profile_summary: string | null;
}

export interface CallResult {
  call: PlannedCall;
  /** The HTTP status; 0 when no answer came (refused, reset, timed out). */
  status: number;
  seconds: number;
  /** Tokens counted for the account across the call; null when the account could not be read. */
  tokens: number | null;
  prediction?: Prediction;
  /** For a status other than 201: the error message the service or the client gave. */
  error?: string;
}

interface AccountView {
  tokens: { prompt: number; completion: number; failed: { prompt: number; completion: number } };
}

async function admin<T>(target: EvalTarget, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${target.adminUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${target.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const envelope = (await response.json()) as { data?: T };
  if (!response.ok || !envelope.data) throw new Error(`admin ${method} ${path}: ${response.status} ${JSON.stringify(envelope)}`);
  return envelope.data;
}

const tokensOf = (view: AccountView): number => view.tokens.prompt + view.tokens.completion + view.tokens.failed.prompt + view.tokens.failed.completion;

export async function runCalls(
  target: EvalTarget,
  calls: readonly PlannedCall[],
  options: { callTimeoutMs: number; onResult?: (result: CallResult, index: number) => void },
): Promise<CallResult[]> {
  const account = await admin<{ accountId: number; apiKey: string }>(target, 'POST', '/admin/v1/accounts', { name: `make eval ${new Date().toISOString()}`, credits: calls.length + 1 });
  const tokenCount = async (): Promise<number | null> => tokensOf(await admin<AccountView>(target, 'GET', `/admin/v1/accounts/${account.accountId}`));
  let before = await tokenCount();
  const results: CallResult[] = [];
  for (const [index, call] of calls.entries()) {
    const started = performance.now();
    const result: CallResult = { call, status: 0, seconds: 0, tokens: null };
    try {
      const response = await fetch(`${target.url}/api/v1/snap`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey },
        body: JSON.stringify(call.body),
        signal: AbortSignal.timeout(options.callTimeoutMs),
      });
      const body = (await response.json().catch(() => ({}))) as { message?: string; data?: { snapResponse?: Prediction } };
      result.status = response.status;
      if (response.status === 201 && body.data?.snapResponse) result.prediction = body.data.snapResponse;
      else result.error = body.message ?? `HTTP ${response.status}`;
    } catch (error) {
      result.error = error instanceof Error ? error.message : String(error);
    }
    result.seconds = (performance.now() - started) / 1000;
    const after = await tokenCount().catch(() => null);
    result.tokens = after === null || before === null ? null : after - before;
    before = after;
    results.push(result);
    options.onResult?.(result, index);
  }
  return results;
}
