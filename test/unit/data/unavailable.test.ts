import { isDatabaseOutage, isDatabaseUnavailable } from '../../../src/data/unavailable';

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const uniqueViolation = () => Object.assign(new Error('duplicate key value'), { code: '23505' });

describe('isDatabaseUnavailable', () => {
  test.each([
    ['a refused connection', refused(), true],
    ['SQLSTATE 08006 (connection failure)', Object.assign(new Error('x'), { code: '08006' }), true],
    ['SQLSTATE 57P01 (admin shutdown)', Object.assign(new Error('x'), { code: '57P01' }), true],
    ["knex's pool timeout", Object.assign(new Error('Knex: Timeout acquiring a connection'), { name: 'KnexTimeoutError' }), true],
    ['an outage as the cause of another error', new Error('wrapped', { cause: refused() }), true],
    ["pg's connect timeout (no code)", new Error('timeout expired'), true],
    ["pg's lost connection", new Error('Connection terminated unexpectedly'), true],
    ["pg's connect timeout as pg-pool words it", new Error('Connection terminated due to connection timeout'), true],
    ["pg-pool's checkout timeout", new Error('timeout exceeded when trying to connect'), true],
    ['SQLSTATE 53300 (too many connections)', Object.assign(new Error('sorry, too many clients already'), { code: '53300' }), true],
    ['SQLSTATE 57P03 (starting up)', Object.assign(new Error('the database system is starting up'), { code: '57P03' }), true],
    ['a refused connect to every address of a name', new AggregateError([refused(), refused()], 'connect failed'), true],
    ['a network unreachable', Object.assign(new Error('connect ENETUNREACH'), { code: 'ENETUNREACH' }), true],
    ['SQLSTATE 53100 (disk full: answered, not an outage of reach)', Object.assign(new Error('disk full'), { code: '53100' }), false],
    ['a statement that mentions a timeout', new Error('statement "timeout expired" is not valid'), false],
    ['a unique violation', uniqueViolation(), false],
    ['a plain bug', new TypeError('x is undefined'), false],
  ])('when %s, then %s', (_name, error, want) => {
    expect(isDatabaseUnavailable(error)).toBe(want);
  });
});

const sqlstate = (code: string) => Object.assign(new Error('x'), { code });

describe('isDatabaseOutage', () => {
  test.each([
    ['an outage of reach', refused(), true],
    ['an outage of reach as the cause of another error', new Error('wrapped', { cause: refused() }), true],
    ['SQLSTATE 25006 (read-only transaction: a standby after a failover)', sqlstate('25006'), true],
    ['SQLSTATE 53100 (disk full)', sqlstate('53100'), true],
    ['SQLSTATE 53200 (out of memory)', sqlstate('53200'), true],
    ['SQLSTATE 57014 (statement cancelled)', sqlstate('57014'), true],
    ['SQLSTATE 58030 (I/O error)', sqlstate('58030'), true],
    ['SQLSTATE 25P03 (idle in transaction past its timeout)', sqlstate('25P03'), true],
    ['SQLSTATE 40P01 (deadlock)', sqlstate('40P01'), true],
    ['SQLSTATE 40001 (serialization failure)', sqlstate('40001'), true],
    ['SQLSTATE 55P03 (lock not available)', sqlstate('55P03'), true],
    ['SQLSTATE 53100 inside an AggregateError', new AggregateError([sqlstate('53100')], 'x'), true],
    ['SQLSTATE 25001 (a transaction already active: a bug)', sqlstate('25001'), false],
    ['SQLSTATE 42P01 (no such table: a bug)', sqlstate('42P01'), false],
    ['a unique violation', uniqueViolation(), false],
    ['a plain bug', new TypeError('x is undefined'), false],
  ])('when %s, then %s', (_name, error, want) => {
    expect(isDatabaseOutage(error)).toBe(want);
  });

  test.each(['25006', '53100', '57014', '40P01'])('when PostgreSQL answers %s, then the statement was refused, not lost: no outage of reach', (code) => {
    expect(isDatabaseUnavailable(sqlstate(code))).toBe(false);
  });
});
