// @ts-check
/** The rendered chart's manifests, for the checks of scripts/deploy/ (make deploy-check). */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

/**
 * Every object of a multi-document YAML file (helm template's output); empty documents dropped.
 * @param {string} file
 * @returns {any[]}
 */
export function readManifests(file) {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((document) => document.toJS())
    .filter((manifest) => manifest && typeof manifest === 'object');
}
