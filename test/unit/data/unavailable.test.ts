import { isDatabaseUnavailable } from '../../../src/data/unavailable';

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
    ['SQLSTATE 53100 (disk full: not an outage of reach)', Object.assign(new Error('disk full'), { code: '53100' }), false],
    ['a statement that mentions a timeout', new Error('statement "timeout expired" is not valid'), false],
    ['a unique violation', uniqueViolation(), false],
    ['a plain bug', new TypeError('x is undefined'), false],
  ])('when %s, then %s', (_name, error, want) => {
    expect(isDatabaseUnavailable(error)).toBe(want);
  });
});
