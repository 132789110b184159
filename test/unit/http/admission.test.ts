import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../../../src/domain/app-error';
import { accountAdmission, admissionControl } from '../../../src/http/admission';

/** A response that closes when the test says so. */
function response(): Response & { close(): void } {
  const emitter = new EventEmitter();
  return Object.assign(emitter, { close: () => emitter.emit('close') }) as unknown as Response & { close(): void };
}

function admit(handler: ReturnType<typeof admissionControl>, res: Response): unknown {
  let passed: unknown = 'not called';
  handler({} as Request, res, ((err?: unknown) => (passed = err)) as NextFunction);
  return passed;
}

describe('admissionControl', () => {
  test('when the bound is reached, then the next request is shed as overloaded with Retry-After, and admitted again once one closes', () => {
    const shed: number[] = [];
    const counts: number[] = [];
    const handler = admissionControl({ maxInFlight: 2, retryAfterSeconds: 1, onShed: () => shed.push(1), onCount: (d) => counts.push(d) });
    const first = response();
    expect(admit(handler, first)).toBeUndefined();
    expect(admit(handler, response())).toBeUndefined();
    const refused = admit(handler, response());
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ kind: 'overloaded', message: 'Service temporarily unavailable', retryAfterSeconds: 1 });
    expect(shed).toHaveLength(1);
    first.close();
    expect(admit(handler, response())).toBeUndefined();
    expect(counts).toEqual([1, 1, -1, 1]);
  });

  test('when the process drains, then every new request is shed the same way, and none is counted as overload', () => {
    let draining = false;
    const shed: number[] = [];
    const handler = admissionControl({ maxInFlight: 100, retryAfterSeconds: 1, onShed: () => shed.push(1), draining: () => draining });
    expect(admit(handler, response())).toBeUndefined();
    draining = true;
    expect(admit(handler, response())).toMatchObject({ kind: 'overloaded', message: 'Service temporarily unavailable', retryAfterSeconds: 1 });
    expect(shed).toEqual([]);
  });
});

describe('accountAdmission', () => {
  const of = (accountId: number) => ({ caller: { accountId, keyId: 1 } }) as unknown as Request;
  function enter(handler: ReturnType<typeof accountAdmission>, req: Request, res: Response): unknown {
    let passed: unknown = 'not called';
    handler(req, res, ((err?: unknown) => (passed = err)) as NextFunction);
    return passed;
  }

  test("when an account has its bound in flight, then its next request is refused as rate limited with Retry-After, another account's is not, and it is admitted again once one closes", () => {
    const refused: number[] = [];
    const handler = accountAdmission({ maxInFlightPerAccount: 2, retryAfterSeconds: 1, onRefused: () => refused.push(1) });
    const first = response();
    expect(enter(handler, of(7), first)).toBeUndefined();
    expect(enter(handler, of(7), response())).toBeUndefined();
    expect(enter(handler, of(7), response())).toMatchObject({ kind: 'rate_limited', message: 'ThrottlerException: Too Many Requests', retryAfterSeconds: 1 });
    expect(enter(handler, of(8), response())).toBeUndefined();
    expect(refused).toHaveLength(1);
    first.close();
    expect(enter(handler, of(7), response())).toBeUndefined();
  });
});
