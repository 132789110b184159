/**
 * Binds handlers to the spec by operationId. Each handler is typed from the generated
 * operations (its JSON body in, its success `data` out) and never sees `req` or `res`.
 * Startup fails if an operation has no handler or a handler has no operation.
 */
import type { Request, Response, Router } from 'express';
import type { Caller, UpstreamTime } from '../../domain/ports';
import { successEnvelope } from '../envelope';
import type { WorkInFlight } from '../../support/work-in-flight';
import { readSpec } from './spec-document';

export interface OperationInput<Body> {
  body: Body;
  params: Record<string, string>;
  /** The query string's parameters, already checked against the spec. */
  query: Record<string, unknown>;
  /** A request header by its lower-case name. */
  header(name: string): string | undefined;
  /** Set on the public API, after the API-key check. */
  caller: Caller | undefined;
  requestId: string;
  /** Aborts when the client closes the connection before its response is written. */
  signal: AbortSignal;
  /** Where the predictor's time is summed for Server-Timing (absent where nothing reports it). */
  timing: UpstreamTime | undefined;
}

export interface OperationResult<Data> {
  status: 200 | 201;
  message: string;
  data: Data;
  headers?: Record<string, string>;
}

export type OperationHandler<Body, Data> = (input: OperationInput<Body>) => Promise<OperationResult<Data>>;

type JsonBodyOf<Op> = Op extends { requestBody: { content: { 'application/json': infer Body } } } ? Body : undefined;

type SuccessDataOf<Op> = Op extends { responses: infer Responses }
  ? {
      [Status in keyof Responses]: Status extends 200 | 201
        ? Responses[Status] extends { content: { 'application/json': { data: infer Data } } }
          ? Data
          : never
        : never;
    }[keyof Responses]
  : never;

/** One handler per operation of a generated `operations` interface, exactly. */
export type OperationHandlers<Operations> = {
  [Id in keyof Operations]: OperationHandler<JsonBodyOf<Operations[Id]>, SuccessDataOf<Operations[Id]>>;
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
type Method = (typeof METHODS)[number];

export interface SpecOperation {
  method: Method;
  path: string;
  operationId: string;
}

/**
 * `servedElsewhere`: operations another router serves (e.g. the ops endpoints, which
 * answer plain text); each must be in the spec with this method and path, and is not
 * bound here. `work`: where each handler's run is counted until it settles, answered or
 * not (its client may have left).
 */
export function bindOperations(
  router: Router,
  specPath: string,
  handlers: Record<string, OperationHandler<never, unknown>>,
  servedElsewhere: readonly SpecOperation[] = [],
  work?: WorkInFlight,
): void {
  const operations = withoutServedElsewhere(specPath, listOperations(specPath), servedElsewhere);
  const ids = new Set(operations.map((op) => op.operationId));
  const missing = [...ids].filter((id) => !(id in handlers));
  const extra = Object.keys(handlers).filter((id) => !ids.has(id));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(`${specPath}: operations without a handler: [${missing.join(', ')}]; handlers without an operation: [${extra.join(', ')}]`);
  }
  for (const { method, path, operationId } of operations) {
    const handler = handlers[operationId] as OperationHandler<unknown, unknown>;
    router[method](toExpressPath(path), async (req, res) => {
      const running = handler(inputOf(req, res));
      const result = await (work ? work.track(running) : running);
      if (result.headers) res.set(result.headers);
      res.status(result.status).json(successEnvelope(result.status, result.message, result.data));
    });
  }
}

function inputOf(req: Request, res: Response): OperationInput<unknown> {
  return {
    body: req.body,
    params: req.params as Record<string, string>,
    query: req.query as Record<string, unknown>,
    header: (name) => req.get(name),
    caller: req.caller,
    requestId: String(req.id),
    signal: clientGoneSignal(res),
    timing: req.timing,
  };
}

/** 'close' comes after the response is written, or earlier when the client hangs up. */
function clientGoneSignal(res: Response): AbortSignal {
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort(new Error('the client closed the connection'));
  });
  return gone.signal;
}

function withoutServedElsewhere(specPath: string, operations: readonly SpecOperation[], servedElsewhere: readonly SpecOperation[]): SpecOperation[] {
  const sameAs = (a: SpecOperation) => (b: SpecOperation) => a.operationId === b.operationId && a.method === b.method && a.path === b.path;
  const undocumented = servedElsewhere.filter((served) => !operations.some(sameAs(served)));
  if (undocumented.length > 0) {
    throw new Error(`${specPath}: routes not in the spec as served: [${undocumented.map((op) => `${op.operationId} ${op.method.toUpperCase()} ${op.path}`).join(', ')}]`);
  }
  return operations.filter((op) => !servedElsewhere.some(sameAs(op)));
}

/** Every operation of the spec, with its method and its path as written there. */
export function listOperations(specPath: string): readonly SpecOperation[] {
  const spec = readSpec(specPath) as { paths?: Record<string, Partial<Record<Method, { operationId?: string }>>> };
  return Object.entries(spec.paths ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operationId = item[method]?.operationId;
      if (item[method] && !operationId) throw new Error(`${specPath}: ${method.toUpperCase()} ${path} has no operationId`);
      return operationId ? [{ method, path, operationId }] : [];
    }),
  );
}

/** `/accounts/{accountId}` → `/accounts/:accountId` */
function toExpressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
