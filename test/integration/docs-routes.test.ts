/** GET /docs, /openapi.yaml and /openapi.json: public, outside the API's rate limit. */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { clientIp, PERSON } from '../support/factories';
import { SPEC_PATHS } from '../../src/support/project-root';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '2' });
});

afterAll(async () => {
  await server.close();
});

function get(path: string, ip: string): Promise<Response> {
  return fetch(`${server.url}${path}`, { headers: { 'x-forwarded-for': ip } });
}

describe('docs routes', () => {
  test('when /openapi.yaml is fetched without an API key, then it is the spec file as YAML', async () => {
    const response = await get('/openapi.yaml', clientIp());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
    expect(await response.text()).toBe(readFileSync(SPEC_PATHS.public, 'utf8'));
  });

  test('when /openapi.json is fetched without an API key, then it is the same spec as JSON', async () => {
    const response = await get('/openapi.json', clientIp());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual(parse(readFileSync(SPEC_PATHS.public, 'utf8')));
  });

  test('when /docs is fetched without an API key, then it is the built page, under a policy that allows no other host', async () => {
    const response = await get('/docs', clientIp());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toEqual(expect.stringContaining("default-src 'none'"));
    const html = await response.text();
    expect(html).toEqual(expect.stringContaining('<title>Profile Prediction Service API</title>'));
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href="http/i);
  });

  test('when a client is over the API rate limit, then the docs and the spec still answer, without rate-limit headers', async () => {
    const ip = clientIp();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await server.post('/api/v1/snap', PERSON, { 'x-forwarded-for': ip });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 429]);

    for (const path of ['/docs', '/openapi.yaml', '/openapi.json', '/docs', '/openapi.json']) {
      const response = await get(path, ip);
      await response.arrayBuffer();
      expect({ path, status: response.status, limit: response.headers.get('x-ratelimit-limit') }).toEqual({ path, status: 200, limit: null });
    }
  });
});
