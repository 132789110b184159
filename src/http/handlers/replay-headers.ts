/** `Idempotent-Replayed: true` on a response replayed for an Idempotency-Key. */
export function replayHeaders(replayed: boolean): Record<string, string> | undefined {
  return replayed ? { 'Idempotent-Replayed': 'true' } : undefined;
}
