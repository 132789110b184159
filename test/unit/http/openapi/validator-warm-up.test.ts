/**
 * The spec validator's warm-up (src/http/openapi/validator-warm-up.ts). It rests on how
 * express-openapi-validator behaves: it compiles a route's request checks with Ajv on the
 * first request that reaches them and keeps them. The first test fails when an upgrade
 * stops doing that (the warm-up would then be dead code); the second, when the warm-up no
 * longer spares a route's first request its compile.
 */
import { jsonBody } from '../../../../src/http/json-body';
import { listOperations } from '../../../../src/http/openapi/operations';
import { specValidator } from '../../../../src/http/openapi/spec-validator';
import { warmUpSpecValidator } from '../../../../src/http/openapi/validator-warm-up';
import { SPEC_PATHS } from '../../../../src/support/project-root';
import { compilesDuring, serveValidator } from '../../../support/validator-compiles';

const snapBody = JSON.stringify({ name: 'A', notes: 'Checks every figure twice.' });

describe('warmUpSpecValidator', () => {
  const postRoutes = listOperations(SPEC_PATHS.public).filter((op) => op.method === 'post');

  test('when a validator has not been warmed, then the first request to a route compiles its checks and the second compiles nothing', async () => {
    const { server, url } = await serveValidator(jsonBody(), specValidator(SPEC_PATHS.public, false));
    const send = async (): Promise<void> => {
      const response = await fetch(`${url}/api/v1/snap`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: snapBody });
      await response.arrayBuffer();
    };
    try {
      expect(await compilesDuring(send)).toBeGreaterThan(0);
      expect(await compilesDuring(send)).toBe(0);
    } finally {
      server.close();
    }
  });

  test('when the warm-up\'s requests are refused, then its own error handler ends each and nothing is printed (Express prints an unhandled error\'s stack outside tests)', async () => {
    const environment = process.env['NODE_ENV'];
    const printed = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    process.env['NODE_ENV'] = 'production';
    try {
      await warmUpSpecValidator(specValidator(SPEC_PATHS.public, false), SPEC_PATHS.public);
      expect(printed).not.toHaveBeenCalled();
    } finally {
      process.env['NODE_ENV'] = environment;
      printed.mockRestore();
    }
  });

  test('when a validator has been warmed, then the first request to each of the spec\'s routes compiles nothing', async () => {
    expect(postRoutes.map((op) => op.path)).toEqual(expect.arrayContaining(['/api/v1/snap', '/api/v1/snap/comms']));
    const validator = specValidator(SPEC_PATHS.public, false);
    await warmUpSpecValidator(validator, SPEC_PATHS.public);
    const { server, url } = await serveValidator(jsonBody(), validator);
    try {
      for (const { path } of postRoutes) {
        const compiles = await compilesDuring(async () => {
          const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: snapBody });
          await response.arrayBuffer();
        });
        expect([path, compiles]).toEqual([path, 0]);
      }
    } finally {
      server.close();
    }
  });
});
