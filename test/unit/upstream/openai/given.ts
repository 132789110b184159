/** Small factories shared by the OpenAI predictor tests. */
import type { FakeOpenAi, RecordedRequest } from '../../../support/fake-openai-server';
import { OpenAiPredictor, type OpenAiPredictorOptions } from '../../../../src/upstream/openai';
import type { CommsRequest, PredictContext, SnapSubject } from '../../../../src/domain/ports';

export const API_KEY = 'sk-test-secret-key-0123456789abcdef';
export const MODEL = 'test-model';
export const CONTEXT: PredictContext = { requestId: 'req-test-1' };

export function predictorFor(
  fake: FakeOpenAi,
  options: Partial<OpenAiPredictorOptions> = {},
): OpenAiPredictor {
  return new OpenAiPredictor({
    apiKey: API_KEY,
    baseURL: fake.baseURL,
    model: MODEL,
    budget: { callMs: 10_000, attemptMs: 10_000 },
    maxRetries: 0,
    ...options,
  });
}

export function aSubject(overrides: Partial<SnapSubject> = {}): SnapSubject {
  return {
    name: 'Ada Example',
    notes: 'Starts new projects every quarter and recruits people to them with infectious energy.',
    ageRange: '30-39',
    jobType: 'Product manager',
    ...overrides,
  };
}

export function aCommsRequest(overrides: Partial<CommsRequest> = {}): CommsRequest {
  return {
    profile: 'Catalyst',
    primaryCode: 'CT',
    secondaryProfile: 'Connector',
    channel: 'email',
    goal: 'Agree on a launch date',
    draft: 'Hi Ada, per my last email, the launch date is fixed.',
    ...overrides,
  };
}

/** A complete, valid snap_prediction answer. */
export function aSnapAnswer(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    profile: 'Catalyst',
    primary_code: 'CT',
    secondary_profile: 'Connector',
    secondary_code: 'CN',
    confidence: 'High',
    reasoning: 'Starts projects and rallies people.',
    summary: 'An energetic initiator.',
    secondary_profile_summary: 'Builds networks around each project.',
    ...overrides,
  };
}

/** The one request the fake received, failing the test when there is not exactly one. */
export function onlyRequest(fake: FakeOpenAi): RecordedRequest {
  expect(fake.requests).toHaveLength(1);
  const [request] = fake.requests;
  if (!request) throw new Error('no request recorded');
  return request;
}

export function messageOf(request: RecordedRequest, role: 'system' | 'user'): string {
  const message = request.chat?.messages.find((m) => m.role === role);
  if (!message) throw new Error(`no ${role} message sent`);
  return message.content;
}

/** Splits a message around its `<tag>…</tag>` block; fails unless there is exactly one. */
export function splitDataBlock(
  message: string,
  tag: string,
): { outside: string; data: unknown } {
  expect(message.split(`<${tag}>`)).toHaveLength(2);
  expect(message.split(`</${tag}>`)).toHaveLength(2);
  const match = new RegExp(`^([\\s\\S]*)<${tag}>\\n([\\s\\S]*)\\n</${tag}>([\\s\\S]*)$`).exec(message);
  if (!match) throw new Error(`no <${tag}> block`);
  return { outside: `${match[1] ?? ''}${match[3] ?? ''}`, data: JSON.parse(match[2] ?? '') };
}

/** Runs `call` and returns the error it rejects with. */
export async function failureOf(call: () => Promise<unknown>): Promise<{ error: unknown }> {
  try {
    await call();
  } catch (error) {
    return { error };
  }
  throw new Error('expected the call to fail');
}
