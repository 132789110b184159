/**
 * How close the service's count of a call without a usage report must come to llama.cpp's
 * own counters (test/llm/, docs/local-llm.md), and why:
 * - prompt: the estimate is by script, not a tokenizer (src/domain/text-tokens.ts); llama.cpp
 *   reads the messages with its chat template's tokens around them, and SmolLM2's tokenizer
 *   packs this English a little tighter (758 estimated for 694 read, 1.09): within 0.8 to
 *   1.5 times llama.cpp's count;
 * - completion: llama.cpp streams about a token a chunk but merges a few (12 tokens in 9
 *   chunks in a probe), and generates on until a write to the closed connection fails: the
 *   chunks counted are at most the tokens it generated, and at least 0.6 times them less 4
 *   (those generated after the connection closed, or in flight on it).
 */

export function expectPromptWithin(estimated: number, read: number): void {
  expect(estimated / read).toBeGreaterThanOrEqual(0.8);
  expect(estimated / read).toBeLessThanOrEqual(1.5);
}

export function expectCompletionWithin(counted: number, generated: number): void {
  expect(counted).toBeLessThanOrEqual(generated);
  expect(counted).toBeGreaterThanOrEqual(0.6 * generated - 4);
}
