import { createCommsAnalysis as createCommsUseCase, type CreateCommsDeps } from '../../domain/create-comms-analysis';
import { MESSAGES } from '../../domain/messages';
import type { operations } from '../../../generated/openapi';
import { replayHeaders } from './replay-headers';
import { requireCaller } from './require-caller';
import type { OperationHandlers } from '../openapi/operations';

/** POST /api/v1/snap/comms (openapi/openapi.yaml, `createCommsAnalysis`). */
export function createCommsAnalysis(deps: CreateCommsDeps): OperationHandlers<operations>['createCommsAnalysis'] {
  return async ({ body, caller, requestId, header, signal, timing }) => {
    const { snapId, channel, goal, draft } = body;
    const context = { requestId, idempotencyKey: header('idempotency-key'), signal, timing };
    const { result, replayed } = await createCommsUseCase(deps, requireCaller(caller), { snapId, channel, goal, draft }, context);
    return { status: 201, message: MESSAGES.commsCreated, data: result, headers: replayHeaders(replayed) };
  };
}
