/** The one error mapper: every kind of error to its status and body. */
import { AppError, type ErrorKind } from '../../../src/domain/app-error';
import { errorMapper } from '../../../src/http/error-mapper';

interface Sent {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** The classifier the composition root gives: here, an error whose code says the database refused. */
const isOutage = (err: unknown): boolean => err instanceof Error && 'code' in err && err.code === 'ECONNREFUSED';

function map(err: unknown, path = '/api/v1/snap', method = 'POST'): Sent {
  const sent: Sent = { status: 0, body: {}, headers: {} };
  const logged: unknown[] = [];
  const req = { path, originalUrl: path, method, id: 'request-1', socket: {}, log: { error: (...args: unknown[]) => logged.push(args) } };
  const res = {
    headersSent: false,
    setHeader: (name: string, value: string) => (sent.headers[name] = value),
    status(code: number) {
      sent.status = code;
      return this;
    },
    json(body: Record<string, unknown>) {
      sent.body = body;
    },
  };
  errorMapper(isOutage)(err, req as never, res as never, () => undefined);
  return sent;
}

describe('errorMapper', () => {
  test.each<[ErrorKind, number]>([
    ['invalid_request', 400],
    ['insufficient_credits', 400],
    ['not_found', 404],
    ['method_not_allowed', 405],
    ['conflict', 409],
    ['payload_too_large', 413],
    ['unsupported_media_type', 415],
    ['idempotency_mismatch', 422],
    ['rate_limited', 429],
    ['generation_failed', 500],
    ['internal', 500],
    ['unavailable', 503],
  ])('when an AppError of kind %s is thrown, then it answers %i in the failure envelope', (kind, status) => {
    const { status: sent, body } = map(new AppError({ kind, message: 'the message' }));
    expect(sent).toBe(status);
    expect(body).toEqual({ success: false, message: 'the message', error: 'the message', statusCode: status, timestamp: expect.any(String) });
  });

  test('when the caller is not authenticated, then the body is the bare 401 body', () => {
    expect(map(new AppError({ kind: 'unauthenticated', message: 'Invalid or inactive api key' }))).toMatchObject({
      status: 401,
      body: { message: 'Invalid or inactive api key', error: 'Invalid or inactive api key', statusCode: 401 },
    });
  });

  test.each([
    ['entity.parse.failed', 400, 'Request body is not valid JSON'],
    ['entity.too.large', 413, 'Request body must not be larger than 32768 bytes'],
    ['charset.unsupported', 415, 'Content-Type must be application/json'],
    ['encoding.unsupported', 415, 'Content-Encoding must be gzip, deflate, br or identity'],
  ])('when express.json fails with %s, then it answers %i', (type, status, message) => {
    expect(map(Object.assign(new Error('x'), { type }))).toMatchObject({ status, body: { message } });
  });

  test('when a body the client stopped sending fails with a network code, then it is the client\'s 400, not an outage\'s 503', () => {
    // body-parser's `request.aborted` carries ECONNABORTED, which the composition root's classifier calls an outage; here, the stub's code.
    expect(map(Object.assign(new Error('request aborted'), { type: 'request.aborted', code: 'ECONNREFUSED' }))).toMatchObject({ status: 400 });
  });

  test.each([
    ['gzip or deflate', 'Z_DATA_ERROR', 'incorrect header check'],
    ['a truncated stream', 'Z_BUF_ERROR', 'unexpected end of file'],
    ['brotli', 'ERR__ERROR_FORMAT_PADDING_1', 'Decompression failed'],
  ])('when the body does not decompress (%s), then it answers 400 saying so, never an empty message', (_name, code, text) => {
    const zlibError = Object.assign(new Error(text), { code, errno: -3, status: 400, statusCode: 400, expose: true });
    expect(map(zlibError)).toMatchObject({ status: 400, body: { message: 'Request body could not be decompressed with its Content-Encoding' } });
  });

  test('when the validator refuses a body, then the items become the validation text', () => {
    const err = { status: 400, errors: [{ path: '/body/name', message: 'must be string', errorCode: 'type.openapi.validation' }] };
    expect(map(err)).toMatchObject({ status: 400, body: { message: 'name must be a string' } });
  });

  test('when the validator finds no route or the wrong method, then it answers 404 or 405 with Allow', () => {
    expect(map({ status: 404, errors: [] }, '/api/v1/nope')).toMatchObject({ status: 404, body: { message: 'Cannot POST /api/v1/nope' } });
    expect(map({ status: 405, errors: [], headers: { Allow: 'POST' } }, '/api/v1/snap', 'GET')).toMatchObject({
      status: 405,
      headers: { Allow: 'POST' },
      body: { message: 'Method GET is not allowed on /api/v1/snap' },
    });
  });

  test('when the path is longer than 200 characters, then the 404 and the 405 quote its first 200', () => {
    const path = `/api/v1/${'a'.repeat(5000)}`;
    expect(map({ status: 404, errors: [] }, path)).toMatchObject({ body: { message: `Cannot POST ${path.slice(0, 200)}` } });
    expect(map({ status: 405, errors: [], headers: { Allow: 'POST' } }, path, 'GET')).toMatchObject({ body: { message: `Method GET is not allowed on ${path.slice(0, 200)}` } });
  });

  test('when the domain reports an outage, then it answers 503 "Service temporarily unavailable"', () => {
    const outage = new AppError({ kind: 'unavailable', message: 'Service temporarily unavailable' });
    expect(map(outage)).toMatchObject({ status: 503, body: { message: 'Service temporarily unavailable' } });
  });

  test('when an error the classifier calls an outage arrives, then it answers 503 and any other error 500', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(map(refused)).toMatchObject({ status: 503, body: { success: false, statusCode: 503, message: 'Service temporarily unavailable' } });
    expect(map(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toMatchObject({ status: 500 });
  });

  test('when anything else is thrown, then it answers 500 without the error\'s own text', () => {
    const { status, body } = map(new Error('secret detail: password=hunter2'));
    expect(status).toBe(500);
    expect(body.message).toBe('Internal server error');
    expect(JSON.stringify(body)).not.toContain('hunter2');
  });
});
