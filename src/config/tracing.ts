/**
 * Whether OpenTelemetry traces are on (docs/operations.md, "Traces"). Off by default;
 * the standard OTEL_* variables turn them on and configure them (the SDK reads them
 * itself: endpoint, protocol, headers, sampler, resource). On when an exporter or an OTLP
 * endpoint is named; OTEL_SDK_DISABLED=true wins over both.
 */
import type { EnvReader } from './env-reader';

export interface TracingConfig {
  /** `service.name` of every span: OTEL_SERVICE_NAME, or the product's name. */
  serviceName: string;
}

export const DEFAULT_SERVICE_NAME = 'profile-prediction-service';

export function readTracing(read: EnvReader): TracingConfig | undefined {
  if (read.boolean('OTEL_SDK_DISABLED', false)) return undefined;
  const exporter = read.optionalString('OTEL_TRACES_EXPORTER');
  const endpoint = read.optionalString('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ?? read.optionalString('OTEL_EXPORTER_OTLP_ENDPOINT');
  const on = exporter === undefined ? endpoint !== undefined : exporter !== 'none';
  return on ? { serviceName: read.string('OTEL_SERVICE_NAME', DEFAULT_SERVICE_NAME) } : undefined;
}
