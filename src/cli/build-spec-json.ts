/**
 * Part of `npm run build`: writes each spec as JSON under dist/openapi/, stamped with
 * the SHA-256 of its YAML, so that a start reads JSON instead of parsing YAML
 * (src/http/spec-document.ts).
 *   node dist/src/cli/build-spec-json.js
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { SPEC_PATHS } from '../support/project-root';
import { buildSpec, builtSpecPath } from '../http/openapi/spec-document';

for (const specPath of Object.values(SPEC_PATHS)) {
  const target = builtSpecPath(specPath);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, JSON.stringify(buildSpec(specPath)));
}
