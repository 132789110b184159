/**
 * Part of `npm run build`: writes each spec as JSON under dist/openapi/, stamped with
 * the SHA-256 of its YAML, so that a start reads JSON instead of parsing YAML
 * (src/http/openapi/spec-document.ts); and the strict copy of the public spec
 * (src/http/openapi/strict-spec.ts) as plain OpenAPI JSON, dist/openapi/openapi.strict.json,
 * which Schemathesis checks the live service against (scripts/contract/run.sh).
 *   node dist/src/cli/build-spec-json.js
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { SPEC_PATHS } from '../support/project-root';
import { buildSpec, builtSpecPath } from '../http/openapi/spec-document';
import { strictSpec } from '../http/openapi/strict-spec';

for (const specPath of Object.values(SPEC_PATHS)) {
  const target = builtSpecPath(specPath);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, JSON.stringify(buildSpec(specPath)));
}

const publicSpec = buildSpec(SPEC_PATHS.public).document;
writeFileSync(builtSpecPath(SPEC_PATHS.public).replace(/\.json$/, '.strict.json'), JSON.stringify(strictSpec(publicSpec), null, 2));
