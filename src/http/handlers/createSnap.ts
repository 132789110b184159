import { createSnap as createSnapUseCase, type CreateSnapDeps } from '../../domain/create-snap';
import { MESSAGES } from '../../domain/messages';
import type { operations } from '../../../generated/openapi';
import { replayHeaders } from './replay-headers';
import { requireCaller } from './require-caller';
import type { OperationHandlers } from '../openapi/operations';

/** POST /api/v1/snap (openapi/openapi.yaml, `createSnap`). */
export function createSnap(deps: CreateSnapDeps): OperationHandlers<operations>['createSnap'] {
  return async ({ body, caller, requestId, header, signal, timing }) => {
    const { name, notes, ageRange, jobType } = body;
    const context = { requestId, idempotencyKey: header('idempotency-key'), signal, timing };
    const { result, replayed } = await createSnapUseCase(deps, requireCaller(caller), { name, notes, ageRange, jobType }, context);
    return { status: 201, message: MESSAGES.snapCreated, data: result, headers: replayHeaders(replayed) };
  };
}
