/**
 * What each predictor adds to a request's `upstream` time (Server-Timing, domain/ports.ts
 * `UpstreamTime`): an upstream model's time from its first request written to its last
 * answer read, the embedded predictor's whole prediction. The service's own work and its
 * wait for a socket are not in it (upstream-agent.test.ts); a note answered without
 * asking the model adds none (openai-predictor.snap.test.ts).
 */
import { reply, startFakeOpenAi, status, type FakeOpenAi } from '../../support/fake-openai-server';
import { EmbeddedPredictor } from '../../../src/upstream/embedded/embedded-predictor';
import { CONTEXT, aCommsRequest, aSnapAnswer, aSubject, predictorFor } from './openai/given';

const timed = () => ({ upstreamMs: undefined as number | undefined });

describe('the upstream time of an OpenAI-compatible call', () => {
  let fake: FakeOpenAi;
  beforeEach(async () => {
    fake = await startFakeOpenAi();
  });
  afterEach(() => fake.close());

  test('when the model answers, then the request is timed', async () => {
    fake.script(reply(aSnapAnswer()));
    const timing = timed();

    await predictorFor(fake).predictSnap(aSubject(), { ...CONTEXT, timing });

    expect(fake.requests).toHaveLength(1);
    expect(timing.upstreamMs).toBeGreaterThanOrEqual(0);
  });

  test('when an attempt failed and was retried, then the time runs from the first request to the last answer, the back-off between them included', async () => {
    fake.script(status(503), reply(aSnapAnswer()));
    const timing = timed();

    await predictorFor(fake, { maxRetries: 1 }).predictSnap(aSubject(), { ...CONTEXT, timing });

    const [first, second] = fake.requests;
    // The fake's clock counts whole milliseconds: one of rounding.
    expect(timing.upstreamMs).toBeGreaterThanOrEqual((second?.receivedAt ?? Infinity) - (first?.receivedAt ?? 0) - 1);
  });
});

describe('the upstream time of the embedded predictor', () => {
  test('when it predicts a snap and analyses comms, then each adds its whole time', async () => {
    const predictor = new EmbeddedPredictor();
    const timing = timed();

    await predictor.predictSnap(aSubject(), { ...CONTEXT, timing });
    const afterSnap = timing.upstreamMs;
    await predictor.analyseComms(aCommsRequest(), { ...CONTEXT, timing });

    expect(afterSnap).toBeGreaterThan(0);
    expect(timing.upstreamMs).toBeGreaterThan(afterSnap ?? Infinity);
  });
});
