// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The folders of src/ that may be imported from elsewhere in src/; app/ and cli/ compose them and may import any. */
const FOLDERS = ['app', 'cli', 'config', 'data', 'domain', 'http', 'metrics', 'support', 'upstream'];

/**
 * The arrows of docs/architecture.md, enforced: each folder of src/ may import only the
 * folders it names and none of the libraries it lists, so a wrong-way import fails `make lint`.
 */
function layers(rules) {
  return Object.entries(rules).map(([folder, { may, libraries }]) => {
    const forbidden = FOLDERS.filter((other) => other !== folder && !may.includes(other));
    return {
      files: [`src/${folder}/**/*.ts`],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            patterns: [
              ...(libraries.length > 0 ? [{ regex: `^(${libraries.map((name) => name.replace('*', '[^/]*')).join('|')})(/.*)?$`, message: `src/${folder}/ does not use this library (docs/architecture.md).` }] : []),
              { group: forbidden.flatMap((other) => [`**/${other}/*`, `../${other}/*`, `../../${other}/*`, `../../../${other}/*`]), message: `src/${folder}/ ${may.length > 0 ? `may import only ${may.map((m) => `src/${m}/`).join(', ')}` : 'imports nothing outside itself'} (docs/architecture.md).` },
            ],
          },
        ],
      },
    };
  });
}

export default tseslint.config(
  { ignores: ['dist/', 'generated/', 'node_modules/', 'coverage/', '.data/', '.services/', '.venv/', 'test-output/'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', __dirname: 'readonly', module: 'writable', require: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-imports': 'off',
    },
  },
  ...layers({
    domain: { may: [], libraries: ['express', 'express-*', 'knex', 'knex-*', 'pg', 'openai', 'prom-client', 'pino', '@redis/*', 'rate-limit-redis'] },
    support: { may: [], libraries: [] },
    config: { may: ['support'], libraries: [] },
    metrics: { may: ['domain', 'support'], libraries: ['knex', 'knex-*', 'pg', 'express'] },
    http: { may: ['domain', 'config', 'metrics', 'support'], libraries: ['knex', 'knex-*', 'pg', 'openai', '@redis/*', 'rate-limit-redis'] },
    data: { may: ['domain', 'support'], libraries: ['express', 'openai'] },
    upstream: { may: ['domain', 'config', 'support'], libraries: ['express', 'express-*', 'knex', 'knex-*', 'pg'] },
  }),
  {
    files: ['test/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', { selector: "CallExpression[callee.object.name=/^(describe|it|test)$/][callee.property.name='only']", message: 'No .only in committed tests.' }] },
  },
);
