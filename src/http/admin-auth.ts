/** The admin listener's bearer token, compared in constant time. */
import type { RequestHandler } from 'express';
import { AppError } from '../domain/app-error';
import { secretsEqual } from '../domain/api-keys';
import { MESSAGES } from '../domain/messages';

export function adminTokenAuth(adminToken: string): RequestHandler {
  return (req, _res, next) => {
    const header = req.get('authorization') ?? '';
    const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    if (!secretsEqual(token, adminToken)) {
      next(new AppError({ kind: 'unauthenticated', message: MESSAGES.invalidAdminToken }));
      return;
    }
    next();
  };
}
