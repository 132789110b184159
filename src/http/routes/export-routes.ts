/**
 * The admin API's exports (openapi/admin.yaml, tag "Personal data"): one JSON document per
 * request, written piece by piece as the repository reads it, without the envelope.
 * `bindOperations` leaves these routes to this router. Mounted behind the admin token,
 * the JSON body parser and the spec's request validation.
 */
import express, { type Request, type Response, type Router } from 'express';
import { exportPersonalData } from '../../domain/personal-data';
import type { PersonalDataRepository } from '../../domain/ports';
import type { SpecOperation } from '../openapi/operations';

export const EXPORT_OPERATIONS = [
  { operationId: 'exportAccountData', method: 'get', path: '/admin/v1/accounts/{accountId}/export' },
  { operationId: 'exportPersonData', method: 'post', path: '/admin/v1/accounts/{accountId}/people/export' },
] as const satisfies readonly SpecOperation[];

export type ExportOperationId = (typeof EXPORT_OPERATIONS)[number]['operationId'];

export function exportRoutes(personalData: PersonalDataRepository): Router {
  const router = express.Router();
  router.get('/admin/v1/accounts/:accountId/export', async (req, res) => {
    await stream(res, await exportPersonalData(personalData, Number(req.params.accountId)));
  });
  router.post('/admin/v1/accounts/:accountId/people/export', async (req: Request<{ accountId: string }, unknown, { name: string }>, res) => {
    await stream(res, await exportPersonalData(personalData, Number(req.params.accountId), req.body.name));
  });
  return router;
}

/** Writes each piece, waiting for the socket to drain when it asks to; a client gone ends the read. */
async function stream(res: Response, pieces: AsyncIterable<string>): Promise<void> {
  res.status(200).type('application/json').set('cache-control', 'no-store');
  for await (const piece of pieces) {
    if (res.destroyed) return;
    if (!res.write(piece)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
  }
  res.end();
}
