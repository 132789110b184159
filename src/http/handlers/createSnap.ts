import { createSnap as createSnapUseCase, type CreateSnapDeps } from '../../domain/create-snap';
import { MESSAGES } from '../../domain/messages';
import type { operations } from '../../../generated/openapi';
import { requireCaller } from './require-caller';
import type { OperationHandlers } from '../operations';

/** POST /api/v1/snap (contract §4.1). */
export function createSnap(deps: CreateSnapDeps): OperationHandlers<operations>['createSnap'] {
  return async ({ body, caller, requestId }) => {
    const { name, notes, ageRange, jobType } = body;
    const data = await createSnapUseCase(deps, requireCaller(caller), { name, notes, ageRange, jobType }, requestId);
    return { status: 201, message: MESSAGES.snapCreated, data };
  };
}
