/**
 * Operations endpoints on the admin listener, for probes and scrapers: no bearer token,
 * no envelope, no access log line per probe. Documented in openapi/admin.yaml (tag
 * Operations); `bindOperations` checks that the spec and this table agree, and leaves
 * these routes to this router, because /metrics answers Prometheus text, not JSON.
 */
import express, { type RequestHandler, type Router } from 'express';
import type { Logger } from '../../support/logger';
import type { SpecOperation } from '../openapi/operations';

export const OPS_OPERATIONS = [
  { operationId: 'getHealth', method: 'get', path: '/healthz' },
  { operationId: 'getReadiness', method: 'get', path: '/readyz' },
  { operationId: 'getMetrics', method: 'get', path: '/metrics' },
] as const satisfies readonly SpecOperation[];

export type OpsOperationId = (typeof OPS_OPERATIONS)[number]['operationId'];

export type CheckState = 'ok' | 'degraded' | 'unavailable';

/** The body of GET /readyz: the worst check decides the status; `unavailable` is a 503. */
export interface Readiness {
  status: CheckState;
  checks: Record<string, CheckState>;
}

export interface OpsDependencies {
  readiness(): Promise<Readiness>;
  /** This process's metrics: prom-client's registry (Prometheus text, and its content type). */
  metrics: { contentType: string; metrics(): Promise<string> };
  logger: Logger;
}

export function opsRoutes(deps: OpsDependencies): Router {
  const handlers: Record<OpsOperationId, RequestHandler> = {
    getHealth: (_req, res) => {
      res.json({ status: 'ok' });
    },
    getReadiness: async (_req, res) => {
      const readiness = await deps.readiness();
      res.status(readiness.status === 'unavailable' ? 503 : 200).json(readiness);
    },
    getMetrics: async (_req, res) => {
      try {
        const text = await deps.metrics.metrics();
        res.type(deps.metrics.contentType).send(text);
      } catch (err) {
        deps.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'metrics unavailable');
        res.status(503).type('text/plain').send('metrics unavailable\n');
      }
    },
  };
  const router = express.Router();
  for (const { operationId, method, path } of OPS_OPERATIONS) router[method](path, handlers[operationId]);
  return router;
}
