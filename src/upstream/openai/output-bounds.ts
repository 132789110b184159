/**
 * Output-token bounds per operation when OPENAI_MAX_OUTPUT_TOKENS is unset. Measured on
 * the longest real-shaped answer of each route with OpenAI's o200k tokenizer (README,
 * "Pointing at an LLM": snap ≈ 450 tokens, comms with a draft ≈ 1,150), times about 2.5
 * for verbose models and tokenizers that split text finer.
 */
export const DEFAULT_MAX_OUTPUT_TOKENS = { predictSnap: 1200, analyseComms: 3000 } as const;

export type OutputBounds = { readonly [operation in keyof typeof DEFAULT_MAX_OUTPUT_TOKENS]: number };
