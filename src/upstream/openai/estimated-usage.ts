/**
 * Every token counted (docs/upstream.md, "Pointing at an LLM"): a call that ends without a
 * usage report (a timeout, a client that left, a connection lost, an HTTP error) is
 * counted by an estimate, marked as such. Prompt tokens: what was sent, at 4 characters
 * a token (OpenAI's rule of thumb for English; o200k counts this service's English
 * prompts at about 4.2 characters a token, and CJK text at about 1 character a token,
 * so CJK prompts are under-counted), once per attempt sent. Completion tokens: 0, since
 * the answer is read whole (not streamed), nothing that arrived is known.
 */
import { ENGLISH_CHARACTERS_PER_TOKEN } from '../../domain/text-tokens';

export interface EstimatedUsage {
  promptTokens: number;
  completionTokens: number;
  estimated: true;
}

export function estimatedUsage(messages: readonly { content: string }[], attemptsSent: number): EstimatedUsage {
  const characters = messages.reduce((total, message) => total + message.content.length, 0);
  return { promptTokens: attemptsSent * Math.ceil(characters / ENGLISH_CHARACTERS_PER_TOKEN), completionTokens: 0, estimated: true };
}
