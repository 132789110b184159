/**
 * Output-token bounds per operation when OPENAI_MAX_OUTPUT_TOKENS is unset, sized from
 * the longest real-shaped answer of each route (docs/upstream.md, "Pointing at an LLM"; the
 * answers are built in test/unit/config/output-bounds.test.ts): a snap with
 * the longest texts the prompt asks for is 312 tokens (o200k tokenizer), a comms
 * analysis of a 5,000-character draft (the longest accepted) with 8 issues and a full
 * rewrite is 2,268. The bounds leave room for verbose models and for tokenizers that
 * split text finer (characters / 4 gives 405 and 2,672).
 */
export const DEFAULT_MAX_OUTPUT_TOKENS = { predictSnap: 1000, analyseComms: 4000 } as const;

export type OutputBounds = { readonly [operation in keyof typeof DEFAULT_MAX_OUTPUT_TOKENS]: number };
