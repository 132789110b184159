/**
 * API keys: `pps_live_<40 hex = 160 random bits>_<8 hex CRC-32 checksum>`.
 *
 * The fixed prefix lets secret scanners recognise a leaked key; the checksum lets us
 * refuse a mistyped or made-up key before any database lookup. Keys are shown once
 * and stored only as SHA-256: they are random, so no salt is needed.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

const KEY_PREFIX = 'pps_live_';
const RANDOM_BYTES = 20;
const KEY_PATTERN = /^pps_live_([0-9a-f]{40})_([0-9a-f]{8})$/;
/** How much of the key is kept for display: the prefix and 8 random characters. */
const DISPLAY_LENGTH = KEY_PREFIX.length + 8;

export interface NewApiKey {
  /** The secret, to be shown once and never stored. */
  apiKey: string;
  hash: string;
  displayPrefix: string;
}

function checksumOf(body: string): string {
  return crc32(body).toString(16).padStart(8, '0');
}

export function generateApiKey(): NewApiKey {
  const body = KEY_PREFIX + randomBytes(RANDOM_BYTES).toString('hex');
  const apiKey = `${body}_${checksumOf(body)}`;
  return { apiKey, hash: hashApiKey(apiKey), displayPrefix: apiKey.slice(0, DISPLAY_LENGTH) };
}

/** True when the key has our shape and its checksum matches: worth a lookup. */
export function isWellFormedApiKey(candidate: string): boolean {
  const match = KEY_PATTERN.exec(candidate);
  if (!match) return false;
  const expected = Buffer.from(checksumOf(`${KEY_PREFIX}${match[1]}`));
  return timingSafeEqual(expected, Buffer.from(match[2] ?? ''));
}

export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex');
}

/** Constant-time comparison of two secrets of any length (compares their digests). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
