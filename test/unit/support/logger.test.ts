/**
 * An error is logged by what it is and where it came from, never by the values a driver
 * or SDK attached to it (src/support/logger.ts): those are the request's texts.
 */
import { Writable } from 'node:stream';
import { createLogger } from '../../../src/support/logger';

const TEXT = 'Ada Lovelace, secret notes';

function logged(err: unknown): string {
  let out = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out += chunk.toString();
      done();
    },
  });
  createLogger('info', sink).error({ err }, 'failed');
  return out;
}

/** An error as PostgreSQL's and PGlite's drivers shape it: the code and the schema's names, and the values they were given. */
function driverError(): Error {
  return Object.assign(new Error('new row for relation "snaps" violates check constraint "refuse"'), {
    code: '23514',
    severity: 'ERROR',
    table: 'snaps',
    constraint: 'refuse',
    detail: `Failing row contains (${TEXT}).`,
    where: `SQL function with ${TEXT}`,
    internalQuery: `select '${TEXT}'`,
    params: [JSON.stringify({ name: TEXT })],
    query: 'insert into snaps values ($1)',
    error: { message: `upstream echoed ${TEXT}` },
  });
}

test('when a driver error carrying the bound values is logged, then the line names its code, table and constraint and holds none of the values', () => {
  const line = logged(driverError());

  expect(line).not.toContain(TEXT);
  expect(JSON.parse(line).err).toMatchObject({ type: 'Error', code: '23514', severity: 'ERROR', table: 'snaps', constraint: 'refuse', message: expect.stringContaining('violates check constraint') });
});

test('when the driver error is the cause of another, or one of an AggregateError, then it is logged the same way', () => {
  const line = logged(new Error('charge failed', { cause: new AggregateError([driverError()], 'all failed') }));

  expect(line).not.toContain(TEXT);
  expect(JSON.parse(line).err).toMatchObject({ message: 'charge failed', cause: { type: 'AggregateError', errors: [{ code: '23514', constraint: 'refuse' }] } });
});

test('when something other than an Error is logged as err, then only its text is', () => {
  expect(JSON.parse(logged('plain failure')).err).toEqual({ type: 'string', message: 'plain failure' });
});
