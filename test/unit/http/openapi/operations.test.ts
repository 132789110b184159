import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { bindOperations, type OperationHandler } from '../../../../src/http/openapi/operations';

const SPEC = `
openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /things:
    post: {operationId: createThing, responses: {'201': {description: created}}}
  /healthz:
    get: {operationId: getHealth, responses: {'200': {description: alive}}}
`;

const handler: OperationHandler<never, unknown> = async () => ({ status: 201, message: 'ok', data: null });

describe('bindOperations', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pps-spec-'));
  const specPath = join(dir, 'spec.yaml');
  writeFileSync(specPath, SPEC);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const health = { operationId: 'getHealth', method: 'get', path: '/healthz' } as const;

  test('when an operation is served elsewhere as the spec says, then only the others need a handler', () => {
    expect(() => bindOperations(express.Router(), specPath, { createThing: handler }, [health])).not.toThrow();
  });

  test('when an operation has neither a handler nor another router, then startup fails naming it', () => {
    expect(() => bindOperations(express.Router(), specPath, { createThing: handler })).toThrow(/operations without a handler: \[getHealth\]/);
  });

  test.each([
    ['not in the spec', { operationId: 'getMetrics', method: 'get', path: '/metrics' }],
    ['at another path', { ...health, path: '/health' }],
    ['with another method', { ...health, method: 'post' }],
  ] as const)('when a route served elsewhere is %s, then startup fails naming it', (_name, served) => {
    expect(() => bindOperations(express.Router(), specPath, { createThing: handler }, [served])).toThrow(/routes not in the spec as served/);
  });
});
