/** The import-boundary rule of eslint.config.mjs: the arrows of docs/architecture.md, checked by `make lint`. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

type Case = [name: string, filePath: string, source: string];

/**
 * ESLint's flat config is an ES module, which Jest's CommonJS runtime cannot load: the
 * cases are linted by one child process running ESLint's API, and come back as the
 * boundary rule's messages per case.
 */
function importErrors(cases: Case[]): Record<string, string[]> {
  const script = `
    import { ESLint } from 'eslint';
    const cases = JSON.parse(process.argv[1]);
    const eslint = new ESLint();
    const out = {};
    for (const [name, filePath, source] of cases) {
      const [result] = await eslint.lintText(source + '\\nexport {};\\n', { filePath });
      out[name] = result.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
    }
    process.stdout.write(JSON.stringify(out));`;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(cases)], { cwd: join(__dirname, '../../..'), encoding: 'utf8' });
  return JSON.parse(stdout) as Record<string, string[]>;
}

describe('import boundaries', () => {
  const refused: Case[] = [
    ['http imports data', 'src/http/app.ts', "import { Sweeper } from '../data/sweeper';"],
    ['http imports an upstream adapter', 'src/http/handlers/createSnap.ts', "import { OpenAiPredictor } from '../../upstream/openai/openai-predictor';"],
    ['http imports the composition root', 'src/http/app.ts', "import type { Services } from '../app/services';"],
    ['domain imports http', 'src/domain/create-snap.ts', "import { errorMapper } from '../http/error-mapper';"],
    ['domain imports knex', 'src/domain/credits.ts', "import { knex } from 'knex';"],
    ['domain imports config', 'src/domain/credits.ts', "import { loadConfig } from '../config/config';"],
    ['data imports upstream', 'src/data/snap-repository.ts', "import { PredictorError } from '../upstream/openai/to-predictor-error';"],
    ['upstream imports data', 'src/upstream/openai/openai-predictor.ts', "import { toNumber } from '../../data/database';"],
    ['config imports the domain', 'src/config/config.ts', "import { MESSAGES } from '../domain/messages';"],
    ['metrics imports knex', 'src/metrics/registry.ts', "import type { Knex } from 'knex';"],
  ];
  const allowed: Case[] = [
    ['http imports the domain', 'src/http/app.ts', "import { MESSAGES } from '../domain/messages';"],
    ['data imports the domain', 'src/data/snap-repository.ts', "import type { SnapRepository } from '../domain/ports';"],
    ['upstream imports config', 'src/upstream/openai/openai-predictor.ts', "import type { OutputBounds } from '../../config/output-bounds';"],
    ['app imports every layer', 'src/app/services.ts', "import { Sweeper } from '../data/sweeper';\nimport { createApiApp } from '../http/app';"],
  ];
  const errors = importErrors([...refused, ...allowed]);

  test.each(refused)('when %s, then lint refuses it', (name) => {
    expect(errors[name]).toHaveLength(1);
  });

  test.each(allowed)('when %s, then lint allows it', (name) => {
    expect(errors[name]).toEqual([]);
  });
});
