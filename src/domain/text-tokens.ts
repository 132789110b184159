/**
 * Request texts bounded in tokens, not only characters (openapi/openapi.yaml, `SnapRequest`
 * and `CommsRequest`): the spec's `maxLength` counts characters, and a character of Chinese,
 * Japanese or Korean costs 1 to 3 tokens where English costs about a quarter, so a CJK text
 * within its character bound could hold several times the tokens the bounds were sized for
 * (a prompt past a local model's context, a rewrite past the output bound). The texts sent to
 * the model must fit together in what their character bounds allow in English.
 *
 * The estimate is by script, not a tokenizer (no tokenizer matches every upstream): a CJK
 * character, or one outside the Basic Multilingual Plane (an emoji), 3 tokens, the most a
 * common tokenizer spends on one, so the bound holds whatever the model; another non-ASCII
 * character (accented Latin, Cyrillic, Arabic, CJK punctuation) half a token; ASCII a quarter.
 */
import { AppError } from './app-error';
import { MESSAGES } from './messages';

/** English at about 4 characters a token (OpenAI's rule of thumb): also the output bounds' rate. */
export const ENGLISH_CHARACTERS_PER_TOKEN = 4;
const HEAVY_TOKENS = 3;
const OTHER_TOKENS = 0.5;
const HEAVY = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/u;

/** Estimated tokens of `text` (see above): also the estimate of a prompt sent without a usage report (upstream/openai/estimated-usage.ts). */
export function estimatedTextTokens(text: string): number {
  let tokens = 0;
  for (const character of text) {
    if (character.length === 1 && character.charCodeAt(0) < 0x80) tokens += 1 / ENGLISH_CHARACTERS_PER_TOKEN;
    else if (character.length > 1 || HEAVY.test(character)) tokens += HEAVY_TOKENS;
    else tokens += OTHER_TOKENS;
  }
  return Math.ceil(tokens);
}

/** The token budget of texts whose character bounds (the spec's `maxLength`) are `maxLengths`. */
export function tokenBudget(maxLengths: readonly number[]): number {
  return Math.ceil(maxLengths.reduce((a, b) => a + b, 0) / ENGLISH_CHARACTERS_PER_TOKEN);
}

/**
 * Throws the 400 when the texts (undefined: absent) hold more estimated tokens than `budget`;
 * `names` as the message lists them.
 */
export function assertWithinTokens(texts: readonly (string | undefined)[], budget: number, names: string): void {
  const tokens = estimatedTextTokens(texts.filter((text) => text !== undefined).join(''));
  if (tokens > budget) throw new AppError({ kind: 'invalid_request', message: MESSAGES.tooManyTokens(names, tokens, budget) });
}

/** The spec's `maxLength` of the texts each route sends to the model (test/unit checks them against openapi/openapi.yaml). */
export const TEXT_MAX_LENGTHS = { notes: 5000, ageRange: 32, jobType: 120, goal: 500, draft: 5000 } as const;
/** `notes`, `ageRange`, `jobType` together (the name is never sent): 1,288 tokens. */
export const SNAP_TEXT_TOKENS = tokenBudget([TEXT_MAX_LENGTHS.notes, TEXT_MAX_LENGTHS.ageRange, TEXT_MAX_LENGTHS.jobType]);
/** `goal` and `draft` together: 1,375 tokens. */
export const COMMS_TEXT_TOKENS = tokenBudget([TEXT_MAX_LENGTHS.goal, TEXT_MAX_LENGTHS.draft]);
