/**
 * Counts and times every response of the public API by operationId and status. The
 * operationId is found from the spec by method and path, so requests refused before
 * validation (401, 429) are labelled too; a route not in the spec is "unknown", which
 * keeps the label set as small as the spec whatever paths clients send. A request whose
 * client left before the response is counted with status 499. With the request's timing
 * (Server-Timing), also the service's own time: total minus upstream. With tracing on,
 * the same match gives the request's server span its route template (`http.route`), refused
 * requests included: the template is set, as the response starts, where OpenTelemetry's HTTP
 * instrumentation reads a framework's route (its RPC metadata), after Express's own layers
 * (whose mount path, `/api/v1`, is all a request refused before its route ever gets).
 */
import { context, ROOT_CONTEXT } from '@opentelemetry/api';
import type { RequestHandler } from 'express';
import onHeaders from 'on-headers';
import type { Metrics } from '../metrics/registry';
import { loadedOnFirstUse } from '../support/on-first-use';
import { endedStatus } from './response-status';
import { listOperations, type SpecOperation } from './openapi/operations';
import { overheadSeconds } from './server-timing';

/** Loaded by the first request with a context (tracing on: the SDK has loaded it already); never without tracing. */
const otelCore = loadedOnFirstUse<typeof import('@opentelemetry/core')>('@opentelemetry/core');

export function requestMetrics(specPath: string, metrics: Pick<Metrics, 'httpRequests' | 'httpRequestDuration' | 'httpRequestOverhead'>): RequestHandler {
  const find = specOperationMatcher(listOperations(specPath));
  return (req, res, next) => {
    const end = metrics.httpRequestDuration.startTimer();
    const matched = find(req.method, req.originalUrl.split('?')[0] ?? '');
    const operation = matched?.operationId ?? 'unknown';
    const active = context.active();
    const rpc = active === ROOT_CONTEXT ? undefined : otelCore().getRPCMetadata(active);
    if (matched && rpc && rpc.type === otelCore().RPCType.HTTP) onHeaders(res, () => (rpc.route = matched.path));
    res.once('close', () => {
      end({ operation });
      metrics.httpRequests.inc({ operation, status: String(endedStatus(res)) });
      if (req.timing) metrics.httpRequestOverhead.observe({ operation }, overheadSeconds(req.timing, performance.now()));
    });
    next();
  };
}

/** `(method, path)` → the spec's operationId, or "unknown". A trailing slash matches, as in Express. */
export function operationMatcher(operations: readonly SpecOperation[]): (method: string, path: string) => string {
  const find = specOperationMatcher(operations);
  return (method, path) => find(method, path)?.operationId ?? 'unknown';
}

/** `(method, path)` → the spec's operation, or undefined. */
function specOperationMatcher(operations: readonly SpecOperation[]): (method: string, path: string) => SpecOperation | undefined {
  const routes = operations.map((operation) => ({
    method: operation.method.toUpperCase(),
    pattern: new RegExp(`^${operation.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}/?$`, 'i'),
    operation,
  }));
  return (method, path) => routes.find((route) => route.method === method.toUpperCase() && route.pattern.test(path))?.operation;
}
