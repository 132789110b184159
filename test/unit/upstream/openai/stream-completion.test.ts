import { PassThrough } from 'node:stream';
import { APIConnectionError, APIError } from 'openai';
import { readStream } from '../../../../src/upstream/openai/stream-completion';
import { newTally } from '../../../../src/upstream/openai/estimated-usage';
import { NodeBodyResponse } from '../../../../src/upstream/openai/request-fetch';

const sse = (...events: unknown[]): Response => new Response(events.map((data) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`).join(''));
const delta = (content: string, finish: string | null = null) => ({ model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: finish }] });

describe('readStream', () => {
  test('when the events hold an answer and its usage, then it is the whole completion, each text chunk counted', async () => {
    const tally = newTally();
    const completion = await readStream(sse(delta(''), delta('{"a"'), delta(':1}'), delta('', 'stop'), { choices: [], usage: { prompt_tokens: 10, completion_tokens: 3 } }, '[DONE]'), tally);
    expect(completion).toEqual({ model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: '{"a":1}', refusal: null }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 3 } });
    expect(tally).toEqual({ sentAt: undefined, endedAt: undefined, textChunks: 2, usage: { promptTokens: 10, completionTokens: 3 } });
  });

  test('when the stream ends without a finish reason, then it is a lost connection (retried as one), and what arrived stays counted', async () => {
    const tally = newTally();
    await expect(readStream(sse(delta('{"a"'), delta(':1')), tally)).rejects.toBeInstanceOf(APIConnectionError);
    expect(tally.textChunks).toBe(2);
  });

  test('when a server streams reasoning before the answer and the stream is cut, then each reasoning chunk counts as a completion token, not the answer', async () => {
    const tally = newTally();
    const thinking = (field: string, text: string) => ({ model: 'm', choices: [{ index: 0, delta: { [field]: text }, finish_reason: null }] });
    await expect(readStream(sse(thinking('reasoning_content', 'Weigh'), thinking('reasoning', ' the notes'), delta('{"a"')), tally)).rejects.toBeInstanceOf(APIConnectionError);
    expect(tally.textChunks).toBe(3);
  });

  test('when an event carries an error, then it is an APIError, as the SDK reads one, without a status', async () => {
    const reading = readStream(sse(delta('{'), { error: { message: 'overloaded', type: 'server_error', code: null } }), newTally());
    await expect(reading).rejects.toBeInstanceOf(APIError);
    await expect(reading).rejects.toMatchObject({ status: undefined });
  });

  test.each<[string, Record<string, unknown>, number]>([
    ["llama.cpp's prompt past its context", { code: 400, message: 'the request exceeds the available context size', type: 'exceed_context_size_error' }, 400],
    ["OpenAI's refused request", { message: 'bad', type: 'invalid_request_error', code: null }, 400],
    ['a server error given as a code', { code: 503, message: 'loading model', type: 'unavailable_error' }, 503],
  ])('when an error event is %s, then it is the APIError of that status, read as its answer\'s would be', async (_name, error, status) => {
    await expect(readStream(sse(delta('{'), { error }), newTally())).rejects.toMatchObject({ status });
  });

  test('when an event is not a JSON object, then the answer is unreadable, an outage (the server broke the stream), and the message does not quote it', async () => {
    await expect(readStream(sse('{"notes": "Ada was here"'), newTally())).rejects.toMatchObject({ message: 'upstream response could not be read', outage: true });
    await expect(readStream(sse('[1]'), newTally())).rejects.toMatchObject({ message: 'upstream response could not be read', outage: true });
  });

  test('when the body holds no event at all (empty, or not a stream), then it is an outage: the server failed whatever was asked', async () => {
    await expect(readStream(new Response(''), newTally())).rejects.toMatchObject({ message: 'upstream answered without a single event', outage: true });
    await expect(readStream(new Response('{"choices": []}'), newTally())).rejects.toMatchObject({ outage: true });
  });

  test('when the body is given as a Node stream, then it is read from it, a character split between two chunks whole', async () => {
    const bytes = Buffer.from(`data: ${JSON.stringify(delta('{"a":"é"}', 'stop'))}\n\ndata: [DONE]\n\n`);
    const split = bytes.indexOf(Buffer.from('é')) + 1;
    const body = new PassThrough();
    const reading = readStream(new NodeBodyResponse(body, { status: 200 }), newTally());
    body.write(bytes.subarray(0, split));
    body.end(bytes.subarray(split));

    await expect(reading).resolves.toMatchObject({ choices: [{ message: { content: '{"a":"é"}' }, finish_reason: 'stop' }] });
  });

  test('when an event of a Node stream body fails the answer, then the call fails with it and the body is destroyed', async () => {
    const body = new PassThrough();
    const reading = readStream(new NodeBodyResponse(body, { status: 200 }), newTally());
    body.write('data: {"notes": "Ada was here"\n\n');

    await expect(reading).rejects.toThrow(/^upstream response could not be read$/);
    expect(body.destroyed).toBe(true);
  });
});
