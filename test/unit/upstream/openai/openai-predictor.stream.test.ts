/**
 * The predictor's streamed calls (docs/upstream.md, "Every token counted"), through the real
 * `openai` client against the fake server: what is asked for, what an attempt cut short
 * still counts, and the attempt's bound over a stream that keeps trickling.
 */
import { paced, reply, startFakeOpenAi, streamCut, textChunks, UPSTREAM_USAGE, type FakeOpenAi } from '../../../support/fake-openai-server';
import { promptEstimateOf } from '../../../support/prompt-estimate';
import type { PredictContext, UpstreamSpend } from '../../../../src/domain/ports';
import { aSnapAnswer, aSubject, CONTEXT, predictorFor } from './given';

function spending(): { context: PredictContext; spends: UpstreamSpend[] } {
  const spends: UpstreamSpend[] = [];
  return { context: { ...CONTEXT, onSpend: (spend) => spends.push(spend) }, spends };
}

describe('OpenAiPredictor, streamed', () => {
  let fake: FakeOpenAi;
  beforeEach(async () => {
    fake = await startFakeOpenAi();
  });
  afterEach(async () => {
    await fake.close();
  });

  test('when a call is made, then it asks for a stream with its usage included, and a whole answer\'s usage is reported as is', async () => {
    fake.script(reply(aSnapAnswer()));
    const { context, spends } = spending();
    const predicted = await predictorFor(fake).predictSnap(aSubject(), context);
    expect(fake.requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(predicted.provenance).toMatchObject({ promptTokens: UPSTREAM_USAGE.prompt_tokens, completionTokens: UPSTREAM_USAGE.completion_tokens });
    expect(spends).toEqual([expect.objectContaining({ outcome: 'success', promptTokens: UPSTREAM_USAGE.prompt_tokens, completionTokens: UPSTREAM_USAGE.completion_tokens })]);
    expect(spends[0]).not.toHaveProperty('estimated');
  });

  test('when the deployment is a classic Azure one, then the answer is read whole (its api-version has no stream_options)', async () => {
    fake.script(reply(aSnapAnswer()));
    const azure = predictorFor(fake, { kind: 'azure', baseURL: new URL(fake.baseURL).origin, apiVersion: '2024-10-21', model: 'my-deployment' });
    const { context, spends } = spending();
    await azure.predictSnap(aSubject(), context);
    expect(fake.requests[0]?.path).toBe('/openai/deployments/my-deployment/chat/completions');
    expect(fake.requests[0]?.body).not.toHaveProperty('stream');
    expect(fake.requests[0]?.body).not.toHaveProperty('stream_options');
    expect(spends).toEqual([expect.objectContaining({ outcome: 'success', promptTokens: UPSTREAM_USAGE.prompt_tokens })]);
  });

  test('when a streamed answer comes without a usage report, then its tokens are estimated (the prompt sent, a token per text chunk), marked in the spend and the provenance', async () => {
    fake.script(reply(aSnapAnswer(), { usage: null }));
    const { context, spends } = spending();
    const predicted = await predictorFor(fake).predictSnap(aSubject(), context);
    const estimate = { promptTokens: promptEstimateOf(fake.requests[0]), completionTokens: textChunks(JSON.stringify(aSnapAnswer())).length };
    expect(estimate.promptTokens).toBeGreaterThan(100);
    expect(predicted.provenance).toMatchObject({ ...estimate, tokensEstimated: true });
    expect(spends).toEqual([expect.objectContaining({ outcome: 'success', ...estimate, estimated: true })]);
  });

  test('when a streamed answer\'s usage report names only its prompt, then its completion is estimated (a token per text chunk) beside the prompt reported, marked estimated in the spend and the provenance', async () => {
    fake.script(reply(aSnapAnswer(), { usage: { prompt_tokens: 812 } }));
    const { context, spends } = spending();
    const predicted = await predictorFor(fake).predictSnap(aSubject(), context);
    const usage = { promptTokens: 812, completionTokens: textChunks(JSON.stringify(aSnapAnswer())).length };
    expect(predicted.provenance).toMatchObject({ ...usage, tokensEstimated: true });
    expect(spends).toEqual([expect.objectContaining({ outcome: 'success', ...usage, estimated: true })]);
  });

  test('when a whole answer (classic Azure) comes without a usage report, then its completion is estimated from its text', async () => {
    fake.script(reply(aSnapAnswer(), { usage: null }));
    const azure = predictorFor(fake, { kind: 'azure', baseURL: new URL(fake.baseURL).origin, apiVersion: '2024-10-21', model: 'my-deployment' });
    const { context, spends } = spending();
    const predicted = await azure.predictSnap(aSubject(), context);
    const text = JSON.stringify(aSnapAnswer());
    // The script-aware estimate of ASCII text: 4 characters a token, rounded up.
    const estimate = { promptTokens: promptEstimateOf(fake.requests[0]), completionTokens: Math.ceil(text.length / 4) };
    expect(predicted.provenance).toMatchObject({ ...estimate, tokensEstimated: true });
    expect(spends).toEqual([expect.objectContaining({ outcome: 'success', ...estimate, estimated: true })]);
  });

  test('when the connection drops mid-stream, then the call fails and counts the chunks that arrived and the prompt sent, marked estimated', async () => {
    fake.script(streamCut(aSnapAnswer(), 9, 'drop'));
    const { context, spends } = spending();
    await expect(predictorFor(fake).predictSnap(aSubject(), context)).rejects.toThrow('upstream could not be reached');
    expect(spends).toEqual([expect.objectContaining({ outcome: 'failure', promptTokens: promptEstimateOf(fake.requests[0]), completionTokens: 9, estimated: true })]);
  });

  test('when the notes are Chinese, then the prompt estimate counts each of their characters as 3 tokens', async () => {
    // After notes with evidence of behaviour, so that the model is asked (no evidence, no call).
    const { notes } = aSubject();
    const english = aSubject({ notes: `${notes} ${'a'.repeat(300)}` });
    const chinese = aSubject({ notes: `${notes} ${'文'.repeat(300)}` });
    fake.script(streamCut(aSnapAnswer(), 0, 'drop'), streamCut(aSnapAnswer(), 0, 'drop'));
    const { context, spends } = spending();
    await expect(predictorFor(fake).predictSnap(english, context)).rejects.toThrow();
    await expect(predictorFor(fake).predictSnap(chinese, context)).rejects.toThrow();
    // The same prompt but for the notes: 300 characters at 3 tokens each instead of a quarter.
    expect((spends[1]?.promptTokens ?? 0) - (spends[0]?.promptTokens ?? 0)).toBe(300 * 3 - 300 / 4);
  });

  test('when the first attempt\'s stream ends without a finish reason and the retry answers, then both attempts are counted: the first estimated, the second as reported', async () => {
    fake.script(streamCut(aSnapAnswer(), 5, 'drop'), reply(aSnapAnswer()));
    const { context, spends } = spending();
    await predictorFor(fake, { maxRetries: 1, random: () => 0 }).predictSnap(aSubject(), context);
    expect(fake.requests).toHaveLength(2);
    expect(spends).toEqual([
      expect.objectContaining({ outcome: 'failure', promptTokens: promptEstimateOf(fake.requests[0]), completionTokens: 5, estimated: true }),
      expect.objectContaining({ outcome: 'success', promptTokens: UPSTREAM_USAGE.prompt_tokens, completionTokens: UPSTREAM_USAGE.completion_tokens }),
    ]);
  });

  test('when every attempt\'s stream breaks off with an error event, then each is retried as a 5xx would be and the call fails as an outage, every attempt counted: its prompt and the chunks that arrived, estimated', async () => {
    fake.always(streamCut(aSnapAnswer(), 4, 'error'));
    const { context, spends } = spending();
    const error = predictorFor(fake, { maxRetries: 1, random: () => 0 }).predictSnap(aSubject(), context);
    await expect(error).rejects.toMatchObject({ message: expect.stringMatching(/^upstream sent an error event in its answer/), outage: true, timeout: false });
    expect(fake.requests).toHaveLength(2);
    expect(spends).toEqual([expect.objectContaining({ outcome: 'failure', promptTokens: 2 * promptEstimateOf(fake.requests[0]), completionTokens: 2 * 4, estimated: true })]);
  });

  test('when a stream keeps trickling past the attempt\'s bound, then the attempt is cut at its bound (undici\'s bound between chunks never fires) and what arrived is counted', async () => {
    const answer = aSnapAnswer();
    // Its chunks spread over a minute: each within undici's bound between chunks, the whole far beyond the attempt's.
    fake.script(paced(60_000, reply(answer)));
    const { context, spends } = spending();
    await expect(predictorFor(fake, { budget: { callMs: 30_000, attemptMs: 1_000 } }).predictSnap(aSubject(), context)).rejects.toThrow('upstream call timed out');
    const [spend] = spends;
    expect(spend).toMatchObject({ outcome: 'failure', estimated: true });
    expect(spend?.completionTokens).toBeGreaterThan(0);
    expect(spend?.completionTokens).toBeLessThan(textChunks(JSON.stringify(answer)).length);
  });
});
