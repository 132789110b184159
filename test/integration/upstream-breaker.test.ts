/**
 * The circuit breaker on the primary upstream when no fallback is configured
 * (src/upstream/breaker-predictor.ts), black-box through the service's HTTP API with the
 * real `openai` client against the fake server: an upstream that keeps failing is not
 * called for the cool-down, and the calls in between fail at once, uncharged.
 */
import { bodyOf } from '../support/json';
import { heldAnswer, reply, status, streamCut, UPSTREAM_PREDICTION as PREDICTION, FAKE_UPSTREAM_SPEED } from '../support/fake-openai-server';
import { balanceOf, createAccount, PERSON, snapCountOf } from '../support/factories';
import { startPrimaryAndFallback } from '../support/fake-upstream-pair';
import { promptEstimateOf } from '../support/prompt-estimate';
import { sampleValue } from '../support/prometheus';
import type { TestServer } from '../support/test-server';
import { until } from '../support/until';

const DOWN = status(503, undefined, { headers: { 'x-should-retry': 'false' } });
const upstreams = startPrimaryAndFallback(({ primary }) => ({
  OPENAI_API_KEY: 'sk-primary-0123456789',
  OPENAI_BASE_URL: primary.baseURL,
  ...FAKE_UPSTREAM_SPEED,
  OPENAI_TIMEOUT_SECONDS: '4',
  OPENAI_MAX_RETRIES: '0',
  OPENAI_BREAKER_FAILURES: '2',
}));
const { withServer } = upstreams;

async function snap(server: TestServer, apiKey: string) {
  const response = await server.post('/api/v1/snap', PERSON, { 'x-api-key': apiKey });
  return { status: response.status, body: await bodyOf(response) };
}

/** The account's failed paid calls by kind (the usage view), over the days around now. */
async function failuresOf(server: TestServer, accountId: number): Promise<Record<string, number>> {
  const day = 86_400_000;
  const query = new URLSearchParams({ from: new Date(Date.now() - day).toISOString(), to: new Date(Date.now() + day).toISOString(), granularity: 'day' });
  const { buckets } = await server.admin<{ buckets: { failures: Record<string, number> }[] }>('GET', `/admin/v1/accounts/${accountId}/usage?${query.toString()}`);
  const sums: Record<string, number> = {};
  for (const { failures } of buckets) for (const [kind, count] of Object.entries(failures)) sums[kind] = (sums[kind] ?? 0) + count;
  return sums;
}

describe('circuit breaker without a fallback', () => {
  test('when the upstream failed OPENAI_BREAKER_FAILURES times in a row, then the next calls get the contract 500 without reaching it, uncharged and outside the failure budget', () =>
    withServer({ OPENAI_BREAKER_COOLDOWN_SECONDS: '600', FAILURE_BUDGET_CALLS: '2' }, async (server) => {
      upstreams.primary.always(DOWN);
      const account = await createAccount(server, 3);
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await snap(server, account.apiKey));
      expect(answers.map((answer) => answer.status)).toEqual([500, 500, 500, 500, 500]);
      for (const answer of answers) expect(answer.body).toMatchObject({ message: 'Failed to generate snap Please try again later', success: false });
      expect(upstreams.primary.requests).toHaveLength(2);
      expect(await balanceOf(server, account.accountId)).toBe(3);
      expect(await snapCountOf(server, account.accountId)).toBe(0);
      const metrics = await (await fetch(`${server.adminUrl}/metrics`)).text();
      expect(sampleValue(metrics, 'upstream_skipped_calls_total', { then: 'failed' })).toBe(3);
      expect(sampleValue(metrics, 'upstream_calls_total', { operation: 'predictSnap', upstream: 'primary' })).toBe(2);
    }));

  test('when the cool-down has passed, then one trial reaches the upstream while the other calls still fail at once, and its answer is served', () =>
    withServer({ OPENAI_BREAKER_COOLDOWN_SECONDS: '0.5' }, async (server) => {
      const trial = heldAnswer(reply(PREDICTION));
      upstreams.primary.script(DOWN, DOWN, trial.behaviour);
      upstreams.primary.always(reply(PREDICTION));
      const account = await createAccount(server, 3);
      expect((await snap(server, account.apiKey)).status).toBe(500);
      expect((await snap(server, account.apiKey)).status).toBe(500);

      // Open now: calls leave one at a time, each answered before the next, until one
      // reaches the upstream after the cool-down: the trial, held there (bounded: 200 tries).
      let trialCall: Promise<{ status: number }> | undefined;
      for (let i = 0; i < 200 && trialCall === undefined; i++) {
        let answered = false;
        const call = snap(server, account.apiKey).finally(() => (answered = true));
        await until(() => answered || upstreams.primary.inFlight() === 1, 30_000);
        if (upstreams.primary.inFlight() === 1) trialCall = call;
        else {
          expect((await call).status).toBe(500);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      expect(upstreams.primary.requests).toHaveLength(3);

      // While the trial is out, another call still fails at once without reaching the upstream.
      expect((await snap(server, account.apiKey)).status).toBe(500);
      expect(upstreams.primary.requests).toHaveLength(3);

      trial.release();
      expect((await trialCall)?.status).toBe(201);
      expect((await snap(server, account.apiKey)).status).toBe(201);
      expect(upstreams.primary.requests).toHaveLength(4);
      expect(await balanceOf(server, account.accountId)).toBe(1);
    }));

  test('when every stream breaks off with an error event, then each call is retried, fails as an outage outside the failure budget with its tokens counted, and the breaker opens', () =>
    withServer({ OPENAI_MAX_RETRIES: '1', OPENAI_BREAKER_COOLDOWN_SECONDS: '600', FAILURE_BUDGET_CALLS: '1' }, async (server) => {
      const arrived = 3;
      upstreams.primary.always(streamCut(PREDICTION, arrived, 'error'));
      const account = await createAccount(server, 3);
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await snap(server, account.apiKey)).status);

      // A failure counted against the budget of 1 would make the second call a 429.
      expect(statuses).toEqual([500, 500, 500]);
      // Two calls of two attempts each; the third was skipped by the open breaker.
      expect(upstreams.primary.requests).toHaveLength(4);
      const metrics = await (await fetch(`${server.adminUrl}/metrics`)).text();
      expect(sampleValue(metrics, 'upstream_skipped_calls_total', { then: 'failed' })).toBe(1);
      expect(sampleValue(metrics, 'failure_budget_failures_total', { operation: 'createSnap' })).toBe(0);
      expect(await failuresOf(server, account.accountId)).toMatchObject({ total: 3, upstreamOutage: 3 });
      // Each attempt sent: its prompt, and a token for each chunk that arrived before the error event, estimated.
      const prompt = promptEstimateOf(upstreams.primary.requests[0]);
      const view = await server.admin<{ tokens: { failed: Record<string, number> } }>('GET', `/admin/v1/accounts/${account.accountId}`);
      expect(view.tokens.failed).toEqual({ prompt: 4 * prompt, completion: 4 * arrived, calls: 2, unreportedCalls: 2, estimatedPrompt: 4 * prompt, estimatedCompletion: 4 * arrived });
      expect(await balanceOf(server, account.accountId)).toBe(3);
    }));
});
