/**
 * The declared type of each JSON body property, per operation, read once from a spec:
 * a missing required field is reported with its type as well (`name should not be
 * empty, name must be a string`), as class-validator reports both constraints. Ajv's
 * `required` error does not say the type, so the spec is asked.
 */
import type { ErrorRequestHandler } from 'express';
import { readSpec } from './spec-document';
import type { ValidatorErrorItem } from './validation-messages';

type Node = Record<string, unknown>;

/** operationId → property name → its first non-null type (`string`, `integer`, …). */
export type BodyFieldTypes = ReadonlyMap<string, ReadonlyMap<string, string>>;

export function bodyFieldTypes(specPath: string): BodyFieldTypes {
  const spec = readSpec(specPath) as Node;
  const byOperation = new Map<string, Map<string, string>>();
  for (const pathItem of Object.values(asNode(spec.paths))) {
    for (const operation of Object.values(asNode(pathItem)).map(asNode)) {
      const body = resolve(spec, operation.requestBody);
      const schema = resolve(spec, asNode(asNode(asNode(body.content)['application/json']).schema));
      const types = new Map<string, string>();
      for (const [name, property] of Object.entries(asNode(schema.properties))) {
        const type = firstType(resolve(spec, property).type);
        if (type) types.set(name, type);
      }
      if (typeof operation.operationId === 'string') byOperation.set(operation.operationId, types);
    }
  }
  return byOperation;
}

/** After express-openapi-validator: names the declared type on each `required` error of the body. */
export function namingMissingFieldTypes(types: BodyFieldTypes): ErrorRequestHandler {
  return (err, req, _res, next) => {
    const operationId = (req as { openapi?: { schema?: { operationId?: unknown } } }).openapi?.schema?.operationId;
    const fields = typeof operationId === 'string' ? types.get(operationId) : undefined;
    const items: unknown = err && typeof err === 'object' && 'errors' in err ? err.errors : undefined;
    if (fields && Array.isArray(items)) {
      for (const item of items as ValidatorErrorItem[]) {
        const field = /^\/body\/([^/]+)$/.exec(item.path)?.[1];
        if (item.errorCode === 'required.openapi.validation' && field) item.expectedType = fields.get(field);
      }
    }
    next(err);
  };
}

function asNode(value: unknown): Node {
  return value && typeof value === 'object' ? (value as Node) : {};
}

/** Follows local `$ref`s (`#/components/...`). */
function resolve(spec: Node, value: unknown): Node {
  let node = asNode(value);
  for (let depth = 0; typeof node.$ref === 'string' && depth < 16; depth += 1) {
    node = node.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<Node>((at, key) => asNode(at[key.replace(/~1/g, '/').replace(/~0/g, '~')]), spec);
  }
  return node;
}

function firstType(type: unknown): string | undefined {
  const types = Array.isArray(type) ? type : [type];
  return types.find((t): t is string => typeof t === 'string' && t !== 'null');
}
