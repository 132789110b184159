/**
 * Refuses JSON nested deeper than `maxDepth` before it is parsed: our bodies are flat,
 * and a deeply nested document only costs the server stack and time.
 */
import { AppError } from '../domain/app-error';
import { MESSAGES } from '../domain/messages';

const OPEN = new Set([0x5b, 0x7b]); // [ {
const CLOSE = new Set([0x5d, 0x7d]); // ] }
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export function assertJsonDepth(raw: Buffer, maxDepth: number): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i += 1) {
    const byte = raw[i] as number;
    if (inString) {
      if (byte === BACKSLASH) i += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (OPEN.has(byte)) {
      depth += 1;
      if (depth > maxDepth) throw new AppError({ kind: 'invalid_request', message: MESSAGES.nestedTooDeeply(maxDepth) });
    } else if (CLOSE.has(byte)) {
      depth -= 1;
    }
  }
}
