/**
 * The service's estimate of the prompt tokens of one attempt, from what the fake upstream
 * recorded (src/domain/text-tokens.ts over the messages sent). Apart from the fake itself,
 * which the bench runs without the service's sources.
 */
import { estimatedTextTokens } from '../../src/domain/text-tokens';
import type { RecordedRequest } from './fake-openai-server';

export function promptEstimateOf(request: RecordedRequest | undefined): number {
  return estimatedTextTokens((request?.chat?.messages ?? []).map((message) => message.content).join(''));
}
