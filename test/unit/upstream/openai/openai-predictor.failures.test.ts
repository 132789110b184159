import {
  delay,
  garbage,
  hang,
  refuse,
  reply,
  replyRaw,
  startFakeOpenAi,
  status,
  streamCut,
  type Behaviour,
  type FakeOpenAi,
} from '../../../support/fake-openai-server';
import { PredictorError } from '../../../../src/domain/predictor-error';
import { until } from '../../../support/until';
import { API_KEY, CONTEXT, aSnapAnswer, aSubject, failureOf, predictorFor } from './given';

describe('OpenAiPredictor failures', () => {
  let fake: FakeOpenAi;
  beforeEach(async () => {
    fake = await startFakeOpenAi();
  });
  afterEach(async () => {
    await fake.close();
  });

  test.each<[string, Behaviour, RegExp, number | undefined]>([
    ['the server answers 500', status(500), /HTTP 500/, 500],
    ['the server answers 503', status(503), /HTTP 503/, 503],
    ['the server answers 400', status(400), /HTTP 400/, 400],
    ['the server answers 401', status(401), /HTTP 401/, 401],
    ['the body is not JSON (no event of a stream)', garbage(), /without a single event/, undefined],
    [
      'the model stops at the length limit',
      replyRaw(JSON.stringify(aSnapAnswer()), { finishReason: 'length' }),
      /finish_reason 'length'/,
      undefined,
    ],
    [
      'the content filter stops the model',
      replyRaw(null, { finishReason: 'content_filter' }),
      /finish_reason 'content_filter'/,
      undefined,
    ],
    ['the model refuses', refuse("I can't help with that."), /refused/, undefined],
    ['the content is empty', replyRaw(''), /empty content/, undefined],
    ['the content is null', replyRaw(null), /empty content/, undefined],
    ['the content is not JSON', replyRaw('Sure! The profile is Catalyst.'), /not valid JSON/, undefined],
    ['the content is a JSON array', replyRaw('[{"profile":"Catalyst"}]'), /not a JSON object/, undefined],
    ['the content is a JSON string', replyRaw('"Catalyst"'), /not a JSON object/, undefined],
  ])('when %s, then a PredictorError says so', async (_, behaviour, message, upstreamStatus) => {
    fake.script(behaviour);

    const { error } = await failureOf(() => predictorFor(fake).predictSnap(aSubject(), CONTEXT));

    expect(error).toBeInstanceOf(PredictorError);
    expect(error).toMatchObject({ message: expect.stringMatching(message), upstreamStatus });
    expect(fake.requests).toHaveLength(1);
  });

  test.each([
    ['the server answers 503', status(503), true],
    ['the server answers 429', status(429), true],
    ['the server answers 401', status(401), true],
    ['the server answers 400', status(400), false],
    ['the server answers 422', status(422), false],
    ['a reasoning model refuses the temperature (400 naming it)', status(400, { error: { message: 'Unsupported value', type: 'invalid_request_error', param: 'temperature', code: 'unsupported_value' } }), true],
    ['a server refuses the response format (400 naming it)', status(400, { error: { message: 'Invalid schema', type: 'invalid_request_error', param: 'response_format.json_schema.schema', code: null } }), true],
    ['the server refuses the messages (400 naming them)', status(400, { error: { message: 'Invalid content', type: 'invalid_request_error', param: 'messages[1].content', code: null } }), false],
    ['the model refuses', refuse("I can't help with that."), false],
    ['the content is not JSON', replyRaw('Sure! The profile is Catalyst.'), false],
    ['the stream breaks off with an error event', streamCut(aSnapAnswer(), 3, 'error'), true],
    ['the body holds no event of a stream', garbage(), true],
  ])('when %s, then the PredictorError is an outage: %s (the failure budget counts only what is not)', async (_, behaviour, outage) => {
    fake.always(behaviour);

    const { error } = await failureOf(() => predictorFor(fake).predictSnap(aSubject(), CONTEXT));

    expect(error).toMatchObject({ outage });
  });

  test('when the server answers 429 and maxRetries is 1, then the SDK retries once and the call fails with 429', async () => {
    const tooMany = status(429, undefined, { headers: { 'retry-after-ms': '0' } });
    fake.script(tooMany, tooMany);

    const { error } = await failureOf(() =>
      predictorFor(fake, { maxRetries: 1 }).predictSnap(aSubject(), CONTEXT),
    );

    expect(error).toBeInstanceOf(PredictorError);
    expect(error).toMatchObject({ upstreamStatus: 429, message: expect.stringMatching(/HTTP 429/) });
    expect(fake.requests).toHaveLength(2);
  });

  test('when the server answers 500 once and then succeeds, then the retry is used', async () => {
    fake.script(status(500, undefined, { headers: { 'retry-after-ms': '0' } }), reply(aSnapAnswer()));

    const { result } = await predictorFor(fake, { maxRetries: 1 }).predictSnap(aSubject(), CONTEXT);

    expect(result.profile).toBe('Catalyst');
    expect(fake.requests).toHaveLength(2);
  });

  test.each<[string, Behaviour, number]>([
    ['the reply comes after the call\'s budget', delay(5000, reply(aSnapAnswer())), 0],
    ['the server never answers', hang(), 0],
    ['the server never answers and retries are allowed', hang(), 2],
  ])('when %s, then the call ends when its deadline passes, and says so', async (_, behaviour, maxRetries) => {
    fake.always(behaviour);

    // Each attempt's own bound far beyond the deadline: were it equal to the call's, its
    // timer (started when the attempt is sent) and the deadline's (started before) would
    // race, which a busy machine can decide either way.
    const { error } = await failureOf(() =>
      predictorFor(fake, { budget: { callMs: 400, attemptMs: 60_000 }, maxRetries }).predictSnap(aSubject(), CONTEXT),
    );

    expect(error).toBeInstanceOf(PredictorError);
    expect(error).toMatchObject({ message: expect.stringMatching(/timed out after 400 ms/) });
  });

  test.each<[string, Record<string, string>]>([
    ['Retry-After (seconds)', { 'retry-after': '30' }],
    ['retry-after-ms', { 'retry-after-ms': '30000' }],
  ])('when a 429 asks, with %s, to wait longer than the time left, then the call fails at once with 429 and no retry', async (_, headers) => {
    fake.always(status(429, undefined, { headers }));

    const { error } = await failureOf(() =>
      predictorFor(fake, { budget: { callMs: 5000, attemptMs: 5000 }, maxRetries: 2 }).predictSnap(aSubject(), CONTEXT),
    );

    expect(error).toBeInstanceOf(PredictorError);
    expect(error).toMatchObject({ upstreamStatus: 429, message: expect.stringMatching(/HTTP 429/) });
    expect(fake.requests).toHaveLength(1);
  });

  test("when the caller's signal aborts, then a PredictorError comes at once", async () => {
    fake.always(hang());
    const controller = new AbortController();
    // Aborted once the call has reached the upstream (an event, not a clock).
    void until(() => fake.inFlight() === 1).then(() => controller.abort());

    const { error } = await failureOf(() =>
      predictorFor(fake, { budget: { callMs: 60_000, attemptMs: 60_000 } }).predictSnap(aSubject(), {
        ...CONTEXT,
        signal: controller.signal,
      }),
    );

    expect(error).toBeInstanceOf(PredictorError);
    expect(error).toMatchObject({ message: expect.stringMatching(/aborted by the caller/) });
  });

  test('when nothing listens at the base URL, then a PredictorError says it could not be reached', async () => {
    const baseURL = fake.baseURL;
    await fake.close();

    const { error } = await failureOf(() =>
      predictorFor(fake, { baseURL }).predictSnap(aSubject(), CONTEXT),
    );

    expect(error).toBeInstanceOf(PredictorError);
    expect(error).toMatchObject({ message: expect.stringMatching(/could not be reached/) });
  });

  test('when the error body echoes the notes, then neither the notes nor the API key reach the error message', async () => {
    const subject = aSubject({ notes: 'Checks every figure twice. Secret detail: owes money to Bob.' });
    fake.script(
      status(400, { error: { message: `Invalid input: ${subject.notes} key ${API_KEY}`, code: 'bad' } }),
    );

    const { error } = await failureOf(() => predictorFor(fake).predictSnap(subject, CONTEXT));

    expect(error).toBeInstanceOf(PredictorError);
    const text = `${String(error)} ${JSON.stringify(error)}`;
    expect(text).not.toContain('owes money');
    expect(text).not.toContain(API_KEY);
    expect(error).toMatchObject({ message: expect.stringMatching(/HTTP 400 \(code bad/) });
  });
});
