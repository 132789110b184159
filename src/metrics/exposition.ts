/** What GET /metrics serves: Prometheus text, from this process or from every cluster worker. */
import type { Registry } from 'prom-client';

export interface MetricsExposition {
  contentType: string;
  text(): Promise<string>;
}

/** This process's metrics (a single process, or a test server). */
export function processExposition(registry: Registry): MetricsExposition {
  return { contentType: registry.contentType, text: () => registry.metrics() };
}
