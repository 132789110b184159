import { operationMatcher } from '../../../src/http/request-metrics';

const operationOf = operationMatcher([
  { operationId: 'createSnap', method: 'post', path: '/api/v1/snap' },
  { operationId: 'createCommsAnalysis', method: 'post', path: '/api/v1/snap/comms' },
  { operationId: 'getAccount', method: 'get', path: '/admin/v1/accounts/{accountId}' },
]);

describe('operationMatcher', () => {
  test.each([
    ['POST', '/api/v1/snap', 'createSnap'],
    ['post', '/api/v1/snap/', 'createSnap'],
    ['POST', '/api/v1/snap/comms', 'createCommsAnalysis'],
    ['GET', '/admin/v1/accounts/42', 'getAccount'],
    ['GET', '/api/v1/snap', 'unknown'],
    ['POST', '/api/v1/snapx', 'unknown'],
    ['POST', '/api/v1/snap/comms/extra', 'unknown'],
    ['GET', '/admin/v1/accounts/42/keys', 'unknown'],
    ['POST', '/api/v1.snap', 'unknown'],
  ])('when %s %s arrives, then its operation is %s', (method, path, want) => {
    expect(operationOf(method, path)).toBe(want);
  });
});
