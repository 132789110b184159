/**
 * The transport (upstream-agent.ts) through its public entry point: the real `openai`
 * client inside OpenAiPredictor, sending with undici to the local fake server. Each test
 * fails if an upgrade of undici or the SDK moves the option it relies on.
 */
import { delay, heldAnswer, replyRaw, reply, startFakeOpenAi, status, type FakeOpenAi } from '../../../support/fake-openai-server';
import { until } from '../../../support/until';
import { PredictorError } from '../../../../src/domain/predictor-error';
import { UpstreamAgent } from '../../../../src/upstream/openai/upstream-agent';
import { CONTEXT, aSnapAnswer, aSubject, failureOf, predictorFor } from './given';

const BOUND_BYTES = 64 * 1024;

describe('UpstreamAgent', () => {
  let fake: FakeOpenAi;
  const agents: UpstreamAgent[] = [];
  const anAgent = (options: Partial<ConstructorParameters<typeof UpstreamAgent>[0]> = {}): UpstreamAgent => {
    const agent = new UpstreamAgent({ maxSockets: 4, maxResponseBytes: BOUND_BYTES, ...options });
    agents.push(agent);
    return agent;
  };
  beforeEach(async () => {
    fake = await startFakeOpenAi();
  });
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((agent) => agent.close()));
    await fake.close();
  });

  test.each([
    ['as sent', false],
    ['gzip-compressed, once decoded', true],
  ])('when the answer is larger than the bound (%s), then the call fails as unreadable and is not retried', async (_, gzip) => {
    fake.always(replyRaw(JSON.stringify(aSnapAnswer({ reasoning: 'x'.repeat(2 * BOUND_BYTES) })), { gzip }));

    const { error } = await failureOf(() => predictorFor(fake, { agent: anAgent(), budget: { callMs: 10_000, attemptMs: 10_000 }, maxRetries: 2 }).predictSnap(aSubject(), CONTEXT));

    expect(error).toBeInstanceOf(PredictorError);
    expect(error).toMatchObject({ message: expect.stringMatching(/could not be read/) });
    expect(fake.requests).toHaveLength(1);
  });

  test('when a gzip-compressed answer is within the bound, then it is decoded and used', async () => {
    fake.script(reply(aSnapAnswer(), { gzip: true }));

    const { result } = await predictorFor(fake, { agent: anAgent(), budget: { callMs: 10_000, attemptMs: 10_000 } }).predictSnap(aSubject(), CONTEXT);

    expect(result.profile).toBe('Catalyst');
  });

  test('when more calls are in flight than maxSockets, then only maxSockets reach the upstream at once and the rest wait, counted', async () => {
    const agent = anAgent({ maxSockets: 2 });
    const sent: number[] = [];
    const predictor = predictorFor(fake, { agent, budget: { callMs: 30_000, attemptMs: 30_000 }, onSent: (_, queuedMs) => sent.push(queuedMs) });
    fake.always(delay(500, reply(aSnapAnswer())));

    const calls = Array.from({ length: 6 }, () => predictor.predictSnap(aSubject(), CONTEXT));
    await until(() => fake.inFlight() === 2);
    const during = agent.counts();
    const results = await Promise.all(calls);

    expect(during).toEqual({ connected: 2, running: 2, queued: 4 });
    expect(results).toHaveLength(6);
    expect(fake.maxInFlight()).toBe(2);
    expect(sent).toHaveLength(6);
  });

  test('when calls follow one another, then they reuse kept-alive sockets', async () => {
    const agent = anAgent();
    const predictor = predictorFor(fake, { agent, budget: { callMs: 10_000, attemptMs: 10_000 } });
    fake.always(reply(aSnapAnswer()));

    for (let i = 0; i < 5; i += 1) await predictor.predictSnap(aSubject(), CONTEXT);

    // undici may open a second socket while its first is still connecting; never one per call.
    expect(agent.counts()).toMatchObject({ running: 0, queued: 0 });
    expect(agent.counts().connected).toBeLessThanOrEqual(2);
  });

  test('when a call waits for a socket longer than its attempt bound, then the bound starts when it is sent, the call succeeds and the wait is not upstream time', async () => {
    // One socket: the first call (its own bound long) holds it until released; the second
    // (a 2 s bound) waits for it at least twice its bound, then is answered at once.
    const agent = anAgent({ maxSockets: 1 });
    const held = heldAnswer(reply(aSnapAnswer()));
    fake.script(held.behaviour, reply(aSnapAnswer()));
    const first = predictorFor(fake, { agent, budget: { callMs: 60_000, attemptMs: 60_000 }, maxRetries: 0 }).predictSnap(aSubject(), CONTEXT);
    await until(() => fake.inFlight() === 1);
    const timing = { upstreamMs: undefined as number | undefined };
    const calledAt = performance.now();
    const second = predictorFor(fake, { agent, budget: { callMs: 60_000, attemptMs: 2_000 }, maxRetries: 0 })
      .predictSnap(aSubject(), { ...CONTEXT, timing })
      .then((predicted) => ({ predicted, callMs: performance.now() - calledAt }));
    await until(() => agent.counts().queued === 1);

    // A wait, not a measurement: it can only last longer on a busy machine, past the second call's bound from its start.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    held.release();
    const [{ result }, { predicted, callMs }] = await Promise.all([first, second]);

    expect([result.profile, predicted.result.profile]).toEqual(['Catalyst', 'Catalyst']);
    expect(fake.requests).toHaveLength(2);
    // The 4 s or more it waited for the socket is the service's own time (Server-Timing), not the upstream's.
    expect(timing.upstreamMs).toBeDefined();
    expect(callMs - (timing.upstreamMs ?? callMs)).toBeGreaterThanOrEqual(4_000);
  });

  test('when an attempt outlasts its bound once sent, then it times out', async () => {
    fake.always(delay(5_000, reply(aSnapAnswer())));

    const { error } = await failureOf(() => predictorFor(fake, { agent: anAgent(), budget: { callMs: 30_000, attemptMs: 300 }, maxRetries: 0 }).predictSnap(aSubject(), CONTEXT));

    expect(error).toBeInstanceOf(PredictorError);
    expect(error).toMatchObject({ message: 'upstream call timed out' });
  });

  test('when the upstream redirects, then the redirect is not followed: the key never leaves the configured upstream', async () => {
    const elsewhere = await startFakeOpenAi();
    try {
      fake.always(status(307, {}, { headers: { location: `${elsewhere.baseURL}/chat/completions` } }));

      const { error } = await failureOf(() => predictorFor(fake, { agent: anAgent(), budget: { callMs: 10_000, attemptMs: 10_000 } }).predictSnap(aSubject(), CONTEXT));

      expect(error).toBeInstanceOf(PredictorError);
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });
});
