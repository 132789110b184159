/** Reads samples out of Prometheus text, as GET /metrics serves it. */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export function parseSamples(text: string): Sample[] {
  return text.split('\n').flatMap((line) => {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) return [];
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => [k, v]));
    return [{ name: match[1] ?? '', labels, value: Number(match[3]) }];
  });
}

/** The value of the sample with this name and these labels (others may be present), or 0. */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number {
  const found = parseSamples(text).find(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  return found?.value ?? 0;
}
