/**
 * The API reference for integrators: `GET /docs` (one self-contained Redoc page, built
 * by `npm run build` into dist/docs/), `GET /openapi.yaml` and `GET /openapi.json`.
 * Public: no API key, and mounted before the rate limit and the spec validator.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Router } from 'express';
import { PROJECT_ROOT, SPEC_PATHS } from '../../support/project-root';
import { readSpec } from '../openapi/spec-document';

export const DOCS_HTML_PATH = join(PROJECT_ROOT, 'dist', 'docs', 'index.html');

/**
 * The page inlines its scripts, styles and the spec, so it needs nothing from anywhere:
 * the policy says so, and a browser blocks any request the page might still try.
 */
const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  'img-src data: blob:',
  'font-src data:',
  "connect-src 'self' blob:",
  'worker-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const NOT_BUILT = 'The API reference page is not built: run `npm run build` (or `make docs`).\n';

export function docsRoutes(docsHtmlPath: string = DOCS_HTML_PATH): Router {
  const specYaml = readFileSync(SPEC_PATHS.public, 'utf8');
  const specJson = JSON.stringify(readSpec(SPEC_PATHS.public));
  let docsHtml: string | undefined;

  const router = express.Router();
  router.get('/openapi.yaml', (_req, res) => {
    res.type('application/yaml; charset=utf-8').send(specYaml);
  });
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json; charset=utf-8').send(specJson);
  });
  router.get('/docs', (_req, res) => {
    docsHtml ??= readIfBuilt(docsHtmlPath);
    if (docsHtml === undefined) {
      res.status(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
      return;
    }
    res.setHeader('Content-Security-Policy', DOCS_CONTENT_SECURITY_POLICY);
    res.type('text/html; charset=utf-8').send(docsHtml);
  });
  return router;
}

function readIfBuilt(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
