/**
 * Random values a failure can replay: every randomised test draws from one of these.
 * The seed is SEED from the environment when set (any decimal integer; taken modulo 2^32,
 * so one SEED also serves Schemathesis in `make contract`), otherwise a fresh one, and it
 * is printed either way: `SEED=<n> npx jest <file>` draws the same values again.
 */
import { randomInt } from 'node:crypto';

export interface SeededRandom {
  readonly seed: number;
  /** A number in [0, 1). */
  next(): number;
  /** An integer in [min, max). */
  int(min: number, max: number): number;
}

export function seedFromEnvironment(value = process.env.SEED): number {
  if (value === undefined || value.trim() === '') return randomInt(2 ** 32 - 1);
  if (!/^\d+$/.test(value.trim())) throw new Error(`SEED must be a non-negative integer, got ${JSON.stringify(value)}`);
  return Number(BigInt(value.trim()) % 2n ** 32n);
}

/** mulberry32 from `seed` (SEED, or a fresh seed), announced under `label`. */
export function seededRandom(label: string, seed = seedFromEnvironment()): SeededRandom {
  console.log(`${label}: SEED=${seed} (set SEED=${seed} to draw the same values again)`);
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { seed, next, int: (min, max) => min + Math.floor(next() * (max - min)) };
}

/** A copy of `items` in an order drawn from `random` (Fisher–Yates). */
export function shuffled<T>(items: readonly T[], random: SeededRandom): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = random.int(0, i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
