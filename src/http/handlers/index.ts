/** The public operations, one handler per operationId of openapi/openapi.yaml. */
import type { operations } from '../../../generated/openapi';
import type { ApiDependencies } from '../dependencies';
import type { OperationHandlers } from '../openapi/operations';
import { createCommsAnalysis } from './createCommsAnalysis';
import { createSnap } from './createSnap';

export function publicHandlers(services: ApiDependencies) {
  const deps = {
    credits: services.credits,
    snaps: services.snaps,
    comms: services.comms,
    idempotency: services.idempotency,
    usage: services.usage,
    predictor: services.predictor,
    failureBudget: services.failureBudget,
  };
  return {
    createSnap: createSnap(deps),
    createCommsAnalysis: createCommsAnalysis(deps),
  } satisfies OperationHandlers<operations>;
}
