/** Who is calling: an API key in, the caller out (openapi/openapi.yaml, `Unauthorized`). */
import { AppError } from './app-error';
import { hashApiKey, isWellFormedApiKey } from './api-keys';
import { MESSAGES } from './messages';
import type { Caller, CallerRepository } from './ports';

export async function authenticate(callers: CallerRepository, apiKey: string | undefined): Promise<Caller> {
  // The checksum refuses a made-up key before it costs a database lookup.
  if (!apiKey || !isWellFormedApiKey(apiKey)) throw invalidKey();
  const caller = await callers.findByKeyHash(hashApiKey(apiKey));
  if (!caller) throw invalidKey();
  return caller;
}

function invalidKey(): AppError {
  return new AppError({ kind: 'unauthenticated', message: MESSAGES.invalidApiKey });
}
