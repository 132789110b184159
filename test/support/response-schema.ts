/** Checks a response body against the schema openapi/openapi.yaml gives a named response, with Ajv (JSON Schema 2020-12). */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const spec = parse(readFileSync(join(__dirname, '../../openapi/openapi.yaml'), 'utf8')) as Record<string, unknown>;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(spec, 'spec');

/** The schema errors of `body` as the spec's response `name` (e.g. SnapCreated) describes it; [] when valid. */
export function responseSchemaErrors(name: string, body: unknown): string[] {
  const validate = ajv.compile({ $ref: `spec#/components/responses/${name}/content/application~1json/schema` });
  return validate(body) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
}
