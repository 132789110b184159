/**
 * A figure the bench measured, or `undefined` when it has no samples (nothing answered,
 * the part did not run). Every figure is printed through `show` and judged through
 * `within`, so an empty one prints "no samples" and is never a met target.
 */
export type Figure = number | undefined;

export interface Percentiles {
  count: number;
  p50: Figure;
  p99: Figure;
  max: Figure;
}

/** Nearest-rank percentiles; every one undefined when `values` is empty. */
export function percentiles(values: readonly number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] };
}

export function median(values: readonly number[]): Figure {
  return percentiles(values).p50;
}

/** `total / count`, undefined when either is missing or nothing was counted. */
export function per(total: Figure, count: Figure): Figure {
  return total === undefined || count === undefined || count <= 0 || !Number.isFinite(total) ? undefined : total / count;
}

export const NO_SAMPLES = 'no samples';

/** The figure with `digits` decimals (thousands separated), "no samples" when it has none. */
export function show(value: Figure, digits = 0, unit = ''): string {
  if (value === undefined || !Number.isFinite(value)) return NO_SAMPLES;
  const text = value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return unit ? `${text} ${unit}` : text;
}

/** Met only with a figure: a part that measured nothing has not met its target. */
export function within(value: Figure, bound: number, direction: 'at most' | 'at least' = 'at most'): boolean {
  if (value === undefined || !Number.isFinite(value)) return false;
  return direction === 'at most' ? value <= bound : value >= bound;
}

export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export const MiB = 2 ** 20;
export const KiB = 2 ** 10;
