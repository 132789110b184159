/**
 * OpenTelemetry for the process (docs/operations.md, "Traces"): the Node SDK, configured by
 * the standard OTEL_* variables, with the instrumentations of the libraries a request goes
 * through. Started before the server's modules load, so that the instrumentations see
 * http, express and pg as they are required.
 *
 * What the spans carry is the libraries' defaults minus anything personal: the HTTP server
 * span (method, route template, status, the caller's address and user agent; no other
 * header, no body, and of the query string only that there was one), the database statements
 * with their placeholders (never the values: enhancedDatabaseReporting stays off), the
 * upstream request (undici: method, URL, status), and the GenAI span of each upstream
 * attempt (upstream/openai/genai-telemetry.ts). Probes and metrics scrapes are not traced.
 */
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { TracingConfig } from '../config/config';

const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
/** What a server span says of a request's query string. */
const REDACTED_QUERY = '[redacted]';

export interface Tracing {
  /** Flushes the spans still buffered, then stops: part of the shutdown. */
  shutdown(): Promise<void>;
}

export function startTracing(config: TracingConfig): Tracing {
  // The HTTP spans follow the stable semantic conventions (http.request.method, http.route,
  // http.response.status_code), unless the operator asked for others.
  process.env.OTEL_SEMCONV_STABILITY_OPT_IN ??= 'http';
  // A client writes the path and the user agent a server span records: each value is cut at
  // 512 characters (the SDK keeps them whole by default, 16 KiB a path) unless the operator asked otherwise.
  process.env.OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT ??= '512';
  const sdk = new NodeSDK({
    serviceName: config.serviceName,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has((request.url ?? '').split('?')[0] ?? ''),
        // A query string is the client's to fill, and the public routes take none: a span
        // keeps only that there was one (the hook's attributes replace the instrumentation's).
        startIncomingSpanHook: (request) => ((request.url ?? '').includes('?') ? { 'url.query': REDACTED_QUERY } : {}),
        // The only HTTP client is the upstream's, traced by the undici instrumentation.
        ignoreOutgoingRequestHook: () => true,
      }),
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
